"""The position builder: a game standing where a test (or an analysis) wants it.

:func:`build_position` (``hkk.build_position``; ``hkk.testing.build_game`` and pytest-hkk's
``build_game`` / ``hkk_game`` are this same function) makes a game of the Python engine that has
not started a turn, with given cards in given zones and given numbers, and no set-up (no
shuffle, no deal: :func:`set_up_by_hand`).  It is the one documented way to put a game in a
position; from there it is a :class:`hkk.ForwardModel` like any other (``decision``,
``answer``, ``clone``, ``save``).  A save of it loads on any core that loads saves.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from hkk._decisions import Decision, Option
from hkk._engine import Engine
from hkk._errors import BadArgument
from hkk._game import Game
from hkk._protocol import FairView
from hkk._state import BUILDINGS, GUARD_POST, RESERVE
from hkk.events import GameStarted

__all__ = ["NUMBERS", "PassingAgent", "ZONES", "build_position", "filler_card",
           "set_up_by_hand"]

#: Keys of a player's spec in :func:`build_position`: zones of card ids.
ZONES = ("hand", "deck", "graveyard", RESERVE, GUARD_POST, BUILDINGS)
#: Keys of a player's spec in :func:`build_position`: numbers.
NUMBERS = ("hp", "vp", "components")


class PassingAgent:
    """Passes the current step at every action decision (``pass``); anything else gets the
    first legal option.  Predictable players for tests.

    It never passes the whole turn (``pass turn``, 41.5): that would skip combat and the
    player's optional end-of-turn abilities unasked, so a test's unscripted decision could hide
    the very thing it meant to test.  Passing the turn is only ever scripted."""

    def choose(self, game: FairView, decision: Decision) -> Option:
        if decision.kind == "action":
            for option in decision.options:
                if option.label == "pass":
                    return option
        return decision.options[0]


def set_up_by_hand(game: Game, *, active: int = 0) -> Game:
    """Mark a game that has not started as set up: playing it (``game.play()``,
    :func:`advance`, :class:`Turn`) neither shuffles nor deals, and ``active`` plays the first
    turn.  Logs ``game_started`` with ``built`` true.  Put cards where they belong first or
    after (``player.hand``, ``game.enter_play``)."""
    if game.started:
        raise BadArgument("the game is already set up")
    game.started = True
    game.emit(GameStarted, seed=game.seed, decks=[len(p.deck) for p in game.players],
              built=True)
    game.active = active
    return game


def filler_card(engine: Engine) -> str:
    """A vanilla creature (no abilities) of the loaded sets, for default decks."""
    plain_cards = sorted(c.id for c in engine.cards.values()
                         if c.kind == "creature" and not c.abilities)
    if plain_cards:
        return str(plain_cards[0])
    if not engine.cards:
        raise BadArgument("the engine has no cards; install a set or give decks")
    return str(min(engine.cards))


def build_position(engine: Engine, players: Sequence[Mapping[str, Any]] = ({}, {}), *,
               agents: Sequence[Any] | None = None, seed: int = 0, active: int = 0) -> Game:
    """A game that has not started a turn: each player's spec gives zones (``hand``, ``deck``,
    ``graveyard``: card ids, top of the deck last; ``reserve``, ``guard_post``, ``buildings``:
    card ids put into play, **active**) and numbers (``hp``, ``vp``, ``components``).  A
    player without ``deck`` gets 20 copies of a vanilla creature; an agent that is None (or no
    ``agents``) is a :class:`PassingAgent`.  No setup happens (no shuffle, no opening hand:
    :func:`set_up_by_hand`); ``active`` plays the first turn.  Permanents entering here fire
    no entry triggers.  The game's sets are those of every card in the spec (and their
    dependencies): only their hooks are called."""
    if len(players) != 2:
        raise BadArgument(f"a game has two players, not {len(players)}")
    for index, spec in enumerate(players):
        unknown = sorted(set(spec) - set(ZONES) - set(NUMBERS))
        if unknown:
            raise BadArgument(f"player {index}: unknown keys {unknown}; use {ZONES + NUMBERS}")
        missing = sorted({c for zone in ZONES for c in spec.get(zone, ())} - set(engine.cards))
        if missing:
            raise BadArgument(f"player {index}: unknown cards {missing}")
    decks = [list(spec["deck"]) if "deck" in spec else [filler_card(engine)] * 20
             for spec in players]
    agents = agents or (PassingAgent(), PassingAgent())
    agents = [a if a is not None else PassingAgent() for a in agents]
    # the game is dealt every card of the spec (its deck and the cards put in other zones): so
    # its sets are the sets of all of them (hkk._game_sets: a hand of a set's cards calls the
    # set's hooks), and its save finds each card in exactly one zone
    dealt = [deck + [c for zone in ZONES if zone != "deck" for c in spec.get(zone, ())]
             for deck, spec in zip(decks, players, strict=True)]
    game = engine.new_game(dealt, agents=agents, seed=seed)
    for player, deck in zip(game.players, decks, strict=True):
        player.deck = deck
    set_up_by_hand(game, active=active)
    for index, spec in enumerate(players):
        player = game.players[index]
        player.hand.extend(spec.get("hand", ()))
        player.graveyard.extend(spec.get("graveyard", ()))
        for name in NUMBERS:
            if name in spec:
                setattr(player, name, spec[name])
        for zone in (RESERVE, GUARD_POST, BUILDINGS):
            for card_id in spec.get(zone, ()):
                game.enter_play(index, card_id, zone, active=True)
    return game
