"""Where a seated native game's unpredictable branches cost it time, line by line.

Varied base games run at about half the events a second of one game replayed as often
(``bench_native.py`` prints both): the CPU's branch predictor learns the one game's branches
and no more. This plays both batches under ``perf record -e cpu-clock`` (sampling the clock
needs no hardware counters, which this project's virtual machines lack) and prints, for each
source line of the native core, how many more samples an event the varied games took there
than the replayed one, and that line's share of the whole gap: where the mispredicted branches
land. A sample falls where the stall ends, so a line named is the branch or just past it (a
draw after a random choice, the first test of a loop's next round); the walks over the
permanents and the hand lead it (docs/NATIVE.md, the branches). Nothing is asserted: it prints
figures.

    python benchmarks/branch_gap.py [--games N] [--seed S] [--top K]

Needs ``perf`` (Debian's linux-perf), binutils' ``addr2line`` and ``readelf``, and the native
core built with line tables (the same code, its addresses named):

    CARGO_PROFILE_RELEASE_DEBUG=line-tables-only python plugins/hkk-native/install_pgo.py -q
"""

from __future__ import annotations

import argparse
import collections
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

DECKS = ["alap:tuz", "alap:viz"]
#: A line of the crate's own code (not the standard library's, not a dependency's).
OWN_LINE = re.compile(r"/(src/[a-z_]+\.rs):(\d+)")


def play(mode: str, games: int, seed: int) -> None:
    """The child process perf samples: ``games`` seated outcome-level games, of seeds from
    ``seed`` on (varied) or of ``seed`` again and again (replayed); prints their events."""
    import hkk_native

    from hkk import Engine

    engine = Engine.installed()
    hkk_native.play_many_native(engine, DECKS, seeds=[0])  # the cards handed over first
    seeds = list(range(seed, seed + games)) if mode == "varied" else [seed] * games
    played = hkk_native.play_many_native(engine, DECKS, seeds=seeds, log_level="outcome")
    print(sum(events for _, _, events in played))


def sampled(mode: str, games: int, seed: int, library: Path, scratch: Path) -> tuple[
        collections.Counter[int], int]:
    """The samples inside ``library`` by address (as the file's own addresses) and the events
    played, of one child process under perf."""
    data = scratch / f"{mode}.perf"
    child = [sys.executable, __file__, "--play", mode, str(games), str(seed)]
    run = subprocess.run(["perf", "record", "-q", "-e", "cpu-clock", "-F", "10000", "-o",
                          str(data), "--", *child], check=True, capture_output=True, text=True)
    events = int(run.stdout.split()[-1])
    script = subprocess.run(["perf", "script", "-i", str(data), "--show-mmap-events", "-F",
                             "ip,dso"], check=True, capture_output=True, text=True).stdout
    shift = exec_segment_shift(library)
    base = None
    samples: collections.Counter[int] = collections.Counter()
    for line in script.splitlines():
        if "PERF_RECORD_MMAP" in line:
            mapped = re.search(r"\[(0x[0-9a-f]+)\((0x[0-9a-f]+)\) @ (0x[0-9a-f]+)", line)
            if mapped and str(library) in line and "r-xp" in line:
                # a runtime address less this is the file's own (as addr2line reads them)
                base = int(mapped.group(1), 16) - int(mapped.group(3), 16) - shift
        elif base is not None and str(library) in line:
            samples[int(line.split()[0], 16) - base] += 1
    return samples, events


def exec_segment_shift(library: Path) -> int:
    """How far the executable segment's addresses are from its place in the file."""
    headers = subprocess.run(["readelf", "-lW", str(library)], check=True, capture_output=True,
                             text=True).stdout
    for line in headers.splitlines():
        fields = line.split()
        if fields[:1] == ["LOAD"] and "E" in fields[6:-1]:
            return int(fields[2], 16) - int(fields[1], 16)
    raise SystemExit(f"branch_gap: no executable segment in {library}")


def own_lines(library: Path, addresses: list[int]) -> dict[int, str]:
    """Each address's innermost line of the crate's own code (``src/x.rs:N``), or ``?``."""
    out = subprocess.run(["addr2line", "-a", "-i", "-e", str(library),
                          *(hex(a) for a in addresses)], check=True, capture_output=True,
                         text=True).stdout
    lines: dict[int, str] = {}
    current = None
    for line in out.splitlines():
        if line.startswith("0x"):
            current = int(line, 16)
            lines[current] = "?"
        elif current is not None and lines[current] == "?" and "/library/" not in line:
            found = OWN_LINE.search(line)
            if found and ".cargo" not in line:
                lines[current] = f"{found.group(1)}:{found.group(2)}"
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20_000, help="games in each batch")
    parser.add_argument("--seed", type=int, default=7, help="the replayed game's seed")
    parser.add_argument("--top", type=int, default=30, help="lines printed")
    parser.add_argument("--play", nargs=3, help=argparse.SUPPRESS)
    options = parser.parse_args()
    if options.play:
        mode, games, seed = options.play
        play(mode, int(games), int(seed))
        return
    for tool in ("perf", "addr2line", "readelf"):
        if shutil.which(tool) is None:
            raise SystemExit(f"branch_gap: {tool} is not installed (perf: Debian's linux-perf; "
                             "addr2line, readelf: binutils)")
    import hkk_native._native as native

    library = Path(native.__file__).resolve()
    with tempfile.TemporaryDirectory(prefix="hkk-branch-gap-") as scratch:
        varied, varied_events = sampled("varied", options.games, 1000, library, Path(scratch))
        replayed, replayed_events = sampled("replayed", options.games, options.seed, library,
                                            Path(scratch))
    addresses = sorted(set(varied) | set(replayed))
    lines = own_lines(library, addresses)
    if set(lines.values()) <= {"?"}:
        raise SystemExit(f"branch_gap: {library} has no line tables; build it with "
                         "CARGO_PROFILE_RELEASE_DEBUG=line-tables-only python "
                         "plugins/hkk-native/install_pgo.py -q")
    per_line: dict[str, list[int]] = collections.defaultdict(lambda: [0, 0])
    for address in addresses:
        per_line[lines[address]][0] += varied[address]
        per_line[lines[address]][1] += replayed[address]
    # samples per million events: the batches' games differ in length
    def rate(samples: int, events: int) -> float:
        return samples * 1_000_000 / events

    gap = {line: rate(v, varied_events) - rate(r, replayed_events)
           for line, (v, r) in per_line.items()}
    whole = sum(gap.values())
    varied_rate = rate(sum(varied.values()), varied_events)
    replayed_rate = rate(sum(replayed.values()), replayed_events)
    print(f"{options.games:,} varied games (seeds from 1000) against seed {options.seed} "
          f"replayed as often; native samples per million events: varied {varied_rate:.2f}, "
          f"replayed {replayed_rate:.2f} ({varied_rate / replayed_rate:.2f}x)")
    print(f"{'line':<22} {'gap':>7} {'share':>7} {'varied':>8} {'replayed':>9}   (samples)")
    for line, difference in sorted(gap.items(), key=lambda item: -item[1])[:options.top]:
        v, r = per_line[line]
        print(f"{line:<22} {difference:7.1f} {difference / whole:7.1%} {v:8,} {r:9,}")


if __name__ == "__main__":
    main()
