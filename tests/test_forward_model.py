"""Issue 21: the game as a forward model - answered from outside, copied at any decision, saved
at any decision, and seen fairly by each player.

Every property plays seeded games of the base set and of ``mereg`` (whose Python hooks and
triggers take part) to the end, player 1 answered from outside by a seeded random agent, player
2 a seated one, and compares with the same game played by the two agents seated."""

from __future__ import annotations

import gc
import json
import random
import weakref
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hkk import (
    CloneError,
    Engine,
    IllegalDecision,
    PlayerView,
    RandomAgent,
    SaveError,
    load_game,
)

ENGINE = Engine.installed()
PAIRS = [["alap:tuz", "alap:viz"], ["mereg:mocsar", "alap:tuz"], ["alap:viz", "mereg:mocsar"]]
PROPERTY = settings(max_examples=12, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


def seated(pair: list[str], seed: int):
    return ENGINE.play(pair, seed=seed, agents=[RandomAgent(seed), RandomAgent(seed + 1)])


def driven(pair: list[str], seed: int):
    game = ENGINE.new_game(pair, seed=seed, agents=[None, RandomAgent(seed + 1)])
    return game, RandomAgent(seed)


def answer_one(game, me: RandomAgent) -> None:
    decision = game.decision
    game.answer(me.choose(game.view(decision.player), decision))


def play_out(game, me: RandomAgent) -> None:
    while game.decision is not None:
        answer_one(game, me)


def copy_agent(agent: RandomAgent) -> RandomAgent:
    new = RandomAgent(pass_bias=agent.pass_bias)
    new.set_rng_state(agent.rng_state())
    return new


def outcome(game) -> tuple:
    return game.winner, game.log.as_dicts(), game.snapshot()


@PROPERTY
@given(pair=st.sampled_from(PAIRS), seed=st.integers(0, 10_000))
def test_a_game_answered_from_outside_is_the_game_of_seated_agents(pair, seed):
    game, me = driven(pair, seed)
    decisions = 0
    while game.decision is not None:
        assert game.decision.player == 0  # only the seat without an agent is asked
        answer_one(game, me)
        decisions += 1
    direct = seated(pair, seed)
    assert decisions > 0 and game.over
    assert outcome(game) == outcome(direct)


@PROPERTY
@given(pair=st.sampled_from(PAIRS), seed=st.integers(0, 10_000),
       cut=st.integers(0, 400), other=st.integers(1, 50))
def test_a_clone_goes_on_as_the_original_and_never_changes_it(pair, seed, cut, other):
    game, me = driven(pair, seed)
    for _ in range(cut):
        if game.decision is None:
            break
        answer_one(game, me)
    if game.decision is None:
        return
    before = (game.log.as_dicts(), game.snapshot(), game.decision.labels())
    clone = game.clone()
    assert (clone.log.as_dicts(), clone.snapshot(), clone.decision.labels()) == before
    # answered differently, played to its end: the original does not move
    options = clone.decision.options
    clone.answer(options[other % len(options)])
    play_out(clone, RandomAgent(seed + 7))
    assert (game.log.as_dicts(), game.snapshot(), game.decision.labels()) == before
    # answered the same, the original and a second clone end the same
    twin, twin_me = game.clone(), copy_agent(me)
    play_out(game, me)
    play_out(twin, twin_me)
    assert outcome(twin) == outcome(game) == outcome(seated(pair, seed))


@PROPERTY
@given(pair=st.sampled_from(PAIRS), seed=st.integers(0, 10_000), cut=st.integers(0, 400))
def test_saved_at_a_decision_a_game_resumes_there(pair, seed, cut):
    game, me = driven(pair, seed)
    for _ in range(cut):
        if game.decision is None:
            break
        answer_one(game, me)
    if game.decision is None:
        return
    text = json.dumps(game.save())
    loaded = load_game(ENGINE, text, agents=[None, copy_agent(game.agents[1])])
    assert loaded.decision.labels() == game.decision.labels()
    assert loaded.snapshot() == game.snapshot()
    assert loaded.log.as_dicts() == game.log.as_dicts()
    play_out(loaded, me)
    assert outcome(loaded) == outcome(seated(pair, seed))


def test_a_save_of_format_2_or_3_loads_as_a_save_of_format_4():
    from hkk import advance
    game = ENGINE.new_game(PAIRS[0], seed=3)
    while game.turn < 3:
        advance(game)
    data = game.save()
    assert data["format"] == "hkk-save/4" and data["position"] is None
    for old in ("hkk-save/2", "hkk-save/3"):
        older = {**{k: v for k, v in data.items() if k != "position"}, "format": old}
        if old == "hkk-save/3":
            older |= {"answers": [], "resume": None}
        loaded = load_game(ENGINE, older)
        loaded.play()
        assert outcome(loaded) == _played(game)


def _played(game):
    copy = game.clone()
    copy.play()
    return outcome(copy)


def test_a_save_of_format_3_at_an_action_loop_is_migrated_and_one_with_answers_refused():
    game, me = driven(PAIRS[0], 6)
    while not (game.decision.kind == "action" and game.machine.frames[-1][0] == "actions"):
        answer_one(game, me)
    data = game.save()
    frame = game.machine.frames[-1]
    old = {**{k: v for k, v in data.items() if k != "position"}, "format": "hkk-save/3",
           "answers": [], "resume": ["actions", frame[1], frame[2]]}
    loaded = load_game(ENGINE, old)
    assert loaded.decision.labels() == game.decision.labels()
    old["answers"] = [[0, "pass"]]
    with pytest.raises(SaveError, match="hkk-save/3.*hkk-save/4"):
        load_game(ENGINE, old)


def test_an_option_not_offered_is_refused_and_the_game_stays_where_it_was():
    game, _ = driven(PAIRS[0], 1)
    waiting = game.decision
    before = game.snapshot()
    for wrong in (len(waiting.options), -1, "no such option", 2.5):
        with pytest.raises(IllegalDecision, match="options were"):
            game.answer(wrong)
    assert game.decision is waiting and game.snapshot() == before
    game.answer(waiting.options[0].label)  # by label; by index and by Option work the same
    assert game.decision is not waiting


def test_a_game_over_or_fully_seated_waits_for_nothing():
    game = ENGINE.new_game(PAIRS[0], seed=2, agents=[RandomAgent(1), RandomAgent(2)])
    assert game.decision is None
    with pytest.raises(IllegalDecision, match="every seat has an agent"):
        game.answer(0)
    outside, me = driven(PAIRS[0], 2)
    play_out(outside, me)
    assert outside.over and outside.decision is None
    with pytest.raises(IllegalDecision, match="it is over"):
        outside.answer(0)


def test_seating_an_agent_at_a_decision_plays_the_game_on():
    game, me = driven(PAIRS[1], 4)
    for _ in range(60):
        answer_one(game, me)
    game.agents[0] = me
    game.play()
    assert outcome(game) == outcome(seated(PAIRS[1], 4))


@PROPERTY
@given(pair=st.sampled_from(PAIRS), seed=st.integers(0, 10_000), cut=st.integers(0, 400))
def test_a_view_holds_nothing_its_player_may_not_know(pair, seed, cut):
    game, me = driven(pair, seed)
    for _ in range(cut):
        if game.decision is None:
            break
        answer_one(game, me)
    for player in (0, 1):
        view = game.view(player)
        other = 1 - player
        snap, full = view.snapshot(), game.snapshot()
        assert snap["players"][other]["hand"] == len(game.players[other].hand)
        full["players"][other]["hand"] = len(game.players[other].hand)
        assert snap == full
        seats = view.players
        assert seats[other].hand is None and seats[player].hand == tuple(
            game.players[player].hand)
        assert seats[other].hand_size == len(game.players[other].hand)
        drawn_by_other = [e for e in view.log if e.kind == "card_drawn" and e.player == other]
        assert all(e.card == "?" for e in drawn_by_other)
        assert not any(e.kind == "decision" and e.player == other and e.options
                       for e in view.log)
        assert not hasattr(view, "__dict__")  # nothing to hang the game's secrets on


@PROPERTY
@given(pair=st.sampled_from(PAIRS), seed=st.integers(0, 10_000), cut=st.integers(0, 400),
       shuffle=st.integers(0, 2**32))
def test_determinize_keeps_what_the_player_knows_and_deals_the_hidden_again(
        pair, seed, cut, shuffle):
    game, me = driven(pair, seed)
    for _ in range(cut):
        if game.decision is None:
            break
        answer_one(game, me)
    if game.decision is None:
        return
    player = game.decision.player
    other = 1 - player
    copy = game.determinize(player, random.Random(shuffle))
    assert copy.view(player).snapshot() == game.view(player).snapshot()
    assert copy.decision.labels() == game.decision.labels()
    theirs = game.players[other]
    dealt = copy.players[other]
    # the opponent's hidden cards are the same cards, dealt again
    assert Counter(dealt.hand + dealt.deck) == Counter(theirs.hand + theirs.deck)
    assert Counter(copy.players[player].deck) == Counter(game.players[player].deck)
    assert all(e.card == "?" for e in copy.log if e.kind == "card_drawn"
               and e.player == other and e.seq < len(game.log) - 50)
    # and the copy plays on to an end without touching the original
    before = game.snapshot()
    play_out(copy, RandomAgent(shuffle))
    assert copy.over and game.snapshot() == before


@PROPERTY
@given(pair=st.sampled_from(PAIRS), seed=st.integers(0, 10_000), cut=st.integers(0, 400),
       shuffle=st.integers(0, 2**32))
def test_a_copy_determinized_for_either_player_at_any_decision_plays_on_to_an_end(
        pair, seed, cut, shuffle):
    """Both seats answered from outside: at any decision, a copy determinized for the player
    deciding and one for the other player (whose hand is dealt again under the decider's
    pending answer) each keep what that player knows, wait for the same decision and play on
    to an end, the original untouched."""
    game = ENGINE.new_game(pair, seed=seed, agents=[None, None])
    agents = [RandomAgent(seed), RandomAgent(seed + 1)]
    for _ in range(cut):
        if (decision := game.decision) is None:
            return
        game.answer(agents[decision.player].choose(game.view(decision.player), decision))
    if game.decision is None:
        return
    before = game.snapshot()
    for player in (0, 1):
        copy = game.determinize(player, random.Random(shuffle))
        assert copy.view(player).snapshot() == game.view(player).snapshot()
        assert copy.decision.player == game.decision.player
        assert copy.decision.kind == game.decision.kind
        players = [RandomAgent(shuffle), RandomAgent(shuffle + 1)]
        while (decision := copy.decision) is not None:
            copy.answer(players[decision.player].choose(copy.view(decision.player), decision))
        assert copy.over
    assert game.snapshot() == before


def test_determinize_changes_the_hidden_cards():
    changed = 0
    for seed in range(20):
        game, me = driven(PAIRS[0], seed)
        for _ in range(40):
            answer_one(game, me)
        copy = game.determinize(game.decision.player, random.Random(seed))
        other = 1 - game.decision.player
        changed += copy.players[other].hand != game.players[other].hand
    assert changed >= 10


class Searching:
    """A seated agent that searches: it determinizes and clones at each of its decisions,
    plays the copies a little, and then answers as a random agent would."""

    uses_forward_model = True

    def __init__(self, seed: int) -> None:
        self.random = RandomAgent(seed)
        self.rng = random.Random(seed)

    def choose(self, view, decision):
        assert isinstance(view, PlayerView)
        copy = view.determinize(self.rng)
        if copy.decision is not None:
            copy.answer(0)
        return self.random.choose(view, decision)


def test_an_agent_that_searches_plays_the_game_a_random_agent_would():
    for seed in range(3):
        game = ENGINE.new_game(PAIRS[1], seed=seed,
                               agents=[Searching(seed), RandomAgent(seed + 1)])
        game.play()
        assert outcome(game) == outcome(seated(PAIRS[1], seed))


class Peeking:
    """An omniscient agent that copies the game at each of its decisions, plays the copy out
    with first options, and answers as a random agent would."""

    sees_everything = True

    def __init__(self, seed: int) -> None:
        self.random = RandomAgent(seed)
        self.copies = 0

    def choose(self, game, decision):
        copy = game.clone()
        assert copy.decision is not None and copy.decision.labels() == decision.labels()
        self.copies += 1
        return self.random.choose(game, decision)


def test_a_seated_agent_copies_the_game_at_its_decision_and_the_game_goes_on_alike():
    agents = [Peeking(1), Peeking(2)]
    game = ENGINE.new_game(PAIRS[1], seed=1, agents=agents)
    game.play()
    assert agents[0].copies > 50
    assert outcome(game) == outcome(seated_as(PAIRS[1], 1, 1, 2))


def seated_as(pair, seed, first, second):
    return ENGINE.play(pair, seed=seed, agents=[RandomAgent(first), RandomAgent(second)])


def test_a_copy_from_a_log_listener_inside_a_step_is_refused():
    from hkk.events import CardPlayed
    game = ENGINE.new_game(PAIRS[0], seed=3, agents=[None, RandomAgent(2)])
    refused = []

    def listener(event):
        with pytest.raises(CloneError, match="stands at no decision"):
            game.clone()
        with pytest.raises(SaveError, match="inside a step"):
            game.save()
        refused.append(event)

    game.log.subscribe(listener, kinds=[CardPlayed])
    play_out(game, RandomAgent(1))
    assert refused


class Uncopyable(RandomAgent):
    def __deepcopy__(self, memo):
        raise TypeError("holds a socket")


def test_an_agent_that_cannot_be_copied_is_named():
    game = ENGINE.new_game(PAIRS[0], seed=1, agents=[None, Uncopyable(3)])
    assert game.decision is not None
    with pytest.raises(CloneError, match="Uncopyable cannot be copied.*holds a socket"):
        game.clone()


def test_a_sets_per_game_data_is_copied_with_the_game():
    from hkk import advance
    game = ENGINE.new_game(PAIRS[0], seed=5)
    while game.turn < 2:
        advance(game)
    game.set_data["mine"] = {"counter": 1, "seen": [1, 2]}
    clone = game.clone()
    assert clone.set_data == game.set_data
    clone.set_data["mine"]["seen"].append(3)
    assert game.set_data["mine"]["seen"] == [1, 2]
    game.set_data["bad"] = {"lock": __import__("threading").Lock()}
    with pytest.raises(CloneError, match="set 'bad' keeps per-game data that cannot be copied"):
        game.clone()


def test_a_seated_agent_may_save_the_game_at_its_decision():
    saves = []

    class SavesAtItsDecision:
        sees_everything = True

        def choose(self, g, decision):
            if len(saves) < 40:
                saves.append((g.save(), decision.labels()))
            return decision.options[-1]

    game = ENGINE.new_game(PAIRS[0], seed=1, agents=[SavesAtItsDecision(), RandomAgent(3)])
    game.play()
    for data, labels in saves:
        loaded = load_game(ENGINE, data, agents=[None, RandomAgent(3)])
        assert loaded.decision.labels() == labels


@PROPERTY
@given(pair=st.sampled_from(PAIRS), seed=st.integers(0, 10_000))
def test_a_listener_of_a_game_answered_from_outside_hears_each_event_once(pair, seed):
    game, me = driven(pair, seed)
    heard = []
    game.log.subscribe(heard.append)
    log = game.log
    play_out(game, me)
    assert game.log is log  # running a step again keeps the game's log object
    assert [e.as_dict() for e in heard] == game.log.as_dicts() == seated(pair, seed).log.as_dicts()


def test_hkk_play_save_at_writes_the_game_as_its_turn_begins(tmp_path):
    from click.testing import CliRunner

    from hkk.cli import main
    save = tmp_path / "at5.json"
    runner = CliRunner()
    done = runner.invoke(main, ["play", "--seed", "3", "-q", "--save", str(save),
                                "--save-at", "5"])
    assert done.exit_code == 0, done.output
    data = json.loads(save.read_text("utf-8"))
    assert data["state"]["turn"] == 5 and data["state"]["step_index"] == 0
    whole = runner.invoke(main, ["play", "--seed", "3", "--output-format", "json"])
    loaded = load_game(ENGINE, data)
    loaded.play()
    assert loaded.log.as_dicts() == json.loads(whole.stdout)
    refused = runner.invoke(main, ["play", "--seed", "3", "--save-at", "5"])
    assert refused.exit_code == 2 and "needs --save FILE" in refused.output


class CopyingOnce:
    """A seated agent that keeps a copy of the game at its first action decision from
    ``turn`` on (the copy waits for that decision), and plays as a random agent."""

    sees_everything = True  # handed the game itself, to copy it

    def __init__(self, seed: int, turn: int) -> None:
        self.random = RandomAgent(seed)
        self.turn = turn
        self.copy = None

    def choose(self, game, decision):
        if self.copy is None and decision.kind == "action" and game.turn >= self.turn:
            self.copy = game.clone()
        return self.random.choose(game, decision)


def answered_from_outside(game, seed: int) -> tuple:
    game.agents = [None, None]
    game._seat()
    agents = [RandomAgent(seed + 7), RandomAgent(seed + 8)]
    while (decision := game.decision) is not None:
        game.answer(agents[decision.player].choose(game.view(decision.player), decision))
    return outcome(game)


@pytest.mark.parametrize("seed", range(8))
def test_a_copy_made_at_a_seated_decision_and_answered_from_outside_acts_on_itself(seed):
    """The copy's decision is answered with its own options (its items, its permanents), never
    the original's: played from outside to its end it is the game its own copy gives with the
    same answers, and the original is left as it was."""
    pair = PAIRS[seed % len(PAIRS)]
    agent = CopyingOnce(seed, turn=3 + seed % 4)
    game = ENGINE.new_game(pair, seed=seed, agents=[agent, RandomAgent(seed + 1)])
    game.play()
    before = json.dumps(game.snapshot(), sort_keys=True)
    copy = agent.copy
    assert copy is not None
    again = copy.clone()  # waits for the same decision, found again on its own permanents
    assert answered_from_outside(copy, seed) == answered_from_outside(again, seed)
    assert json.dumps(game.snapshot(), sort_keys=True) == before


@pytest.mark.parametrize("pair", PAIRS[:2])
def test_a_copy_nobody_holds_is_freed_at_once_not_left_to_the_cycle_collector(pair):
    """A copy (a clone, a determinized world) refers to nothing that refers back to it, even
    after seated agents decided in it (their views tie it weakly): dropped, it is freed by
    reference counting, so the copies a search makes never wait for the cyclic collector."""
    game, me = driven(pair, 3)
    while game.turn < 6:
        answer_one(game, me)
    copies = 0
    enabled = gc.isenabled()
    gc.collect()
    gc.disable()
    try:
        for _ in range(12):
            for make in (game.clone, lambda: game.determinize(0, random.Random(1)),
                         lambda: seated_on(game.clone())):
                freed = weakref.ref(make())
                assert freed() is None
                copies += 1
            answer_one(game, me)
    finally:
        if enabled:
            gc.enable()
    assert copies == 36


def seated_on(game):
    """The game played on by seated agents to the next turn: the seats' views are made."""
    game.agents = [RandomAgent(1), RandomAgent(2)]
    game.play(max_turns=game.turn + 1)
    assert game.views[0] is not None or game.views[1] is not None
    return game


def test_a_view_from_game_view_keeps_its_game():
    """``game.view(player)`` is a window that keeps the game alive, kept beyond the game."""
    view = ENGINE.new_game(PAIRS[0], seed=1, agents=[None, RandomAgent(2)]).view(0)
    gc.collect()
    assert view.turn == 0 and len(view.hand) == 0 and view.deciding is not None


@given(st.integers(0, 2**32), st.integers(0, 80))
@settings(max_examples=60, deadline=None)
def test_determinize_shuffles_with_the_draws_of_random_shuffle(seed, size):
    """A determinized copy's deal is ``random.Random.shuffle``'s, draw for draw: the same
    order, and the caller's RNG left in the same state."""
    from hkk._driving import _shuffle
    from hkk._rng import SharedRandom

    for make in (random.Random, SharedRandom, lambda s: SharedRandom(s).copy()):
        cards, expected = [f"c{i}" for i in range(size)], [f"c{i}" for i in range(size)]
        rng, reference = make(seed), random.Random(seed)
        _shuffle(rng, cards)
        reference.shuffle(expected)
        assert cards == expected and rng.random() == reference.random()
