"""A game's events as a player tells them: one plain sentence per event he cares about
(cards played, creatures that enter, move, attack, block, take damage and die, Ép and VP that
change, the end), none for the engine's bookkeeping (steps, moments, Ép checks in which nobody
dies, effects ending).  ``hkk serve`` shows these by default and :mod:`hkk._event_text`'s rules
trace behind a toggle; :func:`game_summary` is the game-over table of the same log.

Made from a player's view only (``view.log``): the other player's drawn cards are ``?`` there,
so they read "draws a card".
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

__all__ = ["EventWords", "game_summary"]

#: The zones as a player says them.
ZONES = {"guard_post": "guard post", "reserve": "reserve", "buildings": "buildings"}

#: Why a game ended (the ``reason`` of ``game_over``), ``{loser}`` the player who lost.
REASONS = {"hp": "{loser}'s Ép fell to 0", "empty_deck": "{loser} had to draw from an empty deck",
           "turn_limit": "the turn limit was reached"}


class EventWords:
    """Turns events into sentences for the player ``me`` (``None``: nobody's own), keeping
    which permanent uid is which card and whose."""

    def __init__(self, cards: Mapping[str, Any], names: Sequence[str], me: int | None) -> None:
        self.cards = cards
        self.names = list(names)
        self.me = me
        self.uids: dict[int, tuple[str, int]] = {}  # uid -> (card id, controller)

    def who(self, player: Any) -> str:
        if player == self.me:
            return "You"
        if isinstance(player, int) and 0 <= player < len(self.names):
            return self.names[player]
        return "The rules"

    def whose(self, player: Any) -> str:
        return "your" if player == self.me else f"{self.who(player)}'s"

    def name(self, card_id: Any) -> str:
        card = self.cards.get(card_id) if isinstance(card_id, str) else None
        return card.name if card is not None else str(card_id)

    def perm(self, uid: Any, card_id: Any = None) -> str:
        known = self.uids.get(uid)
        return self.name(card_id if card_id is not None else known[0] if known else "?")

    def verb(self, player: Any, mine: str, theirs: str) -> str:
        """``mine`` after "You", ``theirs`` after another name."""
        return f"{self.who(player)} {mine if player == self.me else theirs}"

    def sentence(self, e: Any) -> str | None:
        """The event ``e`` in words, or None: not one a player cares about."""
        kind = e.kind
        if kind == "entered_play":
            self.uids[e.uid] = (e.card, e.controller)
            state = "" if e.active else " (passive)"
            return f"{self.name(e.card)} enters {self.whose(e.controller)} " \
                   f"{ZONES.get(e.zone, e.zone)}{state}."
        if kind == "starting_player":
            return self.verb(e.player, "start.", "starts.")
        if kind == "turn_started":
            return f"Turn {e.turn}: {self.whose(e.player)} turn."
        if kind == "card_drawn":
            if e.card == "?" or e.player != self.me:
                return None  # the other's draws: his hand size says it
            return f"You draw {self.name(e.card)}."
        if kind == "card_played":
            return self.verb(e.player, "play", "plays") + f" {self.name(e.card)} ({e.vp} VP)."
        if kind == "moved":
            return f"{self.perm(e.uid, e.card)} moves to the {ZONES.get(e.zone, e.zone)}."
        if kind == "attack":
            return self._attack(e)
        if kind == "damaged":
            return f"{self.perm(e.uid, e.card)} takes {e.amount} damage ({e.after} Ép left)."
        if kind == "player_damaged":
            return self.verb(e.player, "take", "takes") + f" {e.amount} damage (Ép {e.after})."
        if kind in ("died", "destroyed"):
            verb = "dies" if kind == "died" else "is destroyed"
            return f"{self.whose(e.controller).capitalize()} {self.perm(e.uid, e.card)} {verb}."
        if kind == "healed":
            return f"{self.perm(e.uid, e.card)} heals {e.amount}."
        if kind == "player_healed":
            return self.verb(e.player, "heal", "heals") + f" {e.amount} Ép."
        if kind in ("vp_gained", "vp_lost", "vp_regenerated"):
            verb = {"vp_gained": "gain", "vp_lost": "lose", "vp_regenerated": "regenerate"}[kind]
            return self.verb(e.player, verb, verb + "s") + f" {e.amount} VP (now {e.after})."
        if kind == "components_gained":
            return self.verb(e.player, "gain", "gains") + f" {e.amount} component(s)."
        if kind == "components_extracted":
            return self.verb(e.player, "extract", "extracts") + \
                f" {e.amount} component(s) from {self.perm(e.uid, e.card)}."
        if kind == "effect_started" and e.targets:
            on = ", ".join(self.perm(uid) for uid in e.targets)
            return f"{on}: {e.amount:+d} {e.stat} ({e.duration.replace('_', ' ')})."
        if kind == "counters_added":
            return f"{self.perm(e.uid, e.card)} gets {e.amount} {e.counter} counter(s)."
        if kind == "prevented":
            return f"{self.name(e.preventer_card)} prevents {self.name(e.card)}."
        if kind == "turn_passed":
            return self.verb(e.player, "pass", "passes") + " the turn."
        if kind == "draw_failed":
            return self.verb(e.player, "cannot", "cannot") + " draw: the deck is empty."
        if kind == "game_over":
            return ending(e, self.names, self.me) + "."
        return None

    def _attack(self, e: Any) -> str:
        parts = []
        for attacker, blocker in zip(e.attackers or [], e.blockers or [], strict=False):
            said = self.perm(attacker)
            if blocker is not None:
                said += f" (blocked by {self.perm(blocker)})"
            parts.append(said)
        owner = self.uids.get((e.attackers or [None])[0], ("", None))[1]
        return f"{self.whose(owner).capitalize()} attack: {', '.join(parts) or 'nobody'}."

    def sentences(self, events: Iterable[Any]) -> list[dict[str, Any]]:
        """``{"turn", "text"}`` per event a player cares about."""
        out = []
        for e in events:
            text = self.sentence(e)
            if text is not None:
                out.append({"turn": e.turn, "kind": e.kind, "text": text})
        return out


def ending(e: Any, names: Sequence[str], me: int | None) -> str:
    """How the game ended (a ``game_over`` event) in words."""
    winner = e.winner
    loser = names[1 - winner] if winner is not None else "nobody"
    why = REASONS.get(e.reason, e.reason).format(loser=loser)
    head = "Draw" if winner is None else "You win" if winner == me else f"{names[winner]} wins"
    return f"{head}: {why}"


def game_summary(log: Sequence[Any], names: Sequence[str], me: int | None) -> dict[str, Any]:
    """A finished game in numbers, from its (player's) log: turns, per player the damage his
    cards dealt (to the other player and to permanents) and the cards he played, how it ended.
    Damage counts for the controller of its source permanent; a source that is no permanent
    (a spell) for the player who played that card last; else for the victim's opponent."""
    owners: dict[int, int] = {}  # uid -> controller
    played_by: dict[str, int] = {}  # card id -> who played it last
    rows = [{"name": n, "played": 0, "damage_to_player": 0, "damage_to_permanents": 0}
            for n in names]
    turn, ended = 0, ""
    for e in log:
        turn = max(turn, e.turn)
        if e.kind == "entered_play":
            owners[e.uid] = e.controller
        elif e.kind == "card_played":
            rows[e.player]["played"] += 1
            played_by[e.card] = e.player
        elif e.kind == "player_damaged":
            dealer = _dealer(e, owners, played_by, 1 - e.player)
            if dealer is not None:
                rows[dealer]["damage_to_player"] += e.amount
        elif e.kind == "damaged":
            victim = owners.get(e.uid)
            dealer = _dealer(e, owners, played_by, None if victim is None else 1 - victim)
            if dealer is not None:
                rows[dealer]["damage_to_permanents"] += e.amount
        elif e.kind == "game_over":
            ended = ending(e, names, me)
    return {"turns": turn, "players": rows, "ended": ended}


def _dealer(e: Any, owners: Mapping[int, int], played_by: Mapping[str, int],
            otherwise: int | None) -> int | None:
    uid = e.get("source_uid")
    source = str(e.get("source") or "")
    if uid is None and "#" in source:  # "alap:x#3" or "alap:x#3:0"
        digits = source.split("#", 1)[1].split(":", 1)[0]
        uid = int(digits) if digits.isdigit() else None
    if uid is not None and uid in owners:
        return owners[uid]
    card = source.split("#", 1)[0]
    return played_by.get(card, otherwise)
