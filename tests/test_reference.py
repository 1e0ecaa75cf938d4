"""The authors' reference (``hkk reference``, ``docs/REFERENCE.md``) is generated from the code
and complete: every hook documents its arguments, return value and rule points; every field of
``Pending``, ``Price``, ``Usage`` and ``Lethal`` is documented; the committed page is current."""

from __future__ import annotations

import dataclasses
import inspect
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from hkk import _hookspecs as hookspecs
from hkk import _pending as pending
from hkk._phases import DEFAULT_TURN, Mode
from hkk._reference import REGENERATE, SECTIONS, constant_docs, hook_specs, markdown
from hkk.cli import main

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "REFERENCE.md"
#: A Kódex rule point (29.4.10, K 121.1, 3.6-3.12) or a ruling tag of docs/RULINGS.md.
RULE_POINT = re.compile(r"\b\d+(\.\d+)+\b|\bK \d+|\[D\]|\[R\]|\b[DR]-[\w.-]+")


def test_committed_page_is_what_the_code_generates():
    assert PAGE.read_text(encoding="utf-8") == markdown(), \
        f"docs/REFERENCE.md is out of date; regenerate it: {REGENERATE}"


def test_the_command_prints_the_page_and_its_sections():
    runner = CliRunner()
    result = runner.invoke(main, ["reference", "--markdown"])
    assert result.exit_code == 0 and result.output == markdown()
    for section in SECTIONS:
        result = runner.invoke(main, ["reference", section, "--markdown"])
        assert result.exit_code == 0 and result.output == markdown(section)
    result = runner.invoke(main, ["reference", "decisions"])  # rendered for a terminal
    assert result.exit_code == 0 and "block with <card id>#<uid>" in result.output
    assert runner.invoke(main, ["reference", "nothing"]).exit_code == 2


def test_pages_link_to_files_that_exist():
    for page in (PAGE, ROOT / "README.md", ROOT / "docs" / "WRITING-A-SET.md",
                 ROOT / "plugins" / "pytest-hkk" / "README.md", ROOT / "docs" / "LEARNING.md",
                 ROOT / "plugins" / "hkk-env" / "README.md"):
        for target in re.findall(r"\]\(([^)#:]+)(?:#[^)]*)?\)", page.read_text("utf-8")):
            assert (page.parent / target).exists(), f"{page.name} links to missing {target}"


# -- hooks ---------------------------------------------------------------------------------------

SPECS = hook_specs()


def test_every_hook_of_the_plugin_manager_is_in_the_reference():
    from hkk._plugin import make_plugin_manager

    pm = make_plugin_manager()
    assert set(SPECS) == {name for name in vars(pm.hook) if not name.startswith("_")}


@pytest.mark.parametrize("name", sorted(SPECS))
def test_hook_documents_each_argument_its_return_and_rule_points(name):
    spec = SPECS[name]
    doc = inspect.getdoc(spec) or ""
    for param in inspect.signature(spec).parameters:
        assert f":param {param}:" in doc, f"{name}: document argument {param!r} (:param {param}:)"
    assert ":returns:" in doc, f"{name}: say what it returns (:returns:)"
    assert RULE_POINT.search(doc), f"{name}: name the rule points it serves, or [D]/[R]"
    firstresult = getattr(spec, f"{hookspecs.PROJECT}_spec")["firstresult"]
    assert ("Stops at first non-None result" in doc) == firstresult
    assert ("Not firstresult" in doc) == (not firstresult)


@pytest.mark.parametrize("step", DEFAULT_TURN, ids=lambda s: s.hook)
def test_turn_hook_says_how_often_it_is_called(step):
    doc = inspect.getdoc(SPECS[step.hook]) or ""
    if step.mode is Mode.SIMULTANEOUS:
        assert "Called once" in doc
    else:
        assert "after every resolution" in doc and "Called once" not in doc


# -- pending items --------------------------------------------------------------------------------

@pytest.mark.parametrize("cls", [pending.Pending, pending.Price, pending.Usage, pending.Lethal],
                         ids=lambda c: c.__name__)
def test_every_field_of_the_item_classes_is_documented(cls):
    doc = inspect.getdoc(cls) or ""
    for field in dataclasses.fields(cls):
        if field.init:
            assert f":param {field.name}:" in doc, f"{cls.__name__}.{field.name} is undocumented"


def test_item_kinds_are_documented():
    docs = constant_docs(pending)
    assert {"AUTOMATIC", "ACTIVATED", "RULE", "ACTION"} <= set(docs)
    assert all(docs[name] for name in ("AUTOMATIC", "ACTIVATED", "RULE", "ACTION"))


def test_doc_markdown_turns_fields_into_a_list():
    from hkk._reference import doc_markdown

    text = doc_markdown('''Head ``code``, see :class:`hkk.Game`.

        :param game: the game,
            continued.
        :returns: nothing.
        ''')
    assert text == "Head `code`, see `hkk.Game`.\n\n- `game`: the game, continued.\n" \
                   "- returns: nothing."


# -- what "Reading the game" claims ----------------------------------------------------------------

def test_permanents_are_numbered_from_1_in_the_order_hkk_game_puts_them_in_play(hkk_game):
    game = hkk_game([{"reserve": ["alap:tuzmano"], "buildings": ["alap:kovacsmuhely"]},
                     {"reserve": ["alap:vizimano"]}])
    assert [p.describe() for p in game.permanents.values()] == [
        "alap:tuzmano#1", "alap:kovacsmuhely#2", "alap:vizimano#3"]
    effect = game.add_effect("hp", 1, "permanent", targets=game.creatures(0))
    assert effect.uid == 4  # one counter, shared with effects
    assert game.enter_play(1, "alap:vizimano").uid == 5
