"""The card sets shipped in ``sets/``: the base set ``alap`` (data only) and the community
expansion ``mereg`` (data plus the poison rule of Kódex 121.1).

The sets are read from their source folders, so these tests need no install; the last test
checks the installed sets when they are installed (the base set ships inside the engine,
``pip install -e .``; mereg is ``pip install -e sets/mereg``).
"""

from __future__ import annotations

import ast
import collections
import importlib
import statistics
import sys
import tomllib
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))
import pytest

import hkk
from hkk import Engine, FirstLegalAgent
from hkk._cards.interpret import EffectContext
from hkk._cards.loader import load_set_cards, load_set_decks
from hkk._cards.model import (
    ActivatedAbility,
    AutomaticAbility,
    StaticAbility,
    TriggeredAbility,
)
from hkk._phases import CARD_TIMINGS, DEFAULT_TURN
from hkk._runner import Turn, after_resolution, run_step, start_turn
from hkk._sets.manifest import parse_manifest
from hkk._state import Permanent

from helpers import Passer, item, item_plugin  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
SETS = ROOT / "sets"
ALAP_ROOT = SETS / "alap" / "src" / "hkk_set_alap"
MEREG_ROOT = SETS / "mereg" / "src" / "hkk_set_mereg"


def _import_mereg() -> Any:
    """The expansion's package: the installed one, else straight from its source folder."""
    try:
        return importlib.import_module("hkk_set_mereg")
    except ImportError:
        sys.path.insert(0, str(MEREG_ROOT.parent))
        return importlib.import_module("hkk_set_mereg")


mereg = _import_mereg()

ALAP_CARDS = load_set_cards("alap", ALAP_ROOT)
MEREG_CARDS = load_set_cards("mereg", MEREG_ROOT)
ALL_CARDS = ALAP_CARDS + MEREG_CARDS
ALAP_IDS = {card.id for card in ALAP_CARDS}
ALL_IDS = {card.id for card in ALL_CARDS}
# Decks may use the cards of the set itself and of the sets it depends on (set.toml depends).
DECKS = {f"alap:{name}": deck for name, deck in load_set_decks("alap", ALAP_ROOT, ALAP_IDS).items()}
DECKS.update({f"mereg:{name}": deck
              for name, deck in load_set_decks("mereg", MEREG_ROOT, ALL_IDS).items()})
BASE_PAIR = ("alap:tuz", "alap:viz")
# Pairings for the coverage test: together they put every deck, so every card, on the table.
PAIRINGS = (BASE_PAIR, ("mereg:mocsar", "alap:tuz"), ("alap:viz", "mereg:mocsar"))


@pytest.fixture(scope="module")
def engine() -> Engine:
    return Engine(ALL_CARDS, decks=DECKS, plugins=[mereg])


def abilities(cards: list[Any]) -> list[Any]:
    return [ability for card in cards for ability in card.abilities]


def effects(cards: list[Any]) -> list[Any]:
    found = []
    for card in cards:
        found.extend(getattr(card, "effects", ()))
        for ability in card.abilities:
            found.extend(ability.effects)
    return found


# -- manifests and packaging ------------------------------------------------------------------

# The base set ships inside the engine (issue 24.12): its project is the root pyproject.toml.
DISTRIBUTIONS = {"alap": "hkk", "mereg": "hkk-set-mereg"}


@pytest.mark.parametrize("code, root, depends", [("alap", ALAP_ROOT, ()),
                                                  ("mereg", MEREG_ROOT, ("alap",))])
def test_manifest_matches_entry_point_and_engine(code: str, root: Path,
                                                 depends: tuple[str, ...]) -> None:
    manifest = parse_manifest((root / "set.toml").read_text(encoding="utf-8"))
    assert manifest.code == code
    assert manifest.depends == depends
    assert manifest.requires_specifier.contains(hkk.HOOK_API_VERSION)
    project_root = ROOT if code == "alap" else root.parent.parent
    project = tomllib.loads((project_root / "pyproject.toml").read_text(encoding="utf-8"))
    assert project["project"]["name"] == DISTRIBUTIONS[code]
    assert project["project"]["entry-points"]["hkk.sets"] == {code: root.name}
    # the data travels with the package
    setuptools = project["tool"]["setuptools"]
    assert {"set.toml", "cards/*.toml", "decks/*.toml"} <= set(setuptools["package-data"][root.name])
    if code == "alap":  # the engine's own: its version is the engine's, its package a second root
        assert "sets/alap/src" in setuptools["packages"]["find"]["where"]
        return
    assert project["project"]["version"] == manifest.version
    assert any(r.startswith("hkk") and not r.startswith("hkk-")
               for r in project["project"]["dependencies"])
    for dep in depends:
        assert any(r.startswith(DISTRIBUTIONS[dep]) for r in project["project"]["dependencies"])


def test_alap_is_data_only() -> None:
    tree = ast.parse((ALAP_ROOT / "__init__.py").read_text(encoding="utf-8"))
    assert len(tree.body) == 1 and isinstance(tree.body[0], ast.Expr)  # just the docstring
    assert sorted(p.name for p in ALAP_ROOT.glob("*.py")) == ["__init__.py"]


def test_mereg_offers_its_rule_and_effect_as_hooks() -> None:
    pm = hkk._plugin.make_plugin_manager()
    pm.register(mereg, name="hkk.sets.mereg")
    pm.check_pending()
    for hook in (pm.hook.prep_stage2, pm.hook.lethal):
        assert {impl.plugin_name for impl in hook.get_hookimpls()} >= {"hkk.sets.mereg"}
    assert "mereg:poison" in Engine(plugins=[mereg]).custom_effects()


# -- the cards ---------------------------------------------------------------------------------

def test_alap_has_30_cards_with_hungarian_names() -> None:
    assert len(ALAP_CARDS) >= 30
    assert len(MEREG_CARDS) >= 6
    assert all(card.id.startswith("alap:") and card.id.isascii() for card in ALAP_CARDS)
    assert any(not card.name.isascii() for card in ALAP_CARDS)  # á, é, ő, ű…
    names = {card.name for card in ALAP_CARDS}
    assert {"Sírrabló", "Gyilkos imp", "Energiafőzet"} <= names  # modelled on §5


def test_alap_uses_every_timing_duration_ability_kind_and_limit() -> None:
    found = abilities(ALAP_CARDS)
    timings = {a.timing for a in found if isinstance(a, (AutomaticAbility, ActivatedAbility))}
    # no card ability of either kind may be timed on end stages 3 and 4 (41.2-41.4)
    assert timings == set(CARD_TIMINGS) - {"end_stage3", "end_stage4"} | {"on_enter"}
    assert {type(a) for a in found} == {StaticAbility, AutomaticAbility, ActivatedAbility,
                                        TriggeredAbility}
    # every event a trigger may watch, and each of whose, which and an optional one
    whens = [a.when for a in found if isinstance(a, TriggeredAbility)]
    assert {w.event for w in whens} == {"dies", "damaged", "enters_play", "effect_ends",
                                        "card_played"}
    assert {w.whose for w in whens} == {"own", "opponent", "any"}
    assert {w.which for w in whens} >= {"this", "any"}
    assert any(a.optional for a in found if isinstance(a, TriggeredAbility))
    assert any(isinstance(a, ActivatedAbility) and a.timing == "prep_stage2"
               and a.usable_in_preparation for a in found)
    assert any(isinstance(a, AutomaticAbility) and a.optional for a in found)
    limits = [a.limit for a in found if isinstance(a, ActivatedAbility)]
    assert any(lim.per_turn == 1 for lim in limits)
    assert any(lim.per_turn and lim.per_turn > 1 for lim in limits)
    assert any(lim.per_game == 1 for lim in limits)
    assert {lim.whose_turn for lim in limits} == {"any", "own", "opponent"}

    primitives = effects(ALAP_CARDS)
    durations = {e.duration for e in primitives if e.do == "modify"}
    assert durations == {"permanent", "until_end_of_turn", "this_turn", "until_preparation",
                         "until_own_preparation", "turns"}
    assert {e.by > 0 for e in primitives if e.do == "modify" and e.stat == "vp_regen"} \
        == {True, False}  # a bonus and a drawback
    dos = {e.do for e in primitives}
    assert {"give_defence_bonus", "remove_defence_bonus", "add_counters", "remove_counters",
            "gain_components", "sacrifice", "end_effects", "prevent"} <= dos
    # the card language of issue 10: conditions and a chosen player
    assert {type(a) for a in found if a.condition is not None} >= {StaticAbility,
                                                                   AutomaticAbility}
    assert any(getattr(e, "target", None) == "chosen_player" for e in primitives)


def test_alap_has_every_card_kind_and_components_as_stats_and_costs() -> None:
    kinds = collections.Counter(card.kind for card in ALAP_CARDS)
    assert kinds["creature"] and kinds["building"] and kinds["spell"]
    spells = [card for card in ALAP_CARDS if card.kind == "spell"]
    assert {card.instant for card in spells} == {True, False}
    assert any(card.kind == "creature" and card.components for card in ALAP_CARDS)
    assert any(card.cost.components for card in ALAP_CARDS)
    assert any(isinstance(a, ActivatedAbility) and a.cost.components
               for a in abilities(ALAP_CARDS))


def test_mereg_cards_use_the_poison_counter() -> None:
    poisonous = [card.id for card in MEREG_CARDS
                 if any((e.do == "custom" and e.name == "mereg:poison")
                        or (e.do in ("add_counters", "remove_counters")
                            and e.counter == mereg.COUNTER)
                        for e in effects([card]))]
    assert len(poisonous) >= 6, poisonous
    for e in effects(MEREG_CARDS):  # custom params are only checked when played: check here
        if e.do == "custom":
            assert e.name in Engine(plugins=[mereg]).custom_effects()
            assert set(e.params) <= mereg.poison.PARAMS  # the target is the effect's own
            assert e.target in mereg.poison.CREATURE_TARGETS


OWN_TURN_CARDS = {"alap:langolo-totem", "alap:verszivo-denever", "alap:vandor-bard",
                  "alap:mana-kut", "mereg:pokkiralyno", "alap:tengeri-remete"}


def test_your_phase_texts_are_own_turn_automatics() -> None:
    """"A saját előkészítő fázisodban" / "a saját köröd végén": these fire in their
    controller's turns only, so once per round, not twice."""
    own = {card.id for card in ALL_CARDS for a in card.abilities
           if isinstance(a, AutomaticAbility) and a.whose_turn == "own"}
    assert own == OWN_TURN_CARDS
    for card in ALL_CARDS:
        if card.id in OWN_TURN_CARDS:
            assert "saját" in card.text, card.id


# -- decks -------------------------------------------------------------------------------------

def test_decks_are_legal() -> None:
    """Our deck conventions (the Kódex's deck rules were not available to us): 30 to 40 cards,
    at most 3 copies of a card, only cards of the deck's set and of the sets it depends on."""
    assert {"alap:tuz", "alap:viz", "mereg:mocsar"} <= set(DECKS)
    allowed = {"alap": ALAP_IDS, "mereg": ALL_IDS}
    for name, deck in DECKS.items():
        assert 30 <= deck.size <= 40, (name, deck.size)
        assert max(deck.cards.values()) <= 3, name
        assert set(deck.cards) <= allowed[name.split(":")[0]], name


def test_every_card_is_in_a_deck() -> None:
    in_decks = {card_id for deck in DECKS.values() for card_id in deck.cards}
    assert in_decks == ALL_IDS


# -- random games ------------------------------------------------------------------------------

def test_every_card_gets_played_in_some_seeded_game(engine: Engine) -> None:
    played_in: dict[str, tuple[str, str, int]] = {}
    games = 0
    for seed in range(100):
        for pair in PAIRINGS:
            game = engine.play(list(pair), seed=seed)
            games += 1
            for event in game.log.of_kind("card_played", "entered_play"):
                played_in.setdefault(event["card"], (*pair, seed))
        if set(played_in) >= ALL_IDS:
            break
    by_game: dict[tuple[str, str, int], list[str]] = collections.defaultdict(list)
    for card_id, where in played_in.items():
        by_game[where].append(card_id)
    print(f"\n{len(played_in)} cards played in {games} games; first seen:")
    for (first, second, seed), ids in sorted(by_game.items(), key=lambda kv: kv[0][2]):
        print(f"  seed {seed:3d} {first} vs {second}: {', '.join(sorted(ids))}")
    assert set(played_in) == ALL_IDS


@pytest.mark.slow
def test_base_decks_games_end_with_a_winner_50_seeds(engine: Engine) -> None:
    turns = []
    outcomes: collections.Counter[tuple[str, str]] = collections.Counter()
    for seed in range(50):
        game = engine.play(list(BASE_PAIR), seed=seed)
        over = game.log.of_kind("game_over")[-1]
        assert game.winner is not None, (seed, over.data)
        assert over["reason"] in ("hp", "empty_deck"), (seed, over.data)
        outcomes[(BASE_PAIR[game.winner], over["reason"])] += 1
        turns.append(game.turn)
    print(f"\n{BASE_PAIR[0]} vs {BASE_PAIR[1]}, 50 seeds: turns min {min(turns)}, median "
          f"{statistics.median(turns)}, max {max(turns)}; wins {dict(outcomes)}")
    assert max(turns) <= 80
    wins = collections.Counter(deck for deck, _ in outcomes.elements())
    assert min(wins[BASE_PAIR[0]], wins[BASE_PAIR[1]]) >= 10  # neither deck is hopeless
    assert sum(n for (_, reason), n in outcomes.items() if reason == "hp") >= 20  # damage matters


@pytest.mark.slow
def test_own_turn_automatics_fire_in_their_controllers_turns_only(engine: Engine) -> None:
    fired: collections.Counter[str] = collections.Counter()
    for seed in range(20):
        for pair in PAIRINGS:
            game = engine.play(list(pair), seed=seed)
            active = {e.turn: e["player"] for e in game.log.of_kind("turn_started")}
            for event in game.log.of_kind("resolving"):
                if event["card"] in OWN_TURN_CARDS and event["item_kind"] != "activated":
                    assert event["controller"] == active[event.turn], (pair, seed, event.data)
                    fired[event["card"]] += 1
    assert set(fired) == OWN_TURN_CARDS, fired


def test_same_seed_same_game(engine: Engine) -> None:
    first = engine.play(["mereg:mocsar", "alap:viz"], seed=7)
    second = engine.play(["mereg:mocsar", "alap:viz"], seed=7)
    assert first.log.as_dicts() == second.log.as_dicts()


# -- Kódex 121.1: poison counters ---------------------------------------------------------------

STEP = {step.hook: step for step in DEFAULT_TURN}


def poisoned_game(engine: Engine, *, controller: int, active: int, counters: int,
                  card_id: str = "alap:tuzkopo") -> tuple[Any, Permanent]:
    """A game about to start ``active``'s turn, with one creature (3 Ép, 1 monster component)
    of ``controller`` carrying ``counters`` poison counters; nothing else in play."""
    game = engine.new_game(list(BASE_PAIR), agents=(FirstLegalAgent(), FirstLegalAgent()))
    game.active = active
    perm = game.enter_play(controller, card_id, active=True)
    game.add_counters(perm, mereg.COUNTER, counters, source="test")
    return game, perm


def run_preparation(game: Any) -> None:
    start_turn(game)
    for hook in ("prep_stage1", "prep_stage2_start", "prep_stage2", "prep_stage3",
                 "prep_stage4"):
        run_step(game, STEP[hook])


def test_121_1_poison_third_counter_in_controllers_prep_phase_kills_without_component(
        engine: Engine) -> None:
    game, perm = poisoned_game(engine, controller=0, active=0, counters=2)
    assert game.hp(perm) == 3 and perm.card.components == 1
    run_preparation(game)

    [added] = [e for e in game.log.of_kind("counters_added") if e.step == "prep_stage2"]
    assert (added["uid"], added["counter"], added["after"]) == (perm.uid, "poison", 3)
    [died] = game.log.of_kind("died")
    assert died.step == "prep_stage2"
    assert (died["uid"], died["cause"], died["rule"]) == (perm.uid, "poison", "121.1")
    assert died["components_offered"] == 0  # 29.4.11
    assert perm.uid not in game.permanents
    assert game.players[0].graveyard == ["alap:tuzkopo"]
    assert not game.offers and not game.log.of_kind("components_extracted")
    assert game.players[1].components == 0


def test_121_1_poison_nothing_happens_in_the_non_controllers_prep_phase(
        engine: Engine) -> None:
    game, perm = poisoned_game(engine, controller=1, active=0, counters=2)
    run_preparation(game)
    assert perm.uid in game.permanents
    assert perm.counters == {"poison": 2}
    assert not [e for e in game.log.of_kind("counters_added") if e.step]  # only the setup's
    assert not game.log.of_kind("died")


def test_121_1_poison_counter_below_ep_only_grows(engine: Engine) -> None:
    game, perm = poisoned_game(engine, controller=0, active=0, counters=1)
    run_preparation(game)
    assert perm.uid in game.permanents and perm.counters == {"poison": 2}


def test_121_1_poison_effect_kills_at_the_next_hp_check_without_component(
        engine: Engine) -> None:
    """Mérgezett nyíl puts 2 counters on a 2-Ép creature in the main phase; the effect itself
    kills nobody, the Ép check after the action does (121.1), and poison gives no component,
    even outside the preparation phase."""
    game, perm = poisoned_game(engine, controller=1, active=0, counters=0,
                               card_id="alap:falusi-milicia")
    game.step = STEP["main_phase"]
    game.players[0].hand.append("mereg:mergezett-nyil")
    game.players[0].vp = 1
    game.play_card(0, "mereg:mergezett-nyil")
    assert perm.counters == {"poison": 2} and perm.uid in game.permanents
    after_resolution(game, STEP["main_phase"])  # what the runner does after every action
    [died] = game.log.of_kind("died")
    assert (died["uid"], died["cause"], died["rule"]) == (perm.uid, "poison", "121.1")
    assert died["components_offered"] == 0
    assert not game.offers
    [check] = game.log.of_kind("hp_check")
    assert check["dead"] == [perm.uid]


def test_121_1_poison_death_is_continuous_combat_damage_to_poisoned_ep(
        engine: Engine) -> None:
    """A 3-Ép Tűzköpő with 1 poison counter blocks a 2-damage attacker: at 1 Ép it survives
    the damage but its counter now reaches its Ép, so it dies at the Ép check right after the
    combat, with no component; the attacker dying at the same check gives its component."""
    from pytest_hkk.builders import build_game, script

    game = build_game(engine, ({"guard_post": ["alap:falusi-milicia"]},
                               {"guard_post": ["alap:tuzkopo"]}),
                      agents=(script("use attack", only=("action",)), None))
    attacker, blocker = game.creatures(0)[0], game.creatures(1)[0]
    game.add_counters(blocker, mereg.COUNTER, 1, source="test")
    run_step(game, STEP["combat_phase"])

    [check] = [e for e in game.log.of_kind("hp_check") if e["dead"]]
    assert sorted(check["dead"]) == sorted([attacker.uid, blocker.uid])
    died = {e["uid"]: e for e in game.log.of_kind("died")}
    assert (died[blocker.uid]["cause"], died[blocker.uid]["rule"]) == ("poison", "121.1")
    assert died[blocker.uid]["components_offered"] == 0
    assert died[attacker.uid]["cause"] == "hp" and died[attacker.uid]["components_offered"] == 1
    assert blocker.damage_taken == 2 and game.hp(blocker) == 1  # Ép alone would not kill it


def test_121_1_poisoned_creature_survives_damage_that_leaves_ep_above_counters(
        engine: Engine) -> None:
    game, perm = poisoned_game(engine, controller=1, active=0, counters=1)
    game.step = STEP["main_phase"]
    game.damage(perm, 1, source="test")
    after_resolution(game, STEP["main_phase"])
    assert perm.uid in game.permanents and game.hp(perm) == 2


def test_121_1_lethal_hook_only_looks(engine: Engine) -> None:
    game, perm = poisoned_game(engine, controller=0, active=0, counters=5)
    before = game.snapshot()
    assert mereg.lethal(game) == [(perm, mereg.poison.POISONED)]
    assert not mereg.poison.POISONED.components
    assert game.snapshot() == before and not game.log.of_kind("died")


def test_121_1_counters_from_the_generic_primitive_kill_at_the_moments_hp_check(
        engine: Engine) -> None:
    """Mocsári gázok uses ``add_counters`` (no code of the set): the Ép check after the
    beginning-of-turn moment (29.4.10) finds the counters at Ép; no component (29.4.11)."""
    game, perm = poisoned_game(engine, controller=1, active=0, counters=1,
                               card_id="alap:falusi-milicia")
    game.enter_play(0, "mereg:mocsari-gazok")
    run_preparation(game)
    [died] = game.log.of_kind("died")
    assert died["uid"] == perm.uid
    assert died.step == "prep_stage2_start" and died["rule"] == "121.1"
    assert died["components_offered"] == 0


@pytest.mark.parametrize("params, message", [
    ({"count": 0}, "positive whole count"),
    ({"count": 1, "target": "opponent"}, "'target' field, not a param"),
    ({"amount": 1}, "only the params count"),
])
def test_poison_effect_rejects_bad_params(engine: Engine, params: dict[str, Any],
                                          message: str) -> None:
    game, perm = poisoned_game(engine, controller=1, active=0, counters=0)
    ctx = EffectContext(0, None, "test", "test")
    ctx.targets = [perm]
    with pytest.raises(ValueError, match=message):
        mereg.poison.poison_effect(game, ctx, **params)


def test_poison_effect_rejects_player_targets(engine: Engine) -> None:
    game, _ = poisoned_game(engine, controller=1, active=0, counters=0)
    ctx = EffectContext(0, None, "test", "test")
    ctx.targets = [game.players[1]]
    with pytest.raises(ValueError, match="creatures, not on player 1"):
        mereg.poison.poison_effect(game, ctx, count=1)


# -- installed distributions ---------------------------------------------------------------------

def test_installed_sets_are_discovered() -> None:
    import importlib_metadata

    names = {ep.name for ep in importlib_metadata.entry_points(group="hkk.sets")}
    if not {"alap", "mereg"} <= names:
        pytest.skip("hkk (with the base set) and hkk-set-mereg are not installed")
    engine = Engine.installed(allow=["alap", "mereg"], strict=True)
    assert set(engine.discovery.sets) == {"alap", "mereg"}
    assert set(engine.cards) == ALL_IDS
    assert {"alap:tuz", "alap:viz", "mereg:mocsar"} <= set(engine.decks)
    assert engine.discovery.sets["mereg"].hook_names == ["custom_effects", "lethal",
                                                         "prep_stage2"]
    game = engine.play(["mereg:mocsar", "alap:tuz"], seed=1)
    assert game.winner is not None


# -- an Ép check settles the board (29.4.10, D-hp-check, 41.4) ----------------------------------

@pytest.mark.parametrize("hook, rule", [("prep_stage2", "29.4.10"), ("end_stage2", "D-hp-check"),
                                        ("end_stage4", "41.4")])
def test_29_4_10_an_hp_check_repeats_until_a_death_that_takes_a_bonus_leaves_nobody_at_0(
        hook, rule):
    # Jégóriás gives each creature of its controller +1 Ép (itself too: 6 Ép).  Two Vízimanós
    # (1 Ép) live on it: one damaged 1, one with 1 poison counter (121.1).  When Jégóriás dies,
    # both are left at Ép 1 - 1 = 0 / poison 1 >= Ép 1, and die in the same check.
    target = {}
    hitter = item_plugin(hook, lambda game: [item("hit", lambda g: g.damage(target["giant"], 6))]
                         if game.turn == 1 else [])
    engine = Engine(ALL_CARDS, decks=DECKS, plugins=[mereg, hitter])
    game = engine.new_game([["alap:vizimano"] * 10] * 2, agents=[Passer(), Passer()])
    target["giant"] = game.enter_play(1, "alap:jegorias", active=True)
    damaged = game.enter_play(1, "alap:vizimano", active=True)
    poisoned = game.enter_play(1, "alap:vizimano", active=True)
    game.damage(damaged, 1)
    game.add_counters(poisoned, "poison", 1)
    Turn(game).finish()  # player 0's turn: the creatures' controller is not active
    if hook == "end_stage4":
        assert len(game.creatures(1)) == 3  # nothing is checked after stage 4 (41.4)
        Turn(game)  # the deferred check opens the next turn
    checks = [e for e in game.log.of_kind("hp_check") if e["dead"]]
    assert [(e["rule"], e["dead"], e.get("round")) for e in checks] == [
        (rule, [target["giant"].uid], None), (rule, [damaged.uid, poisoned.uid], 2)]
    assert not game.creatures(1)
    died = {e["uid"]: (e["cause"], e["rule"]) for e in game.log.of_kind("died")}
    assert died == {target["giant"].uid: ("hp", rule), damaged.uid: ("hp", rule),
                    poisoned.uid: ("poison", "121.1")}


def test_41_4_korallor_keeps_its_defence_bonus_through_the_opponents_turn():
    # "Az ellenfeled körének elején +1 védekezés bónuszt kap, amelyet a saját köröd végéig
    # megtart": only the active player's creatures lose their bonus in end stage 4 (41.4).
    engine = Engine(ALL_CARDS, decks=DECKS, plugins=[mereg])
    game = engine.new_game([["alap:vizimano"] * 10] * 2, agents=[Passer(), Passer()])
    korallor = game.enter_play(1, "alap:korallor", active=True)
    bonus_at = {}
    turn = Turn(game)  # player 0's turn: Korallőr's controller is the opponent
    turn.run_to("prep_stage2", inclusive=True)
    bonus_at["opponent's turn, stage 2"] = korallor.defence_bonus
    turn.run_to("combat_phase")
    bonus_at["opponent's combat"] = korallor.defence_bonus
    turn.finish()
    bonus_at["after the opponent's turn"] = korallor.defence_bonus
    turn = Turn(game)  # its controller's own turn: no new bonus, and it ends with the turn
    turn.run_to("end_stage4")
    bonus_at["own turn, before end stage 4"] = korallor.defence_bonus
    turn.finish()
    bonus_at["after its own turn"] = korallor.defence_bonus
    assert bonus_at == {"opponent's turn, stage 2": 1, "opponent's combat": 1,
                        "after the opponent's turn": 1, "own turn, before end stage 4": 1,
                        "after its own turn": 0}
    assert game.max_hp(korallor) == 4
    lost = game.log.of_kind("defence_bonus_lost")
    assert [(e["uid"], e.turn, e.step, e["rule"]) for e in lost] == [
        (korallor.uid, 2, "end_stage4", "41.4")]
