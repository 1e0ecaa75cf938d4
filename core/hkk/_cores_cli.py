"""The command ``hkk cores`` (registered by :mod:`hkk.cli`): the cores of the ``hkk.cores``
entry-point group (:mod:`hkk._cores`), which of them ``--core auto`` tries, and who registered
them."""

from __future__ import annotations

from typing import Any

import click
from rich.table import Table

from hkk._cli_output import _dumps, _err, _out
from hkk._cores import WHOLE_GAMES
from hkk._errors import HkkError
from hkk._markup import escape


def core_rows() -> tuple[list[dict[str, Any]], list[str]]:
    """One row per registered core (name, distribution, object, whether ``auto`` tries it);
    and the entries not loaded, with the reason."""
    from hkk._cores import core_entries

    registry = core_entries()
    rows, problems = [], list(registry.problems)
    for name in registry.names():
        entry = registry.entries[name]
        try:
            core = registry.get(name)
        except HkkError as exc:
            problems.append(str(exc))
            continue
        auto = getattr(core, "auto", False)  # True, False or "whole-games" (hkk._cores)
        rows.append({"name": name, "distribution": entry.distribution, "object": entry.value,
                     "auto": auto if auto == WHOLE_GAMES else bool(auto) or name == "python"})
    return rows, problems


@click.command("cores", short_help="List the cores that can run games.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of a table.")
def cores_command(as_json: bool) -> None:
    """List the registered cores (entry-point group 'hkk.cores').

    Name one with --core NAME in 'hkk play', 'simulate', 'verify' and 'serve'; --core auto
    (the default) takes the first core marked auto that accepts the game, else python (a
    core marked auto "for whole games" only for 'hkk simulate')."""
    rows, problems = core_rows()
    if as_json:
        click.echo(_dumps({"cores": rows, "problems": problems}))
        return
    table = Table(title="hkk cores (entry-point group hkk.cores)", show_edge=False)
    for column in ("name", "distribution", "object", "auto"):
        table.add_column(column, overflow="fold", no_wrap=column == "name")
    for r in rows:
        table.add_row(escape(r["name"]), escape(r["distribution"] or "?"), escape(r["object"]),
                      "for whole games" if r["auto"] == WHOLE_GAMES else
                      "yes" if r["auto"] else "no")
    _out().print(table)
    for problem in problems:
        _err().print(f"[yellow]warning:[/yellow] {escape(problem)}")
