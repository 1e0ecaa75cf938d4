"""The one way the engine calls a hook's implementations.

The engine calls implementations one by one, not through pluggy's ``pm.hook.X(...)`` loop, so
that whatever a set's code does is reported naming the set, hook, card and rule, and so that
the hot path stays short.  :func:`call` does that for every hook: it reads the implementations
(once per game: plugins registered after a game started do not join it halfway through a
turn), calls each, checks the type of what it returned and wraps any exception of a set's code
(``sys.exit()`` included) in a :class:`~hkk.HookError`.

Because pluggy's ``add_hookcall_monitoring`` sees only calls made through ``pm.hook``, observers
subscribe here instead: ``engine.hook_observers.append(fn)``, where
``fn(hook_name, plugin_name, result)`` is called after every implementation returns (coverage,
tracing).  With no observer the list costs one truth test per call.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from operator import itemgetter
from typing import TYPE_CHECKING, Any, TypeVar

from hkk._errors import PASSTHROUGH, HookError, Interrupted, plugin_set
from hkk._pending import Lethal, Pending
from hkk._state import Permanent

if TYPE_CHECKING:
    from pluggy import HookImpl

__all__ = ["HookObserver", "call", "expect_anything", "expect_count", "expect_dict",
           "expect_lethal", "expect_pending", "expect_player", "failure", "first",
           "implementations", "notify", "only_in_steps"]

#: ``fn(hook_name, plugin_name, result)``: told of every implementation's result.
HookObserver = Callable[[str, str, Any], None]

#: Checks one implementation's non-empty result; returns the complaint ("returned …;
#: expected …") or None when the result is what the hook promises.
Expectation = Callable[[Any], "str | None"]


def implementations(game: Any, hook_name: str) -> list[HookImpl]:
    """The hook's implementations as this game first saw them."""
    impls = game.hook_impls.get(hook_name)
    if impls is None:
        impls = game.hook_impls[hook_name] = getattr(game.hook, hook_name).get_hookimpls()
    return impls


F = TypeVar("F", bound=Callable[..., Any])


def only_in_steps(applies: Callable[[Any, str], bool]) -> Callable[[F], F]:
    """Mark a hook implementation that returns nothing unless ``applies(step, hook_name)``
    holds for the step running (``game.step``, None between steps): the engine may then leave
    it uncalled in other steps.  Only a promise about its result: it is called as before
    wherever it could return something, and whenever hook observers watch (they see every
    call).  Built-in rules use it for implementations of every turn hook that serve only some
    steps (``hand_play``: action steps)."""
    def mark(function: F) -> F:
        function.hkk_applies = applies  # type: ignore[attr-defined]
        return function
    return mark


def call(hook_name: str, impls: Sequence[HookImpl], kwargs: dict[str, Any],
         expect: Expectation, observers: Sequence[HookObserver], *, game: Any = None,
         rule: str | None = None, with_plugins: bool = False,
         firstresult: bool = False) -> list[Any]:
    """Call every implementation with the arguments it asks for (a subset of ``kwargs``) and
    return their non-empty results, in call order (``(plugin name, result)`` pairs with
    ``with_plugins``).  ``game`` (None for hooks called outside a game) says where an
    interruption happened; ``rule`` is named in a HookError.  With ``firstresult`` the calls
    stop at the first result that is not None, which is returned alone (as pluggy's
    ``firstresult`` hooks do)."""
    results = []
    if not (observers or firstresult or with_plugins or game is None):
        # The hot path, in a game nobody observes: the same results, from the
        # implementations that may contribute in the step running (only_in_steps), each
        # called through the plan made for it (_plan).
        step = game.step
        plan = game.hook_plans.get(hook_name)
        if plan is None or plan[0] is not impls or (plan[1] is not step
                                                    and plan[1] is not _ANY_STEP):
            plan = game.hook_plans[hook_name] = _plan(hook_name, impls, step)
        for function, getter, impl, checked in plan[2]:
            try:
                result = function(game) if getter is None else function(*getter(kwargs))
            except PASSTHROUGH:
                raise
            except (Exception, KeyboardInterrupt, SystemExit) as exc:  # a set may raise it
                raise _raised(exc, game, hook_name, impl, rule) from exc
            if result:
                if checked:  # a plugin's result is checked at the boundary, as below
                    complaint = expect(result)
                    if complaint is not None:
                        raise _wrong_result(complaint, game, hook_name, impl, rule)
                results.append(result)
        return results
    for impl in impls:
        argnames = impl.argnames
        try:
            if argnames == ("game",):  # the common case, without building arguments
                result = impl.function(game)
            else:
                result = impl.function(*(_GETTERS.get(argnames) or _getter(argnames))(kwargs))
        except PASSTHROUGH:
            raise
        except (Exception, KeyboardInterrupt, SystemExit) as exc:  # a set may raise anything
            raise _raised(exc, game, hook_name, impl, rule) from exc
        if observers:
            for observer in observers:
                observer(hook_name, impl.plugin_name, result)
        if firstresult and result is not None:
            complaint = expect(result)
            if complaint is not None:
                raise _wrong_result(complaint, game, hook_name, impl, rule)
            return [result]
        if result:
            # Checked at the boundary, cheaply: a wrong type would otherwise surface later as
            # an AttributeError that names nobody.
            complaint = expect(result)
            if complaint is not None:
                raise _wrong_result(complaint, game, hook_name, impl, rule)
            results.append((impl.plugin_name, result) if with_plugins else result)
    return results


def _raised(exc: BaseException, game: Any, hook_name: str, impl: HookImpl,
            rule: str | None) -> BaseException:
    """What an implementation's exception becomes (:func:`failure`), naming its set."""
    return failure(exc, game, hook_name, plugin_set(impl.plugin_name),
                   rule=rule or _step_rule(game, hook_name), plugin=impl.plugin_name)


def _wrong_result(complaint: str, game: Any, hook_name: str, impl: HookImpl,
                  rule: str | None) -> HookError:
    """The error for a result that is not what the hook promises, naming its set."""
    return HookError(f"{complaint} (in plugin {impl.plugin_name})", hook=hook_name,
                     set_code=plugin_set(impl.plugin_name),
                     rule=rule or _step_rule(game, hook_name))


#: The step of a plan that holds in every step: none of its implementations is marked.
_ANY_STEP = object()

#: (implementations, the step it holds in, [(function, argument getter or None for
#: ``(game,)``, impl, whether its results are checked)]): how :func:`call` calls a hook's
#: implementations in a step.
Plan = tuple[Sequence["HookImpl"], Any,
             list[tuple[Callable[..., Any],
                        "Callable[[dict[str, Any]], tuple[Any, ...]] | None", "HookImpl",
                        bool]]]


def _plan(hook_name: str, impls: Sequence[HookImpl], step: Any) -> Plan:
    """The implementations that may contribute in ``step``, in order, each with how it takes
    its arguments: made once per hook and step (or once for every step), not per call."""
    entries = []
    marked = False
    for impl in impls:
        applies = getattr(impl.function, "hkk_applies", None)
        if applies is not None:
            marked = True
            if not applies(step, hook_name):
                continue
        argnames = impl.argnames
        getter = None if argnames == ("game",) else _GETTERS.get(argnames) or _getter(argnames)
        # the engine's own implementations (hkk's private modules: the card interpreter, the
        # built-in rules) are tested with the engine; a plugin's results are checked
        checked = not getattr(impl.function, "__module__", "").startswith("hkk._")
        entries.append((impl.function, getter, impl, checked))
    return impls, step if marked else _ANY_STEP, entries


#: argnames -> a function picking those arguments, in order, out of the call's keywords: made
#: once per shape (C-level ``itemgetter``), since building the list per call is the slow part.
_GETTERS: dict[tuple[str, ...], Callable[[dict[str, Any]], tuple[Any, ...]]] = {}


def _getter(argnames: tuple[str, ...]) -> Callable[[dict[str, Any]], tuple[Any, ...]]:
    if len(argnames) == 1:
        name = argnames[0]
        def getter(kwargs: dict[str, Any]) -> tuple[Any, ...]:
            return (kwargs[name],)
    elif argnames:
        getter = itemgetter(*argnames)
    else:
        getter = lambda kwargs: ()  # noqa: E731
    _GETTERS[argnames] = getter
    return getter


def _step_rule(game: Any, hook_name: str) -> str | None:
    """The rule points of the step whose hook this is (named in its errors)."""
    step = game.step if game is not None else None
    return ", ".join(step.rules) if step and step.hook == hook_name else None


def notify(game: Any, hook_name: str, **kwargs: Any) -> None:
    """Call a hook whose results are ignored (``turn_started``, ``phase_ended``…)."""
    impls = game.hook_impls.get(hook_name)
    if impls is None:
        impls = implementations(game, hook_name)
    if not impls:
        return
    kwargs["game"] = game
    if game.hook_observers:  # they see every call and its result: the general path
        call(hook_name, impls, kwargs, expect_anything, game.hook_observers, game=game)
        return
    # call()'s hot path, with the same plans, and no results to gather or check: a
    # notification comes with every decision (the game clock, 41.7) and every step
    step = game.step
    plan = game.hook_plans.get(hook_name)
    if plan is None or plan[0] is not impls or (plan[1] is not step
                                                and plan[1] is not _ANY_STEP):
        plan = game.hook_plans[hook_name] = _plan(hook_name, impls, step)
    for function, getter, impl, _ in plan[2]:
        try:
            function(game) if getter is None else function(*getter(kwargs))
        except PASSTHROUGH:
            raise
        except (Exception, KeyboardInterrupt, SystemExit) as exc:  # a set may raise it
            raise _raised(exc, game, hook_name, impl, None) from exc


def first(game: Any, hook_name: str, expect: Expectation, **kwargs: Any) -> Any:
    """Call a ``firstresult`` hook: the first result that is not None, else None."""
    kwargs["game"] = game
    found = call(hook_name, implementations(game, hook_name), kwargs, expect,
                 game.hook_observers, game=game, firstresult=True)
    return found[0] if found else None


def failure(exc: BaseException, game: Any, hook: str, set_code: str | None, *,
            card: str | None = None, ability: int | None = None, rule: str | None = None,
            plugin: str | None = None) -> BaseException:
    """What a set's exception becomes: an :class:`Interrupted` saying where a Ctrl-C (or a
    set's KeyboardInterrupt) happened, else a :class:`HookError` naming set, hook, card and
    rule.  The caller raises it ``from exc``."""
    if isinstance(exc, KeyboardInterrupt):
        if game is None:
            return Interrupted(f"interrupted in hook {hook}, set {set_code}", set_code=set_code,
                               hook=hook)
        return Interrupted.during(game, hook, set_code, card)
    where = f" (in plugin {plugin})" if plugin else ""
    return HookError(f"{type(exc).__name__}: {exc}{where}", hook=hook, set_code=set_code,
                     card=card, ability=ability, rule=rule)


# -- what hooks promise to return -------------------------------------------------------------

def expect_pending(result: Any) -> str | None:
    """A turn hook's result: a list (or tuple) of Pending items."""
    if type(result) is not list and not isinstance(result, (list, tuple)):
        return f"returned {type(result).__name__} {result!r:.80}; expected a list of " \
               "hkk.Pending items or None"
    for item in result:  # a plain loop: cheaper than any set or generator for a few items
        if type(item) is not Pending and not isinstance(item, Pending):
            return f"returned a list containing {type(item).__name__} {item!r:.80}; " \
                   "expected a list of hkk.Pending items or None"
    return None


def expect_lethal(result: Any) -> str | None:
    """``lethal``'s result: (Permanent, Lethal) pairs."""
    if not isinstance(result, (list, tuple)) or not all(
            isinstance(pair, tuple) and len(pair) == 2
            and isinstance(pair[0], Permanent) and isinstance(pair[1], Lethal)
            for pair in result):
        return f"returned {result!r:.80}; expected a list of (Permanent, hkk.Lethal) " \
               "pairs or None"
    return None


def expect_dict(result: Any) -> str | None:
    """``custom_effects``' result: effect names mapped to callables."""
    if not isinstance(result, dict) or not all(
            isinstance(name, str) and callable(function) for name, function in result.items()):
        return f"returned {result!r:.80}; expected a dict of effect name (str) to a callable " \
               "fn(game, ctx, **params), or None"
    return None


def expect_player(result: Any) -> str | None:
    """``orderer``'s result: a player index."""
    if result not in (0, 1) or isinstance(result, bool):
        return f"returned {result!r:.80}; expected a player index (0 or 1) or None"
    return None


def expect_count(result: Any) -> str | None:
    """``left_play``'s result: a number of components."""
    if not isinstance(result, int) or isinstance(result, bool) or result < 0:
        return f"returned {result!r:.80}; expected a number of components (int >= 0) or None"
    return None


def expect_anything(result: Any) -> str | None:
    """Notification hooks: whatever they return is ignored."""
    return None
