"""A game's outcome, recorded while it is played: who won, in how many turns, why, who started,
and per player which cards were played and which abilities fired (automatic) or were used
(activated).

The recorder listens to a few named event kinds (``EventLog.subscribe(..., kinds=...)``), so it
works whatever the game keeps of its log: the events of a kind someone listens to are still made.
The outcome is plain data (it crosses process and Dask boundaries as it is).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

#: The event kinds the recorder needs (and the only ones it is told about).
KINDS = ("starting_player", "turn_started", "card_played", "resolving", "game_over")


@dataclass
class Outcome:
    """One game's result.  ``played[p]`` / ``fired[p]`` / ``used[p]``: card id -> count for
    player ``p`` (0 plays the first deck of the pairing, 1 the second)."""

    seed: int
    decks: tuple[str, str]
    winner: int | None = None
    reason: str | None = None
    turns: int = 0
    first: int | None = None
    played: list[Counter[str]] = field(default_factory=lambda: [Counter(), Counter()])
    fired: list[Counter[str]] = field(default_factory=lambda: [Counter(), Counter()])
    used: list[Counter[str]] = field(default_factory=lambda: [Counter(), Counter()])
    #: A game stopped by a limit (``hkk simulate``): the error's name and message; its
    #: ``reason`` is "error" and it counts in no statistic.
    error: str | None = None

    def as_row(self) -> dict[str, Any]:
        """A flat record: one line of the CSV / Parquet file."""
        def counts(c: list[Counter[str]]) -> list[dict[str, int]]:
            return [dict(sorted(c[0].items())), dict(sorted(c[1].items()))]

        return {"seed": self.seed, "deck_1": self.decks[0], "deck_2": self.decks[1],
                "winner": self.winner, "reason": self.reason, "turns": self.turns,
                "first": self.first, "played": counts(self.played),
                "fired": counts(self.fired), "used": counts(self.used), "error": self.error}

    @classmethod
    def from_row(cls, row: dict[str, Any]) -> Outcome:
        return cls(seed=row["seed"], decks=(row["deck_1"], row["deck_2"]),
                   winner=row["winner"], reason=row["reason"], turns=row["turns"],
                   first=row["first"], played=[Counter(c) for c in row["played"]],
                   fired=[Counter(c) for c in row["fired"]],
                   used=[Counter(c) for c in row["used"]], error=row.get("error"))


class OutcomeRecorder:
    """Subscribe to a game's log before it is played; ``outcome`` fills in as it goes."""

    def __init__(self, log: Any, seed: int, decks: tuple[str, str]) -> None:
        self.outcome = Outcome(seed=seed, decks=decks)
        log.subscribe(self._on_event, kinds=KINDS)

    def _on_event(self, event: Any) -> None:
        o, kind = self.outcome, event.kind
        if kind == "card_played":
            o.played[event.player][event.card] += 1
        elif kind == "resolving":
            card, player = event.card, event.controller
            if card is None or player is None:
                return
            if event.item_kind == "automatic":
                o.fired[player][card] += 1
            elif event.item_kind == "activated":
                o.used[player][card] += 1
        elif kind == "turn_started":
            o.turns = event.turn
        elif kind == "starting_player":
            o.first = event.player
        elif kind == "game_over":
            o.winner, o.reason = event.winner, event.reason
