"""Card language 2 (issue 25): the five texts as data-only cards, each played and checked on the
log - combat triggers (D-trigger-attack), counted amounts, the killer of a dying creature
(D-trigger-killer), play conditions (D-play-condition) and filtered targets."""

from __future__ import annotations

import pytest

from hkk._cards.loader import parse_card_data
from hkk._errors import CardDataError
from hkk._runner import play_turn

from helpers import Passer, Wants, cid, creature, game_with, spell


def triggered(when: dict, effect: dict, **extra) -> dict:
    return {"kind": "triggered", "when": when, "effect": effect, **extra}


def attack_with_all(game) -> None:
    """Turn 1 of player 0: his guard-post creatures attack, the defender blocks as told."""
    play_turn(game)


# 1. "Amikor ez a lény támad, +1 sebzést kap a kör végéig."
CHARGER = creature("charger", 2, 3, abilities=[triggered(
    {"event": "attacks", "which": "this"},
    {"do": "modify", "stat": "damage", "by": 1, "target": "self",
     "duration": "until_end_of_turn"})])
#    "Amikor ez a lény blokkol, 1 sebzést okoz az általa blokkolt lénynek."
WARDEN = creature("warden", 1, 4, abilities=[triggered(
    {"event": "blocks", "which": "this"},
    {"do": "damage", "amount": 1, "target": "trigger_source"})])


def test_D_trigger_attack_when_this_attacks_its_bonus_counts_in_the_same_combat():
    game = game_with([CHARGER], agents=[Wants("use attack", pass_label="pass"), Passer()])
    charger = game.enter_play(0, cid("charger"), zone="guard_post", active=True)
    play_turn(game)
    kinds = [e.kind for e in game.log if e.kind in ("attack", "triggered", "effect_started",
                                                     "player_damaged")]
    assert kinds[:4] == ["attack", "triggered", "effect_started", "player_damaged"]
    (hit,) = game.log.of_kind("player_damaged")
    assert hit["amount"] == 3 and hit["source"] == charger.describe()  # 2 + 1 from the trigger


def test_D_trigger_attack_when_this_blocks_it_hits_the_attacker_before_combat_damage():
    attacker = creature("brute", 2, 1)
    game = game_with([WARDEN, attacker],
                     agents=[Wants("use attack", pass_label="pass"), Wants("block with")])
    brute = game.enter_play(0, cid("brute"), zone="guard_post", active=True)
    warden = game.enter_play(1, cid("warden"), zone="guard_post", active=True)
    play_turn(game)
    (trigger,) = game.log.of_kind("triggered")
    assert trigger["cause"] == "attack"
    # the attacker died of the trigger's damage before combat damage: it dealt none
    assert [e["uid"] for e in game.log.of_kind("died")] == [brute.uid]
    assert not [e for e in game.log.of_kind("damaged") if e["uid"] == warden.uid]
    assert not game.log.of_kind("player_damaged")


def test_D_trigger_attack_an_unblocked_attacker_offers_no_source_and_no_blocks_trigger():
    lancer = creature("lancer", 2, 3, abilities=[triggered(
        {"event": "attacks", "which": "this"},
        {"do": "damage", "amount": 1, "target": "trigger_source"})])
    game = game_with([WARDEN, lancer],
                     agents=[Wants("use attack", pass_label="pass"), Wants("no block")])
    game.enter_play(0, cid("lancer"), zone="guard_post", active=True)
    game.enter_play(1, cid("warden"), zone="guard_post", active=True)
    play_turn(game)
    # the lancer's trigger: its blocker is none, so no target; the warden did not block
    assert [e["card"] for e in game.log.of_kind("triggered")] == [cid("lancer")]
    assert not game.log.of_kind("damaged")
    assert [e["amount"] for e in game.log.of_kind("player_damaged")] == [2]


# 2. "Annyi sebzést okoz az ellenfélnek, ahány lényed van." (here: a spell, and a draw)
COUNTED = spell("swarm", [{"do": "damage", "amount": {"count": "own_creatures"},
                           "target": "opponent"},
                          {"do": "draw", "count": {"count": "opponent_buildings", "times": 2}}])


@pytest.mark.parametrize("creatures", [0, 1, 3])
def test_D_counted_amount_reads_the_state_when_it_applies(creatures):
    game = game_with([COUNTED, creature("pal", 0, 1)], agents=[Wants("play tt:swarm"), Passer()])
    for _ in range(creatures):
        game.enter_play(0, cid("pal"))
    game.players[0].hand.append(cid("swarm"))
    play_turn(game)
    hits = [e["amount"] for e in game.log.of_kind("player_damaged")]
    assert hits == ([creatures] if creatures else [])  # a count of 0 does nothing
    assert not [e for e in game.log.of_kind("card_drawn") if e["source"] == "tt:swarm"]


def test_D_counted_amount_of_poison_and_modify():
    grow = spell("grow", [{"do": "modify", "stat": "damage", "by": {"count": "opponent_poison"},
                           "target": "chosen_own_creature"}])
    game = game_with([grow, creature("pal", 1, 3)], agents=[Wants("play tt:grow"), Passer()])
    pal = game.enter_play(0, cid("pal"))
    foe = game.enter_play(1, cid("pal"))
    game.add_counters(foe, "poison", 2, source="test")
    game.players[0].hand.append(cid("grow"))
    play_turn(game)
    (started,) = game.log.of_kind("effect_started")
    assert started["amount"] == 2 and started["targets"] == [pal.uid]


# 3. "Amikor ez a lény meghal, 2 sebzést okoz az őt elpusztító lénynek."
AVENGER = creature("avenger", 1, 1, abilities=[triggered(
    {"event": "dies", "which": "this"}, {"do": "damage", "amount": 2, "target": "trigger_source"})])


def test_D_trigger_killer_the_creature_whose_damage_killed_it_is_its_trigger_source():
    game = game_with([AVENGER, creature("brute", 1, 2)],
                     agents=[Wants("use attack", pass_label="pass"), Wants("block with")])
    brute = game.enter_play(0, cid("brute"), zone="guard_post", active=True)
    avenger = game.enter_play(1, cid("avenger"), zone="guard_post", active=True)
    play_turn(game)
    died = [e["uid"] for e in game.log.of_kind("died")]
    assert died == [avenger.uid, brute.uid]  # 1 combat damage, then 2 from the trigger
    assert [e["amount"] for e in game.log.of_kind("damaged") if e["uid"] == brute.uid] == [1, 2]


def test_D_trigger_killer_none_when_a_spell_killed_it():
    bolt = spell("bolt", [{"do": "damage", "amount": 1, "target": "chosen_opponent_creature"}])
    game = game_with([AVENGER, bolt, creature("pal", 0, 5)],
                     agents=[Wants("play tt:bolt"), Passer()])
    game.enter_play(0, cid("pal"))  # the caster's creature: no killer, so not hit
    game.enter_play(1, cid("avenger"))
    game.players[0].hand.append(cid("bolt"))
    play_turn(game)
    assert len(game.log.of_kind("triggered")) == 1  # it triggered, with nobody to hit
    assert len(game.log.of_kind("damaged")) == 1


# 4. "Csak akkor játszható ki, ha az ellenfelednek több lénye van, mint neked."
UNDERDOG = spell("underdog", [{"do": "draw", "count": 1}])
UNDERDOG["play_condition"] = {"of": "opponent_creatures", "more_than": "own_creatures"}


@pytest.mark.parametrize(("mine", "theirs", "offered"), [(0, 1, True), (1, 1, False),
                                                         (2, 1, False), (1, 3, True)])
def test_D_play_condition_is_checked_when_the_card_is_offered(mine, theirs,
                                                                           offered):
    player = Wants("play tt:underdog")
    game = game_with([UNDERDOG, creature("pal", 0, 1)], agents=[player, Passer()])
    for _ in range(mine):
        game.enter_play(0, cid("pal"))
    for _ in range(theirs):
        game.enter_play(1, cid("pal"))
    game.players[0].hand.append(cid("underdog"))
    play_turn(game)
    first_action = next(d for d in player.seen if d.kind == "action")
    assert ("play tt:underdog" in first_action.labels()) is offered
    assert bool([e for e in game.log.of_kind("card_played")
                 if e["card"] == cid("underdog")]) is offered


def test_D_play_condition_follows_the_state_within_a_turn():
    # a free ability kills the opponent's second creature: hand, VP and components are the
    # same, yet the card is no longer offered (an answer that read the state is not kept)
    zapper = creature("zapper", 0, 3, abilities=[{
        "kind": "activated", "limit": "once_per_turn",
        "effect": {"do": "damage", "amount": 1, "target": "chosen_opponent_creature"}}])
    player = Wants("use tt:zapper", "play tt:underdog")
    game = game_with([UNDERDOG, zapper, creature("pal", 0, 1)], agents=[player, Passer()])
    game.enter_play(0, cid("zapper"))
    game.enter_play(1, cid("pal"))
    game.enter_play(1, cid("pal"))
    game.players[0].hand.append(cid("underdog"))
    play_turn(game)
    actions = [d.labels() for d in player.seen if d.kind == "action"]
    assert "play tt:underdog" in actions[0]  # 2 against 1
    assert len(game.log.of_kind("died")) == 1
    assert not game.log.of_kind("card_played")  # 1 against 1: never offered again


# 5. "Minden sérült lény 2 sebzést kap." / "2 sebzés az ellenfél minden lényének, amelynek
#    legalább 2 méregjelzője van."
FINISHER = spell("finisher", [{"do": "damage", "amount": 2, "target": "all_creatures",
                               "where": {"of": "damage_taken", "at_least": 1}}])
PURGE = spell("purge", [{"do": "destroy", "target": "opponent_creatures",
                         "where": {"of": "counters", "counter": "poison", "at_least": 2}}])


def test_D_target_filter_every_damaged_creature():
    game = game_with([FINISHER, creature("pal", 0, 5)], agents=[Wants("play tt:finisher"),
                                                               Passer()])
    hurt, whole = game.enter_play(1, cid("pal")), game.enter_play(1, cid("pal"))
    game.damage(hurt, 1, source="test")
    game.players[0].hand.append(cid("finisher"))
    play_turn(game)
    hits = [(e["uid"], e["amount"]) for e in game.log.of_kind("damaged") if e["source"] ==
            cid("finisher")]
    assert hits == [(hurt.uid, 2)] and whole.uid in game.permanents


def test_D_target_filter_every_enemy_creature_with_at_least_2_poison_counters():
    game = game_with([PURGE, creature("pal", 0, 5)], agents=[Wants("play tt:purge"), Passer()])
    one, two, mine = (game.enter_play(1, cid("pal")), game.enter_play(1, cid("pal")),
                      game.enter_play(0, cid("pal")))
    game.add_counters(one, "poison", 1, source="test")
    game.add_counters(two, "poison", 2, source="test")
    game.add_counters(mine, "poison", 3, source="test")
    game.players[0].hand.append(cid("purge"))
    play_turn(game)
    assert [e["uid"] for e in game.log.of_kind("died")] == [two.uid]


def test_D_target_filter_a_choice_offers_only_the_permanents_it_holds_for():
    heal = spell("mend", [{"do": "heal", "amount": 2, "target": "chosen_own_creature",
                           "where": {"of": "damage_taken", "at_least": 1}}])
    game = game_with([heal, creature("pal", 0, 5)], agents=[Wants("play tt:mend"), Passer()])
    game.enter_play(0, cid("pal"))
    hurt = game.enter_play(0, cid("pal"))
    game.damage(hurt, 3, source="test")
    game.players[0].hand.append(cid("mend"))
    play_turn(game)
    (choice,) = [e for e in game.log.of_kind("decision") if e["decision"] == "target"]
    assert choice["options"] == 1
    assert [e["uid"] for e in game.log.of_kind("healed")] == [hurt.uid]


@pytest.mark.parametrize(("effect", "message"), [
    ({"do": "damage", "amount": 1, "target": "opponent", "where": {"of": "hp", "at_most": 2}},
     "where filters a group or a choice of permanents"),
    ({"do": "damage", "amount": 1, "target": "all_creatures", "where": {"of": "counters",
                                                                       "at_least": 2}},
     "where.counter names the counter"),
    ({"do": "damage", "amount": {"count": "own_dragons"}, "target": "opponent"},
     "amount.count: Input should be 'own_buildings'"),
    ({"do": "damage", "amount": "two", "target": "opponent"},
     "amount: Input should be a valid integer"),
])
def test_bad_counts_and_filters_name_the_card(effect, message):
    with pytest.raises(CardDataError) as caught:
        parse_card_data("tt", "cards/t.toml", {"cards": [spell("bad", [effect])]})
    assert message in str(caught.value) and "cards[0].effects[0]" in str(caught.value)


def test_schema_lists_the_new_trigger_events():
    from click.testing import CliRunner

    from hkk.cli import main

    result = CliRunner().invoke(main, ["schema", "cards"])
    assert result.exit_code == 0, result.output
    assert '"attacks"' in result.output and '"blocks"' in result.output
