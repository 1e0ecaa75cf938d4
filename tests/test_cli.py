"""The hkk command: each subcommand run through click's CliRunner, and a few real runs of the
installed ``hkk`` script (exit codes, messages, a broken set)."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import test_verify
from click.testing import CliRunner
from test_verify import CARDS, write_set

from hkk.cli import main

fake_set = test_verify.fake_set  # the fixture, shared

HKK = shutil.which("hkk", path=str(Path(sys.executable).parent)) or "hkk"


@pytest.fixture
def run():
    runner = CliRunner()

    def invoke(*args: str):
        return runner.invoke(main, list(args), catch_exceptions=False)
    return invoke


def test_sets_lists_the_installed_sets(run):
    result = run("sets")
    assert result.exit_code == 0
    assert re.search(r"alap +│ hkk +│", result.output)  # the base set ships in the engine
    assert "loaded" in result.output


def test_sets_json(run):
    result = run("sets", "--output-format", "json")
    data = json.loads(result.output)
    alap = next(s for s in data["sets"] if s["code"] == "alap")
    assert alap["status"] == "loaded" and alap["cards"] > 0 and alap["requires"]
    assert alap["distribution"] == "hkk" and alap["version"]
    assert data["hook_api"]


def test_sets_shows_a_broken_set_with_its_reason(run, fake_set):
    fake_set("rossz", cards=CARDS.replace("hp = 2", "hp = 0"))
    result = run("sets", "--output-format", "json")
    assert result.exit_code == 0
    broken = next(s for s in json.loads(result.output)["sets"] if s["code"] == "rossz")
    assert broken["status"] == "failed"
    assert "cards[0].hp: Input should be greater than 0" in broken["reason"]


def test_cards_of_one_set(run):
    result = run("cards", "--set", "alap")
    assert result.exit_code == 0
    assert "alap:tuzmano" in result.output and "Tűzmanó" in result.output
    assert "activated (main_phase, 1 VP, 2/turn)" in result.output
    assert "mereg:" not in result.output


def test_cards_unknown_set_is_a_usage_error(run):
    result = CliRunner().invoke(main, ["cards", "--set", "nincs"])
    assert result.exit_code == 2
    assert "no loaded set 'nincs'" in result.output


def test_play_prints_the_game_turn_by_turn(run):
    result = run("play", "--seed", "3", "--set", "alap")
    assert result.exit_code == 0
    out = result.output
    assert "alap:tuz (P1) vs alap:viz (P2)" in out
    for expected in ("Turn 1", "▸ preparation 1", "▸ end 4", "action:", "Ép check", "⟳",
                     "effect", "dies", "Winner"):
        assert expected in out, expected


def test_play_json_to_a_file_and_to_stdout(run, tmp_path):
    target = tmp_path / "log.json"
    result = run("play", "--seed", "5", "--max-turns", "4", "--output-format", "json", "-o",
                 str(target))
    assert (result.exit_code, result.output) == (0, "")  # the output went to the file
    events = json.loads(target.read_text())
    assert events[0]["kind"] == "game_started" and events[-1]["kind"] == "game_over"
    again = run("play", "--seed", "5", "--max-turns", "4", "--output-format", "json")
    assert json.loads(again.output) == events  # the same seed gives the same log


@pytest.fixture
def saved(run, tmp_path):
    """A game written by ``hkk play --save`` (decks of both sets), as JSON data and its file."""
    target = tmp_path / "game.json"
    result = run("play", "--seed", "3", "--decks", "alap:tuz", "mereg:mocsar", "--save",
                 str(target), "-q")
    assert result.exit_code == 0, result.output
    return json.loads(target.read_text()), target


def test_replay_of_an_honest_save_passes(run, saved):
    data, target = saved
    assert data["format"] == "hkk-save/4" and data["seed"] == 3
    assert data["log"][-1]["kind"] == "game_over"
    result = run("replay", str(target))
    assert result.exit_code == 0, result.output
    assert f"OK: {len(data['log'])} events replayed" in result.output


def test_replay_names_the_first_event_that_differs(run, saved, tmp_path):
    data, _ = saved
    index = next(i for i, e in enumerate(data["log"]) if e["kind"] == "card_drawn" and i > 100)
    original = dict(data["log"][index])
    data["log"][index]["card"] = "alap:nincs-ilyen"
    tampered = tmp_path / "tampered.json"
    tampered.write_text(json.dumps(data))
    result = run("replay", str(tampered))
    assert result.exit_code == 1
    assert f"diverged at event {index} (after {index} identical)" in result.output
    expected, got = (next(line for line in result.output.splitlines() if line.strip()
                          .startswith(side)) for side in ("expected:", "got:"))
    assert '"card": "alap:nincs-ilyen"' in expected  # the log's event
    assert f'"card": {json.dumps(original["card"])}' in got  # the game's


def test_replay_of_a_game_stopped_by_the_turn_limit(run, tmp_path):
    target = tmp_path / "short.json"
    result = run("play", "--seed", "8", "--max-turns", "3", "--save", str(target), "-q")
    assert result.exit_code == 0
    assert json.loads(target.read_text())["rulings"] == {"max_turns": 3}
    result = run("replay", str(target))
    assert result.exit_code == 0 and "OK: " in result.output


def test_replay_refuses_other_versions_unless_forced(saved, tmp_path):
    data, _ = saved
    data["engine"] = "0.0.1"
    data["sets"]["mereg"] = "9.9.9"
    other = tmp_path / "other.json"
    other.write_text(json.dumps(data))
    runner = CliRunner()
    refused = runner.invoke(main, ["replay", str(other)])
    assert refused.exit_code == 2
    assert "engine 0.0.1 vs 0.1.0" in refused.output and "set mereg 9.9.9 vs" in refused.output
    assert "OK" not in refused.output
    forced = runner.invoke(main, ["replay", str(other), "--force"])
    assert forced.exit_code == 0 and "OK:" in forced.output


def test_replay_of_a_file_that_is_not_a_save_is_one_error_line(run, tmp_path):
    events = tmp_path / "events.json"
    assert run("play", "--max-turns", "2", "--output-format", "json", "-o", str(events)).exit_code == 0
    result = CliRunner().invoke(main, ["replay", str(events)])
    assert result.exit_code == 2
    assert result.output.strip().count("\n") == 0
    assert "is a game's event log" in result.output and "--save" in result.output  # 24.14


def test_play_with_a_mixed_deck_spec(run):
    result = run("play", "--seed", "1", "--decks", "alap:tuz+mereg", "alap:viz", "-q")
    assert result.exit_code == 0, result.output


def test_play_unknown_deck_is_a_usage_error():
    result = CliRunner().invoke(main, ["play", "--decks", "alap:nincs", "alap:viz"])
    assert result.exit_code == 2
    assert "unknown deck 'alap:nincs'" in result.output


def test_play_error_in_a_set_exits_1_with_the_reproducing_command(fake_set):
    fake_set("hibas", python='''
        from hkk import hookimpl

        @hookimpl
        def end_stage2(game):
            raise ZeroDivisionError("oops")
    ''')
    result = CliRunner().invoke(main, ["play", "--seed", "2", "--decks", "hibas:start",
                                       "hibas:start", "-q"])
    assert result.exit_code == 1
    assert "hook end_stage2, set hibas" in result.output
    assert "reproduce: hkk play --seed 2 --decks hibas:start hibas:start" in result.output


def test_verify_passes_on_the_base_set(run, tmp_path):
    junit = tmp_path / "verify.xml"
    result = CliRunner().invoke(main, ["verify", "alap", "--games", "2", "--junit-xml",
                                       str(junit)])
    assert result.exit_code == 0, result.output
    assert "✓ games [alap]" in result.output and "coverage" in result.output
    assert "<testsuite" in junit.read_text()


def test_verify_json(run):
    result = CliRunner().invoke(main, ["verify", "alap", "--games", "1", "--output-format", "json"])
    assert result.exit_code == 0
    data = json.loads(result.output)
    assert data["ok"] is True and data["coverage"]["alap"]["cards"] > 0


def test_verify_broken_set_exits_1_naming_set_and_problem(fake_set):
    fake_set("rossz", cards=CARDS.replace("hp = 2", "hp = 0"))
    result = CliRunner().invoke(main, ["verify", "rossz", "--games", "1"])
    assert result.exit_code == 1
    assert "✗ discovery [rossz]" in result.output
    assert "set rossz (hkk-set-rossz 1.0), stage validate" in result.output
    assert "FAILED" in result.output


def test_schema(run, tmp_path):
    schema = json.loads(run("schema").output)
    assert schema["$id"] == "urn:hkk:schema:card-file" and "cards" in schema["properties"]
    out = tmp_path / "cards.schema.json"
    assert run("schema", "--output", str(out)).exit_code == 0
    assert json.loads(out.read_text()) == schema


def test_new_set_rejects_a_bad_code(tmp_path):
    result = CliRunner().invoke(main, ["new-set", "Rossz-Nev", "--dir", str(tmp_path)])
    assert result.exit_code == 2 and "invalid set code 'Rossz-Nev'" in result.output


# -- the installed script -----------------------------------------------------------------------

def _hkk(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([HKK, *args], check=False, capture_output=True, text=True,
                          timeout=120,
                          env={**os.environ, "NO_COLOR": "1", **(env or {})})


def test_script_version_and_help():
    assert _hkk("--version").stdout.startswith("hkk 0.")
    result = _hkk("--help")
    assert result.returncode == 0
    for command in ("sets", "cards", "play", "verify", "schema", "new-set"):
        assert command in result.stdout


def test_script_play_and_verify():
    play = _hkk("play", "--seed", "17", "--decks", "alap:tuz", "alap:viz", "-q")
    assert play.returncode == 0 and play.stdout.startswith("winner:")
    verify = _hkk("verify", "alap", "--games", "2")
    assert verify.returncode == 0, verify.stdout + verify.stderr
    assert "OK:" in verify.stdout


def test_script_usage_error_exit_code():
    result = _hkk("play", "--max-turns", "0")
    assert result.returncode == 2 and "Invalid value" in result.stderr


def test_script_with_a_broken_set_installed(tmp_path):
    site = tmp_path / "site"
    site.mkdir()
    write_set(site, "rossz", cards=CARDS.replace("hp = 2", "hp = 0"))
    env = {"PYTHONPATH": str(site)}
    sets = _hkk("sets", env=env)
    assert sets.returncode == 0 and "failed" in sets.stdout
    play = _hkk("play", "--seed", "1", "-q", env=env)  # the others still play
    assert play.returncode == 0 and "warning: set rossz (hkk-set-rossz 1.0)" in play.stderr
    verify = _hkk("verify", "--games", "1", env=env)
    assert verify.returncode == 1
    assert "cards/cards.toml: cards[0].hp: Input should be greater than 0" in verify.stdout
    assert "reproduce: hkk verify rossz" in verify.stdout


def test_script_play_without_arguments_prints_a_whole_base_set_game_with_a_winner():
    play = _hkk("play")
    assert play.returncode == 0, play.stderr
    out = play.stdout
    assert out.startswith("alap:tuz (P1) vs alap:viz (P2)")
    for seen in ("Turn 1", "prep_stage2_start", "end_stage4", "Ép check"):
        assert seen in out
    assert "\nWinner: P" in out


# -- bad data and usage errors: one line, the right exit code ------------------------------------

def test_card_names_print_literally_and_no_escape_reaches_the_terminal(run, fake_set):
    fake_set("furcsa", cards=CARDS.replace('name = "Baka"', 'name = "[bold]Baka[/bold]"'))
    result = run("cards", "--set", "furcsa")
    assert result.exit_code == 0
    assert "[bold]Baka[/bold]" in result.output  # markup in data is text
    # An escape sequence in a deck's card key is rejected; the message quoting it stays inert.
    fake_set("rossz", decks='[[decks]]\nname = "d"\ncards = {{ "\\u001b]0;owned\\u0007\\u009b" = 1 }}\n')
    for args in (["sets"], ["sets", "--output-format", "json"], ["cards"]):
        result = run(*args)
        assert result.exit_code == 0
        assert not {"\x1b", "\x07", "\x9b"} & set(result.output), args
    assert 'cards["\\x1b]0;owned\\x07\\x9b"]' in run("cards").output  # written out, visible


def test_invalid_configuration_is_a_one_line_usage_error(run, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "hkk.toml").write_text('[sets]\nallow = "alap"\n')
    for args in (["sets"], ["play", "-q"], ["cards"]):
        result = run(*args)
        assert result.exit_code == 2, args
        assert result.output == (f"Error: {tmp_path / 'hkk.toml'}: [sets].allow: expected a "
                                 "list of set codes, got 'alap'\n")


def test_configuration_is_found_in_parent_folders(run, tmp_path, monkeypatch):
    (tmp_path / "hkk.toml").write_text('[sets]\ndeny = ["mereg"]\n')
    (tmp_path / "sub").mkdir()
    monkeypatch.chdir(tmp_path / "sub")
    rows = {s["code"]: s["status"] for s in json.loads(run("sets", "--output-format", "json").output)["sets"]}
    assert (rows["alap"], rows["mereg"]) == ("loaded", "disabled")


@pytest.mark.parametrize("args", [
    ["play", "--output-format", "json", "-o", "{missing}/log.json", "--max-turns", "2"],
    ["verify", "alap", "--games", "1", "--junit-xml", "{missing}/verify.xml"],
    ["schema", "-o", "{missing}/cards.schema.json"],
])
def test_output_file_in_a_missing_folder_is_a_usage_error_before_the_work(args, tmp_path):
    missing = tmp_path / "nincs"
    result = CliRunner().invoke(main, [a.format(missing=missing) for a in args])
    assert result.exit_code == 2
    assert f"folder '{missing}' does not exist" in result.output
    assert "Turn 1" not in result.output and "games" not in result.output  # nothing was played
    assert result.exception is None or isinstance(result.exception, SystemExit)


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
def test_a_failed_write_is_one_line_and_exit_1(run):
    result = run("schema", "-o", "/dev/full")
    assert result.exit_code == 1
    assert result.output == "Error: [Errno 28] No space left on device\n"


def test_verify_unknown_code_is_a_usage_error(run):
    result = CliRunner().invoke(main, ["verify", "nincs", "--games", "1"])
    assert result.exit_code == 2
    assert "no installed set 'nincs'; installed: alap, mereg" in result.output


@pytest.mark.parametrize("args", [["play"], ["play", "--output-format", "json"],
                                  ["cards", "--output-format", "json"]])
def test_script_output_cut_short_by_its_reader_is_no_error(args):
    # `hkk play | head`: the reader has gone before we write (its end of the pipe is closed).
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        result = subprocess.run([HKK, *args], stdout=write_end, stderr=subprocess.PIPE,
                                text=True, timeout=120, check=False)
    finally:
        os.close(write_end)
    assert (result.returncode, result.stderr) == (0, "")


@pytest.mark.parametrize("seed", ["3", "4"])
def test_script_output_cut_short_in_the_middle_of_a_game_is_no_error(seed):
    # `hkk play | grep -m2 …`: the reader goes while a set's ability runs; the broken pipe is
    # not that set's failure
    game = subprocess.Popen([HKK, "play", "--seed", seed], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "NO_COLOR": "1"})
    assert game.stdout is not None and game.stderr is not None
    lines = [game.stdout.readline() for _ in range(400)]
    game.stdout.close()
    stderr = game.stderr.read()
    assert (game.wait(timeout=120), stderr) == (0, "")
    assert any("P1" in line for line in lines)

# -- a set's code cannot fool or hang the commands (issue 8) -----------------------------------

def test_play_and_verify_with_a_set_calling_sys_exit_exit_1_naming_it(fake_set):
    fake_set("kilepo", python='''
        import sys
        from hkk import hookimpl

        @hookimpl
        def end_stage2(game):
            sys.exit(0)
    ''')
    play = CliRunner().invoke(main, ["play", "--decks", "kilepo:start", "kilepo:start", "-q"])
    assert play.exit_code == 1
    assert "hook end_stage2, set kilepo" in play.output and "SystemExit: 0" in play.output
    verify = CliRunner().invoke(main, ["verify", "kilepo", "--games", "1"])
    assert verify.exit_code == 1
    assert "✗ games [kilepo]" in verify.output and "SystemExit: 0" in verify.output


def test_ctrl_c_in_a_game_exits_1_saying_where(fake_set):
    fake_set("megszakit", python='''
        from hkk import hookimpl

        @hookimpl
        def end_stage2(game):
            raise KeyboardInterrupt
    ''')
    play = CliRunner().invoke(main, ["play", "--decks", "megszakit:start", "megszakit:start",
                                     "-q", "--seed", "4"])
    assert play.exit_code == 1
    assert "interrupted in turn 1 (end_stage2): interrupted in turn 1 (end_stage2), hook " \
        "end_stage2, set megszakit" in play.output
    assert "reproduce: hkk play --seed 4 --decks megszakit:start megszakit:start" in play.output
    verify = CliRunner().invoke(main, ["verify", "megszakit", "--games", "2"])
    assert verify.exit_code == 1
    assert "interrupted: the report so far" in verify.output
    assert "✗ games [megszakit], seed 0: interrupted (turn 1, end_stage2)" in verify.output


def test_ctrl_c_while_a_set_is_imported_names_the_set(fake_set):
    fake_set("lassu", python="raise KeyboardInterrupt\n")
    result = CliRunner().invoke(main, ["sets"])
    assert result.exit_code == 1
    assert "interrupted: interrupted while importing set lassu (hkk-set-lassu 1.0)" in \
        result.output
    assert "Aborted!" not in result.output


def test_play_game_timeout_stops_a_looping_set_saying_where(fake_set):
    from test_verify import LOOPING_CARD, LOOPING_EFFECT

    fake_set("hurok", cards=LOOPING_CARD, python=LOOPING_EFFECT.replace("{code}", "hurok"))
    result = CliRunner().invoke(main, ["play", "--decks", "hurok:start", "hurok:start", "-q",
                                       "--game-timeout", "1"])
    assert result.exit_code == 1
    assert re.search(r"time limit in turn \d+ \(end_stage2\): the game ran longer than its time "
                     r"limit of 1 CPU s; it was running hkkfake_hurok_\w+\.forever \(line 5\)",
                     result.output), result.output
    verify = CliRunner().invoke(main, ["verify", "hurok", "--games", "1", "--game-timeout",
                                       "1"])
    assert verify.exit_code == 1
    assert re.search(r"✗ games \[hurok\], card hurok:vezer, seed 0: time limit \(turn \d+, "
                     r"end_stage2\)", verify.output), verify.output


# -- terminal hygiene (issue 24.5, 24.10) -------------------------------------------------------

EMOJI_CARDS = '''
[[cards]]
id = "{code}:x"
name = ":skull: Koponya"
kind = "creature"
text = "Nem :x: és nem :smile:."
cost = {{ vp = 1 }}
damage = 1
hp = 2
'''


def test_card_data_is_printed_as_written_never_as_emoji(run, fake_set):
    fake_set("emoji", cards=EMOJI_CARDS, decks=None)
    result = run("cards", "--set", "emoji")
    assert result.exit_code == 0, result.output
    assert "emoji:x" in result.output and ":skull: Koponya" in result.output
    assert "Nem :x: és nem :smile:." in result.output
    assert not {"💀", "❌", "😄"} & set(result.output)


def test_version_prints_a_sets_metadata_with_its_control_characters_written_out(run, fake_set):
    package = fake_set("ver")
    info = next(p for p in map(Path, sys.path) if (p / package).is_dir())
    metadata = info / "hkk_set_ver-1.0.dist-info" / "METADATA"
    metadata.write_text(metadata.read_text().replace("Version: 1.0", "Version: 1.0\x1b[2J"))
    result = run("--version")
    assert result.exit_code == 0
    line = next(line for line in result.output.splitlines() if "set ver" in line)
    assert "\x1b" not in result.output and "1.0\\x1b[2J" in line


def test_piped_tables_keep_every_heading_and_cell_whole(run, fake_set):
    long_code = "hosszu_nevu_kozossegi_kiegeszito_k"  # 34 characters: a wide row
    fake_set(long_code[:32])
    result = run("sets")
    assert result.exit_code == 0
    assert "…" not in result.output
    row = next(line for line in result.output.splitlines() if long_code[:32] in line)
    assert f"hkk-set-{long_code[:32]}" in row and "loaded" in row
    for heading in ("code", "distribution", "version", "cards", "hooks", "requires", "status"):
        assert heading in result.output


def test_piped_reference_is_its_markdown_source_with_no_line_cut(run):
    piped = run("reference")
    assert piped.exit_code == 0
    assert piped.output == run("reference", "--markdown").output


# -- one line, never a traceback (issue 24.4) ---------------------------------------------------

def _one_line_error(result) -> str:
    """The one ``Error`` line (click's usage lines may stand before it), no traceback."""
    assert "Traceback" not in result.output, result.output
    lines = [line for line in result.output.splitlines() if line.startswith("Error")]
    assert len(lines) == 1, result.output
    return lines[0]


def test_a_deeply_nested_config_file_is_one_line(tmp_path, monkeypatch):
    (tmp_path / "hkk.toml").write_text("[sets]\nx = " + "[" * 3000 + "]" * 3000 + "\n")
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["sets"])
    assert result.exit_code == 2
    assert "hkk.toml" in _one_line_error(result)


@pytest.mark.parametrize(("content", "says"), [(b"\xff\xfe not text", "not UTF-8"),
                                               (b"[" * 100_000 + b"]" * 100_000, "nested")])
def test_an_unreadable_spoiler_is_one_line(tmp_path, content, says):
    spoiler = tmp_path / "spoiler.json"
    spoiler.write_bytes(content)
    result = CliRunner().invoke(main, ["verify", "alap", "--games", "0", "--against",
                                       str(spoiler)])
    assert result.exit_code == 2
    assert says in _one_line_error(result)


@pytest.mark.parametrize("args", [["--scheduler", "tcp://::::bad"], ["--scheduler", "nowhere"],
                                  ["-n", str(10**20)]])
def test_simulate_refuses_a_malformed_scheduler_or_an_absurd_size_in_one_line(args):
    pytest.importorskip("distributed")
    result = CliRunner().invoke(main, ["simulate", "--set", "alap", *args])
    assert result.exit_code == 2
    assert args[0] in _one_line_error(result)


# -- smaller things (issue 24.14) ---------------------------------------------------------------

def test_a_set_that_speeds_games_up_is_called_faster_not_0_98x_slower():
    from hkk._setcost import SetCost

    quicker = SetCost("xx", 4, base_rate=10.0, with_rate=12.5, factor=0.8, max_factor=3.0)
    assert "1.25x faster" in quicker.message() and "0.80x" not in quicker.message()
    slower = SetCost("xx", 4, base_rate=10.0, with_rate=5.0, factor=2.0, max_factor=3.0)
    assert "2.00x slower" in slower.message()


def test_verify_counts_one_deck_as_1_deck(fake_set):
    from hkk.verify import verify

    fake_set("egy")
    report = verify(["egy"], games=0, max_slowdown=0)
    found = next(c for c in report.checks if c.name == "discovery" and c.target == "egy")
    assert "2 cards, 1 deck," in found.message


def test_simulate_prints_endings_as_words_not_a_python_dict(run):
    result = run("simulate", "-n", "4", "--set", "alap", "-w", "1")
    assert result.exit_code == 0, result.output
    line = next(line for line in result.output.splitlines() if "endings" in line)
    assert "{" not in line and "'" not in line
    assert re.search(r"endings (empty_deck|hp|turn_limit) \d+", line)


def test_a_disabled_set_names_what_disabled_it(tmp_path, monkeypatch):
    (tmp_path / "hkk.toml").write_text('[sets]\ndeny = ["mereg"]\n')
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("HKK_SETS_ALLOW", raising=False)
    monkeypatch.delenv("HKK_SETS_DENY", raising=False)
    rows = json.loads(CliRunner().invoke(main, ["sets", "--output-format", "json"]).output)["sets"]
    mereg = next(r for r in rows if r["code"] == "mereg")
    assert mereg["status"] == "disabled"
    assert str(tmp_path / "hkk.toml") in mereg["reason"]
    monkeypatch.setenv("HKK_SETS_DENY", "mereg")
    rows = json.loads(CliRunner().invoke(main, ["sets", "--output-format", "json"]).output)["sets"]
    assert next(r for r in rows if r["code"] == "mereg")["reason"] == "by HKK_SETS_DENY=mereg"


def test_play_explains_the_rule_points_in_its_first_lines(run):
    result = run("play", "--seed", "4", "--max-turns", "1")
    assert result.exit_code == 0
    first_lines = result.output.splitlines()[:3]
    assert any("rule points" in line and "RULINGS" in line for line in first_lines)


def test_piped_output_respects_columns_when_set(run, monkeypatch):
    monkeypatch.setenv("COLUMNS", "50")
    result = run("sets")
    assert result.exit_code == 0
    assert max(len(line) for line in result.output.splitlines()) <= 50


# -- issue 24.12: hints name what a user of the installed package can run --------------------

def test_play_without_the_base_set_names_hkk_sets_not_a_checkout_path(monkeypatch):
    monkeypatch.setenv("HKK_SETS_DENY", "alap,mereg")
    result = CliRunner().invoke(main, ["play", "-q"])
    assert result.exit_code == 2
    assert "the base set alap, which ships with hkk, is not loaded ('hkk sets' says why)" \
        in result.output
    assert "sets/alap" not in result.output


def test_sets_with_no_set_at_all_says_reinstall_hkk(monkeypatch):
    import hkk._sets.finding as finding  # the find stage reads the entry points

    monkeypatch.setattr(finding.importlib_metadata, "entry_points", lambda group: [])
    result = CliRunner().invoke(main, ["sets"])
    assert result.exit_code == 0
    assert "the base set alap ships with hkk. Try: pip install --force-reinstall hkk" in \
        " ".join(result.output.split())
    assert "sets/alap" not in result.output
