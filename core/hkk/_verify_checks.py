"""The checks of ``hkk verify`` that play no game (checks 2-3 of :mod:`hkk.verify`, and the
spoiler, deprecation and deck-format checks): a set's packaging, its custom effects, its
published card list, its uses of a deprecated hook API, its decks against their formats."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from hkk._cards.loader import card_places
from hkk._deck_specs import needed_sets
from hkk._deprecation import uses as deprecated_uses
from hkk._errors import HkkError
from hkk._formats import (
    DeckFormat,
    Violation,
    claimed_formats,
    describe_rules,
    find_format,
    unknown_cards,
    violations,
)
from hkk._spoiler import COLUMN_KEYS, SpoilerError, compare, read_spoiler, row_lines
from hkk._verify_games import engine_for, shown_path
from hkk._verify_report import Check


def packaging_checks(s: Any, by_code: dict[str, Any]) -> list[Check]:
    import importlib_metadata
    from packaging.requirements import InvalidRequirement, Requirement
    from packaging.utils import canonicalize_name

    if not s.distribution:
        return []
    try:
        requires = importlib_metadata.distribution(s.distribution).requires or []
    except importlib_metadata.PackageNotFoundError:
        return []
    reqs = {}
    for line in requires:
        try:
            req = Requirement(line)
        except InvalidRequirement:
            continue
        if req.marker is None or req.marker.evaluate({"extra": ""}):
            reqs[canonicalize_name(req.name)] = req
    checks = []
    engine_version = importlib_metadata.version("hkk")
    engine_req = reqs.get(canonicalize_name("hkk"))
    if canonicalize_name(s.distribution) == "hkk":  # the base set ships inside the engine
        checks.append(Check("packaging", s.code, True, f"ships with hkk {engine_version}",
                            set_code=s.code))
    elif engine_req is None:
        checks.append(Check("packaging", s.code, False, f"{s.distribution} does not require "
                            "'hkk' in its dependencies", severity="warning", set_code=s.code))
    elif not engine_req.specifier.contains(engine_version, prereleases=True):
        checks.append(Check("packaging", s.code, False,
                            f"{s.distribution} requires {engine_req}, installed hkk is "
                            f"{engine_version}", set_code=s.code))
    else:
        checks.append(Check("packaging", s.code, True,
                            f"requires {engine_req}; installed hkk {engine_version}",
                            set_code=s.code))
    for dep in s.manifest.depends:
        dist = by_code[dep].distribution if dep in by_code else None
        if dist and canonicalize_name(dist) not in reqs:
            checks.append(Check("packaging", s.code, False,
                                f"set.toml depends on {dep} but {s.distribution} does not "
                                f"require its distribution {dist}", severity="warning",
                                set_code=s.code))
    return checks


def spoiler_checks(targets: list[str], by_code: dict[str, Any], against: str) -> list[Check]:
    """The one set's cards against its published card list (:mod:`hkk._spoiler`)."""
    if len(targets) != 1:
        return [Check("spoiler", "all", False, f"--against compares one set with its spoiler; "
                      f"name exactly one set (got {', '.join(targets)})")]
    code = targets[0]
    try:
        spoiler = read_spoiler(against)
    except SpoilerError as exc:
        return [Check("spoiler", code, False, str(exc), set_code=code)]
    problems = compare(by_code[code].cards, spoiler)
    if not problems:
        return [
            Check("spoiler", code, True, f"all {len(spoiler)} published cards match {against}, "
                                         "none unpublished", set_code=code)]
    # Where each difference is (issue 24 item 11): a problem of the spoiler at its row, else
    # the card's definition, at the value that differs.
    places = card_places(code, by_code[code].root)
    rows = row_lines(against, spoiler)
    checks = []
    for problem in problems:
        place = places.get(problem.card)
        if problem.row is not None:
            file, line = shown_path(str(against)), rows[problem.row]
        elif place is not None:
            keys = COLUMN_KEYS[problem.column] if problem.column else ()
            file, line = shown_path(place.source or place.file), place.line(*keys)
        else:
            file, line = None, None
        checks.append(Check("spoiler", code, False, problem.message, set_code=code,
                            card=problem.card, file=file, line=line))
    return checks


def deprecation_checks(s: Any) -> list[Check]:
    """A warning per use of a deprecated hook or hook argument: a release of notice before the
    hook API removes it (:mod:`hkk._deprecation`)."""
    return [Check("deprecated-api", s.code, False, use.describe(), severity="warning",
                  set_code=s.code) for use in deprecated_uses(s.module)]


def custom_effect_checks(code: str, by_code: dict[str, Any], entry_points: Any) -> list[Check]:
    s = by_code[code]
    used = [(card.id, effect.name) for card in s.cards for effect in _effects_of(card)
            if getattr(effect, "do", None) == "custom"]
    if not used and "custom_effects" not in s.hook_names:
        return []
    try:
        engine = engine_for(needed_sets(code, by_code), entry_points)
        offered = engine.custom_effects()
    except HkkError as exc:
        return [Check("custom-effects", code, False, str(exc), set_code=code)]
    checks = [Check("custom-effects", code, False,
                    f"card uses custom effect {name!r}, which no set offers (offered: "
                    f"{sorted(offered)})", set_code=code, card=card_id)
              for card_id, name in used if name not in offered]
    return checks or [Check("custom-effects", code, True,
                            f"{len(used)} use(s) of {len(offered)} offered effect(s)",
                            set_code=code)]


def _effects_of(card: Any) -> list[Any]:
    effects = list(getattr(card, "effects", ()))
    for ability in card.abilities:
        effects.extend(ability.effects)
    return effects


def deck_format_checks(s: Any, formats: Mapping[str, DeckFormat], cards: Mapping[str, Any],
                       loaded: Iterable[str]) -> list[Check]:
    """Each deck of the set against every format it names, or casual (:mod:`hkk._formats`): a
    failure per violation, naming deck, format, kind and card; and each format the set ships
    bans or restricts only cards its sets define."""
    codes = list(loaded)
    checks = [Check("deck-format", s.code, False, f"format {name} ({fmt.file}) names card "
                    f"{card_id!r}, which set {card_id.partition(':')[0]} does not define",
                    set_code=s.code, card=card_id)
              for name, fmt in sorted(s.formats.items())
              for card_id in unknown_cards(fmt, cards, codes)]
    met = []
    for deck_name, deck in sorted(s.decks.items()):
        full = f"{s.code}:{deck_name}"
        found: list[tuple[str, Violation]] = []
        for format_name in claimed_formats(deck):
            try:
                fmt = find_format(format_name, formats)
            except HkkError as exc:
                found.append((format_name, Violation("unknown-format", str(exc))))
                continue
            found.extend((format_name, v) for v in violations(fmt, deck.cards, cards))
        checks.extend(Check("deck-format", s.code, False, v.describe(full, format_name),
                            set_code=s.code, card=v.card) for format_name, v in found)
        if not found:
            met.append(f"{full} ({', '.join(claimed_formats(deck))})")
    if not checks and (met or s.formats):
        shipped = "; ".join(f"ships {name}: {describe_rules(fmt)}"
                            for name, fmt in sorted(s.formats.items()))
        checks.append(Check("deck-format", s.code, True, "; ".join(
            part for part in (f"decks meet their formats: {', '.join(met)}" if met else "",
                              shipped) if part), set_code=s.code))
    return checks
