"""Issue 13, beyond: ``hkk verify CODE --against spoiler.csv|json`` (a set against its
published card list) and hook API deprecations (reported by ``hkk verify``, shown by
``hkk sets``)."""

from __future__ import annotations

import json
import types

import pytest
import test_verify
from click.testing import CliRunner

from hkk import _hookspecs
from hkk._deprecation import Deprecation, deprecated, deprecations, uses
from hkk._spoiler import SpoilerError, read_spoiler
from hkk.cli import main
from hkk.verify import verify

fake_set = test_verify.fake_set  # the fixture, shared

SPOILER_CSV = """id,name,kind,cost,damage,hp,text
{code}:baka,Baka,creature,1,1,2,
{code}:vezer,Vezér,creature,2,2,3,
"""


def _spoiler(tmp_path, text, name="spoiler.csv"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


# -- --against ----------------------------------------------------------------------------------

def test_against_a_matching_spoiler_passes(fake_set, tmp_path):
    fake_set("kiadas")
    report = verify(["kiadas"], games=0,
                    against=_spoiler(tmp_path, SPOILER_CSV.format(code="kiadas")))
    check = next(c for c in report.checks if c.name == "spoiler")
    assert check.ok and "all 2 published cards match" in check.message
    assert report.ok


def test_against_names_each_difference_missing_and_unpublished_card(fake_set, tmp_path):
    fake_set("kiadas")
    text = ("id,name,kind,cost,damage,hp\n"
            "kiadas:baka,Baka,creature,1,1,3\n"          # hp differs
            "kiadas:sarkany,Sárkány,creature,5,5,5\n")   # published, not in the set
    report = verify(["kiadas"], games=0, against=_spoiler(tmp_path, text))
    problems = {(c.card, c.message) for c in report.failures if c.name == "spoiler"}
    assert problems == {
        ("kiadas:baka", "kiadas:baka: hp is 2 in the set, 3 in the spoiler"),
        ("kiadas:sarkany", "published card kiadas:sarkany is not in the set"),
        ("kiadas:vezer", "kiadas:vezer is in the set but not in the spoiler (unpublished)"),
    }


def test_against_json_compares_text_and_cost(fake_set, tmp_path):
    fake_set("kiadas")
    cards = [{"id": "kiadas:baka", "cost": 2, "text": "Harcos"},
             {"id": "kiadas:vezer", "name": "Vezér"}]
    report = verify(["kiadas"], games=0,
                    against=_spoiler(tmp_path, json.dumps({"cards": cards}), "s.json"))
    messages = sorted(c.message for c in report.failures if c.name == "spoiler")
    assert messages == ["kiadas:baka: cost is 1 in the set, 2 in the spoiler",
                        "kiadas:baka: the printed text differs: in the set '', in the spoiler "
                        "'Harcos'"]


def test_a_bad_spoiler_is_a_usage_error_before_any_game(fake_set, tmp_path):
    fake_set("kiadas")
    bad = _spoiler(tmp_path, "id,name,hp\nkiadas:baka,Baka,sok\n")
    with pytest.raises(SpoilerError, match=r"card 1: hp 'sok' is not a whole number"):
        read_spoiler(bad)
    with pytest.raises(SpoilerError, match=r"unknown column\(s\) \['wings'\]"):
        read_spoiler(_spoiler(tmp_path, "id,wings\nkiadas:baka,2\n", "wings.csv"))
    runner = CliRunner()
    result = runner.invoke(main, ["verify", "kiadas", "--against", bad])
    assert result.exit_code == 2 and "is not a whole number" in result.output
    result = runner.invoke(main, ["verify", "--against", bad])
    assert result.exit_code == 2 and "exactly one" in result.output
    good = _spoiler(tmp_path, SPOILER_CSV.format(code="kiadas"), "good.csv")
    result = runner.invoke(main, ["verify", "kiadas", "--games", "0", "--against", good])
    assert result.exit_code == 0, result.output
    assert "✓ spoiler [kiadas]" in result.output


# -- deprecations -------------------------------------------------------------------------------

HOOKS = '''
    from hkk import hookimpl

    @hookimpl
    def end_stage2(game):
        return []

    @hookimpl
    def prep_stage2():
        return []
'''


def test_deprecated_marks_a_spec_and_its_arguments():
    specs = types.ModuleType("specs")

    @deprecated("2.0", argument="step", instead="game.log.step")
    @deprecated("3.0", instead="new_hook")
    @_hookspecs.hookspec
    def old_hook(game, step):  # noqa: ARG001 - a spec
        """A spec."""
    specs.old_hook = old_hook
    assert deprecations(specs) == [Deprecation("old_hook", "3.0", None, "new_hook"),
                                   Deprecation("old_hook", "2.0", "step", "game.log.step")]
    assert deprecations() == []  # none in the engine's hook API today


@pytest.mark.filterwarnings("ignore::DeprecationWarning")  # pluggy's, at registration
def test_verify_and_sets_report_a_sets_deprecated_hook_use(fake_set, monkeypatch):
    package = fake_set("regi", python=HOOKS)
    # end_stage2 as a whole, and prep_stage2's `game` argument, which regi's impl does not name
    monkeypatch.setattr(_hookspecs.end_stage2, "hkk_spec", dict(_hookspecs.end_stage2.hkk_spec))
    monkeypatch.setattr(_hookspecs.prep_stage2, "hkk_spec",
                        dict(_hookspecs.prep_stage2.hkk_spec))
    deprecated("2.0", instead="end_stage3")(_hookspecs.end_stage2)
    deprecated("2.0", argument="game")(_hookspecs.prep_stage2)
    report = verify(["regi"], games=0)
    warnings = [c for c in report.warnings if c.name == "deprecated-api"]
    assert [c.message for c in warnings] == [
        f"{package}.end_stage2: hook end_stage2 is deprecated, removed in hook API 2.0; "
        "use end_stage3"]
    assert report.ok  # a warning: a release of notice, not a failure
    result = CliRunner().invoke(main, ["sets", "--output-format", "json"])
    row = next(r for r in json.loads(result.output)["sets"] if r["code"] == "regi")
    assert row["deprecated"] == [warnings[0].message]
    monkeypatch.setenv("COLUMNS", "300")
    table = CliRunner().invoke(main, ["sets"]).output
    assert "uses deprecated hook API" in table


def test_a_deprecated_argument_is_a_use_only_when_the_impl_names_it(fake_set):
    package = fake_set("regi", python=HOOKS)
    module = __import__(package)
    mark = Deprecation("end_stage2", "2.0", "game")
    assert [u.implementation for u in uses(module, [mark])] == [f"{package}.end_stage2"]
    assert uses(module, [Deprecation("prep_stage2", "2.0", "game")]) == []
    assert uses(None, [mark]) == []
