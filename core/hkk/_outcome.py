"""A game's outcome, recorded while it is played: who won, in how many turns, why, who started,
who played (the agents' specs), and per player which cards were drawn and played, which
abilities fired (automatic) or were used (activated), and which permanents did something
(attacked, blocked or dealt damage: ``acted``).

The recorder listens to a few named event kinds (``EventLog.subscribe(..., kinds=...)``), so it
works whatever the game keeps of its log: the events of a kind someone listens to are still made.
The outcome is plain data (it crosses process and Dask boundaries as it is).
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

#: The event kinds the recorder needs (and the only ones it is told about).
KINDS = ("starting_player", "turn_started", "card_drawn", "card_played", "entered_play",
         "resolving", "attack", "damaged", "player_damaged", "game_over")

#: The permanent named by a damage source such as ``alap:langorzo#1:1@245`` (uid 1).
_SOURCE_UID = re.compile(r"#(\d+)")


@dataclass
class Outcome:
    """One game's result.  ``drawn[p]`` / ``played[p]`` / ``fired[p]`` / ``used[p]`` /
    ``acted[p]``: card id -> count for player ``p`` (0 plays the first deck of the pairing, 1
    the second).  ``agents``: the two players' agent specs (None: the engine's default random
    players, drawing from the game's RNG)."""

    seed: int
    decks: tuple[str, str]
    winner: int | None = None
    reason: str | None = None
    turns: int = 0
    first: int | None = None
    played: list[Counter[str]] = field(default_factory=lambda: [Counter(), Counter()])
    fired: list[Counter[str]] = field(default_factory=lambda: [Counter(), Counter()])
    used: list[Counter[str]] = field(default_factory=lambda: [Counter(), Counter()])
    drawn: list[Counter[str]] = field(default_factory=lambda: [Counter(), Counter()])
    acted: list[Counter[str]] = field(default_factory=lambda: [Counter(), Counter()])
    agents: tuple[str, str] | None = None
    #: A game stopped by a limit (``hkk simulate``): the error's name and message; its
    #: ``reason`` is "error" and it counts in no statistic.
    error: str | None = None
    #: The cards replaced by their fillers in this game (``hkk simulate --ablate``; empty: the
    #: decks as written).
    ablated: tuple[str, ...] = ()

    def as_row(self) -> dict[str, Any]:
        """A flat record: one line of the CSV / Parquet file."""
        def counts(c: list[Counter[str]]) -> list[dict[str, int]]:
            return [dict(sorted(c[0].items())), dict(sorted(c[1].items()))]

        return {"seed": self.seed, "deck_1": self.decks[0], "deck_2": self.decks[1],
                "winner": self.winner, "reason": self.reason, "turns": self.turns,
                "first": self.first, "played": counts(self.played),
                "fired": counts(self.fired), "used": counts(self.used),
                "drawn": counts(self.drawn), "acted": counts(self.acted),
                "agent_1": self.agents[0] if self.agents else None,
                "agent_2": self.agents[1] if self.agents else None, "error": self.error,
                "ablated": list(self.ablated)}

    @classmethod
    def from_row(cls, row: dict[str, Any]) -> Outcome:
        return cls(seed=row["seed"], decks=(row["deck_1"], row["deck_2"]),
                   winner=row["winner"], reason=row["reason"], turns=row["turns"],
                   first=row["first"], played=[Counter(c) for c in row["played"]],
                   fired=[Counter(c) for c in row["fired"]],
                   used=[Counter(c) for c in row["used"]],
                   drawn=[Counter(c) for c in row.get("drawn") or _NONE],
                   acted=[Counter(c) for c in row.get("acted") or _NONE],
                   agents=(row["agent_1"], row["agent_2"]) if row.get("agent_1") else None,
                   error=row.get("error"), ablated=tuple(row.get("ablated") or ()))


#: Counts of a row written before they were recorded (no draws, nothing acted).
_NONE: tuple[dict[str, int], dict[str, int]] = ({}, {})


class OutcomeRecorder:
    """Subscribe to a game's log before it is played; ``outcome`` fills in as it goes."""

    def __init__(self, log: Any, seed: int, decks: tuple[str, str],
                 agents: tuple[str, str] | None = None) -> None:
        self.outcome = Outcome(seed=seed, decks=decks, agents=agents)
        self._permanents: dict[int, tuple[int, str]] = {}  # uid -> (controller, card)
        log.subscribe(self._on_event, kinds=KINDS)

    def _acted(self, uid: int | None) -> None:
        known = self._permanents.get(uid) if uid is not None else None
        if known is not None:
            self.outcome.acted[known[0]][known[1]] += 1

    def _on_event(self, event: Any) -> None:
        o, kind = self.outcome, event.kind
        if kind == "card_drawn":
            o.drawn[event.player][event.card] += 1
        elif kind == "damaged":
            self._acted(event.source_uid)
        elif kind == "player_damaged":
            found = _SOURCE_UID.search(event.source or "")
            self._acted(int(found.group(1)) if found else None)
        elif kind == "attack":
            for uid in (*event.attackers, *event.blockers):
                self._acted(uid)
        elif kind == "entered_play":
            self._permanents[event.uid] = (event.controller, event.card)
        elif kind == "card_played":
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
