"""``hkk replay FILE``: play a saved game again with its recorded decisions, check every event,
and check that the saved state is where they lead (issue 24 item 2)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import click

from hkk._cli_output import EXIT_FAILED, EXIT_USAGE, _discover, _err, _out
from hkk._errors import HkkError
from hkk._markup import escape

__all__ = ["replay_command"]


@click.command("replay", short_help="Replay a saved game and check every event.")
@click.argument("file", type=click.Path(exists=True, dir_okay=False))
@click.option("--force", is_flag=True,
              help="Replay even if the save was made with other engine or set versions.")
def replay_command(file: str, force: bool) -> None:
    """Play a game saved by 'hkk play --save FILE' again with its recorded decisions and check
    every event.  Exit code 1 at the first event that differs."""
    from hkk._engine import Engine
    from hkk._replay import replay
    from hkk._saving import SaveError, parse_save, version_mismatches

    err = _err()
    if _is_event_log(Path(file)):
        err.print(f"[red]error:[/red] {escape(file)} is a game's event log (hkk play --json), "
                  "not a save: replay a file written by hkk play --save FILE")
        sys.exit(EXIT_USAGE)
    try:
        save = parse_save(Path(file).read_bytes())
    except SaveError as exc:
        err.print(f"[red]error:[/red] {escape(file)}: {escape(str(exc))}")
        sys.exit(EXIT_USAGE)
    found = _discover(list(save.sets))
    engine = Engine(found.cards, decks=found.decks, pm=found.pm, discovery=found)
    problems = version_mismatches(engine, save)
    if problems and not force:
        err.print(f"[red]refused:[/red] {escape(file)} was made with other versions "
                  f"(saved vs installed): {escape('; '.join(problems))}; --force tries anyway")
        sys.exit(EXIT_USAGE)
    if problems:
        err.print(f"[yellow]warning:[/yellow] other versions (saved vs installed): "
                  f"{escape('; '.join(problems))}")
    try:
        result = replay(engine, save)
    except HkkError as exc:  # e.g. the save's cards are not installed (--force)
        err.print(f"[red]error:[/red] {escape(str(exc))}")
        sys.exit(EXIT_FAILED)
    out = _out()
    if result.ok:
        out.print(f"[green]OK[/green]: {result.events} events replayed, all as recorded, and "
                  "the saved state is where they lead")
        return
    d = result.divergence
    if d is None:  # the log replays, the state beside it does not follow from it
        out.print(f"[red]state differs[/red]: {result.events} events replayed as recorded, but "
                  f"the saved state is not where they lead: {escape(str(result.state_difference))}")
        sys.exit(EXIT_FAILED)
    out.print(f"[red]diverged[/red] at event {d.index} (after {result.events} identical):")
    out.print(f"  expected: {escape(_event_text(d.expected, 'nothing (the log ends here)'))}")
    out.print(f"  got:      {escape(_event_text(d.got, 'nothing (the game ended)'))}")
    sys.exit(EXIT_FAILED)




def _is_event_log(path: Path) -> bool:
    """Whether ``path`` holds what ``hkk play --json`` writes: a JSON list of events."""
    try:
        with path.open("rb") as stream:
            start = stream.read(64).lstrip()
    except OSError:
        return False
    return start.startswith(b"[") and b'"seq"' in start


def _event_text(event: Any, none: str) -> str:
    if event is None:
        return none
    return event if isinstance(event, str) else json.dumps(event, ensure_ascii=False)


# -- verify --------------------------------------------------------------------------------------
