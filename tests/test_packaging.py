"""Issue 13: every distribution builds with an SPDX license, its LICENSE file, the Python
versions it supports declared, and no packaging warning."""

from __future__ import annotations

import email
import json
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
#: What a copy of the source tree leaves out: the VCS, venvs, caches and build leftovers (a stale
#: egg-info's SOURCES.txt would carry data files the package-data settings no longer name).
NOT_SOURCE = shutil.ignore_patterns(".git", ".venv*", "build", "dist", "*.egg-info",
                                    "__pycache__", ".*cache", ".hypothesis")


def source_copy(tmp_path: Path, project: str = ".") -> Path:
    """A copy of ``project`` of the source tree to build from.  A build writes its egg-info
    and build/ into the tree it builds: in this checkout that is the ``hkk`` distribution a
    process with the checkout on its path (``python -m`` from it) finds first, so a test
    building here would make the base set vanish for a moment from tests beside it (pytest -n:
    a server seeing no set)."""
    copy = tmp_path / "source" / project
    shutil.copytree(ROOT / project, copy, ignore=NOT_SOURCE)
    return copy


@pytest.mark.parametrize("project", [".", "sets/mereg", "plugins/pytest-hkk", "plugins/hkk-env"])  # alap is in "."
@pytest.mark.slow
def test_wheel_metadata_has_spdx_license_and_python_versions(project, tmp_path):
    build = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w",
                            str(tmp_path), str(source_copy(tmp_path, project))],
                           capture_output=True, text=True, timeout=600, check=False)
    assert build.returncode == 0, build.stderr
    for warning in ("deprecated", "SetuptoolsDeprecationWarning", "License classifiers"):
        assert warning not in build.stderr + build.stdout, build.stderr
    wheel = next(tmp_path.glob("*.whl"))
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        metadata = email.message_from_bytes(archive.read(
            next(n for n in names if n.endswith(".dist-info/METADATA"))))
    assert metadata["License-Expression"] == "MIT"
    assert "LICENSE" in metadata.get_all("License-File")
    assert any(n.endswith(".dist-info/licenses/LICENSE") for n in names)
    assert metadata["Requires-Python"] == ">=3.11"
    classifiers = metadata.get_all("Classifier")
    for minor in (11, 12, 13):
        assert f"Programming Language :: Python :: 3.{minor}" in classifiers
    assert not any(c.startswith("License ::") for c in classifiers)  # PEP 639: the expression
    if project == ".":  # typed (PEP 561): the marker and the package's stub (issue 20 item 2)
        assert {"hkk/py.typed", "hkk/__init__.pyi"} <= set(names)


# -- issue 24.12: the engine's own install plays the base set ---------------------------------

OUR_DISTRIBUTIONS = ("hkk", "pytest_hkk", "__editable__")


def _fresh_venv_seeing_third_party(tmp_path: Path) -> Path:
    """A venv without pip that sees this venv's third-party packages - the engine's
    dependencies, nothing to download - but none of this repository's distributions: a folder
    of links to everything in this venv's site-packages except them (and the .pth files, which
    would add editable installs back), added to the new venv's path by a .pth of its own."""
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True,
                   timeout=300)
    python = venv / "bin" / "python"
    third_party = tmp_path / "third-party"
    third_party.mkdir()
    for entry in Path(sysconfig.get_path("purelib")).iterdir():
        if not entry.name.lower().startswith(OUR_DISTRIBUTIONS) and entry.suffix != ".pth":
            (third_party / entry.name).symlink_to(entry)
    own_site = subprocess.run([python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
                              check=True, capture_output=True, text=True).stdout.strip()
    Path(own_site, "_third_party.pth").write_text(f"{third_party}\n")
    return venv


@pytest.mark.slow  # a build and a fresh venv: seconds
@pytest.mark.parametrize("install", ["wheel", "editable"])
def test_the_engine_alone_plays_the_base_set_in_a_fresh_venv(install, tmp_path):
    """`pip install hkk` alone - no set distribution - finds the base set and plays a game:
    from the built wheel (what PyPI and pipx give) and from `pip install -e .`."""
    venv = _fresh_venv_seeing_third_party(tmp_path)
    pip = [sys.executable, "-m", "pip", "--python", str(venv / "bin" / "python")]
    env = {key: value for key, value in os.environ.items()
           if not key.startswith("HKK_") and key != "PYTHONPATH"}
    env.update(NO_COLOR="1", PIP_DISABLE_PIP_VERSION_CHECK="1")
    source = source_copy(tmp_path)
    if install == "wheel":
        build = subprocess.run([*pip, "wheel", "--no-deps", "-q", "-w", str(tmp_path / "dist"),
                                str(source)], capture_output=True, text=True, env=env,
                               timeout=600, check=False)
        assert build.returncode == 0, build.stderr
        wheel = next((tmp_path / "dist").glob("hkk-*.whl"))
        with zipfile.ZipFile(wheel) as archive:
            names = set(archive.namelist())
        assert "hkk_set_alap/set.toml" in names
        assert any(n.startswith("hkk_set_alap/cards/") and n.endswith(".toml") for n in names)
        assert any(n.startswith("hkk_set_alap/decks/") and n.endswith(".toml") for n in names)
        target = ["--no-index", str(wheel)]
    else:  # its build needs a setuptools of its own, from where pip finds one
        target = ["-e", str(source)]
    installed = subprocess.run([*pip, "install", "--no-deps", "-q", *target],
                               capture_output=True, text=True, env=env, timeout=600, check=False)
    assert installed.returncode == 0, installed.stderr
    hkk = str(venv / "bin" / "hkk")
    sets = subprocess.run([hkk, "sets", "--json"], capture_output=True, text=True, env=env,
                          cwd=tmp_path, timeout=300, check=False)
    assert sets.returncode == 0, sets.stderr
    rows = {row["code"]: row for row in json.loads(sets.stdout)["sets"]}
    assert set(rows) == {"alap"}
    assert rows["alap"]["distribution"] == "hkk" and rows["alap"]["status"] == "loaded"
    assert rows["alap"]["cards"] == 53 and rows["alap"]["decks"] == ["tuz", "viz"]
    play = subprocess.run([hkk, "play", "--seed", "1", "-q"], capture_output=True, text=True,
                          env=env, cwd=tmp_path, timeout=300, check=False)
    assert play.returncode == 0, play.stdout + play.stderr
    assert re.match(r"winner: P[12] after \d+ turns", play.stdout), play.stdout
