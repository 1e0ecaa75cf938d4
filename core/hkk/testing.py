"""Helpers for testing card sets and games: public and stable, like the names in ``hkk``.

``pytest-hkk`` is built on this module alone (with ``hkk``); it works outside pytest too::

    from hkk import Engine
    from hkk.testing import Turn, build_game

    game = build_game(Engine.installed(), [{"hand": ["alap:tuzmano"], "vp": 3}, {}])
    Turn(game).run_to("end_stage2")          # the steps before end_stage2
    assert game.log.of_kind("card_played")

What it offers:

- **building a game in a given state**: :func:`build_game` (cards in zones, numbers, no setup:
  the position builder, ``hkk.build_position``, docs/FORWARD-MODEL.md),
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

from hkk._event_text import EventRenderer
from hkk._markup import plain
from hkk._plugin import make_plugin_manager
from hkk._position import (
    NUMBERS,
    ZONES,
    PassingAgent,
    build_position,
    filler_card,
    set_up_by_hand,
)
from hkk._runner import Turn, advance, play_game
from hkk._sets.discovery import Discovery, discover
from hkk._state import BUILDINGS, GUARD_POST, RESERVE
from hkk._verify_text import verify_lines
from hkk.verify import verify

__all__ = ["BUILDINGS", "EventRenderer", "GUARD_POST", "NUMBERS", "PassingAgent", "RESERVE",
           "Turn", "ZONES", "advance", "build_game", "discover_sets", "filler_card", "plain",
           "play_game", "set_up_by_hand", "verify", "verify_lines"]


def discover_sets() -> Discovery:
    """The sets installed: what discovery finds with a fresh plugin manager (``.sets`` by code,
    ``.failures``, ``.disabled``)."""
    return discover(pm=make_plugin_manager())


#: The position builder (:func:`hkk.build_position`), by its name here.
build_game = build_position
