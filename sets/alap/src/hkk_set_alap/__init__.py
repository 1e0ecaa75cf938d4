"""Alapkészlet (``alap``): the base set of Hatalom Kártyái for hkk.

Data only: ``set.toml``, ``cards/*.toml`` and ``decks/*.toml`` beside this file are the set; no
Python of this package runs in a game.
"""
