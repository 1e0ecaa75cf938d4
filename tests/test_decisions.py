"""The one door for decisions (``Game.decide``): an agent answers with one of the offered
options; an equal Option it made itself (same label) stands for the offered one, and anything
else is refused."""

from __future__ import annotations

import pytest

from hkk import IllegalDecision, Option

from helpers import Passer, cid, creature, game_with, run_until

BRUTE = creature("brute", 2, 2)


class Copies(Passer):
    """Answers with a new Option carrying only the label of the one it wants."""

    def __init__(self, label: str) -> None:
        super().__init__()
        self.label = label

    def choose(self, game, decision):  # type: ignore[no-untyped-def]
        if decision.kind == "action" and self.label in decision.labels():
            label, self.label = self.label, ""
            return Option(label)  # no value: the game must act on the offered one
        return super().choose(game, decision)


def test_an_agents_equal_option_stands_for_the_offered_one():
    game = game_with([BRUTE], agents=[Copies(f"play {cid('brute')}"), Passer()])
    game.players[0].hand.append(cid("brute"))
    run_until(game, "main_phase", inclusive=True)
    assert [e["card"] for e in game.log.of_kind("card_played")] == [cid("brute")]
    assert f"play {cid('brute')}" in [e["choice"] for e in game.log.of_kind("decision")]


class Nonsense:
    def choose(self, game, decision):  # type: ignore[no-untyped-def]
        return Option("nonsense")


def test_an_option_not_offered_is_an_illegal_decision():
    game = game_with([BRUTE], agents=[Nonsense(), Passer()])
    with pytest.raises(IllegalDecision, match="chose Option\\('nonsense'\\); action options "
                       "were \\['pass', 'pass turn'\\]"):
        game.decide(0, "action", [Option("pass"), Option("pass turn")])
    assert not game.log.of_kind("decision")
