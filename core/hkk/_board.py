"""What a player is shown at his decision: the board as he may know it, the decision and its
options, and the texts of the cards he can see - as plain data, then as rich markup lines.

The data comes from a player's view (``game.view(player)``, :class:`hkk.PlayerView`): both
boards, both graveyards, his own hand, and of the opponent's hand and of both decks only their
sizes - so nothing here can show what the player may not know.  ``hkk play --human``
(:mod:`hkk._terminal`) prints the lines; a web page can render the same data (``board_data``,
``decision_data``) its own way.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from hkk._card_text import card_lines
from hkk._markup import INDENT, escape

__all__ = ["board_data", "board_lines", "card_text_lines", "decision_data", "decision_lines",
           "readable"]

#: The order the zones are shown in, with their names in words.
ZONES = (("guard_post", "guard post"), ("reserve", "reserve"), ("buildings", "buildings"))

# A card id as labels and prompts write it (``alap:langorzo``), with a permanent's uid
# (``#3``), an ability's index (``:0``) and the event that triggered it (``@961``) after it.
_CARD_REF = re.compile(r"(?P<id>[A-Za-z0-9_]+:[A-Za-z0-9_-]+)(?:#(?P<uid>\d+))?"
                       r"(?::(?P<ability>\d+))?(?:@(?P<seq>\d+))?")


def _name(cards: Mapping[str, Any], card_id: str) -> str:
    card = cards.get(card_id)
    return str(card.name) if card is not None else card_id


def _card_entry(cards: Mapping[str, Any], card_id: str) -> dict[str, Any]:
    card = cards.get(card_id)
    entry: dict[str, Any] = {"id": card_id, "name": _name(cards, card_id)}
    if card is not None:
        entry.update(kind=card.kind, vp=card.cost.vp, components=card.cost.components)
    return entry


def _permanent(view: Any, perm: Any) -> dict[str, Any]:
    return {"uid": perm.uid, "card": perm.card.id, "name": _name(view.cards, perm.card.id),
            "kind": perm.kind, "zone": perm.zone, "active": perm.active,
            "damage": view.damage_value(perm), "hp": view.hp(perm),
            "max_hp": view.max_hp(perm), "defence_bonus": perm.defence_bonus,
            "counters": dict(sorted(perm.counters.items()))}


def board_data(view: Any) -> dict[str, Any]:
    """The board as ``view.player`` may know it, as plain JSON-ready data: the turn, whose turn
    it is, and per player Ép, VP, components, the sizes of hand and deck, the graveyard, the
    permanents in play and - for the viewer only - the hand (None for the opponent's)."""
    players = []
    for index, player in enumerate(view.players):
        hand = player.hand  # a tuple for the viewer's own, None for the opponent's
        players.append({
            "index": index, "name": getattr(player, "name", f"P{index + 1}"),
            "hp": player.hp, "vp": player.vp, "components": player.components,
            "hand": None if hand is None else [_card_entry(view.cards, c) for c in hand],
            "hand_size": player.hand_size, "deck_size": player.deck_size,
            "graveyard": list(player.graveyard),
            "permanents": [_permanent(view, p) for p in view.permanents.values()
                           if p.controller == index],
        })
    return {"turn": view.turn, "active": view.active, "viewer": view.player,
            "players": players}


def decision_data(decision: Any, cards: Mapping[str, Any]) -> dict[str, Any]:
    """A decision as plain data: who decides what under which rule, and each option's label
    with its words (card ids named)."""
    return {"player": decision.player, "kind": decision.kind, "rule": decision.rule,
            "prompt": decision.prompt, "prompt_text": readable(decision.prompt, cards),
            "options": [{"label": o.label, "text": readable(o.label, cards)}
                        for o in decision.options]}


def readable(text: str, cards: Mapping[str, Any]) -> str:
    """``text`` (an option's label, a prompt) with each card id it names in words:
    ``attack with alap:langorzo#1`` -> ``attack with Lángőrző (alap:langorzo)#1``; an ability
    (``…#11:0``) and the event it answers (``@961``) too.  Plain text, no markup."""
    def name(match: re.Match[str]) -> str:
        card_id = match["id"]
        if card_id not in cards:
            return match[0]
        words = f"{_name(cards, card_id)} ({card_id})"
        if match["uid"]:
            words += f"#{match['uid']}"
        if match["ability"]:
            words += f" ability {match['ability']}"
        if match["seq"]:
            words += f" (on event {match['seq']})"
        return words
    return _CARD_REF.sub(name, text)


# -- as markup lines -----------------------------------------------------------------------------

def _permanent_text(p: Mapping[str, Any]) -> str:
    stat = "Ép" if p["kind"] == "creature" else "Sp"
    parts = [f"{p['damage']} dmg"] if p["kind"] == "creature" else []
    parts.append(f"{stat} {p['hp']}/{p['max_hp']}")
    if p["kind"] == "creature":
        parts.append("active" if p["active"] else "passive")
    if p["defence_bonus"]:
        parts.append(f"defence +{p['defence_bonus']}")
    parts += [f"{n} {name}" for name, n in p["counters"].items()]
    return f"[cyan]{escape(p['name'])}[/cyan] [dim]#{p['uid']}[/dim] {escape(', '.join(parts))}"


def _hand_text(card: Mapping[str, Any]) -> str:
    cost = [f"{card.get('vp', 0)} VP"]
    if card.get("components"):
        cost.append(f"{card['components']} comp.")
    return (f"[cyan]{escape(card['name'])}[/cyan] [dim]({escape(card['id'])}, "
            f"{card.get('kind', '?')}, {', '.join(cost)})[/dim]")


def _player_lines(board: Mapping[str, Any], player: Mapping[str, Any]) -> list[str]:
    who = "you" if player["index"] == board["viewer"] else "opponent"
    turn = ", [bold]to move[/bold]" if player["index"] == board["active"] else ""
    lines = [f"[bold]{escape(player['name'])}[/bold] ({who}{turn}): Ép {player['hp']} · "
             f"VP {player['vp']} · components {player['components']} · hand "
             f"{player['hand_size']} · deck {player['deck_size']} · graveyard "
             f"{len(player['graveyard'])}"]
    for zone, words in ZONES:
        here = [_permanent_text(p) for p in player["permanents"] if p["zone"] == zone]
        lines.append(f"{INDENT}{words}: " + ("; ".join(here) if here else "[dim]-[/dim]"))
    if player["hand"] is not None:
        lines.append(f"{INDENT}hand:" + ("" if player["hand"] else " [dim]empty[/dim]"))
        lines += [f"{INDENT * 2}{_hand_text(c)}" for c in player["hand"]]
    return lines


def board_lines(board: Mapping[str, Any]) -> list[str]:
    """The board as markup lines: the opponent's side first (across the table), then the
    viewer's, with his hand."""
    viewer = board["viewer"]
    order = sorted(board["players"], key=lambda p: p["index"] == viewer)
    lines = [f"[bold reverse] Turn {board['turn']} [/bold reverse]"]
    for player in order:
        lines += _player_lines(board, player)
    return lines


def decision_lines(decision: Mapping[str, Any], names: list[str]) -> list[str]:
    """The decision and its options, numbered from 1, as markup lines."""
    rule = f", rule {escape(decision['rule'])}" if decision["rule"] else ""
    prompt = f": {escape(decision['prompt_text'])}" if decision["prompt"] else ""
    count = len(decision["options"])
    lines = [f"[bold]{escape(names[decision['player']])}[/bold] decides "
             f"[yellow]{escape(decision['kind'])}[/yellow]{prompt} [dim]({count} "
             f"options{rule})[/dim]"]
    for number, option in enumerate(decision["options"], start=1):
        lines.append(f"{INDENT}[bold]{number}[/bold]  {escape(option['text'])}")
    return lines


def card_text_lines(view: Any) -> list[str]:
    """The texts of the cards ``view.player`` can see in play (both sides) and in his hand
    (``?`` at the prompt): each card once, as ``hkk cards`` prints it."""
    in_play = [p.card.id for p in view.permanents.values()]
    hand = list(view.players[view.player].hand or ())
    lines: list[str] = []
    for title, ids in (("in play", in_play), ("in your hand", hand)):
        seen = [c for i, c in enumerate(ids) if c not in ids[:i] and c in view.cards]
        lines.append(f"[bold]Cards {title}[/bold]" + ("" if seen else ": [dim]none[/dim]"))
        for card_id in seen:
            lines += [INDENT + line for line in card_lines(view.cards[card_id])]
    return lines
