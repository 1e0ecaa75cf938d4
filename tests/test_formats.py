"""Deck formats (issue 25, :mod:`hkk._formats`): a set's ``formats/NAME.toml``, read with errors
naming set, file and line; every deck held to the formats it names (or casual) by ``hkk verify``'s
deck-format check, each violation named; ``hkk play`` / ``hkk simulate --format`` refusing an
illegal deck, and warning without it."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import jsonschema
import pytest
import test_verify
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from hkk import Engine
from hkk._errors import CardDataError
from hkk._formats import DeckFormat, FormatRules, parse_format_file, violations
from hkk._schema import format_file_schema
from hkk._sets.manifest import SET_CODE_PATTERN
from hkk.cli import main
from hkk.verify import verify

fake_set = test_verify.fake_set  # the fixture, shared

ROOT = Path(__file__).resolve().parents[1]
KEZDO = ROOT / "sets" / "alap" / "src" / "hkk_set_alap" / "formats" / "kezdo.toml"


def creature(slug: str, name: str) -> str:
    return (f'[[cards]]\nid = "torna:{slug}"\nname = "{name}"\nkind = "creature"\n'
            "damage = 1\nhp = 2\n")


#: Four plain cards, one banned, one restricted, and a second "Alfa" under another id.
TORNA_CARDS = "".join(creature(slug, name) for slug, name in [
    ("a", "Alfa"), ("b", "Béta"), ("c", "Gamma"), ("d", "Delta"), ("tiltott", "Tiltott"),
    ("ritka", "Ritka"), ("a2", "Alfa")])

SZIGORU = """\
# a tournament's rules
[format]
title = "Szigorú"
min_cards = 10
max_cards = 12
max_copies = 3
sets = ["torna"]
banned = ["torna:tiltott"]
restricted = ["torna:ritka"]
"""


def deck(name: str, cards: dict[str, int], formats: tuple[str, ...] = ("torna:szigoru",)) -> str:
    lines = [f'[[decks]]\nname = "{name}"\nformats = {json.dumps(list(formats))}\n'
             "[decks.cards]\n"]
    lines += [f'"{card}" = {n}\n' for card, n in cards.items()]
    return "".join(lines)


BASE = {"torna:a": 3, "torna:b": 3, "torna:c": 3, "torna:d": 1}  # 10 cards: meets szigoru
#: One deck per kind of violation, each breaking szigoru in that one way; and two legal decks.
TORNA_DECKS = "\n".join([
    deck("jo", BASE),
    deck("kicsi", {"torna:a": 3, "torna:b": 3}),
    deck("nagy", {**BASE, "torna:d": 3, "torna:ritka": 1}),
    deck("idegen", {**BASE, "alap:tuzmano": 1}),
    deck("tiltott", {**BASE, "torna:tiltott": 1}),
    deck("ritka", {"torna:a": 3, "torna:b": 3, "torna:c": 2, "torna:ritka": 2}),
    deck("masolat", {**BASE, "torna:a2": 1}),
    deck("ismeretlen", BASE, formats=("torna:nincs",)),
    deck("laza", {"torna:a": 40}, formats=()),  # names none: casual, which it meets
])


@pytest.fixture
def torna(fake_set, tmp_path):
    """``torna(formats)``: installs set torna, its cards, decks and these format files."""
    def install(formats: dict[str, str]) -> None:
        package = fake_set("torna", cards=TORNA_CARDS, decks=TORNA_DECKS, depends=("alap",))
        folder = tmp_path / "site" / package / "formats"
        folder.mkdir()
        for name, text in formats.items():
            (folder / name).write_text(text, encoding="utf-8")
    return install


def deck_format_failures(report) -> dict[str, list[str]]:
    """deck name -> the kinds of violation named in its failures."""
    found: dict[str, list[str]] = {}
    for check in report.failures:
        if check.name == "deck-format" and check.message.startswith("deck "):
            name = check.message.split()[1]
            found.setdefault(name, []).append(check.message.split("(")[1].split(")")[0])
    return found


# -- verify: each kind of violation ------------------------------------------------------------

def test_verify_deck_format_names_each_kind_of_violation(torna):
    torna({"szigoru.toml": SZIGORU})
    report = verify(["torna"], games=0)
    assert deck_format_failures(report) == {
        "torna:kicsi": ["size"], "torna:nagy": ["size"], "torna:idegen": ["set"],
        "torna:tiltott": ["banned"], "torna:ritka": ["restricted"],
        "torna:masolat": ["copies"], "torna:ismeretlen": ["unknown-format"]}
    messages = {c.message for c in report.failures if c.name == "deck-format"}
    assert {
        "deck torna:kicsi breaks format torna:szigoru (size): 6 cards, fewer than the 10 it needs",
        "deck torna:nagy breaks format torna:szigoru (size): 13 cards, more than the 12 it allows",
        "deck torna:idegen breaks format torna:szigoru (set): 1 card(s) of set alap, which is not "
        "legal (legal sets: torna): Tűzmanó (alap:tuzmano)",
        "deck torna:tiltott breaks format torna:szigoru (banned): Tiltott (torna:tiltott) is "
        "banned",
        "deck torna:ritka breaks format torna:szigoru (restricted): 2 copies of Ritka "
        "(torna:ritka), which is restricted to one",
        "deck torna:masolat breaks format torna:szigoru (copies): 4 copies of Alfa (torna:a, "
        "torna:a2), more than the 3 of a name it allows",
        "deck torna:ismeretlen breaks format torna:nincs (unknown-format): unknown format "
        "'torna:nincs'; known formats: casual, alap:kezdo, torna:szigoru",
    } == messages
    cards = {c.message.split()[1]: c.card for c in report.failures if c.name == "deck-format"}
    assert cards["torna:tiltott"] == "torna:tiltott" and cards["torna:idegen"] == "alap:tuzmano"


def test_a_deck_naming_no_format_is_held_to_casual_and_meets_it(torna):
    torna({"szigoru.toml": SZIGORU})
    report = verify(["torna"], games=0)
    assert "torna:laza" not in deck_format_failures(report)
    assert "torna:jo" not in deck_format_failures(report)
    mereg = verify(["mereg"], games=0)
    assert [(c.ok, c.message) for c in mereg.checks if c.name == "deck-format"] == [
        (True, "decks meet their formats: mereg:mocsar (casual)")]


def test_a_format_naming_a_card_its_set_lacks_fails_and_one_of_an_absent_set_does_not(
        torna):
    typo = SZIGORU.replace('banned = ["torna:tiltott"]',
                           'banned = ["torna:tiltot", "jovo:sarkany"]')
    torna({"szigoru.toml": typo})
    report = verify(["torna"], games=0)
    about_format = [c.message for c in report.failures
                    if c.name == "deck-format" and c.message.startswith("format ")]
    assert about_format == ["format torna:szigoru (formats/szigoru.toml) names card "
                            "'torna:tiltot', which set torna does not define"]


def test_verify_alap_passes_deck_format_and_its_decks_name_alap_kezdo():
    report = verify(["alap"], games=0)
    checks = [c for c in report.checks if c.name == "deck-format"]
    assert [c.ok for c in checks] == [True]
    assert "alap:tuz (alap:kezdo), alap:viz (alap:kezdo)" in checks[0].message
    engine = Engine.installed()
    assert {engine.decks[d].formats for d in ("alap:tuz", "alap:viz")} == {("alap:kezdo",)}
    kezdo = engine.discovery.formats["alap:kezdo"]
    assert violations(kezdo, engine.decks["alap:tuz"].cards, engine.cards) == []


# -- format files: errors naming set, file and line --------------------------------------------

@pytest.mark.parametrize("name, text, message", [
    ("a.toml", '[format]\ntitle = "x"\nmax_copies = 0\n',
     "alap: formats/a.toml: line 3: format.max_copies: Input should be greater than or equal "
     "to 1"),
    ("b.toml", "# rules\n[format]\nmin_cards = 40\nmax_cards = 30\n",
     "alap: formats/b.toml: line 2: format: min_cards (40) is more than max_cards (30)"),
    ("c.toml", '[format]\nmin_cards = "3"\n',
     "alap: formats/c.toml: line 2: format.min_cards: Input should be a valid integer"),
    ("d.toml", '[format]\n\ncolours = 3\n',
     "alap: formats/d.toml: line 3: format.colours: Extra inputs are not permitted"),
    ("e.toml", '[format]\nbanned = ["alap:x", "bad id"]\n',
     "alap: formats/e.toml: line 2: format.banned[1]: String should match pattern "
     "'^[a-z][a-z0-9_]{1,31}:[a-z0-9][a-z0-9_-]*$'"),
    ("f.toml", '[format]\nbanned = ["alap:x"]\nrestricted = ["alap:x"]\n',
     "alap: formats/f.toml: line 1: format: alap:x both banned and restricted; say one"),
    ("g.toml", '[format\n',
     "alap: formats/g.toml: line 1, column 8: invalid TOML: Expected ']' at the end of a table "
     "declaration"),
    ("h.toml", 'title = "x"\n', "alap: formats/h.toml: missing [format] table"),
    ("i.toml", 'extra = 1\n[format]\n',
     "alap: formats/i.toml: line 1: unknown top-level keys ['extra']; only [format] is allowed"),
    ("j.toml", '[format]\nextra = 1\n[extra]\n',
     "alap: formats/j.toml: line 3: unknown top-level keys ['extra']; only [format] is allowed"),
    ("Nagy.toml", "[format]\n", "alap: formats/Nagy.toml: format file name 'Nagy' must be a "
                                "slug (a-z, 0-9, '-', '_'): it names the format"),
])
def test_a_bad_format_file_is_one_line_naming_set_file_and_line(name, text, message):
    with pytest.raises(CardDataError) as caught:
        parse_format_file("alap", f"formats/{name}", text)
    assert str(caught.value) == message
    assert caught.value.file == f"formats/{name}"


def test_a_bad_format_file_fails_its_set_at_discovery_and_verify_names_it(torna):
    torna({"szigoru.toml": SZIGORU.replace("max_copies = 3", "max_copies = 0")})
    report = verify(["torna"], games=0)
    failures = [c for c in report.failures if c.name == "discovery"]
    assert [c.message for c in failures] == [
        "set torna (hkk-set-torna 1.0), stage validate: formats/szigoru.toml: "
        "format.max_copies: Input should be greater than or equal to 1"]
    # the place is the check's, as for card files (issue 24 item 11)
    assert failures[0].line == 6 and failures[0].file.endswith("formats/szigoru.toml")


def test_format_set_codes_are_set_codes():
    from hkk import _formats

    assert _formats._SET_CODE == SET_CODE_PATTERN


def test_the_format_schema_accepts_the_shipped_format_and_refuses_a_bad_count():
    schema = format_file_schema()
    validator = jsonschema.Draft202012Validator(schema)
    data = tomllib.loads(KEZDO.read_text(encoding="utf-8"))
    assert list(validator.iter_errors(data)) == []
    data["format"]["min_cards"] = "30"
    assert [e.message for e in validator.iter_errors(data)] == ["'30' is not of type 'integer'"]
    result = CliRunner().invoke(main, ["schema", "formats"])
    assert result.exit_code == 0 and json.loads(result.output)["$id"] == schema["$id"]


# -- the check itself ----------------------------------------------------------------------------

RULES = DeckFormat("tt:f", FormatRules(min_cards=2, max_cards=8, max_copies=2, sets=("tt",),
                                      banned=("tt:x",), restricted=("tt:r",)))


@given(st.dictionaries(st.sampled_from(["tt:a", "tt:b", "tt:x", "tt:r", "uu:a"]),
                       st.integers(1, 4), min_size=1), st.data())
def test_removing_cards_never_adds_a_violation_but_of_size(deck, data):
    """A smaller deck breaks the format in no new way but its size."""
    smaller = {card: data.draw(st.integers(0, n)) for card, n in deck.items()}
    smaller = {card: n for card, n in smaller.items() if n}
    kinds = {v.kind for v in violations(RULES, deck, {})}
    assert {v.kind for v in violations(RULES, smaller, {})} - {"size"} <= kinds


def test_a_list_of_ids_and_a_count_table_are_the_same_deck():
    as_list = ["tt:a", "tt:a", "tt:a", "tt:r", "tt:r", "uu:a"]
    assert violations(RULES, as_list, {}) == violations(RULES, {"tt:a": 3, "tt:r": 2, "uu:a": 1}, {})
    assert [v.kind for v in violations(RULES, as_list, {})] == ["set", "restricted", "copies"]


# -- play and simulate ---------------------------------------------------------------------------

@pytest.fixture
def run():
    runner = CliRunner()
    return lambda *args: runner.invoke(main, list(args), catch_exceptions=False)


def test_play_format_refuses_an_illegal_deck_in_one_line_naming_each_violation(run):
    result = run("play", "-q", "--decks", "alap:tuz", "mereg:mocsar", "--format", "alap:kezdo")
    assert result.exit_code == 2
    error = result.stderr.strip().splitlines()[-1]
    assert error.startswith("Error: Invalid value for --format: deck mereg:mocsar breaks "
                            "format alap:kezdo: (set) 8 card(s) of set mereg, which is not legal")
    assert "(copies) 3 copies of Tűzmanó (alap:tuzmano), more than the 2 of a name it allows" \
        in error
    assert "alap:tuz " not in error and "winner" not in result.stdout


def test_play_format_plays_a_legal_deck_and_names_an_unknown_format(run):
    assert run("play", "-q", "--max-turns", "2", "--format", "alap:kezdo").exit_code == 0
    assert run("play", "-q", "--max-turns", "2", "--decks", "mereg:mocsar", "alap:tuz",
               "--format", "casual").exit_code == 0
    result = run("play", "-q", "--format", "alap:nincs")
    assert result.exit_code == 2
    assert "unknown format 'alap:nincs'; known formats: casual, alap:kezdo" in result.stderr


def test_simulate_format_refuses_before_any_game(run):
    result = run("simulate", "-n", "2", "-w", "1", "--decks", "alap:tuz", "alap:tuz+mereg",
                 "--format", "alap:kezdo")
    assert result.exit_code == 2
    assert "deck alap:tuz+mereg breaks format alap:kezdo: (size) 46 cards, more than the 40" \
        in result.stderr
    assert "games over" not in result.stderr


def test_without_format_a_deck_breaking_the_format_it_names_is_warned_about(
        run, torna):
    torna({"szigoru.toml": SZIGORU})
    result = run("play", "-q", "--max-turns", "2", "--decks", "torna:tiltott", "torna:jo")
    assert result.exit_code == 0
    assert result.stderr.count("warning:") == 1
    assert ("warning: deck torna:tiltott breaks format torna:szigoru: (banned) Tiltott "
            "(torna:tiltott) is banned") in result.stderr
    simulated = run("simulate", "-n", "2", "-w", "1", "--decks", "torna:jo", "torna:ritka")
    assert simulated.exit_code == 0
    assert "warning: deck torna:ritka breaks format torna:szigoru: (restricted)" \
        in simulated.stderr
