"""Issue 13: ``hkk verify`` failures an author can read - their own file and line first, the
same failure once with its seeds, honest coverage, GitHub annotations, JUnit XML that validates
(against tests/data/junit.xsd, written from the JUnit format's documentation: pytest's own
junit-10.xsd is not in its wheel)."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import test_verify
import xmlschema
from click.testing import CliRunner

from hkk.cli import main
from hkk.verify import github_annotations, verify

fake_set = test_verify.fake_set  # the fixture, shared
JUNIT_XSD = Path(__file__).parent / "data" / "junit.xsd"

CRASHING = '''
    from hkk import hookimpl


    def tally(game):
        return 1 // 0  # the author's line


    @hookimpl
    def end_stage2(game):
        if game.turn >= 3:
            tally(game)
'''


def _crash(fake_set):
    package = fake_set("hibas", python=CRASHING)
    report = verify(["hibas"], games=3, seed=40)
    return package, report


def test_a_crash_names_the_authors_file_and_line_first(fake_set):
    package, report = _crash(fake_set)
    failure = next(c for c in report.failures if c.target == "hibas")
    assert failure.file is not None and failure.file.endswith(f"{package}/__init__.py")
    assert failure.line == 6  # `return 1 // 0`, not a line of the engine
    assert failure.details.startswith("in the set's code")
    first_frame = failure.details.splitlines()[1]
    assert package in first_frame and "interpret.py" not in first_frame


def test_the_same_failure_is_printed_once_with_its_seeds(fake_set):
    _, report = _crash(fake_set)
    mine = [c for c in report.failures if c.target == "hibas"]
    assert [c.seed for c in mine] == [40, 41, 42]  # the data keeps one check per game
    groups = [g for g in report.groups() if g[0].target == "hibas" and not g[0].ok]
    assert len(groups) == 1 and len(groups[0]) == 3
    from hkk.testing import plain, verify_lines

    text = "\n".join(plain(line) for line in verify_lines(report))
    assert text.count("✗ games [hibas]") == 1
    assert text.count("in the set's code") == 2  # one traceback for [hibas], one for [all]
    assert "3 games alike: seeds 40, 41, 42" in text


def test_coverage_counts_the_crashing_games_cards(fake_set):
    fake_set("hibas", python='''
        from hkk import hookimpl

        @hookimpl
        def end_stage2(game):
            if game.turn >= 5:
                raise RuntimeError("late")
    ''')
    report = verify(["hibas"], games=1)
    assert not report.ok and all(not c.ok for c in report.checks if c.name == "games")
    assert report.coverage["hibas"].played  # cards were played before the crash


def test_abilities_fired_counts_data_abilities_only(fake_set):
    # A Python hook's item on a card with no such data ability: counted as a Python item, not
    # as "abilities fired 3/1".
    fake_set("piton", python='''
        from hkk import Pending, hookimpl

        @hookimpl
        def end_stage2(game):
            return [Pending("piton extra", lambda g, i, b: None, card_id="piton:baka",
                            ability_index=7)]
    ''')
    report = verify(["piton"], games=1)
    cov = report.coverage["piton"]
    assert cov.fired <= set(cov.abilities)
    assert cov.python_items.get("piton extra", 0) > 0
    data = cov.as_dict()
    assert data["python_items"]["piton extra"] == cov.python_items["piton extra"]
    assert data["hooks_not_reached"] == []


def test_json_passing_checks_carry_no_error_severity():
    result = CliRunner().invoke(main, ["verify", "alap", "--games", "1", "--output-format", "json"])
    checks = json.loads(result.output)["checks"]
    passing = [c for c in checks if c["ok"]]
    assert passing and all(c["severity"] is None and c["status"] == "passed" for c in passing)


def test_github_annotations_point_at_the_authors_line(fake_set):
    package, report = _crash(fake_set)
    lines = github_annotations(report)
    mine = [line for line in lines if "[hibas]" in line.split("::")[1]]
    assert len(mine) == 1  # grouped
    line = mine[0]
    assert line.startswith("::error file=") and ",line=6," in line
    assert f"{package}/__init__.py" in line
    assert "seeds 40, 41, 42" in line and "%0Areproduce: hkk play --seed 40" in line
    assert "\n" not in line


def test_cli_output_format_github(fake_set):
    fake_set("hibas", python=CRASHING)
    result = CliRunner().invoke(main, ["verify", "hibas", "--games", "1", "--seed", "40",
                                       "--output-format", "github"])
    assert result.exit_code == 1
    assert any(line.startswith("::error file=") for line in result.output.splitlines())


def test_junit_xml_has_time_and_file_and_validates(fake_set, tmp_path):
    package, report = _crash(fake_set)
    text = report.junit_xml()
    xmlschema.XMLSchema(JUNIT_XSD).validate(text)
    suite = ET.fromstring(text)
    assert float(suite.get("time")) > 0
    cases = suite.findall("testcase")
    assert all(case.get("time") is not None for case in cases)
    crashed = [c for c in cases if c.find("failure") is not None and c.get("file")]
    assert crashed and crashed[0].get("file").endswith(f"{package}/__init__.py")
    assert crashed[0].get("line") == "6"
