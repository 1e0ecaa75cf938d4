"""Driving a game from outside, copying it at a decision and resampling what a player cannot
know (issue 21): the functions behind ``game.decision``, ``game.answer``, ``game.clone``,
``game.determinize`` and ``game.play`` of a game answered from outside.

Where such a game stands is :class:`hkk._forward.Forward`: the copy at the last step boundary
(the checkpoint) and the answers given since.  Running on is :func:`advance` one step at a
time, copying at each boundary; answering sets the game back to the checkpoint and runs the
step again with the answers (see :mod:`hkk._forward` for why).
"""

from __future__ import annotations

import copy
import random
import sys
from collections import Counter
from typing import TYPE_CHECKING, Any

from hkk._clone import CloneError, copy_game
from hkk._errors import HkkError, IllegalDecision
from hkk._forward import AwaitDecision, Forward, ReplayError, index_of
from hkk._game import Game
from hkk._player_view import hide_event
from hkk._runner import advance, play_game, run_step

if TYPE_CHECKING:
    from hkk._decisions import Decision

__all__ = ["answer", "clone", "decision", "determinize", "inside_step", "play_forward", "run_on"]


def run_on(game: Game, max_turns: int | None = None) -> None:
    """Run the game from where it stands to the next decision of a seat without an agent, or
    to its end (or ``max_turns``), copying it at every step boundary on the way."""
    forward = game.forward
    assert forward is not None
    while True:
        if forward.checkpoint is None:
            if game.over:
                return
            forward.checkpoint = copy_game(game, Game.__new__(Game))
        try:
            going = advance(game, max_turns)
        except AwaitDecision as stop:
            forward.decision = stop.decision
            return
        forward.checkpoint = None  # the step is over: the next one starts from here
        forward.answers.clear()
        forward.labels.clear()
        forward.pos = 0
        if not going:
            return


def decision(game: Game) -> Decision | None:
    """What the game waits for: run up to its first decision if it has not run yet."""
    forward = game.forward
    if forward is None:
        return None
    if forward.decision is None and forward.checkpoint is None and not game.over:
        if None in game.agents:
            run_on(game)
    return forward.decision


def answer(game: Game, chosen: Any) -> None:
    """Answer the decision the game waits for and run on (``game.answer``)."""
    waiting = decision(game)
    forward = game.forward
    if forward is None or waiting is None:
        raise IllegalDecision("the game waits for no decision" + (
            " (it is over)" if game.over else
            " (every seat has an agent: play it with game.play())" if forward is None else ""))
    index = index_of(waiting, chosen)
    _restart(game, forward)
    forward.answers.append(index)
    forward.labels.append(waiting.options[index].label)
    run_on(game)


def _restart(game: Game, forward: Forward) -> None:
    """Set the game back to its checkpoint, to run the step again with the answers given."""
    checkpoint = forward.checkpoint
    assert checkpoint is not None
    agents = game.agents
    copy_game(checkpoint, game)
    game.agents = agents  # the seats' agents are not the checkpoint's: they went on deciding
    game.forward = forward
    game._seat()
    forward.pos = 0
    forward.decision = None


def play_forward(game: Game, max_turns: int | None = None) -> int | None:
    """``game.play()`` of a game driven by the forward model: every seat must have an agent.
    The step it stands in is finished with the answers given; from the next boundary on, the
    runner calls the agents directly, unless one of them searches (``uses_forward_model``)."""
    forward = game.forward
    assert forward is not None
    if None in game.agents:
        seat = game.agents.index(None) + 1
        raise HkkError(f"player {seat}'s seat has no agent: answer game.decision with "
                       "game.answer(...), or seat an agent (game.agents[i] = agent)")
    if forward.decision is not None:
        _restart(game, forward)
    if any(getattr(agent, "uses_forward_model", False) for agent in game.agents):
        run_on(game, max_turns)
        return game.winner
    if forward.checkpoint is not None:  # finish the step with the answers, then go direct
        advance(game, max_turns)
    game.forward = None
    game._seat()
    return play_game(game, max_turns)


# -- copies ---------------------------------------------------------------------------------------

def _at_decision(game: Game) -> tuple[Game, Forward] | None:
    """The checkpoint and position to copy from, if the game stands at a decision: waiting for
    an answer from outside, or asking a seated agent right now."""
    forward = game.forward
    if forward is None or forward.checkpoint is None:
        return None
    if forward.decision is None and forward.asking is None:
        return None
    return forward.checkpoint, forward


def clone(game: Game, *, log_level: str | None = None) -> Game:
    """An independent copy (``game.clone()``): given the same answers it goes on exactly as
    the original; nothing done to it reaches the original."""
    agents = _copied_agents(game.agents)
    at = _at_decision(game)
    if at is None:
        if inside_step():
            raise CloneError("this game is inside a step and not driven by the forward model: "
                             "copy it at a decision of a seat answered from outside "
                             "(agents=[None, …]) or of an agent with uses_forward_model = True")
        new = copy_game(game, Game.__new__(Game), log_level=log_level)
        new.agents = agents
        new.forward = Forward() if game.forward is not None else None
        new._seat()
        return new
    checkpoint, forward = at
    return _replayed_copy(checkpoint, forward, agents, log_level, None)


def _replayed_copy(checkpoint: Game, forward: Forward, agents: list[Any],
                   log_level: str | None, change: Any) -> Game:
    """A copy of the checkpoint (changed by ``change``, if given) run again to the decision the
    game stands at, with the same answers."""
    new = copy_game(checkpoint, Game.__new__(Game), log_level=log_level)
    if change is not None:
        change(new)
    new_forward = forward.copy()
    new_forward.checkpoint = copy_game(new, Game.__new__(Game)) if change is not None \
        else checkpoint if log_level is None else copy_game(new, Game.__new__(Game))
    new.forward = new_forward
    waiting = forward.decision or forward.asking
    assert waiting is not None
    new.agents = [None, None]  # up to the decision every answer is given
    new._seat()
    run_on(new)
    got = new_forward.decision
    if got is None or got.kind != waiting.kind or got.player != waiting.player:
        raise ReplayError(f"the copy did not stop at player {waiting.player}'s {waiting.kind} "
                          f"decision (it stopped at {got.kind if got else 'none'})")
    new.agents = agents
    new._seat()
    return new


def _copied_agents(agents: list[Any]) -> list[Any]:
    """The seats' agents for a copy: their own copies, so that what an agent remembers or
    draws in the copy never changes the original's."""
    copied = []
    for agent in agents:
        try:
            copied.append(copy.deepcopy(agent))
        except Exception as exc:  # noqa: BLE001 - any failure is the agent's, named
            raise CloneError(f"the agent {type(agent).__qualname__} cannot be copied with the "
                             f"game ({type(exc).__name__}: {exc}); give it a __deepcopy__"
                             ) from None
    return copied


def inside_step() -> bool:
    """Whether the runner is running a step on this thread's stack (only a copy at a step
    boundary, or at a decision of the forward model, is a whole game)."""
    frame: Any = sys._getframe(1)
    code = run_step.__code__
    while frame is not None:
        if frame.f_code is code:
            return True
        frame = frame.f_back
    return False


# -- what a player cannot know ---------------------------------------------------------------------

def determinize(game: Game, player: int, rng: random.Random, *,
                log_level: str | None = None) -> Game:
    """A copy in which everything hidden from ``player`` - the opponent's hand, the order of
    both decks - is replaced by a random assignment consistent with what he knows; both seats
    answered from outside.  The copy's RNG is reseeded from ``rng`` and its past log is the
    player's view of it (:func:`hkk._player_view.hide_event`)."""
    at = _at_decision(game)

    def change(new: Game) -> None:
        if not new.started:  # set-up is the step: its shuffle will deal the decks again
            for p in new.players:  # another order in, another order out, the RNG used alike
                rng.shuffle(p.deck)
            return
        _resample(new, game, player, rng)
        new.rng.seed(rng.getrandbits(64))
        log = new.log
        if log.level == "full":
            log._events = [hide_event(e, player) for e in log._events]

    if at is None:
        if inside_step():
            raise CloneError("determinize inside a step needs the forward model (see clone)")
        new = copy_game(game, Game.__new__(Game), log_level=log_level)
        change(new)
        new.agents = [None, None]
        new.forward = Forward()
        new._seat()
        return new
    checkpoint, forward = at
    return _replayed_copy(checkpoint, forward, [None, None], log_level, change)


def _resample(new: Game, live: Game, player: int, rng: random.Random) -> None:
    """Shuffle what ``player`` does not know in ``new`` (a copy of the checkpoint of ``live``,
    or of ``live`` itself), keeping what the step since the checkpoint drew and revealed: the
    cards it will draw for him stay (he sees them), and a card of the opponent's it will reveal
    stays where it is; the rest of the opponent's hand and deck is dealt again at random."""
    me, them = new.players[player], new.players[1 - player]
    now_me, now_them = live.players[player], live.players[1 - player]
    drawn = max(0, len(me.deck) - len(now_me.deck))  # the top of a deck is its end
    if len(me.deck) - drawn > 1:
        rest = me.deck[:len(me.deck) - drawn]
        rng.shuffle(rest)
        me.deck[:len(rest)] = rest
    # the opponent's cards that leave his hand or deck before the decision are seen: they stay
    seen = Counter(them.hand) + Counter(them.deck)
    seen.subtract(Counter(now_them.hand) + Counter(now_them.deck))
    drawn_them = max(0, len(them.deck) - len(now_them.deck))
    zones = [(them.deck, i) for i in range(len(them.deck) - 1, len(them.deck) - 1 - drawn_them,
                                            -1)]
    zones += [(them.hand, i) for i in range(len(them.hand))]
    zones += [(them.deck, i) for i in range(len(them.deck) - drawn_them)]
    free: list[tuple[list[str], int]] = []
    for zone, i in zones:
        card = zone[i]
        if seen[card] > 0:
            seen[card] -= 1
        else:
            free.append((zone, i))
    cards = [zone[i] for zone, i in free]
    rng.shuffle(cards)
    for (zone, i), card in zip(free, cards, strict=True):
        zone[i] = card
