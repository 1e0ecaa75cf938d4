"""``hkk simulate``: outcomes recorded from named event kinds, work split in chunks whose results
do not depend on who plays them (1 process, local processes, a Dask LocalCluster), statistics
(Wilson intervals, per-card rates), Ctrl-C keeping finished games, files and replays."""

from __future__ import annotations

import csv
import json
import math
import shlex
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st
from test_verify import fake_set  # noqa: F401 - the fixture: a throw-away installed set

from hkk import Engine
from hkk._outcome import KINDS, Outcome, OutcomeRecorder
from hkk._simulate import (
    IN_FLIGHT_PER_WORKER,
    InOrder,
    pairings,
    plan,
    play_chunk,
    simulate,
)
from hkk._stats import _log_choose, fisher_exact, summarize, wilson
from hkk.cli import main
from hkk.events import of

BASE = ("alap",)
BASE_PAIRS = pairings(["alap:tuz", "alap:viz"])


# -- the outcome recorder ----------------------------------------------------------------------

@pytest.mark.parametrize("seed", [0, 5])
def test_outcome_recorder_agrees_with_the_whole_log(seed: int) -> None:
    engine = Engine.installed(allow=["alap"])
    game = engine.new_game(["alap:tuz", "alap:viz"], seed=seed)
    recorder = OutcomeRecorder(game.log, seed, ("alap:tuz", "alap:viz"))
    game.play()
    o, log = recorder.outcome, game.log
    assert (o.winner, o.turns) == (game.winner, game.turn)
    assert o.reason == log.of_kind("game_over")[0]["reason"]
    assert o.first == log.of_kind("starting_player")[0]["player"]
    for player in (0, 1):
        assert o.played[player] == Counter(e["card"] for e in log.of_kind("card_played")
                                           if e["player"] == player)
        for kind, counts in (("automatic", o.fired), ("activated", o.used)):
            assert counts[player] == Counter(
                e["card"] for e in log.of_kind("resolving")
                if e["item_kind"] == kind and e["controller"] == player and e["card"])
    assert sum(o.fired[0].values()) + sum(o.fired[1].values()) > 0  # the base set fires some


def test_outcome_recorder_is_told_only_its_kinds() -> None:
    engine = Engine.installed(allow=["alap"])
    game = engine.new_game(["alap:tuz", "alap:viz"], seed=1)
    seen: set[str] = set()
    recorder = OutcomeRecorder(game.log, 1, ("alap:tuz", "alap:viz"))
    original = recorder._on_event
    recorder_log_listeners = game.log._listeners_of
    for kind in KINDS:  # wrap to see what reaches it
        recorder_log_listeners[of(kind)] = [lambda e, f=original: (seen.add(e.kind), f(e))]
    game.play()
    assert seen == set(KINDS)
    assert game.log._listeners == []  # it does not listen to everything


def test_outcome_row_round_trips() -> None:
    o = Outcome(3, ("a:x", "a:y"), winner=1, reason="hp", turns=12, first=0)
    o.played[1]["a:c"] = 2
    o.fired[0]["a:d"] = 5
    assert Outcome.from_row(json.loads(json.dumps(o.as_row()))) == o


# -- the plan and who plays it ---------------------------------------------------------------

def test_plan_splits_games_over_pairings_in_chunks() -> None:
    chunks = plan(BASE, BASE_PAIRS, 11, seed=100, chunk_size=4)
    per_pair = Counter()
    for c in chunks:
        per_pair[c.decks] += c.games
        assert 0 < c.games <= 4
    assert per_pair == {("alap:tuz", "alap:viz"): 6, ("alap:viz", "alap:tuz"): 5}
    assert chunks[0].seeds == (100, 104)
    assert [c.index for c in chunks] == list(range(len(chunks)))


def test_pairings_are_every_ordered_pair_or_the_mirror() -> None:
    assert pairings(["b", "a", "c"]) == [("a", "b"), ("a", "c"), ("b", "a"), ("b", "c"),
                                        ("c", "a"), ("c", "b")]
    assert pairings(["a"]) == [("a", "a")]


def test_results_do_not_depend_on_the_chunk_size() -> None:
    small = simulate(plan(BASE, BASE_PAIRS, 10, chunk_size=1))
    large = simulate(plan(BASE, BASE_PAIRS, 10, chunk_size=25))
    assert small.outcomes == large.outcomes
    assert len(small.outcomes) == 10


@pytest.mark.slow  # starts worker processes and a Dask cluster
def test_one_process_local_processes_and_dask_give_the_same_table() -> None:
    chunks = plan(BASE, BASE_PAIRS, 16, chunk_size=3)
    serial = simulate(chunks, workers=1)
    local = simulate(chunks, workers=3)
    dask = pytest.importorskip("distributed")
    assert dask is not None
    on_dask = simulate(chunks, dask_workers=2)
    assert serial.outcomes == local.outcomes == on_dask.outcomes
    lists = {"alap:tuz": [], "alap:viz": []}
    assert summarize(serial.outcomes, lists) == summarize(on_dask.outcomes, lists)
    assert [(o.decks, o.seed) for o in serial.outcomes] == \
        [(c.decks, s) for c in chunks for s in range(*c.seeds)]


@pytest.mark.slow  # starts worker processes
def test_local_processes_play_every_chunk_not_only_those_handed_out_ahead() -> None:
    chunks = plan(BASE, BASE_PAIRS, 3 * IN_FLIGHT_PER_WORKER * 2, chunk_size=1)
    local = simulate(chunks, workers=2)  # more chunks than the 2 workers are handed at first
    assert not local.interrupted
    assert local.outcomes == simulate(chunks, workers=1).outcomes
    assert [(o.decks, o.seed) for o in local.outcomes] == \
        [(c.decks, s) for c in chunks for s in range(*c.seeds)]


def test_ctrl_c_keeps_the_finished_games() -> None:
    chunks = plan(BASE, BASE_PAIRS, 12, chunk_size=4)

    def progress(done: int, total: int) -> None:
        if done >= 6:  # after the second chunk (4 + 2 games)
            raise KeyboardInterrupt

    result = simulate(chunks, progress=progress)
    assert result.interrupted
    assert result.planned == 12
    assert [(o.decks, o.seed) for o in result.outcomes] == \
        [(c.decks, s) for c in chunks[:2] for s in range(*c.seeds)]


@pytest.mark.slow
def test_ctrl_c_with_local_processes_keeps_the_finished_and_running_chunks() -> None:
    # on the Python engine: native games finish all 48 before the Ctrl-C is handled
    chunks = plan(BASE, BASE_PAIRS, 48, chunk_size=2, core="python")
    raised = []

    def progress(done: int, total: int) -> None:
        if not raised:  # one Ctrl-C, at the first finished chunk
            raised.append(done)
            raise KeyboardInterrupt

    result = simulate(chunks, workers=2, progress=progress)
    assert result.interrupted
    assert 2 <= len(result.outcomes) < 48
    serial = {(o.decks, o.seed): o for o in simulate(chunks).outcomes}
    assert all(serial[(o.decks, o.seed)] == o for o in result.outcomes)


@given(st.permutations(range(8)), st.integers(0, 8))
def test_chunks_finished_in_any_order_are_handed_on_in_the_plans(
        finished: list[int], stopped_after: int) -> None:
    handed: list[int] = []
    in_order = InOrder([10 * i for i in range(8)], lambda index, rows: handed.append(index))
    for index in finished[:stopped_after]:
        in_order.add(10 * index, [index])
        # handed on: every chunk planned before the first one still out, in order
        arrived = set(finished[:finished.index(index) + 1])
        first_out = min(set(range(8)) - arrived, default=8)
        assert handed == [10 * i for i in range(first_out)]
    in_order.rest()  # Ctrl-C: those that finished after one that never did, in order
    assert handed == sorted(10 * i for i in finished[:stopped_after])


@pytest.mark.parametrize("workers", [1, pytest.param(2, marks=pytest.mark.slow)])
def test_rows_handed_on_as_chunks_finish_are_the_rows_kept_and_tallied_alike(
        workers: int) -> None:
    chunks = plan(BASE, BASE_PAIRS, 12, chunk_size=2, agents=[None, ("random", "first")])
    kept = simulate(chunks, workers=workers)
    handed: list[tuple[int, list[dict[str, Any]]]] = []
    streamed = simulate(chunks, workers=workers,
                        on_rows=lambda chunk, rows: handed.append((chunk.index, rows)))
    assert [index for index, _ in handed] == [c.index for c in chunks]
    assert [row for _, rows in handed for row in rows] == [o.as_row() for o in kept.outcomes]
    assert streamed.outcomes == []  # none kept: each chunk's tally made where it was played
    lists = {"alap:tuz": [], "alap:viz": []}
    assert summarize(streamed.tally, lists) == summarize(kept.tally, lists)
    assert streamed.tally.errors() == kept.tally.errors()


def test_a_simulation_that_fails_leaves_the_csv_named_as_it_was(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import hkk._simulate as simulate_module

    out = tmp_path / "games.csv"
    out.write_text("an earlier run's rows\n", encoding="utf-8")
    play = simulate_module.play_and_tally_chunk

    def failing_third(chunk: Any) -> Any:
        if chunk.index == 2:  # two chunks' rows already written
            raise simulate_module.HkkError("game failed in turn 3: a set's bug")
        return play(chunk)

    monkeypatch.setattr(simulate_module, "play_and_tally_chunk", failing_third)
    result = CliRunner().invoke(main, ["simulate", "-n", "8", "--set", "alap", "-w", "1",
                                       "--chunk-size", "2", "--csv", str(out)])
    assert result.exit_code == 1 and "a set's bug" in result.output
    assert out.read_text(encoding="utf-8") == "an earlier run's rows\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["games.csv"]  # nothing left beside


def test_a_chunk_game_is_the_game_hkk_play_plays(tmp_path: Path) -> None:
    chunk = plan(BASE, BASE_PAIRS, 2, seed=7, chunk_size=1)[1]
    row = play_chunk(chunk)[0]
    engine = Engine.installed(allow=["alap"])
    game = engine.play(list(chunk.decks), seed=7)
    assert (row["winner"], row["turns"], row["seed"]) == (game.winner, game.turn, 7)


# -- statistics ------------------------------------------------------------------------------

def test_wilson_interval_known_values() -> None:
    assert wilson(5, 10) == pytest.approx((0.2366, 0.7634), abs=1e-4)
    assert wilson(0, 10) == pytest.approx((0.0, 0.2775), abs=1e-4)
    assert wilson(10, 10) == pytest.approx((0.7225, 1.0), abs=1e-4)
    assert wilson(0, 0) == (0.0, 1.0)


@given(st.integers(0, 10_000), st.integers(1, 10_000))
def test_wilson_interval_holds_the_rate_inside_0_1(successes: int, trials: int) -> None:
    successes = min(successes, trials)
    low, high = wilson(successes, trials)
    assert 0.0 <= low <= successes / trials <= high <= 1.0


def test_fisher_exact_known_values() -> None:
    # the lady tasting tea, [[3, 1], [1, 3]]: two-sided p = 34/70
    assert fisher_exact(3, 1, 1, 3) == pytest.approx(34 / 70, rel=1e-12)
    assert fisher_exact(8, 2, 1, 5) == pytest.approx(0.034965, abs=1e-6)
    assert fisher_exact(0, 0, 5, 5) == 1.0  # nobody drew it: no test
    assert fisher_exact(5, 5, 5, 5) == pytest.approx(1.0)


def _every_table_at_most_as_likely(a: int, b: int, c: int, d: int) -> float:
    """Fisher's two-sided p by its definition: every table with the margins, summed."""
    row1, col1, n = a + b, a + c, a + b + c + d
    if n == 0 or row1 in (0, n) or col1 in (0, n):
        return 1.0

    def log_p(x: int) -> float:  # the same rounding as fisher_exact's: only the sum differs
        return _log_choose(col1, x) + _log_choose(n - col1, row1 - x) - _log_choose(n, row1)

    observed = log_p(a)
    tables = range(max(0, row1 + col1 - n), min(row1, col1) + 1)
    return min(1.0, sum(math.exp(log_p(x)) for x in tables if log_p(x) <= observed + 1e-7))


@given(st.lists(st.integers(0, 3_000), min_size=4, max_size=4))
def test_fisher_exact_sums_only_the_tables_that_count_and_gets_the_definitions_p(
        table: list[int]) -> None:
    assert fisher_exact(*table) == pytest.approx(_every_table_at_most_as_likely(*table),
                                                 rel=1e-12, abs=1e-300)


def _outcome(seed: int, decks: tuple[str, str], winner: int | None, first: int,
             played: tuple[dict[str, int], dict[str, int]] = ({}, {}), turns: int = 10
             ) -> Outcome:
    o = Outcome(seed, decks, winner=winner, reason="hp", turns=turns, first=first)
    o.played = [Counter(played[0]), Counter(played[1])]
    return o


def test_summary_rates_matrix_first_player_and_cards() -> None:
    ab, ba = ("A", "B"), ("B", "A")
    outcomes = [
        _outcome(0, ab, 0, 0, ({"x": 2}, {}), turns=10),
        _outcome(1, ab, 0, 1, ({}, {}), turns=12),
        _outcome(2, ab, 1, 1, ({"x": 1}, {}), turns=12),
        _outcome(0, ba, None, 0, ({}, {"x": 1}), turns=30),
    ]
    s = summarize(outcomes, {"A": ["x", "y"], "B": ["y"]}, {"x": "Ex"})
    first = s["pairings"][0]
    assert first["decks"] == ["A", "B"] and (first["wins_1"], first["wins_2"]) == (2, 1)
    assert first["win_rate_1"]["rate"] == 0.6667
    assert s["pairings"][1]["draws"] == 1
    # A beat B in 2 of 4 games (seat 1 three times, seat 2 once, drawn)
    assert s["matrix"] == {"decks": ["A", "B"], "win_rate": [[None, 0.5], [0.25, None]]}
    # the starting player won games 0 and 2 of 4
    assert (s["first_player"]["wins"], s["first_player"]["games"]) == (2, 4)
    assert s["turns"]["histogram"] == {"10": 1, "12": 2, "30": 1}
    assert s["turns"]["median"] == 12
    x = next(c for c in s["cards"] if c["card"] == "x")
    # x played in games 0 (won), 2 (lost), 3 (draw); unplayed by A's player in game 1 (won)
    assert (x["name"], x["played"], x["games_played"], x["win_rate_played"]) == \
        ("Ex", 4, 3, 0.3333)
    assert (x["games_unplayed"], x["win_rate_unplayed"]) == (1, 1.0)
    y = next(c for c in s["cards"] if c["card"] == "y")
    assert (y["games_played"], y["games_unplayed"]) == (0, 8)


# -- the command -----------------------------------------------------------------------------

def test_simulate_command_writes_csv_json_and_replays(tmp_path: Path) -> None:
    out_csv, out_json = tmp_path / "games.csv", tmp_path / "summary.json"
    result = CliRunner().invoke(main, ["simulate", "-n", "6", "--set", "alap", "-w", "1",
                                       "--seed", "40", "--csv", str(out_csv),
                                       "--json", str(out_json)])
    assert result.exit_code == 0, result.output
    assert "alap:tuz" in result.output and "first player wins" in result.output
    rows = list(csv.DictReader(out_csv.open(encoding="utf-8")))
    summary = json.loads(out_json.read_text(encoding="utf-8"))
    assert len(rows) == summary["games"] == 6
    assert sum(p["games"] for p in summary["pairings"]) == 6
    row = rows[-1]
    assert row["replay"] == (f"hkk play --seed {row['seed']} --decks {row['deck_1']} "
                             f"{row['deck_2']} --set alap")
    replay = CliRunner().invoke(main, [*shlex.split(row["replay"])[1:], "-q"])
    assert replay.exit_code == 0, replay.output
    winner = "draw" if row["winner"] == "" else f"P{int(row['winner']) + 1}"
    assert f"winner: {winner} after {row['turns']} turns" in replay.output
    played = json.loads(row["played"])
    assert len(played) == 2 and all(isinstance(v, int) for v in played[0].values())


def test_simulate_command_mixed_deck_spec(tmp_path: Path) -> None:
    out_json = tmp_path / "s.json"
    result = CliRunner().invoke(main, ["simulate", "-n", "2", "-w", "1", "--decks",
                                       "alap:tuz+mereg", "alap:viz", "--json", str(out_json)])
    assert result.exit_code == 0, result.output
    summary = json.loads(out_json.read_text(encoding="utf-8"))
    assert summary["pairings"][0]["decks"] == ["alap:tuz+mereg", "alap:viz"]


def test_simulate_command_parquet(tmp_path: Path) -> None:
    pq = pytest.importorskip("pyarrow.parquet")
    out = tmp_path / "games.parquet"
    result = CliRunner().invoke(main, ["simulate", "-n", "2", "--set", "alap", "-w", "1",
                                       "--parquet", str(out)])
    assert result.exit_code == 0, result.output
    assert pq.read_table(out).column("seed").to_pylist() == [0, 0]


@pytest.mark.parametrize("args, message", [
    (["--decks", "alap:nincs", "alap:viz"], "alap:nincs"),
    (["--set", "nincs"], "nincs"),
    (["--csv", "/nincs/ilyen/mappa.csv"], "does not exist"),
])
def test_simulate_command_bad_usage_exits_2(args: list[str], message: str) -> None:
    result = CliRunner().invoke(main, ["simulate", "-n", "2", "-w", "1", *args])
    assert result.exit_code == 2
    assert message in result.output


# -- a game stopped by a limit is an error row (issue 24, item 1) -----------------------------

RUNAWAY_CARDS = '''
[[cards]]
id = "{code}:csendes"
name = "Csendes"
kind = "creature"
cost = {{ vp = 1 }}
damage = 1
hp = 2

[[cards]]
id = "{code}:tekergo"
name = "Tekergő"
kind = "creature"
cost = {{ vp = 1 }}
damage = 1
hp = 5
text = "Játékba kerülésekor és amikor sérülést szenved: 1 Ép-t gyógyul, és 1 sebzést okoz minden lénynek."

[[cards.abilities]]
kind = "automatic"
timing = "on_enter"
effect = {{ do = "damage", amount = 1, target = "all_creatures" }}

[[cards.abilities]]
kind = "triggered"
when = {{ event = "damaged", which = "this" }}
effects = [{{ do = "heal", amount = 1, target = "self" }},
           {{ do = "damage", amount = 1, target = "all_creatures" }}]
'''

RUNAWAY_DECKS = '''
[[decks]]
name = "csendes"
[decks.cards]
"{code}:csendes" = 20

[[decks]]
name = "hurok"
[decks.cards]
"{code}:tekergo" = 20
'''


def _simulate(tmp_path: Path, *args: str, set_code: str = "fut"
              ) -> tuple[Any, list[dict[str, str]], dict[str, Any]]:
    """``hkk simulate --set CODE ...`` (each test its own code: a process keeps its engines)."""
    out_csv, out_json = tmp_path / "games.csv", tmp_path / "summary.json"
    result = CliRunner().invoke(main, ["simulate", "--set", set_code, "--csv", str(out_csv),
                                       "--json", str(out_json), *args])
    rows = list(csv.DictReader(out_csv.open(encoding="utf-8"))) if out_csv.exists() else []
    summary = json.loads(out_json.read_text(encoding="utf-8")) if out_json.exists() else {}
    return result, rows, summary


# auto plays these whole games natively where the native core is installed: a game it stops
# short is played again on the Python engine for its row (the same words as --core python)
@pytest.mark.parametrize("workers", [["--core", "python", "-w", "1"], ["-w", "1"], ["-w", "2"],
                                     ["--dask", "-w", "1"]],
                         ids=["here", "auto", "local workers", "dask"])
@pytest.mark.slow
def test_D_work_limit_a_runaway_game_is_an_error_row_and_the_others_finish(
        tmp_path: Path, fake_set: Any, workers: list[str]) -> None:  # noqa: F811
    if "--dask" in workers:
        pytest.importorskip("distributed")
    fake_set("fut", cards=RUNAWAY_CARDS, decks=RUNAWAY_DECKS)
    result, rows, summary = _simulate(tmp_path, "-n", "6", *workers, "--decks",
                                      "fut:csendes", "fut:csendes", "--decks", "fut:hurok",
                                      "fut:hurok")
    assert result.exit_code == 1, result.output
    assert len(rows) == 6
    quiet = [r for r in rows if r["deck_1"] == "fut:csendes"]
    looping = [r for r in rows if r["deck_1"] == "fut:hurok"]
    assert all(r["error"] == "" and r["reason"] != "error" for r in quiet)
    assert looping and all(r["reason"] == "error" for r in looping)
    assert all(r["error"].startswith("TriggerLoopError: trigger loop (D-trigger-loop)")
               and "fut:tekergo" in r["error"] for r in looping)
    assert summary["games"] == 3 and summary["errors"] == 3  # errors are in no statistic
    assert [e["seed"] for e in summary["meta"]["errors"]] == [int(r["seed"]) for r in looping]
    assert "error in the game of seed" in result.output and "reproduce: hkk play" in result.output
    replay = CliRunner().invoke(main, [*shlex.split(looping[0]["replay"])[1:], "-q"])
    assert replay.exit_code == 1  # the same game stops the same way
    assert looping[0]["error"].split(": ", 1)[1] in " ".join(replay.output.split())


LOOPING_SET = '''
    from hkk import hookimpl

    def forever(game, ctx):
        while True:
            pass

    @hookimpl
    def custom_effects():
        return {"ido:forever": forever}
'''

LOOPING_CARDS = RUNAWAY_CARDS + '''
[[cards]]
id = "{code}:orok"
name = "Örök"
kind = "creature"
cost = {{ vp = 1 }}
damage = 1
hp = 2

[[cards.abilities]]
kind = "automatic"
timing = "end_stage2"
effect = {{ do = "custom", name = "{code}:forever" }}
'''

LOOPING_DECKS = RUNAWAY_DECKS + '''
[[decks]]
name = "orok"
[decks.cards]
"{code}:orok" = 20
'''


def test_simulate_game_timeout_makes_an_error_row_and_the_others_finish(
        tmp_path: Path, fake_set: Any) -> None:  # noqa: F811
    fake_set("ido", cards=LOOPING_CARDS, decks=LOOPING_DECKS, python=LOOPING_SET)
    result, rows, summary = _simulate(tmp_path, "-n", "4", "-w", "1", "--game-timeout", "0.3",
                                      "--decks", "ido:csendes", "ido:csendes", "--decks",
                                      "ido:orok", "ido:orok", set_code="ido")
    assert result.exit_code == 1, result.output
    timed_out = [r for r in rows if r["deck_1"] == "ido:orok"]
    assert len(rows) == 4 and len(timed_out) == 2
    assert all(r["error"].startswith("GameTimeout: the game ran longer than its time limit "
                                     "of 0.3 CPU s") and ".forever (line " in r["error"]
               for r in timed_out)
    assert all(r["replay"].startswith(f"hkk play --seed {r['seed']} --decks ido:orok")
               for r in timed_out)
    assert summary["games"] == 2 and summary["errors"] == 2


@pytest.mark.parametrize(("module", "option"), [("pyarrow", ["--parquet", "games.parquet"]),
                                                ("distributed", ["--dask"])])
def test_a_missing_optional_extra_is_one_line_before_any_game(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, module: str, option: list[str]) -> None:
    """Issue 24.8: without the extra an option needs, exit 2 with one line naming the install,
    before a game is played (not a traceback after every game)."""
    monkeypatch.setitem(sys.modules, module, None)  # import fails as if not installed
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["simulate", "-n", "4", "--set", "alap",
                                        "-w", "1", *option])
    assert result.exit_code == 2
    assert option[0] in result.stderr and "pip install" in result.stderr
    assert "Traceback" not in result.stderr and result.stdout == ""
    assert not (tmp_path / option[-1]).exists()
