"""Helpers for testing card sets and games: public and stable, like the names in ``hkk``.

``pytest-hkk`` is built on this module alone (with ``hkk``); it works outside pytest too::

    from hkk import Engine
    from hkk.testing import Turn, build_game

    game = build_game(Engine.installed(), [{"hand": ["alap:tuzmano"], "vp": 3}, {}])
    Turn(game).run_to("end_stage2")          # the steps before end_stage2
    assert game.log.of_kind("card_played")

What it offers:

- **building a game in a given state**: :func:`build_game` (cards in zones, numbers, no setup),
  and for a game made otherwise :func:`set_up_by_hand` (mark it set up, so that playing it
  neither shuffles nor deals, logging ``game_started`` with ``built`` true);
  :class:`PassingAgent`, a predictable player; :data:`ZONES` and :data:`NUMBERS`, the keys of
  a player's spec;
- **walking steps**: :class:`Turn` (``Turn(game)`` starts a turn; ``run_to(hook,
  inclusive=False)``, ``run_next()``, ``finish()``), :func:`play_game` (on to the end) and
  :func:`advance` (to the next step boundary);
- **reading logs**: :class:`EventRenderer` (``EventRenderer(cards).line(event)``: an event as a
  rich markup line, or None) and :func:`plain` (markup to text);
- **verifying sets**: :func:`verify` (``hkk verify`` as a function; also importable as
  ``hkk.verify.verify``), :func:`verify_lines` (its report as markup lines) and
  :func:`discover_sets` (what set discovery finds installed: ``.sets``, ``.failures``,
  ``.disabled``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from hkk._decisions import Decision, Option
from hkk._engine import Engine
from hkk._errors import BadArgument
from hkk._event_text import EventRenderer
from hkk._game import Game
from hkk._markup import plain
from hkk._plugin import make_plugin_manager
from hkk._runner import Turn, advance, play_game
from hkk._sets.discovery import Discovery, discover
from hkk._state import BUILDINGS, GUARD_POST, RESERVE
from hkk._verify_text import verify_lines
from hkk.events import GameStarted
from hkk.verify import verify

__all__ = ["BUILDINGS", "EventRenderer", "GUARD_POST", "NUMBERS", "PassingAgent", "RESERVE",
           "Turn", "ZONES", "advance", "build_game", "discover_sets", "filler_card", "plain",
           "play_game", "set_up_by_hand", "verify", "verify_lines"]

#: Keys of a player's spec in :func:`build_game`: zones of card ids.
ZONES = ("hand", "deck", "graveyard", RESERVE, GUARD_POST, BUILDINGS)
#: Keys of a player's spec in :func:`build_game`: numbers.
NUMBERS = ("hp", "vp", "components")


class PassingAgent:
    """Passes the current step at every action decision (``pass``); anything else gets the
    first legal option.  Predictable players for tests.

    It never passes the whole turn (``pass turn``, 41.5): that would skip combat and the
    player's optional end-of-turn abilities unasked, so a test's unscripted decision could hide
    the very thing it meant to test.  Passing the turn is only ever scripted."""

    def choose(self, game: Game, decision: Decision) -> Option:
        if decision.kind == "action":
            for option in decision.options:
                if option.label == "pass":
                    return option
        return decision.options[0]


def discover_sets() -> Discovery:
    """The sets installed: what discovery finds with a fresh plugin manager (``.sets`` by code,
    ``.failures``, ``.disabled``)."""
    return discover(pm=make_plugin_manager())


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


def build_game(engine: Engine, players: Sequence[Mapping[str, Any]] = ({}, {}), *,
               agents: Sequence[Any] | None = None, seed: int = 0, active: int = 0) -> Game:
    """A game that has not started a turn: each player's spec gives zones (``hand``, ``deck``,
    ``graveyard``: card ids, top of the deck last; ``reserve``, ``guard_post``, ``buildings``:
    card ids put into play, **active**) and numbers (``hp``, ``vp``, ``components``).  A
    player without ``deck`` gets 20 copies of a vanilla creature; an agent that is None (or no
    ``agents``) is a :class:`PassingAgent`.  No setup happens (no shuffle, no opening hand:
    :func:`set_up_by_hand`); ``active`` plays the first turn.  Permanents entering here fire
    no entry triggers."""
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
    game = engine.new_game(decks, agents=agents, seed=seed)
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
