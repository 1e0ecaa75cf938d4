"""The command ``hkk agents`` (registered by :mod:`hkk.cli`): the agents of the ``hkk.agents``
entry-point group (:mod:`hkk._agent_registry`), with their options and who registered them."""

from __future__ import annotations

from typing import Any

import click
from rich.table import Table

from hkk._cli_output import _dumps, _err, _out
from hkk._errors import HkkError
from hkk._markup import escape


def agent_rows() -> tuple[list[dict[str, Any]], list[str]]:
    """One row per registered agent (name, distribution, factory, options, summary); and the
    entries not loaded, with the reason."""
    from hkk._agent_registry import agent_entries

    registry = agent_entries()
    rows, problems = [], list(registry.problems)
    for name, entry in sorted(registry.entries.items()):
        try:
            options, summary = entry.options(), entry.summary()
        except HkkError as exc:
            problems.append(str(exc))
            continue
        rows.append({"name": name, "distribution": entry.distribution, "factory": entry.value,
                     "options": {k: v for k, v in options.items()}, "summary": summary})
    return rows, problems


@click.command("agents", short_help="List the players hkk simulate can seat.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of a table.")
def agents_command(as_json: bool) -> None:
    """List the registered agents (entry-point group 'hkk.agents') and their options.

    Name one as NAME or NAME:KEY=VALUE,... in 'hkk simulate --agents A B' or '--tiers A,B'."""
    rows, problems = agent_rows()
    if as_json:
        click.echo(_dumps({"agents": rows, "problems": problems}))
        return
    table = Table(title="hkk agents (entry-point group hkk.agents)", show_edge=False)
    for column in ("name", "distribution", "options", "what it does"):
        table.add_column(column, overflow="fold", no_wrap=column == "name")
    for r in rows:
        options = ", ".join(f"{k}={v}" for k, v in r["options"].items()) or "-"
        table.add_row(escape(r["name"]), escape(r["distribution"] or "?"), escape(options),
                      escape(r["summary"]))
    _out().print(table)
    for problem in problems:
        _err().print(f"[yellow]warning:[/yellow] {escape(problem)}")
