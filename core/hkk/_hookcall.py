"""Where every hook call runs: pluggy's own seam for it, ``PluginManager._inner_hookexec``.

pluggy's ``pm.hook.<name>(...)`` hands a hook's implementations to ``pm._inner_hookexec``, which
is pluggy's call loop ``_multicall`` unless something wraps it.  :func:`install` puts
:func:`hookexec` there, and the engine calls that same seam (:func:`call`, :func:`notify`,
:func:`first`), so every hook call - the engine's and anybody's ``pm.hook.<name>(...)`` - goes
through one door, which pluggy's monitoring wraps: ``pm.add_hookcall_monitoring(before, after)``
(``hkk verify``'s coverage) and ``pm.enable_tracing()`` see every call, and implementations run
in pluggy's order (reverse registration, ``tryfirst``/``trylast``).

:func:`hookexec` runs a game's calls of its own implementation lists through a *plan* made once
per hook and step (the measured hot path, issue 11): the implementations that may contribute in
the step running (an implementation marked :func:`only_in_steps` is left out elsewhere), each
with how it takes its arguments, and whether its result is checked (a plugin's is; the engine's
own implementations are tested with the engine).  Everything else goes to pluggy's
``_multicall`` itself: a hook with a ``wrapper=True`` or ``hookwrapper=True`` implementation
(which then wraps the others as pluggy documents), a call outside a game, a list of
implementations that is not the game's.  Either way the boundary is the same: an exception of
an implementation (``sys.exit()`` included) becomes a :class:`~hkk.HookError` naming the set,
hook, plugin and rule, and a plugin's result is checked against what its hook promises
(:data:`EXPECT`), since a wrong type would otherwise surface later naming nobody.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from operator import itemgetter
from typing import TYPE_CHECKING, Any, TypeVar

# pluggy internals (pyproject.toml bounds pluggy to the versions tested): its call loop, what
# the plans do not cover, and how it reads an implementation's parameters (hkk._deprecation)
try:
    from pluggy._callers import _multicall
    from pluggy._hooks import varnames
except ImportError as exc:  # a pluggy outside the bound: say so, not a bare ImportError
    from importlib.metadata import version as _version

    raise ImportError(f"hkk needs pluggy's _callers._multicall and _hooks.varnames, which "
                      f"pluggy {_version('pluggy')} does not have ({exc}); install the pluggy "
                      f"hkk's requirements name (pip install 'pluggy>=1.5,<1.8')") from exc

from hkk._errors import PASSTHROUGH, HookError, Interrupted, plugin_set
from hkk._hookspecs import TURN_HOOKS
from hkk._pending import Lethal, Pending
from hkk._state import Permanent

if TYPE_CHECKING:
    import pluggy
    from pluggy import HookImpl

    class HookedManager(pluggy.PluginManager):
        """A plugin manager after :func:`install`: its call loop (:func:`hookexec`, or a monitor
        wrapping it) returns what the implementations return, which pluggy types ``object``."""

        def _inner_hookexec(self, hook_name: str, hook_impls: Sequence[HookImpl],
                            caller_kwargs: Mapping[str, Any], firstresult: bool) -> Any: ...

__all__ = ["EXPECT", "call", "expect_anything", "expect_card_ids", "expect_count", "expect_dict",
           "expect_kinds",
           "expect_lethal", "expect_pending", "expect_player", "failure", "first", "hookexec",
           "implementations", "install", "notify", "only_in_steps", "varnames"]

#: Checks one implementation's result (not None); returns the complaint ("returned …;
#: expected …") or None when the result is what the hook promises.
Expectation = Callable[[Any], "str | None"]


def install(pm: pluggy.PluginManager) -> None:
    """Make :func:`hookexec` the plugin manager's call loop, unless it is already (or
    something already wraps pluggy's own: then it stays as it is)."""
    if pm._inner_hookexec is _multicall:
        pm._inner_hookexec = hookexec


def implementations(game: Any, hook_name: str) -> list[HookImpl]:
    """The hook's implementations as this game first saw them (plugins registered after a game
    started do not join it halfway through a turn)."""
    impls: list[HookImpl] | None = game.hook_impls.get(hook_name)
    if impls is None:
        impls = game.hook_impls[hook_name] = getattr(game.hook, hook_name).get_hookimpls()
    return impls


F = TypeVar("F", bound=Callable[..., Any])


def only_in_steps(applies: Callable[[Any, str], bool]) -> Callable[[F], F]:
    """Mark a hook implementation that returns nothing unless ``applies(step, hook_name)``
    holds for the step running (``game.step``, None between steps): the engine may then leave
    it uncalled in other steps.  Only a promise about its result: it is called as before
    wherever it could return something.  Built-in rules use it for implementations of every
    turn hook that serve only some steps (``hand_play``: action steps)."""
    def mark(function: F) -> F:
        function.hkk_applies = applies  # type: ignore[attr-defined]
        return function
    return mark


# -- the engine's calls: through the seam -------------------------------------------------------

def call(game: Any, hook_name: str, kwargs: dict[str, Any]) -> list[Any]:
    """Call a hook of ``game`` (``kwargs`` holds ``game`` among its arguments): the results
    that are not None, in pluggy's call order."""
    impls = game.hook_impls.get(hook_name)
    if impls is None:
        impls = implementations(game, hook_name)
    results: list[Any] = game.pm._inner_hookexec(hook_name, impls, kwargs, False)
    return results


def notify(game: Any, hook_name: str, **kwargs: Any) -> None:
    """Call a hook whose results are ignored (``turn_started``, ``phase_ended``…)."""
    impls = game.hook_impls.get(hook_name) or implementations(game, hook_name)
    kwargs["game"] = game
    game.machine.hook = hook_name  # named if one of them asks a player (hkk._deciding)
    game.pm._inner_hookexec(hook_name, impls, kwargs, False)


def first(game: Any, hook_name: str, **kwargs: Any) -> Any:
    """Call a ``firstresult`` hook: the first result that is not None, else None."""
    kwargs["game"] = game
    impls = game.hook_impls.get(hook_name)
    if impls is None:
        impls = implementations(game, hook_name)
    return game.pm._inner_hookexec(hook_name, impls, kwargs, True)


# -- the seam ---------------------------------------------------------------------------------

def hookexec(hook_name: str, hook_impls: Sequence[HookImpl],
             caller_kwargs: Mapping[str, Any], firstresult: bool) -> Any:
    """pluggy's ``_inner_hookexec``: the results of a hook call (a list; with ``firstresult``
    the first result that is not None, else None), as pluggy's ``_multicall`` returns them."""
    game: Any = caller_kwargs.get("game")
    plans = getattr(game, "hook_plans", None)  # a game's (hkk.Game)
    if plans is not None:
        plan = plans.get(hook_name)
        if plan is None or plan[0] is not hook_impls:
            plan = _plan(game, hook_name, hook_impls)
        entries = plan[1][id(game.step)]  # the step's entries, made on first use
        if entries is not None:
            if firstresult:
                return _first_result(game, hook_name, entries, caller_kwargs)
            results = []
            for function, getter, impl, checked in entries:
                try:
                    result = function(game) if getter is None else function(*getter(caller_kwargs))
                except PASSTHROUGH:
                    raise
                except (Exception, KeyboardInterrupt, SystemExit) as exc:  # a set may raise it
                    raise _raised(exc, game, hook_name, impl.plugin_name) from exc
                if result:  # an empty result is left out: nobody reads it
                    if checked:
                        complaint = EXPECT.get(hook_name, expect_anything)(result)
                        if complaint is not None:
                            raise _wrong_result(complaint, game, hook_name, impl.plugin_name)
                    results.append(result)
            return results
    return _pluggy_call(hook_name, hook_impls, caller_kwargs, firstresult, game)


def _first_result(game: Any, hook_name: str, entries: list[Any],
                  kwargs: Mapping[str, Any]) -> Any:
    """A plan's call of a ``firstresult`` hook: the first result that is not None (0 is an
    answer), else None."""
    for function, getter, impl, checked in entries:
        try:
            result = function(game) if getter is None else function(*getter(kwargs))
        except PASSTHROUGH:
            raise
        except (Exception, KeyboardInterrupt, SystemExit) as exc:  # a set may raise it
            raise _raised(exc, game, hook_name, impl.plugin_name) from exc
        if result is not None:
            if checked:
                complaint = EXPECT.get(hook_name, expect_anything)(result)
                if complaint is not None:
                    raise _wrong_result(complaint, game, hook_name, impl.plugin_name)
            return result
    return None


def _pluggy_call(hook_name: str, impls: Sequence[HookImpl], kwargs: Mapping[str, Any],
                 firstresult: bool, game: Any) -> Any:
    """The call by pluggy's own loop, at the same boundary as a plan's."""
    try:
        outcome: Any = _multicall(hook_name, impls, kwargs, firstresult)  # pluggy: object
    except PASSTHROUGH:
        raise
    except (Exception, KeyboardInterrupt, SystemExit) as exc:  # a set may raise anything
        raise _raised(exc, game, hook_name, _culprit(exc, impls)) from exc
    expect = EXPECT.get(hook_name, expect_anything)
    for result in ((outcome,) if firstresult else outcome) if outcome is not None else ():
        complaint = expect(result)
        if complaint is not None:
            raise _wrong_result(complaint, game, hook_name, ", ".join(
                impl.plugin_name for impl in impls if not _engines(impl)) or None)
    return outcome


def _culprit(exc: BaseException, impls: Sequence[HookImpl]) -> str | None:
    """The plugin whose implementation raised ``exc`` inside pluggy's loop: the innermost
    frame of its traceback that runs an implementation (a wrapper that lets an exception of
    another through is not blamed for it)."""
    by_code = {getattr(impl.function, "__code__", None): impl.plugin_name for impl in impls}
    found = None
    tb = exc.__traceback__
    while tb is not None:
        found = by_code.get(tb.tb_frame.f_code, found)
        tb = tb.tb_next
    return found


class _Steps(dict[int, Any]):
    """id(step) -> a plan's entries in the step, each made when first asked for (once per
    hook and step); None where pluggy's loop runs the call.  The steps are the game's turn's
    (the engine's, shared by every copy of the game, so its copies share its plans) or None
    (between steps); a step of no turn (a test's own) is called by pluggy's loop."""

    def __init__(self, game: Any, hook_name: str, impls: Sequence[HookImpl] | None) -> None:
        super().__init__()
        self.steps = _by_id(game.turn_steps)
        self.hook_name, self.impls = hook_name, impls
        #: whether some implementation is marked only_in_steps (else one list serves all)
        self.by_step = False
        for impl in impls or ():  # plain loops: made once per game and hook, not to cost more
            self.by_step = self.by_step or hasattr(impl.function, "hkk_applies")

    def __missing__(self, step_id: int) -> Any:
        entries = None
        if self.impls is None:
            pass
        elif not self.by_step:  # the same entries in every step
            entries = next(iter(self.values())) if self else _entries(
                self.hook_name, self.impls, None)
        elif step_id in self.steps:
            entries = _entries(self.hook_name, self.impls, self.steps[step_id])
        self[step_id] = entries
        return entries


#: id of a turn's steps -> (those steps, each step and None by id), made once per turn
_STEPS: dict[int, tuple[Any, dict[int, Any]]] = {}


def _by_id(steps: Any) -> dict[int, Any]:
    """The turn's steps (the engine's list) and None, by id."""
    known = _STEPS.get(id(steps))
    if known is None or known[0] is not steps:  # kept with the list: its id stays its own
        known = _STEPS[id(steps)] = (steps, {id(step): step for step in steps})
        known[1][id(None)] = None
    return known[1]


#: A plan: (the implementations it is for, their entries by step).
Plan = tuple[Any, _Steps]


def copy_plans(plans: dict[str, Plan], game: Any) -> dict[str, Plan]:
    """The plans of a copy of the game (:mod:`hkk._clone`): the same, shared - they depend on
    the engine's implementations and turn alone, which the copy shares."""
    return plans


def _plan(game: Any, hook_name: str, impls: Sequence[HookImpl]) -> Plan:
    """The plan for the game's own implementation list of a hook, kept for the game: pluggy's
    loop runs a call that is not one of those and a hook with a wrapper (which wraps the
    others)."""
    own = impls is game.hook_impls.get(hook_name)
    pluggys = not own
    for impl in impls:
        pluggys = pluggys or impl.wrapper or impl.hookwrapper
    plan = (impls, _Steps(game, hook_name, None if pluggys else impls))
    if own:
        game.hook_plans[hook_name] = plan
    return plan


def _entries(hook_name: str, impls: Sequence[HookImpl], step: Any) -> list[Any]:
    """The implementations that may contribute in ``step``, in pluggy's call order, each with
    how it takes its arguments and whether its result is checked."""
    entries = []
    checks = EXPECT.get(hook_name, expect_anything) is not expect_anything
    for impl in reversed(impls):  # pluggy calls the last registered first
        applies = getattr(impl.function, "hkk_applies", None)
        if applies is not None and not applies(step, hook_name):
            continue
        argnames = impl.argnames
        getter = None if argnames == ("game",) else _GETTERS.get(argnames) or _getter(argnames)
        entries.append((impl.function, getter, impl, checks and not _engines(impl)))
    return entries


def _engines(impl: HookImpl) -> bool:
    """Whether the implementation is the engine's own (hkk's private modules: the card
    interpreter, the built-in rules), whose results are tested with the engine."""
    return str(getattr(impl.function, "__module__", "")).startswith("hkk._")


#: argnames -> a function picking those arguments, in order, out of the call's keywords: made
#: once per shape (C-level ``itemgetter``), since building the list per call is the slow part.
_GETTERS: dict[tuple[str, ...], Callable[[Mapping[str, Any]], tuple[Any, ...]]] = {}


def _getter(argnames: tuple[str, ...]) -> Callable[[Mapping[str, Any]], tuple[Any, ...]]:
    getter: Callable[[Mapping[str, Any]], tuple[Any, ...]]
    if len(argnames) == 1:
        name = argnames[0]
        def getter(kwargs: Mapping[str, Any]) -> tuple[Any, ...]:
            return (kwargs[name],)
    elif argnames:
        getter = itemgetter(*argnames)
    else:
        getter = lambda kwargs: ()  # noqa: E731
    _GETTERS[argnames] = getter
    return getter


# -- errors at the boundary -------------------------------------------------------------------

#: The rule a hook's errors name when it is not the step's own hook.
_RULES = {"triggered": "D-trigger-wait"}


def _rule(game: Any, hook_name: str) -> str | None:
    """The rule points a hook's errors name: the step's, when it is the step's hook."""
    step = getattr(game, "step", None)
    if step is not None and step.hook == hook_name:
        return ", ".join(step.rules)
    return _RULES.get(hook_name)


def _raised(exc: BaseException, game: Any, hook_name: str,
            plugin: str | None) -> BaseException:
    """What an implementation's exception becomes (:func:`failure`), naming its set."""
    return failure(exc, game, hook_name, plugin_set(plugin), rule=_rule(game, hook_name),
                   plugin=plugin)


def _wrong_result(complaint: str, game: Any, hook_name: str, plugin: str | None) -> HookError:
    """The error for a result that is not what the hook promises, naming its set."""
    where = f" (in plugin {plugin})" if plugin else ""
    return HookError(f"{complaint}{where}", hook=hook_name, set_code=plugin_set(plugin),
                     rule=_rule(game, hook_name))


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


def expect_kinds(result: Any) -> str | None:
    """``trigger_kinds``' result: event kinds."""
    if not isinstance(result, (list, tuple)) or not all(isinstance(k, str) for k in result):
        return f"returned {result!r:.80}; expected a list of event kinds (str) or None"
    return None


def expect_card_ids(result: Any) -> str | None:
    """``playable``'s result: card ids."""
    if not isinstance(result, (list, tuple)) or not all(isinstance(c, str) for c in result):
        return f"returned {result!r:.80}; expected a list of card ids (str) or None"
    return None


def expect_anything(result: Any) -> str | None:
    """Notification hooks: whatever they return is ignored."""
    return None


#: hook name -> what its implementations' results must be (notifications: anything).
EXPECT: dict[str, Expectation] = {
    **dict.fromkeys(TURN_HOOKS, expect_pending), "entered_play": expect_pending,
    "triggered": expect_pending, "lethal": expect_lethal, "custom_effects": expect_dict,
    "orderer": expect_player, "left_play": expect_count, "trigger_kinds": expect_kinds,
    "playable": expect_card_ids}
