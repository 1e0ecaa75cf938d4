"""An ``hkk verify`` report as readable lines (rich markup), for the terminal and pytest-hkk."""

from __future__ import annotations

from typing import Any

from hkk._markup import escape


def verify_lines(report: Any, *, quiet: bool = False) -> list[str]:
    """An :class:`hkk.verify.VerifyReport` as markup lines: checks, coverage, verdict.  The same
    failure in several games is printed once, with its seeds (issue 13).  ``quiet``: only the
    failures, the warnings and the verdict."""
    lines = []
    for group in report.groups():
        check = group[0]
        if quiet and check.ok:
            continue
        mark = "[green]✓[/green]" if check.ok else \
            "[red]✗[/red]" if check.failed else "[yellow]![/yellow]"
        headline = check.headline()
        if len(group) > 1:
            seeds = ", ".join(str(c.seed) for c in group)
            headline += f" [{len(group)} games alike: seeds {seeds}]"
        lines.append(f"{mark} {escape(headline)}")
        if check.file and not check.ok:
            place = check.file if check.line is None else f"{check.file}:{check.line}"
            lines.append(f"    at [bold]{escape(place)}[/bold]")
        if check.command and not check.ok:
            lines.append(f"    reproduce: [bold]{escape(check.command)}[/bold]")
        if check.details and not check.ok:
            lines.extend(f"    [dim]{escape(line)}[/dim]" for line in check.details.splitlines())
    coverage = {} if quiet else report.coverage
    if coverage:
        lines.append("[bold]coverage[/bold]")
    for code, cov in coverage.items():
        data = cov.as_dict()
        hooks = ", ".join(f"{name} {counts['calls']} calls/{counts['with_items']} with items"
                          for name, counts in sorted(cov.hooks.items())) or "none"
        python = f", items from Python {sum(cov.python_items.values())}" \
            if cov.python_items else ""
        lines.append(f"  {code}: cards played {len(cov.played)}/{len(cov.cards)}, data "
                     f"abilities fired {len(cov.fired)}/{len(cov.abilities)}{python}; "
                     f"hooks: {hooks}")
        if data["not_played"]:
            lines.append(f"    [dim]never played: {', '.join(data['not_played'])}[/dim]")
        if data["not_fired"]:
            lines.append(f"    [dim]never fired: {', '.join(data['not_fired'])}[/dim]")
        if data["hooks_not_reached"]:
            lines.append(f"    [dim]hooks never reached: "
                         f"{', '.join(data['hooks_not_reached'])}[/dim]")
    failed = len(report.failures)
    verdict = "[bold green]OK[/bold green]" if report.ok else \
        f"[bold red]FAILED[/bold red] ({failed} failure{'s' if failed != 1 else ''})"
    lines.append(f"{verdict}: {len(report.checks)} checks, {report.games_played} games, "
                 f"{len(report.warnings)} warning(s)")
    return lines
