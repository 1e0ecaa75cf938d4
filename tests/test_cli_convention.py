"""Issue 24 item 13: one convention for the commands' output (ruff's names) -
``--output-format FORMAT`` says what is printed, ``-o/--output-file FILE`` writes it to FILE
instead of stdout, ``-q/--quiet`` prints only the result - with the spellings it replaces
(``--json``, ``verify --format``) still working for a release, with a warning; and the Python
API takes deck specs (``"alap:tuz+mereg"``) as the command line does.
"""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from click.testing import CliRunner

import hkk
from hkk.cli import main

PLAY = ["play", "--seed", "3", "--max-turns", "3"]
# whole games: a turn limit would keep them off the native core, saying so on stderr
SIMULATE = ["simulate", "-n", "2", "-w", "1", "--decks", "alap:tuz", "alap:viz"]
VERIFY = ["verify", "alap", "--games", "1", "--max-slowdown", "0"]


def invoke(*args: str):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def _json_of(command: str, text: str):
    data = json.loads(text)
    if command == "play":
        assert data[0]["kind"] == "game_started"
    elif command == "simulate":
        assert data["games"] == 2
    else:
        assert data["ok"] is True
    return data


# -- the convention ------------------------------------------------------------------------------

@pytest.mark.parametrize("args", [PLAY, SIMULATE, VERIFY], ids=lambda a: a[0])
def test_output_format_json_prints_json_and_output_file_writes_it_there(args,
                                                                                 tmp_path):
    printed = invoke(*args, "--output-format", "json")
    assert printed.exit_code == 0, printed.output
    _json_of(args[0], printed.stdout)
    target = tmp_path / "out.json"
    written = invoke(*args, "--output-format", "json", "-o", str(target))
    assert (written.exit_code, written.stdout) == (0, "")
    _json_of(args[0], target.read_text(encoding="utf-8"))
    again = invoke(*args, "--output-format", "json", "--output-file", str(target))
    assert again.exit_code == 0 and again.stderr == printed.stderr  # no warning either


@pytest.mark.parametrize("args", [PLAY, SIMULATE, VERIFY], ids=lambda a: a[0])
def test_every_command_takes_quiet(args):
    loud, quiet = invoke(*args), invoke(*args, "-q")
    assert loud.exit_code == quiet.exit_code == 0, quiet.output
    assert quiet.stdout and len(quiet.output) < len(loud.output)


def test_text_to_an_output_file(tmp_path):
    target = tmp_path / "game.txt"
    result = invoke(*PLAY, "-o", str(target))
    assert (result.exit_code, result.stdout) == (0, "")
    assert target.read_text(encoding="utf-8") == invoke(*PLAY).stdout


def test_quiet_verify_prints_the_failures_and_the_verdict_only():
    lines = invoke(*VERIFY, "-q").stdout.splitlines()
    assert len(lines) == 1 and lines[0].startswith("OK: ")  # nothing failed: only the verdict
    assert "coverage" in invoke(*VERIFY).stdout


def test_quiet_simulate_prints_no_header_line():
    loud, quiet = invoke(*SIMULATE), invoke(*SIMULATE, "-q")
    assert "games over 1 pairing(s)" in loud.stderr and quiet.stderr == ""
    assert "first player wins" in quiet.stdout


def test_verify_output_format_junit_and_github(tmp_path):
    target = tmp_path / "verify.xml"
    assert invoke(*VERIFY, "--output-format", "junit", "-o", str(target)).stdout == ""
    suite = ET.parse(target).getroot()
    assert suite.tag == "testsuite" and suite.get("failures") == "0"
    github = invoke(*VERIFY, "--output-format", "github")
    assert github.exit_code == 0 and github.stdout.splitlines()[-1].startswith("OK: ")


def test_sets_and_cards_take_output_format_json():
    rows = json.loads(invoke("sets", "--output-format", "json").stdout)["sets"]
    assert "alap" in {r["code"] for r in rows}
    cards = json.loads(invoke("cards", "--set", "alap", "--output-format", "json").stdout)
    assert cards and all(c["id"].startswith("alap:") for c in cards)


# -- the old spellings, for a release ----------------------------------------------------------

def _warned(result, old: str, new: str) -> None:
    assert (f"warning: {old} is deprecated and will be removed in hkk 0.3: use {new}"
            in result.stderr), result.stderr


def test_play_json_file_still_writes_the_log_beside_the_text(tmp_path):
    target = tmp_path / "log.json"
    result = invoke(*PLAY, "--json", str(target))
    assert result.exit_code == 0 and "(P1) vs" in result.stdout and "Draw" in result.stdout
    _json_of("play", target.read_text(encoding="utf-8"))
    _warned(result, f"--json {target}", f"--output-format json -o {target}")
    stdout = invoke(*PLAY, "--json", "-")
    assert stdout.exit_code == 0
    assert _json_of("play", stdout.stdout) == _json_of("play", invoke(*PLAY, "--output-format",
                                                                      "json").stdout)
    _warned(stdout, "--json -", "--output-format json")


def test_simulate_json_still_works(tmp_path):
    target = tmp_path / "summary.json"
    result = invoke(*SIMULATE, "--json", str(target))
    assert result.exit_code == 0 and "first player wins" in result.stdout
    _json_of("simulate", target.read_text(encoding="utf-8"))
    _warned(result, f"--json {target}", f"--output-format json -o {target}")
    stdout = invoke(*SIMULATE, "--json", "-")
    _json_of("simulate", stdout.stdout)
    _warned(stdout, "--json -", "--output-format json")


def test_verify_json_and_format_still_work():
    result = invoke(*VERIFY, "--json")
    _json_of("verify", result.stdout)
    _warned(result, "--json", "--output-format json")
    github = invoke(*VERIFY, "--format", "github")
    assert github.exit_code == 0 and "✓ discovery [alap]" in github.stdout
    _warned(github, "--format github", "--output-format github")


@pytest.mark.parametrize("command", [["sets"], ["cards", "--set", "alap"]])
def test_sets_and_cards_json_still_work(command):
    result = invoke(*command, "--json")
    assert result.exit_code == 0 and json.loads(result.stdout)
    _warned(result, "--json", "--output-format json")


# -- the Python API takes deck specs -------------------------------------------------------------

def test_engine_play_takes_a_deck_spec_as_the_command_line_does():
    engine = hkk.Engine.installed()
    game = engine.play(["alap:tuz+mereg", "alap:viz"], seed=1, max_turns=2)
    assert game.turn == 2
    mereg = sorted(c for c in engine.cards if c.startswith("mereg:"))
    first = game.players[0]
    cards = first.deck + first.hand + first.graveyard + first.void + \
        [p.card.id for p in game.permanents.values() if p.owner == 0]
    assert set(mereg) <= set(cards)  # P1 played the deck with mereg's cards mixed in
    mixed = engine.deck("alap:tuz+mereg")
    assert mixed == sorted(engine.deck("alap:tuz") + mereg * 2)
    assert engine.deck("mereg") == sorted(mereg * 2)
    with pytest.raises(hkk.HkkError, match="unknown deck or set 'nincs'"):
        engine.deck("alap:tuz+nincs")
    with pytest.raises(hkk.HkkError, match="unknown deck 'alap:nincs'"):
        engine.deck("alap:nincs")


def test_the_docs_show_only_the_new_spellings():
    root = Path(__file__).resolve().parent.parent
    pages = [root / "README.md", *sorted((root / "docs").glob("*.md"))]
    old_spelling = re.compile(r"hkk (play|simulate|verify|sets|cards)\b.*--json\b"
                              r"|hkk verify\b.*(?<!output-)--format\b")
    old = [(page.name, number) for page in pages
           for number, line in enumerate(page.read_text(encoding="utf-8").splitlines(), 1)
           if old_spelling.search(line)]
    assert old == []
