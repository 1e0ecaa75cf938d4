"""A limit on what runs away in a game (``--game-timeout``): the engine and a set's Python hooks.

A set's code may loop for ever.  :func:`time_limit` counts the **CPU time** the game spends
*outside its agents* - the engine's and the sets' - and raises :class:`~hkk.GameTimeout` in
whatever Python code runs past ``seconds`` of it, naming that code (a set's package, function
and line).  CPU time, not wall-clock time: a busy machine does not stop a game, and neither
does an agent thinking (or sleeping).  An agent's thinking is bounded per decision instead: by
its own ``decision_seconds`` (a searching agent's spec option ``seconds``), else by ``seconds``
too - one decision, not the whole game.  Beside this guard the deterministic work limits
(D-trigger-loop, D-work-limit) stop a runaway game the same way on every machine.

How: a profiling timer (``ITIMER_PROF``, ``SIGPROF``) looks every ``tick`` of CPU time at the
Python stack; the time since the last look goes to the agent whose ``choose`` is on the stack
(this decision's), else to the game.  That works in the main thread of a Unix process and
between Python bytecodes only.

``wall`` adds a wall-clock bound (``SIGALRM``), for ``hkk verify`` in CI: a hook that never
returns - waiting, sleeping, spending no CPU - is stopped too.  With it a watchdog thread backs
the alarm up: if the game still runs ``grace`` seconds after that bound (a loop in C, or not the
main thread), it prints what it knows (``describe()``: decks, seed, turn, step) to stderr and
ends the process with exit code 1 - a clear failure instead of a CI job that hangs until its
own time cap.  Both timers repeat after their limit, so a set that swallows the exception with
a bare ``except:`` is interrupted again.  So is a game whose limit fell inside a callback Python
runs during garbage collection (a weak reference's, a finalizer), where no exception can
propagate: the one lost there is not reported as an error (``sys.unraisablehook``).

When no set's code is running inside the limit - data-only cards, whose effects the engine
itself applies - the message names the turn, the step and the cards resolving instead.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from types import FrameType
from typing import Any

from hkk._errors import GameTimeout

__all__ = ["DEFAULT_GAME_TIMEOUT", "VERIFY_WALL_FACTOR", "VERIFY_WALL_MIN", "running_code",
           "time_limit", "verify_wall"]

#: Top-level modules whose frames are never "the set's code": the engine, the standard library
#: and the libraries the engine calls (a set's hook runs inside pluggy's frames).
_NOT_A_SET = frozenset(sys.stdlib_module_names) | {"hkk", "pluggy", "pydantic", "pydantic_core",
                                                     "rich"}

#: CPU seconds a game may spend outside its agents by default (and an agent on one decision,
#: unless it has its own budget); a whole random game takes well under one.
DEFAULT_GAME_TIMEOUT = 60.0

#: ``hkk verify``'s wall-clock bound (:func:`verify_wall`): this many times its CPU limit, and
#: at least VERIFY_WALL_MIN seconds - a hook that never returns (and spends no CPU time) is
#: stopped too, and a busy machine never stops a game that would pass.
VERIFY_WALL_FACTOR = 10.0
VERIFY_WALL_MIN = 60.0


def verify_wall(seconds: float | None) -> float | None:
    """``hkk verify``'s wall-clock bound on a game of ``seconds`` CPU seconds (None: none)."""
    return max(seconds * VERIFY_WALL_FACTOR, VERIFY_WALL_MIN) if seconds else None


def running_code(frame: FrameType | None, outer: FrameType | None = None) -> tuple[str, str]:
    """(module, "module.function (line N)") of the innermost frame outside the engine's own
    modules and the libraries it uses - the set's code that is stuck - followed by what the
    engine was doing (the turn, the step, the cards resolving) when a game is found.  Only the
    frames inside ``outer`` (the frame that set the limit) count: if all of those are the
    engine's (data-only cards), it is ("hkk", what the engine was doing)."""
    first: tuple[str, str] | None = None
    found: tuple[str, str] | None = None
    inner = frame
    while frame is not None and frame is not outer:
        module = frame.f_globals.get("__name__", "?")
        here = (module, f"{module}.{frame.f_code.co_name} (line {frame.f_lineno})")
        first = first or here
        if module.split(".", 1)[0] not in _NOT_A_SET:
            found = here
            break
        frame = frame.f_back
    doing = _engine_doing(inner, outer)
    if found is not None:
        return (found[0], f"{found[1]}, in {doing}") if doing else found
    if doing is not None:
        return "hkk", doing
    return first or ("?", "?")


def _engine_doing(frame: FrameType | None, outer: FrameType | None) -> str | None:
    """The turn, step and cards resolving of the game the engine's frames work on (their
    ``game`` and ``item`` locals; the trigger watch's chain and waiting items): data-only
    cards run no code of their own to name."""
    game: Any = None
    cards: list[str] = []
    while frame is not None and frame is not outer:
        local = frame.f_locals
        card = getattr(local.get("item"), "card_id", None)
        if isinstance(card, str):
            cards.append(card)
        candidate = local.get("game")
        if game is None and hasattr(candidate, "triggers") and hasattr(candidate, "turn"):
            game = candidate
        frame = frame.f_back
    if game is None:
        return None
    watch = game.triggers
    cards += [label.split("#", 1)[0] for label in watch.cause]
    cards += [item.card_id or item.label for item in watch.waiting]
    named = list(dict.fromkeys(cards))
    step = game.step.hook if game.step is not None else "start of turn"
    return f"the engine in turn {game.turn}, step {step}" + (
        f", cards resolving: {', '.join(named[:10])}" + (" ..." if len(named) > 10 else "")
        if named else ", no card resolving")


@contextmanager
def time_limit(seconds: float | None, describe: Callable[[], str] = lambda: "",
               grace: float | None = None, *, agents: Sequence[object | None] = (),
               wall: float | None = None) -> Iterator[None]:
    """Raise :class:`GameTimeout` in the body once it has spent ``seconds`` of CPU time outside
    the ``agents``' ``choose``, or one of them that long (or its ``decision_seconds``) on one
    decision; with ``wall``, also once it has run ``wall`` seconds of wall-clock time (None or
    <= 0: no such limit).  See the module docstring for the watchdog, which uses ``describe``
    and ``grace`` (default: the wall limit itself, at least 5 s)."""
    cpu = seconds if seconds and seconds > 0 else None
    wall = wall if wall and wall > 0 else None
    main = threading.current_thread() is threading.main_thread()
    caller = sys._getframe(2)  # the frame of the with statement (above contextlib's __enter__)
    restore: list[Callable[[], None]] = []
    if cpu is not None and main and hasattr(signal, "setitimer") \
            and signal.getitimer(signal.ITIMER_PROF)[0] == 0:  # nobody else's profiler
        restore.append(_cpu_guard(cpu, caller, agents))
    if wall is not None and main and hasattr(signal, "setitimer"):
        restore.append(_wall_guard(wall, caller))
    if restore:
        restore.insert(0, _quiet_lost_timeouts())  # put back last, once no timer ticks
    watchdog = None
    if wall is not None:
        watchdog = threading.Timer(wall + (grace if grace is not None else max(wall, 5.0)),
                                   _give_up, args=(wall, describe))
        watchdog.daemon = True
        watchdog.start()
    try:
        yield
    finally:
        if watchdog is not None:
            watchdog.cancel()
        for undo in reversed(restore):
            undo()


def _quiet_lost_timeouts() -> Callable[[], None]:
    """Leave out of ``sys.unraisablehook`` a :class:`GameTimeout` raised where it cannot
    propagate (a garbage-collection callback): the timer raises it again at its next tick.
    Anything else goes to the hook as before.  Returns what puts the hook back."""
    previous = sys.unraisablehook

    def hook(unraisable: Any) -> None:
        if not isinstance(unraisable.exc_value, GameTimeout):
            previous(unraisable)

    sys.unraisablehook = hook

    def undo() -> None:
        sys.unraisablehook = previous
    return undo


#: CPU seconds between two looks at the stack, at most (a tenth of the limit, if less).
TICK = 0.05


def _cpu_guard(seconds: float, caller: FrameType, agents: Sequence[object | None]
               ) -> Callable[[], None]:
    """Arm the profiling timer of :func:`time_limit`; returns what disarms it."""
    seated = {id(agent): agent for agent in agents if agent is not None}
    game = decision = 0.0  # CPU seconds: the game's, and the current decision's agent's
    looked = time.thread_time()
    deciding: FrameType | None = None  # the agent's choose frame of that decision

    def on_tick(signum: int, frame: FrameType | None) -> None:
        nonlocal game, decision, looked, deciding
        now = time.thread_time()
        used, looked = now - looked, now
        thinking = _thinking(frame, caller, seated)
        if thinking is None:
            game += used
            if game > seconds:
                module, where = running_code(frame, caller)
                raise GameTimeout(seconds, where, module=module, clock="CPU")
            return
        agent_frame, agent = thinking
        if agent_frame is not deciding:  # another decision: its own budget
            deciding, decision = agent_frame, 0.0
        decision += used
        budget = getattr(agent, "decision_seconds", None) or seconds
        if decision > budget:
            module, where = running_code(frame, caller)
            raise GameTimeout(budget, where, module=module, clock="CPU",
                              agent=type(agent).__name__)

    tick = min(TICK, seconds / 10)
    previous = signal.signal(signal.SIGPROF, on_tick)
    signal.setitimer(signal.ITIMER_PROF, tick, tick)

    def undo() -> None:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, previous)
    return undo


def _thinking(frame: FrameType | None, outer: FrameType, seated: dict[int, object]
              ) -> tuple[FrameType, object] | None:
    """The outermost ``choose`` frame of a seated agent on the stack (and the agent), if any:
    the CPU time there is the agent's, whatever it calls (a search plays the game forward)."""
    found = None
    while frame is not None and frame is not outer:
        if frame.f_code.co_name == "choose":
            agent = seated.get(id(frame.f_locals.get("self")))
            if agent is not None:
                found = (frame, agent)
        frame = frame.f_back
    return found


def _wall_guard(seconds: float, caller: FrameType) -> Callable[[], None]:
    """Arm the wall-clock alarm of :func:`time_limit`, leaving an earlier alarm (e.g.
    pytest-timeout's) in charge when it comes first; returns what disarms it."""
    if 0 < signal.getitimer(signal.ITIMER_REAL)[0] <= seconds:
        return lambda: None  # someone's alarm comes first: leave it alone

    def on_alarm(signum: int, frame: FrameType | None) -> None:
        module, where = running_code(frame, caller)
        raise GameTimeout(seconds, where, module=module, clock="wall-clock")

    previous = signal.signal(signal.SIGALRM, on_alarm)
    outer = signal.setitimer(signal.ITIMER_REAL, seconds, 1.0)
    started = time.monotonic()

    def undo() -> None:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        if outer and outer[0] > 0:  # an alarm armed before ours: re-arm what is left of it
            left = outer[0] - (time.monotonic() - started)
            signal.setitimer(signal.ITIMER_REAL, max(left, 0.001), outer[1])
    return undo


def _give_up(seconds: float, describe: Callable[[], str]) -> None:
    try:
        what = describe()
    except Exception as exc:  # noqa: BLE001 - we are about to exit; say what we can
        what = f"(could not describe the game: {exc!r})"
    sys.stderr.write(f"hkk: a game ran past its time limit of {seconds:g} s and could not be "
                     f"interrupted (stuck outside Python code, or not in the main thread); "
                     f"stopping the process. {what}\n")
    sys.stderr.flush()
    os._exit(1)
