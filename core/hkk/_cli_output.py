"""How the ``hkk`` commands write: the console that ends a command quietly when its reader goes
(``hkk play | head``), JSON safe for a terminal, the check of an output file before the work,
and the output options every command spells the same way (used by :mod:`hkk.cli`,
:mod:`hkk._simulate_cli` and :mod:`hkk._authoring_cli`).

The convention (issue 24 item 13, ruff's names): ``--output-format FORMAT`` chooses what a
command prints (``text``, the default; ``json``; for ``verify`` also ``github`` and ``junit``),
``-o/--output-file FILE`` writes it to FILE instead of stdout, ``-q/--quiet`` prints only the
result.  Files a command writes besides its output have options named after what they hold
(``--save``, ``--html``, ``--csv``, ``--parquet``, ``--junit-xml``).  It also holds the
deck-format gate's refusal or warnings (``hkk play`` and ``hkk simulate --format``).
The spellings this replaces (``--json``, ``verify --format``) still work for one release, with
a warning.
"""

from __future__ import annotations

import json
import os
import re
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, NoReturn, TypeVar

import click
from rich.console import Console

from hkk._console import make_console
from hkk._errors import HkkError
from hkk._markup import escape

EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2


def _stop_quietly() -> NoReturn:
    """The reader of our output went away (``hkk play | head``): it has what it wanted."""
    try:
        # Point stdout at /dev/null so that the interpreter's last flush cannot fail either.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (OSError, ValueError):  # no real file descriptor (e.g. under CliRunner)
        pass
    raise SystemExit(EXIT_OK)


class _ReaderGone(BaseException):
    """Our output's reader went away while a game ran.  Not an Exception nor a SystemExit, so
    no hook boundary takes it for the failure of the set whose code was running (as a
    GameTimeout); :class:`hkk.cli._Main` ends the command quietly."""


class _Console(Console):
    def on_broken_pipe(self) -> None:  # rich's default exits with 1
        raise _ReaderGone


def _out() -> Console:
    # Created per command so that it writes to whatever sys.stdout is then (CliRunner swaps it).
    return make_console(_Console)


def _err() -> Console:
    return make_console(_Console, stderr=True)


# DEL and the C1 controls: json.dumps(ensure_ascii=False) leaves them raw, and U+009B alone
# starts a terminal escape sequence.  \u escapes keep the JSON identical to a parser.
_RAW_IN_JSON = re.compile("[\x7f-\x9f]")


def _safe_json(text: str) -> str:
    return _RAW_IN_JSON.sub(lambda m: f"\\u{ord(m[0]):04x}", text)


def _dumps(data: Any) -> str:
    return _safe_json(json.dumps(data, ensure_ascii=False, indent=2))


def _output_file(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """Checked before the work, so a typo in a folder name is not found after every game."""
    if value is None or value == "-":
        return value
    path = Path(value)
    folder = path.parent
    if path.is_dir():
        raise click.BadParameter(f"{value!r} is a folder, not a file", ctx, param)
    if not folder.is_dir():
        raise click.BadParameter(f"folder {str(folder)!r} does not exist", ctx, param)
    if not os.access(folder, os.W_OK):
        raise click.BadParameter(f"folder {str(folder)!r} is not writable", ctx, param)
    return value


def _check_formats(found: Any, lists: dict[str, list[str]], format_name: str | None) -> None:
    """``--format``: refuse a deck that breaks it (exit 2); else warn of a deck breaking a
    format it names (:func:`hkk._formats.gate`)."""
    from hkk._formats import gate

    try:
        warnings = gate(lists, decks=found.decks, formats=found.formats, cards=found.cards,
                        required=format_name)
    except HkkError as exc:
        raise click.BadParameter(str(exc), param_hint="--format") from None
    for warning in warnings:
        _err().print(f"[yellow]warning:[/yellow] {escape(warning)}")


# -- the output options ----------------------------------------------------------------------

#: The release that drops the spellings deprecated in this one.
REMOVED_IN = "0.3"

F = TypeVar("F", bound=Callable[..., Any])


def output_options(*formats: str, what: str, quiet: str | None = None) -> Callable[[F], F]:
    """``--output-format`` (one of ``formats``, the first the default; ``what`` says what each
    prints), ``-o/--output-file`` and, with its help text, ``-q/--quiet``."""
    def decorate(command: F) -> F:
        if quiet is not None:
            command = click.option("-q", "--quiet", is_flag=True, help=quiet)(command)
        command = click.option(
            "-o", "--output-file", metavar="FILE", callback=_output_file,
            help="Write the output to FILE instead of stdout.")(command)
        return click.option(
            "--output-format", type=click.Choice(formats), default=formats[0],
            show_default=True, help=what)(command)
    return decorate


def deprecated(old: str, new: str) -> None:
    """A spelling kept for a release: one warning line on stderr saying what replaces it."""
    _err().print(f"[yellow]warning:[/yellow] {old} is deprecated and will be removed in hkk "
                 f"{REMOVED_IN}: use {new}")


@contextmanager
def output_console(path: str | None) -> Iterator[Console]:
    """The console a command's text output goes to: stdout, or the ``--output-file``."""
    if path is None or path == "-":
        yield _out()
        return
    with open(path, "w", encoding="utf-8") as stream:
        yield make_console(_Console, file=stream)


def write_output(text: str, path: str | None) -> None:
    """A command's output that is not text lines (JSON, XML): on stdout, or in the file."""
    if path is None or path == "-":
        click.echo(text)
    else:
        Path(path).write_text(text + "\n", encoding="utf-8")


# -- the sets the commands see ---------------------------------------------------------------

def _discover(allow: Sequence[str] | None = None) -> Any:
    from hkk._plugin import make_plugin_manager
    from hkk._sets.discovery import discover

    return discover(allow=allow, pm=make_plugin_manager())


def _warn_failures(found: Any) -> None:
    for error in found.failures:
        _err().print(f"[yellow]warning:[/yellow] {escape(str(error))}")


# -- the core games run on (hkk._cores) -------------------------------------------------------

#: ``--core NAME`` of the commands that play games: the ``hkk.cores`` entry point to run them on.
core_option = click.option(
    "--core", "core", default="auto", show_default=True, metavar="NAME",
    help="The core that runs the games ('hkk cores' lists them): auto takes the best installed "
         "one that accepts the game, else python, and says why it fell back.")


def engine_with_core(found: Any, core: str, **options: Any) -> Any:
    """The engine of the sets ``found`` running games on ``core``; an unknown core is a usage
    error listing the installed ones."""
    from hkk._engine import Engine

    try:
        return Engine(found.cards, decks=found.decks, pm=found.pm, discovery=found, core=core,
                      **options)
    except HkkError as exc:
        raise click.BadParameter(str(exc), param_hint="--core") from None


def check_core(engine: Any, games: Sequence[Sequence[Sequence[str]]],
               said: set[str] | None = None, *, forward_model: bool = True,
               whole_games: Sequence[Sequence[Any] | None] | None = None,
               max_turns: int | None = None) -> None:
    """Each game (two card lists) on the engine's core: a named core that refuses one, or
    that has no forward model where the command needs one, is a usage error naming why;
    ``auto`` falling back to python says so on stderr, once per reason (``said``: the reasons
    said already).  ``whole_games``: the games are played whole and only their outcomes
    read (``hkk simulate``), under each of these agent pairings (None: the engine's default
    agents) and ``max_turns`` (``Engine.choose_core``)."""
    from hkk._cores import without_forward_model

    said = set() if said is None else said
    tiers = [None] if whole_games is None else whole_games
    for decks in games:
        for agents in tiers:
            try:
                choice = engine.choose_core(decks, whole_games=whole_games is not None,
                                            agents=agents, max_turns=max_turns)
            except HkkError as exc:
                raise click.BadParameter(str(exc), param_hint="--core") from None
            without = without_forward_model(choice.core) if forward_model else None
            if without is not None:
                raise click.BadParameter(without, param_hint="--core")
            fallback = choice.fallback
            if fallback is not None and fallback not in said:
                said.add(fallback)
                _err().print(f"[yellow]note:[/yellow] {escape(fallback)}")
