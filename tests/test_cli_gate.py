"""Issue 13: ``hkk --version`` lists the installed sets, ``hkk cards`` takes several ``--set``,
the sets table folds at word boundaries at 80 columns."""

from __future__ import annotations

from importlib.metadata import version

import test_verify
from click.testing import CliRunner

from hkk.cli import main

fake_set = test_verify.fake_set  # the fixture, shared


def test_version_lists_the_installed_sets():
    result = CliRunner().invoke(main, ["--version"])
    assert result.exit_code == 0
    lines = result.output.splitlines()
    assert lines[0].startswith(f"hkk {version('hkk')} (hook API ")
    assert f"  set alap {version('hkk')} (hkk)" in lines  # the base set ships in the engine
    assert f"  set mereg {version('hkk-set-mereg')} (hkk-set-mereg)" in lines


def test_cards_takes_several_sets():
    runner = CliRunner()
    both = runner.invoke(main, ["cards", "--set", "alap", "--set", "mereg"]).output
    alap = runner.invoke(main, ["cards", "--set", "alap"]).output
    mereg = runner.invoke(main, ["cards", "--set", "mereg"]).output

    def count(text: str) -> int:
        return int(text.strip().splitlines()[-1].split()[0])
    assert count(both) == count(alap) + count(mereg) and count(mereg) > 0
    result = runner.invoke(main, ["cards", "--set", "alap", "--set", "nincs"])
    assert result.exit_code == 2 and "'nincs'" in result.output


def test_sets_table_folds_at_word_boundaries_at_80_columns(fake_set, monkeypatch):
    fake_set("hosszu", python='''
        from hkk import hookimpl

        @hookimpl
        def custom_effects():
            return {}

        @hookimpl
        def prep_stage2(game):
            return []

        @hookimpl
        def end_stage2(game):
            return []
    ''')
    monkeypatch.setenv("COLUMNS", "80")
    result = CliRunner().invoke(main, ["sets"])
    lines = result.output.splitlines()
    assert all(len(line) <= 80 for line in lines)
    cells = " ".join(part.strip() for line in lines for part in line.split("│"))
    for hook in ("custom_effects", "prep_stage2", "end_stage2"):
        assert f" {hook} " in f" {cells} ", hook  # whole, not folded inside the name
