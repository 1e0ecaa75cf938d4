"""The native core against the Python engine, the reference (docs/NATIVE.md): for the same decks,
seed and agents both give the same log, event for event (kind, envelope, fields, in order), at
every log level, over everything the native core runs today: whole games of cards without
abilities (the setup K 3.6-3.12 and 28, the turn 29.4 and 41, hand play 8.1, the guard post,
combat, deaths and monster components), of spells, of automatic, activated, static and
triggered abilities of the verbs and targets it implements, with the same winner; and whole
games of the base decks. Whole games it cannot run are refused by name, never played
differently."""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies_sets import card_models

from hkk import Engine, FirstLegalAgent, RandomAgent, Rulings, hookimpl
from hkk._agent_registry import agent_seed

hkk_native = pytest.importorskip(
    "hkk_native", reason="hkk_native is not built: pip install ./plugins/hkk-native (needs cargo)")
testset = pytest.importorskip("hkk_native.testset")

BASE_DECKS = ("alap:tuz", "alap:viz")
PAIRINGS = list(itertools.product(BASE_DECKS, repeat=2))
#: Seeds per pairing of the base decks played whole at the full log level (2,000 games).
BASE_SEEDS = 500


@pytest.fixture(scope="module")
def engine() -> Engine:
    """Every installed set (mereg too): a base-deck game calls none of mereg's hooks."""
    return Engine.installed()


@pytest.fixture(scope="module")
def vanilla_engine() -> Engine:
    """Creatures and buildings without abilities, of varied costs and stats: whole games."""
    return Engine(testset.vanilla_cards())


SPELLS = testset.SPELLS
ABILITIES = testset.ABILITIES


def _when(event: str, effect: dict[str, Any], **when: Any) -> list[dict[str, Any]]:
    return [{"kind": "triggered", "when": {"event": event, **when}, "effects": [effect]}]


#: Permanents with triggered abilities: every trigger event, its ``which``, ``whose`` and
#: ``card_kind``, the ``trigger_*`` targets, optional and conditional ones.
TRIGGERS: dict[str, tuple[str, int, list[dict[str, Any]]]] = {
    "pyre": ("creature", 1, _when("dies", {"do": "damage", "amount": 1,
                                           "target": "trigger_source"}, which="this")),
    "mourner": ("creature", 2, _when("dies", {"do": "gain_vp", "amount": 1,
                                              "target": "controller"},
                                     whose="own", card_kind="creature")),
    "witness": ("building", 1, _when("dies", {"do": "draw", "count": 1,
                                              "target": "trigger_player"},
                                     card_kind="building")),
    "thorn": ("creature", 2, _when("damaged", {"do": "damage", "amount": 1,
                                               "target": "trigger_source"}, which="this")),
    "rival": ("creature", 2, _when("damaged", {"do": "gain_vp", "amount": 1,
                                               "target": "controller"},
                                   whose="opponent", card_kind="creature")),
    "moat": ("building", 2, _when("enters_play", {"do": "damage", "amount": 1,
                                                  "target": "trigger_permanent"},
                                  whose="opponent", card_kind="creature")),
    "herald": ("creature", 1, [{"kind": "triggered", "when": {
        "event": "enters_play", "which": "another", "card_kind": "creature"},
        "condition": {"of": "own_hp", "at_most": 19},
        "effects": [{"do": "heal", "amount": 1, "target": "trigger_player"}]}]),
    "echo": ("creature", 2, [
        {"kind": "automatic", "timing": "on_enter", "effects": [
            {"do": "modify", "stat": "damage", "by": 1, "target": "self",
             "duration": "until_preparation"}]},
        *_when("effect_ends", {"do": "damage", "amount": 2, "target": "opponent"},
               which="this")]),
    "spy": ("creature", 1, _when("card_played", {"do": "draw", "count": 1,
                                                 "target": "controller"},
                                 whose="opponent", card_kind="spell")),
    "chanter": ("creature", 2, [{"kind": "triggered", "optional": True, "when": {
        "event": "card_played", "whose": "own", "card_kind": "spell"},
        "effects": [{"do": "damage", "amount": 1, "target": "opponent_creatures"}]}]),
    "charger": ("creature", 2, _when("attacks", {"do": "modify", "stat": "damage", "by": 1,
                                                 "target": "self",
                                                 "duration": "until_end_of_turn"},
                                     which="this")),
    "shield": ("creature", 2, _when("blocks", {"do": "give_defence_bonus", "amount": 1,
                                               "target": "self"}, which="this")),
    "bait": ("creature", 1, _when("is_blocked", {"do": "damage", "amount": 1,
                                                 "target": "trigger_source"}, which="this")),
    "fang": ("creature", 2, _when("deals_combat_damage", {"do": "heal", "amount": 1,
                                                          "target": "controller"},
                                  which="this")),
    "hide": ("creature", 2, _when("takes_combat_damage", {"do": "damage", "amount": 1,
                                                          "target": "trigger_source"},
                                  which="this")),
}


#: A card of a word group: its kind, its cost in VP, its effects (a spell) or abilities, and
#: its ``play_condition`` (or None).
Spec = tuple[str, int, list[dict[str, Any]], dict[str, Any] | None]

_POISON = {"do": "add_counters", "counter": "poison", "count": 1,
           "target": "chosen_opponent_creature"}

#: Small card sets, one per group of words landed after the triggers, each played with the
#: cards without words; and the event kinds each must make happen.
WORD_SETS: dict[str, tuple[dict[str, Spec], set[str]]] = {
    "destroy_lose_vp_pay_components_buildings": ({
        "doom": ("spell", 2, [{"do": "destroy", "target": "chosen_opponent_creature"}], None),
        "ruin": ("spell", 1, [{"do": "destroy", "target": "chosen_building"}], None),
        "razing": ("spell", 3, [{"do": "destroy", "target": "all_buildings"},
                                {"do": "lose_vp", "amount": 1, "target": "controller"}], None),
        "drain": ("spell", 0, [{"do": "lose_vp", "amount": 2, "target": "opponent"}], None),
        "tax": ("spell", 0, [{"do": "pay_components", "count": 1, "target": "each_player"},
                             {"do": "gain_vp", "amount": 1, "target": "controller"}], None),
        "quake": ("spell", 1, [{"do": "damage", "amount": 2, "target": "chosen_building"},
                               {"do": "damage", "amount": 1, "target": "all_buildings"}], None),
        "mortar": ("spell", 1, [{"do": "modify", "stat": "sp", "by": 2,
                                 "target": "own_buildings", "duration": "until_end_of_turn"},
                                {"do": "heal", "amount": 1, "target": "own_buildings"}], None),
        "sapper": ("creature", 2, [{"kind": "automatic", "timing": "on_enter", "effects": [
            {"do": "damage", "amount": 1, "target": "all_buildings"}]}], None),
        "toll": ("building", 1, [{"kind": "automatic", "timing": "prep_stage2_start",
                                  "effects": [
                                      {"do": "lose_vp", "amount": 1, "target": "opponent"},
                                      {"do": "pay_components", "count": 1, "target": "opponent"},
                                      {"do": "gain_components", "count": 1,
                                       "target": "controller"}]}], None),
        "reaper": ("creature", 2, _when("dies", {"do": "destroy", "target": "trigger_source"},
                                        which="this"), None),
    }, {"vp_lost", "components_paid", "destroyed", "died"}),
    "counted_amounts": ({
        "swarm": ("spell", 1, [{"do": "damage", "amount": {"count": "own_creatures"},
                                "target": "opponent"}], None),
        "tithe": ("spell", 0, [{"do": "gain_vp", "amount": {"count": "opponent_buildings",
                                                            "times": 2},
                                "target": "controller"}], None),
        "grow": ("spell", 1, [{"do": "modify", "stat": "damage",
                               "by": {"count": "own_creatures"},
                               "target": "chosen_own_creature",
                               "duration": "until_end_of_turn"}], None),
        "study": ("spell", 1, [{"do": "draw", "count": {"count": "opponent_creatures"},
                                "target": "controller"},
                               {"do": "heal", "amount": {"count": "own_poison", "times": 3},
                                "target": "controller"}], None),
        "sting": ("spell", 0, [_POISON], None),
        "bloodprice": ("creature", 2, _when("damaged", {
            "do": "gain_vp", "amount": {"count": "trigger_amount"}, "target": "controller"},
            which="this"), None),
        "duelist": ("creature", 2, _when("takes_combat_damage", {
            "do": "damage", "amount": {"count": "trigger_amount", "times": 2},
            "target": "trigger_source"}, which="this"), None),
        "leechfang": ("creature", 2, _when("deals_combat_damage", {
            "do": "heal", "amount": {"count": "trigger_amount"}, "target": "controller"},
            which="this"), None),
    }, {"player_damaged", "vp_gained", "effect_started", "triggered", "player_healed"}),
    "where_filters": ({
        "mercy": ("spell", 1, [{"do": "heal", "amount": 2, "target": "own_creatures",
                                "where": {"of": "damage_taken", "at_least": 1}}], None),
        "cull": ("spell", 1, [{"do": "destroy", "target": "chosen_creature",
                               "where": {"of": "hp", "at_most": 1}}], None),
        "blight": ("spell", 1, [{"do": "damage", "amount": 1, "target": "all_creatures",
                                 "where": {"of": "counters", "counter": "poison",
                                           "at_least": 1}}], None),
        "brawl": ("spell", 0, [{"do": "damage", "amount": 1, "target": "opponent_creatures",
                                "where": {"of": "damage", "more_than": 1}},
                               {"do": "heal", "amount": 1, "target": "chosen_own_creature",
                                "where": {"of": "damage", "fewer_than": 3}}], None),
        "razer": ("spell", 1, [{"do": "damage", "amount": 2, "target": "chosen_building",
                                "where": {"of": "hp", "at_least": 2}}], None),
        "sting": ("spell", 0, [_POISON], None),
    }, {"died", "damaged", "counters_added"}),
    "play_condition": ({
        "latecomer": ("creature", 0, [], {"of": "own_creatures", "at_least": 2}),
        "underdog": ("spell", 0, [{"do": "draw", "count": 2, "target": "controller"}],
                     {"of": "opponent_creatures", "more_than": "own_creatures"}),
        "desperate": ("spell", 0, [{"do": "gain_vp", "amount": 3, "target": "controller"}],
                      {"of": "own_hp", "at_most": 15}),
    }, {"card_played", "vp_gained"}),
}


def _word_engine(vanilla_engine: Engine, group: str) -> Engine:
    """The cards without words and those of one of :data:`WORD_SETS`."""
    from hkk._cards.model import BuildingCard, CreatureCard, SpellCard

    cards = dict(vanilla_engine.cards)
    for name, (kind, vp, data, condition) in WORD_SETS[group][0].items():
        card_id = f"tt:{name}"
        extra: dict[str, Any] = {"name": name.title(), "cost": {"vp": vp}}
        if condition is not None:
            extra["play_condition"] = condition
        if kind == "spell":
            cards[card_id] = SpellCard(id=card_id, effects=data, **extra)
        elif kind == "creature":
            cards[card_id] = CreatureCard(id=card_id, damage=1, hp=2, abilities=data, **extra)
        else:
            cards[card_id] = BuildingCard(id=card_id, sp=3, abilities=data, **extra)
    return Engine(cards)


@pytest.mark.parametrize("agents", ["random", "first"])
@pytest.mark.parametrize("group", list(WORD_SETS))
def test_the_words_after_the_triggers_are_played_as_the_python_engines(
        vanilla_engine: Engine, group: str, agents: str) -> None:
    """destroy, lose_vp, pay_components, the buildings' targets, counted amounts (quantities
    and trigger_amount, D-trigger-amount), where filters and play_condition: each group's
    small set in whole games, event for event the Python engine's."""
    engine = _word_engine(vanilla_engine, group)
    words = sorted(f"tt:{name}" for name in WORD_SETS[group][0])
    others = Engine({c: card for c, card in engine.cards.items() if c not in words})
    kinds: set[str] = set()
    played: set[str] = set()
    for seed in range(30):
        first, second = _vanilla_decks(others, seed)
        decks = (words * 2 + first[:20], words[::-1] * 2 + second[:20])
        native = _compare(engine, decks, seed, agents, "full")
        assert native.over and native.unported is None, (seed, native.unported)
        kinds |= set(native.log.kinds())
        played |= {event["card"] for event in native.log.as_dicts() if event["kind"] == "card_played"}
    if agents == "random":  # every word took effect
        assert WORD_SETS[group][1] <= kinds, kinds
        if group == "play_condition":  # each was played once its condition held
            assert set(words) <= played, played


@pytest.fixture(scope="module")
def trigger_engine(spell_engine: Engine) -> Engine:
    """The test set with the permanents of :data:`TRIGGERS`."""
    from hkk._cards.model import BuildingCard, CreatureCard

    cards = dict(spell_engine.cards)
    for name, (kind, vp, abilities) in TRIGGERS.items():
        if kind == "creature":
            cards[f"tt:{name}"] = CreatureCard(id=f"tt:{name}", name=name.title(),
                                               cost={"vp": vp}, damage=1, hp=3,
                                               abilities=abilities)
        else:
            cards[f"tt:{name}"] = BuildingCard(id=f"tt:{name}", name=name.title(),
                                               cost={"vp": vp}, sp=2, abilities=abilities)
    return Engine(cards)


def _trigger_decks(engine: Engine, seed: int) -> tuple[list[str], list[str]]:
    """Each deck: the triggered permanents, and the rest of the test set in a seeded mix."""
    triggered = sorted(f"tt:{name}" for name in TRIGGERS)
    others = sorted(set(engine.cards) - set(triggered))
    first, second = _vanilla_decks(Engine({c: engine.cards[c] for c in others}), seed)
    return triggered + first[:15], triggered[::-1] + second[:15]


@pytest.fixture(scope="module")
def spell_engine() -> Engine:
    """The cards without words, spells of the implemented verbs and targets, and permanents
    with automatic abilities of the implemented timings (``hkk_native.testset``)."""
    return Engine(testset.test_set_cards())


def _vanilla_decks(engine: Engine, seed: int) -> tuple[list[str], list[str]]:
    ids = sorted(engine.cards)
    first = [ids[(seed + 3 * i) % len(ids)] for i in range(30)]
    second = [ids[(seed * 5 + 7 * i) % len(ids)] for i in range(30)]
    return first, second


@pytest.fixture(scope="module")
def dear_engine() -> Engine:
    """Cards nobody can ever pay for: games of passing turns, to an empty deck."""
    from hkk._cards.model import CreatureCard

    cards = {f"tt:dear{i}": CreatureCard(id=f"tt:dear{i}", name=f"Dear {i}", cost={"vp": 99},
                                         damage=1, hp=1) for i in range(12)}
    return Engine(cards)


def _agents(kind: str, seed: int) -> tuple[Any, Any] | None:
    """The agents of a game of ``seed``, made afresh for each core (each draws from its own
    RNG); ``default``: None, the engine's own (``RandomAgent(agent_seed(seed, seat))``)."""
    if kind == "default":
        return None
    if kind == "first":
        return FirstLegalAgent(), FirstLegalAgent()
    if kind == "seeded":
        return RandomAgent(seed=11), RandomAgent(seed=12, pass_bias=0.5)
    if kind == "passive":  # passes nearly always: games reach later turns before a card
        return (RandomAgent(agent_seed(seed, 0), pass_bias=0.97),
                RandomAgent(agent_seed(seed, 1), pass_bias=0.97))
    return RandomAgent(agent_seed(seed, 0)), RandomAgent(agent_seed(seed, 1))


def _compare(engine: Engine, decks: Any, seed: int, agents: str, level: str) -> Any:
    """Both cores on one game (``hkk_native.compare``, what ``hkk verify --differential``
    runs): identical logs as far as the native one goes.  Returns the native game."""
    native, difference = hkk_native.compare(engine, list(decks), seed,
                                            agents=lambda: _agents(agents, seed),
                                            log_level=level)
    assert difference is None, difference
    if native.unported is not None:
        assert native.unported.startswith("card "), native.unported  # it names the card
    return native


@pytest.mark.parametrize("agents", ["default", "random", "first", "seeded", "passive"])
@pytest.mark.parametrize("level", ["full", "compact", "outcome"])
def test_base_games_are_event_for_event_the_python_engines_for_every_agent_and_level(
        engine: Engine, agents: str, level: str) -> None:
    seeds = range(40 if agents == "passive" else 25)
    for decks, seed in itertools.product(PAIRINGS, seeds):
        native = _compare(engine, decks, seed, agents, level)
        assert native.over and native.unported is None, (decks, seed, native.unported)


@pytest.mark.parametrize("seed", [0, -1, 2**40 + 3, -(2**63), 2**63 - 1])
def test_big_and_negative_seeds_give_the_python_engines_game(engine: Engine, seed: int) -> None:
    _compare(engine, BASE_DECKS, seed, "passive", "full")


@pytest.mark.parametrize("agents", ["default", "random", "first", "seeded"])
@pytest.mark.parametrize("level", ["full", "compact", "outcome"])
def test_whole_games_of_cards_without_words_are_the_python_engines(
        vanilla_engine: Engine, agents: str, level: str) -> None:
    endings = set()
    for seed in range(30):
        native = _compare(vanilla_engine, _vanilla_decks(vanilla_engine, seed), seed, agents,
                          level)
        assert native.over and native.unported is None, seed
        endings.add((native.winner, native.log.as_dicts()[-1]["reason"] if native.log.as_dicts() else None))
    if agents == "random" and level == "full":  # both won at 0 Ép (3.12); a deck ran out
        assert {(0, "hp"), (1, "hp")} <= endings and any(r == "empty_deck" for _, r in endings)


@pytest.mark.parametrize("agents", ["random", "first"])
@pytest.mark.parametrize("level", ["full", "outcome"])
def test_8_1_whole_games_with_spells_of_implemented_words_are_the_python_engines(
        spell_engine: Engine, agents: str, level: str) -> None:
    kinds: set[str] = set()
    for seed in range(30):
        native = _compare(spell_engine, _vanilla_decks(spell_engine, seed), seed, agents, level)
        assert native.over and native.unported is None, seed
        kinds |= set(native.log.kinds())
    if level == "full" and agents == "random":  # every verb took effect
        assert {"player_damaged", "damaged", "healed", "player_healed", "vp_gained",
                "card_drawn"} <= kinds, kinds


def test_29_4_1_automatic_abilities_resolve_ordered_as_the_python_engines(
        spell_engine: Engine) -> None:
    decisions: set[tuple[str, str | None]] = set()
    items: set[str] = set()
    for seed in range(30):
        native = _compare(spell_engine, _vanilla_decks(spell_engine, seed), seed, "random",
                          "full")
        decisions |= {(e["decision"], e["rule"]) for e in native.log.as_dicts() if e["kind"] == "decision"}
        items |= {e["item"].split("#")[0] for e in native.log.as_dicts()
                  if e["kind"] == "resolving" and e["item_kind"] == "automatic"}
    automatic = {f"tt:{name}" for name, (_, _, abilities) in ABILITIES.items()
                 if abilities[0]["kind"] == "automatic" and "condition" not in abilities[0]}
    assert automatic <= items, items  # every automatic ability resolved
    # the active player ordered (29.4.1, D-orderer), a controller his entry (R-enter-order),
    # optional abilities were offered
    assert {("order", "29.4.1"), ("order", "R-enter-order"), ("use", "4.11.6"),
            ("use", "29.4")} <= decisions, decisions


def test_29_4_2_abilities_at_a_moment_are_bound_together_then_applied_as_the_python_engines(
        spell_engine: Engine) -> None:
    moments: set[tuple[str, str]] = set()
    decisions: set[tuple[str, str | None]] = set()
    for seed in range(30):
        native = _compare(spell_engine, _vanilla_decks(spell_engine, seed), seed, "random",
                          "full")
        moments |= {(e["step"], item.split("#")[0]) for e in native.log.as_dicts()
                    if e["kind"] == "moment" for item in e["items"]}
        decisions |= {(e["decision"], e["rule"]) for e in native.log.as_dicts() if e["kind"] == "decision"}
    # the moment had every such ability in it; a choice was made before it, an optional one
    # was offered
    assert {("prep_stage2_start", f"tt:{name}") for name in ("spring", "tide", "ember")} \
        <= moments, moments
    assert {("target", None), ("use", "29.4.2")} <= decisions, decisions


def test_41_4_defence_bonuses_are_gained_and_lost_as_the_python_engines(
        spell_engine: Engine) -> None:
    lost: set[tuple[str, str | None, bool]] = set()
    gained: set[str] = set()
    for seed in range(30):
        native = _compare(spell_engine, _vanilla_decks(spell_engine, seed), seed, "random",
                          "full")
        gained |= {e["source"].split("#")[0] for e in native.log.as_dicts()
                   if e["kind"] == "defence_bonus_gained"}
        lost |= {(e["step"], e["rule"], e["source"] is None) for e in native.log.as_dicts()
                 if e["kind"] == "defence_bonus_lost"}
    assert {"tt:veil", "tt:coral", "tt:ward"} <= gained, gained
    # lost at the end of the turn (41.4), to a spell, and at a moment after its gains
    assert {("end_stage4", "41.4", True), ("main_phase", None, False),
            ("prep_stage2_start", None, False)} <= lost, lost


def test_d_conditions_automatic_abilities_fire_only_while_their_condition_holds_as_python(
        spell_engine: Engine) -> None:
    fired: set[str] = set()
    for seed in range(30):
        native = _compare(spell_engine, _vanilla_decks(spell_engine, seed), seed, "random",
                          "full")
        fired |= {e["item"].split("#")[0] for e in native.log.as_dicts()
                  if e["kind"] == "resolving" and e["item_kind"] == "automatic"}
        fired |= {item.split("#")[0] for e in native.log.as_dicts() if e["kind"] == "moment"
                  for item in e["items"]}
    assert {"tt:hermit", "tt:miser", "tt:warden", "tt:vulture"} <= fired, fired


def test_d_moment_leaves_sacrificed_permanents_leave_play_as_the_python_engines(
        spell_engine: Engine) -> None:
    sacrificed: set[tuple[str, str]] = set()
    gained: set[str] = set()
    for seed in range(30):
        native = _compare(spell_engine, _vanilla_decks(spell_engine, seed), seed, "random",
                          "full")
        sacrificed |= {(e["step"], e["card"]) for e in native.log.as_dicts()
                       if e["kind"] in ("died", "destroyed") and e["cause"] == "sacrificed"}
        gained |= {e["source"] for e in native.log.as_dicts() if e["kind"] == "components_gained"}
    # a building at the end of the turn, a creature at a moment (after the moment's damage:
    # the martyr sacrificed first is damaged too, D-moment-leaves), a creature to a spell
    assert {("end_stage2", "tt:potion"), ("prep_stage2_start", "tt:martyr")} <= sacrificed
    assert any(step == "main_phase" for step, _ in sacrificed), sacrificed
    assert {"tt:offering"} <= gained and any(g.startswith("tt:potion#") for g in gained)


def test_41_1_activated_abilities_are_offered_paid_and_limited_as_the_python_engines(
        spell_engine: Engine) -> None:
    used: set[tuple[str, str]] = set()
    paid: set[tuple[str, bool]] = set()
    forced: set[bool] = set()
    for seed in range(30):
        native = _compare(spell_engine, _vanilla_decks(spell_engine, seed), seed, "random",
                          "full")
        used |= {(e["step"], e["item"].split("#")[0]) for e in native.log.as_dicts()
                 if e["kind"] == "resolving" and e["item_kind"] == "activated"}
        paid |= {(e["item"].split("#")[0], e["sacrifice"]) for e in native.log.as_dicts()
                 if e["kind"] == "cost_paid"}
        forced |= {e["forced"] for e in native.log.as_dicts()
                   if e["kind"] == "passed" and e["step"] == "end_stage1"}
    assert {("main_phase", "tt:smith"), ("combat_phase", "tt:sentry"),
            ("end_stage1", "tt:alchemist"), ("end_stage1", "tt:bell"), ("end_stage1", "tt:imp"),
            ("main_phase", "tt:sage"), ("main_phase", "tt:bomb")} <= used, used
    assert {("tt:smith", False), ("tt:bomb", True)} <= paid, paid
    assert forced == {True, False}  # 41.1: a player with nothing left passes, forced


def test_29_4_5_41_4_lasting_effects_start_wait_and_end_as_the_python_engines(
        spell_engine: Engine) -> None:
    started: set[tuple[str, str]] = set()
    ended: set[tuple[str, str]] = set()
    for seed in range(30):
        native = _compare(spell_engine, _vanilla_decks(spell_engine, seed), seed, "random",
                          "full")
        started |= {(e["kind"], e["duration"]) for e in native.log.as_dicts()
                    if e["kind"] in ("effect_started", "effect_created")}
        ended |= {(e["step"], e["rule"]) for e in native.log.as_dicts() if e["kind"] == "effect_ended"}
    durations = {"permanent", "until_end_of_turn", "this_turn", "until_preparation",
                 "until_own_preparation", "turns"}
    assert durations <= {d for _, d in started}, started
    assert {("prep_stage2_start", "29.4.4"), ("end_stage4", "41.4")} <= ended, ended


def test_d_dispel_end_effects_ends_them_at_once_as_the_python_engines(
        spell_engine: Engine) -> None:
    ended: set[tuple[str, bool]] = set()
    deck = [f"tt:{name}" for name in ("banner", "cleanse", "frenzy", "calm", "purge", "mage",
                                      "tidal", "beast0", "beast2", "beast3")] * 3
    for seed in range(20):
        native = _compare(spell_engine, (deck, deck), seed, "random", "full")
        ended |= {(e["stat"], "partial" in e) for e in native.log.as_dicts()
                  if e["kind"] == "effect_ended" and e["rule"] == "D-dispel"}
    # whole effects, one ended for some of its permanents only, a player's VP regeneration's
    assert {("damage", False), ("damage", True), ("vp_regen", False)} <= ended, ended


def test_d_static_scope_static_modifiers_hold_while_their_card_is_in_play_as_python(
        spell_engine: Engine) -> None:
    statics = {"tt:aura", "tt:drake", "tt:brute", "tt:blight"}
    seen: set[str] = set()
    for seed in range(30):
        native = _compare(spell_engine, _vanilla_decks(spell_engine, seed), seed, "random",
                          "full")
        seen |= {e["card"] for e in native.log.as_dicts() if e["kind"] == "entered_play"} & statics
    assert seen == statics, seen  # each was in play in a game both cores played alike


def test_counters_are_put_on_taken_off_and_counted_as_the_python_engines(
        spell_engine: Engine) -> None:
    seen: set[tuple[str, str, str]] = set()
    fired = False
    deck = [f"tt:{name}" for name in ("venom", "antidote", "rune", "thaw", "plague", "beast0",
                                      "beast2", "beast3", "beast5", "mend")] * 3
    for seed in range(20):
        native = _compare(spell_engine, (deck, deck), seed, "random", "full")
        seen |= {(e["kind"], e["counter"], e["step"]) for e in native.log.as_dicts()
                 if e["kind"] in ("counters_added", "counters_removed")}
        fired = fired or any(e["kind"] == "resolving" and e["item"].startswith("tt:plague")
                             for e in native.log.as_dicts())
    assert {("counters_added", "rune", "main_phase"), ("counters_removed", "rune", "end_stage2"),
            ("counters_added", "poison", "main_phase"),
            ("counters_removed", "poison", "prep_stage2_start")} <= seen, seen
    assert fired  # a condition counted the poison counters (K 121.1)


def test_d_prevented_abilities_resolve_without_effect_as_the_python_engines(
        spell_engine: Engine) -> None:
    stopped: set[tuple[str, str, str]] = set()
    deck = [f"tt:{name}" for name in ("silence", "hush", "leech", "spring", "smith", "sage",
                                      "tide", "beast0", "beast2", "mend")] * 3
    for seed in range(20):
        native = _compare(spell_engine, (deck, deck), seed, "random", "full")
        stopped |= {(e["step"], e["card"], e["preventer_card"]) for e in native.log.as_dicts()
                    if e["kind"] == "prevented"}
    # at a moment, in an ordered step, and an activated ability after its cost
    assert {("prep_stage2_start", "tt:spring", "tt:silence"),
            ("prep_stage2", "tt:leech", "tt:silence")} <= stopped, stopped
    assert any(step == "main_phase" and by == "tt:hush" for step, _, by in stopped), stopped


def test_29_4_7_abilities_used_in_the_preparation_phase_once_a_turn_as_the_python_engines(
        spell_engine: Engine) -> None:
    used: set[tuple[str, str]] = set()
    deck = [f"tt:{name}" for name in ("robber", "oracle", "alchemist", "potion", "offering",
                                      "beast0", "beast2", "beast3", "silence", "leech")] * 3
    for seed in range(20):
        native = _compare(spell_engine, (deck, deck), seed, "random", "full")
        used |= {(e["step"], e["item"].split("#")[0] + e["item"].split(":")[-1])
                 for e in native.log.as_dicts() if e["kind"] == "resolving" and e["item_kind"] == "activated"}
    assert {("prep_stage2", "tt:robber0"), ("prep_stage2", "tt:robber1"),
            ("prep_stage2", "tt:oracle0")} <= used, used


@pytest.mark.parametrize("agents", ["random", "first"])
def test_d_trigger_wait_triggered_abilities_resolve_as_the_python_engines(
        trigger_engine: Engine, agents: str) -> None:
    """Every trigger event, ordered by the active player (D-trigger-order), waiting for the
    preparation phase's pool (29.4.1, D-trigger-prep), never in end stage 4 (41.4), with the
    combat's (D-trigger-attack, D-trigger-combat) and the dead's look back
    (D-trigger-lookback): event for event the Python engine's."""
    triggered: set[str] = set()
    causes: set[str] = set()
    decisions: set[tuple[str, str | None]] = set()
    for seed in range(40):
        native = _compare(trigger_engine, _trigger_decks(trigger_engine, seed), seed, agents,
                          "full")
        assert native.over and native.unported is None, (seed, native.unported)
        for event in native.log.as_dicts():
            if event["kind"] == "triggered":
                triggered.add(event["item"].split("#")[0])
                causes.add(event["cause"])
            elif event["kind"] == "decision":
                decisions.add((event["decision"], event["rule"]))
    if agents == "random":
        assert {f"tt:{name}" for name in TRIGGERS} <= triggered, triggered
        assert {"died", "destroyed", "damaged", "player_damaged", "entered_play",
                "effect_ended", "card_played", "attack"} <= causes, causes
        assert {("order", "D-trigger-order"), ("use", "D-trigger-wait")} <= decisions


def test_d_combat_games_of_cards_without_words_use_every_rule_they_reach(
        vanilla_engine: Engine) -> None:
    kinds: set[str] = set()
    for seed in range(30):
        native = hkk_native.play_native(vanilla_engine, list(_vanilla_decks(vanilla_engine, seed)),
                                        seed=seed, agents=_agents("random", seed))
        kinds |= set(native.log.kinds())
    assert {"card_played", "entered_play", "became_active", "moved", "attack", "damaged",
            "player_damaged", "died", "restored", "components_extracted",
            "components_declined", "components_gained"} <= kinds, kinds


@pytest.mark.parametrize("level", ["full", "outcome"])
def test_d_empty_deck_games_without_a_playable_card_end_alike(dear_engine: Engine,
                                                              level: str) -> None:
    deck = sorted(dear_engine.cards)
    for seed, agents in itertools.product(range(10), ["random", "first", "seeded"]):
        native = _compare(dear_engine, (deck[:9], deck[3:]), seed, agents, level)
        assert native.over and native.unported is None


def test_28_batched_native_games_end_as_the_python_engines(dear_engine: Engine) -> None:
    deck = sorted(dear_engine.cards)
    seeds = list(range(-10, 30))
    batched = hkk_native.play_many_native(dear_engine, [deck[:8], deck[4:]], seeds=seeds)
    for seed, (winner, turns, emitted) in zip(seeds, batched, strict=True):
        python = dear_engine.play([deck[:8], deck[4:]], seed=seed, log_level="outcome")
        assert (winner, turns, emitted) == (python.winner, python.turn, python.log.emitted), seed


@settings(max_examples=25, deadline=None)
@given(seeds=st.lists(st.integers(-(2**63), 2**63 - 1), min_size=1, max_size=4))
def test_a_batchs_default_seats_are_the_engines_default_agents(seeds: list[int]) -> None:
    """A batch seated as the engine seats its games hands over only the agents' pass bias: the
    native core makes each seat's seed (``agent_seed``, a SHA-256) itself, and its games are
    those of the seats made in Python, seed for seed (the whole 64-bit range)."""
    from hkk_native import _core

    engine = Engine.installed()
    lists = _core._checked(engine, list(BASE_DECKS), seeds)
    native = _core._native_engine(engine)
    given_seats = [_core._default_seats(seed) for seed in seeds]
    made = native.play_outcomes((lists[0], lists[1]), seeds, _core._default_pass_bias())
    assert made == native.play_outcomes((lists[0], lists[1]), seeds, given_seats)
    assert native.play_many((lists[0], lists[1]), seeds, _core._default_pass_bias(), "full") \
        == native.play_many((lists[0], lists[1]), seeds, given_seats, "full")


def test_a_batchs_seats_that_fit_neither_way_are_refused_by_name(engine: Engine) -> None:
    from hkk_native import _core

    lists = _core._checked(engine, list(BASE_DECKS), [1, 2, 3])
    two = [_core._default_seats(1), _core._default_seats(2)]
    for method in ("play_outcomes", "tally_outcomes"):
        with pytest.raises(ValueError, match=f"{method} takes one pair of seats, or one per seed"):
            getattr(_core._native_engine(engine), method)((lists[0], lists[1]), [1, 2, 3], two)
    with pytest.raises(ValueError, match="play_many takes one pair of seats"):
        _core._native_engine(engine).play_many((lists[0], lists[1]), [1, 2, 3], two, "outcome")


@pytest.fixture(scope="module")
def refused_engine(engine: Engine) -> Engine:
    """The base cards and a spell of a word the native core does not implement (``custom``:
    a set's Python code)."""
    from hkk._cards.model import SpellCard

    odd = SpellCard(id="tt:odd", name="Odd", cost={"vp": 1},
                    effects=[{"do": "custom", "name": "odd"}])
    return Engine({**engine.cards, "tt:odd": odd})


#: Seeds per pairing of the base decks played under each other ruling.
RULING_SEEDS = 6
#: Each [D] choice of :class:`hkk.Rulings` other than its default, and a turn limit.
OTHER_RULINGS = {
    "D-empty-deck": Rulings(empty_deck_loses=False),
    "D-vp-carry": Rulings(unspent_vp_carries_over=False),
    "D-orderer": Rulings(default_orderer="stable"),
    "D-until-preparation": Rulings(until_preparation_ends="controller"),
    "D-counted-turns": Rulings(counted_turns="own"),
    "D-deferred-check": Rulings(deferred_check_gives_components=True),
    "D-trigger-order": Rulings(trigger_orderer="stable"),
    "D-no-target": Rulings(spells_need_a_choice=True),
    "D-turn-limit": Rulings(max_turns=9),
}


#: Creatures of 1 Ép kept alive by an Ép bonus until the end of the turn under a permanent
#: -2 (D-deferred-check: the base decks have no death at the deferred check): when the bonus
#: ends (41.4) they die at the next turn's start.
DEFERRED_DEATHS = {t["id"]: {"name": t["id"].upper(), **t} for t in [
    {"id": "tt:bulk", "kind": "creature", "cost": {"vp": 0}, "damage": 1, "hp": 1,
     "components": 2},
    {"id": "tt:tonic", "kind": "spell", "cost": {"vp": 0}, "effects": [
        {"do": "modify", "stat": "hp", "by": 3, "target": "own_creatures",
         "duration": "until_end_of_turn"}]},
    {"id": "tt:blight", "kind": "spell", "cost": {"vp": 0}, "effects": [
        {"do": "modify", "stat": "hp", "by": -2, "target": "all_creatures",
         "duration": "permanent"}]}]}
DEFERRED_DECK = ["tt:bulk", "tt:tonic", "tt:bulk", "tt:blight"] * 5


@pytest.mark.parametrize("ruling", OTHER_RULINGS)
def test_d_rulings_each_other_choice_gives_the_python_engines_games(ruling: str) -> None:
    """An engine's rulings reach the native core (docs/RULINGS.md): under each other choice
    the games are event for event the Python engine's, and the choice changes some of them
    (so they reach what it rules)."""
    rulings = OTHER_RULINGS[ruling]
    if ruling == "D-deferred-check":
        cards = card_models(DEFERRED_DEATHS)
        engine, default = Engine(cards, rulings=rulings), Engine(cards)
        games = [((DEFERRED_DECK, DEFERRED_DECK[::-1]), seed) for seed in range(12)]
    else:
        engine = Engine.installed(allow=["alap"], rulings=rulings)
        default = Engine.installed(allow=["alap"])
        games = list(itertools.product(PAIRINGS, range(RULING_SEEDS)))
    changed = 0
    for decks, seed in games:
        native = _compare(engine, decks, seed, "random", "full")
        assert native.over and native.unported is None, (decks, seed, native.unported)
        usual = default.play(list(decks), seed=seed, agents=_agents("random", seed))
        changed += native.log.as_dicts() != [e.as_dict() for e in usual.log]
    assert changed, f"{ruling}: no game changed"


def _answered(game: Any, answers: random.Random, limit: int = 10**6) -> list[dict[str, Any]]:
    """Answers up to ``limit`` decisions of ``game`` with random indexes; its log."""
    for _ in range(limit):
        if game.decision is None:
            break
        game.answer(answers.randrange(len(game.decision.options)))
    return [e.as_dict() for e in game.log]


@pytest.mark.parametrize("ruling", ["D-orderer", "D-vp-carry", "D-no-target", "D-turn-limit"])
def test_d_rulings_a_games_own_rulings_give_the_python_engines_games(engine: Engine,
                                                                     ruling: str) -> None:
    """A game's own rulings (``new_game(rulings=...)``, not its engine's: ``hkk play
    --max-turns`` gives one) reach the native core: answered from outside and copied half-way,
    its games are the Python engine's under the same rulings, and the rulings change some."""
    rulings = OTHER_RULINGS[ruling]
    changed = 0
    for decks, seed in itertools.product(PAIRINGS, range(3)):
        logs = []
        for game in (hkk_native.core.new_game(engine, list(decks), agents=[None, None],
                                              seed=seed, rulings=rulings),
                     engine.new_game(list(decks), [None, None], seed=seed, rulings=rulings)):
            answers = random.Random(seed)
            _answered(game, answers, 150)
            copy, at = game.clone(), answers.getstate()
            logs.append(_answered(game, answers))
            answers.setstate(at)
            assert _answered(copy, answers) == logs[-1], (ruling, decks, seed, "the copy")
        assert logs[0] == logs[1], (ruling, decks, seed)
        usual = engine.new_game(list(decks), [None, None], seed=seed)
        changed += logs[0] != _answered(usual, random.Random(seed))
    assert changed, f"{ruling}: no game changed"


class _OwnOrderer(Rulings):
    """Rulings that answer who orders their own way: a method the native core cannot read."""

    def orderer(self, game: Any, step: Any) -> int | None:
        return None


@pytest.mark.parametrize(("rulings", "named"), [
    (_OwnOrderer(), "_OwnOrderer"),
    (Rulings(max_turns=-1), "max_turns=-1"),
    (Rulings(max_items_per_step=2**40), "max_items_per_step"),
])
def test_d_rulings_the_native_core_does_not_take_are_refused_by_name(rulings: Rulings,
                                                                     named: str) -> None:
    engine = Engine.installed(allow=["alap"], rulings=rulings)
    reason = hkk_native.core.refuses(engine, list(BASE_DECKS))
    assert reason is not None and named in reason, reason
    with pytest.raises(hkk_native.Refused, match=named):
        hkk_native.core.new_game(engine, list(BASE_DECKS), seed=1)
    # a game's own: the same refusal, saying whose
    default = Engine.installed(allow=["alap"])
    with pytest.raises(hkk_native.Refused, match=named):
        hkk_native.core.new_game(default, list(BASE_DECKS), seed=1, rulings=rulings)


def test_native_core_refuses_a_game_naming_card_and_word(refused_engine: Engine) -> None:
    decks = [["tt:odd"] * 6, ["alap:tuzmano"] * 6]
    reason = hkk_native.core.refuses(refused_engine, decks)
    assert reason is not None
    assert "card tt:odd" in reason and 'do = "custom"' in reason  # the card, then the word
    with pytest.raises(hkk_native.Refused, match="card tt:odd"):
        hkk_native.core.new_game(refused_engine, decks, seed=1)


def test_native_core_plays_every_card_of_the_base_set(engine: Engine) -> None:
    base = sorted(card for card in engine.cards if card.startswith("alap:"))
    assert len(base) == 53
    refused = {card: hkk_native.core.refuses(engine, [[card] * 5, [card] * 5])
               for card in base}
    assert {card: why for card, why in refused.items() if why is not None} == {}


def test_native_core_refuses_a_set_with_python_hooks_naming_it_and_the_hook() -> None:
    class LoudSet:
        @hookimpl
        def prep_stage2(self, game: Any) -> list[Any]:
            return []

    engine = Engine.installed(allow=["alap"], plugins=[LoudSet()])
    reason = hkk_native.core.refuses(engine, list(BASE_DECKS))
    assert reason is not None and "prep_stage2" in reason


def test_native_core_runs_decks_of_cards_without_words_to_the_python_engines_end(
        vanilla_engine: Engine) -> None:
    decks = _vanilla_decks(vanilla_engine, 4)
    assert hkk_native.core.refuses(vanilla_engine, list(decks)) is None
    native = hkk_native.core.new_game(vanilla_engine, list(decks), seed=4)
    native.play()
    python = vanilla_engine.play(list(decks), seed=4)
    assert native.over and (native.winner, native.turn) == (python.winner, python.turn)


def test_an_agent_without_a_native_twin_plays_through_the_protocol_and_not_in_a_batch(
        engine: Engine) -> None:
    class Custom:
        def choose(self, game: Any, decision: Any) -> Any:
            return decision.options[-1]

    native = hkk_native.play_native(engine, list(BASE_DECKS), agents=[Custom(), Custom()])
    python = engine.new_game(list(BASE_DECKS), [Custom(), Custom()], seed=0)
    python.play()
    assert native.over and native.log.as_dicts() == [e.as_dict() for e in python.log]
    with pytest.raises(hkk_native.Refused, match="agent Custom is not seated natively"):
        hkk_native.play_many_native(engine, list(BASE_DECKS), seeds=[0],
                                    agents=[Custom(), Custom()])


@pytest.mark.parametrize("pairing", PAIRINGS, ids="-".join)
def test_whole_games_of_the_base_decks_are_the_python_engines(
        engine: Engine, pairing: tuple[str, str]) -> None:
    decks = list(pairing)
    kinds: set[str] = set()
    for seed in range(BASE_SEEDS):
        native = _compare(engine, decks, seed, "default", "full")
        assert native.over and native.unported is None, (seed, native.unported)
        kinds |= set(native.log.kinds())
    # the base cards' words took effect: lasting effects and activated abilities in both
    # decks, the fire deck's triggered abilities, the water deck's defence bonuses and counters
    expected = {"effect_started", "effect_ended", "cost_paid"}
    if "alap:tuz" in pairing:
        expected |= {"triggered"}
    if "alap:viz" in pairing:
        expected |= {"defence_bonus_gained", "defence_bonus_lost", "counters_added"}
    assert expected <= kinds, kinds
