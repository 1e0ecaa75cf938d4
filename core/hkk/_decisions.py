"""Players' decisions go through one door: ``agent.choose(game, decision) -> Option``.

A :class:`Decision` names its kind, the deciding player, the rule that gives him the choice and
the legal options.  The agents are in :mod:`hkk._agents`; the ``Agent`` protocol in
:mod:`hkk._view`.
"""

from __future__ import annotations

from typing import Any

__all__ = ["Decision", "Option"]


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
