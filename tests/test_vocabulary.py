"""The event classes (``hkk.events``) and the decision registry (``hkk._vocabulary``) say what
the engine does, in one vocabulary.

Seeded games of every deck pairing of the shipped sets, plus a small scenario for each kind
ordinary games do not emit, must emit every declared kind and optional field, and only
registered decision kinds offering registered option labels.  (``conftest.py`` checks the
events and decisions of every other test too.)  The event classes keep one convention for the
same meaning (issue 20): a test over the classes fails on ``count``/``by`` for an amount or on
two names for a permanent's owner.
"""

from __future__ import annotations

import itertools
import re
from typing import Any

import pytest

from hkk import Engine, RandomAgent
from hkk._pending import ACTIVATED, Price
from hkk._vocabulary import DECISIONS, decision_problems, label_pattern
from hkk.events import KINDS, Damaged, Event

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


# -- the classes and the registry are true ------------------------------------------------------

def test_seeded_games_emit_only_declared_event_classes(seeded):
    events, _ = seeded
    assert {type(e) for e in events} <= set(KINDS.values())


def test_seeded_games_offer_only_registered_decision_kinds_and_labels(seeded):
    _, decisions = seeded
    problems = sorted({p for kind, labels in decisions for p in decision_problems(kind, labels)})
    assert problems == []
    assert {kind for kind, _ in decisions} == set(DECISIONS)  # and each kind is asked


@pytest.mark.parametrize("kind", sorted(SCENARIOS))
def test_rare_event_kinds_are_emitted(engine, kind):
    assert KINDS[kind].rare, f"{kind} has a scenario, so its class must be marked rare"
    game = SCENARIOS[kind](engine)
    assert kind in game.log.kinds()


@pytest.mark.parametrize("kind, name", sorted(FIELD_SCENARIOS))
def test_optional_fields_are_emitted(engine, kind, name):
    assert name in KINDS[kind].OPTIONAL
    game = FIELD_SCENARIOS[kind, name](engine)
    assert any(name in e.data for e in game.log.of_kind(kind))


@pytest.mark.slow
def test_every_declared_kind_is_emitted_and_only_rare_ones_need_a_scenario(seeded):
    events, _ = seeded
    emitted = {e.kind for e in events}
    rare = {name for name, cls in KINDS.items() if cls.rare}
    assert set(KINDS) - emitted == rare, "a kind seeded games never emit must be marked rare " \
        "(with a scenario in SCENARIOS), and a rare one they do emit must lose its mark"
    assert rare == set(SCENARIOS)


def test_every_optional_field_is_emitted_somewhere(seeded):
    events, _ = seeded
    seen = {(e.kind, name) for e in events for name in e.data}
    optional = {(name, f) for name, cls in KINDS.items() for f in cls.OPTIONAL}
    assert optional - seen - set(FIELD_SCENARIOS) == set()


# -- one name for one meaning (issue 20) -----------------------------------------------------------

#: Names that said "how much" (now ``amount``), "the value after it" (now ``after``) or a
#: permanent's owner (now ``controller``) in hook API 1, or could again.
NOT_NAMES = {"count": "amount", "by": "amount", "number": "amount", "total": "after",
             "hp": "after", "owner": "controller"}


#: A meaning that says "the owner": "its controller", "the item's controller, who pays".
OWNER = re.compile(r"^(its|the [\w ]+'s) (controller|owner)\b")
#: A number's meaning that says "after the change": "his VP now", "its Ép (Sp) after it".
AFTER = re.compile(r"\b(now|after it)$")


def convention_problems(kinds: dict[str, type[Event]]) -> list[str]:
    """How the event classes break the one convention (empty: they keep it)."""
    problems = []
    for name, cls in kinds.items():
        fields = cls.FIELDS
        for f, meaning in fields.items():
            if f in NOT_NAMES:
                problems.append(f"{name}.{f}: call it {NOT_NAMES[f]!r}")
            if f != "controller" and OWNER.match(meaning):
                problems.append(f"{name}.{f} holds an owner: call it 'controller'")
            number = cls.__annotations__.get(f) == "int"
            if number and AFTER.search(meaning) and f != "after":
                problems.append(f"{name}.{f} holds the value after the change: call it 'after'")
        if "uid" in fields and "card" not in fields:
            problems.append(f"{name}: a permanent is its uid with its card id beside it")
        if "item" in fields and "player" in fields:
            problems.append(f"{name}: an item's owner is its 'controller', not 'player'")
        for f in fields:
            if f.endswith("_uid") and f[:-4] + "_card" not in fields and f != "source_uid":
                problems.append(f"{name}.{f}: a permanent's card id goes beside its uid")
    sources = {cls.__annotations__.get("source") for cls in kinds.values()
               if "source" in cls.FIELDS}
    if len(sources) > 1:
        problems.append(f"'source' has more than one type: {sorted(map(str, sources))}")
    return problems


def test_event_classes_use_one_name_for_one_meaning():
    assert convention_problems(KINDS) == []


def test_the_convention_check_fails_on_count_by_and_two_names_for_the_owner():
    """The check above can fail: classes as hook API 1 had them."""
    def old(name: str, **fields: str) -> Any:  # what the check reads of a class
        return type(name, (), {"FIELDS": fields, "__annotations__": {f: "int" for f in fields}})

    olds = {"counters": old("counters", uid="uid", card="card", count="how many"),
            "effect": old("effect", effect="uid", by="the modifier"),
            "entered": old("entered", player="its controller", card="c", uid="u")}
    assert convention_problems(olds) == [
        "counters.count: call it 'amount'", "effect.by: call it 'amount'",
        "entered.player holds an owner: call it 'controller'"]


# -- the classes refuse what they do not have --------------------------------------------------------

def test_an_event_takes_only_its_kinds_fields():
    with pytest.raises(TypeError, match="unexpected keyword argument 'hp'"):
        Damaged(0, 1, "", uid=1, card="a:b", amount=1, source=None, source_uid=None, hp=2)
    with pytest.raises(TypeError, match="missing"):
        Damaged(0, 1, "", uid=1, card="a:b", amount=1)
    event = Damaged(0, 1, "", uid=1, card="a:b", amount=1, source=None, source_uid=None,
                    after=2)
    with pytest.raises(AttributeError):
        event.amount = 3  # type: ignore[misc]
    with pytest.raises(KeyError, match="'damaged' event has no field 'amuont'"):
        event["amuont"]
    with pytest.raises(AttributeError, match="'damaged' event has no field 'amuont'"):
        event.amuont  # noqa: B018


def test_a_log_refuses_to_subscribe_to_a_kind_the_engine_does_not_log():
    from hkk import EventLog

    with pytest.raises(KeyError, match="no event kind 'moment_ended'"):
        EventLog().subscribe(print, kinds=["moment_ended"])


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
