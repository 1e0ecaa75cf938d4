"""Saves interchangeable between the cores, and a player's view of a native game
(docs/NATIVE.md, "Saves and views"): a native save at any decision is the Python engine's save
of the same game there (its clock's times aside), loads in the Python engine and goes on as
the unsaved game on both cores; a Python save at any decision, or between two steps, loads
natively and goes on as the Python game, its players' names too; a native view shows what the Python view shows and
hides what it hides.  On a difference the test prints the seed, the decks and the first
differing event of each."""

from __future__ import annotations

import itertools
import json
import random
import re
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from strategies_sets import card_models, fixed_or_fresh, set_and_decks

from hkk import (
    Engine,
    FirstLegalAgent,
    RandomAgent,
    Rulings,
    SaveError,
    StepLoopError,
    TriggerLoopError,
    load_game,
)
from hkk._runner import advance

from helpers import BASE_PAIRINGS, RUNAWAY, SEATS, STEP_LOOP, seated_agents

hkk_native = pytest.importorskip(
    "hkk_native", reason="hkk_native is not built: pip install ./plugins/hkk-native (needs cargo)")
testset = pytest.importorskip("hkk_native.testset")



games = st.fixed_dictionaries({
    "base": st.booleans(), "which": st.integers(0, 40), "seed": st.integers(0, 2**32),
    "seats": st.sampled_from(SEATS), "answers": st.integers(0, 2**32),
    "cut": st.integers(0, 400), "later": st.integers(0, 2**32)})


def _setup(base: Engine, tests_engine: Engine, g: dict[str, Any]
           ) -> tuple[Engine, list[Any], str]:
    engine = base if g["base"] else tests_engine
    decks = list(BASE_PAIRINGS[g["which"] % 4]) if g["base"] else \
        list(testset.test_set_decks(engine.cards, g["which"]))
    return engine, decks, f"seed={g['seed']} decks={decks} seats={g['seats']}"


def _answer(games: list[Any], rng: random.Random, limit: int | None = None) -> int:
    """Answer every game with the same random answers while they wait for a decision (up to
    ``limit``); the answers given."""
    given = 0
    while limit is None or given < limit:
        decision = games[0].decision
        if decision is None:
            break
        index = rng.randrange(len(decision.options))
        for game in games:
            game.answer(index)
        given += 1
    return given


def _log(game: Any) -> list[dict[str, Any]]:
    return [e.as_dict() for e in game.log]


def _same_games(where: str, **games: Any) -> None:
    """The games' logs, ends and winners are alike, or the first differing event is named."""
    (first_name, first), *others = games.items()
    for name, game in others:
        for index, (a, b) in enumerate(itertools.zip_longest(_log(first), _log(game))):
            if a != b:
                pytest.fail(f"{first_name} and {name} differ: {where}, at event {index}\n"
                            f"  {first_name}: {a}\n  {name}: {b}")
        assert (game.over, game.winner, game.turn) == (first.over, first.winner, first.turn), \
            f"{first_name} and {name} end differently: {where}"


def _without_clock(save: dict[str, Any]) -> dict[str, Any]:
    """A save but its clock's times (wall time, not the game: hkk replay skips them too)."""
    data = json.loads(json.dumps(save))
    data["state"].pop("clock")
    return data


@settings(max_examples=14, deadline=None)
@given(g=games, level=st.sampled_from(("full", "full", "compact", "outcome")))
def test_a_native_save_at_any_decision_is_the_python_save_and_goes_on_alike_in_python(
        base: Engine, tests_engine: Engine, g: dict[str, Any], level: str) -> None:
    engine, decks, where = _setup(base, tests_engine, g)
    native = hkk_native.core.new_game(engine, decks, seed=g["seed"],
                                      agents=seated_agents(g["seats"], g["seed"]), log_level=level)
    python = engine.new_game(decks, seated_agents(g["seats"], g["seed"]), seed=g["seed"],
                             log_level=level)
    cut = _answer([native, python], random.Random(g["answers"]), g["cut"])
    where += f" saved after {cut} answers"
    if level != "full":  # refused as the Python engine refuses it, in its words
        with pytest.raises(SaveError) as refused:
            native.save()
        with pytest.raises(SaveError, match="only with the full log") as python_refused:
            python.save()
        assert str(refused.value) == str(python_refused.value)
        return
    saved = native.save()
    assert _without_clock(saved) == _without_clock(python.save()), where
    loaded = load_game(engine, json.loads(json.dumps(saved)))
    _answer([native, python, loaded], random.Random(g["later"]))
    _same_games(where, native=native, python=python, loaded_in_python=loaded)


@settings(max_examples=14, deadline=None)
@given(g=games)
def test_a_python_save_at_any_decision_loads_natively_and_goes_on_alike(
        base: Engine, tests_engine: Engine, g: dict[str, Any]) -> None:
    engine, decks, where = _setup(base, tests_engine, g)
    python = engine.new_game(decks, seated_agents(g["seats"], g["seed"]), seed=g["seed"])
    cut = _answer([python], random.Random(g["answers"]), g["cut"])
    where += f" saved after {cut} answers"
    saved = json.loads(json.dumps(python.save()))
    try:
        native = hkk_native.load_native(engine, saved)
    except hkk_native.Refused as exc:  # none expected of a data-only game: named if one is
        pytest.fail(f"a Python save the native core refused: {where}: {exc}")
    assert _without_clock(native.save()) == _without_clock(saved), where  # and back
    unsaved = hkk_native.core.new_game(engine, decks, seed=g["seed"],
                                       agents=seated_agents(g["seats"], g["seed"]))
    _answer([unsaved], random.Random(g["answers"]), cut)
    _answer([python, native, unsaved], random.Random(g["later"]))
    _same_games(where, python=python, loaded_natively=native, native_unsaved=unsaved)


def test_a_native_game_of_named_players_offers_them_by_name_as_python(base: Engine) -> None:
    decks = ["alap:tuz", "alap:viz"]
    names = ("Anna", "Béla")
    python = base.new_game(decks, [None, None], seed=5, names=names)
    native = hkk_native.core.new_game(base, decks, seed=5, agents=[None, None], names=names)
    _answer([python, native], random.Random(5))
    assert any(e.choice == "player 0 (Anna)" for e in native.log.of_kind("decision"))
    _same_games("seed=5 decks=alap:tuz, alap:viz named Anna, Béla", python=python, native=native)


def test_a_python_save_of_named_players_loads_natively_with_their_names(base: Engine) -> None:
    decks = ["alap:tuz", "alap:viz"]
    python = base.new_game(decks, [None, None], seed=5, names=("Anna", "Béla"))
    _answer([python], random.Random(5), 30)
    saved = json.loads(json.dumps(python.save()))
    native = hkk_native.load_native(base, saved)
    assert [p.name for p in native.view(0).players] == ["Anna", "Béla"]
    assert _without_clock(native.save()) == _without_clock(saved)
    _answer([python, native], random.Random(6))
    _same_games("seed=5 decks=alap:tuz, alap:viz named Anna, Béla",
                python=python, loaded_natively=native)


@settings(max_examples=10, deadline=None)
@given(g=games, steps=st.integers(0, 600))
def test_a_python_save_between_two_steps_loads_natively_and_plays_on_alike(
        base: Engine, tests_engine: Engine, g: dict[str, Any], steps: int) -> None:
    engine, decks, where = _setup(base, tests_engine, g)
    python = engine.new_game(decks, [RandomAgent(g["seed"]), RandomAgent(g["answers"])],
                             seed=g["seed"])
    taken = 0
    while taken < steps and advance(python):
        taken += 1
    where += f" saved between steps after {taken} steps"
    saved = python.save()
    assert saved["position"] is None
    native = hkk_native.load_native(engine, saved)
    assert native.decision is None  # every seat has an agent
    native.play()
    python.play()
    _same_games(where, python=python, loaded_natively=native)


@settings(max_examples=8, deadline=None)
@given(g=games)
def test_a_save_at_a_decision_loaded_with_agents_in_every_seat_plays_on_as_python(
        base: Engine, tests_engine: Engine, g: dict[str, Any]) -> None:
    engine, decks, where = _setup(base, tests_engine, g)
    python = engine.new_game(decks, seated_agents(g["seats"], g["seed"]), seed=g["seed"])
    cut = _answer([python], random.Random(g["answers"]), g["cut"])
    where += f" saved after {cut} answers"
    saved = python.save()
    seated = [RandomAgent(g["later"]), RandomAgent(g["later"] + 1)]
    native = hkk_native.load_native(engine, saved, agents=seated)
    again = load_game(engine, saved, agents=[RandomAgent(g["later"]),
                                             RandomAgent(g["later"] + 1)])
    native.play()
    again.play()
    _same_games(where, python=again, loaded_natively=native)


def _dump(view: Any) -> str:
    """Everything a view hands out, as text."""
    seats = [{name: getattr(seat, name) for name in type(seat).__slots__}
             for seat in view.players]
    decision = view.decision
    return repr((view.snapshot(), _log(view), seats, view.hand, view.turn, view.active,
                 view.over, view.winner, view.deciding, view.turn_passed,
                 None if decision is None else decision.labels(),
                 {uid: (p.card.id, p.zone) for uid, p in view.permanents.items()},
                 [(o.card_id, o.uid) for o in view.offers]))


@settings(max_examples=12, deadline=None)
@given(g=games, player=st.sampled_from((0, 1)))
# a hidden card whose id begins another card's (tt:ward, tt:warden): a whole id is looked for
@example(g={"base": False, "which": 17, "seed": 3982, "seats": "random-first", "answers": 0,
            "cut": 85, "later": 0}, player=0)
def test_a_native_view_shows_what_the_python_view_shows_and_hides_the_same(
        base: Engine, tests_engine: Engine, g: dict[str, Any], player: int) -> None:
    engine, decks, where = _setup(base, tests_engine, g)
    native = hkk_native.core.new_game(engine, decks, seed=g["seed"],
                                      agents=seated_agents(g["seats"], g["seed"]))
    python = engine.new_game(decks, seated_agents(g["seats"], g["seed"]), seed=g["seed"])
    view = native.view(player)  # live: read again after the answers
    _answer([native, python], random.Random(g["answers"]), g["cut"])
    shown = _dump(view)
    # what is hidden from him appears nowhere in what he is handed: the other hand's cards
    # that are in no public place and not his own, and the order of either deck
    state = python.snapshot()
    public = {c for p in state["players"] for c in p["graveyard"] + p["void"]}
    public |= {p["card"] for p in state["permanents"].values()}
    public |= set(python.decks[player]) | {
        e["card"] for e in _log(python) if "card" in e and e["kind"] != "card_drawn"}
    hidden = set(python.players[1 - player].hand) - public
    leaked = sorted(c for c in hidden if re.search(rf"{re.escape(c)}(?!\w)", shown))
    assert not leaked, f"{where}: player {player}'s view shows the other hand's {leaked}"
    for deck in (python.players[0].deck, python.players[1].deck):
        if len(deck) > 1:
            assert repr(list(deck))[1:-1] not in shown, f"{where}: a deck's order is shown"
            assert repr(tuple(deck)) not in shown, f"{where}: a deck's order is shown"
    assert not hasattr(view, "rng")
    assert view.players[1 - player].hand is None
    assert shown == _dump(python.view(player)), where


def _hidden_leaked(game: Any, player: int, shown: str) -> list[str]:
    """The other hand's cards that are in no public place and not ``player``'s own, named in
    ``shown`` (a whole id: tt:ward is not tt:warden)."""
    state = game.snapshot()
    public = {c for p in state["players"] for c in p["graveyard"] + p["void"]}
    public |= {p["card"] for p in state["permanents"].values()}
    public |= set(game.decks[player]) | {
        e["card"] for e in _log(game) if "card" in e and e["kind"] != "card_drawn"}
    hidden = set(game.players[1 - player].hand) - public
    return sorted(c for c in hidden if re.search(rf"{re.escape(c)}(?!\w)", shown))


@settings(max_examples=10, deadline=None)
@given(g=games, player=st.sampled_from((0, 1)), draws=st.integers(0, 2**32))
def test_a_determinized_native_copy_is_saved_and_viewed_as_the_python_engines_copy(
        base: Engine, tests_engine: Engine, g: dict[str, Any], player: int,
        draws: int) -> None:
    engine, decks, where = _setup(base, tests_engine, g)
    native = hkk_native.core.new_game(engine, decks, seed=g["seed"],
                                      agents=seated_agents(g["seats"], g["seed"]))
    python = engine.new_game(decks, seated_agents(g["seats"], g["seed"]), seed=g["seed"])
    cut = _answer([native, python], random.Random(g["answers"]), g["cut"])
    where += f" determinized for player {player} after {cut} answers, draws={draws}"
    copies = native.determinize(player, random.Random(draws)), \
        python.determinize(player, random.Random(draws))
    views = [copy.view(player) for copy in copies]  # live: read again after the answers
    assert _without_clock(copies[0].save()) == _without_clock(copies[1].save()), where
    assert _dump(views[0]) == _dump(views[1]), where
    assert copies[0].snapshot() == copies[1].snapshot(), where
    _answer(list(copies), random.Random(g["later"]), 40)
    shown = _dump(views[0])
    assert shown == _dump(views[1]), where
    assert not _hidden_leaked(copies[1], player, shown), where
    assert _without_clock(copies[0].save()) == _without_clock(copies[1].save()), where


def _answered_or_stopped(games: list[Any], rng: random.Random, limit: int | None = None
                         ) -> bool:
    """``_answer``: True once answered, False where a random set's game stopped as the cores
    stop it (tests/test_native_forward.py, ``_answered_or_stopped_alike``, checks how)."""
    try:
        _answer(games, rng, limit)
        for game in games:  # each run up to its decision (a game none was asked of is not)
            game.decision  # noqa: B018
    except (StepLoopError, TriggerLoopError):
        return False
    stopped = [str(g.unported) for g in games if getattr(g, "unported", None)]
    assert all(STEP_LOOP in s or s.startswith(RUNAWAY) for s in stopped), stopped
    return not stopped


@fixed_or_fresh(40)
@given(drawn=set_and_decks(), g=games, player=st.sampled_from((0, 1)))
def test_random_sets_saved_both_ways_and_determinized_go_on_as_the_python_engine(
        drawn: tuple[dict[str, Any], tuple[list[str], list[str]]], g: dict[str, Any],
        player: int) -> None:
    """Random data-only sets over the whole card language (tests/strategies_sets.py), not
    only the base and test sets' cards: at a random decision the native save is the Python
    save and goes on alike loaded in Python, the Python save goes on alike loaded natively,
    and copies determinized for either player are saved and viewed alike and go on alike.
    ``HKK_FRESH_SETS=N`` draws N fresh sets instead (a fuzzing run)."""
    tables, drawn_decks = drawn
    engine, decks = Engine(card_models(tables)), list(drawn_decks)
    native = hkk_native.core.new_game(engine, decks, seed=g["seed"],
                                      agents=seated_agents(g["seats"], g["seed"]))
    python = engine.new_game(decks, seated_agents(g["seats"], g["seed"]), seed=g["seed"])
    if not _answered_or_stopped([native, python], random.Random(g["answers"]), g["cut"]):
        return
    where = (f"seed={g['seed']} decks={decks} seats={g['seats']} saved after "
             f"{native.emitted} events, later={g['later']}\n"
             f"cards: {json.dumps(list(tables.values()))}")
    saved = native.save()
    assert _without_clock(saved) == _without_clock(python.save()), where
    in_python = load_game(engine, json.loads(json.dumps(saved)))
    in_native = hkk_native.load_native(engine, json.loads(json.dumps(python.save())))
    copies = native.determinize(player, random.Random(g["later"])), \
        python.determinize(player, random.Random(g["later"]))
    assert _without_clock(copies[0].save()) == _without_clock(copies[1].save()), where
    assert _dump(copies[0].view(player)) == _dump(copies[1].view(player)), where
    if _answered_or_stopped([native, python, in_python, in_native], random.Random(g["later"])):
        _same_games(where, native=native, python=python, loaded_in_python=in_python,
                    loaded_natively=in_native)
    if _answered_or_stopped(list(copies), random.Random(g["later"] + 1), 40):
        _same_games(where, native_copy=copies[0], python_copy=copies[1])


@pytest.mark.parametrize("player", [0, 1])
def test_a_copy_determinized_at_the_first_decision_is_saved_as_the_python_engines_copy(
        base: Engine, player: int) -> None:
    """At the first decision (the set-up's, its decks shuffled, nothing answered) a copy is
    resampled as a set-up game, not dealt again as one not yet set up: its save, read before
    its own decision is, is the Python engine's copy's."""
    decks = list(BASE_PAIRINGS[1])
    for seed in range(4):
        native = hkk_native.core.new_game(base, decks, seed=seed, agents=[None, None])
        python = base.new_game(decks, [None, None], seed=seed)
        assert native.decision.kind == python.decision.kind == "start"
        copies = native.determinize(player, random.Random(seed)), \
            python.determinize(player, random.Random(seed))
        assert _without_clock(copies[0].save()) == _without_clock(copies[1].save()), seed


def test_a_determinized_copy_of_a_game_without_a_twin_says_why_it_has_no_save(
        tests_engine: Engine) -> None:
    decks = list(testset.test_set_decks(tests_engine.cards, 1))
    game = hkk_native.core.new_game(tests_engine, decks, seed=1, agents=[None, None])
    game._origin = None  # as a native game made without its engine
    copy = game.determinize(0, random.Random(1))
    with pytest.raises(hkk_native.NativeUnsupported,
                       match="a determinized copy of a game that has none .*no save, view"):
        copy.save()
    assert copy.decision is not None  # and the copy goes on


def test_a_native_snapshot_is_the_python_games(tests_engine: Engine) -> None:
    decks = list(testset.test_set_decks(tests_engine.cards, 2))
    native = hkk_native.core.new_game(tests_engine, decks, seed=2, agents=[None, None])
    python = tests_engine.new_game(decks, [None, None], seed=2)
    _answer([native, python], random.Random(2), 30)
    assert native.snapshot() == python.snapshot()
    assert native.snapshot()["players"][1]["hand"]  # both hands are in it


def test_a_save_the_python_loader_refuses_the_native_loader_refuses_in_its_words(
        tests_engine: Engine) -> None:
    decks = list(testset.test_set_decks(tests_engine.cards, 4))
    python = tests_engine.new_game(decks, [None, None], seed=4)
    _answer([python], random.Random(4), 10)
    saved = python.save()
    for broken in ({**saved, "engine": "0.0.0"}, {**saved, "format": "hkk-save/1"},
                   {**saved, "state": {**saved["state"], "next_uid": "x"}}):
        errors = []
        for load in (load_game, hkk_native.load_native):
            with pytest.raises(SaveError) as refused:
                load(tests_engine, broken)
            errors.append(str(refused.value))
        assert errors[0] == errors[1]


def test_a_save_the_native_core_cannot_run_is_refused_naming_why(
        tests_engine: Engine) -> None:
    decks = list(testset.test_set_decks(tests_engine.cards, 4))
    ruled = tests_engine.new_game(decks, [None, None], seed=4,
                                  rulings=Rulings(max_items_per_step=2**40))
    _answer([ruled], random.Random(4), 5)
    with pytest.raises(hkk_native.Refused, match=r"cannot load this save: "
                                                 r"Rulings.max_items_per_step=1099511627776"):
        hkk_native.load_native(tests_engine, ruled.save())

    class Mine(FirstLegalAgent):
        sees_everything = True  # it reads the hkk.Game itself

    game = tests_engine.new_game(decks, [None, Mine()], seed=4)
    _answer([game], random.Random(4), 5)
    with pytest.raises(hkk_native.Refused, match="agent Mine sees_everything: it reads the "
                                                 "Python engine's hkk.Game"):
        hkk_native.load_native(tests_engine, game.save(), agents=[None, Mine()])


def test_a_save_loaded_natively_with_a_python_agent_plays_on_as_the_python_game(
        tests_engine: Engine) -> None:
    class Mine(FirstLegalAgent):  # not seated natively: asked through the protocol
        pass

    decks = list(testset.test_set_decks(tests_engine.cards, 4))
    game = tests_engine.new_game(decks, [None, Mine()], seed=4)
    _answer([game], random.Random(4), 5)
    saved = game.save()
    native = hkk_native.load_native(tests_engine, saved, agents=[Mine(), Mine()])
    python = load_game(tests_engine, saved, agents=[Mine(), Mine()])
    native.play()
    python.play()
    _same_games("seed=4 loaded with Mine in both seats", native=native, python=python)


def test_d_rulings_a_save_under_the_engines_rulings_loads_natively_and_plays_on_alike(
        tests_engine: Engine) -> None:
    """A game of an engine with other rulings (docs/RULINGS.md) saves them; that engine loads
    the save natively, and the game goes on as the Python engine's load of it."""
    ruled = Engine(tests_engine.cards, rulings=Rulings(default_orderer="stable",
                                                       unspent_vp_carries_over=False))
    decks = list(testset.test_set_decks(tests_engine.cards, 4))
    game = ruled.new_game(decks, [None, None], seed=4)
    _answer([game], random.Random(4), 9)
    saved = game.save()
    assert saved["rulings"] == {"default_orderer": "stable", "unspent_vp_carries_over": False}
    native = hkk_native.load_native(ruled, saved, agents=[FirstLegalAgent(), FirstLegalAgent()])
    python = load_game(ruled, saved, agents=[FirstLegalAgent(), FirstLegalAgent()])
    native.play()
    python.play()
    _same_games("seed=4 under other rulings", native=native, python=python)
    # an engine of other rulings loads it too: they are the game's own, as saved
    native = hkk_native.load_native(tests_engine, saved,
                                    agents=[FirstLegalAgent(), FirstLegalAgent()])
    python = load_game(tests_engine, saved, agents=[FirstLegalAgent(), FirstLegalAgent()])
    native.play()
    python.play()
    _same_games("seed=4 under the game's own rulings", native=native, python=python)


def test_a_save_whose_log_the_native_core_does_not_come_to_is_refused_naming_the_event(
        tests_engine: Engine) -> None:
    decks = list(testset.test_set_decks(tests_engine.cards, 6))
    python = tests_engine.new_game(decks, [None, None], seed=6)
    _answer([python], random.Random(6), 25)
    saved = python.save()
    decided = [e for e in saved["log"] if e["kind"] == "decision"]
    decided[-1]["choice"] = "no such option"
    with pytest.raises(hkk_native.Refused, match="does not replay natively: decision "
                                                 f"{len(decided) - 1}: player .*'s action decision "
                                                 "offers .*, not \"no such option\""):
        hkk_native.load_native(tests_engine, saved, force=True)
