"""A person plays at the terminal: ``hkk play --human 1`` (or ``2``, or ``both`` at one screen).

A driver on the forward model (``game.decision`` / ``game.answer``): the person's seats are
answered from outside, the opponent's seat holds an agent, so the game runs on by itself up to
the person's next decision.  There it shows what happened since (the event lines of
``hkk play``, with their rule points), the board as the deciding player may know it
(:mod:`hkk._board`, from ``game.view(player)``: never the opponent's hand) and the options,
numbered, and reads one line:

- a number answers; ``?`` shows the texts of the cards in play and in his hand;
- ``u`` takes back the last decision made at this table: the game kept before it (a clone) is
  the game again, exactly as it was;
- ``s FILE`` saves the game at this decision (``hkk play --load FILE`` goes on from it);
- ``a`` turns answering lone options by themselves off (or on again);
- ``q`` (or the end of the input) stops.

A decision that offers one option only (a lone ``pass``, ``no block``) is answered by itself,
shown as one line, unless ``--no-auto-answer`` (or ``a``) turns that off; such an answer is not
kept for ``u``, which takes back the last decision that offered a choice.

Anything else gets one line saying what is understood, and the same decision again.  Input may
be piped, a line per answer, for scripts.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

import click

from hkk._agent_registry import agent_seed
from hkk._agent_registry import make_agent as registry_make_agent
from hkk._board import (
    board_data,
    board_lines,
    card_text_lines,
    decision_data,
    decision_lines,
    readable,
)
from hkk._errors import HkkError
from hkk._event_text import EventRenderer
from hkk._markup import escape

if TYPE_CHECKING:
    from rich.console import Console

    from hkk._engine import Engine
    from hkk._protocol import ForwardModel

__all__ = ["Command", "HELP", "TerminalTable", "make_agent", "parse_command",
           "play_at_terminal", "play_saved", "seats"]

HELP = "a number answers · ? card texts · u take back · s FILE save · a lone options · q quit"


# -- what a line of input says -------------------------------------------------------------------

@dataclass(frozen=True)
class Command:
    """One line of input understood: ``answer`` (with the option's ``index``, from 0),
    ``cards``, ``undo``, ``save`` (with ``path``), ``auto`` (lone options answered by
    themselves, or not), ``quit``, or ``bad`` (with ``message``)."""

    kind: str
    index: int | None = None
    path: str | None = None
    message: str | None = None


def parse_command(line: str, count: int) -> Command:
    """What ``line`` asks of a decision with ``count`` options (numbered 1 to ``count``)."""
    text = line.strip()
    if text.isdigit():
        number = int(text)
        if 1 <= number <= count:
            return Command("answer", index=number - 1)
        return Command("bad", message=f"no option {number}: choose 1-{count} ({HELP})")
    word, _, rest = text.partition(" ")
    if text == "?":
        return Command("cards")
    if text == "u":
        return Command("undo")
    if text == "q":
        return Command("quit")
    if text == "a":
        return Command("auto")
    if word == "s":
        if not rest.strip():
            return Command("bad", message="s needs a file: s FILE")
        return Command("save", path=rest.strip())
    shown = text if len(text) <= 20 else text[:20] + "…"
    said = f"{shown!r} is not understood" if text else "nothing typed"
    return Command("bad", message=f"{said}: choose 1-{count} ({HELP})")


# -- the opponent --------------------------------------------------------------------------------

def make_agent(spec: str, seed: int | None = None) -> Any:
    """The agent ``spec`` names (``--opponent``: the agents registry's spec, ``hkk agents``
    lists them), seeded with ``seed`` (its own RNG, not the game's, which the forward model's
    re-runs of a step would not draw from the same way); a usage error says what is wrong."""
    try:
        return registry_make_agent(spec, seed)
    except HkkError as exc:
        raise click.BadParameter(str(exc), param_hint="--opponent") from None


def seats(human: str) -> set[int]:
    """``--human 1`` / ``2`` / ``both`` -> the player indexes the person answers for."""
    return {0, 1} if human == "both" else {int(human) - 1}


# -- the table: the loop -------------------------------------------------------------------------

class TerminalTable:
    """Plays ``game`` with the person at ``humans`` (player indexes) answering from ``input``
    and everything shown on ``out``; ``auto``: a decision with one option is answered by
    itself.  ``run()`` returns how it ended: ``"over"`` (the game ended), ``"quit"`` (``q``) or
    ``"eof"`` (the input ended)."""

    def __init__(self, game: ForwardModel, humans: set[int], out: Console, input: IO[str],
                 *, auto: bool = True) -> None:
        self.game = game
        self.auto = auto
        self.humans = humans
        self.out = out
        self.input = input
        seen = game.view(0)  # what everybody sees: the names and the cards
        self.names = [p.name for p in seen.players]
        self.cards = seen.cards
        self.renderer = EventRenderer(self.cards, self.names, quiet_checks=True)
        #: Before each answer, the game as it was (``u`` takes it back): clones, last on top.
        self.history: list[ForwardModel] = []
        self.shown = 0  # events of the log already turned into lines
        self.echo = not _is_terminal(input)  # piped input: show what was answered
        self._skip_to_this_turn()

    def _skip_to_this_turn(self) -> None:
        """A game loaded in its middle: only the current turn's events are shown; the earlier
        ones only teach the renderer which uid is which card."""
        log = list(self._log(min(self.humans)))
        starts = [i for i, e in enumerate(log) if e.kind == "turn_started"]
        start = starts[-1] if starts else 0
        for event in log[:start]:
            self.renderer.line(event)
        self.shown = start

    def _log(self, player: int) -> Sequence[Any]:
        log: Sequence[Any] = self.game.view(player).log
        return log

    def _show_events(self, player: int) -> None:
        log = self._log(player)
        for event in list(log)[self.shown:]:
            line = self.renderer.line(event)
            if line is not None:
                self.out.print(line)
        self.shown = len(log)

    def _show_decision(self, decision: Any) -> None:
        view = self.game.view(decision.player)
        # a rule as wide as the terminal, but not as a pipe's 1000 columns
        self.out.print("[dim]" + "─" * min(self.out.width, 100) + "[/dim]")
        for line in board_lines(board_data(view)):
            self.out.print(line)
        for line in decision_lines(decision_data(decision, self.cards), self.names):
            self.out.print(line)

    def _read(self, player: int) -> str | None:
        self.out.print(f"[bold]{escape(self.names[player])}>[/bold] ", end="")
        self.out.file.flush()
        line = self.input.readline()
        if not line:
            self.out.print()
            return None
        if self.echo:
            self.out.print(escape(line.rstrip("\n")))
        return line

    def run(self) -> str:
        while True:
            decision = self.game.decision
            if decision is None:  # over: the last events, from the person's seat
                self._show_events(min(self.humans))
                return "over"
            self._show_events(decision.player)
            if self.auto and len(decision.options) == 1:
                self._answer_lone(decision)
                continue
            self._show_decision(decision)
            while True:
                line = self._read(decision.player)
                if line is None:
                    return "eof"
                command = parse_command(line, len(decision.options))
                if command.kind == "answer" and command.index is not None:
                    self.history.append(self.game.clone())
                    self.game.answer(command.index)
                    break
                if command.kind == "quit":
                    return "quit"
                if command.kind == "auto":
                    self.auto = not self.auto
                    self.out.print("lone options are now " + (
                        "answered by themselves" if self.auto else "asked (a turns it back)"))
                    if self.auto and len(decision.options) == 1:
                        break  # this one too
                    continue
                if command.kind == "undo" and self.history:
                    self.game = self.history.pop()  # a clone at the decision before
                    while self.auto and self.history and self._lone():
                        self.game = self.history.pop()  # a lone one would be answered again
                    self.shown = len(self._log(decision.player))  # its events were shown
                    self.out.print("[yellow]taken back[/yellow]: the decision before, as it was")
                    break
                self._answer_aside(command, decision)

    def _lone(self) -> bool:
        decision = self.game.decision
        return decision is not None and len(decision.options) == 1

    def _answer_lone(self, decision: Any) -> None:
        """The one option, answered and said in a line (not kept for ``u``: taking it back
        would only answer it again)."""
        label = readable(decision.options[0].label, self.cards)
        self.out.print(f"[dim]{escape(self.names[decision.player])} {escape(decision.kind)}: "
                       f"{escape(label)} (the only option; a: ask for these)[/dim]")
        self.game.answer(0)

    def _answer_aside(self, command: Command, decision: Any) -> None:
        """What does not leave the decision: card texts, a save, a message."""
        if command.kind == "cards":
            for line in card_text_lines(self.game.view(decision.player)):
                self.out.print(line)
        elif command.kind == "undo":
            self.out.print("[yellow]nothing to take back[/yellow]: no decision made yet")
        elif command.kind == "save" and command.path is not None:
            try:
                write_save(self.game, command.path)
            except OSError as exc:
                self.out.print(f"[red]not saved[/red]: {escape(str(exc))}")
            else:
                self.out.print(f"saved to {escape(command.path)} (hkk play --load "
                               f"{escape(command.path)} goes on from here)")
        else:
            self.out.print(f"[yellow]{escape(command.message or HELP)}[/yellow]")


def _is_terminal(stream: IO[str]) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def write_save(game: ForwardModel, path: str) -> None:
    Path(path).write_text(json.dumps(game.save(), ensure_ascii=False) + "\n", encoding="utf-8")


# -- the commands: hkk play --human, hkk play --load ---------------------------------------------

def play_at_terminal(engine: Engine, decks: Sequence[Sequence[str]], seed: int, rulings: Any,
                     human: str, opponent: str, save_file: str | None, *,
                     auto: bool = True) -> None:
    """``hkk play --human N``: the game of ``hkk play``'s decks, seed and rulings, on the
    engine's core, with the person at his seats and the ``opponent`` agent at the other."""
    _refuse_flags(("json_file", "html_file", "quiet", "output_format", "output_file", "save_at",
                   "agent_specs"),
                  "--human")
    humans = seats(human)
    agents = [None if seat in humans else make_agent(opponent, agent_seed(seed, seat))
              for seat in range(2)]
    _play(engine.start(decks, agents, seed=seed, rulings=rulings), humans, save_file, auto)


def play_saved(load_file: str, human: str | None, opponent: str, save_file: str | None, *,
               auto: bool = True) -> None:
    """``hkk play --load FILE``: the saved game goes on at its decision."""
    from hkk._engine import Engine
    from hkk._saving import SaveError, load_game, parse_save

    _refuse_flags(("decks", "set_codes", "seed", "max_turns", "format_name", "json_file",
                   "html_file", "quiet", "output_format", "output_file", "save_at", "agent_specs"),
                  "--load (the save holds the game)")
    try:
        save = parse_save(Path(load_file).read_bytes())
        # without --human: the seats the save says were answered from outside (the person's)
        outside = {i for i, agent in enumerate(save.agents) if agent.kind == "outside"}
        humans = seats(human) if human else outside or {0}
        agents = [None if seat in humans else make_agent(opponent, agent_seed(save.seed, seat))
                  for seat in range(2)]
        engine = Engine.installed(allow=list(save.sets))
        game = load_game(engine, save, agents)  # type: ignore[arg-type]
    except SaveError as exc:  # not a save, or one of other versions: said like hkk replay
        raise click.BadParameter(f"{load_file}: {exc}", param_hint="--load") from None
    _play(game, humans, save_file, auto)


def _refuse_flags(names: Sequence[str], mode: str) -> None:
    """A usage error for flags of ``hkk play`` given that do not go with ``mode``."""
    from click.core import ParameterSource

    ctx = click.get_current_context(silent=True)
    if ctx is None:
        return
    given = [param.opts[-1] for param in ctx.command.params if param.name in names
             and ctx.get_parameter_source(param.name) not in (None, ParameterSource.DEFAULT)]
    if given:
        raise click.UsageError(f"{', '.join(given)} cannot be used with {mode}")


def _play(game: ForwardModel, humans: set[int], save_file: str | None, auto: bool) -> None:
    from hkk._cli_output import _out

    out = _out()
    table = TerminalTable(game, humans, out, sys.stdin, auto=auto)
    you = " and ".join(table.names[i] for i in sorted(humans))
    out.print(f"You play {you}. [dim]Numbers in brackets are the rule points applied; "
              f"{HELP}.[/dim]")
    ended = table.run()
    game = table.game
    if ended == "over":
        winner = "a draw" if game.winner is None else f"{table.names[game.winner]} wins"
        out.print(f"[bold]Game over[/bold]: {winner} after {game.turn} turns")
    else:
        why = "input ended" if ended == "eof" else "you stopped"
        out.print(f"[yellow]{why}[/yellow] at a decision in turn {game.turn}: the game stops "
                  "here")
    if save_file:
        write_save(game, save_file)
        out.print(f"saved to {escape(save_file)}: hkk replay {escape(save_file)} plays it "
                  f"again" + ("" if ended == "over" else
                              f"; hkk play --load {escape(save_file)} goes on"))
