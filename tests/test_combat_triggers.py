"""The combat triggers beyond "attacks" and "blocks" (D-trigger-combat): "is blocked" (before
combat damage, D-trigger-attack), "deals combat damage" and "takes combat damage", with the
damage as a counted amount (``count = "trigger_amount"``) - played and checked on the log."""

from __future__ import annotations

import copy
import json

import pytest

from hkk._cards.loader import parse_card_data
from hkk._cards.printed import card_text
from hkk._errors import CardDataError
from hkk._runner import play_turn

from helpers import Passer, Wants, cards, cid, creature, game_with


def triggered(when: dict, effect: dict, **extra) -> dict:
    return {"kind": "triggered", "when": when, "effect": effect, **extra}


def attacker_agent() -> Wants:
    return Wants("use attack", pass_label="pass")

#: "Amikor ez a lény harci sebzést okoz, kapsz annyi VP-t, amennyi sebzést okozott."
LEECH = creature("leech", 3, 4, abilities=[triggered(
    {"event": "deals_combat_damage", "which": "this"},
    {"do": "gain_vp", "amount": {"count": "trigger_amount"}, "target": "controller"})])
#: "Amikor ez a lény harci sebzést szenved, kétszer annyi sebzést okoz az őt sebző lénynek,
#: amennyi sebzést szenvedett."
THORNS = creature("thorns", 1, 5, abilities=[triggered(
    {"event": "takes_combat_damage", "which": "this"},
    {"do": "damage", "amount": {"count": "trigger_amount", "times": 2},
     "target": "trigger_source"})])
#: "Amikor ezt a lényt blokkolják, 1 sebzést okoz az őt blokkoló lénynek."
FEINT = creature("feint", 1, 3, abilities=[triggered(
    {"event": "is_blocked", "which": "this"},
    {"do": "damage", "amount": 1, "target": "trigger_source"})])


def test_D_trigger_combat_deals_combat_damage_to_the_player_counts_the_damage_dealt():
    game = game_with([LEECH], agents=[attacker_agent(), Passer()])
    leech = game.enter_play(0, cid("leech"), zone="guard_post", active=True)
    vp = game.players[0].vp
    play_turn(game)
    (hit,) = game.log.of_kind("player_damaged")
    (trigger,) = game.log.of_kind("triggered")
    assert (trigger["card"], trigger["cause"], trigger["cause_seq"]) == (
        cid("leech"), "player_damaged", hit.seq)
    (gained,) = game.log.of_kind("vp_gained")
    assert gained["amount"] == hit["amount"] == 3 and gained.seq > hit.seq
    assert game.players[0].vp >= vp + 3 and leech.uid in game.permanents


def test_D_trigger_combat_damage_from_an_ability_is_no_combat_damage():
    # the leech's own activated ability hits the opponent: damage by the same creature, not
    # in combat: nothing triggers
    zapper = creature("leech", 3, 4, abilities=[*LEECH["abilities"], {
        "kind": "activated", "effect": {"do": "damage", "amount": 1, "target": "opponent"}}])
    game = game_with([zapper], agents=[Wants("use tt:leech"), Passer()])
    game.enter_play(0, cid("leech"), active=True)
    play_turn(game)
    assert [e["source"] for e in game.log.of_kind("player_damaged")] != []
    assert not game.log.of_kind("triggered") and not game.log.of_kind("vp_gained")


def test_D_trigger_combat_takes_combat_damage_hits_its_source_after_the_damage():
    brute = creature("brute", 2, 9)
    game = game_with([THORNS, brute], agents=[attacker_agent(), Wants("block with")])
    attacker = game.enter_play(0, cid("brute"), zone="guard_post", active=True)
    thorns = game.enter_play(1, cid("thorns"), zone="guard_post", active=True)
    play_turn(game)
    hits = [(e["uid"], e["amount"], e["source"]) for e in game.log.of_kind("damaged")]
    # combat: 2 to the thorns, 1 to the brute; then the trigger: twice 2 to the brute
    assert hits == [(thorns.uid, 2, attacker.describe()), (attacker.uid, 1, thorns.describe()),
                    (attacker.uid, 4, f"{cid('thorns')}#{thorns.uid}:0")]
    (trigger,) = game.log.of_kind("triggered")
    assert trigger["cause"] == "damaged"


def test_D_trigger_attack_is_blocked_resolves_before_combat_damage_and_names_the_blocker():
    wall = creature("wall", 0, 1)
    game = game_with([FEINT, wall], agents=[attacker_agent(), Wants("block with")])
    feint = game.enter_play(0, cid("feint"), zone="guard_post", active=True)
    blocker = game.enter_play(1, cid("wall"), zone="guard_post", active=True)
    play_turn(game)
    (trigger,) = game.log.of_kind("triggered")
    assert trigger["cause"] == "attack"
    # the blocker died of the trigger before combat damage: the feint stays blocked (D-trigger-
    # attack) and deals nothing, to it or the player
    assert [(e["uid"], e["amount"]) for e in game.log.of_kind("damaged")] == [(blocker.uid, 1)]
    assert [e["uid"] for e in game.log.of_kind("died")] == [blocker.uid]
    assert not game.log.of_kind("player_damaged") and feint.uid in game.permanents


def test_D_trigger_attack_an_unblocked_attacker_is_not_blocked():
    game = game_with([FEINT, creature("wall", 0, 1)], agents=[attacker_agent(), Wants("no block")])
    game.enter_play(0, cid("feint"), zone="guard_post", active=True)
    game.enter_play(1, cid("wall"), zone="guard_post", active=True)
    play_turn(game)
    assert not game.log.of_kind("triggered") and not game.log.of_kind("damaged")
    assert [e["amount"] for e in game.log.of_kind("player_damaged")] == [1]


@pytest.mark.parametrize(("card", "text"), [
    (LEECH, "Amikor ez a lény harci sebzést okoz, kapsz annyi VP-t, amennyi sebzést okozott."),
    (THORNS, "Amikor ez a lény harci sebzést szenved, kétszer annyi sebzést okoz az őt sebző "
             "lénynek, amennyi sebzést szenvedett."),
    (FEINT, "Amikor ezt a lényt blokkolják, 1 sebzést okoz az őt blokkoló lénynek."),
    (creature("spy", 1, 1, abilities=[triggered(
        {"event": "is_blocked", "whose": "opponent"}, {"do": "draw", "count": 1},
        optional=True)]), "Amikor az ellenfél egy lényét blokkolják, húzhatsz egy lapot."),
], ids=["deals", "takes", "is-blocked", "is-blocked-opponent"])
def test_D_card_text_the_combat_triggers_have_their_printed_text(card, text):
    assert card_text(cards(card)[0]) == text


def test_D_trigger_combat_trigger_amount_only_where_the_event_has_one():
    counted = {"do": "gain_vp", "amount": {"count": "trigger_amount"}, "target": "controller"}
    with pytest.raises(CardDataError, match="'dies' has none .*deals_combat_damage"):
        parse_card_data("tt", "cards/t.toml", {"cards": [creature("x", abilities=[
            triggered({"event": "dies", "which": "this"}, counted)])]})
    with pytest.raises(CardDataError, match="only triggered abilities"):
        parse_card_data("tt", "cards/t.toml", {"cards": [creature("x", abilities=[
            {"kind": "automatic", "timing": "end_stage2", "effect": counted}])]})


def test_D_trigger_amount_is_kept_with_a_trigger_waiting_across_a_save():
    import json

    from hkk import load_game
    from hkk._runner import advance

    from helpers import item, item_plugin

    sponge = creature("sponge", 1, 5, abilities=[triggered(
        {"event": "damaged", "which": "this"},
        {"do": "gain_vp", "amount": {"count": "trigger_amount"}, "target": "controller"})])
    # stage 1 deals 2: the trigger waits for the stage-2 pool (29.4.1), across step boundaries
    hit = item_plugin("prep_stage1", lambda g: [item(
        "hit", lambda g2: g2.damage(g2.creatures(0)[0], 2))] if g.turn == 1 else [])

    def new_game():
        game = game_with([sponge], plugins=[hit], agents=[Passer(), Passer()])
        game.enter_play(0, cid("sponge"), active=True)
        game.started = True
        return game
    whole = new_game()
    whole.play(max_turns=1)
    part = new_game()
    while part.step is None or part.step.hook != "prep_stage2_start":
        advance(part, 2)
    assert len(part.triggers.waiting) == 1
    resumed = load_game(part.engine, json.dumps(part.save()), agents=[Passer(), Passer()])
    resumed.play(max_turns=1)
    assert resumed.log.as_dicts() == whole.log.as_dicts()
    assert [(e.step, e["amount"]) for e in whole.log.of_kind("vp_gained")
            if e["source"] and cid("sponge") in e["source"]] == [("prep_stage2", 2)]


#: "Amikor ez a lény támad, 1 sebzést okoz egy általad választott ellenséges lénynek."
SNIPER = creature("sniper", 1, 3, abilities=[triggered(
    {"event": "attacks", "which": "this"},
    {"do": "damage", "amount": 1, "target": "chosen_opponent_creature"})])


class Sniping(Wants):
    """Attacks, then hits the last creature a target decision offers (not the first: the
    answer must be the one taken); passes otherwise."""

    def __init__(self) -> None:
        super().__init__("use attack", "attack with", pass_label="pass")
        self.targets: list[str] = []

    def choose(self, game, decision):
        if decision.kind == "target":
            self.targets.append(decision.options[-1].label)
            return decision.options[-1]
        return super().choose(game, decision)


def sniper_game(agent):
    game = game_with([SNIPER, creature("mark", 1, 3), creature("wall", 0, 3)],
                     agents=[agent, Wants("no block")])
    game.enter_play(0, cid("sniper"), zone="guard_post", active=True)
    game.enter_play(1, cid("mark"), zone="guard_post", active=True)
    game.enter_play(1, cid("wall"), active=True)
    return game


def test_D_trigger_attack_a_target_chosen_from_outside_in_an_attack_trigger_goes_on_as_seated():
    """The target of a "when this attacks" trigger is asked inside its bind, while the fight
    waits for its triggers: answered from outside (the game stops in the bind, the item held,
    and goes back down the fight's and the trigger queue's frames to it), the game - and a
    copy made there - go on exactly as the game with the attacker's agent seated."""
    seated_agent = Sniping()
    seated = sniper_game(seated_agent)
    seated.play()
    assert seated_agent.targets == [f"target {cid('wall')}#3"]
    outside_agent = Sniping()
    game = sniper_game(None)
    copies = []
    while (decision := game.decision) is not None:
        if decision.kind == "target":  # inside the trigger's bind, inside the fight
            machine = game.machine
            assert [f[0] for f in machine.frames][-3:] == ["fight", "settle", "resolve"]
            copies.append((game.clone(), copy_of(outside_agent)))
        game.answer(outside_agent.choose(game.view(decision.player), decision))
    assert len(copies) == 1 and outside_agent.targets == seated_agent.targets
    hits = [e["uid"] for e in seated.log.of_kind("damaged")]
    wall = next(p for p in sniper_game(Passer()).permanents.values() if p.card.id == cid("wall"))
    assert hits and hits[0] == wall.uid  # the trigger hit the one chosen, before combat damage
    assert game.log.as_dicts() == seated.log.as_dicts()
    assert game.snapshot() == seated.snapshot()
    copy, agent = copies[0]
    while (decision := copy.decision) is not None:
        copy.answer(agent.choose(copy.view(decision.player), decision))
    assert copy.log.as_dicts()[-40:] == seated.log.as_dicts()[-40:]
    assert copy.snapshot() == seated.snapshot()


def copy_of(agent: Sniping) -> Sniping:
    new = Sniping()
    new.wanted, new.targets = list(agent.wanted), list(agent.targets)
    return new


def in_attack_trigger(game) -> bool:
    """The game waits for a target asked in an attack trigger's bind, inside the fight."""
    decision = game.decision
    return decision is not None and decision.kind == "target" and [
        f[0] for f in game.machine.frames][-3:] == ["fight", "settle", "resolve"]


def dealt_sniper_game():
    """A dealt game (seed 2, random answers from outside) at the target an attack trigger asks,
    every creature of the attacker attacking: the step offers no attack any more."""
    from hkk import RandomAgent

    game = game_with([SNIPER], agents=[None, None], decks=[[cid("sniper")] * 12] * 2, seed=2)
    agents = [RandomAgent(seed=2), RandomAgent(seed=102)]
    while not in_attack_trigger(game):
        decision = game.decision
        game.answer(agents[decision.player].choose(game.view(decision.player), decision))
    return game, agents


def test_D_trigger_attack_a_game_saved_at_a_target_asked_in_an_attack_trigger_goes_on_as_unsaved():
    """A dealt game (seed 2: every creature of the attacker attacks, so the step offers no
    attack any more) saved where an attack trigger's bind asks its target and loaded goes on -
    answered the same - to the same log and state as the game never saved: the attack item the
    machine stood in is saved with its position."""
    from hkk import load_game
    from hkk._resolution import call_hook

    def go_on(game, agents, limit=400):
        for _ in range(limit):
            if (decision := game.decision) is None:
                return
            game.answer(agents[decision.player].choose(game.view(decision.player), decision))

    game, agents = dealt_sniper_game()
    assert game.machine.held is not None and game.machine.held.label == "attack"
    assert not [i for i in call_hook(game, "combat_phase") if i.label == "attack"]
    saved = json.dumps(game.save())
    twins = copy.deepcopy(agents)
    loaded = load_game(game.engine, saved)
    assert loaded.decision is not None and loaded.decision.labels() == game.decision.labels()
    go_on(game, agents)
    go_on(loaded, twins)
    assert loaded.log.as_dicts() == game.log.as_dicts()
    assert loaded.snapshot() == game.snapshot()


@pytest.mark.parametrize(("field", "value"), [("plugin", "elsewhere.Combat"),
                                              ("attribute", "defend"), ("label", "charge")])
def test_D_trigger_attack_a_save_naming_a_held_item_no_plugin_holds_is_refused_naming_it(
        field, value):
    from hkk import load_game
    from hkk._errors import SaveError

    game, _ = dealt_sniper_game()
    saved = game.save()
    assert saved["position"]["held"]["attribute"] == "attack"
    saved["position"]["held"][field] = value
    with pytest.raises(SaveError, match="which this engine's plugins do not hold") as caught:
        load_game(game.engine, saved)
    assert repr(saved["position"]["held"]["label"]) in str(caught.value)
    assert saved["position"]["held"]["plugin"] in str(caught.value)


def holding_plugin(game):
    """The rules plugin that keeps the held attack item in its ``attack`` attribute."""
    held = game.machine.held
    return next(p for p in game.pm.get_plugins()
                if any(i is held for i in getattr(p, "__dict__", {}).get("attack", ())))


def test_D_trigger_attack_a_save_in_a_held_item_no_plugin_keeps_nor_the_step_offers_is_refused_naming_it(
        monkeypatch):
    """Held in an attack whose trigger asks (the attackers passive: the step offers no attack),
    an item its plugin does not keep cannot be found again by a load: the save is refused,
    naming the item and the step, and the game goes on unharmed."""
    from hkk._errors import SaveError

    game, agents = dealt_sniper_game()
    plugin = holding_plugin(game)
    monkeypatch.setattr(plugin, "attack", [copy.copy(i) for i in plugin.attack])  # afresh
    waiting = game.decision.labels()
    with pytest.raises(SaveError, match="no plugin keeps in an attribute") as caught:
        game.save()
    assert "'attack'" in str(caught.value) and "combat_phase" in str(caught.value)
    assert game.decision.labels() == waiting
    decision = game.decision
    game.answer(agents[decision.player].choose(game.view(decision.player), decision))
    assert game.decision is None or game.decision is not decision


def test_D_combat_a_save_in_a_held_item_no_plugin_keeps_that_the_step_offers_loads_and_goes_on(
        monkeypatch):
    """At an attack decision (inside the attack's bind) the step still offers the attack: an
    item its plugin does not keep is left out of the save and collected again by the load,
    which goes on - answered the same - as the game never saved."""
    from hkk import RandomAgent, load_game

    game = game_with([SNIPER], agents=[None, None], decks=[[cid("sniper")] * 12] * 2, seed=2)
    agents = [RandomAgent(seed=2), RandomAgent(seed=102)]
    while (decision := game.decision).kind != "attack":
        game.answer(agents[decision.player].choose(game.view(decision.player), decision))
    plugin = holding_plugin(game)
    monkeypatch.setattr(plugin, "attack", [copy.copy(i) for i in plugin.attack])  # afresh
    saved = game.save()
    assert saved["position"]["held"] is None
    loaded, twins = load_game(game.engine, json.dumps(saved)), copy.deepcopy(agents)
    assert loaded.decision.labels() == game.decision.labels()
    for one, its in ((game, agents), (loaded, twins)):
        while (decision := one.decision) is not None:
            one.answer(its[decision.player].choose(one.view(decision.player), decision))
    assert loaded.log.as_dicts() == game.log.as_dicts()
    assert loaded.snapshot() == game.snapshot()
