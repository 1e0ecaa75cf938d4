"""The native core as a forward model, against the Python engine (docs/NATIVE.md, "The forward
model"): a game answered from outside one decision at a time gives the same decisions (kind,
player, labels, rule, in order), the same log and the same winner on both cores for the same
answers; a copy made at any decision goes on, apart from its original, as the Python engine's
copy does; a bad answer is refused with the Python engine's error and changes nothing.  On a
difference the test prints the seed, the decks and the first differing decision or event."""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hkk import Engine, HkkError, IllegalDecision, Option, RandomAgent

from helpers import BASE_PAIRINGS, SEATS, seated_agents

hkk_native = pytest.importorskip(
    "hkk_native", reason="hkk_native is not built: pip install ./plugins/hkk-native (needs cargo)")
testset = pytest.importorskip("hkk_native.testset")

LEVELS = ("full", "full", "compact", "outcome")


class Pair:
    """One game on both cores: the same decks, seed, seats and log level."""

    def __init__(self, engine: Engine, decks: list[Any], seed: int, seats: str, level: str
                 ) -> None:
        self.where = f"seed={seed} decks={decks} seats={seats} level={level}"
        self.native = hkk_native.core.new_game(engine, decks, seed=seed,
                                               agents=seated_agents(seats, seed), log_level=level)
        self.python = engine.new_game(decks, seated_agents(seats, seed), seed=seed, log_level=level)
        self.answered = 0

    def copy(self) -> Pair:
        other = Pair.__new__(Pair)
        other.where, other.answered = self.where + f" (a copy at answer {self.answered})", 0
        other.native, other.python = self.native.clone(), self.python.clone()
        return other

    def decisions(self) -> tuple[Any, Any]:
        found = []
        for game in (self.native, self.python):
            d = game.decision
            found.append(None if d is None else (d.kind, d.player, d.labels(), d.rule))
        if found[0] != found[1]:
            pytest.fail(f"cores differ: {self.where} at decision {self.answered}\n"
                        f"  native: {found[0]}\n  python: {found[1]}")
        return self.native.decision, self.python.decision

    def answer(self, rng: random.Random, limit: int | None = None) -> None:
        """Answer both with the same random answers (by index, label or option) until the end,
        or ``limit`` answers; then the logs are compared."""
        start = self.answered
        while limit is None or self.answered - start < limit:
            native, python = self.decisions()
            if native is None:
                break
            index, how = rng.randrange(len(native.options)), rng.randrange(3)
            for game, d in ((self.native, native), (self.python, python)):
                game.answer(index if how == 0 else d.options[index].label if how == 1
                            else d.options[index])
            self.answered += 1
        self.same_log()

    def same_log(self) -> None:
        native = self.native.log
        python = [e.as_dict() for e in self.python.log]
        for index, (a, b) in enumerate(itertools.zip_longest(native, python)):
            if a != b:
                pytest.fail(f"cores differ: {self.where} after {self.answered} answers, at "
                            f"event {index}\n  native: {a}\n  python: {b}")
        assert (self.native.over, self.native.winner, self.native.turn) == (
            self.python.over, self.python.winner, self.python.turn), self.where


def _decks(engine: Engine, base: bool, which: int) -> list[Any]:
    if base:
        return list(BASE_PAIRINGS[which % len(BASE_PAIRINGS)])
    return list(testset.test_set_decks(engine.cards, which))


games = st.fixed_dictionaries({
    "base": st.booleans(), "which": st.integers(0, 40), "seed": st.integers(0, 2**32),
    "seats": st.sampled_from(SEATS), "level": st.sampled_from(LEVELS),
    "answers": st.integers(0, 2**32)})


def _pair(base: Engine, tests_engine: Engine, g: dict[str, Any]) -> Pair:
    engine = base if g["base"] else tests_engine
    return Pair(engine, _decks(engine, g["base"], g["which"]), g["seed"], g["seats"],
                g["level"])


@settings(max_examples=12)
@given(g=games)
def test_a_game_answered_from_outside_decides_and_logs_as_the_python_engines(
        base: Engine, tests_engine: Engine, g: dict[str, Any]) -> None:
    pair = _pair(base, tests_engine, g)
    pair.answer(random.Random(g["answers"]))
    assert pair.native.over and pair.native.decision is None


@settings(max_examples=12)
@given(g=games, cut=st.integers(0, 400), other=st.integers(0, 2**32))
def test_a_copy_at_any_decision_goes_on_apart_as_the_python_engines_copy(
        base: Engine, tests_engine: Engine, g: dict[str, Any], cut: int, other: int) -> None:
    pair = _pair(base, tests_engine, g)
    rng = random.Random(g["answers"])
    pair.answer(rng, limit=cut)
    copy = pair.copy()
    copy.answer(random.Random(other))  # the copy first, to its end: the original is untouched
    pair.answer(rng)


@settings(max_examples=8)
@given(g=games, cut=st.integers(0, 300),
       bad=st.sampled_from(["past", -1, "no such option", Option("no such option"), True,
                            None, 1.0]))
def test_a_bad_answer_is_refused_as_the_python_engine_refuses_it_and_changes_nothing(
        base: Engine, tests_engine: Engine, g: dict[str, Any], cut: int, bad: Any) -> None:
    pair = _pair(base, tests_engine, g)
    rng = random.Random(g["answers"])
    pair.answer(rng, limit=cut)
    native, _ = pair.decisions()
    if native is None:
        return
    bad = len(native.options) if bad == "past" else bad
    errors = []
    for game in (pair.native, pair.python):
        with pytest.raises(IllegalDecision) as refused:
            game.answer(bad)
        errors.append(str(refused.value))
    assert errors[0] == errors[1], pair.where
    pair.answer(rng)  # nothing changed: the same game goes on alike to its end


def test_an_answer_after_the_end_is_refused_as_the_python_engine_refuses_it(
        tests_engine: Engine) -> None:
    pair = Pair(tests_engine, list(testset.test_set_decks(tests_engine.cards, 3)), 3,
                "outside", "outcome")
    pair.answer(random.Random(3))
    errors = []
    for game in (pair.native, pair.python):
        with pytest.raises(IllegalDecision) as refused:
            game.answer(0)
        errors.append(str(refused.value))
    assert errors[0] == errors[1]


def test_a_seated_native_game_waits_for_nothing_and_plays_to_the_python_engines_end(
        tests_engine: Engine) -> None:
    decks = list(testset.test_set_decks(tests_engine.cards, 5))
    native = hkk_native.core.new_game(tests_engine, decks, seed=5)
    assert native.decision is None
    winner = native.play()
    python = tests_engine.new_game(decks, None, seed=5)
    assert (winner, native.turn) == (python.play(), python.turn)


def test_playing_a_game_with_a_seat_answered_from_outside_is_refused_as_python(
        tests_engine: Engine) -> None:
    decks = list(testset.test_set_decks(tests_engine.cards, 1))
    errors = []
    for game in (hkk_native.core.new_game(tests_engine, decks, seed=1, agents=[None, None]),
                 tests_engine.new_game(decks, [None, None], seed=1)):
        with pytest.raises(HkkError) as refused:
            game.play()
        errors.append(str(refused.value))
    assert errors[0] == errors[1]


@pytest.mark.parametrize("call", ["view", "save", "agents"])
def test_what_the_native_forward_model_lacks_is_refused_naming_the_core_and_method(
        tests_engine: Engine, call: str) -> None:
    decks = list(testset.test_set_decks(tests_engine.cards, 1))
    game = hkk_native.core.new_game(tests_engine, decks, seed=1, agents=[None, None])
    copy = game.determinize(0, random.Random(1))
    calls = {"view": lambda: copy.view(0), "save": copy.save}
    named = {"agents": "native core has no agents", "view": "a determinized copy .* no save, view",
             "save": "a determinized copy .* no save, view"}
    with pytest.raises(hkk_native.NativeUnsupported, match=named[call]):
        if call == "agents":
            game.agents[0] = RandomAgent(1)
        else:
            calls[call]()
    assert game.decision is not None  # and the game goes on
