"""What the page of ``hkk serve`` shows of a position, as JSON-ready data.

Made only from the person's view (``game.view(player)``: his own hand, the other hand as a
count) and the decision he is asked, so that nothing hidden from him reaches the browser.  The
log is the event renderer's words with their rule points (:class:`hkk._event_text.EventRenderer`,
Ép checks in which nobody dies left out, as ``hkk play --brief``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from hkk._card_text import card_lines
from hkk._decisions import Decision, option_data
from hkk._event_text import EventRenderer
from hkk._event_words import EventWords, game_summary
from hkk._markup import INDENT, plain

#: How many of the log's last lines the page gets.
LOG_LINES = 400

#: Why the game ended, in words (the ``reason`` of the ``game_over`` event).
_REASONS = {"hp": "{loser}'s Ép fell to 0", "empty_deck": "{loser} had to draw from an empty deck",
            "turn_limit": "the turn limit was reached"}

#: What a decision asks, where its prompt is empty or a step's name.
_ASKS = {"start": "start the game, or hand the first turn over?", "action": "your move",
         "attack": "attack?", "extract": "extract components?", "target": "choose a target"}

_CARD_ID = re.compile(r"[a-z][a-z0-9_]*:[a-z0-9][a-z0-9_-]*")


def card_json(card: Any) -> dict[str, Any]:
    """A card as the page shows it: its name, kind, cost, numbers and words."""
    lines = [plain(line).strip() for line in card_lines(card)]
    entry: dict[str, Any] = {"id": card.id, "name": card.name, "kind": card.kind,
                             "vp": card.cost.vp, "components": card.cost.components,
                             "text": card.text or "", "abilities": lines[1:]}
    if card.kind == "creature":
        entry.update(damage=card.damage, hp=card.hp)
    elif card.kind == "building":
        entry.update(sp=card.sp)
    return entry


def named(text: str, cards: Mapping[str, Any]) -> str:
    """``attack with alap:langorzo#1`` -> ``attack with Lángőrző#1``: card ids as names."""
    def name(match: re.Match[str]) -> str:
        card = cards.get(match.group(0))
        return card.name if card is not None else match.group(0)
    return _CARD_ID.sub(name, text)


def log_lines(view: Any) -> list[dict[str, str]]:
    """The log in words, each line with its kind (``turn`` lines start a turn).  The other
    player's drawn cards are never named, nor how many options his decisions offered (the
    view hides both; this says so in words), nor the game's seed."""
    names = [p.name for p in view.players]
    renderer = EventRenderer(view.cards, names, quiet_checks=True)
    lines: list[dict[str, str]] = []
    for event in view.log:
        kind = event.kind
        theirs = kind in ("card_drawn", "decision") and event.player != view.player
        line: str | None
        if kind == "game_started":  # not its seed: the page shows that once the game is over
            line = f"Game: decks of {' and '.join(str(n) for n in event.decks)} cards"
        elif kind == "card_drawn":
            drawn = "a card" if theirs else view.cards[event.card].name
            line = f"{INDENT}{names[event.player]} draws {drawn}"
        elif kind == "decision" and theirs:  # how many options he had is his to know
            rule = f" ({event.rule})" if event.rule else ""
            line = f"{INDENT}{names[event.player]} {event.decision}: {event.choice}{rule}"
        else:
            line = renderer.line(event)
        if line is None:
            continue
        text = plain(line)
        if event.kind == "decision":  # its option's label names cards by id
            text = named(text, view.cards)
        lines.append({"kind": "turn" if event.kind == "turn_started" else event.kind,
                      "text": text.strip()})
    return lines


def winner_json(view: Any) -> dict[str, Any] | None:
    """Who won and why, from the last event (``game_over``); None while the game goes on."""
    if not view.over:
        return None
    ended = next((e for e in reversed(list(view.log)) if e.kind == "game_over"), None)
    reason = ended.reason if ended is not None else ""
    rule = ended.rule if ended is not None else None
    names = [p.name for p in view.players]
    winner = view.winner
    loser = names[1 - winner] if winner is not None else "nobody"
    why = _REASONS.get(reason, reason).format(loser=loser)
    headline = "Draw" if winner is None else \
        ("You win" if winner == view.player else f"{names[winner]} wins")
    return {"player": winner, "name": None if winner is None else names[winner],
            "reason": reason, "rule": rule,
            "text": f"{headline}: {why}" + (f" ({rule})" if rule else "")}


def decision_json(decision: Decision | None, cards: Mapping[str, Any]) -> dict[str, Any] | None:
    if decision is None:
        return None
    prompt = named(decision.prompt, cards)
    if decision.kind in _ASKS:
        prompt = _ASKS[decision.kind] + (f" ({prompt.replace('_', ' ')})" if prompt else "")
    # what a card on the table stands for, read from the labels the page is sent anyway:
    # ``data`` the option's card, uid, ability or player; ``subject`` what the prompt names
    # (the attacker a block is asked for, the spell or ability a target is chosen for)
    return {"kind": decision.kind, "prompt": prompt,
            "rule": decision.rule, "subject": option_data(decision.prompt),
            "options": [{"index": i, "label": named(o.label, cards), "raw": o.label,
                         "data": o.data}
                        for i, o in enumerate(decision.options)]}


def attack_json(view: Any) -> dict[str, Any] | None:
    """This turn's last combat as the log tells it (every answer in it is public): the
    attackers, and for each attacker its blocker (``None``: unblocked), as far as they are
    chosen; None before any attack this turn."""
    log = list(view.log)
    start = None
    for i in range(len(log) - 1, -1, -1):
        e = log[i]
        if e.turn != view.turn:
            break
        if e.kind == "resolving" and e.item == "attack" and e.card is None:
            start = i
            break
    if start is None:
        return None
    attackers: list[int] = []
    blockers: list[int | None] = []
    for e in log[start + 1:]:
        if e.kind == "attack":  # the combat as it was fought
            return {"attackers": list(e.attackers or []),
                    "blockers": list(e.blockers or []), "fought": True}
        if e.kind == "decision" and e.decision in ("attack", "block"):
            uid = option_data(str(e.choice)).get("uid")
            if e.decision == "attack" and uid is not None:
                attackers.append(uid)
            elif e.decision == "block":
                blockers.append(uid)
    return {"attackers": attackers, "blockers": blockers, "fought": False}


def position_json(view: Any, decision: Decision | None) -> dict[str, Any]:
    """Everything the page shows of the position the person is at."""
    cards = view.cards
    players = []
    for p in view.players:
        players.append({
            "index": p.index, "name": p.name, "you": p.index == view.player,
            "hp": p.hp, "vp": p.vp, "components": p.components,
            "hand": None if p.hand is None else [card_json(cards[c]) for c in p.hand],
            "hand_size": p.hand_size, "deck_size": p.deck_size,
            "graveyard": [cards[c].name for c in p.graveyard],
            # the public piles the page lets the person browse
            "graveyard_cards": [card_json(cards[c]) for c in p.graveyard],
            "void_cards": [card_json(cards[c]) for c in p.void]})
    board = []
    for uid, perm in view.permanents.items():
        board.append({"uid": uid, "controller": perm.controller, "zone": perm.zone,
                      "active": perm.active, "damage": view.damage_value(perm),
                      "hp": view.hp(perm), "max_hp": view.max_hp(perm),
                      "defence_bonus": perm.defence_bonus,
                      "counters": dict(sorted(perm.counters.items())),
                      "card": card_json(perm.card)})
    names = [p.name for p in view.players]
    words = EventWords(cards, names, view.player).sentences(view.log)
    return {"turn": view.turn, "active": view.active, "you": view.player,
            "players": players, "permanents": board,
            "decision": decision_json(decision, cards), "winner": winner_json(view),
            "log": log_lines(view)[-LOG_LINES:], "events": words[-LOG_LINES:],
            "attack": attack_json(view),
            "summary": game_summary(view.log, names, view.player) if view.over else None}
