"""Hook API deprecations: a hook, or one argument of it, marked with the hook-API version that
removes it, so that set authors get a release of warning.  The marks are pluggy's own spec
options, ``warn_on_impl`` and ``warn_on_impl_args``: registering an implementation that uses a
deprecated hook or argument warns (a :class:`HookDeprecationWarning`, from pluggy, pointing at
the implementation), and ``hkk verify`` and ``hkk sets`` report each set's uses.

Mark a spec in :mod:`hkk._hookspecs`, above ``@hookspec`` (whose options it adds to)::

    @deprecated(removed_in="2.0", instead="prep_stage2")            # the whole hook
    @deprecated(removed_in="2.0", argument="step", instead="game.log.step")
    @hookspec
    def old_hook(game, step): ...

An implementation uses a deprecated argument when it names it among its parameters (pluggy
passes only the arguments an implementation asks for).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from types import ModuleType
from typing import Any, TypeVar

import pluggy

from hkk import _hookspecs
from hkk._hookcall import varnames  # how pluggy reads an implementation's parameters
from hkk._hookspecs import PROJECT

__all__ = ["Deprecation", "HookDeprecationWarning", "Use", "deprecated", "deprecations", "uses"]

F = TypeVar("F", bound=Callable[..., Any])
_SPEC = PROJECT + "_spec"  # where pluggy's hookspec marker keeps a spec's options


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


class HookDeprecationWarning(DeprecationWarning):
    """What pluggy warns with when an implementation of a deprecated hook (or one naming a
    deprecated argument) is registered; ``deprecation`` says which."""

    def __init__(self, deprecation: Deprecation) -> None:
        super().__init__(deprecation.describe())
        self.deprecation = deprecation


@dataclass(frozen=True)
class Use:
    """A set's implementation that uses a deprecated hook or argument."""

    deprecation: Deprecation
    implementation: str  # the function's qualified name in the set's module

    def describe(self) -> str:
        return f"{self.implementation}: {self.deprecation.describe()}"


def deprecated(removed_in: str, *, argument: str | None = None,
               instead: str = "") -> Callable[[F], F]:
    """Mark a hookspec (or one of its arguments) deprecated, to be removed in ``removed_in``:
    pluggy's ``warn_on_impl`` (``warn_on_impl_args`` for an argument) in its spec options."""
    def mark(spec: F) -> F:
        opts = getattr(spec, _SPEC, None)
        if opts is None:
            raise TypeError(f"@deprecated goes above @hookspec (on {spec.__name__})")
        warning = HookDeprecationWarning(Deprecation(spec.__name__, removed_in, argument,
                                                     instead))
        if argument is None:
            opts["warn_on_impl"] = warning
        else:
            opts["warn_on_impl_args"] = {**(opts.get("warn_on_impl_args") or {}),
                                         argument: warning}
        return spec
    return mark


def _marks(spec: Any) -> list[Deprecation]:
    """The deprecations in a spec's options: the whole hook's first, then its arguments'."""
    opts = getattr(spec, _SPEC, None)
    if not isinstance(opts, dict):
        return []
    warnings = [opts.get("warn_on_impl"), *(opts.get("warn_on_impl_args") or {}).values()]
    return [w.deprecation for w in warnings if isinstance(w, HookDeprecationWarning)]


def deprecations(specs: ModuleType = _hookspecs) -> list[Deprecation]:
    """Every deprecation marked in the hook specs."""
    found: list[Deprecation] = []
    for name in sorted(vars(specs)):
        found.extend(_marks(getattr(specs, name)))
    return found


def uses(module: ModuleType | None,
         marks: Iterable[Deprecation] | None = None) -> list[Use]:
    """The deprecated hooks and arguments the hook implementations of ``module`` use, by
    pluggy's rule: an implementation of the hook, or one whose parameters (pluggy's
    ``argnames`` and ``kwargnames``) name the argument."""
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
        argnames, kwargnames = varnames(function)
        params = set(argnames) | set(kwargnames)
        for mark in marks:
            if mark.hook == hook and (mark.argument is None or mark.argument in params):
                found.append(Use(mark, f"{module.__name__}.{attr}"))
    return found
