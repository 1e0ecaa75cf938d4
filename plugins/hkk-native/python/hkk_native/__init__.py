"""hkk's native core (Rust, PyO3): a twin of the Python engine for data-only games.

``core`` is what the ``hkk.cores`` entry point names: ``refuses(engine, decks)`` says, naming
the set, hook, card and word, why a game cannot run natively (None: it can);
``new_game(...)`` builds one.  Today the native core runs the setup (K 3.6-3.12, 28) exactly as
the Python engine does and refuses every whole game: the turn (29.4, 41) and the card language
are not native yet (docs/NATIVE.md).  ``Random`` is CPython's ``random.Random`` for int seeds,
bit for bit.
"""

from __future__ import annotations

from hkk_native._core import NativeCore, NativeGame, Refused, play_many_native, play_native
from hkk_native._native import Random

__all__ = ["NativeCore", "NativeGame", "Random", "Refused", "core", "play_many_native",
           "play_native"]

#: The object the ``hkk.cores`` entry point ``native`` loads.
core = NativeCore()
