"""The native core's profile-guided build (``plugins/hkk-native/install_pgo.py``): its steps
in order, what each is given, and the plain build when rustc's ``llvm-profdata`` is missing.
The build itself runs in CI's install (the README's test command), and the whole suite,
the differential tests among them, runs on what it installed."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

SCRIPT = Path(__file__).resolve().parent.parent / "plugins" / "hkk-native" / "install_pgo.py"


@pytest.fixture
def script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("install_pgo", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class Recorded:
    """The commands the script runs, each with what it set in the environment."""

    def __init__(self) -> None:
        self.commands: list[tuple[list[str], dict[str, str]]] = []

    def run(self, args: list[str], check: bool = False, env: dict[str, str] | None = None,
            **_: Any) -> subprocess.CompletedProcess[str]:
        args = [str(a) for a in args]
        self.commands.append((args, dict(env or os.environ)))
        if args[:3] == [sys.executable, "-m", "pip"] and "wheel" in args:
            wheels = Path(args[args.index("-w") + 1])  # the instrumented wheel "built"
            wheels.mkdir(parents=True)
            (wheels / "hkk_native-0-cp311-abi3-linux_x86_64.whl").touch()
        return subprocess.CompletedProcess(args, 0, "", "")


def test_the_build_is_instrumented_trained_merged_then_installed_from_the_profile(
        script: ModuleType, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    tool = tmp_path / "llvm-profdata"
    monkeypatch.setattr(script, "llvm_profdata", lambda: tool)
    monkeypatch.setattr(script, "PROFILE", tmp_path / "pgo" / "merged.profdata")
    monkeypatch.setenv("RUSTFLAGS", "-Cdebuginfo=1")
    recorded = Recorded()
    monkeypatch.setattr(script.subprocess, "run", recorded.run)
    monkeypatch.setattr(sys, "argv", ["install_pgo.py", "-q"])
    script.main()

    (wheel, wheel_env), (site, _), (train, train_env), (merge, _), (install, install_env) = \
        recorded.commands
    assert wheel[3:6] == ["wheel", "--quiet", "--no-deps"] and wheel[-1] == str(SCRIPT.parent)
    counts = wheel_env["RUSTFLAGS"].split("-Cprofile-generate=")[1]
    assert wheel_env["RUSTFLAGS"].startswith("-Cdebuginfo=1 ")  # added to, not replaced
    assert wheel_env["CARGO_TARGET_DIR"].endswith("pgo-generate")
    assert site[3:6] == ["install", "--quiet", "--no-deps"] and "--target" in site
    target = site[site.index("--target") + 1]
    assert train == [sys.executable, str(SCRIPT), "--train"]
    assert train_env["PYTHONPATH"].split(os.pathsep)[0] == target
    assert merge == [str(tool), "merge", "-o", str(tmp_path / "pgo" / "merged.profdata"),
                     counts]
    assert install[3:] == ["install", "--quiet", str(SCRIPT.parent)]
    assert install_env["RUSTFLAGS"] == \
        f"-Cdebuginfo=1 -Cprofile-use={tmp_path / 'pgo' / 'merged.profdata'}"
    assert install_env["HKK_NATIVE_BUILD"] == "profile-guided"


def test_without_rustcs_llvm_profdata_it_says_so_and_installs_the_plain_build(
        script: ModuleType, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(script, "llvm_profdata", lambda: None)
    recorded = Recorded()
    monkeypatch.setattr(script.subprocess, "run", recorded.run)
    monkeypatch.setattr(sys, "argv", ["install_pgo.py"])
    script.main()
    [(install, env)] = recorded.commands
    assert install[3:] == ["install", str(SCRIPT.parent)]
    assert "-Cprofile" not in env.get("RUSTFLAGS", "")
    assert "llvm-profdata was not found (rustup component add llvm-tools)" in \
        capsys.readouterr().err


def test_llvm_profdata_is_only_rustcs_own(script: ModuleType, monkeypatch: pytest.MonkeyPatch,
                                         tmp_path: Path) -> None:
    sysroot = tmp_path / "sysroot"
    answers = {"--print": f"{sysroot}\n", "-vV": "rustc 1.95.0\nhost: x86_64-unknown-linux-gnu\n"}

    def rustc(args: list[str], **_: Any) -> subprocess.CompletedProcess[str]:
        return subprocess.CompletedProcess(args, 0, answers[args[1]], "")

    monkeypatch.setattr(script.subprocess, "run", rustc)
    assert script.llvm_profdata() is None  # another LLVM's on PATH does not count
    tool = sysroot / "lib" / "rustlib" / "x86_64-unknown-linux-gnu" / "bin" / "llvm-profdata"
    tool.parent.mkdir(parents=True)
    tool.touch()
    assert script.llvm_profdata() == tool

    def missing(args: list[str], **_: Any) -> subprocess.CompletedProcess[str]:
        raise FileNotFoundError(args[0])

    monkeypatch.setattr(script.subprocess, "run", missing)
    assert script.llvm_profdata() is None  # no rustc at all: the plain build (and its error)


def test_the_installed_extension_says_how_it_was_built() -> None:
    hkk_native = pytest.importorskip(
        "hkk_native", reason="hkk_native is not built: python plugins/hkk-native/install_pgo.py")
    assert hkk_native.BUILD in ("profile-guided", "release", "debug")
    if os.environ.get("HKK_REQUIRE_PGO"):  # CI's install had rustc's llvm-profdata
        assert hkk_native.BUILD == "profile-guided"
