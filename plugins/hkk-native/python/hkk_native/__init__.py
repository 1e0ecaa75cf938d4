"""hkk's native core (Rust, PyO3): a twin of the Python engine for data-only games.

``core`` is what the ``hkk.cores`` entry point names: ``refuses(engine, decks)`` says, naming
the set, hook, card and word, why a game cannot run natively (None: it can); ``new_game(...)``
builds one, ``load_native(engine, save)`` loads an ``hkk-save`` of either core (a native game's
``save()`` is the Python engine's save). Today the native core plays, event for event as the
Python engine does, games of every word of the card language but triggered abilities (spells,
automatic, activated and static abilities, lasting effects, defence bonuses, counters,
conditions, prevention; the setup, the turn, hand play, the guard post, combat, deaths and
monster components), and refuses by card and word every game with a triggered ability, so every
game of the base decks (docs/NATIVE.md). ``Random`` is CPython's ``random.Random`` for int
seeds, bit for bit.
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
from hkk_native._native import Random

__all__ = ["NativeBatch", "NativeCore", "NativeDivergence", "NativeGame", "NativeUnsupported",
           "Random", "Refused", "compare", "core", "load_native", "native_batch",
           "play_many_native", "play_native"]

#: The object the ``hkk.cores`` entry point ``native`` loads.
core = NativeCore()
