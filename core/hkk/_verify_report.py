"""What ``hkk verify`` found, and its output formats: :class:`Check`, :class:`Coverage`,
:class:`VerifyReport` (as a dict for ``--json``, as JUnit XML) and GitHub annotations.  The
report as terminal lines is :func:`hkk._verify_text.verify_lines`."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any


@dataclass
class Check:
    """One check's outcome.  ``ok=False`` with ``severity="warning"`` does not fail the run."""

    name: str
    target: str  # a set code, or "all" for the run with every set
    ok: bool
    message: str = ""
    severity: str = "error"
    set_code: str | None = None
    card: str | None = None
    seed: int | None = None
    command: str | None = None
    details: str = ""
    #: Where in the author's files it broke (a set's own frame), for annotations and JUnit.
    file: str | None = None
    line: int | None = None
    #: Seconds the check took (the games of a run, one failing game).
    time: float = 0.0
    #: What makes two failures "the same" (grouped in the output, seeds listed).
    signature: str = ""

    @property
    def failed(self) -> bool:
        return not self.ok and self.severity == "error"

    def headline(self) -> str:
        parts = [f"{self.name} [{self.target}]"]
        if self.set_code and self.set_code != self.target:
            parts.append(f"set {self.set_code}")
        if self.card:
            parts.append(f"card {self.card}")
        if self.seed is not None:
            parts.append(f"seed {self.seed}")
        return ", ".join(parts) + (f": {self.message}" if self.message else "")


@dataclass
class Coverage:
    code: str
    cards: list[str] = field(default_factory=list)
    played: set[str] = field(default_factory=set)
    abilities: list[tuple[str, int]] = field(default_factory=list)
    fired: set[tuple[str, int]] = field(default_factory=set)
    hooks: dict[str, dict[str, int]] = field(default_factory=dict)  # name -> calls, with_items
    #: Items of the set's cards that are not a data ability (made by its Python hooks), by
    #: label: counted apart, so "abilities fired" compares like with like (issue 13).
    python_items: dict[str, int] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        return {
            "cards": len(self.cards), "played": sorted(self.played),
            "not_played": [c for c in self.cards if c not in self.played],
            "abilities": len(self.abilities),
            "fired": [f"{c}:{i}" for c, i in sorted(self.fired)],
            "not_fired": [f"{c}:{i}" for c, i in self.abilities if (c, i) not in self.fired],
            "python_items": dict(sorted(self.python_items.items())),
            "hooks": self.hooks,
            "hooks_not_reached": sorted(h for h, n in self.hooks.items() if not n["calls"]),
        }


@dataclass
class VerifyReport:
    checks: list[Check] = field(default_factory=list)
    coverage: dict[str, Coverage] = field(default_factory=dict)
    games_played: int = 0

    @property
    def ok(self) -> bool:
        return not any(c.failed for c in self.checks)

    @property
    def failures(self) -> list[Check]:
        return [c for c in self.checks if c.failed]

    @property
    def warnings(self) -> list[Check]:
        return [c for c in self.checks if not c.ok and c.severity == "warning"]

    def as_dict(self) -> dict[str, Any]:
        return {"ok": self.ok, "games_played": self.games_played,
                "checks": [_check_dict(c) for c in self.checks],
                "coverage": {code: cov.as_dict() for code, cov in self.coverage.items()}}

    def groups(self) -> list[list[Check]]:
        """The checks, the same failure in several games (equal :attr:`Check.signature`)
        together, in the order of their first occurrence."""
        grouped: dict[Any, list[Check]] = {}
        for i, check in enumerate(self.checks):
            key = (check.name, check.target, check.signature) if check.signature and \
                not check.ok else i
            grouped.setdefault(key, []).append(check)
        return list(grouped.values())

    def junit_xml(self) -> str:
        """The checks as a JUnit XML test suite (CI systems display these): ``time`` on the
        suite and each case, ``file``/``line`` on a case that broke in a set's own file."""
        import xml.etree.ElementTree as ET

        suite = ET.Element("testsuite", name="hkk-verify", tests=str(len(self.checks)),
                           failures=str(len(self.failures)), errors="0", skipped="0",
                           time=f"{sum(c.time for c in self.checks):.3f}")
        for check in self.checks:
            name = check.name + (f"[seed {check.seed}]" if check.seed is not None else "")
            case = ET.SubElement(suite, "testcase", classname=f"hkk.verify.{check.target}",
                                 name=name, time=f"{check.time:.3f}")
            if check.file:
                case.set("file", check.file)
                if check.line is not None:
                    case.set("line", str(check.line))
            if check.failed:
                failure = ET.SubElement(case, "failure", message=check.headline())
                failure.text = "\n".join(filter(None, [
                    check.headline(),
                    f"reproduce: {check.command}" if check.command else "", check.details]))
            elif not check.ok:
                out = ET.SubElement(case, "system-out")
                out.text = "warning: " + check.headline()
        return ET.tostring(suite, encoding="unicode", xml_declaration=True)


def _check_dict(check: Check) -> dict[str, Any]:
    data = asdict(check)
    data["status"] = "passed" if check.ok else "failed" if check.failed else "warning"
    if check.ok:
        data["severity"] = None  # a passing check is no error (issue 13)
    return data


def github_annotations(report: VerifyReport) -> list[str]:
    """Failures and warnings as GitHub Actions workflow commands (``::error file=…,line=…::``,
    as ruff prints them), one per group of the same failure, its seeds listed."""
    lines = []
    for group in report.groups():
        check = group[0]
        if check.ok:
            continue
        level = "error" if check.failed else "warning"
        props = {}
        if check.file:
            props["file"] = check.file
            if check.line is not None:
                props["line"] = str(check.line)
        props["title"] = f"hkk verify: {check.name} [{check.target}]"
        text = check.message
        seeds = [c.seed for c in group if c.seed is not None]
        if seeds:
            text += f" (seeds {', '.join(map(str, seeds))})"
        if check.command:
            text += f"\nreproduce: {check.command}"
        shown = ",".join(f"{key}={_escape_property(value)}" for key, value in props.items())
        lines.append(f"::{level} {shown}::{_escape_data(text)}")
    return lines


def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")

