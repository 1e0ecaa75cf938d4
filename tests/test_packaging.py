"""Issue 13: every distribution builds with an SPDX license, its LICENSE file, the Python
versions it supports declared, and no packaging warning."""

from __future__ import annotations

import email
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


# pip builds in the source tree (its build/ folder): one build at a time under pytest -n
@pytest.mark.xdist_group("source-tree")
@pytest.mark.parametrize("project", [".", "sets/alap", "sets/mereg", "plugins/pytest-hkk"])
def test_issue13_wheel_metadata_has_spdx_license_and_python_versions(project, tmp_path):
    build = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w",
                            str(tmp_path), str(ROOT / project)], capture_output=True, text=True,
                           timeout=600, check=False)
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
