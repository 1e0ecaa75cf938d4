"""The guide to the card-data language (``hkk reference card-language``, ``docs/CARD-LANGUAGE.md``),
generated from what defines the language, so that it cannot fall behind it: the card and ability
models (:mod:`hkk._cards.model`: docstrings, field comments, validators), the registries of
verbs, trigger events and quantities (:mod:`hkk._cards.registry`; a word registered there is
on the page at the next regeneration), the targets and durations (:mod:`hkk._cards.types`) and
the turn (:data:`hkk.DEFAULT_TURN`, the hook specs).

Every word comes with an example card, TOML and the Hungarian text it stands for: the shortest
card of the base set using it, else one of :data:`hkk._card_words.EXAMPLES` (cards of no set,
written for this page, validated with every regeneration).  ``tests/test_card_language_guide.py``
regenerates the page and compares it with the committed one.
"""

from __future__ import annotations

import inspect
import re
import tomllib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from importlib.resources import files
from typing import Any, get_args

from pydantic import BaseModel, ValidationError
from pydantic_core import PydanticUndefined

from hkk import _hookspecs
from hkk._card_words import CARD_KINDS, COMPARISONS, DURATIONS, EXAMPLES, QUANTITY_KINDS, TARGETS
from hkk._cards import model
from hkk._cards import types as card_types
from hkk._cards.amounts import TRIGGER_AMOUNT, Count, Where
from hkk._cards.quantities import PERMANENT_QUANTITIES, QUANTITIES, WHOSE, quantity_names
from hkk._cards.trigger_events import WHEN_EVENTS
from hkk._cards.verbs import VERBS
from hkk._phases import CARD_TIMINGS, DEFAULT_TURN

__all__ = ["REGENERATE", "example_cards", "examples_asked", "markdown", "words"]

REGENERATE = "hkk reference card-language --markdown > docs/CARD-LANGUAGE.md"

_COMPARISONS = tuple(name for name in model.Condition.model_fields if name != "of")
_ON_ENTER = "When the card enters play (\"Amikor játékba kerül\"): not a step of the turn"


# -- the example cards -----------------------------------------------------------------------------

@dataclass(frozen=True)
class ExampleCard:
    """One card as written in its file: its TOML block and data, and where it comes from."""

    source: str
    block: str
    data: dict[str, Any]

    @property
    def lines(self) -> int:
        return self.block.count("\n") + 1


def _blocks(text: str) -> Iterator[str]:
    """Each ``[[cards]]`` table of a card file with its sub-tables, as written (comments kept,
    the comment and blank lines before the next card left out)."""
    starts = [m.start() for m in re.finditer(r"^\[\[cards\]\]$", text, re.M)]
    for start, end in zip(starts, [*starts[1:], len(text)], strict=True):
        lines = text[start:end].rstrip().splitlines()
        while lines and (not lines[-1].strip() or lines[-1].lstrip().startswith("#")):
            lines.pop()
        yield "\n".join(lines)


def _cards_of(text: str, source: str) -> list[ExampleCard]:
    model.CardFile.model_validate(tomllib.loads(text))  # an example that is no card fails here
    return [ExampleCard(source, block, tomllib.loads(block)["cards"][0])
            for block in _blocks(text)]


def example_cards() -> list[ExampleCard]:
    """The base set's cards (file by file, in name order), then :data:`EXAMPLES`."""
    found = []
    folder = files("hkk_set_alap").joinpath("cards")
    for path in sorted(folder.iterdir(), key=lambda p: p.name):
        if path.name.endswith(".toml"):
            found += _cards_of(path.read_text(encoding="utf-8"), "the base set")
    return found + _cards_of(EXAMPLES, "an example")


def words(card: dict[str, Any]) -> set[tuple[str, str]]:
    """The words a card's data uses, as (part of the language, word) pairs."""
    found = {("card", card["kind"])}
    for ability in card.get("abilities", ()):
        found.add(("ability", ability["kind"]))
        if "timing" in ability:
            found.add(("timing", ability["timing"]))
        if "when" in ability:
            found.add(("event", ability["when"]["event"]))
    _effect_words(card, found)
    return found


def _effect_words(data: Any, found: set[tuple[str, str]]) -> None:
    if isinstance(data, list):
        for item in data:
            _effect_words(item, found)
        return
    if not isinstance(data, dict):
        return
    for key, value in data.items():
        if key == "do":
            found.add(("verb", value))
        elif key == "target":
            found.add(("target", value))
        elif key in ("duration", "durations"):
            found.update(("duration", d) for d in ([value] if isinstance(value, str) else value))
        elif key == "count" and isinstance(value, str):  # a count, not a number of cards
            found.add(("count", value))
            if value != TRIGGER_AMOUNT:
                found.add(("quantity", value.split("_", 1)[1]))
        elif key == "where" and isinstance(value, dict):
            found.add(("filter", value["of"]))
        elif key == "condition":
            for name, part in value.items():
                if name in _COMPARISONS:
                    found.add(("comparison", name))
                if isinstance(part, str):
                    found.add(("quantity", part.split("_", 1)[1]))
        _effect_words(value, found)


class _Examples:
    def __init__(self) -> None:
        self.cards = example_cards()
        self.words = [words(card.data) for card in self.cards]
        #: Every (part, word) the guide asked an example for, and those it found none for.
        self.asked: list[tuple[str, str]] = []
        self.missing: list[tuple[str, str]] = []

    def of(self, part: str, word: str) -> ExampleCard | None:
        """The shortest card using ``word`` (the first of equals)."""
        self.asked.append((part, word))
        using = [(not _text(card), card.lines, i) for i, card in enumerate(self.cards)
                 if (part, word) in self.words[i]]
        if not using:
            self.missing.append((part, word))
        return self.cards[min(using)[2]] if using else None


def _text(card: ExampleCard) -> str:
    """The Hungarian text: the card's, else its first ability's."""
    data = card.data
    return str(data.get("text") or next((a["text"] for a in data.get("abilities", ())
                                         if a.get("text")), ""))


def _example(card: ExampleCard | None, where: str) -> list[str]:
    if card is None:  # tests/test_card_language_guide.py names it (missing_examples)
        return []
    data = card.data
    text = _text(card)
    said = f": \"{text}\"" if text else " (no card text)"
    return [f"Example, {data['name']} (`{data['id']}`, {card.source}){said}", "",
            "```toml", card.block, "```", ""]


# -- fields of a model -----------------------------------------------------------------------------

def _comments(cls: type) -> dict[str, str]:
    """The ``#:`` comments above a class's fields, its bases' too."""
    found: dict[str, str] = {}
    for klass in reversed(cls.__mro__):
        if klass.__module__.split(".")[0] not in ("builtins", "pydantic", "typing"):
            try:
                source = inspect.getsource(klass)
            except (OSError, TypeError):  # pragma: no cover - a class made at run time
                continue
            for match in re.finditer(r"((?:^ *#: .*\n)+)^ *(\w+): ", source, re.M):
                found[match[2]] = " ".join(line.strip()[3:] for line in
                                           match[1].splitlines()).replace("``", "`")
    return found


_NAMED_ENUMS: tuple[tuple[str, Callable[[], frozenset[str]]], ...] = (
    ("a target (below)", lambda: frozenset(get_args(card_types.Target))),
    ("a duration (below)", lambda: frozenset(get_args(card_types.Duration))),
    ("a quantity (below)", lambda: frozenset(quantity_names())),
    ("a timing (below)", lambda: frozenset(CARD_TIMINGS + ("on_enter",))),
)


#: Tables with a section of their own, by their schema name: what a field holding one is.
_SECTION_TABLES = {"Count": "a count (`{ count = \"own_creatures\" }`, see Counted amounts)",
                   "Where": "a target filter (`{ of = \"damage_taken\", at_least = 1 }`, see "
                            "Target filters)"}


def _schema_words(schema: dict[str, Any]) -> str:
    for union in ("anyOf", "oneOf"):
        if union in schema:
            parts = [_schema_words(s) for s in schema[union] if s.get("type") != "null"]
            return " or ".join(parts)
    if "const" in schema:
        return f"`\"{schema['const']}\"`"
    if "enum" in schema:
        values = frozenset(schema["enum"])
        for name, known in _NAMED_ENUMS:
            if values == known():
                return name
        return "one of " + ", ".join(f"`\"{v}\"`" for v in schema["enum"])
    if "$ref" in schema:
        name = str(schema["$ref"]).rsplit("/", 1)[1]
        return _SECTION_TABLES.get(name, f"a table ({name})")
    kind = schema.get("type")
    if kind == "integer":
        low = schema.get("minimum")
        if "exclusiveMinimum" in schema:
            low = schema["exclusiveMinimum"] + 1
        high = schema.get("maximum")
        return "an integer" + (f" {low} to {high}" if low is not None and high else "")
    if kind == "array":
        items = schema.get("items", {})
        return "a list of these" if "enum" in items and len(items["enum"]) < 6 \
            else "a list of " + _schema_words(items).removeprefix("a ")
    if kind == "object":
        return "a table"
    if kind == "boolean":
        return "true or false"
    if kind == "string":
        return "a text" + (f" matching `{schema['pattern']}`" if "pattern" in schema else "")
    return "a value"


def _toml(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f"\"{value}\""
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    if isinstance(value, BaseModel):
        value = {k: v for k, v in value.model_dump().items() if v is not None}
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{k} = {_toml(v)}" for k, v in value.items()) + " }" \
            if value else "{}"
    return str(value)


def _fields(cls: type[BaseModel], leave_out: tuple[str, ...] = ("kind", "do")) -> list[str]:
    props = cls.model_json_schema()["properties"]
    comments = _comments(cls)
    lines = []
    for name, info in cls.model_fields.items():
        if name in leave_out:
            continue
        what = _schema_words(props.get(name, {})) if name in props else "a value"
        if name in ("effects", "abilities"):
            what = f"a list of {name} (below)"
        if info.default is PydanticUndefined and info.default_factory is None:
            default = "required"
        else:
            value = info.get_default(call_default_factory=True)
            default = f"default `{_toml(value)}`" if value not in (None, ()) else "optional"
        about = info.description or comments.get(name, "")
        lines.append(f"- `{name}`: {what}; {default}" + (f". {about}" if about else ""))
    return lines


def _doc(cls: type) -> str:
    doc = cls.__doc__
    if not doc or doc.startswith(("Usage docs:", "A base class")) or cls.__doc__ == \
            BaseModel.__doc__:
        return ""
    return " ".join(_ROLE.sub(r"`\1`", inspect.cleandoc(doc)).replace("``", "`").split())


_ROLE = re.compile(r":(?:class|func|meth|data|mod|attr):`~?([^`]+)`")


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:]


# -- the sections ------------------------------------------------------------------------------

def _card_section(examples: _Examples) -> list[str]:
    kinds = get_args(get_args(model.Card)[0])
    common = set.intersection(*(set(cls.model_fields) for cls in kinds)) - {"kind"}
    lines = ["## Cards (`kind`)", "",
             "A card file (`cards/*.toml` of a set) is a list of `[[cards]]` tables. Every card "
             "has these fields:", "",
             *_fields(kinds[0], leave_out=tuple(set(kinds[0].model_fields) - common)),
             "", "A cost (`cost = { vp = 2 }`):", "", *_fields(model.Cost), ""]
    for cls in kinds:
        kind = cls.model_fields["kind"].default
        own = _fields(cls, leave_out=("kind", *sorted(common)))
        lines += [f"### `{kind}`", "", _doc(cls) or CARD_KINDS.get(kind, kind) + ".", ""]
        if own:
            lines += ["Its own fields:", "", *own, ""]
        lines += _example(examples.of("card", kind), f"a card with kind = \"{kind}\"")
    return lines


def _ability_section(examples: _Examples) -> list[str]:
    lines = ["## Abilities (`[[cards.abilities]]`, `kind`)", "",
             "A creature's or building's abilities, each a `[[cards.abilities]]` table after "
             "its card. Shorthands every ability and spell accepts:", ""]
    shorthands = (model.__doc__ or "").split("TOML shorthands accepted on input", 1)[1]
    lines += [" ".join(shorthands.split(":", 1)[1].split()).replace("``", "`")
              .replace(" * ", "\n- ").replace("* ", "- ", 1), ""]
    for cls in get_args(get_args(model.Ability)[0]):
        kind = cls.model_fields["kind"].default
        lines += [f"### `{kind}`", "", _doc(cls), "", *_fields(cls), ""]
        lines += _example(examples.of("ability", kind), f"an ability of kind = \"{kind}\"")
    return lines


def _refusal(cls: type[BaseModel], data: dict[str, Any]) -> str:
    try:
        cls.model_validate(data)
    except ValidationError as exc:
        return str(exc.errors()[0]["msg"])
    return ""


def _timing_section(examples: _Examples) -> list[str]:
    lines = ["## Timings (`timing`)", "",
             "When an automatic ability fires or an activated one can be used: a step of the "
             "turn, or `on_enter`. What each ability kind may use is what the models accept:", ""]
    # a plain effect, then one only some timings take (29.4.5)
    effects = ([{"do": "draw", "count": 1}], [{"do": "modify", "stat": "vp_regen", "by": 1,
                                               "target": "controller", "duration": "this_turn"}])
    for timing in CARD_TIMINGS + ("on_enter",):
        steps = [s for s in DEFAULT_TURN if s.hook == timing]
        if steps:
            step = steps[0]
            spec = getattr(_hookspecs, timing, None)
            doc = inspect.cleandoc(getattr(spec, "__doc__", None) or "")
            first = " ".join(doc.split("\n\n")[0].split()).replace("``", "`").rstrip(".")
            about = f"The {step.phase} phase, stage {step.stage} (rules " \
                    f"{', '.join(step.rules)})" + (f". {first}" if first else "")
        else:
            about = _ON_ENTER
        lines += [f"### `{timing}`", "", about + ".", ""]
        usable = False
        for cls in (model.AutomaticAbility, model.ActivatedAbility):
            kind = cls.model_fields["kind"].default
            refused, *others = [_refusal(cls, {"kind": kind, "timing": timing, "effects": e})
                                for e in effects]
            some = not all(others)  # another effect is accepted
            lines.append(f"- {kind}: " + ("yes" if not refused else
                                          f"only some effects - {refused}" if some else
                                          f"no - {refused}"))
            usable = usable or not refused or some
        lines.append("")
        if usable:
            lines += _example(examples.of("timing", timing), f"an ability timed \"{timing}\"")
        else:
            lines += ["No card ability may be timed on it: it is a step of the turn's own "
                      "(plugins may use its hook).", ""]
    return lines


def _event_section(examples: _Examples) -> list[str]:
    lines = ["## Trigger events (`when`)", "",
             _doc(model.When), "`when = { event = \"dies\", whose = \"own\", card_kind = "
             "\"creature\" }` is \"Amikor egy lényed meghal\". Its fields:", "",
             *_fields(model.When, leave_out=()), ""]
    for name in WHEN_EVENTS:
        event = WHEN_EVENTS[name]
        offers = ", ".join(f"`{t}`" for t in sorted(event.offers))
        about = "a permanent" if event.of_permanent else event.subject
        lines += [f"### `{name}`", "", f"When {event.meaning}. It happens to {about}; the "
                  f"event-bound targets it offers: {offers}.", ""]
        lines += _example(examples.of("event", name), f"a triggered ability on \"{name}\"")
    return lines


def _target_section(examples: _Examples) -> list[str]:
    lines = ["## Targets (`target`)", "",
             "Who or what an effect acts on, decided when it resolves (a chosen one when its "
             "item is bound, before a simultaneous moment: 29.4.2). A verb that acts on a "
             "player takes a player target, one that acts on permanents a permanent target; "
             "the event-bound `trigger_*` targets only in triggered abilities.", ""]
    for target in get_args(card_types.Target):
        what = "player" if target in card_types.PLAYER_TARGETS else "permanent"
        bound = ", only in a triggered ability" if target in card_types.TRIGGER_TARGETS else ""
        lines += [f"### `{target}`", "", f"{_sentence(TARGETS.get(target, target))}. "
                                          f"A {what} target{bound}.", ""]
        lines += _example(examples.of("target", target), f"an effect with target = \"{target}\"")
    return lines


def _duration_section(examples: _Examples) -> list[str]:
    lines = ["## Durations (`duration`)", "",
             "How long a lasting effect (`modify`) lasts; `end_effects` names them too "
             "(`durations`).", ""]
    for duration in get_args(card_types.Duration):
        ends = [f"`{s.hook}`" for s in DEFAULT_TURN if duration in s.ends]
        when = f" It ends in the moment of {', '.join(ends)}." if ends else ""
        lines += [f"### `{duration}`", "",
                  f"{_sentence(DURATIONS.get(duration, duration))}.{when}", ""]
        lines += _example(examples.of("duration", duration),
                          f"an effect with duration = \"{duration}\"")
    return lines


def _condition_section(examples: _Examples) -> list[str]:
    lines = ["## Conditions (`condition`)", "", _doc(model.Condition), "",
             f"Any ability may carry one. {model._CONDITION_DOC}", "",
             "### Comparisons", ""]
    for name in _COMPARISONS:
        lines += [f"#### `{name}`", "", f"`{name} = N` or `{name} = \"<quantity>\"`: "
                  f"{COMPARISONS.get(name, name.replace('_', ' '))}.", ""]
        lines += _example(examples.of("comparison", name), f"a condition with {name}")
    lines += ["### Quantities (`of`)", "",
              f"`{WHOSE[0]}_<kind>` is the ability's controller's, `{WHOSE[1]}_<kind>` his "
              "opponent's.", ""]
    for kind in QUANTITIES:
        quantity = QUANTITIES[kind]
        names = " / ".join(f"`{whose}_{kind}`" for whose in WHOSE)
        meaning = _doc(type(quantity)) or QUANTITY_KINDS.get(kind, kind)
        after = ", ".join(sorted(f"`{e.kind}`" for e in quantity.changed_by))
        lines += [f"#### {names}", "", f"{_sentence(meaning)}; read again after {after}.", ""]
        lines += _example(examples.of("quantity", kind), f"a condition on {kind}")
    return lines


def _count_section(examples: _Examples) -> list[str]:
    lines = ["## Counted amounts (`count`)", "",
             " ".join(_doc(Count).split()), "",
             "A verb's amount (`amount`, `count`, and `modify`'s `by`) is a number or a count, "
             "a table: `amount = { count = \"own_creatures\", times = 2 }` is \"kétszer "
             "annyi ..., ahány lényed van\". Its fields:", "",
             *_fields(Count, leave_out=()), "",
             "### A quantity (`own_<kind>`, `opponent_<kind>`)", "",
             "Any quantity of the conditions (above, Quantities), read when the effect "
             "applies, seen from the ability's controller: \"annyi ..., ahány lényed van\".",
             ""]
    lines += _example(examples.of("count", "own_creatures"), "a count of own_creatures")
    having = ", ".join(f"`{name}` ({WHEN_EVENTS[name].amount})" for name in WHEN_EVENTS
                       if WHEN_EVENTS[name].amount)
    lines += [f"### `{TRIGGER_AMOUNT}`", "",
              "In a triggered ability, the amount of the event that set it off: \"annyi ..., "
              f"amennyi sebzést okozott / szenvedett\" (D-trigger-amount). The events that have "
              f"one: {having}; elsewhere the card data is refused.", ""]
    lines += _example(examples.of("count", TRIGGER_AMOUNT), f"a count of {TRIGGER_AMOUNT}")
    return lines


def _filter_section(examples: _Examples) -> list[str]:
    lines = ["## Target filters (`where`)", "",
             " ".join(_doc(Where).split()), "",
             "A verb acting on a group or a choice of permanents may carry one: `where = { of = "
             "\"damage_taken\", at_least = 1 }` is \"minden sérült lény\". Its fields:", "",
             *_fields(Where, leave_out=()), "",
             "What `of` may read of each permanent:", ""]
    for name in PERMANENT_QUANTITIES:
        quantity = PERMANENT_QUANTITIES[name]
        needs = " It needs `counter`." if quantity.needs_counter else ""
        lines += [f"### `{name}`", "", f"{_sentence(_doc(type(quantity)) or name)}{needs}", ""]
        lines += _example(examples.of("filter", name), f"a filter of {name}")
    return lines


def _verb_section(examples: _Examples) -> list[str]:
    lines = ["## Effect verbs (`do`)", "",
             "What happens: an effect is a table whose `do` names the verb, e.g. "
             "`effect = { do = \"damage\", amount = 2, target = \"opponent\" }`. Its events are "
             "what the log shows when it happens (`hkk reference events`).", ""]
    for name in VERBS:
        verb = VERBS[name]
        logs = "; ".join(f"`{e.kind}`: {e.meaning.rstrip('.')}" for e in verb.emits) \
            or "no event of its own"
        lines += [f"### `{name}`", ""]
        if _doc(verb):
            lines += [_doc(verb), ""]
        if verb.static_only:
            lines += ["Only in a static ability.", ""]
        lines += [f"Logs: {logs}.", "", *_fields(verb), ""]
        lines += _example(examples.of("verb", name), f"an effect with do = \"{name}\"")
    return lines


_HEADER = f"""# The card-data language

<!-- Generated by `{REGENERATE}`
from the code (hkk/_card_language.py, hkk/_card_words.py, hkk/_cards/); do not edit by hand. -->

Everything a set's card files may say, word by word: card kinds, ability kinds, timings,
trigger events, targets, durations, conditions, counted amounts, target filters and effect
verbs, each with an example card (its TOML and the Hungarian text it stands for). The files
are validated strictly: an unknown field or word is an error naming the file, the card and the
field (`hkk verify`, or `hkk schema` for an editor's completion). `hkk cards CODE` prints a
set's cards in these words. For Python hooks, see the [reference](REFERENCE.md); for a whole
set, [Writing a set](WRITING-A-SET.md).
"""

SECTIONS: dict[str, Callable[[_Examples], list[str]]] = {
    "cards": _card_section, "abilities": _ability_section, "timings": _timing_section,
    "events": _event_section, "targets": _target_section, "durations": _duration_section,
    "conditions": _condition_section, "counts": _count_section, "filters": _filter_section,
    "verbs": _verb_section,
}


def markdown() -> str:
    """The whole guide."""
    return _generate(_Examples())


def _generate(examples: _Examples) -> str:
    lines = [_HEADER]
    for section in SECTIONS.values():
        lines += section(examples)
    text = "\n".join(lines)
    return re.sub(r"\n{3,}", "\n\n", text).rstrip() + "\n"


def examples_asked() -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """Every (part, word) the guide shows with an example card, and those it has none for
    (the guide then shows none: a word needs a card of the base set or of
    :data:`hkk._card_words.EXAMPLES`)."""
    examples = _Examples()
    _generate(examples)
    return examples.asked, examples.missing
