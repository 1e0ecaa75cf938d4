"""Which sets load, by configuration file and by environment variable."""

from __future__ import annotations

import pytest

from hkk._config import load_set_selection
from hkk._errors import ConfigError, HkkError
from hkk._sets import discover


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


def test_found_in_a_parent_folder_the_nearest_wins(tmp_path):
    inner = tmp_path / "a" / "b"
    inner.mkdir(parents=True)
    (tmp_path / "hkk.toml").write_text('[sets]\ndeny = ["mereg"]\n')
    selection = load_set_selection(inner)
    assert (selection.deny, selection.source) == ({"mereg"}, str(tmp_path / "hkk.toml"))
    # A pyproject.toml without [tool.hkk] on the way is passed over, one with it is used.
    (tmp_path / "a" / "pyproject.toml").write_text('[project]\nname = "x"\n')
    assert load_set_selection(inner).source == str(tmp_path / "hkk.toml")
    (tmp_path / "a" / "pyproject.toml").write_text('[tool.hkk.sets]\nallow = ["alap"]\n')
    assert load_set_selection(inner).allow == {"alap"}


@pytest.mark.parametrize(("text", "message"), [
    ("sets = 3\n", r"hkk.toml: \[sets\]: expected a table, got 3"),
    ("[sets\n", r"hkk.toml: cannot read the hkk configuration: Expected ']'"),
    (b"[sets]\nallow = ['\xff']\n", r"hkk.toml: cannot read the hkk configuration: 'utf-8'"),
])
def test_wrongly_typed_or_broken_file_is_a_config_error(tmp_path, text, message):
    path = tmp_path / "hkk.toml"
    path.write_bytes(text) if isinstance(text, bytes) else path.write_text(text)
    with pytest.raises(ConfigError, match=message):
        load_set_selection(tmp_path)
