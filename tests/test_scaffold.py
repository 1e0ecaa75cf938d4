"""hkk new-set: the scaffolded project, and that it installs, tests and verifies green."""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from hkk._cards.loader import load_set_cards, load_set_decks
from hkk._scaffold import ScaffoldError, create, placeholders
from hkk._sets.manifest import parse_manifest


def test_the_project_has_every_part(tmp_path):
    project = create("zold", tmp_path)
    assert project == tmp_path / "hkk-set-zold"
    files = {str(p.relative_to(project)) for p in project.rglob("*") if p.is_file()}
    assert files == {
        "pyproject.toml", "README.md", ".gitignore", ".github/workflows/ci.yml",
        "src/hkk_set_zold/__init__.py", "src/hkk_set_zold/set.toml",
        "src/hkk_set_zold/cards/cards.toml", "src/hkk_set_zold/decks/kezdo.toml",
        "tests/test_cards.py",
    }
    assert not any("{{" in p.read_text() for p in project.rglob("*") if p.is_file()
                   and p.name != "ci.yml")


def test_pyproject_manifest_cards_and_deck_are_valid(tmp_path):
    project = create("zold", tmp_path, title="Zöld erdő")
    pyproject = tomllib.loads((project / "pyproject.toml").read_text())
    assert pyproject["project"]["name"] == "hkk-set-zold"
    assert pyproject["project"]["entry-points"]["hkk.sets"] == {"zold": "hkk_set_zold"}
    assert pyproject["project"]["dependencies"] == [f"hkk{placeholders('zold')['engine_requirement']}"]
    assert pyproject["tool"]["pytest"]["ini_options"]["hkk_verify"] == ["zold"]
    package = project / "src" / "hkk_set_zold"
    manifest = parse_manifest((package / "set.toml").read_text())
    assert (manifest.code, manifest.name) == ("zold", "Zöld erdő")
    cards = load_set_cards("zold", package)
    decks = load_set_decks("zold", package, {c.id for c in cards})
    assert len(cards) == 6 and decks["kezdo"].size == 30
    compile((package / "__init__.py").read_text(), "__init__.py", "exec")


def test_ci_workflow_runs_verify_and_the_tests(tmp_path):
    ci = (create("zold", tmp_path) / ".github" / "workflows" / "ci.yml").read_text()
    assert "hkk verify zold" in ci and "python -m pytest" in ci
    assert "${{ matrix.python-version }}" in ci  # GitHub's own expressions are left alone


def test_bad_code_and_non_empty_folder_are_refused(tmp_path):
    with pytest.raises(ScaffoldError, match="invalid set code"):
        create("Zold", tmp_path)
    create("zold", tmp_path)
    with pytest.raises(ScaffoldError, match="not empty"):
        create("zold", tmp_path)


def test_scaffolded_set_installs_and_its_tests_and_verify_pass(tmp_path):
    """pip install -e (no deps: the engine and pytest-hkk are here already), then the project's
    own pytest run and ``hkk verify``; uninstalled afterwards.  About 6 s, so not marked slow."""
    code = "ujkeszlet"
    project = create(code, tmp_path)
    pip = [sys.executable, "-m", "pip"]
    env = {**os.environ, "NO_COLOR": "1", "PIP_DISABLE_PIP_VERSION_CHECK": "1"}
    # Only the new set: whatever state the other installed sets are in is not this test's.
    run_env = {**env, "HKK_SETS_ALLOW": code}
    install = subprocess.run(check=False, args=[*pip, "install", "--no-deps", "-q", "-e",
                              str(project)], capture_output=True, text=True, env=env,
                             timeout=300)
    assert install.returncode == 0, install.stderr
    try:
        tests = subprocess.run(check=False, args=[sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                                "--hkk-verify-games", "2"], cwd=project, capture_output=True,
                               text=True, env=run_env, timeout=300)
        assert tests.returncode == 0, tests.stdout + tests.stderr
        assert "passed" in tests.stdout
        hkk = Path(sys.executable).parent / "hkk"
        verify = subprocess.run(check=False, args=[str(hkk), "verify", code, "--games", "2"], cwd=project,
                                capture_output=True, text=True, env=run_env, timeout=300)
        assert verify.returncode == 0, verify.stdout + verify.stderr
        assert f"✓ games [{code}]" in verify.stdout
    finally:
        subprocess.run(check=False, args=[*pip, "uninstall", "-y", "-q", f"hkk-set-{code}"], capture_output=True,
                       env=env, timeout=300)
