"""Cards as readable lines (rich markup), for ``hkk cards`` and the HTML pages: a card's header
and text, and each ability and effect in words."""

from __future__ import annotations

from typing import Any

from hkk._markup import INDENT, escape


def describe_effect(effect: Any) -> str:
    """``modify damage +1 own_creatures until_end_of_turn``: each verb says itself
    (:meth:`hkk._cards.verbs.Verb.describe`)."""
    text: str = effect.describe()
    return text


def _cost(cost: Any) -> str:
    parts = [f"{cost.vp} VP"] if cost.vp else []
    if cost.components:
        parts.append(f"{cost.components} component(s)")
    if cost.sacrifice_self:
        parts.append("sacrifice it")
    return ", ".join(parts) or "free"


def _limit(limit: Any) -> str:
    parts = []
    if limit.per_turn:
        parts.append(f"{limit.per_turn}/turn")
    if limit.per_game:
        parts.append(f"{limit.per_game}/game")
    if limit.whose_turn != "any":
        parts.append(f"{limit.whose_turn} turn only")
    return ", ".join(parts)


def describe_when(when: Any) -> str:
    """A ``when`` table in words: "a creature of yours dies", "opponent plays a spell" (each
    trigger event says itself, :meth:`hkk._cards.trigger_events.TriggerEvent.describe`)."""
    from hkk._cards.trigger_events import WHEN_EVENTS

    return WHEN_EVENTS[when.event].describe(when)


def text_from_data(card: Any) -> str | None:
    """The card's rules text generated from its data (hkk._cards.printed); None if its data
    has no template (a custom effect)."""
    from hkk._cards.printed import NoTemplate, card_text

    try:
        return card_text(card)
    except NoTemplate:
        return None


def card_lines(card: Any, *, from_data: bool = False) -> list[str]:
    """A card as a few markup lines: header with stats, its text (and, ``from_data``, the
    text generated from its data), one line per ability."""
    if card.kind == "creature":
        stats = f"{card.damage}/{card.hp}" + (f", {card.components} comp." if card.components
                                              else "")
    elif card.kind == "building":
        stats = f"Sp {card.sp}"
    else:
        stats = "instant spell" if card.instant else "spell"
    lines = [(f"[bold cyan]{escape(card.id)}[/bold cyan] [bold]{escape(card.name)}[/bold] - "
              f"{card.kind}, {_cost(card.cost)}, {stats}")]
    if card.text:
        lines.append(f"{INDENT}[italic]{escape(card.text)}[/italic]")
    if from_data:
        generated = text_from_data(card)
        shown = "(no template: a custom effect)" if generated is None else generated or "-"
        lines.append(f"{INDENT}from data: [italic]{escape(shown)}[/italic]")
    if card.flavor:
        lines.append(f"{INDENT}[dim italic]{escape(card.flavor)}[/dim italic]")
    if card.kind == "spell":
        lines.append(f"{INDENT}effect: "
                     + escape("; ".join(describe_effect(e) for e in card.effects)))
    for index, ability in enumerate(card.abilities):
        head = f"{index}. {ability.kind}"
        if ability.kind == "activated":
            extra = [ability.timing, _cost(ability.cost), _limit(ability.limit)]
            if ability.usable_in_preparation:
                extra.append("usable in preparation")
            head += f" ({', '.join(x for x in extra if x)})"
        elif ability.kind == "automatic":
            head += f" ({ability.timing}{', optional' if ability.optional else ''})"
        elif ability.kind == "triggered":
            optional = ", optional" if ability.optional else ""
            head += f" (when {describe_when(ability.when)}{optional})"
        effects = "; ".join(describe_effect(e) for e in ability.effects)
        if ability.condition is not None:  # D-conditions
            effects = f"{ability.condition.describe()}: {effects}"
        lines.append(f"{INDENT}{head}: {escape(effects)}")
    return lines
