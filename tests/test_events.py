"""Typed events (issue 20, hook API 2.0): each kind a class of ``hkk.events``; the JSON keeps the
envelope first and the fields in class order; hook API 1 field names still read for one release
with a DeprecationWarning naming the new one."""

from __future__ import annotations

import json
import warnings

import pytest

from hkk import Engine
from hkk.events import KINDS, ComponentsExtracted, Damaged, Prevented, VpGained

ENGINE = Engine.installed(allow=["alap"])


def _extracted() -> ComponentsExtracted:
    return ComponentsExtracted(4, 2, "main_phase", player=1, card="alap:tuzmano", uid=3, amount=2)


def test_hook_api_1_field_names_still_read_with_a_deprecation_warning_naming_the_new_one():
    event = _extracted()
    with pytest.warns(DeprecationWarning, match="'components_extracted' event field 'count' "
                                                "is 'amount' since hook API 2.0"):
        assert event["count"] == 2
    with pytest.warns(DeprecationWarning, match="'vp' is 'after'"):
        assert VpGained(0, 1, "", player=0, amount=1, source=None, after=5).get("vp") == 5
    prevented = Prevented(0, 1, "", item="x", controller=0, card="alap:a", preventer_uid=7,
                          preventer_card="alap:b", rule="D-prevented")
    with pytest.warns(DeprecationWarning, match="'preventer_card and preventer_uid'"):
        assert prevented["by"] == "alap:b#7"  # the old value, as hook API 1 wrote it


def test_new_field_names_read_without_a_warning():
    event = _extracted()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert (event.amount, event["amount"], event.get("amount")) == (2, 2, 2)
        assert event.data == {"player": 1, "card": "alap:tuzmano", "uid": 3, "amount": 2}


def test_json_has_the_envelope_first_then_the_fields_in_class_order():
    game = ENGINE.play(["alap:tuz", "alap:viz"], seed=2)
    for event in json.loads(game.log.to_json()):
        names = list(event)
        assert names[:4] == ["seq", "turn", "step", "kind"]
        declared = list(KINDS[event["kind"]].FIELDS)
        assert names[4:] == [n for n in declared if n in names[4:]]


def test_events_are_equal_by_kind_and_values_and_immutable():
    one = Damaged(0, 1, "", uid=1, card="alap:a", amount=1, source=None, source_uid=None, after=1)
    same = Damaged(0, 1, "", uid=1, card="alap:a", amount=1, source=None, source_uid=None, after=1)
    assert one == same and hash(one) == hash(same)
    assert one != tuple(one)  # not a plain tuple of the same values
    with pytest.raises(AttributeError):
        one.after = 2  # type: ignore[misc]
    with pytest.raises(AttributeError):
        one.__dict__  # noqa: B018  (slotted: no instance dict)


def test_a_saved_and_loaded_log_holds_the_same_typed_events():
    from hkk import load_game, save_game

    game = ENGINE.new_game(["alap:tuz", "alap:viz"], seed=5)
    game.play(max_turns=3)
    loaded = load_game(ENGINE, save_game(game))
    assert list(loaded.log) == list(game.log)
    assert {type(e) for e in loaded.log} <= set(KINDS.values())
