"""benchmarks/bench_agents.py takes its rows as a person writes them: ``A/B@N`` pairs separated
by commas, where an agent spec may hold commas of its own.  No strength or timing is asserted."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent


def test_bench_agents_rows_keep_the_commas_inside_an_agent_spec() -> None:
    pytest.importorskip("hkk_native")
    rows = "mcts:budget=5,rollout=random/greedy@1,greedy/random@1"
    done = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "bench_agents.py"),
                           "--core", "native", "--rows", rows, "--seed", "3"],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert [line.split(" vs ")[0] for line in done.stdout.splitlines()
            if " vs " in line and "games/s" in line] == ["mcts:budget=5,rollout=random", "greedy"]
    assert "| `mcts:budget=5,rollout=random` | `greedy` | 4 |" in done.stdout
    assert "| `greedy` | `random` | 4 |" in done.stdout
