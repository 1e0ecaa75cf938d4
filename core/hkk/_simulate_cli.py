"""The commands ``hkk simulate`` and ``hkk gallery`` (registered by :mod:`hkk.cli`)."""

from __future__ import annotations

import csv
import importlib
import json
import os
import sys
from pathlib import Path
from typing import Any

import click
from rich.console import Console
from rich.table import Table

from hkk._cli_output import (
    _check_formats,
    check_core,
    core_option,
    deprecated,
    engine_with_core,
    output_console,
    output_options,
    write_output,
)
from hkk._console import make_console
from hkk._limits import DEFAULT_GAME_TIMEOUT
from hkk._markup import escape

EXIT_FAILED = 1
#: The most games one ``hkk simulate`` plays: days of work on one machine.  A larger -n is a
#: typo (its plan alone would not fit in memory), refused with one line.
MAX_GAMES = 10_000_000


def _console(stderr: bool = False) -> Console:
    return make_console(stderr=stderr)


def _require(module: str, message: str, option: str) -> None:
    """Exit 2 with one line when an option's optional dependency is missing."""
    try:
        importlib.import_module(module)
    except ImportError:
        raise click.BadParameter(message, param_hint=option) from None


def _check_scheduler(address: str) -> None:
    """A Dask scheduler address Dask can parse (``tcp://HOST:PORT``), or exit 2 with one line."""
    from distributed.comm.addressing import parse_address, parse_host_port

    try:
        scheme, location = parse_address(address)
        if scheme in ("tcp", "tls"):
            parse_host_port(location)
    except ValueError as exc:
        raise click.BadParameter(f"{address!r} is not a scheduler address like "
                                 f"tcp://127.0.0.1:8786 ({exc})", param_hint="--scheduler") \
            from None


def _tally(counts: dict[str, int]) -> str:
    """``empty_deck 108, hp 92``: a count per name, most first, as words, not a Python dict."""
    return ", ".join(f"{name} {n}" for name, n in sorted(counts.items(), key=lambda c: -c[1]))


def _output_file(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """Checked before any game is played, so a typo in a folder name is not found at the end."""
    if value is None or value == "-":
        return value
    path = Path(value)
    if path.is_dir():
        raise click.BadParameter(f"{value!r} is a folder, not a file", ctx, param)
    if not path.parent.is_dir():
        raise click.BadParameter(f"folder {str(path.parent)!r} does not exist", ctx, param)
    return value


def _found(set_codes: tuple[str, ...]) -> Any:
    """The loaded sets: all, or ``set_codes`` and the sets they depend on."""
    from hkk._plugin import make_plugin_manager
    from hkk._sets.discovery import dependency_closure, discover

    everything = discover(pm=make_plugin_manager())
    unknown = sorted(set(set_codes) - set(everything.sets))
    if unknown:
        raise click.BadParameter(f"no loaded set {', '.join(unknown)}; loaded: "
                                 f"{', '.join(sorted(everything.sets))}", param_hint="--set")
    if not set_codes:
        return everything
    allow = dependency_closure(set_codes, everything.sets)
    return discover(pm=make_plugin_manager(), allow=allow)


# -- simulate ------------------------------------------------------------------------------------

@click.command("simulate", short_help="Play many seeded games and report win rates.")
@click.option("--games", "-n", type=click.IntRange(min=1, max=MAX_GAMES), default=1000,
              show_default=True, help="Games in all, split evenly over the pairings.")
@click.option("--decks", nargs=2, multiple=True, metavar="A B",
              help="A pairing (repeatable); default: every ordered pairing of the installed "
                   "decks. 'DECK+SET' mixes in a set's cards.")
@click.option("--set", "set_codes", multiple=True, metavar="CODE",
              help="Play with only these sets (and those they depend on). Repeatable.")
@click.option("--seed", type=int, default=0, show_default=True,
              help="Seed of each pairing's first game (then seed+1, …).")
@click.option("--max-turns", type=click.IntRange(min=1), help="Stop (a draw) after N turns.")
@click.option("--format", "format_name", metavar="NAME",
              help="Refuse a deck that breaks this format (e.g. alap:kezdo, casual); without "
                   "it a deck breaking a format it names is only warned about.")
@click.option("--workers", "-w", type=click.IntRange(min=1), default=None,
              help="Local worker processes (default: every core); with --dask the workers of "
                   "a Dask LocalCluster.")
@click.option("--dask", "use_dask", is_flag=True,
              help="Run on a Dask LocalCluster (pip install 'hkk[dask]').")
@click.option("--scheduler", metavar="ADDRESS",
              help="Run on a running Dask scheduler, e.g. tcp://host:8786.")
@click.option("--chunk-size", type=click.IntRange(min=1), default=None,
              help="Games per unit of work (default 25, 2 when an agent searches; results "
                   "never depend on it).")
@click.option("--csv", "csv_file", metavar="FILE", callback=_output_file,
              help="Write every game's outcome (with its replay command) as CSV.")
@click.option("--parquet", "parquet_file", metavar="FILE", callback=_output_file,
              help="Write every game's outcome as Parquet (needs pyarrow).")
@output_options("text", "json", what="text: a table of the pairings; json: the summary.",
                quiet="Print only the result: no progress, no header line.")
@click.option("--json", "json_file", metavar="FILE|-", callback=_output_file, hidden=True,
              help="Deprecated: --output-format json [-o FILE].")
@click.option("--html", "html_file", metavar="FILE", callback=_output_file,
              help="Write the report page (heat map, histogram, card table).")
@click.option("--game-timeout", type=click.FloatRange(min=0), default=DEFAULT_GAME_TIMEOUT,
              show_default=True, metavar="SECONDS",
              help="Stop a game that spends more CPU time outside its agents (the engine, "
                   "the sets' code), or an agent that thinks as long on one decision (a "
                   "searching agent: its option seconds=): an error row, and the other games "
                   "go on (0: no limit; not on Dask, where the work limits stop a runaway "
                   "game).")
@click.option("--agents", "agent_specs", nargs=2, metavar="A B",
              help="Who plays seat 1 and seat 2: registered agents with options, e.g. "
                   "'mcts:budget=400' random ('hkk agents' lists them). Default: random "
                   "players drawing from the game's RNG.")
@click.option("--tiers", metavar="A,B,...",
              help="Play the same games under each tier (both seats the same agent), weakest "
                   "first, e.g. random,greedy,mcts: -n games per tier, and the skill gap per "
                   "deck.")
@click.option("--ablate", "ablate", multiple=True, metavar="CARD",
              help="Play the same games again with every copy of CARD replaced by its filler "
                   "(same kind and cost, no abilities; docs/BALANCE.md) and report the paired "
                   "win-rate difference per deck and tier with a 95% interval: the card's "
                   "causal impact. Repeatable: one more run of the games per card.")
@core_option
def simulate_command(games: int, decks: tuple[tuple[str, str], ...], set_codes: tuple[str, ...],
                     seed: int, max_turns: int | None, format_name: str | None,
                     workers: int | None, use_dask: bool,
                     scheduler: str | None, chunk_size: int | None, csv_file: str | None,
                     parquet_file: str | None, output_format: str, output_file: str | None,
                     quiet: bool, json_file: str | None, html_file: str | None,
                     game_timeout: float, agent_specs: tuple[str, str] | None,
                     tiers: str | None, ablate: tuple[str, ...], core: str) -> None:
    """Play many seeded games and report win rates, per tier of players (balance testing).

    A game stopped by a limit (a trigger loop, the work limit, a step that never ends,
    --game-timeout) is an error row with its replay command; the others go on, and the
    command exits 1 at the end."""
    from hkk._balance import balance
    from hkk._errors import HkkError
    from hkk._simulate import CHUNK_SIZE, deck_lists, pairings, plan, simulate
    from hkk._stats import summarize

    summary_file = output_file if output_format == "json" else None
    if json_file is not None:  # kept for a release: "-" the JSON instead of the table
        deprecated(f"--json {json_file}", "--output-format json" if json_file == "-" else
                   f"--output-format json -o {json_file} (which prints no table)")
        output_format = "json" if json_file == "-" else output_format
        summary_file = None if json_file == "-" else json_file
    # the optional extras an option needs, before any game is played
    if parquet_file:
        _require("pyarrow", "writing Parquet needs pyarrow: pip install pyarrow", "--parquet")
    if use_dask or scheduler:
        _require("distributed", "Dask is not installed: pip install 'hkk[dask]'",
                 "--scheduler" if scheduler else "--dask")
    if scheduler:
        _check_scheduler(scheduler)
    players = _agent_pairings(agent_specs, tiers)
    found = _found(set_codes)
    engine = engine_with_core(found, core)
    pairs = [(a, b) for a, b in decks] or pairings(sorted(engine.decks))
    try:
        lists = deck_lists(engine, sorted({d for p in pairs for d in p}))
    except HkkError as exc:
        raise click.BadParameter(str(exc), param_hint="--decks") from None
    ablate = tuple(dict.fromkeys(ablate))
    _check_ablate(ablate, engine, lists)
    batched = _batched(engine, [(lists[a], lists[b]) for a, b in pairs if a in lists
                                and b in lists], players, max_turns)
    try:
        chunks = plan(found.sets, pairs, games, seed, max_turns,
                      chunk_size or _chunk_size(players, CHUNK_SIZE, batched), game_timeout,
                      agents=players, core=core, ablate=[(), *((card,) for card in ablate)])
    except HkkError as exc:
        raise click.BadParameter(str(exc), param_hint="--decks") from None
    # whole games: a core without a forward model plays them in its batched calls
    check_core(engine, [(lists[a], lists[b]) for a, b in pairs], forward_model=False,
               whole_games=[_sample_agents(p) for p in players], max_turns=max_turns)
    _check_formats(found, lists, format_name)
    local = workers or os.cpu_count() or 1
    err = _console(stderr=True)
    where = f"Dask scheduler {scheduler}" if scheduler else \
        f"Dask LocalCluster of {local} worker(s)" if use_dask else f"{local} local process(es)"
    if not quiet:
        err.print(f"{result_games(chunks)} games over {len(pairs)} pairing(s)"
                  f"{f' under {len(players)} tiers' if len(players) > 1 else ''}"
                  f"{f', as written and with {len(ablate)} card(s) ablated' if ablate else ''}"
                  f" on "
                  f"{escape(where)}")
    # the rows only when they are written, each chunk's as it is in (and its tally made where
    # it was played): else each chunk sends its tally, not a row a game
    sink = _RowsWriter(csv_file, parquet_file) if csv_file or parquet_file else None
    options: dict[str, Any] = dict(workers=local, scheduler=scheduler,
                                   dask_workers=local if use_dask else None, rows=False,
                                   on_rows=sink.write if sink is not None else None)
    try:
        if err.is_terminal and not quiet:
            result = _with_progress(err, chunks, options)
        else:
            result = simulate(chunks, **options)
    except BaseException:
        if sink is not None:
            sink.discard()
        raise
    if sink is not None:
        sink.close()  # every finished game's row in: the CSV put in its place
    if result.interrupted:
        err.print(f"[red]interrupted[/red]: keeping the {result.tally.played} finished games")
    failed = _error_games(result)
    for row in failed:
        err.print(f"[red]error[/red] in the game of seed {row['seed']} ({escape(row['deck_1'])} "
                  f"vs {escape(row['deck_2'])}), turn {row['turns']}: {escape(row['error'])}")
        err.print(f"reproduce: {escape(row['replay'])}")
    names = {card_id: card.name for card_id, card in engine.cards.items()}
    kinds = {card_id: card.kind for card_id, card in engine.cards.items()}
    written = result.tally.select(())
    summary = summarize(written, lists, names)
    summary["balance"] = balance(written, lists, names, kinds, tiers=players)
    if ablate:
        from hkk._ablation import impact

        summary["impact"] = [
            {**row, "name": names.get(card, card)} for card in ablate
            for row in impact(written, result.tally.select((card,)), card, lists)]
    sets = sorted(found.sets)
    replay = f"hkk play --seed SEED --decks DECK_1 DECK_2 {' '.join('--set ' + s for s in sets)}"
    if players != [None]:
        replay += " --agents AGENT_1 AGENT_2"
    meta = {"games": written.played,
            "planned": result_games(c for c in chunks if not c.ablate), "seed": seed,
            "sets": sets, "max_turns": max_turns, "interrupted": result.interrupted,
            "tiers": [list(p) if p is not None else None for p in players],
            "ablate": list(ablate),
            "seconds": round(result.seconds, 2), "replay": replay.strip(),
            "errors": [{key: row[key] for key in ("seed", "deck_1", "deck_2", "turns", "error",
                                                  "replay")} for row in failed],
            "stopped": _stopped(failed)}
    if output_format == "json" or summary_file:
        write_output(json.dumps({"meta": meta, **summary}, ensure_ascii=False, indent=1),
                     summary_file)
    if html_file:
        from hkk._html import report_page

        Path(html_file).write_text(report_page(summary, meta), encoding="utf-8")
    if output_format == "text":
        with output_console(output_file) as out:
            _print_table(out, summary, meta)
    if result.interrupted or failed:
        sys.exit(EXIT_FAILED)


def _check_ablate(ablate: tuple[str, ...], engine: Any, lists: dict[str, list[str]]) -> None:
    """Each card to ablate is a loaded card in at least one deck played (exit 2 otherwise)."""
    for card in ablate:
        if card not in engine.cards:
            raise click.BadParameter(f"no card {card!r} in the loaded sets", param_hint="--ablate")
        if not any(card in deck for deck in lists.values()):
            raise click.BadParameter(f"card {card!r} is in none of the decks played "
                                     f"({', '.join(sorted(lists))})", param_hint="--ablate")


def result_games(chunks: Any) -> int:
    return sum(c.games for c in chunks)


def _sample_agents(specs: tuple[str, str] | None) -> list[Any] | None:
    """One game's agents of a tier (seeded as game 0's): what a core's batched call is asked
    to seat (``refuses_outcomes``); None: the engine's default agents."""
    from hkk._agent_registry import agent_entries, agent_seed

    if specs is None:
        return None
    registry = agent_entries()
    return [registry.factory(spec)(agent_seed(0, seat)) for seat, spec in enumerate(specs)]


def _agent_pairings(agent_specs: tuple[str, str] | None, tiers: str | None
                    ) -> list[tuple[str, str] | None]:
    """The agents of each tier, checked (names registered, options known) before any game."""
    from hkk._agent_registry import agent_entries, canonical_spec
    from hkk._errors import HkkError

    if agent_specs and tiers is not None:
        raise click.UsageError("--agents and --tiers exclude each other: a tier is both seats "
                               "played by one agent")
    registry = agent_entries()
    try:
        if tiers is not None:
            names = [t.strip() for t in tiers.split(",")]
            if not any(names):
                raise HkkError("no tier named: give agents separated by commas, e.g. "
                               "random,greedy,mcts")
            if not all(names):
                raise HkkError(f"an empty tier in {tiers!r}: give agents separated by commas, "
                               f"e.g. random,greedy,mcts")
            specs = [canonical_spec(t) for t in names]
            if len(set(specs)) < len(specs):
                raise HkkError(f"a tier is named twice in {tiers!r}")
            for spec in specs:
                registry.factory(spec)(0)  # one made: a factory that fails, fails here
            return [(spec, spec) for spec in specs]
        if agent_specs:
            pair = (canonical_spec(agent_specs[0]), canonical_spec(agent_specs[1]))
            for spec in pair:
                registry.factory(spec)(0)
            return [pair]
    except HkkError as exc:
        raise click.BadParameter(str(exc), param_hint="--tiers" if tiers is not None
                                 else "--agents") \
            from None
    return [None]


#: Games per chunk when an agent searches (its games take seconds each, not milliseconds): the
#: workers stay busy to the end and the progress bar moves (results never depend on it).
SEARCHING_CHUNK_SIZE = 2


#: Games per chunk when a core tallies them in one batched call (``tally_outcomes``: a few
#: milliseconds a game or less): the cost of sending a chunk and choosing its core is paid
#: once per 500 games, and a chunk is still under a second of work.
BATCHED_CHUNK_SIZE = 500


def _chunk_size(players: list[tuple[str, str] | None], default: int,
                batched: bool = False) -> int:
    from hkk._agent_registry import agent_entries

    registry = agent_entries()
    for pair in players:
        for spec in pair or ():
            if getattr(registry.factory(spec)(0), "uses_forward_model", False):
                return SEARCHING_CHUNK_SIZE
    return BATCHED_CHUNK_SIZE if batched else default


def _batched(engine: Any, decks: list[tuple[list[str], list[str]]],
             players: list[tuple[str, str] | None], max_turns: int | None) -> bool:
    """Whether every game is played by a core that tallies many in one call."""
    from hkk._errors import HkkError

    try:
        return bool(decks) and all(
            hasattr(engine.choose_core(pair, whole_games=True, agents=_sample_agents(p),
                                       max_turns=max_turns).core, "tally_outcomes")
            for pair in decks for p in players)
    except HkkError:  # check_core says why, after the plan
        return False


def _stopped(failed: list[dict[str, Any]]) -> dict[str, Any]:
    """How many games were stopped, and why: a count per error class (GameTimeout, AgentError,
    TriggerLoopError...), and the same as words."""
    why: dict[str, int] = {}
    for row in failed:
        kind = str(row["error"]).split(":", 1)[0]
        why[kind] = why.get(kind, 0) + 1
    return {"games": len(failed), "why": why,
            "text": _tally(why) + (" (the time limit counts CPU time outside the agents: "
                                   "--game-timeout)" if "GameTimeout" in why else "")}


def _error_games(result: Any) -> list[dict[str, Any]]:
    """The error rows (as :func:`_flat` writes them), in the order played."""
    rows = []
    for row in result.tally.errors():
        agents = (row["agent_1"], row["agent_2"]) if row.get("agent_1") else None
        chunk = next(c for c in result.chunks
                     if (c.agents, c.decks, c.ablate) == (agents, (row["deck_1"], row["deck_2"]),
                                                         tuple(row["ablated"]))
                     and c.seeds[0] <= row["seed"] < c.seeds[1])
        rows.append(_flat(chunk, row))
    return rows


def _with_progress(err: Console, chunks: Any, options: dict[str, Any]) -> Any:
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    from hkk._simulate import simulate

    columns = (TextColumn("games"), BarColumn(), MofNCompleteColumn(),
               TextColumn("{task.fields[rate]} games/s"), TimeElapsedColumn(), TextColumn("ETA"),
               TimeRemainingColumn())
    with Progress(*columns, console=err, transient=True) as bar:
        task = bar.add_task("games", total=sum(c.games for c in chunks), rate="-")

        def progress(done: int, total: int) -> None:
            speed = bar.tasks[0].speed
            bar.update(task, completed=done, rate=f"{speed:,.1f}" if speed else "-")
        return simulate(chunks, progress=progress, **options)


#: The columns of ``--csv``, in order.
CSV_COLUMNS = ("seed", "deck_1", "deck_2", "agent_1", "agent_2", "winner", "reason", "turns",
               "first", "drawn", "played", "fired", "used", "acted", "error", "ablated",
               "replay")


def _flat(chunk: Any, row: dict[str, Any]) -> dict[str, Any]:
    """A game's row as written: counters as JSON text, and the command that plays it again."""
    from hkk._simulate import replay_command

    flat = dict(row)
    for key in ("drawn", "played", "fired", "used", "acted"):
        flat[key] = json.dumps(row[key], ensure_ascii=False, sort_keys=True)
    flat["ablated"] = " ".join(row["ablated"])
    flat["replay"] = replay_command(chunk, row["seed"])
    return flat


class _RowsWriter:
    """``--csv`` and ``--parquet``: each chunk's rows written as ``simulate`` hands them on (in
    the plan's order), so that a million games' rows are never all in memory.  The CSV goes to
    a file beside the one named, put in its place once the run is over (a run that fails
    leaves the named file as it was); Parquet's rows are kept until then (one table)."""

    def __init__(self, csv_file: str | None, parquet_file: str | None) -> None:
        self.parquet_file = parquet_file
        self.parquet_rows: list[dict[str, Any]] = []
        self.csv: tuple[Path, Path] | None = None  # the file named, the one written
        self.file: Any = None
        if csv_file is not None:
            named = Path(csv_file)
            self.csv = named, named.with_name(f".{named.name}.{os.getpid()}.partial")
            self.file = self.csv[1].open("w", newline="", encoding="utf-8")
            self.writer = csv.DictWriter(self.file, fieldnames=CSV_COLUMNS)
            self.writer.writeheader()

    def write(self, chunk: Any, rows: list[dict[str, Any]]) -> None:
        flat = [_flat(chunk, row) for row in rows]
        if self.csv is not None:
            self.writer.writerows(flat)
        if self.parquet_file is not None:
            self.parquet_rows.extend(flat)

    def close(self) -> None:
        if self.csv is not None:
            self.file.close()
            self.csv[1].replace(self.csv[0])
        if self.parquet_file is not None:
            _write_parquet(self.parquet_file, self.parquet_rows)

    def discard(self) -> None:
        if self.csv is not None:
            self.file.close()
            self.csv[1].unlink(missing_ok=True)


def _write_parquet(path: str, rows: list[dict[str, Any]]) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    pq.write_table(pa.Table.from_pylist(rows), path)


def _print_table(out: Console, summary: dict[str, Any], meta: dict[str, Any]) -> None:
    table = Table(title=f"{summary['games']} games ({', '.join(meta['sets'])}), seeds from "
                        f"{meta['seed']}")
    for column in ("P1 deck", "P2 deck", "games", "P1 won", "P2 won", "draws", "P1 rate",
                   "95% CI", "turns"):
        table.add_column(column, justify="left" if column.endswith("deck") else "right",
                         no_wrap=True)
    for p in summary["pairings"]:
        rate = p["win_rate_1"]
        table.add_row(escape(p["decks"][0]), escape(p["decks"][1]), str(p["games"]),
                      str(p["wins_1"]), str(p["wins_2"]), str(p["draws"]), f"{rate['rate']:.3f}",
                      f"{rate['ci_low']:.3f}-{rate['ci_high']:.3f}", f"{p['mean_turns']:.1f}")
    out.print(table)
    first, turns = summary["first_player"], summary["turns"]
    if first["games"]:
        out.print(f"first player wins {first['rate']:.3f} (95% CI {first['ci_low']:.3f}-"
                  f"{first['ci_high']:.3f}); turns per game: mean {turns['mean']}, median "
                  f"{turns['median']}, {turns['min']}-{turns['max']}; endings "
                  f"{escape(_tally(summary['endings']))}")
    _print_balance(out, summary["balance"])
    if summary.get("impact"):
        _print_impact(out, summary["impact"])
    stopped = meta["stopped"]
    if stopped["games"]:
        out.print(f"[yellow]stopped[/yellow]: {stopped['games']} of {meta['games']} games, which "
                  f"count in no rate: {escape(stopped['text'])}")
    out.print(f"[dim]{meta['seconds']} s; replay a game: {escape(meta['replay'])}[/dim]")


def _rate_text(rate: dict[str, Any]) -> str:
    if rate["rate"] is None:
        return "-"
    return f"{rate['rate']:.3f} ({rate['ci_low']:.3f}-{rate['ci_high']:.3f})"


def _print_impact(out: Console, rows: list[dict[str, Any]]) -> None:
    table = Table(title="Card impact (--ablate): the deck's win rate as written minus with the "
                        "card replaced by its filler, the same seeds (95% interval of the paired "
                        "difference)")
    for column in ("card", "tier", "deck", "games", "changed", "impact", "95% CI"):
        table.add_column(column, no_wrap=True,
                         justify="left" if column in ("card", "tier", "deck") else "right")
    for r in rows:
        table.add_row(escape(r["name"]), escape(r["tier"]), escape(r["deck"]), str(r["games"]),
                      str(r["changed"]), f"{r['impact']:+.3f}",
                      f"{r['ci_low']:+.3f} to {r['ci_high']:+.3f}")
    out.print(table)


def _play_rate_text(rate: dict[str, Any] | None) -> str:
    if not rate or rate["rate"] is None:
        return "-"
    return f"{rate['rate']:.2f} ({rate['games_drawn']})"


def _print_balance(out: Console, report: dict[str, Any]) -> None:
    """The tiers, the skill gap, how games ended, the warnings and the flagged cards."""
    from hkk._balance import ENDINGS
    from hkk._html import p_value

    tiers = report["tiers"]
    if len(tiers) > 1 or (tiers and tiers[0]["agents"] is not None):
        table = Table(title="Tiers: P1 win rate (95% Wilson CI) per pairing")
        for column in ("tier", "P1 deck", "P2 deck", "games", "P1 rate", *ENDINGS):
            table.add_column(column, no_wrap=True,
                             justify="left" if column in ("tier", "P1 deck", "P2 deck")
                             else "right")
        for t in tiers:
            for p in t["pairings"]:
                table.add_row(escape(t["label"]), escape(p["decks"][0]), escape(p["decks"][1]),
                              str(p["games"]), _rate_text(p["win_rate_1"]),
                              *(str(p["endings"][e]) for e in ENDINGS))
        out.print(table)
        for t in tiers:
            first = t["first_player"]
            if first["games"]:
                out.print(f"{escape(t['label'])}: first player wins {_rate_text(first)}; "
                          f"endings {escape(_tally(t['endings']))}")
    else:
        for t in tiers:
            out.print("endings per pairing: " + "; ".join(
                f"{escape(p['decks'][0])} vs {escape(p['decks'][1])}: "
                f"{escape(_tally(p['endings']))}" for p in t["pairings"]))
    if report["skill_gap"]:
        gap = Table(title="Skill gap: each deck's win rate per tier (both seats)")
        gap.add_column("deck", no_wrap=True)
        for t in tiers:
            gap.add_column(escape(t["label"]), justify="right", no_wrap=True)
        gap.add_column("gap", justify="right", no_wrap=True)
        for row in report["skill_gap"]:
            gap.add_row(escape(row["deck"]), *("-" if row["rates"][t["label"]] is None
                                               else f"{row['rates'][t['label']]:.3f}"
                                               for t in tiers),
                        "-" if row["gap"] is None else f"{row['gap']:+.3f}")
        out.print(gap)
    for warning in report["warnings"]:
        out.print(f"[yellow]warning[/yellow]: {escape(warning)}")
    flagged = report["flagged"]
    if flagged:
        table = Table(title="Flagged cards: the deck's win rate when the card was drawn differs "
                            "(Fisher's exact test, Benjamini-Hochberg q < 0.05)")
        for column in ("tier", "deck", "vs", "seats", "card", "drawn games", "win drawn",
                       "win not drawn", "p", "q"):
            table.add_column(column, no_wrap=True)
        for c in flagged:
            table.add_row(escape(c["tier"]), escape(c["deck"]), escape(c["opponent"]),
                          str(c["seat"]), escape(c["name"]), str(c["win_rate_drawn"]["games"]),
                          _rate_text(c["win_rate_drawn"]), _rate_text(c["win_rate_not_drawn"]),
                          p_value(c["p_value"]), p_value(c["q_value"]))
        out.print(table)
    if report.get("play_rates"):
        plays = Table(title="Play rate when drawn: games it was played / games it was drawn")
        plays.add_column("deck", no_wrap=True)
        plays.add_column("card", no_wrap=True)
        for t in tiers:
            plays.add_column(escape(t["label"]), justify="right", no_wrap=True)
        for row in report["play_rates"]:
            plays.add_row(escape(row["deck"]), escape(row["name"]), *(
                _play_rate_text(row["tiers"].get(t["label"])) for t in tiers))
        out.print(plays)
    for key, words in (("never_played", "never played"), ("never_useful", "never useful")):
        if report[key]:
            out.print(f"{words}: " + ", ".join(
                f"{escape(c['name'])} ({escape(c['deck'])}, {escape(c['tier'])})"
                for c in report[key]))


# -- gallery -------------------------------------------------------------------------------------

@click.command("gallery", short_help="Write a spoiler page of a set's cards.")
@click.argument("code")
@click.option("--out", "out_dir", type=click.Path(file_okay=False), required=True,
              help="Folder to write index.html into (made if missing).")
def gallery_command(code: str, out_dir: str) -> None:
    """Write a static spoiler page of set CODE's cards (DIR/index.html, each card's image in
    DIR/cards/)."""
    from hkk._html import card_entries, gallery_page
    from hkk._print_cli import write_card_images

    found = _found(())
    if code not in found.sets:
        raise click.BadParameter(f"no loaded set {code!r}; loaded: {sorted(found.sets)}",
                                 param_hint="CODE")
    s = found.sets[code]
    cards = sorted(s.cards, key=lambda c: c.id)
    entries = card_entries(cards, found.decks)
    folder = Path(out_dir)
    folder.mkdir(parents=True, exist_ok=True)
    images = write_card_images(found, cards, folder / "cards")
    for entry in entries:
        entry["image"] = f"cards/{images[entry['id']]}"
    target = folder / "index.html"
    target.write_text(gallery_page(code, s.label, entries), encoding="utf-8")
    _console().print(f"wrote {escape(str(target))} ({len(cards)} cards)")
