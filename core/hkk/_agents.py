"""The agents that answer decisions (:mod:`hkk._decisions`): random (from an RNG of its own),
scripted (for tests), first legal option.  ``Option``, ``Decision`` and ``Agent``
(:mod:`hkk._view`) are re-exported here."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any

from hkk._decisions import Decision, Option
from hkk._errors import IllegalDecision
from hkk._rng import SharedRandom
from hkk._view import Agent

__all__ = ["Agent", "Decision", "FirstLegalAgent", "Option", "RandomAgent", "ScriptedAgent"]

if TYPE_CHECKING:
    from hkk._protocol import FairView



class FirstLegalAgent:
    """Always takes the first option offered."""

    def choose(self, game: FairView, decision: Decision) -> Option:
        return decision.options[0]


class RandomAgent:
    """Chooses uniformly at random, from an RNG of its own: ``seed`` makes it reproducible;
    without one it is seeded from the operating system (the engine and the agents registry
    seed the agents they make from the game's seed and the seat, :func:`hkk._agent_registry.
    agent_seed`).  Never from the game's RNG: a player's view has none (its state would tell
    the shuffles).  ``pass_bias`` (0 to 1) is the chance that it considers passing at all when
    it has something else to do, so that random games get somewhere (0: it never passes while
    it can act; 1: passing is one option among all)."""

    def __init__(self, seed: int | None = None, pass_bias: float = 0.25) -> None:
        self._rng: random.Random = SharedRandom(seed)
        self.pass_bias = pass_bias

    def rng_state(self) -> tuple[Any, ...]:
        """Its RNG's state (a save holds it)."""
        return self._rng.getstate()

    def set_rng_state(self, state: tuple[Any, ...]) -> None:
        self._rng.setstate(state)

    def __deepcopy__(self, memo: dict[int, Any]) -> RandomAgent:
        """A copy with its own RNG in the same state (a copy of a game copies its agents:
        the state is shared until one of the two draws, :mod:`hkk._rng`)."""
        new = RandomAgent.__new__(RandomAgent)
        new._rng = _copy_rng(self._rng)
        new.pass_bias = self.pass_bias
        return new

    def choose(self, game: FairView, decision: Decision) -> Option:
        return random_choice(self._rng, decision, self.pass_bias)


def _copy_rng(rng: random.Random) -> random.Random:
    if isinstance(rng, SharedRandom):
        return rng.copy()
    new = random.Random.__new__(random.Random)  # an RNG set by hand: its state, copied
    new.setstate(rng.getstate())
    return new


def random_choice(rng: random.Random, decision: Decision, pass_bias: float) -> Option:
    """:class:`RandomAgent`'s choice, drawn from ``rng``."""
    options: Sequence[Option] = decision.options
    if decision.kind == "action" and len(options) > 1:
        others = [o for o in options if not o.label.startswith("pass")]
        if len(others) < len(options) and rng.random() >= pass_bias:
            options = others or options
    return options[rng.randrange(len(options))]


Step = str | int | Callable[[Decision], Option | None]


class ScriptedAgent:
    """Answers from a script, in order; each entry is an option label, an option index or a
    function of the decision.  A label picks the option with exactly that label, else the
    first option whose label starts with it (``"tt:t3"`` picks ``"tt:t3#2:0"``; ``"x#1:0"``
    picks ``"x#1:0"``, not ``"x#1:0 (2)"``).  A decision whose kind is in ``only`` consumes
    the script; everything else - and everything once the script is used up - goes to
    ``fallback``.  A script entry that names no legal option is an error: the test is wrong,
    not the game."""

    def __init__(self, script: Iterable[Step] = (), fallback: Agent | None = None,
                 only: Iterable[str] | None = None) -> None:
        self.script = list(script)
        self.fallback = fallback or FirstLegalAgent()
        self.only = set(only) if only is not None else None
        self.seen: list[Decision] = []

    def choose(self, game: FairView, decision: Decision) -> Option:
        self.seen.append(decision)
        if not self.script or (self.only is not None and decision.kind not in self.only):
            return self.fallback.choose(game, decision)
        entry = self.script.pop(0)
        if callable(entry):
            chosen = entry(decision)
            if chosen is None:
                return self.fallback.choose(game, decision)
            return chosen
        if isinstance(entry, int):
            return decision.options[entry]
        for option in decision.options:
            if option.label == entry:
                return option
        for option in decision.options:  # by its start (issue 24.17): "tt:t3" picks "tt:t3#2:0"
            if option.label.startswith(entry):
                return option
        raise IllegalDecision(
            f"script says {entry!r} but the {decision.kind} decision of player "
            f"{decision.player} offers {decision.labels()}")
