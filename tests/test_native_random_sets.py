"""Random data-only card sets over the whole card language (tests/strategies_sets.py) played on
both cores: for the same cards, decks, seed and agents, the native core gives the Python
engine's log event for event at the full log level, and the same winner (docs/NATIVE.md: the
differential tests are the contract).  The generator is checked to reach every word of the
language, listed from the models and from the words the native core says it implements, so a
word added to either fails here until the generator draws it.  On a difference the failure
names the seed, the decks, the first differing event of each core and the cards."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from strategies_sets import (
    FRESH_SETS,
    card_models,
    fixed_or_fresh,
    language_words,
    set_and_decks,
    words_of,
)

from hkk import (
    Engine,
    FirstLegalAgent,
    RandomAgent,
    Rulings,
    StepLoopError,
    TriggerLoopError,
    advance,
)
from hkk._agent_registry import agent_seed

from helpers import RUNAWAY, beyond_native_range

hkk_native = pytest.importorskip(
    "hkk_native", reason="hkk_native is not built: pip install ./plugins/hkk-native (needs cargo)")
_first_differing = hkk_native._core._first_differing  # the differential tests' printer

#: Sets played in CI, the same every run (each two games: random agents, then first-legal ones).
CI_SETS = 300
#: Sets played in CI at a lower log level than the full one (the same two games).
LEVEL_SETS = 150
#: Sets played in CI under random rulings (the same two games).
RULINGS_SETS = 150


def _agents(kind: str, seed: int) -> tuple[Any, Any]:
    if kind == "first":
        return FirstLegalAgent(), FirstLegalAgent()
    return RandomAgent(agent_seed(seed, 0)), RandomAgent(agent_seed(seed, 1))


Tables = dict[str, dict[str, Any]]


def _play_both(tables: Tables, decks: tuple[list[str], list[str]], seed: int,
               level: str = "full", rulings: Rulings | None = None) -> None:
    engine = Engine(card_models(tables), rulings=rulings or Rulings())
    refusal = hkk_native.core.refuses(engine, list(decks))
    assert refusal is None, refusal
    for kind in ("random", "first"):
        cards = f"cards: {json.dumps(list(tables.values()))}" + \
            ("" if rulings is None else f"\n{rulings}")
        try:
            native, difference = hkk_native.compare(engine, list(decks), seed,
                                                    agents=lambda kind=kind: _agents(kind, seed),
                                                    log_level=level)
        except (StepLoopError, TriggerLoopError) as error:  # a free ability used for ever
            difference = _stopped_alike(engine, decks, seed, kind, error)
            assert difference is None, f"{kind} agents: {difference}\n{cards}"
            continue
        assert difference is None, f"{kind} agents: {difference}\n{cards}"
        if native.unported is not None and native.unported.startswith(RUNAWAY):
            assert _runs_away(engine, decks, seed, kind, native.emitted), native.unported
            continue
        assert native.unported is None and native.over, f"{kind} agents: seed={seed} " \
            f"decks={decks}: the native game stopped short: {native.unported}\n{cards}"


def _runs_away(engine: Engine, decks: tuple[list[str], list[str]], seed: int, kind: str,
               emitted: int) -> bool:
    """The Python game, past the events both cores logged alike, reaches a number beyond
    2^52 in its next step (the native core stopped rightly, not early)."""
    python = engine.new_game(list(decks), _agents(kind, seed), seed=seed, log_level="full")
    while python.log.emitted <= emitted and advance(python):
        pass
    return beyond_native_range((e.as_dict() for e in python.log), python.players)


def _stopped_alike(engine: Engine, decks: tuple[list[str], list[str]], seed: int, kind: str,
                   error: Exception) -> str | None:
    """A game the Python engine stops with ``error`` (``StepLoopError``: more than
    ``max_items_per_step`` actions in a step): the native core stops it after the same
    events, saying why (None), or how the two differ."""
    native = hkk_native.play_native(engine, list(decks), seed=seed,
                                    agents=_agents(kind, seed), log_level="full")
    python = engine.new_game(list(decks), _agents(kind, seed), seed=seed, log_level="full")
    with pytest.raises(type(error)):
        while advance(python):
            pass
    head = f"seed={seed} decks={list(decks)}: the Python engine stopped: {error}"
    python_log = [e.as_dict() for e in python.log]
    native_log = native.log.as_dicts()
    if isinstance(error, TriggerLoopError):
        # D-trigger-loop: the Python engine stops a chain at the state's repeat, the native
        # core at the chain's length limit (docs/NATIVE.md, What it refuses): alike up to
        # the repeat
        native_log = native_log[:len(python_log)]
    elif native.unported is not None and native.unported.startswith(RUNAWAY):
        # a number ran away before the step reached its limit: the native core stopped
        # rightly if the Python game, past what both logged, went beyond 2^52 before its
        # next decision (in the resolution the native core stopped in)
        rest = python_log[len(native_log):]
        until = next((at for at, e in enumerate(rest) if e["kind"] == "decision"), len(rest))
        if not beyond_native_range(rest[:until]):
            return f"{head}; the native game stopped early: {native.unported}"
        python_log = python_log[:len(native_log)]
    found = _first_differing(native_log, python_log)
    if found is not None:
        index, a, b = found
        return f"{head}\n first differing event {index}\n  native: {a}\n  python: {b}"
    if native.unported is None or native.over:
        return f"{head}; the native game did not stop (over {native.over})"
    return None


def test_random_sets_of_every_word_play_event_for_event_as_the_python_engine() -> None:
    """``CI_SETS`` sets (the same ones every run), two games each; between them their decks
    use every word of the language: of the models (verbs but ``custom``, targets, events,
    the timings the ability kinds accept, durations, counts, quantities, filters,
    comparisons, every value of a field with fixed values) and every word the native core
    says it implements."""
    played: set[tuple[str, str]] = set()

    @settings(max_examples=CI_SETS, derandomize=True, database=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(set_and_decks(), st.integers(0, 2**32))
    def play(drawn: tuple[Tables, tuple[list[str], list[str]]], seed: int) -> None:
        tables, decks = drawn
        _play_both(tables, decks, seed)
        for card in {*decks[0], *decks[1]}:
            played.update(words_of(tables[card]))

    play()
    expected = language_words()
    expected |= {("field", word) for word in hkk_native._native.Engine.implemented_words()}
    assert expected - played == set(), "words no deck of the generated sets used"


@pytest.mark.skipif(not FRESH_SETS, reason="fresh random sets are drawn on request: "
                    "HKK_FRESH_SETS=1000 python -m pytest tests/test_native_random_sets.py")
@settings(max_examples=FRESH_SETS or 1, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(set_and_decks(), st.integers(-(2**63), 2**63 - 1))
def test_many_fresh_random_sets_play_event_for_event_as_the_python_engine(
        drawn: tuple[Tables, tuple[list[str], list[str]]], seed: int) -> None:
    _play_both(*drawn, seed)


@fixed_or_fresh(LEVEL_SETS)
@given(set_and_decks(), st.integers(0, 2**32), st.sampled_from(["compact", "outcome"]))
def test_random_sets_keep_the_python_engines_log_at_the_compact_and_outcome_levels(
        drawn: tuple[Tables, tuple[list[str], list[str]]], seed: int, level: str) -> None:
    """The events each lower log level keeps (and the seq each has in the full log) are the
    Python engine's for every kind the whole card language emits, not only the base set's."""
    _play_both(*drawn, seed, level=level)


def rulings() -> st.SearchStrategy[Rulings]:
    """Every choice of :class:`hkk.Rulings` the native core takes; each limit its default or,
    now and then, low enough to be reached (docs/RULINGS.md)."""
    default = Rulings()

    def limit(name: str, low: int) -> st.SearchStrategy[int]:
        return st.one_of(st.just(getattr(default, name)), st.integers(0, low))

    return st.builds(
        Rulings, empty_deck_loses=st.booleans(), unspent_vp_carries_over=st.booleans(),
        default_orderer=st.sampled_from(["active", "stable"]),
        until_preparation_ends=st.sampled_from(["next", "controller"]),
        counted_turns=st.sampled_from(["every", "own"]),
        deferred_check_gives_components=st.booleans(),
        max_turns=st.one_of(st.integers(30, 80), st.integers(0, 4)),
        max_items_per_step=limit("max_items_per_step", 12),
        trigger_orderer=st.sampled_from(["active", "stable"]),
        max_trigger_chain=limit("max_trigger_chain", 3),
        max_triggers_per_cause=limit("max_triggers_per_cause", 3),
        max_triggers_per_turn=limit("max_triggers_per_turn", 6),
        max_triggers_per_game=limit("max_triggers_per_game", 30),
        spells_need_a_choice=st.booleans())


@fixed_or_fresh(RULINGS_SETS)
@given(set_and_decks(), st.integers(0, 2**32), rulings())
def test_random_sets_under_random_rulings_play_event_for_event_as_the_python_engine(
        drawn: tuple[Tables, tuple[list[str], list[str]]], seed: int, chosen: Rulings) -> None:
    """The engine's rulings reach the native core: every [D] choice and limit of
    :class:`hkk.Rulings` it takes gives the Python engine's game, over the whole language."""
    _play_both(*drawn, seed, rulings=chosen)


def _card(table: dict[str, Any]) -> dict[str, Any]:
    return {"name": table["id"].split(":")[1].title(), **table}


def test_d_static_scope_static_sp_modifiers_of_buildings_hold_as_in_the_python_engine() -> None:
    """A static modifier of the Sp of one's own or of all buildings (``pelda:kovesfal``) holds
    on both cores alike: a building of 1 Sp under +1 survives the 1 damage that destroys it
    without."""
    tables = {t["id"]: _card(t) for t in [
        {"id": "rs:mason", "kind": "building", "cost": {"vp": 1}, "sp": 2, "abilities": [
            {"kind": "static", "effects": [{"do": "modify", "stat": "sp", "by": 1,
                                            "target": "own_buildings",
                                            "duration": "permanent"}]}]},
        {"id": "rs:blight", "kind": "building", "cost": {"vp": 1}, "sp": 3, "abilities": [
            {"kind": "static", "effects": [{"do": "modify", "stat": "sp", "by": -1,
                                            "target": "all_buildings",
                                            "duration": "permanent"}]}]},
        {"id": "rs:hut", "kind": "building", "cost": {"vp": 0}, "sp": 1},
        {"id": "rs:quake", "kind": "spell", "cost": {"vp": 1},
         "effects": [{"do": "damage", "amount": 1, "target": "all_buildings"}]},
        {"id": "rs:imp", "kind": "creature", "cost": {"vp": 1}, "damage": 1, "hp": 2}]}
    deck = ["rs:mason", "rs:blight", "rs:hut", "rs:hut", "rs:quake", "rs:imp"] * 4
    died: set[str] = set()
    for seed in range(12):
        _play_both(tables, (deck, deck[::-1]), seed)
        native = hkk_native.play_native(Engine(card_models(tables)), [deck, deck[::-1]],
                                        seed=seed, log_level="full")
        died |= {e["card"] for e in native.log.as_dicts() if e["kind"] in ("died", "destroyed")}
    assert {"rs:hut", "rs:mason"} <= died  # damage met the Sp the statics made


def test_d_conditions_a_static_reading_components_follows_a_cards_components_cost_as_python(
        ) -> None:
    """A static whose condition reads its player's components is read again once a card's
    components cost is paid (within ``card_played``; found by the fresh sets): on both cores
    the creatures it weakens die at the Ép check after the play, not later."""
    tables = {t["id"]: _card(t) for t in [
        {"id": "rs:miser", "kind": "building", "cost": {"vp": 0}, "sp": 3, "abilities": [
            {"kind": "static", "condition": {"of": "own_components", "at_most": 1},
             "effects": [{"do": "modify", "stat": "hp", "by": -1, "target": "all_creatures",
                          "duration": "permanent"}]}]},
        {"id": "rs:pricey", "kind": "creature", "cost": {"vp": 0, "components": 2},
         "damage": 1, "hp": 1},
        {"id": "rs:gift", "kind": "spell", "cost": {"vp": 0}, "instant": False,
         "effects": [{"do": "gain_components", "count": 3}]}]}
    deck = ["rs:miser", "rs:pricey", "rs:gift", "rs:pricey", "rs:gift"] * 4
    for seed in range(12):
        _play_both(tables, (deck, deck[::-1]), seed)


def test_a_count_that_runs_away_stops_the_native_game_by_name_where_the_cores_still_agree(
        ) -> None:
    """A creature that gains as much VP as its player has whenever another permanent enters
    (found by the fresh sets): VP doubles until it leaves 64 bits. The native core stops the
    game, naming the card, before its numbers could differ from the Python engine's."""
    tables = {t["id"]: _card(t) for t in [
        {"id": "rs:wall", "kind": "building", "cost": {"vp": 0}, "sp": 1},
        {"id": "rs:miser", "kind": "creature", "cost": {"vp": 0}, "damage": 0, "hp": 1,
         "abilities": [{"kind": "triggered", "when": {"event": "enters_play", "which": "another"},
                        "effects": [{"do": "gain_vp", "amount": {"count": "own_vp"}}],
                        "optional": True}]}]}
    engine = Engine(card_models(tables))
    decks = (["rs:wall"] * 24 + ["rs:miser", "rs:wall", "rs:wall", "rs:miser"], ["rs:wall"] * 20)
    native, difference = hkk_native.compare(engine, list(decks), 0,
                                            agents=lambda: _agents("first", 0))
    assert difference is None, difference
    assert native.unported is not None and native.unported.startswith(RUNAWAY), native.unported
    assert "rs:miser" in native.unported
    assert _runs_away(engine, decks, 0, "first", native.emitted)


def test_a_count_that_runs_away_in_a_step_without_end_stops_the_native_game_first_by_name(
        ) -> None:
    """A free ability used for ever that doubles its player's VP (found by the fresh sets):
    the Python engine stops the step at its action limit (``StepLoopError``, VP past 2^500),
    the native core earlier, where VP leaves 2^52, naming the card; the two logs agree up
    to there."""
    doubler = {"kind": "activated", "timing": "main_phase", "optional": True,
               "effects": [{"do": "gain_vp", "amount": {"count": "own_vp"}}]}
    tables = {t["id"]: _card(t) for t in [
        {"id": "rs:wall", "kind": "building", "cost": {"vp": 0}, "sp": 1},
        {"id": "rs:mint", "kind": "building", "cost": {"vp": 0}, "sp": 1,
         "abilities": [doubler]}]}
    engine = Engine(card_models(tables))
    decks = (["rs:wall"] * 20, ["rs:wall"] * 19 + ["rs:mint"])
    with pytest.raises(StepLoopError):
        engine.play(list(decks), seed=0, agents=_agents("first", 0))
    native = hkk_native.play_native(engine, list(decks), seed=0, agents=_agents("first", 0))
    assert native.unported is not None and native.unported.startswith(RUNAWAY), native.unported
    assert "rs:mint" in native.unported
    assert _stopped_alike(engine, decks, 0, "first", StepLoopError("")) is None
    _play_both(tables, decks, 0)


def test_d_trigger_loop_a_repeating_chain_stops_both_cores_alike_up_to_the_repeat() -> None:
    """Two creatures that heal themselves and hit back whenever damaged: a chain whose state
    comes back; the Python engine stops it at the repeat (``TriggerLoopError``), the native
    core, alike up to there, at the chain's length limit."""
    echo = {"kind": "triggered", "when": {"event": "damaged", "which": "this"},
            "effects": [{"do": "heal", "amount": 1, "target": "self"},
                        {"do": "damage", "amount": 1, "target": "trigger_source"}]}
    tables = {t["id"]: _card(t) for t in [
        {"id": "rs:echo", "kind": "creature", "damage": 1, "hp": 3, "abilities": [echo]},
        {"id": "rs:spark", "kind": "creature", "damage": 1, "hp": 3, "abilities": [{
            "kind": "automatic", "timing": "on_enter",
            "effects": [{"do": "damage", "amount": 1, "target": "chosen_opponent_creature"}]},
            echo]}]}
    deck = ["rs:echo", "rs:spark"] * 10
    engine = Engine(card_models(tables))
    stopped = 0
    for seed in range(6):
        try:
            engine.play([deck, deck], seed=seed)
        except TriggerLoopError as error:
            stopped += 1
            assert _stopped_alike(engine, (deck, deck), seed, "random", error) is None
    assert stopped
