"""A time limit for one game (``hkk verify --game-timeout``, ``hkk play --game-timeout``).

A set's code may loop for ever.  :func:`time_limit` arms ``SIGALRM``; its handler raises
:class:`~hkk.GameTimeout` in whatever Python code is running, naming that code (a set's
package, function and line).  The alarm repeats every second after the limit, so a set that
swallows the exception with a bare ``except:`` is interrupted again.  That works in the main
thread of a Unix process and between Python bytecodes only; so a watchdog thread backs it up:
if the game still runs ``grace`` seconds after the limit (a loop in C, or no SIGALRM here), it
prints what it knows (``describe()``: decks, seed, turn, step) to stderr and ends the process
with exit code 1 - a clear failure instead of a CI job that hangs until its own time cap.
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

from hkk._errors import GameTimeout

__all__ = ["DEFAULT_GAME_TIMEOUT", "running_code", "time_limit"]

#: Seconds a game may take by default; a whole random game takes well under one.
DEFAULT_GAME_TIMEOUT = 60.0


def running_code(frame: FrameType | None) -> tuple[str, str]:
    """(module, "module.function (line N)") of the innermost frame outside the engine's own
    modules - the set's code that is stuck - or of the innermost frame if all are the engine's."""
    first: tuple[str, str] | None = None
    while frame is not None:
        module = frame.f_globals.get("__name__", "?")
        found = (module, f"{module}.{frame.f_code.co_name} (line {frame.f_lineno})")
        first = first or found
        if module != "hkk" and not module.startswith("hkk.") and module != __name__:
            return found
        frame = frame.f_back
    return first or ("?", "?")


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
    if armed:
        def on_alarm(signum: int, frame: FrameType | None) -> None:
            module, where = running_code(frame)
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
