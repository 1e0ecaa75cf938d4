"""Install order changes nothing: the same seed gives the same event log whatever order the
sets' entry points are found in and the plugins (built-in rules and sets) are registered in."""

from __future__ import annotations

import importlib_metadata
import pytest

from hkk import Engine
from hkk._plugin import make_plugin_manager
from hkk._rules import BUILTIN_RULES
from hkk._sets import discover

DECKS = ["mereg:mocsar", "alap:tuz"]


def _engine(*, reverse: bool) -> Engine:
    points = sorted(importlib_metadata.entry_points(group="hkk.sets"), key=lambda e: e.name)
    if reverse:
        points.reverse()
    found = discover(entry_points=points, pm=make_plugin_manager(), strict=True)
    pm = make_plugin_manager()
    rules = dict(reversed(BUILTIN_RULES.items())) if reverse else dict(BUILTIN_RULES)
    sets = list(found.sets.values())
    for loaded in reversed(sets) if reverse else sets:  # pluggy calls the last-registered first
        if loaded.has_hooks:
            pm.register(loaded.module, name=f"hkk.sets.{loaded.code}")
    return Engine(found.cards, decks=found.decks, rules=rules, pm=pm)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_same_seed_same_log_whatever_the_registration_order(seed):
    forward = _engine(reverse=False).play(DECKS, seed=seed)
    backward = _engine(reverse=True).play(DECKS, seed=seed)
    assert forward.log.as_dicts() == backward.log.as_dicts()
    assert forward.winner == backward.winner
