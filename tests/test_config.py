"""Which sets load, by configuration file and by environment variable."""

from __future__ import annotations

import pytest

from hkk.config import load_set_selection
from hkk.errors import HkkError
from hkk.sets import discover


def test_no_file_no_selection(tmp_path):
    assert load_set_selection(tmp_path).allow is None


def test_hkk_toml(tmp_path):
    (tmp_path / "hkk.toml").write_text('[sets]\nallow = ["alap"]\ndeny = ["mereg"]\n')
    selection = load_set_selection(tmp_path)
    assert (selection.allow, selection.deny) == ({"alap"}, {"mereg"})


def test_pyproject_tool_table(tmp_path):
    (tmp_path / "pyproject.toml").write_text('[project]\nname="x"\n[tool.hkk.sets]\n'
                                             'deny = ["mereg"]\n')
    assert load_set_selection(tmp_path).deny == {"mereg"}


def test_bad_configuration_names_file_and_key(tmp_path):
    (tmp_path / "hkk.toml").write_text('[sets]\nallow = "alap"\n')
    with pytest.raises(HkkError, match=r"hkk.toml: \[sets\].allow: expected a list"):
        load_set_selection(tmp_path)


def test_discovery_reads_the_file_and_the_environment_wins(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("HKK_SETS_ALLOW", raising=False)
    monkeypatch.delenv("HKK_SETS_DENY", raising=False)
    (tmp_path / "hkk.toml").write_text('[sets]\ndeny = ["mereg"]\n')
    found = discover()
    assert "alap" in found.sets and "mereg" not in found.sets
    assert [c.code for c in found.disabled] == ["mereg"]

    monkeypatch.setenv("HKK_SETS_DENY", "nothing_here")
    assert "mereg" in discover().sets
