"""The published forward-model protocol: an option is a label plus plain data (uids, card ids,
numbers) read from the label, never an engine object; agents type their view with
``hkk.FairView``; test positions are built by one documented position builder."""

from __future__ import annotations

import inspect
import random
from pathlib import Path

import pytest

import hkk
import hkk.testing
from hkk import Engine, Option

ROOT = Path(__file__).resolve().parent.parent
PLAIN = (str, int)


@pytest.mark.parametrize("seed", [0, 3, 11])
def test_every_option_offered_carries_plain_data_naming_what_it_stands_for(seed: int) -> None:
    engine = Engine.installed(allow=["alap"])
    game = engine.start(["alap:tuz", "alap:viz"], [None, None], seed=seed)
    rng = random.Random(seed)
    named = 0
    while (decision := game.decision) is not None and game.turn < 25:
        assert isinstance(game, hkk.Game)
        for option in decision.options:
            data = option.data
            assert all(isinstance(k, str) and type(v) in PLAIN for k, v in data.items()), data
            if "card" in data:
                assert data["card"] in engine.cards
            word = data.get("word")
            if word in ("target", "attack with", "block with"):  # a permanent in play
                perm = game.permanents[data["uid"]]
                assert perm.card.id == data["card"] and option.value is perm
                named += 1
            elif word == "player":
                assert option.value is game.players[data["player"]]
            elif word == "extract":
                offers = {(o.card_id, o.uid) for o in game.offers}
                assert (data["card"], data["uid"]) in offers
            elif word == "play":
                assert data["card"] in game.players[decision.player].hand
        game.answer(rng.randrange(len(decision.options)))
    assert named > 0


@pytest.mark.parametrize(("label", "data"), [
    ("play alap:tuzmano", {"word": "play", "card": "alap:tuzmano"}),
    ("use alap:x#12:0 (2)", {"word": "use", "card": "alap:x", "uid": 12, "ability": 0}),
    ("alap:x#3:1", {"card": "alap:x", "uid": 3, "ability": 1}),
    ("attack with alap:q#4", {"word": "attack with", "card": "alap:q", "uid": 4}),
    ("player 1 (P2)", {"word": "player", "player": 1}),
    ("pass turn", {"word": "pass turn"}),
])
def test_an_options_data_is_read_from_its_label(label: str, data: dict[str, object]) -> None:
    assert Option(label).data == data
    assert Option(label, value=object()).data == data  # never from the engine's value


def test_the_built_in_agents_type_their_view_as_the_fair_view() -> None:
    for agent in (hkk.RandomAgent, hkk.FirstLegalAgent, hkk.ScriptedAgent, hkk.GreedyAgent,
                  hkk.MctsAgent, hkk.testing.PassingAgent):
        first = list(inspect.signature(agent.choose).parameters.values())[1]
        assert first.annotation == "FairView", (agent, first.annotation)


def test_one_documented_position_builder_serves_hkk_testing_and_pytest_hkk() -> None:
    pytest_hkk = pytest.importorskip("pytest_hkk")
    assert hkk.build_position is hkk.testing.build_game is pytest_hkk.build_game
    assert "hkk.build_position" in (ROOT / "docs" / "FORWARD-MODEL.md").read_text("utf-8")
    engine = Engine.installed(allow=["alap"])
    game = hkk.build_position(engine, [{"hand": ["alap:tuzmano"], "vp": 5}, {"hp": 3}])
    assert game.players[0].hand == ["alap:tuzmano"] and game.players[1].hp == 3
    passing = [hkk.testing.PassingAgent(), hkk.testing.PassingAgent()]
    again = hkk.load_game(engine, game.clone().save(), agents=passing)
    assert again.snapshot() == game.snapshot()
