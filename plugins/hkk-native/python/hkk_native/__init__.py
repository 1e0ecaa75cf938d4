"""hkk's native core (Rust, PyO3): a twin of the Python engine for data-only games.

``core`` is what the ``hkk.cores`` entry point names: ``refuses(engine, decks)`` says, naming
the set, hook, card and word, why a game cannot run natively (None: it can); ``new_game(...)``
builds one, ``load_native(engine, save)`` loads an ``hkk-save`` of either core (a native game's
``save()`` is the Python engine's save). The native core plays, event for event as the
Python engine does, games of every word of the card language but ``custom`` (Python code), so
every game of the base decks, and refuses by card and word a game that uses it, by set and
hook a game that calls a set's Python hooks (docs/NATIVE.md). ``Random`` is CPython's
``random.Random`` for int seeds, bit for bit. ``BUILD`` says how the extension was built:
``"profile-guided"`` by ``plugins/hkk-native/install_pgo.py``, else ``"release"`` (or
``"debug"``).
"""

from __future__ import annotations

from hkk_native._batch import NativeBatch, native_batch
from hkk_native._core import (
    NativeCore,
    NativeDivergence,
    NativeGame,
    NativeUnsupported,
    Refused,
    compare,
    load_native,
    play_many_native,
    play_native,
)
from hkk_native._native import BUILD, Random

__all__ = ["BUILD", "NativeBatch", "NativeCore", "NativeDivergence", "NativeGame",
           "NativeUnsupported", "Random", "Refused", "compare", "core", "load_native",
           "native_batch", "play_many_native", "play_native"]

#: The object the ``hkk.cores`` entry point ``native`` loads.
core = NativeCore()
