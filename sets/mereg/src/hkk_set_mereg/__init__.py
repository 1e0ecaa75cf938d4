"""Méreg (``mereg``): a community expansion for hkk with poison counters.

Data (``set.toml``, ``cards/*.toml``, ``decks/*.toml``) plus one set-wide rule in Python,
:mod:`hkk_set_mereg.poison` (Kódex 121.1).  Discovery registers this package as the set's
plugin, so the hook implementations are re-exported here.
"""

from hkk_set_mereg.poison import COUNTER, RULE, custom_effects, lethal, prep_stage2

__all__ = ["COUNTER", "RULE", "custom_effects", "lethal", "prep_stage2"]
