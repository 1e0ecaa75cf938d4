"""The sandbox of ``hkk serve`` (issue 33 item 2): a position the person sets up, played on.

The page sends the whole position it wants (each player's hand, graveyard, reserve, guard post
and buildings, his Ép, VP and components, a creature's Ép, who moves first); the server checks
every field before anything changes (400 naming the field: an unknown card, a zone that does not
exist, a spell put into play, a negative number), then makes the game with the documented
position builder (:func:`hkk.build_position`, on the Python engine: the one ``hkk.testing``
uses) and plays on from there: the person at seat 0, the table's computer at seat 1.  Each
player's deck is the table's deck for his seat, shuffled with the game's seed.  A creature's Ép
below its max is damage marked on it (``damage_taken``, as 41.3 restores it).  The position is
a game like any other: the page saves it (``hkk-save/4``), loads it, takes back.

The person who sets the position up knows both hands: the page says so ("sandbox: both hands
shown"); the game's view afterwards is the person's fair view as ever.

Routes (under the table's guard, :mod:`hkk._serve_guard`): ``GET /api/sandbox/cards`` (every
card of the installed sets, the zones), ``POST /api/sandbox/play`` (the position).
"""

from __future__ import annotations

import json
import random
import secrets
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from hkk._characteristics import max_hp
from hkk._position import PassingAgent, build_position
from hkk._serve_game import PlayedGame
from hkk._serve_guard import Refused
from hkk._serve_watch import deck_lists
from hkk._state import BUILDINGS, GUARD_POST, RESERVE

if TYPE_CHECKING:
    from starlette.routing import BaseRoute

    from hkk._engine import Engine
    from hkk._game import Game

__all__ = ["IN_PLAY", "MAX_CARDS", "NUMBERS", "ZONES", "SandboxPosition", "build_sandbox",
           "read_position", "routes"]

#: The zones a card can be put in, and the kind of card each zone of play takes.
IN_PLAY = {RESERVE: "creature", GUARD_POST: "creature", BUILDINGS: "building"}
ZONES = ("hand", "graveyard", *IN_PLAY)
#: A player's numbers the sandbox sets, each with its least value: a player at 0 Ép has lost.
NUMBERS = {"hp": 1, "vp": 0, "components": 0}
#: The most a number may be, and the most cards a player may be given (the work stays small).
MAX_NUMBER = 999
MAX_CARDS = 120


class SandboxPosition:
    """A position as the page asked for it, every field checked: ``specs`` for
    :func:`hkk.build_position`, each permanent's Ép where it was set (player, zone, index ->
    Ép), who moves first."""

    def __init__(self, specs: list[dict[str, Any]], hp: dict[tuple[int, str, int], int],
                 active: int) -> None:
        self.specs = specs
        self.hp = hp
        self.active = active


def _bad(field: str, why: str) -> Refused:
    return Refused(400, f"{field}: {why}")


def _number(value: Any, field: str, least: int, most: int = MAX_NUMBER) -> int:
    if type(value) is not int:
        raise _bad(field, f"must be a whole number, not {json.dumps(value)[:40]}")
    if not least <= value <= most:
        raise _bad(field, f"{value} is out of range: from {least} to {most}")
    return value


def _card(value: Any, field: str, cards: Mapping[str, Any]) -> str:
    if not isinstance(value, str):
        raise _bad(field, f"must be a card id, not {json.dumps(value)[:40]}")
    if value not in cards:
        raise _bad(field, f"unknown card {value[:80]!r} (no installed set has it)")
    return value


def read_position(data: Any, cards: Mapping[str, Any]) -> SandboxPosition:
    """The position the page asks for, or a :class:`Refused` (400) naming the first bad field:
    ``{"players": [P1, P2], "active": 0}``, each player ``{"hand": [card id, ...],
    "graveyard": [...], "reserve" / "guard_post" / "buildings": [{"card": id, "hp": Ép}, ...],
    "hp": Ép, "vp": VP, "components": n}`` (every key optional)."""
    if not isinstance(data, dict):
        raise _bad("the request", "must be a JSON object with 'players'")
    unknown = sorted(set(data) - {"players", "active"})
    if unknown:
        raise _bad(unknown[0], "no such field; a position has 'players' and 'active'")
    players = data.get("players")
    if not isinstance(players, list) or len(players) != 2:
        raise _bad("players", "must be a list of the two players")
    active = _number(data.get("active", 0), "active", 0, 1)
    specs: list[dict[str, Any]] = []
    hps: dict[tuple[int, str, int], int] = {}
    for index, player in enumerate(players):
        where = f"players[{index}]"
        if not isinstance(player, dict):
            raise _bad(where, "must be a JSON object of zones and numbers")
        spec: dict[str, Any] = {}
        for key, value in player.items():
            field = f"{where}.{key}"
            if key in NUMBERS:
                spec[key] = _number(value, field, NUMBERS[key])
            elif key in ZONES:
                if not isinstance(value, list):
                    raise _bad(field, "must be a list of cards")
                spec[key] = [_zone_card(item, f"{field}[{i}]", key, cards, hps, (index, key, i))
                             for i, item in enumerate(value)]
            else:
                raise _bad(field, f"no such zone or number; zones: {', '.join(ZONES)}; "
                                  f"numbers: {', '.join(NUMBERS)}")
        count = sum(len(spec.get(zone, ())) for zone in ZONES)
        if count > MAX_CARDS:
            raise _bad(where, f"{count} cards; the sandbox takes at most {MAX_CARDS} a player")
        specs.append(spec)
    return SandboxPosition(specs, hps, active)


def _zone_card(item: Any, field: str, zone: str, cards: Mapping[str, Any],
               hps: dict[tuple[int, str, int], int], at: tuple[int, str, int]) -> str:
    """One card of a zone: an id (a hand, a graveyard) or ``{"card": id, "hp": Ép}`` (in play,
    ``hp`` optional); a creature goes to the reserve or the guard post, a building to the
    buildings."""
    if zone not in IN_PLAY:
        return _card(item, field, cards)
    if isinstance(item, str):
        item = {"card": item}
    if not isinstance(item, dict):
        raise _bad(field, "must be a card id or {\"card\": id, \"hp\": Ép}")
    extra = sorted(set(item) - {"card", "hp"})
    if extra:
        raise _bad(f"{field}.{extra[0]}", "no such field; a card in play has 'card' and 'hp'")
    card_id = _card(item.get("card"), f"{field}.card", cards)
    kind = cards[card_id].kind
    if kind != IN_PLAY[zone]:
        raise _bad(f"{field}.card", f"{card_id} is a {kind}: the {zone.replace('_', ' ')} "
                                    f"takes {IN_PLAY[zone]}s")
    if item.get("hp") is not None:
        hps[at] = _number(item["hp"], f"{field}.hp", 1)
    return card_id


def build_sandbox(engine: Engine, position: SandboxPosition, decks: list[list[str]],
                  opponent: Any, seed: int, names: tuple[str, str]) -> Game:
    """The position as a game (:func:`hkk.build_position`) the person (seat 0) answers from
    outside and ``opponent`` plays at seat 1.  A permanent's Ép above its max is a 400 naming
    the field; nothing was changed (the game is new)."""
    shuffled = []
    for deck in decks:
        deck = list(deck)
        random.Random(seed).shuffle(deck)
        shuffled.append(deck)
    specs = [{"deck": deck, **spec} for deck, spec in zip(shuffled, position.specs, strict=True)]
    game = build_position(engine, specs, agents=[PassingAgent(), opponent], seed=seed,
                          active=position.active)
    game.agents[0] = None  # the person's seat: answered from outside (game.decision)
    for player, name in zip(game.players, names, strict=True):
        player.name = name
    for index in range(len(position.specs)):
        for zone in IN_PLAY:
            # build_position puts a zone's cards into play in its order: uids ascending
            placed = sorted((p for p in game.permanents.values()
                             if p.controller == index and p.zone == zone), key=lambda p: p.uid)
            for i, perm in enumerate(placed):
                wanted = position.hp.get((index, zone, i))
                if wanted is None:
                    continue
                most = max_hp(perm)
                if wanted > most:
                    raise _bad(f"players[{index}].{zone}[{i}].hp",
                               f"{wanted} is more than {engine.cards[perm.card.id].name}'s "
                               f"{most} Ép")
                perm.damage_taken = most - wanted  # damage marked on it, healed as any (41.3)
    return game


def routes(table: Any, *, guarded: Callable[[Any], Callable[[Any], Any]],
           acting: Callable[[Any], Callable[[Any], Any]],
           reply: Callable[..., Any]) -> list[BaseRoute]:
    """The sandbox's routes, under the table's guard (``guarded``, ``acting``).  ``table``:
    the app's :class:`hkk._serve.Table` (not imported: it imports this module)."""
    from starlette.concurrency import run_in_threadpool
    from starlette.routing import Route

    def catalogue() -> dict[str, Any]:
        engine = table.sets.engine
        return {"cards": [{"id": c.id, "name": c.name, "kind": c.kind,
                           "set": c.id.split(":", 1)[0], "hp": getattr(c, "hp", None)}
                          for c in sorted(engine.cards.values(), key=lambda c: c.id)],
                "zones": list(ZONES), "in_play": IN_PLAY, "names": list(table.names)}

    async def cards(request: Any) -> Any:
        return reply(await run_in_threadpool(catalogue))

    def play(data: Any) -> None:
        engine = table.sets.engine
        position = read_position(data, engine.cards)  # every field, before anything changes
        decks = deck_lists(engine, table.deck_names)
        seed = secrets.randbits(32)  # as each game's: nobody can foresee it
        # built here, where a refusal is the request's 400; a new game, so nothing changed yet
        game = build_sandbox(engine, position, decks, table._opponent(1), seed, table.names)

        def make(shown: PlayedGame) -> PlayedGame:  # the game shown meanwhile: not used
            played = PlayedGame(game, 0)
            _ = played.decision  # the computer's moves up to the person's decision
            return played
        # one change at a time, the computer's first moves on a thread (Table._change)
        table._replace(table._change(make), loaded=True, label="a sandbox position")

    return [Route("/api/sandbox/cards", guarded(cards)),
            Route("/api/sandbox/play", acting(play), methods=["POST"])]
