"""The deck-spec language of ``hkk verify`` and ``hkk play --decks``: ``+``-joined parts, each a
deck name (``alap:tuz``) or a set code (``mereg``: :data:`MIX_COPIES` copies of each of its
cards); which specs a run plays (:func:`deck_specs`, see :mod:`hkk.verify`), which of them meet
(:func:`deck_pairs`), and the ``hkk play`` command that replays a game (:func:`play_command`)."""

from __future__ import annotations

import itertools
import shlex
from collections.abc import Sequence
from typing import Any

from hkk._errors import HkkError
from hkk._sets.discovery import dependency_closure

#: Copies of each card of a deck-less set mixed into a deck of the sets it depends on.
MIX_COPIES = 2


def resolve_deck_spec(engine: Any, spec: str, set_cards: dict[str, list[str]] | None = None
                      ) -> list[str]:
    """Card ids of a deck spec: ``+``-joined parts, each a deck name (``alap:tuz``, has a colon)
    or a set code (``mereg``: :data:`MIX_COPIES` copies of each of its cards)."""
    if set_cards is None:
        set_cards = cards_by_set(engine)
    cards: list[str] = []
    for part in spec.split("+"):
        part = part.strip()
        if ":" in part:
            cards.extend(engine.deck(part))
        elif part in set_cards:
            cards.extend(c for c in set_cards[part] for _ in range(MIX_COPIES))
        else:
            raise HkkError(f"unknown deck or set {part!r} in deck spec {spec!r}; known decks: "
                           f"{', '.join(sorted(engine.decks))}; sets: "
                           f"{', '.join(sorted(set_cards))}")
    return sorted(cards)


def cards_by_set(engine: Any) -> dict[str, list[str]]:
    by_set: dict[str, list[str]] = {}
    for card_id in sorted(engine.cards):
        by_set.setdefault(card_id.split(":", 1)[0], []).append(card_id)
    if engine.discovery is not None:  # a set with no cards is still a known set
        for code in engine.discovery.sets:
            by_set.setdefault(code, [])
    return by_set


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


