"""A card's printed rules text, generated from its data in Hungarian (``hkk cards --text``,
the gallery, and ``hkk verify``'s ``card-text`` check, which compares it with the card's
``text``).

The register is the base set's (docs/CARD-TEXT.md): one sentence per ability - "Amikor ...,
..." for a trigger, "A kör végén ..." for an automatic ability, "Harci fázis, 1 VP: ..." for an
activated one followed by its usage limits ("Körönként legfeljebb kétszer."), "Ha ..., ..."
for a condition - and the words of each verb, trigger event, target, duration and condition
from their own templates (``Verb.hu``, ``TriggerEvent.hu``, :mod:`hkk._cards.wording`).

:func:`normalised` is what the check compares: case, punctuation and whitespace do not count,
and neither does reminder text in parentheses ("(amelyet a saját köröd végéig megtart)").
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any

from hkk._cards.trigger_events import WHEN_EVENTS
from hkk._cards.wording import NoTemplate, Voice, condition_hu, join, times_hu

__all__ = ["NoTemplate", "card_text", "normalised"]


def card_text(card: Any) -> str:
    """The printed text of ``card`` generated from its data ("" for a vanilla card); raises
    :class:`NoTemplate` for data without a template (a custom effect)."""
    sentences = []
    if card.kind == "spell" and card.instant:
        sentences.append("Azonnali")
    if card.play_condition is not None:
        sentences.append(f"Csak akkor játszható ki, ha {condition_hu(card.play_condition)}")
    if card.kind == "spell":
        sentences.append(_effects(card.effects, Voice("spell")))
    for ability in card.abilities:
        sentences.extend(_ability(ability, card.kind))
    return " ".join(_sentence(s) for s in sentences if s)


def _sentence(text: str) -> str:
    text = re.sub(r",\s*(,|$)", r"\1", text.strip())  # a filter's clause closing the sentence
    return text[:1].upper() + text[1:] + ("" if text.endswith((".", ":")) else ".")


def _effects(effects: Any, voice: Voice) -> str:
    return join([effect.hu(voice) for effect in effects])


def _ability(ability: Any, card_kind: str) -> list[str]:
    kind = ability.kind
    if kind == "static":
        text = _effects(ability.effects, Voice("automatic", static=True))
        if ability.condition is not None:
            text = f"ha {condition_hu(ability.condition)}, {text}"
        return [("Hátrány: " if _drawback(ability) else "") + text]
    if kind == "triggered":
        event = WHEN_EVENTS[ability.when.event]
        voice = Voice("automatic", optional=ability.optional, trigger_targets=event.hu_targets,
                      trigger_amount=event.hu_amount)
        when = event.hu(ability.when, card_kind)
        condition = f"ha {condition_hu(ability.condition)}, " if ability.condition else ""
        return [f"amikor {when}, {condition}{_effects(ability.effects, voice)}"]
    if kind == "automatic":
        voice = Voice("automatic", optional=ability.optional)
        moment = _AUTOMATIC_AT.get(ability.timing, {}).get(ability.whose_turn,
                                                          f"({ability.timing})")
        text = f"{moment} {_effects(ability.effects, voice)}"
        if ability.condition is not None:
            text = f"ha {condition_hu(ability.condition)}, {text}"
        return [text]
    return _activated(ability)


def _drawback(ability: Any) -> bool:
    """A static ability that only lowers its controller's own numbers is a drawback
    ("Hátrány:", glossary: hátrány)."""
    return all(getattr(e, "do", None) == "modify" and isinstance(e.by, int) and e.by < 0
               and e.target in ("controller", "self", "own_creatures", "own_buildings")
               for e in ability.effects)


#: An automatic ability's moment by its timing and whose turn it fires in.
_AUTOMATIC_AT: dict[str, dict[str, str]] = {
    "on_enter": {w: "amikor játékba kerül," for w in ("any", "own", "opponent")},
    "prep_stage2_start": {"any": "a kör elején", "own": "a saját köröd elején",
                          "opponent": "az ellenfeled körének elején"},  # 29.4.3
    "prep_stage2": {"any": "az előkészítő fázisban", "own": "a saját előkészítő fázisodban",
                    "opponent": "az ellenfeled előkészítő fázisában"},  # 29.4
    "prep_stage1": {"any": "az előkészítő fázis 1. szakaszában",
                    "own": "a saját előkészítő fázisod 1. szakaszában",
                    "opponent": "az ellenfeled előkészítő fázisának 1. szakaszában"},  # 29.4.5
    "end_stage2": {"any": "a kör végén", "own": "a saját köröd végén",
                   "opponent": "az ellenfeled körének végén"},  # 41.2
}

#: An activated ability's window by its timing (the main phase goes without saying).
_ACTIVATED_AT = {"main_phase": "", "combat_phase": "harci fázis", "end_stage1": "a kör végén"}


def _activated(ability: Any) -> list[str]:
    limit = ability.limit
    whose = limit.whose_turn
    per_turn = limit.per_turn
    if ability.timing == "prep_stage2":  # usable in the preparation phase (29.4.7)
        window = {"any": "az előkészítő fázisban", "own": "a saját előkészítő fázisodban",
                  "opponent": "az ellenfeled előkészítő fázisában"}[whose]
        whose = "any"  # said by the window
        if per_turn == 1:
            per_turn = None  # 29.4.9: attempted once per turn anyway
    else:
        window = _ACTIVATED_AT.get(ability.timing, f"({ability.timing})")
    voice = Voice("activated", optional=ability.optional)
    head = ", ".join(part for part in (window, _cost(ability.cost)) if part)
    sentences = [f"{head}: {_effects(ability.effects, voice)}"]
    limits = []
    if whose != "any":
        limits.append({"own": "csak a saját körödben", "opponent": "csak az ellenfél körében"}
                      [whose])
    if per_turn:
        limits.append("körönként egyszer" if per_turn == 1
                      else f"körönként legfeljebb {times_hu(per_turn)}")
    if limit.per_game:
        limits.append("játékonként egyszer" if limit.per_game == 1
                      else f"játékonként legfeljebb {times_hu(limit.per_game)}")
    if limits:
        sentences.append(", ".join(limits))
    if ability.must_use_in_preparation:
        sentences.append("kötelező használni")  # 29.4.7: the text orders its use
    if ability.condition is not None:
        sentences.append(f"csak akkor használható, ha {condition_hu(ability.condition)}")
    return sentences


def _cost(cost: Any) -> str:
    parts = []
    if cost.vp:
        parts.append(f"{cost.vp} VP")
    if cost.components:
        parts.append(f"{cost.components} szörnykomponens")
    if cost.sacrifice_self:
        parts.append("áldozd fel")
    return ", ".join(parts) or "0 VP"


_REMINDER = re.compile(r"\([^()]*\)")


def normalised(text: str) -> str:
    """``text`` as ``card-text`` compares it: reminder text in parentheses left out, then
    lower case, without punctuation, whitespace collapsed."""
    text = _REMINDER.sub(" ", unicodedata.normalize("NFC", text)).lower()
    words = "".join(ch if ch.isalnum() or ch.isspace() else " " for ch in text)
    return " ".join(words.split())
