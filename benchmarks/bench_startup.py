"""Start-up: what a fresh interpreter pays before its first game, and what loading cards costs.

Run with ``python benchmarks/bench_startup.py`` (``--rounds N``); ``run.py`` prints the same in
its last section.  Needs the base set and mereg installed.  Prints, each the median of several
fresh interpreters (CPU time of the child, ``time.process_time``):

- ``import hkk``;
- ``hkk.Engine``: importing the engine and the modules it needs (pydantic and the card models);
- ``Engine.installed()``: finding the sets (entry points), reading their manifests, cards and
  decks (the card models' validators are built at the first validation), registering plugins;

each twice: with the bytecode cached as an installed wheel has it (a fresh ``pycache_prefix``,
written by one run not counted), and with this environment as it is (with
``PYTHONDONTWRITEBYTECODE`` set and no ``__pycache__``, every start compiles hkk's sources).

Then, in this process: reading and validating about 1,000 cards (the base set's card files
repeated with renamed ids), split into TOML parsing and validation.  Nothing here asserts
anything: it prints figures.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
import tomllib
from importlib.resources import files

CHILD = """
import time
t0 = time.process_time()
import hkk
t1 = time.process_time()
hkk.Engine
t2 = time.process_time()
hkk.Engine.installed()
t3 = time.process_time()
print(t1 - t0, t2 - t1, t3 - t2)
"""
PARTS = ("import hkk", "hkk.Engine", "Engine.installed()")


def fresh_interpreters(rounds: int, cached: bool) -> list[float]:
    """Median seconds of each of ``PARTS`` over ``rounds`` fresh interpreters."""
    command = [sys.executable, "-c", CHILD]
    env = dict(os.environ)
    with tempfile.TemporaryDirectory() as prefix:
        if cached:
            command[1:1] = ["-X", f"pycache_prefix={prefix}"]
            env.pop("PYTHONDONTWRITEBYTECODE", None)
        runs = []
        for index in range(rounds + cached):  # with a cache: one run to write it first
            out = subprocess.run(command, check=True, capture_output=True, text=True, env=env)
            if index or not cached:
                runs.append([float(x) for x in out.stdout.split()])
    return [statistics.median(run[i] for run in runs) for i in range(len(PARTS))]


def bench_fresh(rounds: int) -> None:
    for cached, label in ((True, "bytecode cached"), (False, "environment as is")):
        parts = fresh_interpreters(rounds, cached)
        figures = "; ".join(f"{name} {seconds * 1000:,.0f} ms"
                            for name, seconds in zip(PARTS, parts, strict=True))
        print(f"{label}: {figures}; total {sum(parts) * 1000:,.0f} ms")
    if sys.flags.dont_write_bytecode:
        print("(PYTHONDONTWRITEBYTECODE is set here: without a __pycache__, hkk's sources are "
              "compiled at every start)")


def thousand_cards() -> list[str]:
    """The base set's card files, repeated with renamed ids until they hold >= 1,000 cards."""
    folder = files("hkk_set_alap") / "cards"
    texts = [entry.read_text(encoding="utf-8") for entry in sorted(
        folder.iterdir(), key=lambda e: e.name) if entry.name.endswith(".toml")]
    per_copy = sum(len(tomllib.loads(text)["cards"]) for text in texts)
    return [re.sub(r'id = "alap:([a-z0-9_-]+)"', f'id = "alap:\\1-{copy}"', text)
            for copy in range(-(-1000 // per_copy)) for text in texts]


def bench_cards(rounds: int) -> None:
    from hkk._cards.loader import parse_card_data
    from hkk._datafile import parse_toml

    texts = thousand_cards()
    parse_card_data("alap", "warm-up.toml", parse_toml(texts[0]))  # builds the validator
    parsing, validating = [], []
    count = 0
    for _ in range(rounds):
        t0 = time.process_time()
        documents = [parse_toml(text) for text in texts]  # tomllib, nesting bounded
        t1 = time.process_time()
        count = sum(len(parse_card_data("alap", f"copy{i}.toml", document))
                    for i, document in enumerate(documents))
        t2 = time.process_time()
        parsing.append(t1 - t0)
        validating.append(t2 - t1)
    parse, validate = statistics.median(parsing) * 1000, statistics.median(validating) * 1000
    print(f"{count:,} cards: {parse + validate:,.0f} ms = TOML parsing {parse:,.0f} ms "
          f"+ validation {validate:,.0f} ms")


def bench_startup(rounds: int) -> None:
    print(f"\n## start-up (fresh interpreters, median of {rounds})")
    bench_fresh(rounds)
    bench_cards(rounds)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=7)
    bench_startup(parser.parse_args().rounds)


if __name__ == "__main__":
    main()
