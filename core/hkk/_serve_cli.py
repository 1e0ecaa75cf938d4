"""``hkk serve``: the command that starts the web app (:mod:`hkk._serve`) on uvicorn.

Starlette and uvicorn are the optional extra ``hkk[serve]``: playing, verifying and simulating
need no web server, and a missing one is a one-line error naming the install command.
"""

from __future__ import annotations

import ipaddress
import re
from pathlib import Path

import click
from rich.console import Console

from hkk._agent_registry import agent_entries
from hkk._cli_output import core_option
from hkk._console import make_console
from hkk._errors import HkkError
from hkk._markup import escape

#: Hosts that only this machine reaches.
LOOPBACK = {"127.0.0.1", "localhost", "::1"}


def _default_decks(engine: object) -> list[str]:
    decks = sorted(getattr(engine, "decks", {}))
    base = [name for name in decks if name.startswith("alap:")]
    names = base if len(base) >= 2 else decks
    if len(names) < 2:
        raise click.UsageError("no two decks to play with: name them with --decks")
    return names[:2]


#: A host name as RFC 1123 allows it: dot-separated labels of letters, digits and inner hyphens.
_HOST_NAME = re.compile(r"^(?!-)[A-Za-z0-9-]{1,63}(?<!-)(\.(?!-)[A-Za-z0-9-]{1,63}(?<!-))*\.?$")


def _check_host(ctx: click.Context, param: click.Parameter, value: str) -> str:
    """An IP address or a host name, checked before anything is said about who may play
    (no name is looked up: that waits for the server)."""
    try:
        ipaddress.ip_address(value)
    except ValueError:
        if len(value) > 253 or not _HOST_NAME.match(value):
            raise click.BadParameter(f"{value!r} is neither an IP address nor a host name "
                                     f"(like 127.0.0.1, ::1 or localhost)", ctx, param) from None
    return value


@click.command("serve", short_help="Play against the computer in the browser.")
@click.option("--port", type=click.IntRange(1, 65535), default=8765, show_default=True,
              help="The port to listen on.")
@click.option("--host", default="127.0.0.1", show_default=True, callback=_check_host,
              help="The address to listen on; another than 127.0.0.1 shares the game on a "
                   "network (with a warning).")
@click.option("--decks", nargs=2, metavar="A B",
              help="Your deck and the computer's, e.g. alap:tuz alap:viz; 'DECK+SET' mixes in "
                   "a set's cards.")
@click.option("--opponent", default="random", show_default=True, metavar="NAME[:K=V,...]",
              help="The computer's agent: a registered one (hkk agents lists them), e.g. greedy "
                   "or mcts:budget=200.")
@click.option("--seed", type=int, help="The first game's seed; each new game takes the next "
                                       "(default: each game's drawn from the operating system "
                                       "and shown once it is over).")
@click.option("--think-time", type=click.FloatRange(min=0.1), default=60.0, show_default=True,
              metavar="SECONDS", help="How long the computer may take between two of your "
                                      "decisions; a computer that takes longer leaves the game "
                                      "where it was.")
@click.option("--watch", is_flag=True,
              help="Reload the sets' card files when they change on disk and offer to restart "
                   "the game with the new cards.")
@click.option("--table", "table_mode", is_flag=True,
              help="Host a game two people play, each joining by his seat's link (printed), "
                   "with a link for spectators (docs/SERVE-TABLE.md).")
@click.option("--no-tokens", is_flag=True,
              help="--table: links without a secret (/t/seat1, /t/seat2, /t/watch); only on a "
                   "loopback address.")
@click.option("--saves", type=click.Path(file_okay=False, path_type=Path),
              default=Path("hkk-table-saves"), show_default=True,
              help="--table: where the table keeps its saves (they hold both hands).")
@click.option("--max-turns", type=click.IntRange(min=1), metavar="N",
              help="--table: a game still running after N turns is a draw (a short game).")
@core_option
@click.pass_context
def serve_command(ctx: click.Context, port: int, host: str, decks: tuple[str, str] | None,
                  opponent: str, seed: int | None, think_time: float, watch: bool, table_mode: bool,
                  no_tokens: bool, saves: Path, max_turns: int | None, core: str) -> None:
    """Start a local web app where you play a game against the computer (or, with --table,
    against a friend): open the address it prints in a browser.  Ctrl-C stops it."""
    from click.core import ParameterSource

    given = {name for name in ("opponent", "think_time", "watch", "no_tokens", "max_turns")
             if ctx.get_parameter_source(name) is ParameterSource.COMMANDLINE}
    if table_mode and given & {"opponent", "think_time", "watch"}:
        raise click.UsageError("--table seats two people: no --opponent, --think-time or "
                               "--watch")
    if not table_mode and given & {"no_tokens", "max_turns"}:
        raise click.UsageError("--no-tokens and --max-turns are options of --table")
    if table_mode and no_tokens and host not in LOOPBACK:
        raise click.UsageError(f"refusing to serve a table on {host} without tokens: anyone "
                               "who reaches it could take a seat; drop --no-tokens")
    try:
        import starlette  # noqa: F401
        import uvicorn
    except ImportError:
        raise click.ClickException("hkk serve needs Starlette and uvicorn: "
                                   "pip install 'hkk[serve]'") from None
    from hkk._cores import AUTO, without_forward_model
    from hkk._serve import Table, make_app
    from hkk._serve_watch import CardSets

    err: Console = make_console(stderr=True)
    try:
        sets = CardSets(core=core)
        without = without_forward_model(sets.engine.registry().get(core)) \
            if core != AUTO else None
    except HkkError as exc:
        raise click.BadParameter(str(exc), param_hint="--core") from None
    if without is not None:  # the page answers the game through its forward model
        raise click.BadParameter(without, param_hint="--core")
    for line in sets.errors:
        err.print(f"[yellow]warning:[/yellow] {escape(line)}")
    names = list(decks) if decks else _default_decks(sets.engine)
    if table_mode:
        from hkk._serve_table import run_table

        run_table(sets, names, host=host, port=port, seed=seed, save_dir=saves,
                  open_links=no_tokens, max_turns=max_turns)
        return
    try:
        maker = agent_entries().factory(opponent)  # the spec checked once, here
        maker(0)  # and its options: a factory that refuses them, refuses them here
    except HkkError as exc:
        raise click.BadParameter(str(exc), param_hint="--opponent") from None
    try:
        # the agent's seed is drawn from the operating system: the page cannot foresee it
        table = Table(sets, names, opponent, lambda agent_seed, seat: maker(agent_seed),
                      seed=seed, watch=watch, think_limit=think_time)
    except HkkError as exc:
        raise click.BadParameter(str(exc), param_hint="--decks") from None
    if host not in LOOPBACK:
        err.print(f"[yellow]warning:[/yellow] serving on {escape(host)}: anyone who can reach "
                  f"this machine on port {port} can play this game; there is no login")
    shown = f"[{host}]" if ":" in host else host
    make_console().print(f"hkk serve: http://{shown}:{port}/ ({' vs '.join(names)}, "
                         f"opponent {opponent}{', watching the card files' if watch else ''}); "
                         "Ctrl-C stops it")
    uvicorn.run(make_app(table, host=host), host=host, port=port, log_level="warning")
