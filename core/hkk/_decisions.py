"""Players' decisions go through one door: ``agent.choose(game, decision) -> Option``.

A :class:`Decision` names its kind, the deciding player, the rule that gives him the choice and
the legal options.  The agents are in :mod:`hkk._agents`; the ``Agent`` protocol in
:mod:`hkk._view`.
"""

from __future__ import annotations

import re
from typing import Any

__all__ = ["Decision", "Option", "option_data"]

#: A card in a label: ``<set>:<card>``, then ``#<uid>`` of a permanent, then ``:<ability>``.
_CARD = re.compile(r"(?P<card>[^\s#:()]+:[^\s#:()]+)(?:#(?P<uid>\d+)(?::(?P<ability>\d+))?)?")
#: A player in a label: ``player <index> (<name>)``.
_PLAYER = re.compile(r"^player (?P<player>\d+)")


def option_data(label: str) -> dict[str, Any]:
    """An option's plain data, read from its label (every core offers the same labels, so the
    same data): ``word``, what the label says before what it names ("play", "use", "target",
    "attack with", "block with", "extract", "player", "pass", "pass turn", "no block",
    "decline"...; absent when the label is an item's own, as in an "order" decision); ``card``,
    ``uid`` and ``ability`` of the card it names; ``player`` of a player it names."""
    data: dict[str, Any] = {}
    player = _PLAYER.match(label)
    card = _CARD.search(label)
    word = "player" if player is not None else label[:card.start()] if card else label
    if word.strip():
        data["word"] = word.strip()
    if player is not None:
        data["player"] = int(player["player"])
    elif card is not None:
        data["card"] = card["card"]
        if card["uid"] is not None:
            data["uid"] = int(card["uid"])
        if card["ability"] is not None:
            data["ability"] = int(card["ability"])
    return data


class Option:
    """One legal answer: what it is called (agents and scripts match on the label) and what it
    stands for (``value``, not part of equality).  A plain class: decisions are the hot path."""

    __slots__ = ("label", "value")

    def __init__(self, label: str, value: Any = None) -> None:
        self.label = label
        self.value = value

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Option) and other.label == self.label

    def __hash__(self) -> int:
        return hash(self.label)

    @property
    def data(self) -> dict[str, Any]:
        """Plain data about what it stands for - uids, card ids, numbers, never an engine
        object - read from the label (:func:`option_data`); ``value`` is the engine's own."""
        return option_data(self.label)

    def __repr__(self) -> str:
        return f"Option({self.label!r})"


class Decision:
    """A choice one player must make now."""

    __slots__ = ("kind", "player", "options", "prompt", "rule")

    def __init__(self, kind: str, player: int, options: tuple[Option, ...], prompt: str = "",
                 rule: str | None = None) -> None:
        self.kind = kind  # "order", "use", "action", "target", "extract", "start", "attack"…
        self.player = player
        self.options = options
        self.prompt = prompt
        self.rule = rule

    def labels(self) -> list[str]:
        return [o.label for o in self.options]

    def __repr__(self) -> str:
        return f"Decision({self.kind!r}, player={self.player}, options={self.labels()})"
