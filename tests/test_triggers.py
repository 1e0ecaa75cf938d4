"""Triggers ("Amikor ..."): the card texts 1-5 of issue 10 as data-only cards, the timing
readings (D-trigger-wait, D-trigger-order, D-trigger-prep, D-trigger-end4, D-trigger-loop,
D-trigger-lookback, D-trigger-source) and the Python authors' ``triggered`` hook.

Cards are built in memory; players are scripted; assertions read the event log and the state."""

from __future__ import annotations

import dataclasses
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hkk import (
    DEFAULT_TURN,
    Engine,
    GameTimeout,
    HkkError,
    HookError,
    Pending,
    RandomAgent,
    Rulings,
    SaveError,
    ScriptedAgent,
    StepLoopError,
    TriggerLoopError,
    Usage,
    WorkLimitError,
    hookimpl,
    load_game,
)
from hkk._cards.loader import parse_card_data
from hkk._effects import Duration
from hkk._errors import CardDataError
from hkk._limits import time_limit
from hkk._runner import advance, play_turn

from helpers import (
    FILLER,
    Passer,
    Wants,
    cards,
    cid,
    creature,
    game_with,
    item,
    item_plugin,
    resolved,
    run_until,
    scripted,
    spell,
)


def triggered(when: dict, effect: dict, **extra) -> dict:
    return {"kind": "triggered", "when": when, "effect": effect, **extra}


# The five texts, as a set author writes them (data only).
# 1. "Amikor egy rá ható hatás véget ér, 2 sebzést okoz az ellenfélnek."
TEXT1 = triggered({"event": "effect_ends", "which": "this"},
                  {"do": "damage", "amount": 2, "target": "opponent"})
# 2. "Amikor egy lényed meghal, kapsz 1 VP-t."
TEXT2 = triggered({"event": "dies", "whose": "own", "card_kind": "creature"},
                  {"do": "gain_vp", "amount": 1, "target": "controller"})
# 3. "Amikor ez a lény sérülést szenved, 1 sebzést okoz a sebzés forrásának."
TEXT3 = triggered({"event": "damaged", "which": "this"},
                  {"do": "damage", "amount": 1, "target": "trigger_source"})
# 4. "Amikor az ellenfeled varázslatot játszik ki, húzol egy lapot."
TEXT4 = triggered({"event": "card_played", "whose": "opponent", "card_kind": "spell"},
                  {"do": "draw", "count": 1, "target": "controller"})
# 5. "Amikor egy lény játékba kerül az ellenfél oldalán, 1 sebzést okoz neki."
TEXT5 = triggered({"event": "enters_play", "whose": "opponent", "card_kind": "creature"},
                  {"do": "damage", "amount": 1, "target": "trigger_permanent"})


def kinds_in(game, step: str) -> list[str]:
    return [e.kind for e in game.log if e.step == step]


def vp_from(game, card: str) -> int:
    return sum(e["amount"] for e in game.log.of_kind("vp_gained")
               if (e["source"] or "").startswith(card))


def resolves_before_anyone_acts_again(game, label: str) -> bool:
    """The triggered item resolved right after its cause (and its check), before the next
    action decision (D-trigger-wait), not at some later point of the step."""
    cause = next(e["cause_seq"] for e in game.log.of_kind("triggered") if e["item"] == label)
    done = next(e.seq for e in game.log.of_kind("resolving") if e["item"] == label)
    acts = [e.seq for e in game.log.of_kind("decision")
            if e["decision"] == "action" and e.seq > cause]
    return not acts or done < acts[0]


def trigger_labels(game) -> list[str]:
    return [e["item"] for e in game.log.of_kind("triggered")]


def zap_item(target_of, amount: int = 1, label: str = "zap", **kwargs) -> Pending:
    """An automatic item dealing damage to ``target_of(game)``."""
    return item(label, lambda g: g.damage(target_of(g), amount, source=label), **kwargs)


# -- card data -------------------------------------------------------------------------------

def test_D_trigger_card_data_reads_the_when_table():
    (card,) = parse_card_data("tt", "cards/t.toml", {"cards": [creature("t1", abilities=[TEXT3])]})
    ability = card.abilities[0]
    assert ability.kind == "triggered" and ability.when.event == "damaged"
    assert ability.when.which == "this" and ability.effects[0].target == "trigger_source"


@pytest.mark.parametrize(("ability", "message"), [
    (triggered({"event": "dies"}, {"do": "damage", "amount": 1, "target": "trigger_permanent"}),
     "target 'trigger_permanent' means nothing when the event is 'dies'"),
    (triggered({"event": "card_played", "which": "this"}, {"do": "draw", "count": 1}),
     "'which' is for the events of a permanent"),
    (triggered({"event": "enters_play", "card_kind": "spell"}, {"do": "draw", "count": 1}),
     "a spell is never a permanent"),
    (triggered({"event": "damaged", "which": "this", "whose": "own"}, {"do": "draw", "count": 1}),
     "which = \"this\" already names the permanent"),
    (triggered({"event": "explodes"}, {"do": "draw", "count": 1}), "when.event"),
    ({**TEXT2, "cost": {"vp": 1}}, "triggered abilities never have a cost (133.1)"),
    ({**TEXT2, "timing": "main_phase"}, "triggered abilities have no timing"),
    ({"kind": "automatic", "timing": "end_stage2",
      "effect": {"do": "damage", "amount": 1, "target": "trigger_source"}},
     "only triggered abilities (kind = \"triggered\") may use it"),
])
def test_D_trigger_bad_card_data_names_set_file_card_and_field(ability, message):
    with pytest.raises(CardDataError) as caught:
        parse_card_data("tt", "cards/t.toml", {"cards": [creature("bad", abilities=[ability])]})
    text = str(caught.value)
    assert "tt: cards/t.toml: cards[0]" in text and "abilities[0]" in text and message in text


# -- texts 1-5 played ---------------------------------------------------------------------------

def test_D_trigger_text1_fires_when_an_effect_on_it_ends_mid_turn():
    def end_until_preparation(game):
        game.end_effects({Duration.PERMANENT}, rule="test")
    game = game_with([creature("t1", 1, 3, abilities=[TEXT1])],
                     plugins=[item_plugin("main_phase", lambda g: [
                         item("dispel", end_until_preparation, controller=0, kind="action",
                              usage=Usage(per_turn=1))])],
                     agents=[Wants("use dispel"), Passer()])
    t1 = game.enter_play(0, cid("t1"))
    game.add_effect("damage", 1, "permanent", targets=[t1], controller=0)
    play_turn(game)
    assert trigger_labels(game) == [f"tt:t1#{t1.uid}:0"]
    assert [e.step for e in game.log.of_kind("triggered")] == ["main_phase"]
    assert game.players[1].hp == 18
    assert resolves_before_anyone_acts_again(game, trigger_labels(game)[0])


def test_29_4_4_text1_fires_when_its_effect_ends_at_the_start_of_prep_stage2():
    game = game_with([creature("t1", 1, 3, abilities=[TEXT1])], agents=[Passer(), Passer()])
    t1 = game.enter_play(0, cid("t1"))
    game.add_effect("hp", 1, "until_preparation", targets=[t1], controller=0)
    run_until(game, "prep_stage2", inclusive=True)
    ended = game.log.of_kind("effect_ended")
    assert [(e.step, e["rule"]) for e in ended] == [("prep_stage2_start", "29.4.4")]
    # triggered by the moment, resolved in the stage's pool after it (29.4.2, D-trigger-prep)
    assert [e.step for e in game.log.of_kind("triggered")] == ["prep_stage2_start"]
    assert [e.step for e in game.log.of_kind("resolving")
            if e["card"] == cid("t1")] == ["prep_stage2"]
    assert game.players[1].hp == 18


def test_41_4_text1_never_fires_in_end_stage_4():
    game = game_with([creature("t1", 1, 3, abilities=[TEXT1])], agents=[Passer(), Passer()])
    t1 = game.enter_play(0, cid("t1"))
    game.add_effect("damage", 2, "until_end_of_turn", targets=[t1], controller=0)
    play_turn(game)
    assert [e.step for e in game.log.of_kind("effect_ended")] == ["end_stage4"]
    assert not game.log.of_kind("triggered") and game.players[1].hp == 20
    play_turn(game)  # and not later either: the expiry is never examined (41.4)
    assert not game.log.of_kind("triggered") and game.players[1].hp == 20


def test_D_trigger_end4_override_a_turn_whose_end_stage_4_triggers():
    # The other way of the ruling: a custom turn whose end stage 4 examines its expiry.
    turn = [s if s.hook != "end_stage4" else dataclasses.replace(s, triggers="resolve")
            for s in DEFAULT_TURN]
    engine = Engine(cards(creature("t1", 1, 3, abilities=[TEXT1])), turn=turn)
    game = engine.new_game([[FILLER] * 10] * 2, agents=(Passer(), Passer()))
    t1 = game.enter_play(0, cid("t1"))
    game.add_effect("damage", 2, "until_end_of_turn", targets=[t1], controller=0)
    play_turn(game)
    assert [e.step for e in game.log.of_kind("triggered")] == ["end_stage4"]
    assert game.players[1].hp == 18


def test_D_trigger_text2_a_creature_of_yours_dies_you_gain_1_vp():
    game = game_with([creature("t2", 1, 3, abilities=[TEXT2]), creature("mate", 1, 1),
                      creature("foe", 1, 1)],
                     plugins=[item_plugin("end_stage2", lambda g: [
                         zap_item(lambda g: g.creatures(0)[-1], label="zap mate"),
                         zap_item(lambda g: g.creatures(1)[0], label="zap foe")])],
                     agents=[Passer(), Passer()])
    game.enter_play(0, cid("t2"))
    mate = game.enter_play(0, cid("mate"))
    game.enter_play(1, cid("foe"))
    play_turn(game)
    died = game.log.of_kind("died")
    assert {e["card"] for e in died} == {cid("mate"), cid("foe")}
    assert [e["cause_seq"] for e in game.log.of_kind("triggered")] == [
        e.seq for e in died if e["uid"] == mate.uid]  # only his own creature's death
    assert vp_from(game, cid("t2")) == 1


@pytest.mark.parametrize("vp, fires", [(50, True), (0, False)])
def test_D_conditions_a_triggered_ability_fires_only_if_its_condition_holds(vp, fires):
    """"Amikor egy lényed meghal, ha legalább 50 VP-d van, kapsz 1 VP-t": the condition is read
    when the death happens (the turn's VP regeneration cannot bring 0 up to 50)."""
    text = {**TEXT2, "condition": {"of": "own_vp", "at_least": 50}}
    game = game_with([creature("t2", 1, 3, abilities=[text]), creature("mate", 1, 1)],
                     plugins=[item_plugin("end_stage2", lambda g: [
                         zap_item(lambda g: g.creatures(0)[-1], label="zap mate")])],
                     agents=[Passer(), Passer()])
    game.players[0].vp = vp
    game.enter_play(0, cid("t2"))
    game.enter_play(0, cid("mate"))
    play_turn(game)
    assert [e["card"] for e in game.log.of_kind("died")] == [cid("mate")]
    assert len(game.log.of_kind("triggered")) == (1 if fires else 0)
    assert vp_from(game, cid("t2")) == (1 if fires else 0)


def test_D_trigger_text3_damaged_deals_1_to_the_source_of_the_damage_in_combat():
    attacker = creature("brute", 2, 3)
    game = game_with([creature("t3", 1, 4, abilities=[TEXT3]), attacker],
                     agents=[Wants("use attack", pass_label="pass"), Passer()])
    brute = game.enter_play(0, cid("brute"), zone="guard_post", active=True)
    t3 = game.enter_play(1, cid("t3"), zone="guard_post", active=True)
    play_turn(game)
    assert [e["source"] for e in game.log.of_kind("damaged") if e["uid"] == brute.uid] == [
        t3.describe(), f"tt:t3#{t3.uid}:0"]
    assert [e["amount"] for e in game.log.of_kind("damaged") if e["uid"] == brute.uid] == [1, 1]


def test_D_trigger_source_damage_from_an_ability_hits_its_permanent_a_spell_none():
    zapper = creature("zapper", 0, 3, abilities=[{
        "kind": "activated", "effect": {"do": "damage", "amount": 1,
                                        "target": "chosen_opponent_creature"}}])
    bolt = spell("bolt", [{"do": "damage", "amount": 1, "target": "chosen_opponent_creature"}],
                 instant=True)
    game = game_with([creature("t3", 1, 4, abilities=[TEXT3]), zapper, bolt],
                     agents=[Wants("use tt:zapper", "play tt:bolt"), Passer()])
    z = game.enter_play(0, cid("zapper"))
    t3 = game.enter_play(1, cid("t3"))
    game.players[0].hand.append(cid("bolt"))
    play_turn(game)
    assert [e["source"] for e in game.log.of_kind("damaged") if e["uid"] == t3.uid] == [
        f"tt:zapper#{z.uid}:0", "tt:bolt"]
    assert len(trigger_labels(game)) == 2
    # hit once: by the trigger of the ability's damage; a spell names no permanent
    assert [e["source"] for e in game.log.of_kind("damaged")
            if e["uid"] == z.uid] == [f"tt:t3#{t3.uid}:0"]
    assert all(resolves_before_anyone_acts_again(game, label) for label in trigger_labels(game))


def test_D_trigger_text4_opponent_plays_a_spell_you_draw():
    bolt = spell("bolt", [{"do": "damage", "amount": 1, "target": "opponent"}], instant=True)
    game = game_with([creature("t4", 1, 3, abilities=[TEXT4]), bolt],
                     agents=[Wants("play tt:bolt"), Wants("play tt:bolt")])
    game.enter_play(1, cid("t4"))
    game.players[0].hand.append(cid("bolt"))
    game.players[1].hand.append(cid("bolt"))
    hand = len(game.players[1].hand)
    play_turn(game)
    played = game.log.of_kind("card_played")
    assert [e["player"] for e in played] == [0, 1]
    assert [e["cause_seq"] for e in game.log.of_kind("triggered")] == [played[0].seq]
    draws = [e for e in game.log.of_kind("card_drawn") if e["source"].startswith("tt:t4")]
    # after the spell has resolved and the check after it (D-trigger-wait)
    assert len(draws) == 1 and draws[0].seq > game.log.of_kind("player_damaged")[0].seq
    assert resolves_before_anyone_acts_again(game, trigger_labels(game)[0])
    assert len(game.players[1].hand) == hand - 1 + 1


def test_D_trigger_text5_a_creature_entering_on_the_opponents_side_takes_1():
    game = game_with([creature("t5", 1, 3, abilities=[TEXT5]), creature("pup", 1, 1),
                      creature("big", 1, 3)],
                     agents=[Wants("play tt:pup", "play tt:big"), Passer()])
    game.enter_play(1, cid("t5"))
    game.players[0].hand += [cid("pup"), cid("big")]
    play_turn(game)
    entered = [e for e in game.log.of_kind("entered_play") if e["controller"] == 0]
    assert [e["cause_seq"] for e in game.log.of_kind("triggered")] == [e.seq for e in entered]
    assert [e["card"] for e in game.log.of_kind("died")] == [cid("pup")]
    assert [e["card"] for e in game.log.of_kind("damaged")] == [cid("pup"), cid("big")]
    assert all(resolves_before_anyone_acts_again(game, label) for label in trigger_labels(game))


# -- timing ----------------------------------------------------------------------------------

@pytest.mark.parametrize("typed", [True, False], ids=["source_uid", "label only"])
def test_D_trigger_source_is_the_damage_events_source_uid_never_its_label(typed):
    """Issue 20: the permanent that dealt the damage is the typed ``source_uid``; a label
    naming a permanent (``tt:zapper#1``) without it names none, it is not parsed."""
    def hit(g, i, b):
        zapper = g.creatures(0)[0]
        g.damage(g.creatures(1)[0], 1, source=zapper.describe(),
                 source_uid=zapper.uid if typed else None)

    game = game_with([creature("t3", 1, 4, abilities=[TEXT3]), creature("zapper", 1, 5)],
                     plugins=[item_plugin("end_stage2", lambda g: [Pending("hit", hit)])],
                     agents=[Passer(), Passer()])
    zapper = game.enter_play(0, cid("zapper"))
    t3 = game.enter_play(1, cid("t3"))
    play_turn(game)
    hits = [(e["uid"], e["source_uid"]) for e in game.log.of_kind("damaged")]
    assert hits[0] == (t3.uid, zapper.uid if typed else None)
    assert len(trigger_labels(game)) == 1  # the trigger fires either way...
    # ...and hits back only the permanent named by source_uid
    assert [uid for uid, _ in hits[1:]] == ([zapper.uid] if typed else [])


def test_D_trigger_wait_a_trigger_waits_for_its_cause_and_the_hp_check_after_it():
    # one item damages the text-3 creature and kills another: the trigger resolves after both
    game = game_with([creature("t3", 1, 4, abilities=[TEXT3]), creature("frail", 1, 1),
                      creature("zapper", 1, 5)],
                     plugins=[item_plugin("end_stage2", lambda g: [Pending(
                         "sweep", lambda g, i, b: [g.damage(c, 1, source=i.data["by"].describe(),
                                                            source_uid=i.data["by"].uid)
                                                   for c in g.creatures(1)],
                         data={"by": g.creatures(0)[0]})])],
                     agents=[Passer(), Passer()])
    zapper = game.enter_play(0, cid("zapper"))
    game.enter_play(1, cid("t3"))
    game.enter_play(1, cid("frail"))
    play_turn(game)
    kinds = [e.kind for e in game.log if e.step == "end_stage2"
             and e.kind in ("resolving", "damaged", "hp_check", "died", "triggered")]
    assert kinds == ["resolving", "damaged", "triggered", "damaged", "hp_check", "died",
                     "resolving", "damaged", "hp_check"]
    assert [e["uid"] for e in game.log.of_kind("damaged")][-1] == zapper.uid


def _two_t3_hit_at_once(active: int = 0, *, agent=None, noise: int = 0, **kwargs):
    """Both players' t3 are hit at once in end stage 2 (the zapper is the source): two
    triggers wait.  ``active`` plays the turn; he wants player 1's trigger first (``tt:t3#2``,
    not the stable order's first), or answers as ``agent``; his opponent takes the first
    option offered.  ``noise``: as many unrelated events logged just before the hits."""
    agents = [Passer(), Passer()]
    agents[active] = agent or Wants("tt:t3#2")

    def sweep(g, i, b):
        for _ in range(noise):
            g.gain_vp(0, 1, source="noise")
        for c in [c for c in g.creatures() if c.card.id == cid("t3")]:
            g.damage(c, 1, source="sweep", source_uid=g.creatures(1)[-1].uid)

    game = game_with([creature("t3", 1, 4, abilities=[TEXT3]), creature("zapper", 1, 5)],
                     plugins=[item_plugin("end_stage2", lambda g: [Pending("sweep", sweep)])],
                     agents=agents, active=active, **kwargs)
    game.enter_play(0, cid("t3"))
    game.enter_play(1, cid("t3"))
    game.enter_play(1, cid("zapper"))
    play_turn(game)
    return game


@pytest.mark.parametrize("active", [0, 1])
def test_D_trigger_order_the_active_player_orders_waiting_triggers(active):
    # both players' creatures are hit at once: two triggers wait; the active player orders,
    # whoever controls the first of them (player 1 active: not the stable order's first)
    game = _two_t3_hit_at_once(active=active)
    orders = [e for e in game.log.of_kind("decision") if e["rule"] == "D-trigger-order"]
    assert [(e["player"], e["choice"]) for e in orders] == [(active, "tt:t3#2:0")]
    assert [e["controller"] for e in game.log.of_kind("resolving")
            if e["card"] == cid("t3")] == [1, 0]  # his choice, not the stable order


class _Recording:
    """Answers as ``agent`` and keeps the options of every trigger order it is asked."""

    def __init__(self, agent) -> None:
        self.agent, self.orders = agent, []

    def choose(self, game, decision):
        if decision.rule == "D-trigger-order":
            self.orders.append(list(decision.labels()))
        return self.agent.choose(game, decision)


def test_D_trigger_order_labels_are_stable_when_unrelated_events_are_added():
    """Issue 24.17: the order options name the permanent and the ability, not the event that
    set them off, so a script answering them survives events added before; ScriptedAgent
    matches a label by its start."""
    quiet, noisy = _Recording(Wants("tt:t3#2")), _Recording(Wants("tt:t3#2"))
    games = [_two_t3_hit_at_once(agent=quiet), _two_t3_hit_at_once(agent=noisy, noise=3)]
    assert len(games[1].log) == len(games[0].log) + 3
    assert quiet.orders == noisy.orders == [["tt:t3#1:0", "tt:t3#2:0"]]
    for answer in ("tt:t3#2:0", "tt:t3#2"):  # exactly, or by its start
        game = _two_t3_hit_at_once(agent=ScriptedAgent([answer], fallback=Passer(),
                                                       only=("order",)), noise=2)
        assert [e["controller"] for e in game.log.of_kind("resolving")
                if e["card"] == cid("t3")] == [1, 0]


def test_D_trigger_order_a_counter_tells_apart_one_ability_set_off_twice():
    """Issue 24.17: one ability triggered twice while both wait (two creatures die at once):
    the second is ``<label> (2)``; a label that is all of one option picks it, not a longer
    one it starts."""
    mourner = creature("mourner", 0, 5, abilities=[TEXT2])
    doomed = creature("doomed", 1, 1)
    watcher = creature("watcher", 0, 5, abilities=[TEXT2])

    def play(agent):
        game = game_with([mourner, doomed, watcher], agents=[agent, Passer()],
                         plugins=[item_plugin("end_stage2", lambda g: [Pending(
                             "sweep", lambda g, i, b: [g.damage(c, 1, source="sweep") for c in
                                                       g.creatures(0) if c.card.id
                                                       == cid("doomed")])])])
        game.enter_play(0, cid("mourner"))
        game.enter_play(0, cid("watcher"))
        game.enter_play(0, cid("doomed"))
        game.enter_play(0, cid("doomed"))
        play_turn(game)
        return game

    labels = ["tt:mourner#1:0", "tt:mourner#1:0 (2)", "tt:watcher#2:0", "tt:watcher#2:0 (2)"]
    agent = _Recording(ScriptedAgent(["tt:watcher#2:0 (2)", "tt:mourner#1:0", "tt:watcher"],
                                     fallback=Passer(), only=("order",)))
    game = play(agent)
    # each death sets off both abilities; the options are in the stable order
    assert [e["item"] for e in game.log.of_kind("triggered")] == [labels[i] for i in (0, 2, 1, 3)]
    assert agent.orders[0] == labels
    assert resolved(game, "end_stage2")[1:] == [
        "tt:watcher#2:0 (2)", "tt:mourner#1:0", "tt:watcher#2:0", "tt:mourner#1:0 (2)"]


def test_D_trigger_order_stable_ruling_asks_nobody():
    game = _two_t3_hit_at_once(rulings=Rulings(trigger_orderer="stable"))
    assert not [e for e in game.log.of_kind("decision") if e["rule"] == "D-trigger-order"]
    assert [e["controller"] for e in game.log.of_kind("resolving")
            if e["card"] == cid("t3")] == [0, 1]  # controller first


def test_D_trigger_wait_each_trigger_is_followed_by_an_hp_check():
    # two creatures die at one check: both deaths come first, then each trigger and its check
    game = game_with([creature("t2", 1, 3, abilities=[TEXT2]), creature("frail", 1, 1)],
                     plugins=[item_plugin("end_stage2", lambda g: [Pending(
                         "sweep", lambda g, i, b: [g.damage(c, 1, source="sweep")
                                                   for c in g.creatures(0)[1:]])])],
                     agents=[Passer(), Passer()])
    game.enter_play(0, cid("t2"))
    game.enter_play(0, cid("frail"))
    game.enter_play(0, cid("frail"))
    play_turn(game)
    kinds = [e.kind for e in game.log if e.step == "end_stage2"
             and e.kind in ("resolving", "hp_check", "died")]
    assert kinds == ["resolving", "hp_check", "died", "died", "resolving", "hp_check",
                     "resolving", "hp_check"]
    assert vp_from(game, cid("t2")) == 2


def test_29_4_1_triggers_in_prep_stage2_join_the_pool_ordered_with_the_others():
    def stage2(game):
        return [zap_item(lambda g: g.creatures(1)[0], label="hit t3", controller=0),
                item("gain", lambda g: g.gain_vp(0, 1), controller=0)]
    zapper = creature("zapper", 1, 5)
    game = game_with([creature("t3", 1, 4, abilities=[TEXT3]), zapper],
                     plugins=[item_plugin("prep_stage2", stage2)],
                     agents=[Wants("hit t3", "tt:t3"), Passer()])
    game.enter_play(0, cid("zapper"))
    game.enter_play(1, cid("t3"))
    run_until(game, "prep_stage2", inclusive=True)
    orders = [e for e in game.log.of_kind("decision") if e.step == "prep_stage2"]
    assert [(e["decision"], e["rule"], e["options"]) for e in orders] == [
        ("order", "29.4.1", 2), ("order", "29.4.1", 2)]  # the trigger beside "gain"
    assert orders[1]["choice"].startswith("tt:t3#")
    assert resolved(game, "prep_stage2")[:2] == ["hit t3", orders[1]["choice"]]


def test_29_4_11_deaths_a_trigger_causes_in_prep_stage2_give_no_component():
    game = game_with([creature("t3", 1, 4, abilities=[TEXT3]),
                      creature("weak", 1, 1, components=2)],
                     plugins=[item_plugin("prep_stage2", lambda g: [
                         Pending("weak hits", lambda g, i, b: g.damage(
                             g.creatures(1)[0], 1, source="weak hits",
                             source_uid=g.creatures(0)[0].uid),
                             controller=0)])],
                     agents=[Passer(), Passer()])
    weak = game.enter_play(0, cid("weak"))
    game.enter_play(1, cid("t3"))
    run_until(game, "prep_stage2", inclusive=True)
    died = game.log.of_kind("died")
    assert [(e["uid"], e.step, e["rule"], e["components_offered"]) for e in died] == [
        (weak.uid, "prep_stage2", "29.4.10", 0)]
    assert not game.offers


def test_29_4_2_a_moments_triggers_wait_until_the_moment_and_its_check_are_over():
    seen = []

    def at_start(game):
        def bind(g, it):
            seen.append(g.players[1].hp)  # bound against the state before the moment
        return [Pending("reader", lambda g, i, b: seen.append(g.players[1].hp), bind=bind)]
    game = game_with([creature("t1", 1, 3, abilities=[TEXT1])],
                     plugins=[item_plugin("prep_stage2_start", at_start)],
                     agents=[Passer(), Passer()])
    a = game.enter_play(0, cid("t1"))
    b = game.enter_play(0, cid("t1"))
    game.add_effect("hp", 1, "until_preparation", targets=[a, b], controller=0)
    run_until(game, "prep_stage2", inclusive=True)
    assert seen == [20, 20]  # no item of the moment sees its triggers as earlier
    start = kinds_in(game, "prep_stage2_start")
    assert start.index("hp_check") < len(start) and "resolving" in start
    assert [k for k in start if k in ("moment", "effect_ended", "triggered", "hp_check")] == [
        "moment", "effect_ended", "triggered", "triggered", "hp_check"]
    assert [e.step for e in game.log.of_kind("resolving") if e["card"] == cid("t1")] == [
        "prep_stage2", "prep_stage2"]
    assert game.players[1].hp == 16


def test_D_trigger_prep_29_4_1_governs_two_triggers_of_the_29_4_4_expiry_the_active_player_orders():
    # Two "until the preparation phase" effects end at the opening moment of stage 2 (29.4.4)
    # and set off one TEXT1 trigger each, one per player.  They are not items of the moment
    # (29.4.2): each follows from the expiry, so it waits and the active player - player 1,
    # not the stable order's player 0 - orders them in the stage-2 pool (29.4.1).
    game = game_with([creature("t1", 1, 3, abilities=[TEXT1])], active=1,
                     agents=[Passer(), Wants("tt:t1#2")])
    mine, theirs = game.enter_play(0, cid("t1")), game.enter_play(1, cid("t1"))
    for perm in (mine, theirs):
        game.add_effect("hp", 1, "until_preparation", targets=[perm], controller=perm.controller)
    run_until(game, "prep_stage3")
    assert [e.step for e in game.log.of_kind("triggered")] == ["prep_stage2_start"] * 2
    orders = [(e.step, e["player"], e["rule"], e["options"])
              for e in game.log.of_kind("decision") if e["decision"] == "order"]
    assert orders == [("prep_stage2", 1, "29.4.1", 2)]
    assert [(e.step, e["controller"]) for e in game.log.of_kind("resolving")
            if e["card"] == cid("t1")] == [("prep_stage2", 1), ("prep_stage2", 0)]
    assert (game.players[0].hp, game.players[1].hp) == (18, 18)


def test_D_trigger_mandatory_triggers_in_the_main_phase_are_not_offered_as_actions():
    game = game_with([creature("t5", 1, 3, abilities=[TEXT5]), creature("pup", 1, 2)],
                     agents=[Wants("play tt:pup"), Passer()])
    game.enter_play(1, cid("t5"))
    game.players[0].hand.append(cid("pup"))
    play_turn(game)
    label = trigger_labels(game)[0]
    offered = [o.label for d in game.agents[1].seen + game.agents[0].seen for o in d.options]
    assert not [o for o in offered if label in o]  # never "use ...": it just happened
    assert [e.step for e in game.log.of_kind("resolving") if e["item"] == label] == [
        "main_phase"]
    assert resolves_before_anyone_acts_again(game, label)


def test_D_trigger_optional_trigger_asks_its_controller():
    maybe = {**TEXT2, "optional": True}
    game = game_with([creature("t2", 1, 3, abilities=[maybe]), creature("frail", 1, 1)],
                     plugins=[item_plugin("end_stage2", lambda g: [
                         zap_item(lambda g: g.creatures(0)[-1], label="zap")])],
                     agents=[scripted("decline", only=("use",)), Passer()])
    game.enter_play(0, cid("t2"))
    game.enter_play(0, cid("frail"))
    play_turn(game)
    uses = [e for e in game.log.of_kind("decision") if e["decision"] == "use"]
    assert [(e["player"], e["choice"], e["rule"]) for e in uses] == [
        (0, "decline", "D-trigger-wait")]
    assert vp_from(game, cid("t2")) == 0


def test_D_trigger_lookback_creatures_dying_together_see_each_others_death():
    game = game_with([creature("t2", 1, 1, abilities=[TEXT2])],
                     plugins=[item_plugin("end_stage2", lambda g: [Pending(
                         "sweep", lambda g, i, b: [g.damage(c, 1) for c in g.creatures(0)])])],
                     agents=[Passer(), Passer()])
    game.enter_play(0, cid("t2"))
    game.enter_play(0, cid("t2"))
    play_turn(game)
    assert len(game.log.of_kind("died")) == 2
    assert len(trigger_labels(game)) == 4 and vp_from(game, cid("t2")) == 4


# -- loops -----------------------------------------------------------------------------------

PINGER = triggered({"event": "damaged", "which": "this"},
                   {"do": "damage", "amount": 1, "target": "trigger_source"})
MENDER = {"kind": "triggered", "when": {"event": "damaged", "which": "this"},
          "effects": [{"do": "heal", "amount": 1, "target": "self"},
                      {"do": "damage", "amount": 1, "target": "trigger_source"}]}


def _loop_game(ability: dict, rulings: Rulings | None = None):
    kwargs = {"rulings": rulings} if rulings else {}
    game = game_with([creature("ping", 1, 999, abilities=[ability])],
                     plugins=[item_plugin("end_stage2", lambda g: [Pending(
                         "start", lambda g, i, b: g.damage(g.creatures(1)[0], 1, source="start",
                                                           source_uid=g.creatures(0)[0].uid))])],
                     agents=[Passer(), Passer()], **kwargs)
    game.enter_play(0, cid("ping"))
    game.enter_play(1, cid("ping"))
    return game


def test_D_trigger_loop_a_chain_longer_than_the_limit_stops_with_the_cards_named():
    game = _loop_game(PINGER, Rulings(max_trigger_chain=20))
    with time_limit(60), pytest.raises(TriggerLoopError) as caught:
        play_turn(game)
    assert caught.value.cards == [cid("ping")] and len(caught.value.chain) == 21
    assert "max_trigger_chain = 20" in str(caught.value) and cid("ping") in str(caught.value)
    assert isinstance(caught.value, HkkError)


def test_D_trigger_loop_the_same_state_coming_back_stops_before_the_chain_limit():
    game = _loop_game(MENDER, Rulings(max_trigger_chain=10_000))
    with time_limit(60), pytest.raises(TriggerLoopError) as caught:
        play_turn(game)
    assert "the same state came back" in str(caught.value)
    assert len(caught.value.chain) < 10


def test_D_trigger_loop_a_long_but_finite_chain_is_no_loop():
    game = _loop_game(PINGER, Rulings(max_trigger_chain=1000))
    for perm in game.creatures():
        perm.mods["hp"] = -990  # 9 Ép each: the chain ends when one dies
    play_turn(game)
    assert game.log.of_kind("died")
    assert max(e["chain"] for e in game.log.of_kind("triggered")) > 5


# Branching loops (issue 19, deviation 8): each trigger sets off several, so the waiting list
# grows while the chain stays short; the count of triggers one cause sets off stops them.

# "Amikor ez a lény sérülést szenved, 1 sebzést okoz minden lénynek."
SPLASH = triggered({"event": "damaged", "which": "this"},
                   {"do": "damage", "amount": 1, "target": "all_creatures"})
# "Amikor egy másik lényre ható hatás véget ér, +1 Ép (végleges)."
GROW = triggered({"event": "effect_ends", "which": "another", "card_kind": "creature"},
                 {"do": "modify", "stat": "hp", "by": 1, "duration": "permanent",
                  "target": "self"})
# "Amikor egy másik lény játékba kerül, minden lényre ható hatás véget ér."
PURGE = triggered({"event": "enters_play", "which": "another", "card_kind": "creature"},
                  {"do": "end_effects", "target": "all_creatures"})
# The same at the start of its controller's preparation stage 2 (an automatic ability).
PURGE_AT_PREP = {"kind": "automatic", "timing": "prep_stage2",
                 "effect": {"do": "end_effects", "target": "all_creatures"}}


class OldestFirst(Passer):
    """Orders waiting triggers oldest first: a branching chain grows in breadth."""

    def choose(self, game, decision):
        if decision.kind == "order":
            return min(decision.options, key=lambda option: option.value.key)
        return super().choose(game, decision)


def _splash_game(rulings: Rulings | None = None):
    kwargs = {"rulings": rulings} if rulings else {}
    game = game_with([creature("splash", 1, 999, abilities=[SPLASH])],
                     plugins=[item_plugin("end_stage2", lambda g: [Pending(
                         "start", lambda g, i, b: g.damage(g.creatures(1)[0], 1,
                                                           source="start"))])],
                     agents=[OldestFirst(), OldestFirst()], **kwargs)
    for player in (0, 1, 0):
        game.enter_play(player, cid("splash"))
    return game


def _growers(game, copies: int = 4, effects_each: int = 1) -> None:
    """``copies`` growers of player 0, each with ``effects_each`` permanent effects on it."""
    for _ in range(copies):
        perm = game.enter_play(0, cid("grow"))
        for _ in range(effects_each):
            game.add_effect("hp", 1, "permanent", targets=[perm], controller=0, source="setup")


def test_D_trigger_loop_a_branching_chain_stops_at_max_triggers_per_cause():
    game = _splash_game()
    limit = Rulings().max_triggers_per_cause
    with time_limit(60), pytest.raises(TriggerLoopError) as caught:
        play_turn(game)
    assert not isinstance(caught.value, WorkLimitError)
    assert caught.value.cards == [cid("splash")]
    assert f"max_triggers_per_cause = {limit}" in str(caught.value)
    triggered_events = game.log.of_kind("triggered")
    assert len(triggered_events) == limit  # the one over the limit is never queued
    assert max(e["chain"] for e in triggered_events) < Rulings().max_trigger_chain
    assert len([e for e in game.log.of_kind("resolving") if e["card"] == cid("splash")]) < limit


def test_D_trigger_loop_effects_ending_on_every_creature_played_stop_in_the_main_phase():
    """The fuzzer's shape: each creature played ends every effect, and each ended effect gives
    every other grower a new one - (copies - 1) times the work per creature played, all of it
    settled inside the action step."""
    game = game_with([creature("grow", 1, 5, abilities=[GROW]),
                      creature("purge", 1, 5, abilities=[PURGE]), creature("pup", 1, 1)],
                     agents=[Wants(*["play tt:pup"] * 6), Passer()])
    _growers(game)
    game.enter_play(1, cid("purge"))
    game.players[0].hand += [cid("pup")] * 6
    with time_limit(60), pytest.raises(TriggerLoopError) as caught:
        play_turn(game)
    assert set(caught.value.cards) == {cid("purge"), cid("grow")}
    assert "max_triggers_per_cause = 500" in str(caught.value)
    assert game.step.hook == "main_phase"
    # each pup: its purge trigger, then 3 growers' for each effect ended (4, 12, 36, 108);
    # the fifth pup's cause stops at 500 (of its 1 + 324 * 3)
    assert len(game.log.of_kind("card_played")) == 5
    assert len(game.log.of_kind("triggered")) == 13 + 37 + 109 + 325 + 500


def test_D_trigger_loop_a_growing_prep_stage_2_pool_stops_naming_the_cards():
    """In prep stage 2 the triggers join the stage's pool (29.4.1): the pool outgrows
    max_items_per_step; that is a trigger loop naming its cards, not a StepLoopError."""
    game = game_with([creature("grow", 1, 5, abilities=[GROW]),
                      creature("purge", 1, 5, abilities=[PURGE_AT_PREP])],
                     agents=[Passer(), Passer()],
                     rulings=Rulings(max_triggers_per_cause=10_000, max_items_per_step=50))
    _growers(game, effects_each=5)  # 20 effects end: 60 triggers in the pool
    game.enter_play(0, cid("purge"))
    with time_limit(60), pytest.raises(TriggerLoopError) as caught:
        play_turn(game)
    assert not isinstance(caught.value, StepLoopError)
    assert caught.value.cards == [cid("grow")]
    assert "step prep_stage2 resolved 50 items" in str(caught.value)
    assert len(resolved(game, "prep_stage2")) == 50


def test_D_trigger_loop_the_prep_stage_2_pool_is_bounded_per_cause_by_default():
    game = game_with([creature("grow", 1, 5, abilities=[GROW]),
                      creature("purge", 1, 5, abilities=[PURGE_AT_PREP])],
                     agents=[Passer(), Passer()])
    _growers(game, effects_each=170)
    game.enter_play(0, cid("purge"))
    with time_limit(60), pytest.raises(TriggerLoopError) as caught:
        play_turn(game)
    assert caught.value.cards == [cid("grow")]
    assert "max_triggers_per_cause = 500" in str(caught.value)
    assert len(game.log.of_kind("triggered")) == 500 and not resolved(game, "prep_stage2")[1:]


# "Amikor ez a lény sérülést szenved, kapsz 1 VP-t." - no loop: a work limit stops the turn
BELL = triggered({"event": "damaged", "which": "this"},
                 {"do": "gain_vp", "amount": 1, "target": "controller"})


def _bell_game(hits: int, rulings: Rulings):
    """Every end stage 2 an item hits the bell ``hits`` times: as many triggers."""
    def hit(g, i, b):
        for _ in range(hits):
            g.damage(g.creatures(0)[0], 1, source="hits")

    game = game_with([creature("bell", 1, 999, abilities=[BELL])],
                     plugins=[item_plugin("end_stage2", lambda g: [Pending("hits", hit)])],
                     agents=[Passer(), Passer()], rulings=rulings)
    game.enter_play(0, cid("bell"))
    return game


def test_D_work_limit_a_turn_resolving_more_triggers_than_its_limit_stops_naming_the_card():
    game = _bell_game(30, Rulings(max_triggers_per_turn=25))
    with pytest.raises(WorkLimitError) as caught:
        play_turn(game)
    error = caught.value
    assert (error.limit, error.turn, error.step) == ("max_triggers_per_turn", 1, "end_stage2")
    assert error.cards == [cid("bell")] and isinstance(error, TriggerLoopError)
    assert "turn 1 resolved 25 triggered items" in str(error)
    assert len([e for e in game.log.of_kind("resolving") if e["card"] == cid("bell")]) == 25


def test_D_work_limit_the_games_count_goes_on_across_turns_and_the_turns_starts_again():
    game = _bell_game(10, Rulings(max_triggers_per_turn=15, max_triggers_per_game=25))
    play_turn(game)
    play_turn(game)  # 20 in all: more than a turn's 15, and no error
    with pytest.raises(WorkLimitError) as caught:
        play_turn(game)
    error = caught.value
    assert (error.limit, error.turn, error.cards) == ("max_triggers_per_game", 3, [cid("bell")])
    assert "the game resolved 25 triggered items" in str(error)
    assert len([e for e in game.log.of_kind("resolving") if e["card"] == cid("bell")]) == 25


def test_D_work_limit_a_time_limit_inside_data_only_cards_names_step_and_cards():
    """With every count limit lifted, the engine's time limit ends the branching loop: the
    message names what the engine was doing, not the code around the game."""
    lifted = Rulings(max_triggers_per_cause=10**9, max_triggers_per_turn=10**9,
                     max_triggers_per_game=10**9)
    game = _splash_game(lifted)
    for perm in game.creatures():
        perm.mods["hp"] = 10**6  # nobody dies: it never ends by itself
    with pytest.raises(GameTimeout) as caught, time_limit(0.5):
        play_turn(game)
    where = caught.value.where
    assert "the engine in turn 1, step end_stage2, cards resolving: " in where
    assert cid("splash") in where
    # (this suite's event checker, tests/conftest.py, may be named first: it runs in the log;
    # so may the players' agents, OldestFirst, when the limit falls inside their choice - code
    # the game calls, as a set's would be; the code around the game, this test, never is)
    assert "test_D_work_limit" not in where and "pytest" not in where


# -- Python authors ------------------------------------------------------------------------------

class DeathBell:
    """A plugin's trigger: "when any creature dies, its controller's opponent gains 1 VP"."""

    def __init__(self, optional: bool = False) -> None:
        self.optional = optional

    @hookimpl
    def trigger_kinds(self):
        return ["died"]

    @hookimpl
    def triggered(self, game, event):
        winner = 1 - event["controller"]
        return [Pending(f"bell for {event['card']}#{event['uid']}",
                        lambda g, i, b: g.gain_vp(winner, 1, source="bell"),
                        controller=winner, optional=self.optional)]


def test_D_trigger_plugin_hook_items_resolve_as_mandatory_triggers():
    game = game_with([creature("frail", 1, 1)],
                     plugins=[DeathBell(), item_plugin("main_phase", lambda g: [
                         zap_item(lambda g: g.creatures(1)[0], controller=0, kind="action",
                                  usage=Usage(per_turn=1))])],
                     agents=[Wants("use zap"), Passer()])
    game.enter_play(1, cid("frail"))
    play_turn(game)
    assert trigger_labels(game) == ["bell for tt:frail#1"]
    assert [e.step for e in game.log.of_kind("resolving") if e["item"].startswith("bell")] == [
        "main_phase"]
    assert vp_from(game, "bell") == 1
    assert not [d for d in game.log.of_kind("decision") if d["decision"] == "use"]
    assert resolves_before_anyone_acts_again(game, "bell for tt:frail#1")


def test_D_trigger_plugin_optional_item_is_asked():
    game = game_with([creature("frail", 1, 1)],
                     plugins=[DeathBell(optional=True), item_plugin("end_stage2", lambda g: [
                         zap_item(lambda g: g.creatures(1)[0])])],
                     agents=[Passer("pass"), Passer()])  # he has not passed the turn (41.5)
    game.enter_play(1, cid("frail"))
    play_turn(game)
    uses = [e for e in game.log.of_kind("decision") if e["decision"] == "use"]
    assert [(e["player"], e["choice"]) for e in uses] == [(0, "use bell for tt:frail#1")]
    assert vp_from(game, "bell") == 1


def test_D_trigger_plugin_unknown_kind_is_an_error_naming_the_plugin():
    class Typo:
        @hookimpl
        def trigger_kinds(self):
            return ["creature_died"]

        @hookimpl
        def triggered(self, game, event):
            return []
    with pytest.raises(HookError, match="creature_died.*never logs"):
        game_with([], plugins=[Typo()])


def test_D_trigger_plugin_exception_names_the_hook():
    class Broken:
        @hookimpl
        def trigger_kinds(self):
            return ["damaged"]

        @hookimpl
        def triggered(self, game, event):
            raise RuntimeError("boom")
    game = game_with([creature("c", 1, 3)],
                     plugins=[Broken(), item_plugin("end_stage2", lambda g: [
                         zap_item(lambda g: g.creatures(0)[0])])], agents=[Passer(), Passer()])
    game.enter_play(0, cid("c"))
    with pytest.raises(HookError, match="boom") as caught:
        play_turn(game)
    assert caught.value.hook == "triggered"


# -- determinism, saves, a property --------------------------------------------------------------

ALL_TEXTS = [creature("t1", 1, 3, vp=1, abilities=[TEXT1]),
             creature("t2", 1, 2, vp=1, abilities=[TEXT2]),
             creature("t3", 2, 3, vp=2, abilities=[TEXT3]),
             creature("t4", 1, 2, vp=1, abilities=[TEXT4]),
             creature("t5", 1, 3, vp=2, abilities=[TEXT5]),
             spell("bolt", [{"do": "damage", "amount": 1, "target": "chosen_creature"}],
                   vp=1, instant=True),
             spell("shield", [{"do": "modify", "stat": "hp", "by": 1,
                               "target": "own_creatures", "duration": "until_preparation"}],
                   vp=1)]
DECK = [cid(s) for s in ("t1", "t2", "t3", "t4", "t5", "bolt", "shield")] * 4


def _random_game(seed: int):
    game = game_with(ALL_TEXTS, decks=(DECK, DECK), seed=seed,
                     agents=(RandomAgent(2 * seed), RandomAgent(2 * seed + 1)))
    game.started = False
    return game


def test_D_trigger_games_with_triggers_are_deterministic_for_a_seed():
    first, second = _random_game(5), _random_game(5)
    first.play(max_turns=30)
    second.play(max_turns=30)
    assert first.log.as_dicts() == second.log.as_dicts()
    assert len(first.log.of_kind("triggered")) > 5


def test_D_trigger_a_saved_game_with_triggers_resumes_identically():
    whole = _random_game(11)
    whole.play(max_turns=30)
    part = _random_game(11)
    for _ in range(60):
        advance(part, 30)
    resumed = load_game(part.engine, json.dumps(part.save()))
    resumed.play(max_turns=30)
    assert resumed.log.as_dicts() == whole.log.as_dicts()


@settings(max_examples=25, deadline=None)
@given(st.permutations(range(4)))
def test_29_4_2_a_moments_triggers_resolve_the_same_whatever_order_effects_were_made(order):
    game = game_with([creature("t1", 1, 3, abilities=[TEXT1])],
                     agents=[Passer(), Passer()], rulings=Rulings(trigger_orderer="stable"))
    mine = [game.enter_play(0, cid("t1")), game.enter_play(0, cid("t1"))]
    theirs = [game.enter_play(1, cid("t1"))]
    made = [(mine[0], "hp", 1), (mine[1], "damage", 1), (theirs[0], "hp", 2), (mine[0], "damage", 2)]
    for i in order:
        perm, stat, by = made[i]
        game.add_effect(stat, by, "until_preparation", targets=[perm], controller=perm.controller)
    run_until(game, "prep_stage3")
    outcome = [(e["controller"], e["uid"]) for e in game.log.of_kind("resolving")
               if e["card"] == cid("t1")]
    assert outcome == [(0, mine[0].uid), (0, mine[0].uid), (0, mine[1].uid), (1, theirs[0].uid)]
    assert [p.hp for p in game.players] == [18, 14]


# -- what authors see --------------------------------------------------------------------------

def test_D_trigger_hkk_cards_and_the_schema_show_the_when_table_readably():
    from hkk._card_text import card_lines
    from hkk._cards.loader import card_file_schema
    from hkk._markup import plain
    (card,) = parse_card_data("tt", "cards/t.toml", {"cards": [
        creature("t2", abilities=[{**TEXT2, "optional": True}, TEXT3, TEXT4])]})
    text = [plain(line) for line in card_lines(card)]
    assert text[1:] == [
        "    0. triggered (when a creature of yours dies, optional): gain_vp controller 1",
        "    1. triggered (when this is damaged): damage 1 trigger_source",
        "    2. triggered (when opponent plays a spell): draw controller 1"]
    schema = json.dumps(card_file_schema())
    assert "TriggeredAbility" in schema and "effect_ends = a lasting effect on a permanent ends" \
        in schema and "trigger_source" in schema


@pytest.mark.slow
def test_D_trigger_hkk_verify_alap_fires_every_triggered_ability_of_the_base_set():
    from hkk.verify import verify
    report = verify(["alap"], games=10)  # what `hkk verify alap` plays by default
    assert report.ok, [c.headline() for c in report.failures]
    coverage = report.coverage["alap"]
    engine = Engine.installed(allow=["alap"])
    triggers = {(card.id, i) for card in engine.cards.values()
                for i, ability in enumerate(card.abilities) if ability.kind == "triggered"}
    assert len(triggers) >= 6 and triggers <= set(coverage.abilities)
    assert triggers <= coverage.fired, sorted(triggers - coverage.fired)


def _langorzo_like_game():
    # text 1 on two creatures, one of which dies at the moment's check: both triggers wait
    # across the boundary between the moment and the stage's pool (D-trigger-prep)
    game = game_with([creature("t1", 1, 3, abilities=[TEXT1])], agents=[Passer(), Passer()])
    a = game.enter_play(0, cid("t1"))
    b = game.enter_play(0, cid("t1"))
    game.add_effect("hp", 1, "until_preparation", targets=[a, b], controller=0)
    game.damage(b, 3)  # dies when the +1 Ép ends, at the moment's check
    game.started = True
    return game


def test_D_trigger_prep_triggers_waiting_across_a_step_boundary_survive_a_save():
    whole = _langorzo_like_game()
    whole.play(max_turns=2)
    part = _langorzo_like_game()
    while part.step is None or part.step.hook != "prep_stage2_start":
        advance(part, 2)
    assert len(part.triggers.waiting) == 2 and not game_over(part)
    resumed = load_game(part.engine, json.dumps(part.save()), agents=[Passer(), Passer()])
    assert len(resumed.triggers.waiting) == 2
    resumed.play(max_turns=2)
    assert resumed.log.as_dicts() == whole.log.as_dicts()
    assert [e.step for e in whole.log.of_kind("resolving") if e["card"] == cid("t1")] == [
        "prep_stage2", "prep_stage2"] and whole.players[1].hp == 16


def game_over(game) -> bool:
    return bool(game.over)


def test_D_trigger_a_plugins_item_waiting_across_a_boundary_refuses_the_save():
    game = game_with([creature("c", 1, 1)], plugins=[DeathBell()], agents=[Passer(), Passer()])
    c = game.enter_play(0, cid("c"))
    game.add_effect("hp", 1, "until_preparation", targets=[c], controller=0)
    game.damage(c, 1)
    game.started = True
    while game.step is None or game.step.hook != "prep_stage2_start":
        advance(game, 2)
    with pytest.raises(SaveError, match="bell for tt:c#1.*cannot be saved here"):
        game.save()


def test_D_trigger_lookback_a_loaded_game_still_sees_a_death_right_after_loading():
    # Found by tests/test_saving.py: loaded, the first event the watch saw was a death, and
    # the "when this dies" ability of the permanent that died was missed.
    engine = Engine.installed()
    decks = ["mereg:mocsar", "alap:tuz"]
    whole = engine.new_game(decks, seed=0)
    count = 1
    while advance(whole):
        count += 1
    part = engine.new_game(decks, seed=0)
    for _ in range(289 % count):
        advance(part)
    resumed = load_game(Engine.installed(), json.dumps(part.save()))
    resumed.play()
    assert resumed.log.as_dicts() == whole.log.as_dicts()
    assert [e for e in whole.log.of_kind("triggered") if e.seq > len(part.log)]


def test_every_event_kind_has_words_and_a_trigger_reads_as_one() -> None:
    """``hkk play`` and the game page print every kind in words, never as a raw field dump:
    each kind of hkk.events has its line (or is deliberately silent, like step_ended)."""
    from hkk.events import KINDS
    from hkk.testing import EventRenderer

    renderer_methods = {name[1:] for name in dir(EventRenderer) if name.startswith("_")}
    assert sorted(set(KINDS) - renderer_methods) == []
    game = game_with([creature("t3", 1, 4, abilities=[TEXT3]), creature("zapper", 1, 5)],
                     plugins=[item_plugin("end_stage2", lambda g: [Pending("hit", lambda g, i, b:
                              g.damage(g.creatures(1)[0], 1))])],
                     agents=[Passer(), Passer()])
    game.enter_play(0, cid("zapper"))
    game.enter_play(1, cid("t3"))
    play_turn(game)
    renderer = EventRenderer(game.cards, ["P1", "P2"])
    (triggered,) = game.log.of_kind("triggered")
    line = renderer.line(triggered)
    assert line is not None and "=" not in line
    assert "t3" in line and "triggers" in line and f"damaged #{triggered['cause_seq']}" in line
