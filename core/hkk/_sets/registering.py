"""Discovery stage 4, register: each set's module with the plugin manager, refusing
hook names no spec knows (see :mod:`hkk._sets.discovery`)."""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from types import ModuleType

import pluggy

from hkk._errors import SetError
from hkk._sets.checking import _failed_dependency, dependency_order
from hkk._sets.model import LoadedSet, _fail

# -- stage 4: register -------------------------------------------------------------------------

def _unknown_hooks(pm: pluggy.PluginManager, module: ModuleType) -> list[str]:
    unknown = []
    for caller in pm.get_hookcallers(module) or ():
        if not caller.has_spec() and any(impl.plugin is module and not impl.optionalhook
                                         for impl in caller.get_hookimpls()):
            unknown.append(caller.name)
    return sorted(unknown)


def _spec_names(pm: pluggy.PluginManager) -> list[str]:
    return [name for name, caller in vars(pm.hook).items()
            if not name.startswith("_") and caller.has_spec()]


def register(pm: pluggy.PluginManager, loaded_sets: Iterable[LoadedSet], *,
             failures: list[SetError] | None = None) -> list[LoadedSet]:
    """Register each set's module as ``hkk.sets.<code>`` (data-only sets register nothing),
    dependencies first, then by code.  A set with a hook name no spec knows, or a hookimpl
    pluggy rejects, fails at stage "register" and is unregistered again.  Returns the sets now
    usable, in order.  Ends with ``pm.check_pending()`` for whatever else is registered."""
    result: list[LoadedSet] = []
    failed: set[str] = set()
    for s in dependency_order(loaded_sets):
        dep = _failed_dependency(s, failed)
        if dep is not None:
            failed.add(s.code)
            _fail(failures, s.error(f"depends on set {dep}, which failed at stage register",
                                    "register"))
            continue
        if s.has_hooks and s.module is not None:
            try:
                pm.register(s.module, name=s.plugin_name)
            except pluggy.PluginValidationError as exc:
                failed.add(s.code)
                _fail(failures, s.error(f"invalid hookimpl: {exc}", "register"))
                continue
            except ValueError as exc:  # already registered, e.g. a second discover() into pm
                failed.add(s.code)
                _fail(failures, s.error(f"cannot register: {exc}", "register"))
                continue
            unknown = _unknown_hooks(pm, s.module)
            if unknown:
                pm.unregister(name=s.plugin_name)
                failed.add(s.code)
                hints = []
                for name in unknown:
                    close = difflib.get_close_matches(name, _spec_names(pm), n=1)
                    hints.append(f"{name!r}" + (f" (did you mean {close[0]!r}?)" if close else ""))
                _fail(failures, s.error(f"unknown hook {', '.join(hints)}", "register"))
                continue
        result.append(s)
    pm.check_pending()
    return result
