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
from types import TracebackType
from typing import TYPE_CHECKING, Any

from hkk._clone import CloneError, copy_game
from hkk._errors import HkkError, IllegalDecision
from hkk._forward import AwaitDecision, Forward, ReplayError, index_of
from hkk._game import Game
from hkk._player_view import hide_event
from hkk._runner import advance, play_game, resume_step, run_step
from hkk._steps import run_actions

if TYPE_CHECKING:
    from hkk._decisions import Decision

__all__ = ["answer", "clone", "decision", "determinize", "inside_step", "play_forward", "run_on"]


def run_on(game: Game, max_turns: int | None = None) -> None:
    """Run the game from where it stands to the next decision of a seat without an agent, or
    to its end (or ``max_turns``), copying it at every clean position on the way (each step
    boundary, and where it stops at a clean position, when it moves on from there)."""
    forward = game.forward
    assert forward is not None
    while True:
        if forward.checkpoint is None:
            if game.over:
                return
            forward.checkpoint = copy_game(game, Game.__new__(Game))
        forward.clean = False
        try:
            if forward.resume is None:
                going = advance(game, max_turns)
            else:
                going = resume_step(game, forward.resume)
        except AwaitDecision as stop:
            forward.decision = stop.decision
            position = clean_position(stop.__traceback__)
            if position is not None:  # the game stands where it can go on from: no replay
                forward.checkpoint, forward.resume, forward.clean = None, position, True
                forward.answers.clear()
                forward.labels.clear()
                forward.pos = 0
            return
        forward.checkpoint, forward.resume = None, None  # the next step starts from here
        forward.answers.clear()
        forward.labels.clear()
        forward.pos = 0
        if not going:
            return


def clean_position(tb: TracebackType | None) -> tuple[Any, ...] | None:
    """Where the runner stood when a decision stopped it, if that is a clean position: the
    decision asked by an action step's loop itself, whose place is two plain values (whose
    action, whether the active player's pass stands; :func:`hkk._runner.resume_step`)."""
    frames = []  # innermost last, as a live stack read from its top
    while tb is not None:
        frames.append(tb.tb_frame)
        tb = tb.tb_next
    return _action_loop_position(frames[::-1])


def _action_loop_position(frames: list[Any]) -> tuple[Any, ...] | None:
    """The clean position of a stack (innermost frame first) whose decision was asked by an
    action step's loop itself: ... run_actions -> Game.decide -> (the seat)."""
    for i, frame in enumerate(frames):
        if frame.f_code is Game.decide.__code__:
            caller = frames[i + 1] if i + 1 < len(frames) else None
            if caller is not None and caller.f_code is run_actions.__code__ and sum(
                    f.f_code is run_actions.__code__ for f in frames) == 1:
                return ("actions", caller.f_locals["player"], caller.f_locals["active_passed"])
            return None
    return None


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
    if forward.clean:  # it stands where it can go on from: no need to go back
        forward.decision = None
        forward.pos = 0
    else:
        _restart(game, forward)
    forward.answers.append(index)
    forward.labels.append(waiting.options[index].label)
    run_on(game)


def _restart(game: Game, forward: Forward[Game]) -> None:
    """Set the game back to its checkpoint, to run the step again with the answers given."""
    checkpoint = forward.checkpoint
    assert checkpoint is not None
    agents = game.agents
    log = game.log
    if forward.parked is None:  # (still parked if the last run stopped before they came back)
        forward.parked = log.callers_listeners()
    forward.parked_at = len(forward.answers)
    copy_game(checkpoint, game, into_log=log)
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
    if forward.decision is not None and not forward.clean:
        _restart(game, forward)
    forward.decision = None
    if any(getattr(agent, "uses_forward_model", False) for agent in game.agents):
        run_on(game, max_turns)
        return game.winner
    if forward.checkpoint is not None or forward.clean:  # finish the step, then go direct
        try:
            if forward.resume is None:
                advance(game, max_turns)
            else:
                resume_step(game, forward.resume)
        except AwaitDecision:  # every seat has an agent: nothing waits
            raise AssertionError("a seated game stopped") from None
    game.forward = None
    game._seat()
    return play_game(game, max_turns)


# -- copies ---------------------------------------------------------------------------------------

def _at_decision(game: Game) -> tuple[Forward[Game], tuple[Any, ...] | None] | None:
    """Whether the game stands at a decision it can be copied at: waiting for an answer from
    outside, or asking a seated agent right now; and the clean position it stands at, if it
    does (then the game itself is copied; else its checkpoint, and the answers replayed)."""
    forward = game.forward
    if forward is None:
        return None
    if forward.decision is not None:
        return forward, forward.resume if forward.clean else None
    if forward.asking is not None and forward.checkpoint is not None:
        return forward, _asked_at(sys._getframe(2))
    return None


def _asked_at(frame: Any) -> tuple[Any, ...] | None:
    """The clean position the live stack from ``frame`` outwards stands at, if any."""
    frames = []
    while frame is not None:
        frames.append(frame)
        frame = frame.f_back
    return _action_loop_position(frames)


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
    forward, position = at
    if position is not None:
        return _clean_copy(game, forward, position, agents, log_level, None)
    assert forward.checkpoint is not None
    return _replayed_copy(forward.checkpoint, forward, agents, log_level, None)


def _clean_copy(game: Game, forward: Forward[Game], position: tuple[Any, ...], agents: list[Any],
                log_level: str | None, change: Any) -> Game:
    """A copy of a game standing at a clean position: the game itself copied, waiting at the
    same decision (changed by ``change`` first, if given)."""
    new = copy_game(game, Game.__new__(Game), log_level=log_level)
    if change is not None:
        change(new)
    new_forward: Forward[Game] = Forward()
    new_forward.resume, new_forward.clean = position, True
    new_forward.decision = forward.decision or forward.asking
    new.forward = new_forward
    new.agents = agents
    new._seat()
    return new


def _replayed_copy(checkpoint: Game, forward: Forward[Game], agents: list[Any],
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
    copied: list[Any] = []
    for agent in agents:
        if agent is None:
            copied.append(None)
            continue
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
    answered from outside.  The copy's seed and RNG are its own, drawn from ``rng`` (the
    game's would tell the real shuffles), and its past log is the player's view of it
    (:func:`hkk._player_view.hide_event`)."""
    at = _at_decision(game)

    def change(new: Game) -> None:
        if not new.started:  # set-up is the step: it deals again, from the copy's own seed
            new.seed = rng.getrandbits(64)
            new.rng.seed(new.seed)
            return
        _resample(new, game, player, rng)
        new.seed = rng.getrandbits(64)
        new.rng.seed(new.seed)
        new.log._events = [hide_event(e, player) for e in new.log._events]  # any level

    if at is None:
        if inside_step():
            raise CloneError("determinize inside a step needs the forward model (see clone)")
        new = copy_game(game, Game.__new__(Game), log_level=log_level)
        change(new)
        new.agents = [None, None]
        new.forward = Forward()
        new._seat()
        return new
    forward, position = at
    if position is not None:
        return _clean_copy(game, forward, position, [None, None], log_level, change)
    assert forward.checkpoint is not None
    for _ in range(SETUP_TRIES):
        try:
            new = _replayed_copy(forward.checkpoint, forward, [None, None], log_level, change)
        except ReplayError:  # in set-up, the copy's seed chose the other starter: another seed
            if forward.checkpoint.started:
                raise
        else:  # answered by label: an answer's index tells how many options came before it
            answers = new.forward.answers if new.forward is not None else []
            answers[:] = [BY_LABEL] * len(answers)
            return new
    raise ReplayError(f"none of {SETUP_TRIES} seeds of the copy chose the game's starter")


#: A determinized copy's answers so far: found by their labels (:func:`hkk._forward._replayed`).
BY_LABEL = sys.maxsize

#: Seeds tried for a copy made in set-up (at the start decision, rule 28): each chooses the
#: same starter with chance 1/2.
SETUP_TRIES = 64


def _resample(new: Game, live: Game, player: int, rng: random.Random) -> None:
    """Shuffle what ``player`` does not know in ``new`` (a copy of the checkpoint of ``live``,
    or of ``live`` itself), keeping what the step since the checkpoint drew and revealed: the
    cards it will draw for him stay (he sees them), and a card of the opponent's it will reveal
    stays where it is; the rest of the opponent's hand and deck is dealt again at random."""
    me, them = new.players[player], new.players[1 - player]
    now_me, now_them = live.players[player], live.players[1 - player]
    drawn = max(0, len(me.deck) - len(now_me.deck))  # the top of a deck is its end
    if len(me.deck) - drawn > 1:
        rest = sorted(me.deck[:len(me.deck) - drawn])  # sorted: the true order never shows
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
    # sorted first: the deal depends on what he may know (which cards, not where they are), so
    # two games that differ only in what is hidden from him give him the same copies
    cards = sorted(zone[i] for zone, i in free)
    rng.shuffle(cards)
    for (zone, i), card in zip(free, cards, strict=True):
        zone[i] = card
