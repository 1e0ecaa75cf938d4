"""benchmarks/bench_clone.py (issue 21's figures, docs/FORWARD-MODEL.md) runs at a tiny size and
prints every figure the doc relies on.  No timings are asserted: only that each figure is printed
and that what it times is real (the clones it measures end as their originals, the games driven
from outside give the logs of the games played by seated agents)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).parent.parent

FIGURES = (
    "## the forward model (issues 21, 30)", "game.clone() at a decision, outcome log",
    "game.clone() at a decision, full log", "game.determinize(player, rng), outcome log",
    "game.clone() at a nested decision", "game.answer(option): on from the position",
    "determinize / clone (medians)", "whole games, full log: seated agents",
    "mcts (budget 200):", "answered from outside / seated, outcome level:",
    "x the lines, ",
)


def test_bench_clone_prints_its_figures_and_its_clones_play_on() -> None:
    done = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "bench_clone.py"),
                           "--seeds", "1", "--repeat", "1"],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    for figure in FIGURES:
        assert figure in out, figure
    assert "the same logs" in out, out
    checked = out.split("clones answered as their originals: ")[1].split(" ended")[0]
    same, _, total = checked.partition(" of ")
    assert int(total) > 0 and same == total, out
