"""The fixed numbers a learner sees: the observation vector and the action indices.

Everything here is read from the published protocol only: a seat's fair view
(``hkk.FairView``: its ``snapshot()`` and ``step``) and the decision's options (their label and
``Option.data``).  Nothing reads the game itself, so the other hand and the decks' order cannot
reach a vector: the view does not hold them.

docs/LEARNING.md has the tables; the module is their one source (``Layout.describe()``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from hkk import Decision, Engine, FairView

__all__ = ["CARD_WORDS", "KINDS", "PERMANENT_WORDS", "WORDS", "ZONES", "ActionError", "Layout"]

#: The decision kinds of the engine, one-hot in the vector (anything else: the "other" entry).
KINDS = ("start", "action", "order", "use", "target", "target_player", "attack", "block",
         "extract")
#: Options that are a word alone, one action each.
WORDS = ("pass", "pass turn", "start", "hand over", "hold", "no block", "decline", "use attack")
#: Words of options naming a permanent (``CARD#uid``): one action per board slot.
PERMANENT_WORDS = ("use guard", "attack with", "block with", "target")
#: Words of options naming a card by its id, one action per card of the vocabulary: a hand
#: card played, a dead creature's monster component extracted (its uid is off the board).
CARD_WORDS = ("play", "extract")
#: A permanent's zone, one-hot (anything else: the "other" entry).
ZONES = ("guard_post", "reserve", "buildings")
#: Scales that keep the vector's numbers near [0, 1] on the base set.
_TURN, _HP, _VP, _COMPONENTS, _HAND, _PILE, _STAT = 50.0, 20.0, 50.0, 5.0, 10.0, 40.0, 5.0


class ActionError(ValueError):
    """An action that is not one of the decision's options, or an option the layout cannot
    place (more of a kind than its cap)."""


@dataclass(frozen=True)
class Layout:
    """Where each number goes.  ``cards`` is the card vocabulary (sorted ids; a card outside
    it counts in an "other card" entry), ``slots`` the board places per side (a seat's
    permanents by uid, his own first; more are left out of the vector, and their options go
    to the positional "other" actions), ``abilities`` the abilities per permanent that get an
    action of their own, ``order_cap`` how many options an "order" decision (and the "other"
    range) can place."""

    cards: tuple[str, ...]
    steps: tuple[str, ...]
    slots: int = 16
    abilities: int = 2
    order_cap: int = 32
    _card_index: dict[str, int] = field(init=False, repr=False, compare=False)
    _offsets: dict[str, int] = field(init=False, repr=False, compare=False)
    _at: dict[str, int] = field(init=False, repr=False, compare=False)

    @classmethod
    def for_decks(cls, engine: Engine, decks: Sequence[Sequence[str]], **caps: int) -> Layout:
        """The layout of games of these decks (card lists): the vocabulary is every card of the
        sets the decks' cards come from, sorted, so that it is the same for every deal and in
        every process; the steps are the engine's turn."""
        sets = {card.split(":", 1)[0] for deck in decks for card in deck}
        cards = tuple(sorted(card for card in engine.cards if card.split(":", 1)[0] in sets))
        return cls(cards, tuple(step.hook for step in engine.turn), **caps)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_card_index", {card: i for i, card in enumerate(self.cards)})
        sizes = {
            "word": len(WORDS),
            "player": 2,  # target_player: oneself, the opponent
            **{word: len(self.cards) + 1 for word in CARD_WORDS},
            **{word: 2 * self.slots for word in PERMANENT_WORDS},
            "use": 2 * self.slots * self.abilities,
            "order": self.order_cap,
            "other": self.order_cap,
        }
        offsets, at = {}, 0
        for name, size in sizes.items():
            offsets[name] = at
            at += size
        offsets["end"] = at
        object.__setattr__(self, "_offsets", offsets)
        starts, at = {}, 0
        for name, size in self.sections().items():
            starts[name] = at
            at += size
        object.__setattr__(self, "_at", starts)

    # -- actions ---------------------------------------------------------------------------

    @property
    def n_actions(self) -> int:
        return self._offsets["end"]

    def ranges(self) -> dict[str, tuple[int, int]]:
        """Each range of actions: name -> (first index, size)."""
        names = [name for name in self._offsets if name != "end"]
        ends = [self._offsets[name] for name in names[1:]] + [self._offsets["end"]]
        return {name: (self._offsets[name], end - self._offsets[name])
                for name, end in zip(names, ends, strict=True)}

    def card(self, card: str) -> int:
        """A card's place in the vocabulary (``len(cards)``: not in it)."""
        return self._card_index.get(card, len(self.cards))

    def actions(self, decision: Decision, me: int, board: Mapping[int, int]) -> list[int]:
        """The action index of each of the decision's options, in their order.  ``board``:
        uid -> board slot (:meth:`board`).  An option that has no place of its own goes to the
        "other" range by its position among such options."""
        out: list[int] = []
        taken: set[int] = set()
        spare = 0
        for position, option in enumerate(decision.options):
            index = self._place(decision.kind, position, option.data, me, board)
            if index is None or index in taken:
                if spare >= self.order_cap:
                    raise ActionError(
                        f"{decision.kind} decision of player {me}: option {option.label!r} "
                        f"has no action (more than {self.order_cap} options without a place "
                        f"of their own; raise order_cap)")
                index = self._offsets["other"] + spare
                spare += 1
            taken.add(index)
            out.append(index)
        return out

    def _place(self, kind: str, position: int, data: Mapping[str, Any], me: int,
               board: Mapping[int, int]) -> int | None:
        o = self._offsets
        if kind == "order":  # an item's own label: its place in the list
            return o["order"] + position if position < self.order_cap else None
        word = data.get("word")
        if "player" in data:
            return o["player"] + (0 if int(data["player"]) == me else 1)
        if word in CARD_WORDS and "card" in data:
            return o[word] + self.card(data["card"])
        if "uid" in data:
            slot = board.get(data["uid"])
            if slot is None:
                return None
            if word in PERMANENT_WORDS:
                return o[word] + slot
            ability = int(data.get("ability", 0))
            if word == "use" and ability < self.abilities:
                return o["use"] + slot * self.abilities + ability
            return None
        if word in WORDS:
            return o["word"] + WORDS.index(word)
        return None

    def board(self, snapshot: Mapping[str, Any], me: int) -> dict[int, int]:
        """uid -> board slot: ``me``'s permanents by uid in slots ``0..slots-1``, the
        opponent's in ``slots..2*slots-1``; those past the cap get none."""
        mine: list[int] = []
        theirs: list[int] = []
        for uid, permanent in snapshot["permanents"].items():
            (mine if permanent["controller"] == me else theirs).append(int(uid))
        slots = {uid: i for i, uid in enumerate(sorted(mine)[:self.slots])}
        slots.update({uid: self.slots + i for i, uid in enumerate(sorted(theirs)[:self.slots])})
        return slots

    # -- observations -----------------------------------------------------------------------

    @property
    def per_slot(self) -> int:
        """Numbers per board slot: present, card one-hot (with "other"), zone one-hot (with
        "other"), active, damage, Ép, max Ép, defence bonus, counters."""
        return 1 + len(self.cards) + 1 + len(ZONES) + 1 + 6

    def sections(self) -> dict[str, int]:
        """The observation vector's sections, in order: name -> size."""
        cards = len(self.cards) + 1
        return {
            "flags": 6,  # turn, I am active, turn passed, I decide, the opponent decides, over
            "kind": len(KINDS) + 1,  # the decision's kind (mine only)
            "step": len(self.steps) + 1,
            "me": 7, "opponent": 7,  # Ép, VP, components, hand, deck, graveyard, void sizes
            "hand": cards,  # my hand, copies per card
            "graveyard_me": cards, "graveyard_opponent": cards,
            "void_me": cards, "void_opponent": cards,
            "board": 2 * self.slots * self.per_slot,
        }

    @property
    def n_observation(self) -> int:
        return sum(self.sections().values())

    def encode(self, view: FairView, snapshot: Mapping[str, Any], decision: Decision | None,
               board: Mapping[int, int], out: npt.NDArray[np.float32]) -> None:
        """Write seat ``view.player``'s observation into ``out`` (zeroed here).  ``snapshot``
        is ``view.snapshot()``; ``decision`` the one waited for (its kind is written only if
        it is this seat's)."""
        out[:] = 0.0
        me = view.player
        at = self._at
        deciding = decision.player if decision is not None else None
        out[at["flags"]:at["flags"] + 6] = (
            snapshot["turn"] / _TURN, snapshot["active"] == me, view.turn_passed,
            deciding == me, deciding is not None and deciding != me, view.over)
        if decision is not None and deciding == me:
            kind = KINDS.index(decision.kind) if decision.kind in KINDS else len(KINDS)
            out[at["kind"] + kind] = 1.0
        step = view.step
        hook = step.hook if step is not None else None
        out[at["step"] + (self.steps.index(hook) if hook in self.steps else len(self.steps))] = 1
        players = snapshot["players"]
        for name, seat in (("me", me), ("opponent", 1 - me)):
            p = players[seat]
            hand = p["hand"]
            out[at[name]:at[name] + 7] = (
                p["hp"] / _HP, p["vp"] / _VP, p["components"] / _COMPONENTS,
                (len(hand) if isinstance(hand, list | tuple) else hand) / _HAND,
                p["deck"] / _PILE, len(p["graveyard"]) / _PILE, len(p["void"]) / _PILE)
            for card in p["graveyard"]:
                out[at["graveyard_" + name] + self.card(card)] += 1.0
            for card in p["void"]:
                out[at["void_" + name] + self.card(card)] += 1.0
        for card in players[me]["hand"]:
            out[at["hand"] + self.card(card)] += 1.0
        base, width, cards = at["board"], self.per_slot, len(self.cards) + 1
        for uid, permanent in snapshot["permanents"].items():
            slot = board.get(int(uid))
            if slot is None:
                continue
            s = base + slot * width
            out[s] = 1.0
            out[s + 1 + self.card(permanent["card"])] = 1.0
            zone = permanent["zone"]
            out[s + 1 + cards + (ZONES.index(zone) if zone in ZONES else len(ZONES))] = 1.0
            s += 1 + cards + len(ZONES) + 1
            out[s:s + 6] = (
                permanent["active"], permanent["damage"] / _STAT, permanent["hp"] / _STAT,
                permanent["max_hp"] / _STAT, permanent["defence_bonus"] / _STAT,
                sum(permanent["counters"].values()) / _STAT)

    def plain(self) -> dict[str, Any]:
        """Everything the numbers are made by, as plain data: the vocabulary, steps and caps,
        the word, kind and zone lists, the scales, and the ranges and sections computed here
        (a native encoder checks its own against them: ``hkk_native.native_batch``)."""
        return {
            "cards": list(self.cards), "steps": list(self.steps), "slots": self.slots,
            "abilities": self.abilities, "order_cap": self.order_cap, "words": list(WORDS),
            "kinds": list(KINDS), "permanent_words": list(PERMANENT_WORDS),
            "card_words": list(CARD_WORDS), "zones": list(ZONES),
            "scales": [_TURN, _HP, _VP, _COMPONENTS, _HAND, _PILE, _STAT],
            "ranges": [(name, first, size) for name, (first, size) in self.ranges().items()],
            "sections": list(self.sections().items()),
        }

    def describe(self) -> str:
        """The two tables of docs/LEARNING.md for this layout, as text."""
        lines = ["actions:"]
        lines += [f"  {name:12} {first:5} .. {first + size - 1:5}"
                  for name, (first, size) in self.ranges().items()]
        lines.append("observation:")
        at = 0
        for name, size in self.sections().items():
            lines.append(f"  {name:20} {at:5} .. {at + size - 1:5}")
            at += size
        return "\n".join(lines)
