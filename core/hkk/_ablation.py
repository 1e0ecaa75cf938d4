"""A card's causal impact (``hkk simulate --ablate CARD``): the same seeds played twice, as
written and with every copy of CARD replaced by its **filler**, and the paired difference of
each deck's win rate (docs/BALANCE.md).

**The filler** (:func:`filler_card`) is plain card data, defined once here: a card of the same
kind and the same cost (VP, monster components, sacrifice) with no abilities and no play
condition, named "<name> (filler)", id ``<id>-filler``:

- a **creature** gets the stats of a plain creature of that cost in the base set: the mean
  damage and the mean Ép, rounded half up, of the base set's (``alap``) creatures without
  abilities of exactly that cost (2 VP: Falusi milícia's 2/2; 4 VP: Kőgólem 3/5 and Tengeri
  kígyó 4/3 give 4/4); for a cost the base set has no such creature of, damage = Ép = its VP
  cost (at least 1), the line those creatures lie near.  It keeps the components its opponent
  may extract when it dies;
- a **building** keeps its Sp;
- a **spell** must do something (the card language has no empty effect): it gives its player
  back the VP it cost (at least 1 VP) - played, it only spends the card - and it keeps
  ``instant``.

**The impact** (:func:`impact`): for each tier and each deck holding the card, every game the
deck played (each seat, each pairing) gives one paired difference, won as written minus won
with the filler (-1, 0 or 1), the same seed, decks and seats on both sides.  The impact is
their mean, with a 95% normal interval of the paired difference (mean ± 1.96 · sd / √n): the
seeds are independent, so by the central limit theorem the mean is near normal at the game
counts a report uses (tens of games and more); pairing removes the deal's and the seat's
variance that two independent samples would carry.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from hkk._errors import HkkError
from hkk._outcome import ERROR, Outcome, Tally
from hkk._stats import Z95

__all__ = ["BASE_SET", "FILLER_SUFFIX", "ablated_list", "add_fillers", "creature_stats",
           "filler_card", "filler_id", "impact"]

#: The set whose plain creatures give a creature filler its stats.
BASE_SET = "alap"

#: Appended to a card's id to name its filler.
FILLER_SUFFIX = "-filler"


def filler_id(card_id: str) -> str:
    return card_id + FILLER_SUFFIX


def _round_half_up(value: float) -> int:
    return int(math.floor(value + 0.5))


def creature_stats(cost: Any, cards: Mapping[str, Any]) -> tuple[int, int]:
    """(damage, Ép) of a plain creature of ``cost`` in the base set (see the module's
    docstring)."""
    plain = [c for c in cards.values()
             if c.kind == "creature" and c.set_code == BASE_SET and not c.abilities
             and c.play_condition is None and c.cost == cost]
    if plain:
        return (_round_half_up(sum(c.damage for c in plain) / len(plain)),
                _round_half_up(sum(c.hp for c in plain) / len(plain)))
    side = max(1, int(cost.vp))
    return side, side


def filler_card(card: Any, cards: Mapping[str, Any]) -> Any:
    """The filler of ``card`` (see the module's docstring): a validated card of the card
    language, so any core that plays card data plays it."""
    from hkk._cards.model import BuildingCard, CreatureCard, SpellCard

    common: dict[str, Any] = {"id": filler_id(card.id), "name": f"{card.name} (filler)",
                              "cost": card.cost, "text_checked": False}
    if card.kind == "creature":
        damage, hp = creature_stats(card.cost, cards)
        return CreatureCard(**common, damage=damage, hp=hp, components=card.components)
    if card.kind == "building":
        return BuildingCard(**common, sp=card.sp)
    if card.kind == "spell":
        refund = max(1, int(card.cost.vp))
        return SpellCard(**common, instant=card.instant,
                         effects=[{"do": "gain_vp", "target": "controller", "amount": refund}])
    raise HkkError(f"card {card.id!r} is a {card.kind}: no filler is defined for that kind")


def add_fillers(cards: dict[str, Any], ablate: Sequence[str]) -> None:
    """Put the fillers of ``ablate`` into the card mapping ``cards`` (an engine's)."""
    for card_id in ablate:
        if card_id not in cards:
            raise HkkError(f"--ablate {card_id}: no such card in the loaded sets")
        if filler_id(card_id) not in cards:
            cards[filler_id(card_id)] = filler_card(cards[card_id], cards)


def ablated_list(deck: Sequence[str], ablate: Sequence[str]) -> list[str]:
    """The deck list with every copy of the cards of ``ablate`` replaced by its filler."""
    replaced = set(ablate)
    return [filler_id(c) if c in replaced else c for c in deck]


def impact(written: Sequence[Outcome] | Tally, ablated: Sequence[Outcome] | Tally, card: str,
           deck_cards: Mapping[str, Sequence[str]]) -> list[dict[str, Any]]:
    """Per tier and deck holding ``card``: the paired win-rate difference as written minus
    with the filler (``ablated``: the same games with ``card`` replaced; either the outcomes
    or their :class:`~hkk._outcome.Tally`), with its 95% interval; games stopped by an error
    on either side are left out of the pairs."""
    from hkk._balance import tier_label

    written = written if isinstance(written, Tally) else Tally.of(written)
    ablated = ablated if isinstance(ablated, Tally) else Tally.of(ablated)
    by_key = {(g.agents, g.decks): dict(g.seeds()) for g in ablated.ordered()}
    pairs: dict[tuple[str, str], list[int]] = {}
    for g in written.ordered():
        other = by_key.get((g.agents, g.decks), {})
        for seed, result in g.seeds():
            against = other.get(seed, ERROR)
            if ERROR in (result, against):
                continue
            for seat in (0, 1):
                deck = g.decks[seat]
                if card not in deck_cards.get(deck, ()):
                    continue
                difference = int(result == seat) - int(against == seat)
                pairs.setdefault((tier_label(g.agents), deck), []).append(difference)
    rows = []
    for (tier, deck), differences in pairs.items():
        n = len(differences)
        mean = sum(differences) / n
        variance = sum((d - mean) ** 2 for d in differences) / (n - 1) if n > 1 else 0.0
        half = Z95 * math.sqrt(variance / n)
        rows.append({"card": card, "tier": tier, "deck": deck, "games": n,
                     "changed": sum(1 for d in differences if d),
                     "impact": round(mean, 4), "ci_low": round(mean - half, 4),
                     "ci_high": round(mean + half, 4)})
    return rows
