"""The Python engine's loaded, validated cards as the plain data the native core takes: each
card's id, kind and the words of the card language it uses (pydantic stays the only parser)."""

from __future__ import annotations

import json
from typing import Any

#: Keys that hold prose or bookkeeping, not words of the card language.
_NOT_WORDS = frozenset({"id", "name", "text", "flavor", "text_checked", "title", "prompt"})

Word = tuple[str, str]


def card_words(card: Any) -> list[Word]:
    """``(place, word)`` for every word the card uses: a string value (``do = "damage"``) or a
    switch that is on (``instant = true``), where it stands in the card (``abilities[0]``).
    Numbers are amounts, not words."""
    words: list[Word] = []
    data = card.model_dump(mode="json", exclude_none=True)
    data.pop("kind", None)  # the card's kind travels as its own field (plain_cards)
    data.pop("abilities", None)  # as their own fields: abilities
    data.pop("play_condition", None)  # as its own field: play_condition
    if card.kind == "spell":  # as their own fields too: spell_effects, and the instant flag
        data.pop("effects", None)
        data.pop("instant", None)
    _walk(data, "card", words)
    return words


#: A counted amount (``{ count = "own_creatures", times = 2 }``): the name counted, times.
PlainCount = tuple[str, int]

#: A target filter (``where``): ``of``, its counter ("" for none), the comparison, the bound.
PlainWhere = tuple[str, str, str, int]

#: An effect as the native core takes it: place, verb, target, amount (None: a counted
#: amount), the names of its other fields set, ``modify``'s stat, duration and turns, the
#: names it takes (``end_effects``' durations, a counter's name, ``prevent``'s whose, abilities
#: and phase), a counted amount, a target filter.
PlainEffect = tuple[str, str, str, int | None, list[str], tuple[str, str, int | None] | None,
                    list[str], PlainCount | None, PlainWhere | None]


def spell_effects(card: Any) -> list[PlainEffect]:
    """A spell's effects, each as its verb, target and fixed amount; whatever else an effect
    sets is named, for the native core to refuse."""
    return _effects(card.effects, "card") if card.kind == "spell" else []


def _effects(effects: Any, place: str) -> list[PlainEffect]:
    plain = []
    for index, effect in enumerate(effects):
        data = effect.model_dump(mode="json", exclude_none=True)
        verb = data.pop("do")
        target = data.pop("target", "")
        modify = None
        if verb == "modify":  # a lasting effect: its stat, how much (`by`), for how long
            modify = (str(data.pop("stat")), str(data.pop("duration")), data.pop("turns", None))
            data["amount"] = data.pop("by")
        # the names it takes: end_effects' durations, a counter's name
        names = [str(d) for d in data.pop("durations", ())] if verb == "end_effects" else []
        if verb in ("add_counters", "remove_counters"):
            names = [str(data.pop("counter"))]
        if verb == "prevent":
            names = [str(data.pop(key)) for key in ("whose", "abilities", "phase")]
        amount = data.pop("amount", data.pop("count", None))
        counted = (str(amount["count"]), int(amount.get("times", 1))) \
            if isinstance(amount, dict) else None
        where = _where(data.pop("where", None))
        others = sorted(f"{key} = {value!r}" for key, value in data.items())
        plain.append((f"{place}.effects[{index}]", str(verb), str(target),
                      amount if isinstance(amount, int) else None, others, modify, names,
                      counted, where))
    return plain


def _where(where: dict[str, Any] | None) -> PlainWhere | None:
    """A target filter (``hkk._cards.amounts.Where``, dumped), or None."""
    if where is None:
        return None
    compare = next(name for name in ("at_least", "at_most", "more_than", "fewer_than")
                   if where.get(name) is not None)
    return (str(where["of"]), str(where.get("counter") or ""), compare, int(where[compare]))


#: A condition as the native core takes it: ``of``, the comparison, its bound as a number or
#: a quantity's name.
PlainCondition = tuple[str, str, int | None, str | None]

#: An activated ability's cost and limit: VP, components, sacrifice itself; per turn, per
#: game, whose turn; usable, or to be used, in the preparation phase (29.4.7).
PlainActivation = tuple[int, int, bool, int | None, int | None, str, bool, bool]

#: A triggered ability's ``when``: event, which, whose, card kind ("": any).
PlainWhen = tuple[str, str, str, str]

#: An ability as the native core takes it: index, kind, timing, whose turn, optional, its
#: effects, its condition, an activated one's cost and limit, the words of its other fields,
#: a triggered one's ``when``.
PlainAbility = tuple[int, str, str, str, bool, list[PlainEffect], PlainCondition | None,
                     PlainActivation | None, list[Word], PlainWhen | None]

#: An ability's fields the native core reads itself; every other one set is a word to refuse.
_ABILITY_FIELDS = frozenset({"kind", "text", "timing", "whose_turn", "optional", "effects",
                             "condition", "cost", "limit", "usable_in_preparation",
                             "must_use_in_preparation", "when"})


def activation(ability: Any) -> PlainActivation | None:
    """An activated ability's cost and limit (None for the other kinds)."""
    if ability.kind != "activated":
        return None
    cost, limit = ability.cost, ability.limit
    return (int(cost.vp), int(cost.components), bool(cost.sacrifice_self), limit.per_turn,
            limit.per_game, str(limit.whose_turn), bool(ability.usable_in_preparation),
            bool(ability.must_use_in_preparation))


def condition(ability: Any, field: str = "condition") -> PlainCondition | None:
    """An ability's condition (``hkk._cards.condition.Condition``), or a card's
    ``play_condition`` (``field``), or None."""
    found = getattr(ability, field, None)
    if found is None:
        return None
    name, bound = found.comparison
    return (str(found.of), str(name), bound if isinstance(bound, int) else None,
            bound if isinstance(bound, str) else None)


def when(ability: Any) -> PlainWhen | None:
    """A triggered ability's ``when`` (``hkk._cards.abilities.When``), or None."""
    found = getattr(ability, "when", None)
    if found is None:
        return None
    return (str(found.event), str(found.which), str(found.whose), str(found.card_kind or ""))


def abilities(card: Any) -> list[PlainAbility]:
    """A card's abilities (of a creature or a building): the fields the native core reads, and
    the words of the others it must refuse (a condition, a cost, a limit, a trigger...)."""
    plain = []
    for index, ability in enumerate(getattr(card, "abilities", ())):
        place = f"card.abilities[{index}]"
        data = ability.model_dump(mode="json", exclude_defaults=True, exclude_none=True)
        # every other field set is one word, its value whole: numbers too (a cost, a limit)
        words: list[Word] = [(place, f"{key} = {json.dumps(value, sort_keys=True)}")
                             for key, value in sorted(data.items()) if key not in _ABILITY_FIELDS]
        plain.append((index, str(ability.kind), str(getattr(ability, "timing", "") or ""),
                      str(getattr(ability, "whose_turn", "any")),
                      bool(getattr(ability, "optional", False)),
                      _effects(ability.effects, place), condition(ability),
                      activation(ability), words, when(ability)))
    return plain


def _walk(value: Any, place: str, words: list[Word]) -> None:
    if isinstance(value, dict):
        for key, item in value.items():
            if key in _NOT_WORDS:
                continue
            if isinstance(item, str):
                words.append((place, f'{key} = "{item}"'))
            elif item is True:
                words.append((place, f"{key} = true"))
            else:
                _walk(item, f"{place}.{key}", words)
    elif isinstance(value, list):
        for index, item in enumerate(value):
            if isinstance(item, str):
                words.append((place, f'"{item}"'))
            else:
                _walk(item, f"{place}[{index}]", words)


PlainCard = tuple[str, str, tuple[int, int, int, int, int], bool, list[Word],
                  list[PlainEffect], list[PlainAbility], PlainCondition | None]


def plain_cards(cards: dict[str, Any]) -> list[PlainCard]:
    """Every card of an engine, as the native ``Engine`` takes them: id, kind, its numbers
    (cost in VP and components; damage; Ép, or Sp for a building; monster components),
    whether it is an instant spell, the words of all but a spell's effects and the abilities,
    those effects, those abilities, its ``play_condition``."""
    return [(card_id, str(card.kind), _numbers(card), bool(getattr(card, "instant", False)),
             card_words(card), spell_effects(card), abilities(card),
             condition(card, "play_condition"))
            for card_id, card in sorted(cards.items())]


def _numbers(card: Any) -> tuple[int, int, int, int, int]:
    stamina = getattr(card, "hp", None) if card.kind == "creature" else getattr(card, "sp", 0)
    return (int(card.cost.vp), int(card.cost.components), int(getattr(card, "damage", 0) or 0),
            int(stamina or 0), int(getattr(card, "components", 0) or 0))
