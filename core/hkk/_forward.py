"""Where a game stands, as plain data: the turn machine's position (issue 30).

The runner is a resumable machine.  Every function of it that may reach a decision keeps what
it needs to go on - its loop's values, its stage, the item it resolves (by key), the answers
given inside a pure ``bind`` - in a **frame** of :class:`Position`, a list of plain values, not
in Python locals: ``game.machine.frames`` is the stack of those frames, outermost first (the
step or the set-up, then the step's runner, then an action, an item resolving, a trigger queue
being settled...).  The turn cursor (``turn``, ``step_index``) and everything the rules change
are the game's own fields.

**Stopping.**  A seat without an agent stops the game at its decision: :class:`Stop` (a
``BaseException``, so the engine's error wrapping lets it through) unwinds to the driver
(:mod:`hkk._driving`); the frames stay as they were, the decision is ``waiting``.  Nothing is
read from the unwound stack.

**Going on.**  ``answer()`` puts the answer in ``answer`` and runs the machine again from its
frames: each function finds its frame (:meth:`Position.frame`), skips what it had done and
goes on from its stage, down to the decision that stopped it, which takes the answer.  A
decision inside a pure ``bind`` (29.4.2: bind changes nothing) is reached by running that one
``bind`` again from its start with the answers given inside it so far (``region``); nothing else
runs again, and no step is replayed from a copy.

Seated agents are served by the same machine: the decision asks the agent at once.  A decision
asked where the machine cannot stop and go on (a set's hook deciding outside a ``bind``) works
with a seated agent, with a :class:`DeprecationWarning`, and is refused from outside
(:class:`DecisionOutsideBind`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hkk._errors import IllegalDecision, ReplayError

if TYPE_CHECKING:
    from hkk._decisions import Decision

__all__ = ["DecisionOutsideBind", "Position", "PositionError", "ReplayError", "Stop",
           "copy_frames", "index_of"]


class Stop(BaseException):
    """A seat without an agent must decide: ``Stop(decision)`` unwinds the runner to the driver
    (a BaseException, so that the engine's error wrapping of hooks lets it through), which
    reads the decision as its one argument (no ``__init__``: one call less a decision
    answered from outside)."""

    args: tuple[Decision]


PositionError = ReplayError  # the name it has in this module's own words


class DecisionOutsideBind(Exception):  # noqa: N818 - named for what happened
    """A hook asked a player a decision where the machine cannot stop and go on (outside a
    pending item's ``bind``) in a game answered from outside.  Not an HkkError: the hook seam
    wraps it into a :class:`hkk.HookError` naming the set and the hook."""


class Position:
    """The machine's position (``game.machine``): the frames, and the decision it waits for."""

    __slots__ = ("frames", "depth", "answer", "waiting", "asking", "region",
                 "replayed", "running", "closing", "hook", "back", "answered", "stopped",
                 "found", "held", "kept", "offered")

    def __init__(self) -> None:
        #: the stack of the running functions' frames, outermost first: plain lists whose
        #: first value names the function (``"step"``, ``"actions"``, ``"resolve"``...)
        self.frames: list[list[Any]] = []
        #: how many frames the machine has gone back down to, while it goes back (``back``)
        self.depth = 0
        #: the answer given from outside to the decision the game waits for (an option's index)
        self.answer: int | None = None
        #: the last answer taken from outside (kept with a bind's answers)
        self.answered = 0
        #: the decision the game waits for (None: it runs, or waits for nothing)
        self.waiting: Decision | None = None
        #: the decision being answered from outside, while the machine goes back down to it:
        #: the runner takes its options instead of collecting them again (the game has not
        #: changed since it stopped there)
        self.stopped: Decision | None = None
        #: the decision this game's own machine stopped at (a copy's waiting decision may be
        #: its original's, whose options are not the copy's: those are collected again)
        self.found: Decision | None = None
        #: the decision a seated agent is answering now, where the game may be copied or saved
        self.asking: Decision | None = None
        #: the answers given inside the pure ``bind`` running now, and how many of them the
        #: present run has used (a run again answers those first, silently); the item
        #: binding, until its bind asks (then its frame is made, hkk._resolution.resolve)
        self.region: Any = None
        self.replayed = 0
        #: the item whose bind asked the decision this game stopped at, while its frame
        #: stands: going back down to it takes it instead of collecting the step's items again
        #: (a cache of this game's objects: a copy or a load collects, by the frame's key; a
        #: copy keeps it if it is no permanent's, as the rules' own items)
        self.held: Any = None
        #: what a pure ``bind`` computed before its decisions, kept by that bind for its next
        #: run again: ``(region, values)``, good while ``region`` is the bind's answers' list
        #: (nothing changes the game while it waits inside a bind; a copy or a load computes
        #: again: never copied)
        self.kept: tuple[Any, Any] | None = None
        #: the action options an action step's runner had made when it stopped at a decision,
        #: ``(its frame, options by item)``: good while that frame stands (the same game), taken
        #: again when it goes on, as a seated run goes on with them (never copied)
        self.offered: tuple[list[Any], dict[int, Any]] | None = None
        #: the driver is running the machine (a copy made now, not at a decision, is refused)
        self.running = False
        #: the phase whose extraction offers are being closed (D-components-window), set by the
        #: ``phase_ended`` hook of ``hkk.rules.components``
        self.closing: str | None = None
        #: the hook being notified (``hkk._hookcall.notify``): named if it asks a player
        self.hook: str | None = None
        #: the machine goes back down its frames (``depth < len(frames)``), kept as a flag:
        #: every function that may have a frame asks, and it is False but while resuming
        self.back = False

    def frame(self, fresh: list[Any]) -> list[Any]:
        """The frame of a function entered now: the one stored at this depth if the machine
        goes back down to where it stopped (then not ``fresh``), else ``fresh``, pushed.
        (``depth`` counts only while going back: running on, the frames are pushed and
        popped, and the last is the innermost.)"""
        if not self.back:
            self.frames.append(fresh)
            return fresh
        found = self.frames[self.depth]
        if found[0] != fresh[0]:
            raise PositionError(f"the machine's position has a {found[0]!r} frame where "
                                f"the game runs a {fresh[0]!r}: it does not match the game")
        self.depth = depth = self.depth + 1
        self.back = depth < len(self.frames)
        return found

    def next_is(self, tag: str) -> bool:
        """Whether the machine goes back down to a frame of this kind next."""
        return self.back and self.frames[self.depth][0] == tag

    def leave(self) -> None:
        """The function whose frame is the last is done."""
        self.frames.pop()

    def replaying(self) -> bool:
        """Whether a bind runs again through answers given before (its events were logged)."""
        region = self.region
        return region is not None and self.replayed < len(region)

    def reset(self) -> None:
        """Nothing runs: the next run goes down the frames from the first."""
        self.depth = 0
        self.back = bool(self.frames)
        self.asking = None
        self.region = None
        self.replayed = 0

    def clear(self) -> None:
        """The game is between two steps (or over): no frame is left."""
        self.frames.clear()
        self.reset()
        self.held = self.kept = self.offered = None
        self.waiting = self.stopped = self.found = None
        self.answer = None
        self.closing = None

    def copy(self) -> Position:
        """An independent copy, not running: the same frames.  The decision waited for is found
        again on the copy's first reading (its options name the copy's own permanents, not
        these); the one a seated agent is answering now becomes the one the copy waits for."""
        new = Position()
        new.frames = copy_frames(self.frames)
        new.waiting = None if self.waiting is not None else self.asking
        new.answer = self.answer
        new.closing = self.closing
        new.held = self.kept_held()
        return new

    def kept_held(self) -> Any:
        """The held item a copy shares and a save names (hkk._saving): a rules' own item (no
        permanent's, as the attack), made once by its plugin and shared as its hook shares it -
        the step may not offer it again (the attackers are passive).  A card's item is no
        such: a copy or a load collects it again, by its frame's key."""
        held = self.held
        return held if held is not None and held.source is None else None


def copy_frames(frames: list[list[Any]]) -> list[list[Any]]:
    """The frames as new lists: their values are plain (numbers, strings, tuples) or lists and
    sets of plain values, copied one level down."""
    return [[v.copy() if type(v) in _CONTAINERS else v for v in frame] for frame in frames]


#: the kinds of a frame's values copied one level down (a type test: cheaper than isinstance)
_CONTAINERS = frozenset({list, set, dict})


def index_of(decision: Decision, chosen: Any) -> int:
    """The index of ``chosen`` - an offered Option, an equal one, its index or its label - in
    the decision's options; :class:`IllegalDecision` if it is none of them."""
    options = decision.options
    ids = list(map(id, options))  # the offered option itself (the usual answer), found in C
    if id(chosen) in ids:
        return ids.index(id(chosen))
    if isinstance(chosen, bool):
        pass
    elif isinstance(chosen, int):
        if 0 <= chosen < len(options):
            return chosen
    elif isinstance(chosen, str):
        for i, option in enumerate(options):
            if option.label == chosen:
                return i
    elif chosen in options:
        return options.index(chosen)
    raise IllegalDecision(f"player {decision.player} chose {chosen!r}; {decision.kind} "
                          f"options were {decision.labels()}")
