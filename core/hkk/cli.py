"""The ``hkk`` command: ``sets``, ``cards``, ``play``, ``replay``, ``verify``, ``reference``,
``schema``, ``new-set``.

Exit codes: 0 success; 1 the work failed (``verify`` found a problem, a game raised an error,
a file could not be written); 2 bad usage (unknown option, deck, set code, an invalid set name,
an invalid configuration file, an output file in a missing folder - click's convention).  Such
errors print one line, never a traceback; output cut short by its reader (``hkk play | head``)
ends quietly with 0.
"""

from __future__ import annotations

import json
import shlex
import sys
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import click
from rich.console import Console
from rich.table import Table

from hkk._cli_output import (
    EXIT_FAILED,
    EXIT_OK,
    EXIT_USAGE,
    _check_formats,
    _discover,
    _dumps,
    _err,
    _output_file,
    _ReaderGone,
    _safe_json,
    _stop_quietly,
    _warn_failures,
    check_core,
    core_option,
    deprecated,
    engine_with_core,
    output_console,
    output_options,
    write_output,
)
from hkk._errors import ConfigError, GameTimeout, HkkError, SetError, step_name
from hkk._limits import DEFAULT_GAME_TIMEOUT
from hkk._markup import escape
from hkk._text import printable


class _Main(click.Group):
    """Maps errors that are not bugs to one line on stderr and an exit code.  Ctrl-C (or a set
    raising KeyboardInterrupt, e.g. while it is imported) says where it was and exits 1,
    instead of click's bare "Aborted!"."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except (BrokenPipeError, _ReaderGone):
            _stop_quietly()
        except KeyboardInterrupt as exc:
            _err().print(f"[red]interrupted[/red]: {escape(str(exc) or 'KeyboardInterrupt')}")
            ctx.exit(EXIT_FAILED)
        except (HkkError, OSError) as exc:
            _err().print(f"[red]Error:[/red] {escape(str(exc))}")
            ctx.exit(EXIT_USAGE if isinstance(exc, ConfigError) else EXIT_FAILED)


_timeout_option = click.option(
    "--game-timeout", type=click.FloatRange(min=0), default=DEFAULT_GAME_TIMEOUT,
    show_default=True, metavar="SECONDS",
    help="Stop a game that spends more CPU time outside its agents (the engine, the sets' "
         "code) and report where it was; an agent may think as long on each decision "
         "(a searching agent: its option seconds=). 0: no limit.")


def _version_message() -> str:
    """``hkk --version``: the engine, then the installed sets (as pytest lists its plugins)."""
    from hkk._plugin import HOOK_API_VERSION
    from hkk._sets.discovery import find_sets
    from hkk._version import __version__

    lines = [f"hkk {__version__} (hook API {HOOK_API_VERSION})"]
    sets = find_sets(failures=[])  # imports nothing
    # the version and distribution name come from any installed package's metadata
    lines += [printable(f"  set {c.code} {c.version or '?'} ({c.distribution or '?'})")
              for c in sets]
    if not sets:
        lines.append("  no card sets installed")
    return "\n".join(lines)


def _print_version(ctx: click.Context, param: click.Parameter, value: bool) -> None:
    if value and not ctx.resilient_parsing:
        click.echo(_version_message())
        ctx.exit()


@click.group(cls=_Main, context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--version", is_flag=True, expose_value=False, is_eager=True,
              callback=_print_version, help="Show the version and the installed sets, and exit.")
def main() -> None:
    """hkk - rules engine and plugin framework for Hatalom Kártyái."""


# -- sets ----------------------------------------------------------------------------------------

def set_rows(found: Any) -> list[dict[str, Any]]:
    """One row per installed set: loaded, failed (with the reason) or disabled; a loaded set's
    uses of deprecated hook API (``deprecated``) too."""
    from hkk._deprecation import uses

    rows = []
    for s in found.sets.values():
        deprecated = [use.describe() for use in uses(s.module)]
        rows.append({"code": s.code, "distribution": s.distribution, "version": s.version,
                     "cards": len(s.cards), "decks": sorted(s.decks), "hooks": s.hook_names,
                     "requires": s.manifest.requires, "depends": list(s.manifest.depends),
                     "status": "loaded", "deprecated": deprecated,
                     "reason": "uses deprecated hook API: " + "; ".join(deprecated)
                     if deprecated else None})
    for error in found.failures:
        rows.append({"code": error.code, "distribution": error.distribution,
                     "version": error.version, "cards": None, "decks": [], "hooks": [],
                     "requires": None, "depends": [], "status": "failed", "deprecated": [],
                     "reason": f"stage {error.stage}: {error.reason}"})
    for c in found.disabled:
        rows.append({"code": c.code, "distribution": c.distribution, "version": c.version,
                     "cards": None, "decks": [], "hooks": [], "requires": None, "depends": [],
                     "status": "disabled", "deprecated": [],
                     "reason": f"by {found.disabled_by or 'the set selection'}"})
    return sorted(rows, key=lambda r: (r["code"] or "", r["distribution"] or ""))


#: ``--json``, the flag the ``--output-format json`` of ``sets``, ``cards`` and ``verify``
#: replaces: kept for a release, hidden.
_json_flag = click.option("--json", "as_json", is_flag=True, hidden=True,
                          help="Deprecated: --output-format json.")


def _json_format(as_json: bool, output_format: str) -> str:
    if as_json:
        deprecated("--json", "--output-format json")
        return "json"
    return output_format


@main.command("sets")
@output_options("text", "json", what="text: a table; json: the rows, decks and dependencies.")
@_json_flag
def sets_command(output_format: str, output_file: str | None, as_json: bool) -> None:
    """List the installed card sets and their status."""
    from hkk._plugin import HOOK_API_VERSION

    rows = set_rows(_discover())
    if _json_format(as_json, output_format) == "json":
        write_output(_dumps({"hook_api": HOOK_API_VERSION, "sets": rows}), output_file)
        return
    with output_console(output_file) as out:
        _print_sets(out, rows, HOOK_API_VERSION)


def _print_sets(out: Console, rows: list[dict[str, Any]], hook_api: str) -> None:
    if not rows:
        # The base set ships with the engine: none at all means a broken or partial install.
        out.print("No card sets installed (entry-point group 'hkk.sets'); the base set alap "
                  "ships with hkk. Try: pip install --force-reinstall hkk")
        return
    table = Table(title=f"hkk card sets (engine hook API {hook_api})", show_edge=False)
    # A hook name is never folded inside (one per line, the column as wide as the longest);
    # the status column takes what is left and wraps at word boundaries.
    longest_hook = max((len(h) for r in rows for h in r["hooks"]), default=1)
    for column in ("code", "distribution", "version", "cards", "hooks", "requires"):
        table.add_column(column, no_wrap=column != "hooks", overflow="fold",
                         min_width=longest_hook if column == "hooks" else None)
    table.add_column("status", overflow="fold", ratio=1)
    style = {"loaded": "green", "failed": "red", "disabled": "yellow"}
    for r in rows:
        status = f"[{style[r['status']]}]{r['status']}[/]"
        if r["reason"]:
            status += f": {escape(r['reason'])}"
        # Distribution names and versions come from installed metadata: print them literally.
        table.add_row(*(escape(cell) for cell in (
            r["code"] or "?", r["distribution"] or "?", r["version"] or "?",
            "" if r["cards"] is None else str(r["cards"]), "\n".join(r["hooks"]) or "-",
            r["requires"] or "?")), status)
    out.print(table)


# -- cards ---------------------------------------------------------------------------------------

@main.command("cards")
@click.option("--set", "set_codes", metavar="CODE", multiple=True,
              help="Only the cards of this set (repeatable).")
@output_options("text", "json", what="text: each card; json: the validated definitions.")
@_json_flag
@click.option("--text-from-data", "from_data", is_flag=True,
              help="Also print each card's rules text generated from its data (Hungarian; "
                   "JSON: text_from_data).")
def cards_command(set_codes: tuple[str, ...], output_format: str, output_file: str | None,
                  as_json: bool, from_data: bool) -> None:
    """Show the cards with their stats and abilities."""
    from hkk._card_text import card_lines, text_from_data

    found = _discover()
    _warn_failures(found)
    unknown = [code for code in set_codes if code not in found.sets]
    if unknown:
        raise click.BadParameter(f"no loaded set {', '.join(map(repr, unknown))}; loaded: "
                                 f"{sorted(found.sets)}", param_hint="--set")
    cards = [c for c in found.cards.values() if not set_codes or c.set_code in set_codes]
    cards.sort(key=lambda c: c.id)
    if _json_format(as_json, output_format) == "json":
        write_output(_dumps([{**c.model_dump(mode="json"),
                              **({"text_from_data": text_from_data(c)} if from_data else {})}
                             for c in cards]), output_file)
        return
    with output_console(output_file) as out:
        for card in cards:
            for line in card_lines(card, from_data=from_data):
                out.print(line)
        out.print(f"[dim]{len(cards)} card(s)[/dim]")


# -- play ----------------------------------------------------------------------------------------

def _default_decks(engine: Any) -> list[str]:
    base = sorted(name for name in engine.decks if name.startswith("alap:"))
    names = base if len(base) >= 2 else sorted(engine.decks)
    if len(names) < 2:
        raise click.UsageError("no two decks to play with: the base set alap, which ships with "
                               "hkk, is not loaded ('hkk sets' says why) - or name two decks "
                               "with --decks")
    return names[:2]


@main.command("play", short_help="Play a whole game between two random agents.")
@click.option("--seed", type=int,
              help="The game's seed: the same seed, decks and agents play the same game. "
                   "Default: drawn from the operating system (the log and a save record it).")
@click.option("--decks", nargs=2, metavar="A B",
              help="Two decks, e.g. alap:tuz alap:viz; 'DECK+SET' mixes in a set's cards.")
@click.option("--set", "set_codes", multiple=True, metavar="CODE",
              help="Play with only these sets (and those they depend on). Repeatable.")
@output_options("text", "json", what="text: the game turn by turn; json: its event log.",
                quiet="Print only the result (text).")
@click.option("--json", "json_file", metavar="FILE|-", callback=_output_file, hidden=True,
              help="Deprecated: --output-format json [-o FILE].")
@click.option("--save", "save_file", metavar="FILE", callback=_output_file,
              help="Write the whole game (versions, seed, decks, state, log) to FILE for "
                   "'hkk replay'.")
@click.option("--save-at", "save_at", type=click.IntRange(min=1), metavar="TURN",
              help="With --save: write the save at the start of turn TURN (the game plays on; "
                   "load it with hkk.load_game to go on from there) instead of at the end.")
@click.option("--max-turns", type=click.IntRange(min=1), help="Stop (a draw) after N turns.")
@click.option("--format", "format_name", metavar="NAME",
              help="Refuse a deck that breaks this format (e.g. alap:kezdo, casual); without "
                   "it a deck breaking a format it names is only warned about.")
@click.option("--html", "html_file", metavar="FILE", callback=_output_file,
              help="Write the game's timeline with the board at every step as a page.")
@click.option("--brief", is_flag=True, help="Hide Ép checks in which nobody dies.")
@click.option("--agents", "agent_specs", nargs=2, metavar="A B",
              help="Who plays P1 and P2 ('hkk agents' lists them), seeded from the game's seed "
                   "as in 'hkk simulate --agents'. Default: random players.")
@click.option("--human", type=click.Choice(["1", "2", "both"]),
              help="Play it yourself at the terminal: player 1, 2, or both (hot-seat).")
@click.option("--opponent", default="random", show_default=True, metavar="NAME[:K=V,...]",
              help="The agent at the seat you do not play (with --human or --load).")
@click.option("--load", "load_file", metavar="FILE", type=click.Path(exists=True, dir_okay=False),
              help="Go on with a game saved at a decision (s FILE, or --save with --human).")
@click.option("--auto-answer/--no-auto-answer", "auto_answer", default=True, show_default=True,
              help="With --human or --load: a decision with one option only (a lone pass, no "
                   "block) is answered by itself ('a' at the prompt turns it off or on).")
@_timeout_option
@core_option
def play_command(seed: int | None, decks: tuple[str, str] | None, set_codes: tuple[str, ...],
                 output_format: str, output_file: str | None, quiet: bool,
                 json_file: str | None, save_file: str | None, save_at: int | None,
                 max_turns: int | None,
                 format_name: str | None, html_file: str | None, brief: bool,
                 agent_specs: tuple[str, str] | None, human: str | None, opponent: str,
                 load_file: str | None, auto_answer: bool, game_timeout: float,
                 core: str) -> None:
    """Play a whole game between two agents (random players unless --agents), printed turn
    by turn (--output-format json: its event log); or play it yourself (--human) against an
    agent (--opponent)."""
    if load_file:  # hkk._terminal: the person's game goes on at its decision
        from hkk._terminal import play_saved

        play_saved(load_file, human, opponent, save_file, auto=auto_answer)
        return
    if not human and not auto_answer:  # agents play: nothing is asked of anybody
        raise click.UsageError("--no-auto-answer goes with --human or --load")
    output_format, log_file = _play_output(output_format, output_file, json_file)
    from hkk._game import fresh_seed

    if seed is None:  # unpredictable: a person at --human cannot replay the shuffles
        seed = fresh_seed()
    # the text's console (its file, if -o) stays open until the command ends
    out = click.get_current_context().with_resource(
        output_console(output_file if output_format == "text" else None))
    from hkk._event_text import EventRenderer
    from hkk._limits import time_limit
    from hkk.verify import play_command as play_command_line
    from hkk.verify import resolve_deck_spec

    allow = None
    if set_codes:
        everything = _discover()
        unknown = sorted(set(set_codes) - set(everything.sets))
        if unknown:
            raise click.BadParameter(f"no loaded set {', '.join(unknown)}; loaded: "
                                     f"{', '.join(sorted(everything.sets))}", param_hint="--set")
        from hkk._sets.discovery import dependency_closure

        allow = dependency_closure(set_codes, everything.sets)
    found = _discover(allow)
    _warn_failures(found)
    engine = engine_with_core(found, core)
    names = list(decks) if decks else _default_decks(engine)
    try:
        lists = [resolve_deck_spec(engine, name) for name in names]
        # the turn limit as a ruling: a save then holds it, and a replay stops where this did
        rulings = replace(engine.rulings, max_turns=max_turns) if max_turns else engine.rulings
    except HkkError as exc:
        raise click.BadParameter(str(exc), param_hint="--decks") from None
    agents = None
    if agent_specs:
        from hkk._agent_registry import agent_entries, agent_seed

        try:
            registry = agent_entries()
            agents = [registry.factory(spec)(agent_seed(seed, seat))
                      for seat, spec in enumerate(agent_specs)]
        except HkkError as exc:
            raise click.BadParameter(str(exc), param_hint="--agents") from None
    check_core(engine, [lists])
    _check_formats(found, dict(zip(names, lists, strict=True)), format_name)
    if human:  # hkk._terminal: the person at his seats, the opponent agent at the other
        from hkk._terminal import play_at_terminal

        play_at_terminal(engine, lists, seed, rulings, human, opponent, save_file,
                         auto=auto_answer)
        return
    try:
        game = engine.start(lists, agents, seed=seed, rulings=rulings)
    except HkkError as exc:
        raise click.BadParameter(str(exc), param_hint="--decks") from None
    to_stdout = output_format == "json" and log_file is None
    if not (quiet or output_format == "json"):
        renderer = EventRenderer(engine.cards, [p.name for p in game.view(0).players],
                                 quiet_checks=brief)
        out.print(f"[bold]{escape(names[0])}[/bold] (P1) vs [bold]{escape(names[1])}[/bold] "
                  f"(P2), sets: {', '.join(sorted(found.sets))}")
        out.print("[dim]Numbers in brackets are the rule points applied: (29.4.10) and (41.4) "
                  "are Kódex rules, (D-…) our readings in docs/RULINGS.md.[/dim]")

        def show(event: Any) -> None:
            line = renderer.line(event)
            if line is not None:
                out.print(line)
        game.log.subscribe(show)
    from hkk._html import GameRecorder

    recorder = GameRecorder(game, engine.cards) if html_file else None
    error: BaseException | None = None
    reproduce = play_command_line(seed, names, set_codes, max_turns)
    if agent_specs:
        reproduce += " --agents " + " ".join(shlex.quote(a) for a in agent_specs)
    try:
        def where() -> str:
            step = step_name(game.turn, game.log.step)
            return f"turn {game.turn} ({step}); reproduce: {reproduce}"

        if save_at is not None and not save_file:
            raise click.BadParameter("needs --save FILE", param_hint="--save-at")
        with time_limit(game_timeout, where, agents=agents or ()):
            if save_at is not None and save_file:
                _play_saving_at(game, max_turns, save_at, save_file)
            else:
                game.play(max_turns=max_turns)
    except (HkkError, GameTimeout) as exc:
        error = _blamed(exc, agents, agent_specs) or exc
    except KeyboardInterrupt as exc:  # Ctrl-C, or a set raising it: say where, exit 1
        error = exc
    except Exception as exc:  # an agent that raised: one line naming it; else a bug
        error = _blamed(exc, agents, agent_specs)
        if error is None:
            raise
    if output_format == "json" or log_file:
        write_output(_safe_json(game.log.to_json(indent=None if to_stdout else 1)), log_file)
    if recorder is not None and html_file:
        Path(html_file).write_text(recorder.page(f"{' vs '.join(names)}, seed {seed}"),
                                   encoding="utf-8")
    if save_file and error is None and save_at is None:  # after an error: inside a step
        Path(save_file).write_text(json.dumps(game.save(), ensure_ascii=False) + "\n",
                                   encoding="utf-8")
    if error is not None:
        err = _err()
        kind = "interrupted" if isinstance(error, KeyboardInterrupt) else \
            "time limit" if isinstance(error, GameTimeout) else "error"
        err.print(f"[red]{kind}[/red] in turn {game.turn} ({step_name(game.turn, game.log.step)}): "
                  f"{escape(str(error) or 'KeyboardInterrupt')}")
        err.print(f"reproduce: {reproduce}")
        sys.exit(EXIT_FAILED)
    if quiet and output_format == "text":
        winner = "draw" if game.winner is None else game.view(0).players[game.winner].name
        out.print(f"winner: {winner} after {game.turn} turns ({len(game.log)} events)")


def _check_core_name(core: str) -> None:
    """An unknown ``--core``, or one without the forward model the games of ``hkk verify``
    need, is a usage error saying why."""
    from hkk._cores import AUTO, core_entries, without_forward_model

    if core != AUTO:
        try:
            without = without_forward_model(core_entries().get(core))
        except HkkError as exc:
            raise click.BadParameter(str(exc), param_hint="--core") from None
        if without is not None:
            raise click.BadParameter(without, param_hint="--core")


def _blamed(error: BaseException, agents: Sequence[Any] | None,
            specs: Sequence[str] | None) -> HkkError | None:
    """The error naming the seated agent that caused ``error``, if one did."""
    if not agents or not specs or isinstance(error, GameTimeout):
        return None
    from hkk._agent_registry import agent_failure

    return agent_failure(error, agents, specs)


def _play_saving_at(game: Any, max_turns: int | None, turn: int, save_file: str) -> None:
    """Play the game, writing its save when turn ``turn`` begins (between its start and its
    first step), then on to the end."""
    from hkk._runner import advance
    from hkk._saving import save_game

    saved = False
    while advance(game, max_turns):
        if not saved and game.turn == turn and game.step_index == 0:
            Path(save_file).write_text(json.dumps(save_game(game), ensure_ascii=False) + "\n",
                                       encoding="utf-8")
            saved = True
    if not saved:
        raise HkkError(f"--save-at {turn}: the game ended in turn {game.turn}, before turn {turn}")


# -- replay --------------------------------------------------------------------------------------

def _play_output(output_format: str, output_file: str | None, json_file: str | None
                 ) -> tuple[str, str | None]:
    """What ``hkk play`` prints (its format) and the file of its JSON log, if any.  The
    deprecated ``--json FILE|-`` does what it did, for a release: ``-`` the log on stdout
    instead of the text, FILE the log there and the text too."""
    log_file = output_file if output_format == "json" else None
    if json_file is not None:
        deprecated(f"--json {json_file}", "--output-format json" if json_file == "-" else
                   f"--output-format json -o {json_file} (which prints no text)")
        output_format = "json" if json_file == "-" else output_format
        log_file = None if json_file == "-" else json_file
    return output_format, log_file


@main.command("verify")
@click.argument("codes", nargs=-1)
@click.option("--games", type=click.IntRange(min=0), default=10, show_default=True,
              help="Seeded random games per run.")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the first game.")
@click.option("--max-turns", type=click.IntRange(min=1), help="Turn limit of each game.")
@output_options("text", "json", "github", "junit",
                what="text: the checks and coverage; json: the report; github: each failure "
                     "as a GitHub Actions annotation at its file and line, then the text; "
                     "junit: JUnit XML.",
                quiet="Print only the failures, warnings and the verdict (text, github).")
@_json_flag
@click.option("--junit-xml", "junit_xml", type=click.Path(dir_okay=False),
              callback=_output_file, help="Also write the checks as JUnit XML to this file.")
@click.option("--format", "old_format", type=click.Choice(["text", "github"]), hidden=True,
              help="Deprecated: --output-format.")
@click.option("--against", metavar="SPOILER", type=click.Path(exists=True, dir_okay=False),
              help="Check the set (one CODE) against its published card list (.csv/.json).")
@click.option("--max-slowdown", type=click.FloatRange(min=0), default=3.0, show_default=True,
              metavar="FACTOR", help="Fail a set that makes its dependencies' games more than "
                                     "FACTOR times slower (0: do not measure).")
@click.option("--differential", type=click.IntRange(min=0), default=0, metavar="N",
              help="Also play N games of each set's decks on the native core and on the "
                   "Python engine and fail on the first difference (needs hkk-native).")
@_timeout_option
@core_option
def verify_command(codes: tuple[str, ...], games: int, seed: int, max_turns: int | None,
                   output_format: str, output_file: str | None, quiet: bool, as_json: bool,
                   junit_xml: str | None, old_format: str | None, against: str | None,
                   max_slowdown: float, game_timeout: float, core: str,
                   differential: int) -> None:
    """Verify installed sets (all, or CODES): the CI gate.  Exit code 1 on any failure."""
    from hkk._verify_text import verify_lines
    from hkk.verify import verify

    if old_format is not None:
        deprecated(f"--format {old_format}", f"--output-format {old_format}")
        output_format = old_format
    output_format = _json_format(as_json, output_format)

    _check_installed(codes)
    _check_core_name(core)
    if differential:  # without the native core: a usage error saying how to install it
        from hkk._errors import CoreError
        from hkk._verify_differential import native_core

        try:
            native_core()
        except CoreError as exc:
            raise click.BadParameter(str(exc), param_hint="--differential") from None
    if against is not None:  # a usage error, found before any game is played
        from hkk._spoiler import SpoilerError, read_spoiler

        if len(codes) != 1:
            raise click.BadParameter("compares one set with its spoiler: name exactly one "
                                     "CODE", param_hint="--against")
        try:
            read_spoiler(against)
        except SpoilerError as exc:
            raise click.BadParameter(str(exc), param_hint="--against") from None
    err = _err()
    report = None
    options: dict[str, Any] = dict(games=games, seed=seed, max_turns=max_turns,
                                   game_timeout=game_timeout, against=against,
                                   max_slowdown=max_slowdown, core=core,
                                   differential=differential)
    try:
        if err.is_terminal and output_format in ("text", "github") and not quiet and games:
            from rich.progress import Progress

            with Progress(console=err, transient=True) as bar:
                task = bar.add_task("games", total=None)

                def progress(what: str, done: int, total: int) -> None:
                    bar.update(task, completed=done, total=total,
                               description=f"games ({what})")
                report = verify(codes or None, progress=progress, **options)
        else:
            report = verify(codes or None, **options)
    except KeyboardInterrupt as exc:  # the report so far, its last failure saying where
        report = getattr(exc, "report", None)
        if report is None:
            raise
        err.print("[red]interrupted[/red]: the report so far")
    if junit_xml:
        Path(junit_xml).write_text(report.junit_xml() + "\n", encoding="utf-8")
    if output_format == "json":
        write_output(_dumps(report.as_dict()), output_file)
    elif output_format == "junit":
        write_output(report.junit_xml(), output_file)
    else:
        from hkk.verify import github_annotations

        with output_console(output_file) as out:
            if output_format == "github":  # workflow commands: written as they are
                out.file.write("".join(f"{line}\n" for line in github_annotations(report)))
            for line in verify_lines(report, quiet=quiet):
                out.print(line)
    sys.exit(EXIT_OK if report.ok else EXIT_FAILED)


def _check_installed(codes: Sequence[str]) -> None:
    """An unknown code is a usage error (a typo), unlike a set that is installed but broken."""
    from hkk._sets.discovery import find_sets

    invalid: list[SetError] = []
    installed: set[str | None] = {c.code for c in find_sets(failures=invalid)}  # imports nothing
    installed |= {e.code for e in invalid}
    unknown = sorted(set(codes) - installed)
    if unknown:
        raise click.BadParameter(f"no installed set {', '.join(map(repr, unknown))}; installed: "
                                 f"{', '.join(sorted(c for c in installed if c)) or 'none'}",
                                 param_hint="CODES")

# -- reference, schema, new-set (hkk._authoring_cli) ---------------------------------------------

from hkk._authoring_cli import (  # noqa: E402
    new_set_command,
    reference_command,
    schema_command,
    write_texts_command,
)

main.add_command(reference_command)
main.add_command(schema_command)
main.add_command(new_set_command)
main.add_command(write_texts_command)


# -- simulate, gallery (hkk._simulate_cli) ------------------------------------------------------

from hkk._simulate_cli import gallery_command, simulate_command  # noqa: E402

main.add_command(simulate_command)
main.add_command(gallery_command)

# -- agents (hkk._agents_cli) -------------------------------------------------------------------

from hkk._agents_cli import agents_command  # noqa: E402
from hkk._cores_cli import cores_command  # noqa: E402

main.add_command(agents_command)
main.add_command(cores_command)


# -- serve (hkk._serve_cli) ---------------------------------------------------------------------

from hkk._replay_cli import replay_command  # noqa: E402, I001 - its own module, as those above
from hkk._serve_cli import serve_command  # noqa: E402

main.add_command(serve_command)
main.add_command(replay_command)

# -- print, export (hkk._print_cli) ------------------------------------------------------------

from hkk._print_cli import export_command, print_command  # noqa: E402, I001

main.add_command(print_command)
main.add_command(export_command)


if __name__ == "__main__":  # pragma: no cover
    main()
