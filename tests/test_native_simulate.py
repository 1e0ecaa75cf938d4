"""``hkk simulate`` on the native core: the games of a chunk played in one batched call, each
recorded natively as ``hkk._outcome.OutcomeRecorder`` records it (nothing per event in Python),
give the same rows, tables and JSON as the Python engine for the same seeds (docs/NATIVE.md).
Played on the native core's test set (``hkk_native.testset``): decks it runs whole; and on
random sets over the whole card language (tests/strategies_sets.py)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from strategies_sets import card_models, fixed_or_fresh, set_and_decks

from hkk import Engine
from hkk._ablation import filler_id, impact
from hkk._balance import balance
from hkk._outcome import Tally
from hkk._simulate import _ENGINES, pairings, plan, simulate
from hkk._stats import summarize

testset = pytest.importorskip(
    "hkk_native.testset", reason="hkk_native is not built: pip install ./plugins/hkk-native")

SETS = ("tt",)


@pytest.fixture()
def decks(monkeypatch: pytest.MonkeyPatch) -> dict[str, list[str]]:
    """The test set as the engine of a simulation on each core (``_simulate._engine``'s)."""
    cards = testset.test_set_cards()
    lists = dict(zip(("tt-a", "tt-b"), testset.test_set_decks(cards, seed=4), strict=True))
    for core in ("python", "native"):
        monkeypatch.setitem(_ENGINES, (SETS, core), (Engine(cards, core=core), dict(lists)))
    return lists


def _simulated(core: str, agents: tuple[str, str] | None, lists: dict[str, list[str]]
               ) -> tuple[list[dict[str, Any]], str]:
    chunks = plan(SETS, pairings(sorted(lists)), 60, seed=11, chunk_size=7,
                  agents=(agents,), core=core)
    result = simulate(chunks, workers=1)
    engine = _ENGINES[SETS, core][0]
    names = {card_id: card.name for card_id, card in engine.cards.items()}
    kinds = {card_id: card.kind for card_id, card in engine.cards.items()}
    summary = summarize(result.outcomes, lists, names)
    summary["balance"] = balance(result.outcomes, lists, names, kinds, tiers=[agents])
    return [o.as_row() for o in result.outcomes], json.dumps(summary, ensure_ascii=False,
                                                             indent=1)


@pytest.mark.parametrize("agents", [None, ("random", "first")], ids=["default", "agents"])
def test_simulate_on_the_native_core_gives_the_python_engines_rows_and_tables(
        decks: dict[str, list[str]], agents: tuple[str, str] | None) -> None:
    native_rows, native_json = _simulated("native", agents, decks)
    python_rows, python_json = _simulated("python", agents, decks)
    assert len(native_rows) == 60
    for native, python in zip(native_rows, python_rows, strict=True):
        assert native == python, f"seed {python['seed']} {python['deck_1']}"
    assert native_json == python_json
    # the games did what the recorder counts: every kind of count is filled somewhere
    for counts in ("played", "fired", "used", "drawn", "acted"):
        assert any(row[counts][0] or row[counts][1] for row in native_rows), counts


@pytest.mark.parametrize("agents", [None, ("random", "first")], ids=["default", "agents"])
def test_simulate_tallied_natively_reports_as_the_python_engines_rows(
        decks: dict[str, list[str]], agents: tuple[str, str] | None) -> None:
    """Without rows (``hkk simulate`` without --csv) a native chunk is tallied in one call
    (``tally_outcomes``): the same tally, summary, balance report and paired impact as the
    Python engine's rows give, and no row is made."""
    card = decks["tt-a"][0]
    engine = _ENGINES[SETS, "native"][0]
    names = {card_id: c.name for card_id, c in engine.cards.items()}
    reports = {}
    for core, rows in (("native", False), ("python", True)):
        chunks = plan(SETS, pairings(sorted(decks)), 40, seed=11, chunk_size=7,
                      agents=(agents,), core=core, ablate=[(), (card,)])
        result = simulate(chunks, workers=1, rows=rows)
        assert (result.outcomes == []) is not rows
        tally = result.tally
        written = tally.select(())
        reports[core] = (
            {key: g.seeds() for key, g in tally.groups.items()},
            summarize(written, decks, names), balance(written, decks, names, tiers=[agents]),
            impact(written, tally.select((card,)), card, decks))
    assert reports["native"] == reports["python"]
    assert reports["native"][1]["games"] == 40 and reports["native"][3]


def test_simulate_on_the_native_core_records_the_games_natively(
        decks: dict[str, list[str]], monkeypatch: pytest.MonkeyPatch) -> None:
    """The chunk is one batched call: no Python recorder is made, no Python game started."""
    import hkk._simulate as simulate_module

    def no_recorder(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("a Python OutcomeRecorder was made for a native game")

    monkeypatch.setattr(simulate_module, "OutcomeRecorder", no_recorder)
    rows, _ = _simulated("native", None, decks)
    assert len(rows) == 60 and all(row["error"] is None for row in rows)


@pytest.mark.parametrize("was_on", [True, False], ids=["on", "off"])
def test_a_batchs_rows_are_built_with_no_collection_and_the_collector_left_as_found(
        decks: dict[str, list[str]], was_on: bool) -> None:
    """The seats and rows of a batched call are new acyclic containers: CPython's cycle
    collector, which would scan them all again and free nothing, does not run while they are
    built."""
    import gc

    from hkk_native import core

    engine = _ENGINES[SETS, "native"][0]
    pair = [decks["tt-a"], decks["tt-b"]]
    core.play_outcomes(engine, pair, [0], names=("tt-a", "tt-b"))  # the engine built first
    collections: list[str] = []

    def counted(phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            collections.append(f"generation {info['generation']}")

    gc.callbacks.append(counted)
    (gc.enable if was_on else gc.disable)()
    try:
        rows = core.play_outcomes(engine, pair, range(300), names=("tt-a", "tt-b"))
        assert gc.isenabled() == was_on
    finally:
        gc.callbacks.remove(counted)
        gc.enable()
    assert len(rows) == 300 and all(row["error"] is None for row in rows)
    # at most the one its allocations owe, as it is turned back on (a collection a few
    # hundred allocations without the pause: 64 in this batch)
    assert len(collections) <= (1 if was_on else 0), collections


@pytest.mark.parametrize("rows", [True, False], ids=["rows", "tally"])
def test_d_turn_limit_simulate_max_turns_on_the_native_core_gives_the_python_engines_games(
        decks: dict[str, list[str]], rows: bool) -> None:
    """``hkk simulate --max-turns N``: the native core plays the chunk under the rulings' turn
    limit set to N (D-turn-limit) in its batched call, as the Python engine plays it."""
    played = {}
    for core in ("native", "python"):
        chunks = plan(SETS, pairings(sorted(decks)), 24, seed=3, chunk_size=7, max_turns=7,
                      core=core)
        result = simulate(chunks, workers=1, rows=rows)
        played[core] = ([o.as_row() for o in result.outcomes],
                        {key: (g.seeds(), g.turns, g.reasons)
                         for key, g in result.tally.groups.items()})
    assert played["native"] == played["python"]
    reasons = [g[2] for g in played["native"][1].values()]
    assert all(set(r) == {"turn_limit"} for r in reasons), reasons  # all stopped at turn 7


def test_ablated_games_on_the_native_core_play_the_fillers_as_the_python_engine_does(
        decks: dict[str, list[str]]) -> None:
    """``hkk simulate --ablate`` on the native core: the second run of the seeds plays the
    decks with the card replaced by its filler (a card added after the first run built the
    native engine's cards) and its rows say so, as on the Python engine."""
    card = decks["tt-a"][0]
    rows = {}
    for core in ("native", "python"):
        chunks = plan(SETS, pairings(sorted(decks)), 30, seed=11, chunk_size=7,
                      agents=(None,), core=core, ablate=[(), (card,)])
        rows[core] = [o.as_row() for o in simulate(chunks, workers=1).outcomes]
    assert rows["native"] == rows["python"]
    written = [row for row in rows["native"] if not row["ablated"]]
    ablated = [row for row in rows["native"] if row["ablated"]]
    assert len(written) == len(ablated) == 30
    assert all(row["ablated"] == [card] for row in ablated)
    drawn = [set(row["drawn"][seat]) for row in ablated for seat in (0, 1)]
    assert not any(card in cards for cards in drawn)
    assert any(filler_id(card) in cards for cards in drawn)
    assert any(card in row["drawn"][0] for row in written)


#: Random sets simulated on both cores in CI (the same every run; ``HKK_FRESH_SETS=N``: N fresh).
SIMULATED_SETS = 40
#: Games of each random set, per pairing, agents and ablation.
SET_GAMES = 4


def _simulated_set(tables: dict[str, dict[str, Any]], lists: dict[str, list[str]], seed: int,
                   core: str, rows: bool) -> tuple[list[dict[str, Any]], Tally]:
    """``hkk simulate`` of a random set's two decks on ``core``, as its command plays them:
    both pairings, the engine's agents then first-legal against random ones, as written then
    with a card of the first deck ablated; rows (when asked for) and the tally."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setitem(_ENGINES, (("rs",), core), (Engine(card_models(tables), core=core),
                                                  dict(lists)))
        chunks = plan(("rs",), pairings(sorted(lists)), 2 * SET_GAMES, seed=seed, chunk_size=3,
                      agents=(None, ("first", "random")), core=core,
                      ablate=[(), (lists["rs-a"][0],)])
        result = simulate(chunks, workers=1, rows=rows)
    return [o.as_row() for o in result.outcomes], result.tally


@fixed_or_fresh(SIMULATED_SETS)
@given(set_and_decks(), st.integers(0, 2**32))
def test_random_sets_simulated_natively_give_the_python_engines_rows_and_tallies(
        drawn: tuple[dict[str, dict[str, Any]], tuple[list[str], list[str]]], seed: int
        ) -> None:
    """Random data-only sets over the whole card language (tests/strategies_sets.py) through
    ``hkk simulate``: each chunk's games recorded natively in one batched call give the
    Python engine's rows, and tallied natively (no rows: ``hkk simulate`` without --csv) its
    tally, groups and counts alike; games ablated, and under two agent tiers, too."""
    tables, decks = drawn
    lists = {"rs-a": decks[0], "rs-b": decks[1]}
    python_rows, python_tally = _simulated_set(tables, lists, seed, "python", rows=True)
    native_rows, _ = _simulated_set(tables, lists, seed, "native", rows=True)
    _, native_tally = _simulated_set(tables, lists, seed, "native", rows=False)
    cards = f"cards: {json.dumps(list(tables.values()))}"
    assert len(native_rows) == len(python_rows) == 2 * 2 * 2 * SET_GAMES
    for native, python in zip(native_rows, python_rows, strict=True):
        pair = [lists[python["deck_1"]], lists[python["deck_2"]]]
        assert native == python, f"seed={python['seed']} decks={pair}\n native: {native}" \
            f"\n python: {python}\n{cards}"
    in_order = [(g.agents, g.decks, g.ablated) for g in python_tally.ordered()]
    assert [(g.agents, g.decks, g.ablated) for g in native_tally.ordered()] == in_order
    for key, group in python_tally.groups.items():
        native_group = native_tally.groups[key]
        assert _counted(native_group) == _counted(group), f"{key} decks={decks}\n{cards}"


def test_games_the_native_core_stops_short_are_played_again_with_their_own_seats() -> None:
    """A game the native core stops short (a count past 2^52, which the Python engine plays on
    without bound) is played again on the Python engine for its row and tally, seated as the
    batch seated it: the engine's default agents of its own seed (a batch hands over only their
    pass bias), or the tier's agents; so every row is the Python engine's."""
    import hkk_native

    doubler = {"kind": "activated", "timing": "main_phase", "optional": True,
               "effects": [{"do": "gain_vp", "amount": {"count": "own_vp"}}]}
    tables = {t["id"]: {"name": t["id"].split(":")[1].title(), **t} for t in [
        {"id": "rs:wall", "kind": "building", "cost": {"vp": 0}, "sp": 1},
        {"id": "rs:mint", "kind": "building", "cost": {"vp": 0}, "sp": 1,
         "abilities": [doubler]}]}
    lists = {"rs-a": ["rs:wall"] * 20, "rs-b": ["rs:wall"] * 19 + ["rs:mint"]}
    engine = Engine(card_models(tables))
    stopped = [hkk_native.play_native(engine, [lists["rs-a"], lists["rs-b"]], seed=seed).unported
               for seed in range(SET_GAMES)]
    assert all(why is not None and "beyond 2^52" in why for why in stopped), stopped
    python_rows, python_tally = _simulated_set(tables, lists, 5, "python", rows=True)
    native_rows, _ = _simulated_set(tables, lists, 5, "native", rows=True)
    _, native_tally = _simulated_set(tables, lists, 5, "native", rows=False)
    assert native_rows == python_rows
    assert len({row["winner"] for row in python_rows}) > 1  # the seats decide: not all alike
    for key, group in python_tally.groups.items():
        assert _counted(native_tally.groups[key]) == _counted(group), key


def _counted(group: Any) -> dict[str, Any]:
    """What a group counts, its results by seed: a tally merged from chunks keeps a run of
    seeds a chunk and numbers its groups by chunk, one made from rows a run in all and its
    groups one by one (the order they are read in is compared apart)."""
    return {**vars(group), "results": group.seeds(), "order": None}
