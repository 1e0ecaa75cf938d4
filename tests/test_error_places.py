"""Issue 24 item 11: every problem of a set's data at once, each with its file and line, in
``hkk verify``'s text, JSON, JUnit and GitHub output; spoiler differences too.

The lines come from :mod:`hkk._toml_lines`, a light scan of the (valid) TOML text: tested here
on tricky documents, on every data file of the shipped sets, and on generated documents.
"""

from __future__ import annotations

import json
import re
import tomllib
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
import test_verify
from click.testing import CliRunner
from hypothesis import example, given, settings
from hypothesis import strategies as st
from test_verify import CARDS, DECK

from hkk._cards import load_set_decks, parse_card_file
from hkk._errors import CardDataError
from hkk._toml_lines import key_lines, line_of
from hkk.cli import main
from hkk.verify import github_annotations, verify

fake_set = test_verify.fake_set  # the fixture, shared
ROOT = Path(__file__).resolve().parent.parent

# -- the scan -----------------------------------------------------------------------------------

TRICKY = '''\
# a comment with [[cards]] and key = "x" in it
title = "a # not a comment"
"quoted key" = 1
dotted.key.here = 2
text = """
[[not a table]]
fake = 1 """
literal = \'\'\'x = 'y' \'\'\'
date = 1979-05-27 07:32:00Z

[[cards]]
id = "a"                      # 11
cost = { vp = 1, components = 2 }

[[cards.abilities]]           # 14
effects = [
  { do = "draw", count = 1 },
  { do = "heal", amount = "}" },
]

[[cards]]                     # 20
id = "b"
[cards.extra]                 # 22
x = [[1, 2], [3]]
'''


def test_the_scan_finds_tables_keys_and_array_elements_on_their_lines():
    lines = key_lines(TRICKY)
    assert tomllib.loads(TRICKY)  # valid TOML
    expected = {
        ("title",): 2, ("quoted key",): 3, ("dotted", "key", "here"): 4, ("text",): 5,
        ("literal",): 8, ("date",): 9, ("cards",): 11, ("cards", 0): 11,
        ("cards", 0, "id"): 12, ("cards", 0, "cost", "components"): 13,
        ("cards", 0, "abilities", 0): 15, ("cards", 0, "abilities", 0, "effects", 1): 18,
        ("cards", 0, "abilities", 0, "effects", 1, "amount"): 18,
        ("cards", 1): 21, ("cards", 1, "id"): 22, ("cards", 1, "extra"): 23,
        ("cards", 1, "extra", "x", 1): 24,
    }
    assert {path: lines.get(path) for path in expected} == expected
    assert ("not a table",) not in lines and ("fake",) not in lines
    # a key that is missing is placed at the table it is missing from
    assert line_of(lines, ("cards", 1, "hp")) == 21
    assert line_of(lines, ("nothing",)) == 1


def _paths(node: Any, prefix: tuple = ()) -> list[tuple]:
    found = [prefix] if prefix else []
    children = node.items() if isinstance(node, dict) else \
        enumerate(node) if isinstance(node, list) else ()
    for key, child in children:
        found += _paths(child, prefix + (key,))
    return found


@pytest.mark.parametrize("path", sorted(
    str(p.relative_to(ROOT)) for p in ROOT.glob("sets/*/src/*/**/*.toml")))
def test_the_scan_places_every_key_of_the_shipped_data_files_on_its_line(path):
    text = (ROOT / path).read_text(encoding="utf-8")
    lines = key_lines(text)
    source = text.splitlines()
    for key_path in _paths(tomllib.loads(text)):
        assert key_path in lines, key_path
        if isinstance(key_path[-1], str):
            assert key_path[-1] in source[lines[key_path] - 1], key_path


# Generated documents: a writer that notes the line of everything it writes.
_KEYS = st.one_of(st.from_regex(r"[a-z][a-z0-9_-]{0,6}", fullmatch=True),
                  st.text("ab .#=\"'\\[]{}é", min_size=1, max_size=5))
_SCALARS = st.one_of(st.integers(-5, 5), st.booleans(),
                     st.text("ab #=\"'\\\n[]{},é", max_size=8))


def _key(key: str) -> str:
    return key if re.fullmatch(r"[A-Za-z0-9_-]+", key) else json.dumps(key)


def _scalar(value: Any) -> str:
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, str) and "\n" in value and '"""' not in value + '"' \
            and "\\" not in value and not value.startswith("\n"):
        return '"""' + value + '"""'  # a multi-line string
    return json.dumps(value)


class _Writer:
    def __init__(self) -> None:
        self.out: list[str] = []
        self.lines: dict[tuple, int] = {}

    def emit(self, text: str, path: tuple | None = None) -> None:
        if path is not None:
            self.lines[path] = len("".join(self.out).split("\n"))
        self.out.append(text)

    def value(self, value: Any, path: tuple) -> None:
        if isinstance(value, list):  # a multi-line array, an element a line
            self.emit("[\n")
            for index, item in enumerate(value):
                self.emit("  ", None)
                self.emit("", path + (index,))
                self.value(item, path + (index,))
                self.emit(",  # element\n")
            self.emit("]")
        elif isinstance(value, dict):  # an inline table on one line
            self.emit("{ ")
            for i, (key, item) in enumerate(value.items()):
                self.emit(", " if i else "", None)
                self.emit(f"{_key(key)} = ", path + (key,))
                self.value(item, path + (key,))
            self.emit(" }")
        else:
            self.emit(_scalar(value))

    def table(self, data: dict, path: tuple) -> None:
        for key, value in data.items():
            if not _is_table(value) and not _is_tables(value):
                self.emit(f"{_key(key)} = ", path + (key,))
                self.value(value, path + (key,))
                self.emit("\n")
        for key, value in data.items():
            dotted = ".".join(_key(str(k)) for k in path + (key,) if not isinstance(k, int))
            if _is_table(value):
                self.emit(f"\n[{dotted}]\n", None)
                self.lines[path + (key,)] = len("".join(self.out).split("\n")) - 1
                self.table(value, path + (key,))
            elif _is_tables(value):
                for index, item in enumerate(value):
                    self.emit(f"\n[[{dotted}]]  # #{index}\n")
                    self.lines[path + (key, index)] = len("".join(self.out).split("\n")) - 1
                    self.table(item, path + (key, index))


def _is_table(value: Any) -> bool:
    return isinstance(value, dict) and value.get("style") == "table"


def _is_tables(value: Any) -> bool:
    return isinstance(value, list) and bool(value) and all(_is_table(v) for v in value)


_INLINE = st.recursive(_SCALARS, lambda inner: st.one_of(
    st.lists(inner, max_size=3), st.dictionaries(_KEYS, inner, max_size=3)), max_leaves=8)
_TABLES = st.recursive(
    st.dictionaries(_KEYS, _INLINE, max_size=3),
    lambda inner: st.dictionaries(_KEYS, st.one_of(
        _INLINE, inner.map(lambda t: {**t, "style": "table"}),
        st.lists(inner.map(lambda t: {**t, "style": "table"}), min_size=1, max_size=2)),
        max_size=3), max_leaves=6)


@settings(max_examples=150, deadline=None)
@given(_TABLES)
def test_the_scan_finds_what_a_writer_wrote_on_its_line(data):
    writer = _Writer()
    writer.table(data, ())
    text = "".join(writer.out)
    assert tomllib.loads(text) == data  # the writer writes what it was given
    lines = key_lines(text)
    assert {path: lines.get(path) for path in writer.lines} == writer.lines


@settings(max_examples=300, deadline=None)
@given(st.text("ab1 =.,#\"'\\[]{}\n", max_size=40))
@example("a = [1}")
@example("a = {b = 1]")
@example('a = "open')
@example("[[a")
def test_the_scan_ends_on_any_text_even_invalid_toml(text):
    assert isinstance(key_lines(text), dict)  # an error message must never hang on its file


# -- the loader: every problem, each at its line ------------------------------------------------

def test_deck_problems_each_name_their_line(tmp_path):
    (tmp_path / "decks").mkdir()
    (tmp_path / "decks" / "d.toml").write_text(
        '[[decks]]\nname = "a"\n[decks.cards]\n"alap:x" = 2\n"alap:nincs" = 1\n\n'
        '[[decks]]\nname = "a"\ncards = { "alap:x" = 1 }\n', encoding="utf-8")
    with pytest.raises(CardDataError) as info:
        load_set_decks("alap", tmp_path, {"alap:x"})
    source = str(tmp_path / "decks" / "d.toml")
    assert [(p.file, p.line, p.field, p.source) for p in info.value.problems] == [
        ("decks/d.toml", 5, 'decks[0].cards["alap:nincs"]', source),
        ("decks/d.toml", 8, "decks[1].name", source)]


def test_invalid_toml_names_its_line():
    with pytest.raises(CardDataError) as info:
        parse_card_file("alap", "cards/x.toml", '[[cards]]\nid = "alap:x"\nhp = = 1\n')
    assert info.value.line == 3 and [p.line for p in info.value.problems] == [3]


# -- hkk verify: each problem a failure at its file and line ------------------------------------

TWO_MISTAKES = CARDS.replace("hp = 2", "hp = 0").replace("damage = 2", "damage = -2")


def _card_file(tmp_path: Path, package: str) -> Path:
    """The card file of a set ``fake_set`` made (it installs them under ``tmp_path/site``)."""
    return (tmp_path / "site" / package / "cards" / "cards.toml").resolve()


def test_verify_reports_both_mistakes_of_a_card_file_each_at_its_line(fake_set,
                                                                                 tmp_path):
    package = fake_set("ketto", cards=TWO_MISTAKES)
    report = verify(["ketto"], games=0)
    failures = [(c.name, c.card, Path(c.file).resolve(), c.line) for c in report.failures]
    card_file = _card_file(tmp_path, package)
    # CARDS: a blank line, then the first card (hp on line 8), the second (damage on 15)
    assert failures == [("discovery", "ketto:baka", card_file, 8),
                        ("discovery", "ketto:vezer", card_file, 15)]
    assert "cards[0].hp: Input should be greater than 0" in report.failures[0].message
    assert "cards[1].damage: Input should be greater" in report.failures[1].message
    assert all(f"file={c.file},line={c.line}," in line
               for c, line in zip(report.failures, github_annotations(report), strict=True))


def test_every_output_format_carries_each_problem_with_its_place(fake_set, tmp_path,
                                                                             monkeypatch):
    package = fake_set("kimenet", cards=TWO_MISTAKES)
    monkeypatch.chdir(tmp_path / "site")  # paths shown relative to here
    shown = f"{package}/cards/cards.toml"
    runner = CliRunner()
    text = runner.invoke(main, ["verify", "kimenet", "--games", "0"]).output
    assert f"at {shown}:8" in text and f"at {shown}:15" in text
    github = runner.invoke(main, ["verify", "kimenet", "--games", "0",
                                  "--output-format", "github"]).output
    assert f"::error file={shown},line=8," in github
    assert f"::error file={shown},line=15," in github
    data = json.loads(runner.invoke(main, ["verify", "kimenet", "--games", "0",
                                           "--output-format", "json"]).output)
    assert [(c["file"], c["line"]) for c in data["checks"] if not c["ok"]] == [
        (shown, 8), (shown, 15)]
    junit = tmp_path / "v.xml"
    runner.invoke(main, ["verify", "kimenet", "--games", "0", "--junit-xml", str(junit)])
    cases = [(case.get("file"), case.get("line")) for case in ET.parse(junit).getroot()
             if case.find("failure") is not None]
    assert cases == [(shown, "8"), (shown, "15")]


def test_a_broken_deck_file_fails_at_the_line_of_each_problem(fake_set):
    # DECK: a blank line, its deck on lines 2-6; then "start" again on 8-10, "masik" on 12-14
    fake_set("pakli", decks=DECK + '\n[[decks]]\nname = "start"\ncards = {{ "{code}:baka" = 1 }}'
             '\n\n[[decks]]\nname = "masik"\ncards = {{ "{code}:nincs" = 1 }}\n')
    report = verify(["pakli"], games=0)
    assert [(Path(c.file).name, c.line) for c in report.failures] == [
        ("decks.toml", 9), ("decks.toml", 14)]


# -- spoiler differences: at the card's line, or the spoiler's row ------------------------------

def test_spoiler_differences_point_at_the_card_or_the_spoiler_row(fake_set, tmp_path):
    package = fake_set("kiadas2")
    csv_file = tmp_path / "spoiler.csv"
    csv_file.write_text("id,name,hp\nkiadas2:baka,Baka,3\nkiadas2:nincs,Nincs,1\n"
                        "kiadas2:baka,Baka,2\n", encoding="utf-8")
    json_file = tmp_path / "spoiler.json"
    json_file.write_text('{"cards": [\n {"id": "kiadas2:baka", "hp": 3},\n'
                         ' {"id": "kiadas2:nincs"}\n]}\n', encoding="utf-8")
    card_file = _card_file(tmp_path, package)
    for spoiler, rows in ((csv_file, {"kiadas2:nincs": 3, "twice": 4}),
                          (json_file, {"kiadas2:nincs": 3})):
        report = verify(["kiadas2"], games=0, against=str(spoiler))
        places = {(c.card, "twice" if "twice" in c.message else ""): (Path(c.file).resolve(),
                                                                     c.line)
                  for c in report.failures}
        expected = {("kiadas2:baka", ""): (card_file, 8),  # hp = 2 of the first card
                    ("kiadas2:vezer", ""): (card_file, 10),  # unpublished: the card
                    ("kiadas2:nincs", ""): (spoiler.resolve(), rows["kiadas2:nincs"])}
        if "twice" in rows:
            expected[("kiadas2:baka", "twice")] = (spoiler.resolve(), rows["twice"])
        assert places == expected
