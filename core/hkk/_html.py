"""Self-contained HTML pages: the ``hkk simulate --html`` report, the ``hkk gallery`` spoiler
page of a set's cards and the ``hkk play --html`` game timeline.

Jinja2 templates (``hkk/templates/pages``) with autoescaping: names and texts from a set's files
are shown as text, never as markup.  Each page carries its data as JSON in a ``<script
type="application/json">`` block (what the page shows is made from it, and tests compare the two).
Plots are drawn by Plotly's JavaScript, inlined from the ``plotly`` package so the report works
offline and in one file.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from hkk._card_text import card_lines, text_from_data
from hkk._errors import HkkError
from hkk._event_text import EventRenderer
from hkk._markup import plain


def _environment() -> Any:
    try:
        import jinja2
    except ImportError:  # pragma: no cover - a dependency of hkk
        raise HkkError("the HTML pages need Jinja2: pip install jinja2") from None
    env = jinja2.Environment(loader=jinja2.PackageLoader("hkk", "templates/pages"),
                             autoescape=True, undefined=jinja2.StrictUndefined)
    env.filters["data_json"] = _data_json
    return env


def _data_json(data: Any) -> Any:
    """JSON for a ``<script type="application/json">`` block.  The HTML parser ends the block at
    ``</script`` and changes state at ``<!--``, whatever JSON says, so every ``<``, ``>`` and
    ``&`` is written as its JSON escape (``\\u003c``…): still the same JSON, never markup.
    (``<\\!--`` would hide the comment from the parser, but it is not JSON.)"""
    from markupsafe import Markup

    text = json.dumps(data, ensure_ascii=False, sort_keys=True)
    return Markup(text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026"))


def plotly_js() -> str:
    """plotly.js from the ``plotly`` package (``pip install 'hkk[html]'``), to inline."""
    try:
        from plotly.offline import get_plotlyjs
    except ImportError:
        raise HkkError("the simulation report draws its plots with Plotly: "
                           "pip install 'hkk[html]'") from None
    js: str = get_plotlyjs()
    return js.replace("</script", "<\\/script")


# -- the simulation report --------------------------------------------------------------------

def report_page(summary: Mapping[str, Any], meta: Mapping[str, Any]) -> str:
    """The report of ``hkk simulate``: pairings with Wilson intervals, the win-rate heat map,
    the turns histogram, the sortable per-card table."""
    return str(_environment().get_template("report.html.j2").render(
        summary=summary, meta=meta, plotly_js=plotly_js()))


# -- the spoiler gallery of a set ---------------------------------------------------------------

def card_entries(cards: Sequence[Any], decks: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The gallery's data: each card with its words as ``hkk cards`` prints them and the decks
    that hold it (deck name -> copies)."""
    entries = []
    for card in cards:
        lines = [plain(line).strip() for line in card_lines(card)]
        stats: dict[str, Any] = {}
        if card.kind == "creature":
            stats = {"damage": card.damage, "hp": card.hp, "components": card.components}
        elif card.kind == "building":
            stats = {"sp": card.sp}
        used_in = {name: deck.cards[card.id] for name, deck in sorted(decks.items())
                   if card.id in deck.cards}
        generated = text_from_data(card)
        entries.append({"id": card.id, "name": card.name, "kind": card.kind,
                        "cost": {"vp": card.cost.vp, "components": card.cost.components},
                        "stats": stats, "text": card.text or "", "summary": lines[0],
                        "text_from_data": generated or "", "flavor": card.flavor,
                        "abilities": lines[1 + bool(card.text) + bool(card.flavor):],
                        "decks": used_in})
    return entries


def gallery_page(code: str, label: str, entries: Sequence[Mapping[str, Any]]) -> str:
    return str(_environment().get_template("gallery.html.j2").render(
        code=code, label=label, cards=entries))


# -- one game's timeline ------------------------------------------------------------------------

class GameRecorder:
    """Listens to every event of a game and keeps, beside each, its readable line and what the
    event changed on the board: the whole board at the game's start and at each turn's start, and
    for every other event the changes from the board before it (:func:`board_changes`), which the
    page's script makes in order.  So the page grows with the events, not with events times the
    board (issue 24.7: an 83-turn game's page was 6.6 MB with a board after every event, 1.9 MB
    so)."""

    def __init__(self, game: Any) -> None:
        self.game = game
        self.renderer = EventRenderer(game.cards, [p.name for p in game.players])
        self.events: list[dict[str, Any]] = []
        self.boards: list[dict[str, Any]] = []
        self._last: dict[str, Any] | None = None
        game.log.subscribe(self._on_event)

    def _on_event(self, event: Any) -> None:
        line = self.renderer.line(event)
        board = self._board()
        entry = {**event.as_dict(), "text": plain(line).strip() if line else event.kind}
        if self._last is None or event.kind == "turn_started":
            entry["board"] = len(self.boards)
            self.boards.append(board)
        else:
            changes = board_changes(self._last, board)
            if changes:
                entry["changes"] = changes
        self._last = board
        self.events.append(entry)

    def _board(self) -> dict[str, Any]:
        game = self.game
        snap: dict[str, Any] = game.snapshot()
        for uid, perm in snap["permanents"].items():
            card = game.cards.get(perm["card"])
            perm["name"] = card.name if card is not None else perm["card"]
            perm["uid"] = uid
        return snap  # permanents stay keyed by uid: one entering play is one change

    def page(self, title: str) -> str:
        game = self.game
        data = {"title": title, "players": [p.name for p in game.players],
                "winner": game.winner, "turns": game.turn, "events": self.events,
                "boards": self.boards}
        return str(_environment().get_template("game.html.j2").render(data=data, title=title))


def board_changes(old: Any, new: Any, path: tuple[Any, ...] = ()) -> list[list[Any]]:
    """What turns board ``old`` into ``new``, as ``[path, value]`` (set the key or index at the
    end of ``path`` to ``value``) and ``[path]`` (remove that key), made in order.  Dicts and
    lists of one length are compared item by item; anything else that differs is replaced."""
    if old == new:
        return []
    if isinstance(old, dict) and isinstance(new, dict):
        changes: list[list[Any]] = [[[*path, key]] for key in old if key not in new]
        for key, value in new.items():
            if key in old:
                changes += board_changes(old[key], value, (*path, key))
            else:
                changes.append([[*path, key], value])
        return changes
    if isinstance(old, list) and isinstance(new, list) and len(old) == len(new):
        changes = []
        for index, (before, after) in enumerate(zip(old, new, strict=True)):
            changes += board_changes(before, after, (*path, index))
        return changes
    return [[list(path), new]]
