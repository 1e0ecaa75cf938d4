"""The deck-spec language of ``hkk verify`` and ``hkk play --decks``: ``+``-joined parts, each a
deck name (``alap:tuz``) or a set code (``mereg``: :data:`MIX_COPIES` copies of each of its
cards), read by :func:`resolve_deck_spec` (in :mod:`hkk._engine`, so that ``Engine.deck`` and
``engine.play`` take specs too); which specs a run plays (:func:`deck_specs`, see
:mod:`hkk.verify`), which of them meet (:func:`deck_pairs`), and the ``hkk play`` command that
replays a game (:func:`play_command`)."""

from __future__ import annotations

import itertools
import shlex
from collections.abc import Sequence
from typing import Any

from hkk._engine import MIX_COPIES, cards_by_set, resolve_deck_spec
from hkk._sets.discovery import dependency_closure

__all__ = ["MIX_COPIES", "cards_by_set", "deck_pairs", "deck_specs", "needed_sets",
           "play_command", "resolve_deck_spec"]

def deck_specs(sets: Sequence[Any]) -> list[str]:
    """The deck specs a run with these (loaded) sets plays; see :mod:`hkk.verify`."""
    by_code = {s.code: s for s in sets}
    specs: list[str] = []
    for s in sets:
        if s.decks:
            specs.extend(f"{s.code}:{name}" for name in sorted(s.decks))
            continue
        if not s.cards:
            continue  # nothing of its own to play: its hooks meet the other sets' decks
        dep_decks = [f"{d}:{name}" for d in needed_sets(s.code, by_code) if d != s.code
                     for name in sorted(by_code[d].decks)]
        specs.extend(f"{deck}+{s.code}" for deck in dep_decks) if dep_decks \
            else specs.append(s.code)
    return sorted(dict.fromkeys(specs))


def needed_sets(code: str, by_code: dict[str, Any]) -> list[str]:
    """The loaded sets ``code`` needs, itself included."""
    return [c for c in dependency_closure([code], by_code) if c in by_code]


def deck_pairs(specs: Sequence[str], target: str) -> list[tuple[str, str]]:
    """Ordered pairs of different specs; for a single set's run only those in which one of its
    own decks (or its cards mixed in) plays.  One spec alone plays the mirror match."""
    if len(specs) == 1:
        return [(specs[0], specs[0])]
    pairs = list(itertools.permutations(specs, 2))
    if target != "all":
        pairs = [p for p in pairs if any(_owns(spec, target) for spec in p)] or pairs
    return pairs


def _owns(spec: str, code: str) -> bool:
    return any(part == code or part.startswith(f"{code}:") for part in spec.split("+"))


def play_command(seed: int, decks: Sequence[str], sets: Sequence[str] | None = None,
                 max_turns: int | None = None) -> str:
    """The ``hkk play`` command line that plays this game again."""
    words = ["hkk", "play", "--seed", str(seed), "--decks", *decks]
    for code in sets or ():
        words += ["--set", code]
    if max_turns is not None:
        words += ["--max-turns", str(max_turns)]
    return shlex.join(words)


