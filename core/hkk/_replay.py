"""Replaying a saved game: the same seed, decks and rulings, and the decisions its log recorded;
every event must come out as recorded (``hkk replay FILE``).

The game is played again from its start, step boundary by step boundary, until it has as many
events as the log (a save made in the middle of a game replays up to that point).  The first
event that differs stops it: :class:`Divergence` names it.
"""

from __future__ import annotations

import dataclasses
from collections import deque
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from hkk._errors import Divergence, HkkError
from hkk._rulings import DEFAULT_RULINGS
from hkk._runner import advance

if TYPE_CHECKING:
    from hkk._decisions import Decision, Option
    from hkk._engine import Engine
    from hkk._protocol import FairView
    from hkk._saving import SaveFile

__all__ = ["Divergence", "Replay", "replay"]


@dataclass
class Replay:
    events: int  # events replayed identically
    divergence: Divergence | None
    #: The first field of the saved state that is not what the replayed log leads to, e.g.
    #: ``players[0].vp: saved 999, replayed 7`` (None: the same state, or not compared).
    state_difference: str | None = None

    @property
    def ok(self) -> bool:
        return self.divergence is None and self.state_difference is None


class _LogEnds(BaseException):
    """The replay reached the end of the log inside a step (a save made at a decision)."""


class RecordedAgent:
    """Answers each decision of its player with the label the log recorded for it, in order."""

    def __init__(self, log: list[dict[str, Any]], player: int) -> None:
        self.choices = deque((i, e["choice"]) for i, e in enumerate(log)
                             if e["kind"] == "decision" and e.get("player") == player)
        self.log = log

    def choose(self, game: FairView, decision: Decision) -> Option:
        at = len(game.log)  # where this decision's event will be
        expected = self.log[at] if at < len(self.log) else None
        if at == len(self.log):  # saved at this decision: the replay is where the save is
            raise _LogEnds
        if not self.choices:
            raise Divergence(at, expected, f"a {decision.kind} decision of player "
                             f"{decision.player} the log does not have")
        _, label = self.choices.popleft()
        for option in decision.options:
            if option.label == label:
                return option
        raise Divergence(at, expected, f"player {decision.player}'s {decision.kind} decision "
                         f"offers {decision.labels()}, not {label!r}")


def replay(engine: Engine, save: SaveFile) -> Replay:
    """Play the saved game again with its recorded decisions and compare every event."""
    log = save.log
    agents = [RecordedAgent(log, player) for player in range(len(save.decks))]
    rulings = dataclasses.replace(DEFAULT_RULINGS, **save.rulings)
    names = [p.name for p in save.state.players]
    game = engine.new_game(save.decks, agents, seed=save.seed, rulings=rulings, names=names)

    def compare(event: Any) -> None:
        got = event.as_dict()
        expected = log[event.seq] if event.seq < len(log) else None
        if got != expected:
            raise Divergence(event.seq, expected, got)

    game.log.subscribe(compare)
    try:
        while len(game.log) < len(log) and advance(game):
            pass
    except _LogEnds:
        pass
    except Divergence as divergence:
        return Replay(divergence.index, divergence)
    except HkkError as exc:  # a set's code or a rule failed where the recorded game went on
        at = len(game.log)
        return Replay(at, Divergence(at, log[at] if at < len(log) else None,
                                     f"error: {type(exc).__name__}: {exc}"))
    if len(game.log) < len(log):  # the game ended before the log did
        return Replay(len(game.log), Divergence(len(game.log), log[len(game.log)], None))
    return Replay(len(game.log), None, _state_difference(game, save))


#: Saved fields a replay does not rebuild: the clock measures time, not the game.
_NOT_COMPARED = ("clock",)


def _state_difference(game: Any, save: SaveFile) -> str | None:
    """The first field where the saved state differs from the replayed game's (the state the
    log leads to), or None.  A save is trusted only as far as its log goes (issue 24 item 2)."""
    from hkk._saving import saved_state  # saving sits above replaying's runner use

    rebuilt = saved_state(game)
    saved = save.state.model_dump(mode="json")
    skip = set(_NOT_COMPARED)
    if any(a.kind == "random" and a.rng is None for a in save.agents):
        skip.add("rng")  # a RandomAgent without a seed drew from it: no log records its draws
    for name in saved:
        if name in skip:
            continue
        difference = _first_difference(name, saved[name], rebuilt.get(name))
        if difference is not None:
            return difference
    return None


def _first_difference(path: str, saved: Any, rebuilt: Any) -> str | None:
    if isinstance(saved, dict) and isinstance(rebuilt, dict):
        for key in sorted(set(saved) | set(rebuilt), key=str):
            found = _first_difference(f"{path}.{key}", saved.get(key), rebuilt.get(key))
            if found is not None:
                return found
        return None
    if isinstance(saved, list) and isinstance(rebuilt, list) and len(saved) == len(rebuilt):
        for i, (a, b) in enumerate(zip(saved, rebuilt, strict=True)):
            found = _first_difference(f"{path}[{i}]", a, b)
            if found is not None:
                return found
        return None
    if saved != rebuilt:
        return f"{path}: saved {saved!r}, replayed {rebuilt!r}"
    return None
