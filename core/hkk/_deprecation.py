"""Hook API deprecations: a hook, or one argument of it, marked with the hook-API version that
removes it, so that set authors get a release of warning (``hkk verify`` reports each set's
uses as warnings, ``hkk sets`` shows them).

Mark a spec in :mod:`hkk._hookspecs`::

    @deprecated(removed_in="2.0", instead="prep_stage2")            # the whole hook
    @deprecated(removed_in="2.0", argument="step", instead="game.log.step")
    @hookspec
    def old_hook(game, step): ...

An implementation uses a deprecated argument when it names it among its parameters (pluggy
passes only the arguments an implementation asks for).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from types import ModuleType
from typing import Any, TypeVar

import pluggy

from hkk import _hookspecs
from hkk._hookspecs import PROJECT

__all__ = ["Deprecation", "Use", "deprecated", "deprecations", "uses"]

F = TypeVar("F", bound=Callable[..., Any])
_MARK = "__hkk_deprecations__"


@dataclass(frozen=True)
class Deprecation:
    hook: str
    removed_in: str  # the hook-API version that removes it
    argument: str | None = None  # None: the whole hook
    instead: str = ""

    def describe(self) -> str:
        what = f"argument {self.argument!r} of hook {self.hook}" if self.argument \
            else f"hook {self.hook}"
        return f"{what} is deprecated, removed in hook API {self.removed_in}" + \
            (f"; use {self.instead}" if self.instead else "")


@dataclass(frozen=True)
class Use:
    """A set's implementation that uses a deprecated hook or argument."""

    deprecation: Deprecation
    implementation: str  # the function's qualified name in the set's module

    def describe(self) -> str:
        return f"{self.implementation}: {self.deprecation.describe()}"


def deprecated(removed_in: str, *, argument: str | None = None,
               instead: str = "") -> Callable[[F], F]:
    """Mark a hookspec (or one of its arguments) deprecated, to be removed in ``removed_in``."""
    def mark(spec: F) -> F:
        marks = tuple(getattr(spec, _MARK, ())) + (
            Deprecation(spec.__name__, removed_in, argument, instead),)
        setattr(spec, _MARK, marks)
        return spec
    return mark


def deprecations(specs: ModuleType = _hookspecs) -> list[Deprecation]:
    """Every deprecation marked in the hook specs."""
    found: list[Deprecation] = []
    for name in sorted(vars(specs)):
        found.extend(getattr(getattr(specs, name), _MARK, ()))
    return found


def uses(module: ModuleType | None,
         marks: Iterable[Deprecation] | None = None) -> list[Use]:
    """The deprecated hooks and arguments the hook implementations of ``module`` use."""
    if module is None:
        return []
    marks = list(deprecations() if marks is None else marks)
    if not marks:
        return []
    probe = pluggy.PluginManager(PROJECT)
    found = []
    for attr in sorted(dir(module)):
        opts = probe.parse_hookimpl_opts(module, attr)
        if opts is None:
            continue
        function = getattr(module, attr)
        hook = opts.get("specname") or attr
        try:
            params = set(inspect.signature(function).parameters)
        except (TypeError, ValueError):
            params = set()
        for mark in marks:
            if mark.hook == hook and (mark.argument is None or mark.argument in params):
                found.append(Use(mark, f"{module.__name__}.{attr}"))
    return found
