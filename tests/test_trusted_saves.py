"""Issue 24 item 2: a save's state is trusted only as far as its log and its rules go.

``load_game`` refuses a state no game can be in (wrong types, out of range, unknown cards, a
card in two zones or in none, a permanent listed twice), and ``hkk replay`` compares the state
its log leads to with the saved one, naming the first field that differs."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from hkk import Engine, SaveError, advance, load_game
from hkk._replay import replay
from hkk._saving import parse_save
from hkk.cli import main

ENGINE = Engine.installed()


def saved(turns: int = 6, seed: int = 2) -> dict:
    game = ENGINE.new_game(["alap:tuz", "alap:viz"], seed=seed)
    while game.turn < turns or game.step_index != 3:
        advance(game)
    return game.save()


def test_an_honest_save_loads_and_replays_with_its_state():
    data = saved()
    assert replay(ENGINE, parse_save(data)).ok
    load_game(ENGINE, data).play()


def edit(data: dict, change) -> dict:
    data = json.loads(json.dumps(data))
    change(data["state"])
    return data


def first_card_in_play(state: dict) -> dict:
    return state["permanents"][0]


@pytest.mark.parametrize(("change", "message"), [
    (lambda s: s["players"][0].__setitem__("hp", "lots"), "players.0.hp"),
    (lambda s: s["players"][1].__setitem__("vp", -3), "players.1.vp"),
    (lambda s: s["players"][0]["hand"].append("alap:nincs-ilyen"),
     "alap:nincs-ilyen is not in the deck dealt to him"),
    (lambda s: s["players"][0].__setitem__("hand", []), "of the deck dealt is in no zone"),
    (lambda s: s["players"][1]["graveyard"].append(s["players"][1]["deck"][0]),
     "is in one zone more than the deck dealt holds"),
    (lambda s: s["permanents"].append(dict(s["permanents"][0])), "is listed twice"),
    (lambda s: first_card_in_play(s).__setitem__("owner", 5), "is no player"),
    (lambda s: s.__setitem__("active", 2), "active"),
    (lambda s: s.__setitem__("step_index", 99), "past the turn's"),
])
def test_load_game_refuses_a_state_no_game_can_be_in(change, message):
    data = edit(saved(), change)
    with pytest.raises(SaveError) as caught:
        load_game(ENGINE, data)
    assert message in str(caught.value) and "\n" not in str(caught.value)


def test_replay_names_the_first_field_the_log_does_not_lead_to():
    data = edit(saved(), lambda s: s["players"][0].__setitem__("vp", 999))
    result = replay(ENGINE, parse_save(data))
    assert not result.ok and result.divergence is None
    assert result.state_difference is not None
    assert result.state_difference.startswith("players[0].vp: saved 999, replayed ")


def test_hkk_replay_refuses_an_edited_state(tmp_path):
    honest = tmp_path / "honest.json"
    honest.write_text(json.dumps(saved()), "utf-8")
    edited = tmp_path / "edited.json"
    edited.write_text(json.dumps(edit(saved(), lambda s: s.__setitem__("next_uid", 500))),
                      "utf-8")
    runner = CliRunner()
    ok = runner.invoke(main, ["replay", str(honest)])
    assert ok.exit_code == 0 and "OK" in ok.output, ok.output
    bad = runner.invoke(main, ["replay", str(edited)])
    assert bad.exit_code == 1, bad.output
    assert "state differs" in bad.output and "next_uid: saved 500" in bad.output


def test_a_save_at_a_decision_replays_with_its_state():
    from hkk import RandomAgent
    game = ENGINE.new_game(["alap:tuz", "alap:viz"], seed=4, agents=[None, RandomAgent(1)])
    me = RandomAgent(2)
    for _ in range(70):
        decision = game.decision
        game.answer(me.choose(game.view(decision.player), decision))
    assert replay(ENGINE, parse_save(game.save())).ok
