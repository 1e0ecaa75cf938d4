"""The greedy and mcts agents (issue 22 item 1) on the forward model (issue 21): each plays
only from its view - given a game whose hidden cards were replaced it decides the same - is
deterministic for its seed, spends nothing on a decision with one option, finds a move that wins
at once, and plays whole games, in ``hkk simulate`` too.  Their strength is measured by
benchmarks/bench_agents.py, not here."""

from __future__ import annotations

import gc
import random
import weakref
from typing import Any

import pytest

from hkk import Engine, GreedyAgent, MctsAgent, RandomAgent, make_agent
from hkk._agent_registry import agent_seed
from hkk._mcts import RolloutPolicy
from hkk._simulate import pairings, plan, simulate

ENGINE = Engine.installed(allow=["alap"])
DECKS = ["alap:tuz", "alap:viz"]


def drive(game: Any, agents: list[Any], until: Any = None) -> Any:
    """Answer the game's decisions from outside with ``agents`` until ``until(game)`` or the
    end; the game stands at the decision where it stopped."""
    while game.decision is not None and not (until and until(game)):
        d = game.decision
        game.answer(agents[d.player].choose(game.view(d.player), d))
    return game


def at_decision(seed: int, turn: int, options: int = 3) -> Any:
    """A base-set game answered from outside by random players, stopped at the first decision
    of ``turn`` or later with at least ``options`` options."""
    game = ENGINE.new_game(DECKS, [None, None], seed=seed, log_level="outcome")
    players = [RandomAgent(seed=seed), RandomAgent(seed=seed + 1)]
    drive(game, players, lambda g: g.turn >= turn and len(g.decision.options) >= options)
    assert game.decision is not None, "the game ended before the test position"
    return game


AGENTS = [("greedy", lambda seed: GreedyAgent(seed)),
          ("mcts", lambda seed: MctsAgent(seed, budget=24))]


@pytest.mark.parametrize(("name", "make"), AGENTS, ids=[a[0] for a in AGENTS])
@pytest.mark.parametrize(("seed", "turn"), [(1, 4), (2, 7), (3, 10)])
def test_an_agent_decides_the_same_when_the_hidden_cards_are_replaced(
        name: str, make: Any, seed: int, turn: int) -> None:
    game = at_decision(seed, turn)
    d = game.decision
    me = d.player
    other = game.determinize(me, random.Random(seed * 7))
    # the copy hides other cards from him: the opponent's hand and the decks' order differ
    assert other.players[1 - me].hand != game.players[1 - me].hand or \
        other.players[me].deck != game.players[me].deck
    assert other.view(me).snapshot() == game.view(me).snapshot()
    assert make(5).choose(other.view(me), other.decision) == \
        make(5).choose(game.view(me), d)


class PublicOnly:
    """A view of which only the public names can be read (no ``view._game``)."""

    def __init__(self, view: Any) -> None:
        self._view = view

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AssertionError(f"the agent read the view's private {name}")
        return getattr(self._view, name)


@pytest.mark.parametrize(("name", "make"), AGENTS, ids=[a[0] for a in AGENTS])
def test_an_agent_reads_only_the_public_view(name: str, make: Any) -> None:
    game = at_decision(8, 6)
    d = game.decision
    assert make(2).choose(PublicOnly(game.view(d.player)), d) in d.options


@pytest.mark.parametrize(("name", "make"), AGENTS, ids=[a[0] for a in AGENTS])
def test_an_agent_is_deterministic_for_its_seed(name: str, make: Any) -> None:
    def labels(agent_seed: int) -> list[str]:
        game = at_decision(4, 6)
        agent = make(agent_seed)
        chosen = []
        for _ in range(6):
            if game.decision is None:
                break
            d = game.decision
            option = agent.choose(game.view(d.player), d)
            chosen.append(option.label)
            game.answer(option)
        return chosen

    assert labels(11) == labels(11)


class NoForwardModel:
    """A view that fails if anything beyond the decision is read."""

    def __getattr__(self, name: str) -> Any:
        raise AssertionError(f"the agent read view.{name}")


@pytest.mark.parametrize(("name", "make"), AGENTS, ids=[a[0] for a in AGENTS])
def test_a_decision_with_one_option_costs_nothing(name: str, make: Any) -> None:
    game = at_decision(5, 3, options=1)
    while len(game.decision.options) != 1:
        game.answer(0)
    agent = make(1)
    assert agent.choose(NoForwardModel(), game.decision) == game.decision.options[0]
    assert agent.decisions == 0


def _winning_position() -> tuple[Any, int]:
    """A decision (from random games) where exactly some options win the game at once."""
    for seed in range(200):
        game = ENGINE.new_game(DECKS, [None, None], seed=seed, log_level="outcome")
        players = [RandomAgent(seed=seed), RandomAgent(seed=seed + 1)]
        while game.decision is not None:
            d = game.decision
            if len(d.options) > 2 and game.players[1 - d.player].hp <= 6:
                wins = []
                for i in range(len(d.options)):
                    copy = game.clone()
                    copy.answer(i)
                    wins.append(copy.over and copy.winner == d.player)
                if any(wins) and not all(wins):
                    return game, sum(wins)
            game.answer(players[d.player].choose(game.view(d.player), d))
    raise AssertionError("no position with a winning move in 200 games")


@pytest.mark.parametrize(("name", "make"), AGENTS, ids=[a[0] for a in AGENTS])
def test_an_agent_takes_a_move_that_wins_at_once(name: str, make: Any) -> None:
    game, _ = _winning_position()
    d = game.decision
    choice = make(3).choose(game.view(d.player), d)
    game.answer(choice)
    assert game.over and game.winner == d.player


def test_mcts_spends_its_budget_on_each_decision_with_options() -> None:
    game = at_decision(6, 5)
    agent = MctsAgent(2, budget=7)
    d = game.decision
    agent.choose(game.view(d.player), d)
    assert (agent.decisions, agent.simulations) == (1, 7)


class TurnsSeen(RolloutPolicy):
    """The rollout policy, noting the turn and whose it was at each decision it answers."""

    def __init__(self, rng: random.Random) -> None:
        super().__init__(rng)
        self.seen: list[tuple[int, int]] = []

    def choose(self, view: Any, decision: Any) -> Any:
        self.seen.append((view.turn, view.active))
        return super().choose(view, decision)


class RolloutsSeen(MctsAgent):
    """mcts, noting for each rollout where it began, the turns its policy played and whether
    it ended in a win."""

    def __init__(self, seed: int, **options: Any) -> None:
        super().__init__(seed, **options)
        self.rollout_policy = self.policy = TurnsSeen(random.Random(seed))
        self.rollouts: list[tuple[tuple[int, int], list[tuple[int, int]], bool]] = []

    def _rollout(self, world: Any, me: int, start: int, decisions: int) -> float:
        begin, self.policy.seen = (world.turn, world.active), []
        score = super()._rollout(world, me, start, decisions)
        self.rollouts.append((begin, self.policy.seen, world.winner is not None))
        return score


@pytest.mark.parametrize("rollout_turns", [1, 2, 3])
@pytest.mark.parametrize(("seed", "turn"), [(1, 4), (2, 7), (3, 10)])
def test_mcts_rollouts_play_out_to_the_end_of_the_searchers_own_turn(
        seed: int, turn: int, rollout_turns: int) -> None:
    game = at_decision(seed, turn)
    me = game.decision.player
    mcts = RolloutsSeen(5, budget=12, rollout_turns=rollout_turns)
    mcts.choose(game.view(me), game.decision)
    cut_off = 0
    for (begin, active), seen, won in mcts.rollouts:
        # his first own turn to end for rollout_turns 1-2 (the one under way counts), his
        # second for 3: never the opponent's random turn last (the native twin's stop)
        last = begin + (active != me) + 2 * ((rollout_turns + 1) // 2 - 1)
        assert all(t <= last for t, _ in seen)
        if seen and not won:
            assert seen[-1] == (last, me)
            cut_off += 1
    assert cut_off


def test_mcts_frees_each_simulated_world_when_its_simulation_ends() -> None:
    """Its throw-away worlds hold no reference cycle: each is freed as its simulation ends,
    without the cyclic collector (a view cached on the world would keep it as garbage)."""
    game = at_decision(6, 5)
    d = game.decision
    view = game.view(d.player)
    worlds: list[weakref.ref[Any]] = []

    class Recording:
        def __getattr__(self, name: str) -> Any:
            return getattr(view, name)

        def determinize(self, rng: random.Random, **options: Any) -> Any:
            world = view.determinize(rng, **options)
            worlds.append(weakref.ref(world))
            return world

    gc.collect()
    gc.disable()
    try:
        MctsAgent(2, budget=7).choose(Recording(), d)  # type: ignore[arg-type]
        alive = sum(w() is not None for w in worlds)
    finally:
        gc.enable()
    assert len(worlds) == 7 and alive == 0


def test_lookahead_agents_are_registered_with_their_options() -> None:
    mcts: Any = make_agent("mcts:budget=9,rollout_turns=1,hp=2", seed=1)
    assert (mcts.budget, mcts.rollout_turns, mcts.weights.hp) == (9, 1, 2.0)
    greedy: Any = make_agent("greedy:samples=2,threat=0", seed=1)
    assert (greedy.samples, greedy.weights.threat) == (2, 0.0)


@pytest.mark.parametrize("workers", [{"workers": 2}, {"dask_workers": 1}], ids=["local", "dask"])
def test_greedy_and_mcts_play_whole_games_in_simulate_the_same_anywhere(workers: dict[str, int]) -> None:
    if "dask_workers" in workers:
        pytest.importorskip("distributed")
    tiers = [("greedy", "random"), ("mcts:budget=4,rollout_turns=1", "greedy")]
    chunks = plan(["alap"], pairings(DECKS), 2, chunk_size=1, agents=tiers, max_turns=12)
    serial = simulate(chunks, workers=1)
    assert [o.error for o in serial.outcomes] == [None] * 4
    assert serial.outcomes == simulate(chunks, **workers).outcomes
    # and a game of it is the game the agents play seated in one process
    first = serial.outcomes[0]
    agents = [make_agent(spec, seed=agent_seed(first.seed, i)) for i, spec in enumerate(tiers[0])]
    game = ENGINE.new_game(list(first.decks), agents, seed=first.seed, log_level="outcome")
    game.play(max_turns=12)
    assert (game.winner, game.turn) == (first.winner, first.turns)


def _greedy_first_action(hand: list[str], opponent: dict[str, Any], vp: int = 6,
                         **mine: Any) -> str:
    """Greedy's answer to the first action decision of a built position: ``hand`` in its hand,
    ``vp`` VP, a plain creature of its own in the guard post (unless ``mine`` says otherwise);
    the opponent as given."""
    from hkk import build_position

    me = {"hand": hand, "vp": vp, "components": 2, "guard_post": ["alap:falusi-milicia"],
          **mine}
    game = build_position(ENGINE, [me, opponent], agents=[None, None])
    game.agents[0] = game.agents[1] = None  # answered from outside
    d = game.decision
    assert d is not None and d.player == 0 and d.kind == "action"
    return GreedyAgent(1).choose(game.view(0), d).label


def test_greedy_plays_a_targeted_damage_spell_that_kills_a_creature() -> None:
    # Tűzlabda: 3 damage to an opponent's creature: it kills the 4/3 Tengeri kígyó, not the
    # 3/5 Kőgólem (damage wears off at the end of the turn); its value shows only once its
    # target is chosen - the best of the two - and it resolves
    opponent = {"guard_post": ["alap:tengeri-kigyo", "alap:kogolem"], "hp": 20}
    assert _greedy_first_action(["alap:tuzlabda"], opponent) == "play alap:tuzlabda"


def test_greedy_plays_an_instant_that_kills_a_creature() -> None:
    # Pajzstörés (instant): 1 damage to an opponent's creature, which has 1 Ép
    opponent = {"guard_post": ["alap:tuzmano"], "hp": 20}
    assert _greedy_first_action(["alap:pajzstores"], opponent) == "play alap:pajzstores"


def test_greedy_plays_a_building_whose_effect_comes_later() -> None:
    # Lángoló totem: 2 damage to the opponent in its owner's next preparation phase, which
    # wins here; nothing changes at once when it is played
    opponent = {"guard_post": ["alap:kogolem"], "hp": 2}
    assert _greedy_first_action(["alap:langolo-totem"], opponent) == "play alap:langolo-totem"


#: A deck whose draw greedy cannot afford: the card in hand is its only play.
UNAFFORDABLE = ["alap:jegorias"] * 5


@pytest.mark.parametrize(("card", "vp"), [("alap:runako", 1), ("alap:mana-kut", 2)])
def test_greedy_plays_a_building_that_gives_vp_turn_after_turn(card: str, vp: int) -> None:
    # Rúnakő: 1 VP at the end of each turn, 3 times; Mana kút: +1 VP regeneration in each of
    # its owner's preparation phases. With VP to spare and nothing else to play, each pays for
    # itself; on its Sp alone a building was worth less than the card and its VP
    opponent = {"guard_post": ["alap:kogolem"], "hand": ["alap:tuzmano"] * 3}
    assert _greedy_first_action([card], opponent, vp=vp, deck=UNAFFORDABLE) == f"play {card}"


def test_greedy_plays_a_building_that_damages_each_creature_the_opponent_plays() -> None:
    # Lávaárok: 1 damage to each creature entering play on the opponent's side; he holds
    # Tűzmanós (2/1), which it kills as they come
    opponent = {"guard_post": ["alap:kogolem"], "hand": ["alap:tuzmano"] * 3}
    assert _greedy_first_action(["alap:lavaarok"], opponent, vp=2, deck=UNAFFORDABLE) == \
        "play alap:lavaarok"


def test_greedy_plays_an_instant_that_lets_its_blocker_survive_the_attack() -> None:
    # The opponent's turn (D-combat): his ready Zsoldos (3/3) attacks next and would kill the
    # player (3 Ép) unblocked; the Falusi milícia (2/2) must block and would die. Jégpáncél
    # in the opponent's main phase: +2 Ép until the preparation phase, so the milícia survives
    # the block. Combat has no window between blocks and damage: the instant is played before
    from hkk import build_position

    game = build_position(ENGINE, [{"hand": ["alap:jegpancel"], "vp": 1, "hp": 3,
                                    "guard_post": ["alap:falusi-milicia"]},
                                   {"guard_post": ["alap:zsoldos"], "deck": UNAFFORDABLE}],
                          agents=[None, None], active=1)
    game.agents[0] = game.agents[1] = None
    while game.decision.player == 1:  # the opponent passes his main phase's actions
        game.answer("pass")
    d = game.decision
    assert d.labels() == ["play alap:jegpancel", "pass"]
    assert GreedyAgent(1).choose(game.view(0), d).label == "play alap:jegpancel"
