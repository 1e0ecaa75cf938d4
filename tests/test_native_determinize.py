"""The native core's determinize against the Python engine's (docs/NATIVE.md, "The forward
model"): a copy made for a player at any decision resamples what he cannot know with exactly
the Python engine's draws from the caller's RNG - the copy's hands and decks, its seed, its
hidden past log, the decision it waits for, and, given the same answers, everything after are
the same on both cores, and the caller's RNG ends in the same state.  On a difference the test
prints the seed, the decks and the first differing decision or event."""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hkk import Engine, RandomAgent

from helpers import BASE_PAIRINGS

hkk_native = pytest.importorskip(
    "hkk_native", reason="hkk_native is not built: pip install ./plugins/hkk-native (needs cargo)")
testset = pytest.importorskip("hkk_native.testset")

LEVELS = ("full", "compact", "outcome")


def _decision(game: Any) -> Any:
    d = game.decision
    return None if d is None else (d.kind, d.player, d.labels(), d.rule, d.prompt)


def _zones(game: Any) -> Any:
    if isinstance(game, hkk_native.NativeGame):
        return [tuple(z) for z in game.zones()]
    return [(list(p.hand), list(p.deck)) for p in game.players]


def _log(game: Any) -> list[dict[str, Any]]:
    if isinstance(game, hkk_native.NativeGame):
        return game.log.as_dicts()
    return [e.as_dict() for e in game.log]


def _same(native: Any, python: Any, where: str) -> None:
    for index, (a, b) in enumerate(itertools.zip_longest(_log(native), _log(python))):
        if a != b:
            pytest.fail(f"cores differ: {where} at event {index}\n  native: {a}\n"
                        f"  python: {b}")
    assert _zones(native) == _zones(python), where
    assert (native.over, native.winner, native.turn) == (
        python.over, python.winner, python.turn), where


def _answer(games: tuple[Any, Any], rng: random.Random, limit: int, where: str) -> int:
    """The same random answers to both games, their decisions compared at each."""
    for answered in range(limit):
        found = [_decision(g) for g in games]
        if found[0] != found[1]:
            pytest.fail(f"cores differ: {where} at decision {answered}\n  native: {found[0]}"
                        f"\n  python: {found[1]}")
        if found[0] is None:
            return answered
        index = rng.randrange(len(found[0][2]))
        for game in games:
            game.answer(index)
    return limit


cases = st.fixed_dictionaries({
    "base": st.booleans(), "which": st.integers(0, 40), "seed": st.integers(0, 2**32),
    "seated": st.booleans(), "level": st.sampled_from(LEVELS),
    "copy_level": st.sampled_from((None, *LEVELS)), "cut": st.integers(-1, 80),
    "player": st.integers(0, 1), "draws": st.integers(0, 2**64), "answers": st.integers(0, 2**32)})


@settings(max_examples=100, deadline=None)
@given(case=cases)
def test_a_native_determinized_copy_goes_on_as_the_python_engines(
        base: Engine, tests_engine: Engine, case: dict[str, Any]) -> None:
    engine = base if case["base"] else tests_engine
    decks = list(BASE_PAIRINGS[case["which"] % 4]) if case["base"] else \
        list(testset.test_set_decks(engine.cards, case["which"]))
    seed, level = case["seed"], case["level"]

    def agents() -> list[Any]:  # one seat played by a seated agent, made afresh per core
        return [RandomAgent(seed + 1), None] if case["seated"] else [None, None]

    games = (hkk_native.core.new_game(engine, decks, seed=seed, agents=agents(),
                                      log_level=level),
             engine.new_game(decks, agents(), seed=seed, log_level=level))
    where = f"seed={seed} decks={decks} case={case}"
    answers = random.Random(case["answers"])
    if case["cut"] >= 0:  # -1: copied before its first decision is read (not set up yet)
        _answer(games, answers, case["cut"], where)
    rngs = (random.Random(case["draws"]), random.Random(case["draws"]))
    copies = tuple(g.determinize(case["player"], r, log_level=case["copy_level"])
                   for g, r in zip(games, rngs, strict=True))
    assert rngs[0].getstate() == rngs[1].getstate(), f"the caller's RNG differs: {where}"
    assert copies[0].agents == [None, None]
    _same(*copies, where + " (the copy)")
    _answer(copies, answers, 60, where + " (the copy)")
    _same(*copies, where + " (the copy, answered)")


def test_determinize_hides_the_opponents_draws_and_the_seed_in_the_copys_past(
        base: Engine) -> None:
    game = hkk_native.core.new_game(base, ["alap:tuz", "alap:viz"], seed=3, agents=[None, None])
    for _ in range(3):  # past the set-up's draws
        game.answer(0)
    copy = game.determinize(0, random.Random(1))
    drawn = [e for e in copy.log.as_dicts() if e["kind"] == "card_drawn"]
    assert {e["card"] for e in drawn if e["player"] == 1} == {"?"}
    assert "?" not in {e["card"] for e in drawn if e["player"] == 0}
    assert next(e for e in copy.log.as_dicts() if e["kind"] == "game_started")["seed"] == "?"
    assert next(e for e in game.log.as_dicts() if e["kind"] == "game_started")["seed"] == 3


def test_determinize_refuses_an_rng_it_cannot_draw_from_natively_by_name(
        base: Engine) -> None:
    class Own(random.Random):
        pass

    game = hkk_native.core.new_game(base, ["alap:tuz", "alap:viz"], seed=3, agents=[None, None])
    with pytest.raises(TypeError, match="needs a plain random.Random.*not .*Own"):
        game.determinize(0, Own(1))
    assert game.decision is not None


@pytest.mark.parametrize(("cut", "player"), [(0, 0), (60, 1), (200, 0)])
def test_a_native_random_deals_the_world_a_python_random_of_its_seed_deals(
        base: Engine, cut: int, player: int) -> None:
    """``determinize`` drawing from an ``hkk_native.Random`` in place: the same copy, going on
    alike, and the dealer ends in the same state as a ``random.Random`` of its seed."""
    game = hkk_native.core.new_game(base, ["alap:tuz", "alap:viz"], seed=11, agents=[None, None])
    answers = random.Random(cut)
    for _ in range(cut):
        game.answer(answers.randrange(len(game.decision.options)))
    python_dealer, native_dealer = random.Random(4), hkk_native.Random(4)
    copies = (game.determinize(player, python_dealer), game.determinize(player, native_dealer))
    assert native_dealer.state() == list(python_dealer.getstate()[1])
    assert copies[0].zones() == copies[1].zones()
    # both copies have the same Python twin: the same view and save
    assert copies[1].view(player).snapshot() == copies[0].view(player).snapshot()
    saves = [copy.save() for copy in copies]
    for save in saves:  # wall times, not the game
        save["state"].pop("clock")
    assert saves[1] == saves[0]
    rest = random.Random(9)
    while (decision := copies[0].decision) is not None:
        assert _decision(copies[1]) == _decision(copies[0])
        chosen = rest.randrange(len(decision.options))
        for copy in copies:
            copy.answer(chosen)
    assert copies[1].decision is None and copies[1].log.as_dicts() == copies[0].log.as_dicts()
