"""The native core as a forward model, against the Python engine (docs/NATIVE.md, "The forward
model"): a game answered from outside one decision at a time gives the same decisions (kind,
player, labels, rule, in order), the same log and the same winner on both cores for the same
answers; a copy made at any decision goes on, apart from its original, as the Python engine's
copy does; a bad answer is refused with the Python engine's error and changes nothing.  On a
difference the test prints the seed, the decks and the first differing decision or event."""

from __future__ import annotations

import itertools
import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies_sets import card_models, fixed_or_fresh, set_and_decks

import hkk
from hkk import (
    Engine,
    HkkError,
    IllegalDecision,
    Option,
    RandomAgent,
    StepLoopError,
    TriggerLoopError,
)
from hkk._greedy import GreedyAgent
from hkk._mcts import MctsAgent

from helpers import BASE_PAIRINGS, RUNAWAY, SEATS, STEP_LOOP, beyond_native_range, seated_agents

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
            found.append(None if d is None else (d.kind, d.player, d.labels(), d.rule, d.prompt))
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
        native = self.native.log.as_dicts()
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


def _answered_or_stopped_alike(pair: Pair, rng: random.Random, limit: int | None = None
                               ) -> bool:
    """``pair.answer``: True once answered to the end (or ``limit``), False where a game of a
    random set stopped as the cores stop it: a step past its item limit (the Python engine
    raises ``StepLoopError``, the native game stops naming it), a repeating chain (the native
    core stops at the chain's length limit, D-trigger-loop), a number leaving 2^52 (the native
    core stops, the Python engine holds it)."""
    try:
        pair.answer(rng, limit)
    except StepLoopError:
        assert STEP_LOOP in str(pair.native.unported), f"{pair.where}: {pair.native.unported}"
        return False
    except TriggerLoopError:
        return False
    except pytest.fail.Exception:
        if not str(pair.native.unported).startswith(RUNAWAY):
            raise
        assert beyond_native_range(players=pair.python.players), \
            f"{pair.where}: {pair.native.unported}"
        return False
    return True


@fixed_or_fresh(60)
@given(drawn=set_and_decks(), g=games, cut=st.integers(0, 300), other=st.integers(0, 2**32))
def test_random_sets_answered_from_outside_and_copied_go_on_as_the_python_engine(
        drawn: tuple[dict[str, Any], tuple[list[str], list[str]]], g: dict[str, Any], cut: int,
        other: int) -> None:
    """Random data-only sets over the whole card language (tests/strategies_sets.py), not
    only the base and test sets' cards: answered from outside and copied at a random decision,
    both cores decide and log alike, the copy apart from its original. ``HKK_FRESH_SETS=N``
    draws N fresh sets instead (a fuzzing run)."""
    tables, decks = drawn
    pair = Pair(Engine(card_models(tables)), list(decks), g["seed"], g["seats"], g["level"])
    pair.where += f"\ncards: {json.dumps(list(tables.values()))}"
    rng = random.Random(g["answers"])
    if _answered_or_stopped_alike(pair, rng, limit=cut):
        _answered_or_stopped_alike(pair.copy(), random.Random(other))
        _answered_or_stopped_alike(pair, rng)


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


def _same_games(native: Any, python: Any, where: str) -> None:
    """The two games' logs event for event, and where they stand."""
    for index, (a, b) in enumerate(itertools.zip_longest(
            native.log.as_dicts(), [e.as_dict() for e in python.log])):
        assert a == b, f"cores differ: {where} at event {index}\n  native: {a}\n  python: {b}"
    assert (native.over, native.winner, native.turn) == (
        python.over, python.winner, python.turn), where


#: Agents a game is reseated with: the native core seats the random and first ones natively,
#: asks a Python one through the protocol, and one RandomAgent in both seats too.
RESEATS = ("random", "first", "python", "shared random", "none")


def _reseat(games: list[Any], how: tuple[str, str], seed: int) -> None:
    """Reseat each game (the native one, the Python one) alike: each seat by ``how``."""
    for game in games:
        shared = RandomAgent(seed + 7)
        for seat, kind in enumerate(how):
            game.agents[seat] = {
                "random": RandomAgent(seed + seat), "first": hkk.FirstLegalAgent(),
                "python": Longest(), "shared random": shared, "none": None}[kind]


@settings(max_examples=12, deadline=None)
@given(g=games, cut=st.integers(0, 300), turns=st.integers(0, 4),
       how=st.tuples(st.sampled_from(RESEATS), st.sampled_from(RESEATS)))
def test_a_game_reseated_at_a_decision_and_played_to_a_turn_limit_goes_on_as_python(
        base: Engine, tests_engine: Engine, g: dict[str, Any], cut: int, turns: int,
        how: tuple[str, str]) -> None:
    """Reseating where the game stands - at a decision of a step in which a seated agent may
    have decided already - and ``play(max_turns=...)`` (what a Python search's rollouts do,
    hkk._mcts): the same events and end as the Python engine's game, whose twin the native
    save is."""
    pair = _pair(base, tests_engine, g)
    rng = random.Random(g["answers"])
    pair.answer(rng, limit=cut)
    where = f"{pair.where} reseated {how} after {pair.answered} answers"
    games = [pair.native, pair.python]
    _, waiting = pair.decisions()  # both run up to it, alike
    if "none" in how and waiting is not None and how[waiting.player] != "none":
        return  # the Python engine still offers the decision reseated to the caller
    try:
        _reseat(games[:1], how, g["seed"])
    except hkk_native.NativeUnsupported as refused:  # a seated agent decided in this step
        assert "a seated agent has decided" in str(refused), where
        return
    _reseat(games[1:], how, g["seed"])
    if None in pair.python.agents:
        pair.answer(rng)  # the seat left to the caller answered alike to the end
        return
    limit = pair.python.turn + turns
    winners = [game.play(max_turns=limit) for game in games]
    assert winners[0] == winners[1], where
    _same_games(pair.native, pair.python, where)
    assert pair.native.over and (pair.native.winner is not None or pair.native.turn <= limit)
    if g["level"] == "full" and "python" not in how and "shared random" not in how:
        assert pair.native.save()["log"] == pair.python.save()["log"], where


def test_play_to_a_turn_limit_ends_the_game_there_as_the_python_engine(
        tests_engine: Engine) -> None:
    decks = list(testset.test_set_decks(tests_engine.cards, 2))
    for limit in (0, 1, 3):
        native = hkk_native.core.new_game(tests_engine, decks, seed=2)
        python = tests_engine.new_game(decks, None, seed=2)
        assert native.play(max_turns=limit) is None is python.play(max_turns=limit)
        _same_games(native, python, f"max_turns={limit}")
        assert native.turn == limit and native.log.as_dicts()[-1]["reason"] == "turn_limit"
        assert native.decision is None
        assert native.save()["log"] == python.save()["log"]  # its twin played there too


class PythonMcts(MctsAgent):
    """The Python engine's mcts, asked through the protocol (the native core seats an
    ``MctsAgent`` as its own native searcher)."""


class PythonGreedy(GreedyAgent):
    """The Python engine's greedy, asked through the protocol."""


@pytest.mark.parametrize("make", [lambda: PythonMcts(3, budget=4),
                                  lambda: PythonGreedy(3, ahead=0.5)],
                         ids=["mcts", "greedy"])
def test_a_python_search_agent_searches_a_native_game_as_on_the_python_engine(
        base: Engine, make: Any) -> None:
    """The Python mcts and greedy on a native game: their worlds are the native game's
    determinized copies, reseated and played to a turn limit (mcts's rollouts), cloned and
    answered (greedy), viewed through the Python twin; they choose as on the Python engine,
    so the games are the same event for event."""
    decks = list(BASE_PAIRINGS[0])
    games, agents = [], []
    for core in ("native", "python"):
        agent = make()
        seats = [agent, RandomAgent(8)]
        game = hkk_native.core.new_game(base, decks, seed=8, agents=seats) \
            if core == "native" else base.new_game(decks, seats, seed=8)
        game.play(max_turns=5)
        games.append(game)
        agents.append(agent)
    _same_games(games[0], games[1], f"seed=8 decks={decks} {type(agents[0]).__name__}")
    assert agents[0].decisions == agents[1].decisions > 0
    assert agents[0].rng.getstate() == agents[1].rng.getstate()


# -- Python agents seated on a native game, asked through the protocol --------------------------

class Longest:
    """A Python agent the native core has no twin of: the option with the longest label (the
    first of those), and what it was shown at each decision - its view's hand, turn, decision
    and the decision's kind, prompt, labels and rule."""

    def __init__(self) -> None:
        self.seen: list[Any] = []

    def choose(self, view: Any, decision: Any) -> Any:
        self.seen.append((view.hand, view.turn, view.decision, view.players[0].vp,
                          decision.kind, decision.prompt, decision.labels(), decision.rule))
        labels = decision.labels()
        return decision.options[labels.index(max(labels, key=len))]


class Offers:
    """A Python agent answering with an option that is not offered."""

    def choose(self, view: Any, decision: Any) -> Any:
        return Option("nowhere")


@settings(max_examples=12, deadline=None)
@given(on_base=st.booleans(), which=st.integers(0, 40), seed=st.integers(0, 2**32),
       level=st.sampled_from(LEVELS), other=st.sampled_from(("python", "random", "first")))
def test_a_python_agent_plays_a_native_game_as_on_the_python_engine(
        base: Engine, tests_engine: Engine, on_base: bool, which: int, seed: int,
        level: str, other: str) -> None:
    engine = base if on_base else tests_engine
    decks = list(BASE_PAIRINGS[which % 4]) if on_base else \
        list(testset.test_set_decks(engine.cards, which))
    where = f"seed={seed} decks={decks} other seat={other} level={level}"
    seated = []
    for core in ("native", "python"):
        agents = [Longest(), {"python": Longest(), "random": RandomAgent(seed),
                              "first": hkk.FirstLegalAgent()}[other]]
        game = hkk_native.core.new_game(engine, decks, seed=seed, agents=agents,
                                        log_level=level) if core == "native" else \
            engine.new_game(decks, agents, seed=seed, log_level=level)
        game.play()
        seated.append((game, agents))
    (native, native_agents), (python, python_agents) = seated
    assert native.over and native.winner == python.winner, where
    for index, (a, b) in enumerate(itertools.zip_longest(
            native.log.as_dicts(), [e.as_dict() for e in python.log])):
        assert a == b, f"cores differ: {where} at event {index}\n  native: {a}\n  python: {b}"
    assert native_agents[0].seen == python_agents[0].seen, where  # shown the same things
    assert native_agents[0].seen and all(s[2] is None for s in native_agents[0].seen)


def test_a_python_agent_beside_a_seat_answered_from_outside_is_asked_as_python(
        tests_engine: Engine) -> None:
    decks = list(testset.test_set_decks(tests_engine.cards, 3))
    agents = Longest(), Longest()
    native = hkk_native.core.new_game(tests_engine, decks, seed=5, agents=[agents[0], None])
    python = tests_engine.new_game(decks, [agents[1], None], seed=5)
    rng = random.Random(5)
    while (decision := native.decision) is not None:
        assert decision.player == 1 and python.decision is not None
        assert decision.labels() == python.decision.labels()
        index = rng.randrange(len(decision.options))
        native.answer(index)
        python.answer(index)
    assert python.decision is None and native.over and python.over
    assert native.log.as_dicts() == [e.as_dict() for e in python.log]
    assert agents[0].seen == agents[1].seen
    assert native.save()["log"] == python.save()["log"]


def test_a_python_agent_answering_an_option_not_offered_is_refused_as_python(
        tests_engine: Engine) -> None:
    decks = list(testset.test_set_decks(tests_engine.cards, 1))
    errors = []
    for game in (hkk_native.core.new_game(tests_engine, decks, seed=1,
                                          agents=[Offers(), RandomAgent(1)]),
                 tests_engine.new_game(decks, [Offers(), RandomAgent(1)], seed=1)):
        with pytest.raises(IllegalDecision) as refused:
            game.play()
        errors.append(str(refused.value))
    assert errors[0] == errors[1] and "player 0 chose" in errors[0]


def test_an_agent_that_cannot_be_asked_through_the_protocol_is_refused_naming_it(
        tests_engine: Engine) -> None:
    decks = list(testset.test_set_decks(tests_engine.cards, 1))

    class Omniscient(Longest):
        sees_everything = True

    for agent, said in ((Omniscient(), "agent Omniscient sees_everything"),
                        (object(), "agent object has no choose")):
        with pytest.raises(hkk_native.Refused, match=said):
            hkk_native.core.new_game(tests_engine, decks, seed=1, agents=[agent, None])
    with pytest.raises(hkk_native.Refused, match="agent Longest is not seated natively"):
        hkk_native.play_many_native(tests_engine, decks, seeds=[1, 2],
                                    agents=[Longest(), RandomAgent(1)])


@pytest.mark.parametrize("level", ["full", "compact", "outcome"])
def test_a_native_log_reads_as_the_python_engines_whole_or_event_by_event(
        base: Engine, level: str) -> None:
    """The reading side of ``hkk.EventLog`` on a finished game: ``as_dicts`` (every event's
    dict in one call), ``event(i)`` one at a time, ``kinds`` (no event read) and the events
    built lazily are the Python engine's log."""
    decks = list(BASE_PAIRINGS[1])
    native = hkk_native.core.new_game(base, decks, seed=8, log_level=level)
    python = base.new_game(decks, seed=8, log_level=level)
    native.play()
    python.play()
    assert python.over and native.over and len(native.log) == len(python.log) > 0
    expected = [e.as_dict() for e in python.log]
    assert native.log.as_dicts() == expected
    assert [native._game.event(i) for i in range(len(native.log))] == expected
    assert native.log.kinds() == python.log.kinds()
    assert [e.as_dict() for e in native.log] == expected
