"""A game's outcome, recorded while it is played: who won, in how many turns, why, who started,
who played (the agents' specs), and per player which cards were drawn and played, which
abilities fired (automatic) or were used (activated), and which permanents did something
(attacked, blocked or dealt damage: ``acted``).

The recorder listens to a few named event kinds (``EventLog.subscribe(..., kinds=...)``), so it
works whatever the game keeps of its log: the events of a kind someone listens to are still made.
The outcome is plain data (it crosses process and Dask boundaries as it is).

Many games' outcomes are tallied (:class:`Tally`): per tier, pairing and ablation, the counts
``hkk simulate``'s reports read, whose size does not grow with the games - a chunk sends its
tally, not its rows.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
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


# -- many games tallied ------------------------------------------------------------------------

#: A card's columns in a tally (``Group.cards``), over a group's games: the sums of the five
#: counts; the games the card was played in (P) and those won, drawn in (D) and those won, the
#: games both; its plays summed over D; its acts (fired + used + acted) summed over P.  What
#: the reports (hkk._stats, hkk._balance) read of a card, whatever the deck lists.
COLUMNS = ("played", "fired", "used", "drawn", "acted", "games_played", "wins_played",
           "games_drawn", "wins_drawn", "games_played_drawn", "played_drawn", "useful_played")
(PLAYED, FIRED, USED, DRAWN, ACTED, GAMES_P, WINS_P, GAMES_D, WINS_D, GAMES_PD, PLAYED_D,
 USEFUL_P) = range(len(COLUMNS))
#: No card counted.
NO_COLUMNS = (0,) * len(COLUMNS)

#: A game's result in ``Group.results``: the winner's seat (0, 1), or one of these.
DRAW, ERROR = 2, 3


@dataclass
class Group:
    """Games of one tier (``agents``), pairing and ablation tallied: what ``hkk simulate``'s
    reports read of them, its size independent of their number.  ``games``, ``wins``,
    ``first_*``, ``turns`` (turns -> games), ``reasons`` and ``cards`` (per seat, card ->
    :data:`COLUMNS`) count the games that are no error row; ``errors`` are those rows;
    ``results``: per run of seeds (its first seed -> a byte per game), the winner's seat,
    :data:`DRAW` or :data:`ERROR` (the paired games of ``--ablate``).  ``order``: the
    chunk it was first tallied in (the groups are read in that order)."""

    agents: tuple[str, str] | None
    decks: tuple[str, str]
    ablated: tuple[str, ...] = ()
    order: int = 0
    games: int = 0
    wins: list[int] = field(default_factory=lambda: [0, 0])
    first_games: int = 0
    first_wins: int = 0
    turns: Counter[int] = field(default_factory=Counter)
    reasons: Counter[str] = field(default_factory=Counter)
    cards: list[dict[str, list[int]]] = field(default_factory=lambda: [{}, {}])
    errors: list[dict[str, Any]] = field(default_factory=list)
    results: dict[int, bytearray] = field(default_factory=dict)

    def add(self, o: Outcome) -> None:
        """Count a game (its result apart: :meth:`result`)."""
        if o.error is not None:
            self.errors.append(o.as_row())
            return
        self.games += 1
        if o.winner is not None:
            self.wins[o.winner] += 1
        if o.first is not None:
            self.first_games += 1
            self.first_wins += o.winner == o.first
        self.turns[o.turns] += 1
        self.reasons[o.reason or "unfinished"] += 1
        for seat in (0, 1):
            won = int(o.winner == seat)
            played_, fired_, used_, drawn_, acted_ = (
                o.played[seat], o.fired[seat], o.used[seat], o.drawn[seat], o.acted[seat])
            cards = self.cards[seat]
            # each column added by name, not by a loop over a tuple of the twelve: this runs
            # for every card of every game whose rows are tallied in Python (`--csv`)
            for card in {*played_, *fired_, *used_, *drawn_, *acted_}:
                played, fired, used = played_.get(card, 0), fired_.get(card, 0), \
                    used_.get(card, 0)
                drawn, acted = drawn_.get(card, 0), acted_.get(card, 0)
                if not (played or fired or used or drawn or acted):
                    continue  # listed with no count
                p, d = int(played > 0), int(drawn > 0)
                column = cards.get(card)
                if column is None:
                    column = cards[card] = [0] * len(COLUMNS)
                column[PLAYED] += played
                column[FIRED] += fired
                column[USED] += used
                column[DRAWN] += drawn
                column[ACTED] += acted
                column[GAMES_P] += p
                column[WINS_P] += p * won
                column[GAMES_D] += d
                column[WINS_D] += d * won
                column[GAMES_PD] += p * d
                column[PLAYED_D] += d * played
                column[USEFUL_P] += p * (fired + used + acted)

    def result(self, seed: int, code: int) -> None:
        """Game ``seed``'s result: the winner's seat, :data:`DRAW` or :data:`ERROR`."""
        for start, codes in self.results.items():
            if start + len(codes) == seed:
                codes.append(code)
                return
        self.results[seed] = bytearray((code,))

    def seeds(self) -> list[tuple[int, int]]:
        """Every game's ``(seed, result)``, by seed."""
        return [(start + k, code) for start, codes in sorted(self.results.items())
                for k, code in enumerate(codes)]

    def merge(self, other: Group) -> None:
        self.order = min(self.order, other.order)
        self.games += other.games
        self.wins = [a + b for a, b in zip(self.wins, other.wins, strict=True)]
        self.first_games += other.first_games
        self.first_wins += other.first_wins
        self.turns.update(other.turns)
        self.reasons.update(other.reasons)
        for mine, theirs in zip(self.cards, other.cards, strict=True):
            for card, columns in theirs.items():
                known = mine.get(card)
                if known is None:
                    mine[card] = list(columns)
                else:
                    for k, n in enumerate(columns):
                        known[k] += n
        self.errors = sorted([*self.errors, *other.errors], key=lambda row: row["seed"])
        self.results.update({start: bytearray(codes) for start, codes in other.results.items()})


@dataclass
class Tally:
    """Many games' outcomes tallied per :class:`Group`: what ``hkk simulate`` reports, built
    by the chunks where they are played (natively by a core that can: nothing per game in
    Python) and merged in any order."""

    groups: dict[tuple[Any, ...], Group] = field(default_factory=dict)

    @classmethod
    def of(cls, outcomes: Iterable[Outcome]) -> Tally:
        """The outcomes tallied, their groups in the order first met."""
        tally = cls()
        for o in outcomes:
            tally.add(o)
        return tally

    def group(self, agents: tuple[str, str] | None, decks: tuple[str, str],
              ablated: tuple[str, ...] = (), order: int | None = None) -> Group:
        key = (agents, tuple(decks), tuple(ablated))
        found = self.groups.get(key)
        if found is None:
            found = self.groups[key] = Group(
                agents, (decks[0], decks[1]), tuple(ablated),
                len(self.groups) if order is None else order)
        return found

    def add(self, o: Outcome) -> None:
        g = self.group(o.agents, o.decks, o.ablated)
        g.add(o)
        g.result(o.seed, ERROR if o.error is not None else DRAW if o.winner is None
                 else o.winner)

    def merge(self, other: Tally) -> None:
        for key, g in other.groups.items():
            mine = self.groups.get(key)
            if mine is None:
                self.groups[key] = g
            else:
                mine.merge(g)

    def ordered(self) -> list[Group]:
        return sorted(self.groups.values(), key=lambda g: g.order)

    def select(self, ablated: tuple[str, ...]) -> Tally:
        """The groups played with exactly ``ablated`` replaced by fillers."""
        return Tally({key: g for key, g in self.groups.items() if g.ablated == ablated})

    @property
    def played(self) -> int:
        """The games tallied, error rows among them."""
        return sum(g.games + len(g.errors) for g in self.groups.values())

    def errors(self) -> list[dict[str, Any]]:
        """The error rows, the groups in order, each by seed."""
        return [row for g in self.ordered() for row in g.errors]
