"""docs/WRITING-A-SET.md works as written: its code blocks are the files of a set, and its tests
pass.  Each block whose first line is ``# file: PATH`` is written to PATH in a fresh folder; the
folder's conftest (below, not part of the page) stands in for ``pip install -e .``: it registers
the package as the set ``sarkany`` and adds its cards to the engine the fixtures use."""

from __future__ import annotations

import re
from pathlib import Path

# Imported before pytester snapshots sys.meta_path (see test_pytest_plugin.py).
import importlib_metadata  # noqa: F401
import pytest

pytest_plugins = ["pytester"]

PAGE = Path(__file__).resolve().parent.parent / "docs" / "WRITING-A-SET.md"
BLOCK = re.compile(r"```(?:python|toml)\n# file: (\S+)\n(.*?)```", re.S)

INSTALLED = '''
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent / "src"))


@pytest.fixture(scope="session")
def hkk_engine():
    import hkk_set_sarkany
    from hkk import Engine
    from hkk._cards.loader import parse_card_file

    # as pytest-hkk's own hkk_engine: every set's hooks in every game (set_hooks="all")
    engine = Engine.installed(allow=["alap"], set_hooks="all")
    engine.pm.register(hkk_set_sarkany, name="hkk.sets.sarkany")
    text = (Path(__file__).parent / "src/hkk_set_sarkany/cards/cards.toml").read_text("utf-8")
    engine.cards.update({c.id: c for c in parse_card_file("sarkany", "cards/cards.toml", text)})
    return engine
'''


def page_files() -> dict[str, str]:
    return {path: body for path, body in BLOCK.findall(PAGE.read_text(encoding="utf-8"))}


def test_the_page_has_the_files_of_a_set_with_hooks_cards_and_tests():
    files = page_files()
    assert set(files) == {"src/hkk_set_sarkany/__init__.py", "src/hkk_set_sarkany/fire.py",
                          "src/hkk_set_sarkany/cards/cards.toml", "tests/test_fire.py",
                          "tests/test_spread.py"}
    fire = files["src/hkk_set_sarkany/fire.py"]
    for hook in ("custom_effects", "prep_stage2", "lethal", "trigger_kinds", "triggered"):
        assert f"@hookimpl\ndef {hook}(" in fire


@pytest.mark.slow
def test_the_pages_set_and_tests_run_as_written(pytester):
    for path, body in page_files().items():
        target = pytester.path / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(body, encoding="utf-8")
    pytester.makeconftest(INSTALLED)
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "tests")
    result.assert_outcomes(passed=4)
