"""Self-contained HTML pages: the ``hkk simulate --html`` report, the ``hkk gallery`` spoiler
page of a set's cards (its card images are files beside it, ``cards/*.svg``) and the ``hkk play
--html`` game timeline.

Jinja2 templates (``hkk/templates/pages``) with autoescaping: names and texts from a set's files
are shown as text, never as markup.  Each page carries its data as JSON in a ``<script
type="application/json">`` block (what the page shows is made from it, and tests compare the two).
The report's charts are HTML and CSS made here (:func:`report_charts`): bars, a heat map and a
histogram need no plotting library (plotly.js, inlined, was 4.8 MB of a 4.9 MB page), and their
labels wrap like any text instead of being cut off at a plot's margin.
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
    env.filters["rate"] = rate
    env.filters["p_value"] = p_value
    return env


def _data_json(data: Any) -> Any:
    """JSON for a ``<script type="application/json">`` block.  The HTML parser ends the block at
    ``</script`` and changes state at ``<!--``, whatever JSON says, so every ``<``, ``>`` and
    ``&`` is written as its JSON escape (``\\u003c``…): still the same JSON, never markup.
    (``<\\!--`` would hide the comment from the parser, but it is not JSON.)"""
    from markupsafe import Markup

    text = json.dumps(data, ensure_ascii=False, sort_keys=True)
    return Markup(text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026"))


# -- the simulation report's numbers and charts -------------------------------------------------

def rate(value: float | None) -> str:
    """A rate, a bound or a difference with three decimals (``0.500``); empty for None."""
    return "" if value is None else f"{value:.3f}"


def p_value(value: float | None) -> str:
    """A p- or q-value with three decimals, ``<0.001`` below that; empty for None."""
    if value is None:
        return ""
    return "<0.001" if value < 0.001 else f"{value:.3f}"


#: The endings of a game, in the order the bars stack them, with their colours.
ENDINGS = (("hp", "#2f6fb0"), ("empty_deck", "#e08a1e"), ("turn_limit", "#3a9a4a"))


def _heat(value: float | None) -> str:
    """The colour of a win rate: white at 0.5, blue towards 0, red towards 1."""
    if value is None:
        return "#f4f4f4"
    far = min(1.0, abs(value - 0.5) * 2)
    end = (178, 24, 43) if value > 0.5 else (33, 102, 172)
    red, green, blue = (round(255 + (c - 255) * far) for c in end)
    return f"rgb({red}, {green}, {blue})"


def report_charts(summary: Mapping[str, Any]) -> dict[str, Any]:
    """What the report's charts show, ready for the template: the endings of each tier and
    pairing as stacked bars (widths in % of its games), the win-rate matrix with each cell's
    colour, and the turns histogram with a column for every turn count from the least to the
    most (heights in % of the tallest)."""
    endings = []
    for tier in summary["balance"]["tiers"]:
        for pairing in tier["pairings"]:
            games = sum(pairing["endings"].get(name, 0) for name, _ in ENDINGS) or 1
            endings.append({
                "label": f"{tier['label']}: {pairing['decks'][0]} vs {pairing['decks'][1]}",
                "parts": [{"name": name, "colour": colour, "games": pairing["endings"].get(name, 0),
                           "width": round(100 * pairing["endings"].get(name, 0) / games, 2)}
                          for name, colour in ENDINGS if pairing["endings"].get(name, 0)]})
    matrix = summary["matrix"]
    rows = [{"deck": deck, "cells": [{"opponent": other, "rate": value, "colour": _heat(value)}
                                     for other, value in zip(matrix["decks"], row, strict=True)]}
            for deck, row in zip(matrix["decks"], matrix["win_rate"], strict=True)]
    counts = {int(turns): games for turns, games in summary["turns"]["histogram"].items()}
    tallest = max(counts.values(), default=1)
    columns = [{"turns": t, "games": counts.get(t, 0),
                "height": round(100 * counts.get(t, 0) / tallest, 2)}
               for t in range(min(counts, default=0), max(counts, default=-1) + 1)]
    return {"endings": endings, "endings_legend": ENDINGS, "matrix": rows, "turns": columns,
            "tallest": tallest}


# -- the simulation report --------------------------------------------------------------------

def report_page(summary: Mapping[str, Any], meta: Mapping[str, Any]) -> str:
    """The report of ``hkk simulate``: pairings with Wilson intervals, the endings, the
    win-rate heat map, the turns histogram, the sortable per-card tables."""
    return str(_environment().get_template("report.html.j2").render(
        summary=summary, meta=meta, charts=report_charts(summary)))


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

    def __init__(self, game: Any, cards: Any = None) -> None:
        self.game = game
        self.cards = game.cards if cards is None else cards
        self.renderer = EventRenderer(self.cards, [p.name for p in game.view(0).players])
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
            card = self.cards.get(perm["card"])
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
