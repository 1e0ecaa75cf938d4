"""The one door of decisions (design: "Decisions go through one door"): ``game.decide``.

A decision inside a pure ``bind`` run again is answered from the answers given before it
(silently: they were logged); the decision the game stopped at takes the answer given from
outside; any other asks the seat's agent, or stops the game where the machine can go on from
(:mod:`hkk._forward`).  A decision the machine cannot stop at - a set's hook asking outside a
``bind`` - is refused from outside and warned with a seated agent (one hook-API release)."""

from __future__ import annotations

import warnings
import weakref
from collections.abc import Sequence
from typing import Any

from hkk._decisions import Decision, Option
from hkk._errors import IllegalDecision, plugin_set
from hkk._forward import DecisionOutsideBind, PositionError, Stop
from hkk._hookcall import implementations
from hkk._player_view import PlayerView
from hkk.events import Decided

#: The game deciding: a :class:`hkk.Game` (its machine, agents, views, log), named loosely as
#: the game imports this module and a cycle, type-only or not, is what the layers forbid.
Game = Any

__all__ = ["ask", "decide"]


def decide(self: Game, player: int, kind: str, options: Sequence[Option], prompt: str = "",
           rule: str | None = None) -> Option:
    """``game.decide``: a decision asked by a set's or the rules' code - inside a pure
    ``bind`` (the machine can stop there and go on) or, deprecated, outside one (only a seated
    agent answers it).  The turn machine's own decisions come through :func:`ask`."""
    if not options:
        raise ValueError("a decision needs at least one option")
    machine = self.machine
    region = machine.region
    if region is not None:  # inside a pure bind: its answers are kept
        replayed = machine.replayed
        if type(region) is list and replayed < len(region):  # run again: answered before
            index: int = region[replayed]
            if index < len(options):  # (no Decision made: nobody is asked)
                machine.replayed = replayed + 1
                return options[index]
        return _in_bind(self, machine, Decision(kind, player, tuple(options), prompt, rule))
    decision = Decision(kind, player, tuple(options), prompt, rule)
    if machine.answer is not None:  # the decision the game stopped at, answered from outside
        chosen = _given(machine, decision)
    else:
        chosen = _ask(self, decision)
    _decided(self, decision, chosen)
    return chosen


def ask(game: Game, player: int, kind: str, options: Sequence[Option], prompt: str = "",
        rule: str | None = None) -> Option:
    """A decision of the turn machine itself (a step's action or order, a "use?", an
    extraction, the start), one it can stop at and go on from: the seat's agent is asked at
    once (the game may be copied meanwhile: ``machine.asking``); a seat without one stops the
    game (:class:`hkk._forward.Stop`); the decision the game stopped at takes the answer given
    from outside; inside a moment's choosing run again, the answers given before are taken."""
    decision = Decision(kind, player, tuple(options), prompt, rule)
    machine = game.machine
    if machine.region is not None:
        return _in_bind(game, machine, decision)
    if machine.answer is not None:  # (_given, written in: every answer from outside)
        given: int = machine.answer
        machine.answer = None
        machine.answered = given
        if given >= len(options):
            raise PositionError(f"player {player}'s {kind} decision has no option {given}")
        chosen = options[given]
    else:
        agent = game.agents[player]
        if agent is None:
            raise Stop(decision)
        machine.asking = decision
        chosen = agent.choose(game.views[player] or seat_view(game, player), decision)
        machine.asking = None
        if id(chosen) not in map(id, decision.options):  # not the offered option itself
            chosen = _offered(decision, chosen)
    # the decided hook (the game clock, 41.7) and event, as _decided: once a decision
    impls = game.hook_impls.get("decided") or implementations(game, "decided")
    game.pm._inner_hookexec("decided", impls, {"game": game, "decision": decision,
                                               "choice": chosen}, False)  # hkk._hookcall
    log = game.log
    if Decided in log.quiet:  # nobody would receive it: not built
        log._emitted += 1  # log.skip(), without a call (hot)
    else:
        game.emit(Decided, player=player, decision=kind, choice=chosen.label,
                  options=len(decision.options), rule=rule)
    return chosen


def _decided(game: Game, decision: Decision, chosen: Option) -> None:
    """The ``decided`` hook (the game clock, 41.7) and the ``decided`` event: once a decision,
    when it is answered."""
    impls = game.hook_impls.get("decided") or implementations(game, "decided")
    game.pm._inner_hookexec("decided", impls, {"game": game, "decision": decision,
                                               "choice": chosen}, False)  # hkk._hookcall
    log = game.log
    if Decided in log.quiet:  # nobody would receive it: not built
        log.skip()
    else:
        game.emit(Decided, player=decision.player, decision=decision.kind, choice=chosen.label,
                  options=len(decision.options), rule=decision.rule)


def _given(machine: Any, decision: Decision) -> Option:
    given: int = machine.answer
    machine.answer = None
    machine.answered = given
    if given >= len(decision.options):
        raise PositionError(f"player {decision.player}'s {decision.kind} decision has no "
                            f"option {given}")
    return decision.options[given]


def _in_bind(game: Game, machine: Any, decision: Decision) -> Option:
    """A decision inside a pure ``bind``: the answers given in it before are taken again
    (silently: they were logged), a new one is kept with them."""
    region = machine.region
    if type(region) is not list:  # the first decision of an item's bind: its frame, now
        frame = ["resolve", [], False, region.label, region.card_id]
        machine.frames.append(frame)
        if len(machine.frames) == 2 or machine.held is None:  # the item the step's runner
            machine.held = region  # resolves (a trigger of its apply asking keeps it)
        region = machine.region = frame[1]
        machine.replayed = 0
    options = decision.options
    replayed = machine.replayed
    if replayed < len(region):  # the bind runs again
        index: int = region[replayed]
        machine.replayed = replayed + 1
        if index >= len(options):
            raise PositionError(f"player {decision.player}'s {decision.kind} decision has no "
                                f"option {index} the position answered before")
        return options[index]
    if machine.answer is not None:
        chosen = _given(machine, decision)
        index = machine.answered
    else:
        agent = game.agents[seat := decision.player]
        if agent is None:
            raise Stop(decision)
        machine.asking = decision  # a seated agent: asked at once (the game may be copied)
        chosen = agent.choose(game.views[seat] or seat_view(game, seat), decision)
        machine.asking = None
        ids = list(map(id, options))
        if id(chosen) not in ids:
            chosen = _offered(decision, chosen)
        index = ids.index(id(chosen))
    region.append(index)
    machine.replayed = replayed + 1
    impls = game.hook_impls.get("decided") or implementations(game, "decided")  # _decided
    game.pm._inner_hookexec("decided", impls, {"game": game, "decision": decision,
                                               "choice": chosen}, False)
    log = game.log
    if Decided in log.quiet:
        log._emitted += 1  # log.skip(), without a call (hot)
    else:
        game.emit(Decided, player=decision.player, decision=decision.kind, choice=chosen.label,
                  options=len(options), rule=decision.rule)
    return chosen


def _ask(self: Game, decision: Decision) -> Option:
    """A decision the machine cannot stop at and go on from (a hook asking outside a
    ``bind``): refused from outside, answered by a seated agent with a warning."""
    player = decision.player
    agent = self.agents[player]
    _outside_bind(self, decision, agent)
    chosen: Option = agent.choose(self.views[player] or seat_view(self, player), decision)
    if id(chosen) not in map(id, decision.options):
        chosen = _offered(decision, chosen)
    return chosen


def seat_view(game: Game, player: int) -> Any:
    """What ``player``'s seated agent is shown: the game itself to an agent that
    ``sees_everything``, else his fair view, made once per seat (``game.views``) and tied to
    the game weakly: a view keeping the game alive too would make every game, and every copy a
    search makes, garbage that only the cyclic collector frees (``game.view()`` keeps it)."""
    if getattr(game.agents[player], "sees_everything", False):
        return game
    view = game.views[player] = PlayerView(weakref.proxy(game), player)
    return view


def _offered(decision: Decision, chosen: Any) -> Option:
    """The offered option equal to the agent's (by label and value)."""
    options = decision.options
    if chosen not in options:
        raise IllegalDecision(f"player {decision.player} chose {chosen!r}; {decision.kind} "
                              f"options were {decision.labels()}")
    return options[options.index(chosen)]  # the offered one, by label


def _outside_bind(game: Game, decision: Decision, agent: Any) -> None:
    """A decision the machine cannot stop at and go on from: a set's hook asking outside a
    pending item's ``bind``.  From outside it is refused; a seated agent still answers it, with
    a DeprecationWarning (one hook-API release: ask in a ``bind``, docs/WRITING-A-SET.md)."""
    where = _where(game)
    if agent is not None and not game.machine.running:  # called by hand, not by the runner
        return
    if agent is None:
        raise DecisionOutsideBind(
            f"{where} asked player {decision.player} a {decision.kind!r} decision outside a "
            "pending item's bind: a game answered from outside cannot stop there; ask in a "
            "bind instead (docs/WRITING-A-SET.md, 'Asking a player')")
    warnings.warn(f"{where} asks player {decision.player} a {decision.kind!r} decision outside "
                  "a pending item's bind: this works only with seated agents and will be "
                  "refused in the next hook API; ask in a bind (docs/WRITING-A-SET.md)",
                  DeprecationWarning, stacklevel=4)


def _where(game: Game) -> str:
    """What asks outside a bind: the item being applied, else the hook notified last and its
    sets' implementations, else the step."""
    machine = game.machine
    for frame in reversed(machine.frames):
        if frame[0] == "resolve" and frame[2]:  # ["resolve", answers, applying, label, card]
            card = frame[4] or ""
            return f"set {card.split(':')[0] or '(built-in)'}'s item {frame[3]!r} (its apply)"
    if machine.hook is not None:
        impls = game.hook_impls.get(machine.hook) or ()
        sets = sorted({plugin_set(i.plugin_name) or i.plugin_name for i in impls
                       if not i.plugin_name.startswith("hkk.rules")})
        return f"hook {machine.hook} of {', '.join(sets) or 'a plugin'}"
    step = game.step
    return f"a hook in step {step.hook}" if step is not None else "a hook outside any step"
