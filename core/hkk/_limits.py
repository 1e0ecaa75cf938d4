"""A time limit for one game (``hkk verify --game-timeout``, ``hkk play --game-timeout``).

A set's code may loop for ever.  :func:`time_limit` arms ``SIGALRM``; its handler raises
:class:`~hkk.GameTimeout` in whatever Python code is running, naming that code (a set's
package, function and line).  The alarm repeats every second after the limit, so a set that
swallows the exception with a bare ``except:`` is interrupted again.  That works in the main
thread of a Unix process and between Python bytecodes only; so a watchdog thread backs it up:
if the game still runs ``grace`` seconds after the limit (a loop in C, or no SIGALRM here), it
prints what it knows (``describe()``: decks, seed, turn, step) to stderr and ends the process
with exit code 1 - a clear failure instead of a CI job that hangs until its own time cap.

When no set's code is running inside the limit - data-only cards, whose effects the engine
itself applies - the message names the turn, the step and the cards resolving instead.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import FrameType
from typing import Any

from hkk._errors import GameTimeout

__all__ = ["DEFAULT_GAME_TIMEOUT", "running_code", "time_limit"]

#: Top-level modules whose frames are never "the set's code": the engine, the standard library
#: and the libraries the engine calls (a set's hook runs inside pluggy's frames).
_NOT_A_SET = frozenset(sys.stdlib_module_names) | {"hkk", "pluggy", "pydantic", "pydantic_core",
                                                     "rich"}

#: Seconds a game may take by default; a whole random game takes well under one.
DEFAULT_GAME_TIMEOUT = 60.0


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
               grace: float | None = None) -> Iterator[None]:
    """Raise :class:`GameTimeout` in the body once it has run ``seconds`` (None or <= 0: no
    limit).  See the module docstring for the watchdog, which uses ``describe`` and ``grace``
    (default: the limit itself, at least 5 s)."""
    if not seconds or seconds <= 0:
        yield
        return
    armed = hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()
    if armed and 0 < signal.getitimer(signal.ITIMER_REAL)[0] <= seconds:
        armed = False  # someone's alarm (e.g. pytest-timeout) comes first: leave it alone
    previous = outer = None
    caller = sys._getframe(2)  # the frame of the with statement (above contextlib's __enter__)
    if armed:
        def on_alarm(signum: int, frame: FrameType | None) -> None:
            module, where = running_code(frame, caller)
            raise GameTimeout(seconds, where, module=module)

        previous = signal.signal(signal.SIGALRM, on_alarm)
        outer = signal.setitimer(signal.ITIMER_REAL, seconds, 1.0)
        started = time.monotonic()
    watchdog = threading.Timer(seconds + (grace if grace is not None else max(seconds, 5.0)),
                               _give_up, args=(seconds, describe))
    watchdog.daemon = True
    watchdog.start()
    try:
        yield
    finally:
        watchdog.cancel()
        if armed:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)
            if outer and outer[0] > 0:  # an alarm armed before ours: re-arm what is left of it
                left = outer[0] - (time.monotonic() - started)
                signal.setitimer(signal.ITIMER_REAL, max(left, 0.001), outer[1])


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
