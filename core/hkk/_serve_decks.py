"""The deck builder of ``hkk serve`` (issue 33 item 2): its page (``/decks``) and endpoints.

The page browses the installed sets' cards (each drawn by :func:`hkk._card_image.card_svg`),
adds and removes copies, and asks the server what the chosen format says of the deck as it
grows: the engine's format rules (:func:`hkk._formats.violations`), not a copy of them in the
page.  A deck is saved as the deck file the sets ship and the CLI reads (a ``decks/*.toml`` of
``[[decks]]``, :class:`hkk._cards.decks.DeckFile`), read back with the set loader's own parser
before it is offered: the page downloads it (the server writes no file: no path ever comes
from a request).  Put in a set's ``decks/`` folder it plays with ``hkk play --decks SET:NAME``.
And a game starts with it against the computer's deck of the table.

Routes (under the table's guard, :mod:`hkk._serve_guard`): ``GET /decks`` the page,
``GET /api/decks/cards`` (cards, formats, the sets' decks), ``POST /api/decks/check``,
``POST /api/decks/file``, ``POST /api/decks/play`` (each takes ``{"name", "title", "format",
"cards": {card id: copies}}``).
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

from hkk._card_image import engine_card_svg
from hkk._cards.decks import Deck, DeckFile
from hkk._cards.loader import _parse_toml, _validate
from hkk._formats import CASUAL, DeckFormat, describe_rules, find_format, violations
from hkk._serve_game import PlayedGame
from hkk._serve_guard import Refused
from hkk._serve_state import card_json
from hkk._serve_watch import deck_lists

if TYPE_CHECKING:
    from starlette.routing import BaseRoute

    from hkk._engine import Engine

__all__ = ["BuiltDeck", "deck_toml", "read_deck", "read_deck_file", "routes"]

#: The page's HTML (its token written in, as the table's page).
PAGE = Path(__file__).parent / "templates" / "serve" / "deck.html"


class BuiltDeck:
    """A deck as the page built it, every field checked: the :class:`Deck` a set's file holds
    and the format it is checked against."""

    def __init__(self, deck: Deck, fmt: DeckFormat) -> None:
        self.deck = deck
        self.format = fmt

    def card_ids(self) -> list[str]:
        return sorted(c for c, n in self.deck.cards.items() for _ in range(n))


def _bad(field: str, why: str) -> Refused:
    return Refused(400, f"{field}: {why}")


def read_deck(data: Any, engine: Engine) -> BuiltDeck:
    """The deck the page sends, or a :class:`Refused` (400) naming the first bad field:
    ``name`` (a slug, the file's name), ``title``, ``format`` (``casual`` or one a loaded set
    ships), ``cards`` (card id -> copies, each a card of the installed sets)."""
    if not isinstance(data, dict):
        raise _bad("the request", "must be a JSON object with 'name', 'format' and 'cards'")
    unknown = sorted(set(data) - {"name", "title", "format", "cards"})
    if unknown:
        raise _bad(unknown[0], "no such field; a deck has 'name', 'title', 'format', 'cards'")
    cards = data.get("cards")
    if not isinstance(cards, dict):
        raise _bad("cards", "must be a JSON object of card id -> copies")
    for card_id, copies in cards.items():
        if card_id not in engine.cards:
            raise _bad(f"cards.{card_id[:80]}", "unknown card (no installed set has it)")
        if type(copies) is not int or copies < 1:
            raise _bad(f"cards.{card_id}", f"copies must be a whole number from 1, not "
                                           f"{json.dumps(copies)[:40]}")
    name = data.get("format", CASUAL)
    if not isinstance(name, str):
        raise _bad("format", "must be a format's name")
    formats = engine.discovery.formats if engine.discovery is not None else {}
    try:
        fmt = find_format(name, formats)
    except Exception as exc:  # noqa: BLE001 - HkkError naming the formats known
        raise _bad("format", str(exc)) from None
    try:
        deck = Deck(name=data.get("name", "my-deck"), title=data.get("title", ""), cards=cards,
                    formats=() if fmt.name == CASUAL else (fmt.name,))
    except ValidationError as exc:
        first = exc.errors()[0]
        field = ".".join(str(part) for part in first["loc"]) or "the deck"
        raise _bad(field, first["msg"]) from None
    return BuiltDeck(deck, fmt)


def deck_toml(deck: Deck) -> str:
    """The deck as a set's ``decks/*.toml`` file (what the loader reads); JSON's string
    escapes are TOML's basic strings'."""
    lines = ["# A deck made with hkk serve's deck builder: put this file in a set's decks/",
             f"# folder and play it with hkk play --decks SET:{deck.name}", "[[decks]]",
             f"name = {json.dumps(deck.name)}", f"title = {json.dumps(deck.title)}"]
    if deck.formats:
        lines.append(f"formats = [{', '.join(json.dumps(f) for f in deck.formats)}]")
    lines += ["", "[decks.cards]"]
    lines += [f"{json.dumps(card_id)} = {copies}" for card_id, copies in sorted(deck.cards.items())]
    return "\n".join(lines) + "\n"


def read_deck_file(set_code: str, rel_path: str, text: str) -> DeckFile:
    """A deck file read as the set loader reads it (:func:`hkk._cards.loader.load_set_decks`):
    CardDataError naming file and line for anything it would refuse."""
    read: DeckFile = _validate(DeckFile, set_code, rel_path,
                               _parse_toml(set_code, rel_path, text), text)
    return read


def check_json(built: BuiltDeck, engine: Engine) -> dict[str, Any]:
    """What the page shows of a deck: its size, and each way it breaks its format."""
    found = violations(built.format, built.deck.cards, engine.cards)
    return {"size": built.deck.size, "format": built.format.name, "legal": not found,
            "rules": describe_rules(built.format),
            "problems": [{"kind": v.kind, "message": v.message, "card": v.card} for v in found]}


def catalogue(engine: Engine) -> dict[str, Any]:
    """Every card of the installed sets (with its picture), the formats, the sets' decks."""
    formats = engine.discovery.formats if engine.discovery is not None else {}
    cards = []
    for card in sorted(engine.cards.values(), key=lambda c: c.id):
        entry = card_json(card)
        entry.update(set=card.id.split(":", 1)[0], svg=engine_card_svg(engine, card))
        cards.append(entry)
    return {"cards": cards,
            "formats": [{"name": CASUAL, "title": "Casual", "rules": "any deck"}] +
                       [{"name": name, "title": fmt.rules.title, "rules": describe_rules(fmt)}
                        for name, fmt in sorted(formats.items())],
            "decks": {name: dict(deck.cards) for name, deck in sorted(engine.decks.items())}}


def routes(table: Any, *, guarded: Callable[[Any], Callable[[Any], Any]],
           acting: Callable[[Any], Callable[[Any], Any]],
           reply: Callable[..., Any], token: str,
           headers: Mapping[str, str]) -> list[BaseRoute]:
    """The deck builder's page and routes, under the table's guard (``guarded``, ``acting``),
    the page with ``headers`` and the server's ``token``.  ``table``: the app's
    :class:`hkk._serve.Table` (not imported: it imports this module)."""
    from starlette.concurrency import run_in_threadpool
    from starlette.responses import HTMLResponse
    from starlette.routing import Route

    from hkk._serve_guard import parse_json, read_body

    def page(request: Any) -> Any:
        html = PAGE.read_text(encoding="utf-8").replace("{{ token }}", token)
        return HTMLResponse(html, headers=dict(headers))

    def reading(answer: Callable[[Any], dict[str, Any]]) -> Callable[[Any], Any]:
        """A POST that reads a deck and answers about it, changing nothing."""
        async def endpoint(request: Any) -> Any:
            try:
                body = await read_body(request.stream(), request.headers.get("content-length"))
                data = parse_json(body)
                return reply(await run_in_threadpool(answer, data))
            except Refused as exc:
                return reply({"error": str(exc)}, exc.status)
        return guarded(endpoint)

    async def cards(request: Any) -> Any:
        return reply(await run_in_threadpool(catalogue, table.sets.engine))

    def check(data: Any) -> dict[str, Any]:
        engine = table.sets.engine
        return check_json(read_deck(data, engine), engine)

    def file(data: Any) -> dict[str, Any]:
        deck = read_deck(data, table.sets.engine).deck
        text = deck_toml(deck)
        read_deck_file("deck-builder", f"decks/{deck.name}.toml", text)  # as the CLI reads it
        return {"filename": f"{deck.name}.toml", "text": text}

    def play(data: Any) -> None:
        engine = table.sets.engine
        built = read_deck(data, engine)
        if not built.deck.cards:
            raise _bad("cards", "the deck is empty")
        theirs = deck_lists(engine, table.deck_names[1:])[0]
        seed = secrets.randbits(32)  # as each game's: nobody can foresee it

        def make(shown: PlayedGame) -> PlayedGame:  # the game shown meanwhile: not used
            played = PlayedGame.new(engine, [built.card_ids(), theirs], seed,
                                    table._opponent(1), names=table.names)
            _ = played.decision  # the computer's moves up to the person's decision
            return played
        label = f"{built.deck.name} (built) vs {table.deck_names[1]}"
        table._replace(table._change(make), loaded=True, label=label)

    return [Route("/decks", page),
            Route("/api/decks/cards", guarded(cards)),
            Route("/api/decks/check", reading(check), methods=["POST"]),
            Route("/api/decks/file", reading(file), methods=["POST"]),
            Route("/api/decks/play", acting(play), methods=["POST"])]
