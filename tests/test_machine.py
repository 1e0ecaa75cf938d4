"""The turn machine whose position is data (issue 30): the game clock driven from outside
(41.7), saves whose position is checked against the game, a hook deciding outside a bind, and
games built by hand that save."""

from __future__ import annotations

import json
import random

import pytest
from strategies_sets import card_models

from hkk import Engine, GameClock, RandomAgent, SaveError, load_game, save_game

ENGINE = Engine.installed()
PAIR = ["alap:tuz", "alap:viz"]


class Timed:
    """A time source the agents (or the driver) move: each decision takes its player's time."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


class Slow(RandomAgent):
    """A random agent whose every decision takes ``seconds`` of the fake clock."""

    def __init__(self, seed: int, clock: Timed, seconds: float) -> None:
        super().__init__(seed)
        self.clock, self.seconds = clock, seconds

    def choose(self, view, decision):
        self.clock.now += self.seconds
        return super().choose(view, decision)


@pytest.mark.parametrize("seed", range(6))
def test_41_7_the_clock_counts_a_game_driven_from_outside_as_the_same_game_seated(seed):
    clock = Timed()
    seated = ENGINE.new_game(PAIR, seed=seed, clock=GameClock(clock),
                             agents=[Slow(seed, clock, 100), Slow(seed + 1, clock, 7)])
    seated.play()
    outside_clock = Timed()
    me = Slow(seed, outside_clock, 100)
    game = ENGINE.new_game(PAIR, seed=seed, clock=GameClock(outside_clock),
                           agents=[None, Slow(seed + 1, outside_clock, 7)])
    while (decision := game.decision) is not None:
        game.answer(me.choose(game.view(decision.player), decision))  # moves the clock
    assert game.log.as_dicts() == seated.log.as_dicts()
    assert game.clock.turn_times == seated.clock.turn_times


def test_a_game_built_by_hand_saves_and_loads_and_goes_on_alike():
    from hkk import advance
    from hkk.testing import build_game
    spec = [{"hand": ["alap:tuzmano"], "reserve": ["alap:vandor-bard"], "vp": 5},
            {"guard_post": ["alap:tuzmano"], "hand": ["alap:bosszuallo-parazs"]}]
    game = build_game(ENGINE, spec, agents=[RandomAgent(1), RandomAgent(2)], seed=4)
    for _ in range(3):
        advance(game)
    data = game.save()
    loaded = load_game(ENGINE, data, agents=[RandomAgent(1), RandomAgent(2)])
    copy = game.clone()
    loaded.agents = [RandomAgent(1), RandomAgent(2)]
    copy.agents = [RandomAgent(1), RandomAgent(2)]
    loaded._seat()
    copy._seat()
    loaded.play(max_turns=6)
    copy.play(max_turns=6)
    assert loaded.log.as_dicts() == copy.log.as_dicts()


def saved_at_a_decision(seed: int = 2, answers: int = 9) -> dict:
    game = ENGINE.new_game(PAIR, seed=seed, agents=[None, RandomAgent(1)])
    me = RandomAgent(0)
    for _ in range(answers):
        decision = game.decision
        game.answer(me.choose(game.view(decision.player), decision))
    return game.save()


@pytest.mark.parametrize("resume", [["xx", 99, True], [], ["actions", 7, "yes"], "actions"])
def test_a_malformed_resume_of_an_older_save_is_refused_by_name(resume):
    data = saved_at_a_decision()
    data.pop("position")
    data |= {"format": "hkk-save/3", "answers": [], "resume": resume}
    with pytest.raises(SaveError, match="resume"):
        load_game(ENGINE, data)


def test_a_saved_position_pointing_elsewhere_is_refused():
    data = saved_at_a_decision()
    frames = data["position"]["frames"]
    assert frames[-1][0] == "actions"
    frames[-1][1] = 1 - frames[-1][1]  # the other player's action
    with pytest.raises(SaveError, match="position and answers do not match the game"):
        load_game(ENGINE, data)
    data = saved_at_a_decision()
    data["position"]["frames"][-1] = ["settle", {"set": []}, 0, {"tuple": []}]
    with pytest.raises(SaveError, match="do(es)? not match"):
        load_game(ENGINE, data)
    data["position"]["frames"] = [["nothing", 1]]
    with pytest.raises(SaveError, match="position does not match its game.*'nothing' frame"):
        load_game(ENGINE, data)


def test_an_edited_answer_label_is_refused_as_answers_that_do_not_match():
    data = saved_at_a_decision()
    data["position"]["waiting"]["labels"][0] = "play alap:nothing"
    with pytest.raises(SaveError, match="the save's position and answers do not match the "
                                        "game.*play alap:nothing"):
        load_game(ENGINE, data)


class AsksAtTurnStart:
    """A set's hook that asks a player outside any pending item's bind (the old way)."""

    @staticmethod
    def plugin():
        from hkk import Option, hookimpl

        class Plugin:
            @hookimpl
            def turn_started(self, game):
                if game.turn == 2:
                    game.decide(game.active, "use", [Option("use the oracle"), Option("decline")],
                                prompt="Ask outside a bind")
        return Plugin()


def game_asking_outside(agents):
    game = ENGINE.new_game(PAIR, seed=5, agents=agents)
    game.engine.pm.register(AsksAtTurnStart.plugin(), name="hkk.sets.kerdez")
    game.hook_impls.clear()
    return game


def test_a_hook_deciding_outside_a_bind_is_warned_with_seated_agents_naming_set_and_hook():
    game = game_asking_outside([RandomAgent(1), RandomAgent(2)])
    try:
        with pytest.warns(DeprecationWarning, match="hook turn_started of kerdez asks player"):
            game.play(max_turns=3)
    finally:
        game.engine.pm.unregister(name="hkk.sets.kerdez")


def test_a_hook_deciding_outside_a_bind_is_refused_from_outside_naming_set_and_hook():
    from hkk import HookError
    game = game_asking_outside([None, RandomAgent(2)])
    me = RandomAgent(1)
    try:
        with pytest.raises(HookError, match="turn_started of kerdez asked player") as info:
            while (decision := game.decision) is not None and game.turn < 3:
                game.answer(me.choose(game.view(decision.player), decision))
        assert info.value.set_code == "kerdez" and info.value.hook == "turn_started"
    finally:
        game.engine.pm.unregister(name="hkk.sets.kerdez")


#: A creature with two optional "enters play" abilities, the second of which sacrifices it:
#: ordered second first, the first is asked about after its permanent has left play.
SACRIFICED_ON_ENTRY = {t["id"]: {"name": t["id"].upper(), **t} for t in [
    {"id": "rs:wall", "kind": "building", "cost": {"vp": 0, "components": 1}, "sp": 1},
    {"id": "rs:martyr", "kind": "creature", "cost": {"vp": 0}, "damage": 0, "hp": 1,
     "abilities": [
         {"kind": "automatic", "timing": "on_enter", "optional": True, "effects": [
             {"do": "add_counters", "counter": "poison", "count": 1, "target": "self"}]},
         {"kind": "automatic", "timing": "on_enter", "optional": True, "effects": [
             {"do": "sacrifice"},
             {"do": "add_counters", "counter": "poison", "count": 1, "target": "self"}]}]}]}


class Scripted(RandomAgent):
    """Answers as the driver below does: an index of ``Random(0)``, then a draw it drops."""

    def __init__(self, rng: random.Random) -> None:
        super().__init__(0)
        self.script = rng

    def choose(self, view, decision):
        chosen = self.script.randrange(len(decision.options))
        self.script.randrange(3)
        return decision.options[chosen]


def test_an_older_saves_entry_frame_without_its_card_is_refused_by_name_once_it_left_play():
    """A save made before the ``entry`` frame kept its permanent's card cannot go on once an
    ability of the permanent has taken it out of play: refused at load, naming it."""
    engine = Engine(card_models(SACRIFICED_ON_ENTRY))
    decks = [["rs:wall"] * 20, ["rs:wall"] * 19 + ["rs:martyr"]]
    game = engine.new_game(decks, [None, None], seed=0)
    script = random.Random(0)
    while not any(e.kind == "died" and e.card == "rs:martyr" for e in game.log):
        game.answer(script.randrange(len(game.decision.options)))
        script.randrange(3)
    data = save_game(game)
    entry = next(f for f in data["position"]["frames"] if f[0] == "entry")
    del entry[5:]  # ["entry", uid, done, stage, item], as it was saved
    with pytest.raises(SaveError, match=r"position does not match its game.*\"enters play\" "
                                        r"items of #1, which has left play"):
        load_game(engine, json.dumps(data))


#: Its first "enters play" ability takes away what the condition of its second reads.
CONDITION_ENDED_ON_ENTRY = {t["id"]: {"name": t["id"].upper(), **t} for t in [
    {"id": "rs:wall", "kind": "building", "cost": {"vp": 0, "components": 1}, "sp": 1},
    {"id": "rs:martyr", "kind": "creature", "cost": {"vp": 0}, "damage": 0, "hp": 1,
     "abilities": [
         {"kind": "automatic", "timing": "on_enter", "optional": True,
          "condition": {"of": "own_creatures", "at_least": 1},
          "effects": [{"do": "gain_vp", "amount": 1}]},
         {"kind": "automatic", "timing": "on_enter", "optional": True,
          "effects": [{"do": "sacrifice"}]}]}]}


def _answer_to_the_end(game, script: random.Random) -> list[dict]:
    """Answers every decision as :class:`Scripted` does; the game's whole log."""
    while (decision := game.decision) is not None:
        chosen = script.randrange(len(decision.options))
        script.randrange(3)
        game.answer(chosen)
    return [e.as_dict() for e in game.log]


def test_an_entry_ability_asked_after_its_permanent_left_play_goes_on_from_outside():
    """Answered from outside, copied or saved there, a game goes on as the same game seated
    where an "enters play" ability is asked about after another of its permanent's sacrificed
    it (R-enter-order: the permanent's other abilities are still ordered and asked about)."""
    engine = Engine(card_models(SACRIFICED_ON_ENTRY))
    decks = [["rs:wall"] * 20, ["rs:wall"] * 19 + ["rs:martyr"]]
    seated = engine.new_game(decks, [Scripted(random.Random(0)), None], seed=0)
    seated.agents[1] = seated.agents[0]  # one script for both seats, as the driver's
    seated.play()
    wanted = [e.as_dict() for e in seated.log]
    driven = engine.new_game(decks, [None, None], seed=0)
    script = random.Random(0)
    while not any(e.kind == "died" and e.card == "rs:martyr" for e in driven.log):
        decision = driven.decision
        driven.answer(script.randrange(len(decision.options)))
        script.randrange(3)
    # the martyr has left play; its other "enters play" ability is asked about
    assert driven.decision.kind == "use" and "rs:martyr#" in driven.decision.options[0].label
    assert not any(p.card.id == "rs:martyr" for p in driven.permanents.values())
    copied, loaded = driven.clone(), load_game(engine, json.dumps(save_game(driven)))
    at = script.getstate()
    for game in (copied, loaded, driven):
        script.setstate(at)
        assert _answer_to_the_end(game, script) == wanted


@pytest.mark.parametrize("seed", range(12))
def test_d_conditions_an_entry_ability_whose_condition_ended_after_it_fired_goes_on_from_outside(
        seed):
    """An "enters play" ability fires when its permanent enters play (D-conditions): ordered
    after another of its permanent's that ended its condition, it is still asked about and
    resolves, seated, answered from outside, and copied or saved at each decision after."""
    engine = Engine(card_models(CONDITION_ENDED_ON_ENTRY))
    decks = [["rs:wall"] * 20, ["rs:wall"] * 19 + ["rs:martyr"]]
    seated = engine.new_game(decks, [Scripted(random.Random(seed)), None], seed=seed)
    seated.agents[1] = seated.agents[0]
    seated.play()
    wanted = [e.as_dict() for e in seated.log]
    driven = engine.new_game(decks, [None, None], seed=seed)
    script = random.Random(seed)
    copies = []
    while (decision := driven.decision) is not None:
        if len(copies) < 4 and any(e.kind == "entered_play" and e.card == "rs:martyr"
                                   for e in driven.log):
            copies.append((script.getstate(), driven.clone(),
                           load_game(engine, json.dumps(save_game(driven)))))
        chosen = script.randrange(len(decision.options))
        script.randrange(3)
        driven.answer(chosen)
    assert [e.as_dict() for e in driven.log] == wanted
    for at, copied, loaded in copies:
        for game in (copied, loaded):
            script.setstate(at)
            assert _answer_to_the_end(game, script) == wanted


#: What a player reads of a permanent (public): a copy reads the same of its waiting triggers'.
READ_OF_A_PERMANENT = ("uid", "card_id", "controller", "owner", "zone", "active",
                       "damage_taken", "defence_bonus", "counters", "damaged_turn",
                       "entered_turn")


def test_a_copy_reads_a_waiting_triggers_permanent_that_left_play_as_the_game_does():
    """Two triggers wait to be ordered (a base game drawn by the view's leak test), one of a
    permanent that has left play. A copy's items read it as the game's do (as it left play:
    its zone and damage then, not a new permanent's), and the copy goes on alike."""
    game = ENGINE.new_game(PAIR, [None, None], seed=331_078_619_173_731)
    me = RandomAgent(1737)
    for _ in range(110):
        game.answer(me.choose(game.view(game.decision.player), game.decision))
    decision = game.decision
    assert decision.kind == "order"
    sources = [option.value.source for option in decision.options]
    left = [s for s in sources if s.uid not in game.permanents]
    assert left
    copied = game.clone()

    def read(perm):
        return {name: getattr(perm, name) for name in READ_OF_A_PERMANENT}

    assert [read(o.value.source) for o in copied.decision.options] == [read(s) for s in sources]
    assert all(read(s)["zone"] != "graveyard" for s in left)  # as it left play, not after
    script = random.Random(5)
    at = script.getstate()
    ends = []
    for each in (copied, game):
        script.setstate(at)
        ends.append(_answer_to_the_end(each, script))
    assert ends[0] == ends[1]
