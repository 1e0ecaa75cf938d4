"""Driving a game from outside, copying it at a decision and resampling what a player cannot
know: the functions behind ``game.decision``, ``game.answer``, ``game.clone`` and
``game.determinize``.

Where a game stands is its machine's position (:mod:`hkk._forward`): answering puts the
answer in and runs the machine on from its frames (:func:`run_on`); a copy is a copy of the
state and of the frames (:mod:`hkk._clone`).  Nothing is run again from a copy, and no stack
frame is read.
"""

from __future__ import annotations

import copy
import random
from typing import TYPE_CHECKING, Any

from hkk._clone import CloneError, copy_game
from hkk._errors import IllegalDecision
from hkk._forward import Stop, index_of
from hkk._game import Game
from hkk._player_view import hide_event
from hkk._runner import advance

if TYPE_CHECKING:
    from hkk._decisions import Decision

__all__ = ["answer", "clone", "decision", "determinize", "run_on"]


def run_on(game: Game, max_turns: int | None = None) -> None:
    """Run the machine from where it stands to the next decision of a seat without an agent
    (``game.machine.waiting``), or to the game's end (or ``max_turns``)."""
    machine = game.machine
    machine.waiting = None
    machine.running = True
    try:
        while advance(game, max_turns):
            pass
    except Stop as stop:
        machine.waiting = machine.found = stop.args[0]
    finally:
        machine.running = False
        machine.stopped = None  # (set by answer() for this run only)


def decision(game: Game) -> Decision | None:
    """What the game waits for: run up to its first decision if it has not run yet (or go back
    down to it: a determinized copy's options are its own)."""
    machine = game.machine
    if machine.waiting is None and not game.over and not machine.running \
            and None in game.agents:
        run_on(game)
    return machine.waiting


def answer(game: Game, chosen: Any) -> None:
    """Answer the decision the game waits for and run on (``game.answer``)."""
    machine = game.machine
    waiting = machine.waiting or decision(game)  # (read already: the usual case)
    if waiting is None:
        raise IllegalDecision("the game waits for no decision" + (
            " (it is over)" if game.over else
            " (every seat has an agent: play it with game.play())"))
    machine.answer = index_of(waiting, chosen)
    if waiting is machine.found:  # its options are taken again, not collected again
        machine.stopped = waiting
    run_on(game)


# -- copies ---------------------------------------------------------------------------------------

def _copyable(game: Game) -> None:
    """A game is copied between two steps or at a decision: inside a step, anywhere else (a
    log listener, a hook), its position is not one the machine can go on from."""
    machine = game.machine
    if machine.running and machine.asking is None:
        raise CloneError("this game is running a step and stands at no decision (a copy from a "
                         "log listener or a hook): copy it at a decision (game.decision, or "
                         "in an agent's choose) or between two steps")


def clone(game: Game, *, log_level: str | None = None) -> Game:
    """An independent copy (``game.clone()``): given the same answers it goes on exactly as
    the original; nothing done to it reaches the original."""
    _copyable(game)
    agents = _copied_agents(game.agents)
    return copy_game(game, Game.__new__(Game), log_level=log_level, agents=agents)


def _copied_agents(agents: list[Any]) -> list[Any]:
    """The seats' agents for a copy: their own copies, so that what an agent remembers or
    draws in the copy never changes the original's."""
    copied: list[Any] = []
    for agent in agents:
        if agent is None:
            copied.append(None)
            continue
        try:  # an agent that says how it is copied, without deepcopy's bookkeeping
            own = getattr(type(agent), "__deepcopy__", None)
            copied.append(own(agent, {}) if own is not None else copy.deepcopy(agent))
        except Exception as exc:  # noqa: BLE001 - any failure is the agent's, named
            raise CloneError(f"the agent {type(agent).__qualname__} cannot be copied with the "
                             f"game ({type(exc).__name__}: {exc}); give it a __deepcopy__"
                             ) from None
    return copied


# -- what a player cannot know ---------------------------------------------------------------------

def determinize(game: Game, player: int, rng: random.Random, *,
                log_level: str | None = None) -> Game:
    """A copy in which everything hidden from ``player`` - the opponent's hand, the order of
    both decks - is replaced by a random assignment consistent with what he knows; both seats
    answered from outside.  The copy's seed and RNG are its own, drawn from ``rng`` (the
    game's would tell the real shuffles), and its past log is the player's view of it at any
    level (:func:`hkk._player_view.hide_event`).  The decision it waits for is its own (found
    again on first reading: a card in the other hand may differ)."""
    _copyable(game)
    new = copy_game(game, Game.__new__(Game), log_level=log_level, agents=[None, None])
    if not new.started:  # set-up is the step: its shuffle will deal the decks again
        for p in new.players:
            _shuffle(rng, p.deck)
    else:
        _resample(new, player, rng)
    new.seed = rng.getrandbits(64)
    new.rng.seed(new.seed)
    new.log._events = [hide_event(e, player) for e in new.log._events]
    new.machine.waiting = None
    return new


def _resample(new: Game, player: int, rng: random.Random) -> None:
    """Shuffle what ``player`` does not know in ``new``: the order of his own deck, and the
    other player's hand and deck dealt again from the same cards."""
    me, them = new.players[player], new.players[1 - player]
    if len(me.deck) > 1:
        rest = sorted(me.deck)  # sorted: the true order never shows
        _shuffle(rng, rest)
        me.deck[:] = rest
    # sorted first: the deal depends on what he may know (which cards, not where they are), so
    # two games that differ only in what is hidden from him give him the same copies; dealt
    # to the hand's places, then the deck's
    hand, deck = them.hand, them.deck
    cards = sorted(hand + deck)
    _shuffle(rng, cards)
    hand[:] = cards[:len(hand)]
    deck[:] = cards[len(hand):]


def _shuffle(rng: random.Random, cards: list[str]) -> None:
    """``rng.shuffle(cards)``, the same draws: ``random.Random.shuffle``'s loop with its
    ``_randbelow`` written in (a call less a card; a determinized copy shuffles some 70),
    where the RNG draws below a bound by ``getrandbits`` (else its own ``shuffle``)."""
    if getattr(rng._randbelow, "__func__", None) is not _RANDBELOW:  # type: ignore[attr-defined]
        rng.shuffle(cards)
        return
    getrandbits = rng.getrandbits
    for i in reversed(range(1, len(cards))):
        n = i + 1
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        cards[i], cards[j] = cards[j], cards[i]


#: random.Random's _randbelow by getrandbits, which :func:`_shuffle` writes in
_RANDBELOW = random.Random._randbelow_with_getrandbits  # type: ignore[attr-defined]
