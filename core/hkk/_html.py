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
from hkk._event_text import EventRenderer
from hkk._markup import plain


def _environment() -> Any:
    try:
        import jinja2
    except ImportError:  # pragma: no cover - a dependency of hkk
        raise RuntimeError("the HTML pages need Jinja2: pip install jinja2") from None
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
        raise RuntimeError("the simulation report draws its plots with Plotly: "
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
    """Listens to every event of a game and keeps, beside each, its readable line and the board
    after it (a snapshot; equal consecutive boards are stored once)."""

    def __init__(self, game: Any) -> None:
        self.game = game
        self.renderer = EventRenderer(game.cards, [p.name for p in game.players])
        self.events: list[dict[str, Any]] = []
        self.boards: list[dict[str, Any]] = []
        self._last = ""
        game.log.subscribe(self._on_event)

    def _on_event(self, event: Any) -> None:
        line = self.renderer.line(event)
        board = self._board()
        text = json.dumps(board, sort_keys=True)
        if text != self._last:
            self.boards.append(board)
            self._last = text
        self.events.append({**event.as_dict(),
                            "text": plain(line).strip() if line else event.kind,
                            "board": len(self.boards) - 1})

    def _board(self) -> dict[str, Any]:
        game = self.game
        snap: dict[str, Any] = game.snapshot()
        for uid, perm in snap["permanents"].items():
            card = game.cards.get(perm["card"])
            perm["name"] = card.name if card is not None else perm["card"]
            perm["uid"] = uid
        snap["permanents"] = list(snap["permanents"].values())
        return snap

    def page(self, title: str) -> str:
        game = self.game
        data = {"title": title, "players": [p.name for p in game.players],
                "winner": game.winner, "turns": game.turn, "events": self.events,
                "boards": self.boards}
        return str(_environment().get_template("game.html.j2").render(data=data, title=title))
