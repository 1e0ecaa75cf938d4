"""The one door of decisions (design: "Decisions go through one door"): ``game.decide``.

A decision inside a pure ``bind`` run again is answered from the answers given before it
(silently: they were logged); the decision the game stopped at takes the answer given from
outside; any other asks the seat's agent, or stops the game where the machine can go on from
(:mod:`hkk._forward`).  A decision the machine cannot stop at - a set's hook asking outside a
``bind`` - is refused from outside and warned with a seated agent (one hook-API release)."""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from typing import Any

from hkk._decisions import Decision, Option
from hkk._errors import IllegalDecision, plugin_set
from hkk._forward import DecisionOutsideBind, PositionError, Stop
from hkk._hookcall import notify
from hkk.events import Decided

#: The game deciding: a :class:`hkk.Game` (its machine, agents, views, log), named loosely as
#: the game imports this module and a cycle, type-only or not, is what the layers forbid.
Game = Any

__all__ = ["decide"]


def decide(self: Game, player: int, kind: str, options: Sequence[Option], prompt: str = "",
           rule: str | None = None) -> Option:
    if not options:
        raise ValueError("a decision needs at least one option")
    options = tuple(options)
    machine = self.machine
    region = machine.region
    if region is not None and machine.replayed < len(region):  # a bind run again
        index: int = region[machine.replayed]
        machine.replayed += 1
        if index >= len(options):
            raise PositionError(f"player {player}'s {kind} decision has no option {index} "
                                "the position answered before")
        return options[index]
    decision = Decision(kind, player, options, prompt, rule)
    stoppable = machine.open or region is not None
    machine.open = False
    given: int | None = machine.answer
    if given is not None:  # the decision the game stopped at, answered from outside
        machine.answer = None
        if given >= len(options):
            raise PositionError(f"player {player}'s {kind} decision has no option {given}")
        chosen = options[given]
        index = given
    else:
        chosen = _ask(self, decision, stoppable)
        if region is not None:
            index = _index(options, chosen)
    if region is not None:
        region.append(index)
        machine.replayed += 1
    notify(self, "decided", decision=decision, choice=chosen)  # the game clock (41.7)
    log = self.log
    if Decided in log.quiet:  # nobody would receive it: not built
        log.skip()
    else:
        self.emit(Decided, player=player, decision=kind, choice=chosen.label,
                  options=len(options), rule=rule)
    return chosen

def _ask(self: Game, decision: Decision, stoppable: bool) -> Option:
    """The seat's agent chooses (an offered option, or an equal one); a seat without one
    stops the game (:class:`hkk._forward.Stop`)."""
    player = decision.player
    agent = self.agents[player]
    machine = self.machine
    if not stoppable:
        _outside_bind(self, decision, agent)
    elif agent is None:
        raise Stop(decision)
    machine.asking = decision if stoppable else None
    try:
        chosen: Option = agent.choose(self.views[player], decision)
    finally:
        machine.asking = None
    options = decision.options
    if id(chosen) not in map(id, options):  # not the offered option itself (found in C)
        if chosen not in options:  # nor an equal Option made by the agent
            raise IllegalDecision(f"player {player} chose {chosen!r}; {decision.kind} "
                                  f"options were {decision.labels()}")
        chosen = options[options.index(chosen)]  # the offered one, by label
    return chosen


def _index(options: tuple[Option, ...], chosen: Option) -> int:
    return list(map(id, options)).index(id(chosen))


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
    """What asks outside a bind: the hook being notified and its sets' implementations, else
    the item being applied, else the step."""
    machine = game.machine
    if machine.hook is not None:
        impls = game.hook_impls.get(machine.hook) or ()
        sets = sorted({plugin_set(i.plugin_name) or i.plugin_name for i in impls
                       if not i.plugin_name.startswith("hkk.rules")})
        return f"hook {machine.hook} of {', '.join(sets) or 'a plugin'}"
    for frame in reversed(machine.frames):
        if frame[0] == "resolve":  # ["resolve", answers, applying, label, set code]
            return f"set {frame[4] or '(built-in)'}'s item {frame[3]!r} (its apply)"
    step = game.step
    return f"a hook in step {step.hook}" if step is not None else "a hook outside any step"
