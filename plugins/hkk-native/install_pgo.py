"""Build the native core with profile-guided optimization (PGO) and install it.

    python plugins/hkk-native/install_pgo.py [-q]   # from the checkout, in the venv to use

``pip install ./plugins/hkk-native`` builds a plain release.  This builds it twice, as CPython's
``--enable-optimizations`` does: an instrumented build, put in a scratch folder, plays a
training run of what the native core is used for (base-set and test-set games at every log
level, ``hkk simulate``'s recording, games answered from outside with clones, views,
determinized copies and saves, the native greedy and mcts agents), counting which branches and
calls are taken; rustc's ``llvm-profdata`` merges the counts, and the release build that is
installed lays out, inlines and orders its code by them.  The code and so every game are the
same (CI runs the differential tests on this build); a base game costs 13-14 % fewer
instructions (docs/NATIVE.md, Build).

It needs rustc's own ``llvm-profdata`` (``rustup component add llvm-tools``; another LLVM's
cannot read rustc's counts).  Without it, it says so and installs the plain release build.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
#: Where the merged counts are kept (inside cargo's target folder, which git ignores).
PROFILE = HERE / "target" / "pgo" / "merged.profdata"


def llvm_profdata() -> Path | None:
    """rustc's own ``llvm-profdata`` (rustup's llvm-tools component), or None."""
    try:
        sysroot = subprocess.run(["rustc", "--print", "sysroot"], check=True,
                                 capture_output=True, text=True).stdout.strip()
        version = subprocess.run(["rustc", "-vV"], check=True, capture_output=True,
                                 text=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return None
    host = next((line.split(":", 1)[1].strip() for line in version.splitlines()
                 if line.startswith("host:")), "")
    tool = Path(sysroot) / "lib" / "rustlib" / host / "bin" / "llvm-profdata"
    return tool if tool.is_file() else None


def with_rustflags(flag: str, **more: str) -> dict[str, str]:
    """This process's environment with ``flag`` added to RUSTFLAGS (and ``more`` set)."""
    env = dict(os.environ, **more)
    env["RUSTFLAGS"] = f"{env.get('RUSTFLAGS', '')} {flag}".strip()
    return env


def pip(args: list[str], env: dict[str, str] | None = None) -> None:
    subprocess.run([sys.executable, "-m", "pip", *args], check=True, env=env)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-q", "--quiet", action="store_true", help="pip's --quiet")
    parser.add_argument("--train", action="store_true", help=argparse.SUPPRESS)
    options = parser.parse_args()
    if options.train:
        train()
        return
    quiet = ["--quiet"] if options.quiet else []
    tool = llvm_profdata()
    if tool is None:
        print("install_pgo: rustc's llvm-profdata was not found (rustup component add "
              "llvm-tools); installing the plain release build", file=sys.stderr)
        pip(["install", *quiet, str(HERE)])
        return
    with tempfile.TemporaryDirectory(prefix="hkk-pgo-") as scratch:
        counts, site, wheels = (Path(scratch) / name for name in ("counts", "site", "wheels"))
        # its own target folder: the instrumented crates are kept apart from the release's
        pip(["wheel", *quiet, "--no-deps", "-w", str(wheels), str(HERE)],
            with_rustflags(f"-Cprofile-generate={counts}",
                           CARGO_TARGET_DIR=str(HERE / "target" / "pgo-generate"),
                           HKK_NATIVE_BUILD="instrumented"))
        pip(["install", *quiet, "--no-deps", "--target", str(site), *map(str, wheels.iterdir())])
        print("install_pgo: the training run", file=sys.stderr)
        subprocess.run([sys.executable, __file__, "--train"], check=True,
                       env=dict(os.environ, PYTHONPATH=os.pathsep.join(
                           filter(None, [str(site), os.environ.get("PYTHONPATH")]))))
        PROFILE.parent.mkdir(parents=True, exist_ok=True)
        subprocess.run([str(tool), "merge", "-o", str(PROFILE), str(counts)], check=True)
    pip(["install", *quiet, str(HERE)],
        with_rustflags(f"-Cprofile-use={PROFILE}", HKK_NATIVE_BUILD="profile-guided"))


def train() -> None:
    """What the native core is used for, in the instrumented build (code the run never reaches
    is laid out as cold, so every use is here, in about its share)."""
    import contextlib
    import io

    import hkk_native
    from hkk_native.testset import test_set_cards, test_set_decks

    from hkk import Engine
    from hkk.cli import main as cli

    base = Engine.installed()
    test = Engine(test_set_cards())
    pairings = [(base, ["alap:tuz", "alap:viz"]), (base, ["alap:viz", "alap:tuz"]),
                (test, test_set_decks(test.cards))]
    for engine, decks in pairings:
        for level, games in (("outcome", 1500), ("compact", 100), ("full", 300)):
            hkk_native.play_many_native(engine, decks, seeds=list(range(games)),
                                        log_level=level)
        hkk_native.core.play_outcomes(engine, decks, list(range(300)), names=("a", "b"))
        hkk_native.core.tally_outcomes(engine, decks, list(range(300)), names=("a", "b"))
        answered(hkk_native, engine, decks)
    with contextlib.redirect_stdout(io.StringIO()):  # the native search agents' games
        cli(["simulate", "--core", "native", "--set", "alap", "-n", "4", "-w", "1", "-q",
             "--tiers", "greedy,mcts:budget=50"], standalone_mode=False)


def answered(hkk_native: Any, engine: Any, decks: Any) -> None:
    """Games answered from outside at random, with clones, views, determinized copies and a
    save and load of each full-level one (a save needs the full log)."""
    import random

    core = hkk_native.core
    rng = random.Random(0)
    for seed in range(6):
        level = ("outcome", "full")[seed % 2]
        game = core.new_game(engine, decks, seed=seed, agents=[None, None], log_level=level)
        while (decision := game.decision) is not None:
            if rng.random() < 0.05:
                game.clone()
                game.view(decision.player)
                game.determinize(decision.player, hkk_native.Random(seed))
            game.answer(rng.randrange(len(decision.options)))
        if level == "full":
            hkk_native.load_native(engine, game.save())


if __name__ == "__main__":
    main()
