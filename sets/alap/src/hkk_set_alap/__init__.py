"""Alapkészlet (``alap``): the base set of Hatalom Kártyái for hkk.

Data only: ``set.toml``, ``cards/*.toml``, ``decks/*.toml`` and ``formats/*.toml`` beside this
file are the set.  ``set.toml`` does not say ``python = true``, so hkk reads these files without
ever importing this package.
"""
