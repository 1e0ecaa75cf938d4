"""The README's test command is what CI runs (.ci/run), install and test run alike."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _readme_test_command() -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    line = re.search(r"# 2\. set up and run the tests\n(.+)\n", text)
    assert line, "README.md lost its '# 2. set up and run the tests' step"
    return [part.strip() for part in line.group(1).split("&&")]


def test_ci_installs_as_the_readme_says_and_ends_with_its_test_command() -> None:
    *steps, tests = _readme_test_command()
    installs = [step for step in steps if step.startswith("pip install")]
    assert installs, "README's test command installs nothing"
    commands = [line.split("  #")[0].strip()
                for line in (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
                if line.strip() and not line.lstrip().startswith("#")]
    for install in installs:
        assert install.replace("pip install", "pip install --quiet") in commands
    # the native core's build (plugins/hkk-native/install_pgo.py), quiet in CI too
    builds = [step for step in steps if step.startswith("python plugins/")]
    assert builds, "README's test command no longer builds the native core"
    for build in builds:
        assert f"{build} --quiet" in commands
    assert commands[-1] == tests  # last, so that pytest's summary line ends CI's output
