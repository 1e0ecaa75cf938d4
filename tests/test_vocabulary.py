"""The registry of event and decision kinds (``hkk._vocabulary``) says what the engine does.

Seeded games of every deck pairing of the shipped sets, plus a small scenario for each kind
ordinary games do not emit, must emit only registered kinds and fields, every field registered
as always present, and only registered decision kinds offering registered option labels; and
every registered kind and optional field must be emitted by one of them.  (``conftest.py``
checks the events of every other test too.)
"""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from hkk import Engine, RandomAgent
from hkk._pending import ACTIVATED, Price
from hkk._vocabulary import DECISIONS, EVENTS, decision_problems, event_problems, label_pattern

from helpers import Passer, game_with, item, item_plugin, run_until

SEEDS = range(4)


class Recording:
    """Decides like the agent it wraps and keeps every decision (kind and offered labels)."""

    def __init__(self, agent: Any, seen: list[tuple[str, list[str]]]) -> None:
        self.agent = agent
        self.seen = seen

    def choose(self, game: Any, decision: Any) -> Any:
        self.seen.append((decision.kind, decision.labels()))
        return self.agent.choose(game, decision)


@pytest.fixture(scope="module")
def engine() -> Engine:
    engine = Engine.installed(allow=["alap", "mereg"])
    if not {"alap", "mereg"} <= set(engine.discovery.sets):
        pytest.skip("the base set (in hkk) and hkk-set-mereg must be installed")
    return engine


@pytest.fixture(scope="module")
def seeded(engine: Engine) -> tuple[list[Any], list[tuple[str, list[str]]]]:
    """Every event and decision of the seeded games of every deck pairing."""
    events: list[Any] = []
    decisions: list[tuple[str, list[str]]] = []
    for decks in itertools.product(sorted(engine.decks), repeat=2):
        for seed in SEEDS:
            agents = [Recording(RandomAgent(), decisions) for _ in range(2)]
            events += engine.play(list(decks), agents, seed=seed).log
    return events, decisions


# -- scenarios for what ordinary games do not do -------------------------------------------------

def _primitives(engine: Engine) -> Any:
    """Primitive changes no shipped card makes: heal a creature, lose VP, pay components."""
    from pytest_hkk import build_game

    game = build_game(engine, [{"reserve": ["alap:tuzmano"], "vp": 3, "components": 2}, {}])
    perm = next(iter(game.permanents.values()))
    game.damage(perm, 1)
    game.heal(perm, 1, source="scenario")
    game.lose_vp(0, 1, source="scenario")
    game.pay_components(0, 1, source="scenario")
    return game


def _waiting_effect(engine: Engine) -> Any:
    """A "this turn" effect made in preparation stage 1 waits for stage 2 (29.4.5)."""
    game = game_with([])
    game.enter_play(0, "tt:filler")
    run_until(game, "prep_stage1")
    game.add_effect("hp", 1, "this_turn", targets=game.creatures(0))
    run_until(game, "prep_stage2", start=False)
    return game


def _dropped_item(engine: Engine) -> Any:
    """Two 2-VP items at one moment and 3 VP: the second is dropped (29.4.2)."""
    def costly(label: str) -> Any:
        return item(label, lambda g: None, controller=0, kind=ACTIVATED, price=Price(vp=2),
                    usable_in_preparation=True, optional=True)
    plugin = item_plugin("prep_stage2_start", lambda game: [costly("first"), costly("second")])
    game = game_with([], plugins=[plugin], agents=[Passer(), Passer()])
    game.players[0].vp = 2
    run_until(game, "prep_stage2_start", inclusive=True)
    return game


def _second_round(engine: Engine) -> Any:
    """Jégóriás (+1 Ép to its controller's creatures) dies and takes a damaged Vízimanó with it
    in the second round of the same Ép check (D-settled-check)."""
    from pytest_hkk import build_game

    game = build_game(engine, [{}, {"reserve": ["alap:jegorias", "alap:vizimano"]}])
    giant, small = game.creatures(1)
    game.damage(small, 1)
    game.damage(giant, 6)
    game.check_hp("D-hp-check")
    return game


def _partial_dispel(engine: Engine) -> Any:
    """An effect on two creatures ends for one of them only (D-dispel)."""
    from pytest_hkk import build_game

    game = build_game(engine, [{"reserve": ["alap:tuzmano", "alap:tuzmano"]}, {}])
    first, _ = game.creatures(0)
    game.add_effect("damage", 1, "until_end_of_turn", targets=game.creatures(0))
    game.dispel("D-dispel", on=first)
    return game


SCENARIOS = {"healed": _primitives, "vp_lost": _primitives, "components_paid": _primitives,
             "effect_created": _waiting_effect, "item_dropped": _dropped_item}
#: Optional fields the seeded games may miss, and the scenario that has them.
FIELD_SCENARIOS = {("hp_check", "round"): _second_round, ("game_started", "built"): _primitives,
                   ("effect_started", "rule"): _waiting_effect,
                   ("effect_ended", "partial"): _partial_dispel}


# -- the registry is true ---------------------------------------------------------------------------

def _problems(events: Any) -> list[str]:
    """Each problem once, with the first event that shows it."""
    found: dict[str, str] = {}
    for event in events:
        for problem in event_problems(event.kind, event.data):
            found.setdefault(problem, f"{problem}, e.g. {event!r}")
    return sorted(found.values())


def test_seeded_games_emit_only_registered_event_kinds_and_fields(seeded):
    events, _ = seeded
    assert _problems(events) == []


def test_seeded_games_offer_only_registered_decision_kinds_and_labels(seeded):
    _, decisions = seeded
    problems = sorted({p for kind, labels in decisions for p in decision_problems(kind, labels)})
    assert problems == []
    assert {kind for kind, _ in decisions} == set(DECISIONS)  # and each kind is asked


@pytest.mark.parametrize("kind", sorted(SCENARIOS))
def test_rare_event_kinds_are_emitted(engine, kind):
    assert EVENTS[kind].rare, f"{kind} has a scenario, so the registry must mark it rare"
    game = SCENARIOS[kind](engine)
    assert kind in game.log.kinds()
    assert _problems(game.log) == []


@pytest.mark.parametrize("kind, name", sorted(FIELD_SCENARIOS))
def test_optional_fields_are_emitted(engine, kind, name):
    assert name in EVENTS[kind].optional
    game = FIELD_SCENARIOS[kind, name](engine)
    assert any(name in e.data for e in game.log.of_kind(kind))
    assert _problems(game.log) == []


def test_every_registered_kind_is_emitted_and_only_rare_ones_need_a_scenario(seeded):
    events, _ = seeded
    emitted = {e.kind for e in events}
    rare = {kind for kind, ev in EVENTS.items() if ev.rare}
    assert set(EVENTS) - emitted == rare, "a kind seeded games never emit must be marked rare " \
        "(with a scenario in SCENARIOS), and a rare one they do emit must lose its mark"
    assert rare == set(SCENARIOS)


def test_every_optional_field_is_emitted_somewhere(seeded):
    events, _ = seeded
    seen = {(e.kind, name) for e in events for name in e.data}
    optional = {(kind, name) for kind, ev in EVENTS.items() for name in ev.optional}
    assert optional - seen - set(FIELD_SCENARIOS) == set()


# -- the checks themselves -----------------------------------------------------------------------

def test_problems_name_an_unknown_kind_an_unknown_field_and_a_missing_field():
    assert event_problems("exploded", {}) == [
        "event kind 'exploded' is not in hkk._vocabulary.EVENTS"]
    assert event_problems("step_ended", {"hook": "x", "extra": 1}) == [
        "event 'step_ended' carries field 'extra', not registered in hkk._vocabulary"]
    assert event_problems("passed", {"player": 0}) == [
        "event 'passed' lacks field 'rule', registered as always present"]
    assert event_problems("passed", {"player": 0, "rule": "4.11.7"}) == []  # forced: optional


def test_label_shapes_match_whole_labels_with_any_variable_part():
    shape = label_pattern("attack with <card id>#<uid>")
    assert shape.match("attack with alap:tuzmano#3")
    assert not shape.match("attack with")
    assert not shape.match("hold")
    assert decision_problems("block", ["no block", "block with alap:x#2"]) == []
    assert decision_problems("block", ["duck"]) == [
        "block decision: option 'duck' matches no registered label shape"]
    assert decision_problems("bribe", []) == [
        "decision kind 'bribe' is not in hkk._vocabulary.DECISIONS"]
