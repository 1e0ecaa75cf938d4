"""Hypothesis strategies for random data-only card sets over the whole card language
(docs/CARD-LANGUAGE.md): creatures, buildings and spells whose abilities and effects use every
verb, trigger event, timing, target, duration, condition, counted amount and filter, with random
parameters inside the validators' bounds (kept small, so that games stay games), and decks of
them.  The words are read from the models and registries (:mod:`hkk._cards`), never copied:
a verb, event, quantity or field value registered later is drawn as soon as it is
registered, and a field the generator knows nothing of fails loudly (``_field``).

Every card is validated by the models (pydantic stays the only judge of a card): a drawn
combination they refuse is drawn again among the ones they accept, never kept.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from functools import cache
from typing import Any, Literal, Union, get_args, get_origin

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from pydantic import BaseModel, ValidationError

from hkk._card_language import words as guide_words
from hkk._cards import model
from hkk._cards.abilities import STATIC_TARGETS  # the models refuse any other for a static
from hkk._cards.amounts import COMPARISONS, TRIGGER_AMOUNT, count_names
from hkk._cards.quantities import PERMANENT_QUANTITIES, quantity_names
from hkk._cards.trigger_events import WHEN_EVENTS
from hkk._cards.types import TRIGGER_TARGETS, Duration, Stat, Target
from hkk._cards.verbs import VERBS
from hkk._phases import CARD_TIMINGS

__all__ = ["FRESH_SETS", "NOT_DATA_ONLY", "STATIC_TARGETS", "abilities", "card_models",
           "card_sets", "cards", "effects", "fixed_or_fresh", "language_words", "set_and_decks",
           "timings", "words_of"]

#: Sets drawn afresh on request (``HKK_FRESH_SETS=1000``: a fuzzing run, each run others); CI,
#: which must give a commit one verdict, plays only fixed ones.
FRESH_SETS = int(os.environ.get("HKK_FRESH_SETS", "0"))


def fixed_or_fresh(fixed: int) -> settings:
    """A test over random sets: ``fixed`` examples, the same every run, or ``FRESH_SETS``
    fresh ones when asked for."""
    return settings(max_examples=FRESH_SETS or fixed, derandomize=not FRESH_SETS,
                    database=None, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


#: Verbs that are no data-only word: ``custom`` calls a set's Python code (its
#: ``custom_effects`` hook), so a card using it is never a data-only game (the native core
#: refuses it by name: tests/test_native_differential.py).
NOT_DATA_ONLY = frozenset({"custom"})

Draw = Callable[[st.SearchStrategy[Any]], Any]

_CARD_CLASSES: dict[str, type[BaseModel]] = {
    cls.model_fields["kind"].default: cls
    for cls in get_args(get_args(model.Card)[0])}
_ABILITY_CLASSES: dict[str, type[BaseModel]] = {
    cls.model_fields["kind"].default: cls
    for cls in get_args(get_args(model.Ability)[0])}
_COUNTERS = ("poison", "rune")  # poison: counted by own_poison/opponent_poison


def _literals(annotation: Any) -> tuple[Any, ...]:
    """The values of a ``Literal`` (or ``Literal | None``) annotation; () for anything else."""
    if get_origin(annotation) is Literal:
        return get_args(annotation)
    if get_origin(annotation) is Union:
        return tuple(v for arg in get_args(annotation) for v in _literals(arg))
    return ()


def _valid(cls: type[BaseModel], data: dict[str, Any]) -> bool:
    try:
        cls.model_validate(data)
    except ValidationError:
        return False
    return True


@cache
def timings(kind: str) -> tuple[str, ...]:
    """The timings an ability of ``kind`` accepts with some effect (the models say which)."""
    effects = [{"do": "modify", "stat": "vp_regen", "by": 1, "target": "controller",
                "duration": "this_turn"}, {"do": "draw", "count": 1}]
    extra = [{}, {"usable_in_preparation": True}]
    return tuple(t for t in (*CARD_TIMINGS, "on_enter") if any(
        _valid(_ABILITY_CLASSES[kind], {"kind": kind, "timing": t, "effects": [e], **x})
        for e in effects for x in extra))


# -- effects ---------------------------------------------------------------------------------

def _count(draw: Draw, trigger_amount: bool) -> dict[str, Any]:
    names = [n for n in count_names() if n != TRIGGER_AMOUNT]
    if trigger_amount and draw(st.integers(0, 3)) > 0:  # the event's amount, mostly
        names = [TRIGGER_AMOUNT]
    found: dict[str, Any] = {"count": draw(st.sampled_from(names))}
    if draw(st.booleans()):
        found["times"] = draw(st.integers(1, 2))
    return found


def _condition(draw: Draw) -> dict[str, Any]:
    """A condition: a quantity against a small number or another quantity."""
    of = draw(st.sampled_from(quantity_names()))
    bound = draw(st.one_of(st.integers(-1, 12), st.sampled_from(quantity_names())))
    return {"of": of, draw(st.sampled_from(COMPARISONS)): bound}


def _where(draw: Draw) -> dict[str, Any]:
    of = draw(st.sampled_from(PERMANENT_QUANTITIES.names()))
    found: dict[str, Any] = {"of": of, draw(st.sampled_from(COMPARISONS)): draw(st.integers(0, 4))}
    if PERMANENT_QUANTITIES[of].needs_counter:
        found["counter"] = draw(st.sampled_from(_COUNTERS))
    return found


def _field(draw: Draw, verb: str, name: str, annotation: Any, counts: bool,
           trigger_amount: bool) -> Any:
    """A value of one field of a verb (all but do, target and where), small."""
    choices = _literals(annotation)
    often = draw(st.booleans())  # a counted amount, where one may stand, half the time
    if name == "by":
        if counts and often:
            return _count(draw, trigger_amount)
        return draw(st.sampled_from((-2, -1, 1, 1, 2, 3)))
    if name in ("amount", "count"):
        if counts and "Count" in str(annotation) and often:
            return _count(draw, trigger_amount)
        return draw(st.integers(1, 3))
    if name == "counter":
        return draw(st.sampled_from(_COUNTERS))
    if name == "durations":
        return draw(st.lists(st.sampled_from(get_args(Duration)), max_size=2, unique=True))
    if name == "turns":
        return draw(st.integers(1, 3))
    if choices:
        return draw(st.sampled_from(choices))
    raise AssertionError(f"the generator knows no field {name!r} of the verb {verb!r}: "
                         "teach tests/strategies_sets.py._field it")


@st.composite
def effects(draw: Draw, where: str, offers: frozenset[str] = frozenset(),
            trigger_amount: bool = False) -> dict[str, Any]:
    """One effect of a spell or of an ability of kind ``where`` (``static``: a permanent
    modifier or a prevention), whose ``trigger_*`` targets are the ``offers`` of its event."""
    static = where == "static"
    verbs = sorted(name for name in VERBS.names()
                   if name not in NOT_DATA_ONLY and (static or not VERBS[name].static_only))
    if static:
        verbs = [v for v in verbs if v in ("modify", "prevent")]
    verb = draw(st.sampled_from(verbs))
    cls = VERBS[verb]
    data: dict[str, Any] = {"do": verb}
    for name, field in cls.model_fields.items():
        if name in ("do", "target", "where") or (name == "turns" and "duration" in data):
            continue
        if not field.is_required() and draw(st.integers(0, 2)) == 0:
            continue  # the default
        data[name] = _field(draw, verb, name, field.annotation, not static, trigger_amount)
    if static and verb == "modify":
        data["duration"] = "permanent"
    if data.get("duration") == "turns":
        data["turns"] = draw(st.integers(1, 3))
    else:
        data.pop("turns", None)
    if "target" in cls.model_fields:
        allowed = [t for t in (_literals(cls.model_fields["target"].annotation)
                               or get_args(Target))
                   if t not in TRIGGER_TARGETS or t in offers]
        if static:  # the models refuse a static modifier of any other target
            allowed = [t for t in allowed if t in STATIC_TARGETS]
        fits = [t for t in allowed if _valid(cls, {**data, "target": t})]
        if not fits:  # a verb whose other fields fit no target: draw it again
            return draw(effects(where, offers, trigger_amount))
        data["target"] = draw(st.sampled_from(fits))
        if not cls.model_fields["target"].is_required() and draw(st.integers(0, 3)) == 0 \
                and _valid(cls, {k: v for k, v in data.items() if k != "target"}):
            del data["target"]
    if "where" in cls.model_fields and not static and draw(st.integers(0, 3)) == 0:
        filtered = {**data, "where": _where(draw)}
        if _valid(cls, filtered):
            data = filtered
    if not _valid(cls, data):
        return draw(effects(where, offers, trigger_amount))
    return data


def _effect_list(draw: Draw, where: str, offers: frozenset[str] = frozenset(),
                 trigger_amount: bool = False) -> list[dict[str, Any]]:
    return draw(st.lists(effects(where, offers, trigger_amount), min_size=1, max_size=2))


# -- abilities -------------------------------------------------------------------------------

def _when(draw: Draw) -> dict[str, Any]:
    event = draw(st.sampled_from(WHEN_EVENTS.names()))
    found: dict[str, Any] = {"event": event}
    which = draw(st.sampled_from(_literals(model.When.model_fields["which"].annotation)))
    if which != "any" and WHEN_EVENTS[event].of_permanent:
        found["which"] = which
    if found.get("which") != "this":
        if draw(st.booleans()):
            found["whose"] = draw(st.sampled_from(
                _literals(model.When.model_fields["whose"].annotation)))
        kinds = [k for k in _literals(model.When.model_fields["card_kind"].annotation)
                 if k != "spell" or not WHEN_EVENTS[event].of_permanent]
        if not WHEN_EVENTS[event].of_permanent:  # a played card's kind: spells mostly
            kinds = [k for k in kinds if k == "spell"] * 2 + kinds
        if draw(st.booleans()) or not WHEN_EVENTS[event].of_permanent:
            found["card_kind"] = draw(st.sampled_from(kinds))
    return found


_LIMITS = get_args(model.LimitShorthand)


@st.composite
def abilities(draw: Draw) -> dict[str, Any]:
    """One ability of a creature or building, of any kind the models know."""
    kind = draw(st.sampled_from(sorted(_ABILITY_CLASSES)))
    data: dict[str, Any] = {"kind": kind}
    if kind == "static":
        data["effects"] = _effect_list(draw, "static")
    elif kind == "triggered":
        data["when"] = _when(draw)
        event = WHEN_EVENTS[data["when"]["event"]]
        data["effects"] = _effect_list(draw, kind, event.offers, bool(event.amount))
    else:
        data["timing"] = draw(st.sampled_from(timings(kind)))
        if data["timing"] == "prep_stage1":  # 29.4.5: only regeneration modifiers
            data["effects"] = [{"do": "modify", "stat": "vp_regen",
                                "by": draw(st.sampled_from((-1, 1, 2))),
                                "target": draw(st.sampled_from(("controller", "opponent",
                                                                "each_player"))),
                                "duration": draw(st.sampled_from(("this_turn", "turns",
                                                                  "until_end_of_turn")))}]
            if data["effects"][0]["duration"] == "turns":
                data["effects"][0]["turns"] = draw(st.integers(1, 3))
        else:
            data["effects"] = _effect_list(draw, kind)
    if kind == "automatic" and draw(st.booleans()):
        data["whose_turn"] = draw(st.sampled_from(
            _literals(model.AutomaticAbility.model_fields["whose_turn"].annotation)))
    if kind == "activated":
        if draw(st.booleans()):
            data["cost"] = _cost(draw, sacrifice=True)
        if data["timing"] == "prep_stage2":
            data[draw(st.sampled_from(("usable_in_preparation",
                                       "must_use_in_preparation")))] = True
        if draw(st.booleans()):
            data["limit"] = draw(st.one_of(
                st.sampled_from(_LIMITS), st.lists(st.sampled_from(_LIMITS), min_size=1,
                                                   max_size=2, unique=True),
                st.fixed_dictionaries({}, optional={
                    "per_turn": st.integers(1, 2), "per_game": st.integers(1, 3),
                    "whose_turn": st.sampled_from(_literals(
                        model.Limits.model_fields["whose_turn"].annotation))})))
    if kind != "static" and "optional" in _ABILITY_CLASSES[kind].model_fields \
            and draw(st.integers(0, 3)) == 0:
        data["optional"] = True
    if draw(st.integers(0, 3)) == 0:
        data["condition"] = _condition(draw)
    if not _valid(_ABILITY_CLASSES[kind], data):
        # a combination the models refuse (a must-use ability that is optional, an
        # optional end-stage-2 one): drawn again
        return draw(abilities())
    return data


def _cost(draw: Draw, sacrifice: bool = False) -> dict[str, Any]:
    found: dict[str, Any] = {"vp": draw(st.integers(0, 4))}
    if draw(st.integers(0, 4)) == 0:
        found["components"] = draw(st.integers(1, 2))
    if sacrifice and draw(st.integers(0, 4)) == 0:
        found["sacrifice_self"] = True
    return found


# -- cards, sets and decks -------------------------------------------------------------------

@st.composite
def cards(draw: Draw, card_id: str) -> dict[str, Any]:
    """One card of any kind, as a card file's table (validated by the models)."""
    kind = draw(st.sampled_from(sorted(_CARD_CLASSES)))
    data: dict[str, Any] = {"id": card_id, "name": card_id.split(":")[1].title(), "kind": kind,
                            "cost": _cost(draw)}  # sacrifice_self: an ability's cost
    if kind == "creature":
        data |= {"damage": draw(st.integers(0, 5)), "hp": draw(st.integers(1, 6)),
                 "components": draw(st.integers(0, 2))}
    elif kind == "building":
        data["sp"] = draw(st.integers(1, 6))
    else:
        data["effects"] = _effect_list(draw, "spell")
        data["instant"] = draw(st.booleans())
    if kind != "spell":
        data["abilities"] = draw(st.lists(abilities(), max_size=2))
    if draw(st.integers(0, 5)) == 0:
        data["play_condition"] = _condition(draw)
    if not _valid(_CARD_CLASSES[kind], data):
        return draw(cards(card_id))
    return data


@st.composite
def card_sets(draw: Draw, min_size: int = 4, max_size: int = 10) -> list[dict[str, Any]]:
    """A set of random cards (``rs:c0``, ``rs:c1``...), as card-file tables."""
    size = draw(st.integers(min_size, max_size))
    return [draw(cards(f"rs:c{i}")) for i in range(size)]


@st.composite
def set_and_decks(draw: Draw) -> tuple[dict[str, dict[str, Any]], tuple[list[str], list[str]]]:
    """A card set (id -> card-file table) and two decks of 20-30 of its cards."""
    tables = {table["id"]: table for table in draw(card_sets())}
    ids = sorted(tables)
    decks = tuple(draw(st.lists(st.sampled_from(ids), min_size=20, max_size=30))
                  for _ in range(2))
    return tables, (decks[0], decks[1])


def card_models(tables: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """The card models of a set's tables (what ``hkk.Engine`` takes), validated."""
    return {card_id: _CARD_CLASSES[table["kind"]].model_validate(table)
            for card_id, table in tables.items()}


# -- the words ---------------------------------------------------------------------------------

def _field_words(data: Any) -> Iterator[str]:
    """``key = "value"``, ``key = true``, ``key = { ... }`` and ``key = { count = ... }`` of
    every table in ``data``, as the native core names the words it implements."""
    if isinstance(data, list):
        for item in data:
            yield from _field_words(item)
    elif isinstance(data, dict):
        for key, value in data.items():
            if isinstance(value, bool):
                yield f"{key} = {str(value).lower()}"
            elif isinstance(value, str):
                yield f'{key} = "{value}"'
            elif isinstance(value, dict):
                yield f"{key} = {{ ... }}"
                if "count" in value:
                    yield f"{key} = {{ count = ... }}"
            elif isinstance(value, list) and value and all(isinstance(v, str) for v in value):
                yield from (f'{key} = "{v}"' for v in value)
            yield from _field_words(value)


def words_of(card: dict[str, Any]) -> set[tuple[str, str]]:
    """The words a card table uses: the guide's parts (:func:`hkk._card_language.words`:
    card, ability, timing, event, verb, target, duration, count, quantity, filter,
    comparison) and every field's value (``("field", 'stat = "hp"')``)."""
    return guide_words(card) | {("field", word) for word in _field_words(card)}


def _model_field_words(cls: type[BaseModel]) -> set[str]:
    found = set()
    for name, field in cls.model_fields.items():
        if name in ("timing", "target", "text_checked"):  # timings and targets: parts of
            continue                                      # their own; text_checked: no rule
        for value in _literals(field.annotation):
            if value == field.default:  # writing the default is no word of its own
                continue
            found.add(f'{name} = "{value}"' if isinstance(value, str) else f"{name} = {value}")
        if field.annotation is bool:
            found.add(f"{name} = {str(not field.default).lower()}")
    return found


def language_words() -> set[tuple[str, str]]:
    """Every word of the data-only card language, from the models and registries: the parts
    :func:`words_of` names, and every value of a field with a fixed set of values (a
    ``Literal`` or a flag) of the cards, abilities, ``when``, limits, costs and verbs."""
    found = {("card", k) for k in _CARD_CLASSES} | {("ability", k) for k in _ABILITY_CLASSES}
    found |= {("timing", t) for kind in ("automatic", "activated") for t in timings(kind)}
    found |= {("event", e) for e in WHEN_EVENTS.names()}
    verbs = set(VERBS.names()) - NOT_DATA_ONLY
    found |= {("verb", v) for v in verbs}
    found |= {("target", t) for t in get_args(Target)}
    found |= {("duration", d) for d in get_args(Duration)}
    found |= {("count", c) for c in count_names()}
    found |= {("quantity", q.split("_", 1)[1]) for q in quantity_names()}
    found |= {("filter", f) for f in PERMANENT_QUANTITIES.names()}
    found |= {("comparison", c) for c in COMPARISONS}
    found |= {("field", f'stat = "{s}"') for s in get_args(Stat)}
    classes = [*_CARD_CLASSES.values(), *_ABILITY_CLASSES.values(), model.When, model.Limits,
               model.Cost, *(VERBS[v] for v in verbs)]
    for cls in classes:
        found |= {("field", word) for word in _model_field_words(cls)}
    return found

