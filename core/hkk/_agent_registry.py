"""Agents are plugins: the entry-point group ``hkk.agents`` maps a name to a factory.

A factory is called as ``factory(seed=SEED, **options)`` and returns an agent (an object with
``choose(view, decision) -> Option``).  An agent is named by a *spec*: the name and, after a
colon, options ``key=value`` separated by commas - ``random``, ``mcts:budget=400``,
``greedy:hp=2,hand=0.5``.  Values read as int, float, ``true``/``false`` or text.

The built-in agents are entry points of the ``hkk`` distribution itself (``pyproject.toml``),
registered exactly as a third party's; :data:`BUILTIN_AGENTS` says the same here, so that an
editable install whose metadata predates an agent still finds it.  A third-party name that
clashes with another distribution's is not loaded (the first, by distribution name, wins; hkk's
own always win) and is reported by ``hkk agents``.

Public: :func:`make_agent` (``hkk.make_agent``) and :func:`agent_entries`.
"""

from __future__ import annotations

import difflib
import hashlib
import inspect
import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from importlib import import_module
from typing import Any

from hkk._errors import AgentError, HkkError, IllegalDecision
from hkk._view import Agent

__all__ = ["BUILTIN_AGENTS", "ENTRY_POINT_GROUP", "AgentEntry", "AgentRegistry", "agent_entries",
           "agent_failure", "canonical_spec", "checked_option", "decision_seconds",
           "factory_options", "first_agent",
           "make_agent",
           "no_such_option", "parse_spec", "random_agent"]

ENTRY_POINT_GROUP = "hkk.agents"

#: name -> "module:factory" of hkk's own agents (the same as pyproject.toml's entry points; a
#: test keeps the two equal).
BUILTIN_AGENTS: dict[str, str] = {
    "first": "hkk._agent_registry:first_agent",
    "greedy": "hkk._greedy:greedy_agent",
    "mcts": "hkk._mcts:mcts_agent",
    "random": "hkk._agent_registry:random_agent",
}

AGENT_NAME = re.compile(r"^[a-z][a-z0-9_-]*$")

Factory = Callable[..., Agent]


# -- the built-in factories of the simplest agents ----------------------------------------------

def random_agent(seed: int | None = None, pass_bias: float = 0.25) -> Agent:
    """Uniformly random among the legal options; considers passing with chance pass_bias when
    it could act (without a seed it is seeded from the operating system)."""
    from hkk._agents import RandomAgent

    return RandomAgent(seed=seed, pass_bias=checked_option("random", "pass_bias", pass_bias,
                                                           low=0, high=1))


def first_agent(seed: int | None = None) -> Agent:
    """Always takes the first legal option (deterministic; the seed is not used)."""
    from hkk._agents import FirstLegalAgent

    return FirstLegalAgent()


# -- options -------------------------------------------------------------------------------------

def checked_option(agent: str, key: str, value: Any, *, whole: bool = False,
                   low: float | None = None, high: float | None = None) -> Any:
    """``value`` of option ``key`` of ``agent`` when it is a finite number (a whole one if
    ``whole``) within ``low``..``high``; else an error naming the agent, the option and what it
    must be (``mcts:budget=-5``, ``random:pass_bias=nan`` are nonsense, not a weak agent)."""
    number = isinstance(value, int | float) and not isinstance(value, bool) \
        and math.isfinite(value) and (not whole or float(value).is_integer())
    if number and (low is None or value >= low) and (high is None or value <= high):
        return int(value) if whole else value
    must = "a whole number" if whole else "a number"
    if low is not None and high is not None:
        must += f" from {low:g} to {high:g}"
    elif low is not None:
        must += f" of at least {low:g}"
    elif high is not None:
        must += f" of at most {high:g}"
    raise HkkError(f"agent {agent!r}: option {key}={value!r} must be {must}")


def decision_seconds(agent: str, seconds: Any) -> float | None:
    """A searching agent's ``seconds`` option: the CPU time one decision may take before the
    game's guard (hkk._limits) stops the game; None: the game's limit."""
    return None if seconds is None else float(checked_option(agent, "seconds", seconds, low=0.001))


def no_such_option(agent: str, unknown: list[str], own: Mapping[str, Any],
                   more: Mapping[str, Any] | None = None, more_name: str = "") -> HkkError:
    """The error for options ``agent`` does not have: its own options first (with a close
    match, if any), then ``more`` (e.g. the evaluation weights a searching agent also takes)."""
    guess = difflib.get_close_matches(unknown[0], [*own, *(more or {})], n=1)
    text = f"agent {agent!r} has no option {', '.join(map(repr, unknown))}"
    if guess:
        text += f" (did you mean {guess[0]!r}?)"
    text += f"; its options: {describe_options(own) or 'none'}"
    if more:
        text += f"; and {more_name}: {describe_options(more)}"
    return HkkError(text)


# -- specs ---------------------------------------------------------------------------------------

def _value(text: str) -> Any:
    lowered = text.lower()
    if lowered in ("true", "false"):
        return lowered == "true"
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def parse_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """``"mcts:budget=400,c=1.4"`` -> ``("mcts", {"budget": 400, "c": 1.4})``."""
    name, _, rest = spec.strip().partition(":")
    if not AGENT_NAME.match(name):
        raise HkkError(f"agent spec {spec!r}: {name!r} is not an agent name (lower-case letters, "
                       f"digits, '-' and '_', like 'random' or 'mcts:budget=400')")
    options: dict[str, Any] = {}
    for part in filter(None, (p.strip() for p in rest.split(","))):
        key, equals, value = part.partition("=")
        key = key.strip()
        if not equals or not key.isidentifier():
            raise HkkError(f"agent spec {spec!r}: option {part!r} is not key=value "
                           f"(like 'mcts:budget=400')")
        if key in options:
            raise HkkError(f"agent spec {spec!r}: option {key!r} is given twice")
        options[key] = _value(value.strip())
    return name, options


def canonical_spec(spec: str) -> str:
    """The spec with its options sorted: two spellings of one agent get one label."""
    name, options = parse_spec(spec)
    if not options:
        return name
    return name + ":" + ",".join(f"{k}={str(v).lower() if isinstance(v, bool) else v}"
                                 for k, v in sorted(options.items()))


# -- the registry ----------------------------------------------------------------------------------

@dataclass(frozen=True)
class AgentEntry:
    """One registered agent: its name, where its factory is (``module:attribute``) and the
    distribution that registered it."""

    name: str
    value: str
    distribution: str | None = None

    def load(self) -> Factory:
        module, _, attribute = self.value.partition(":")
        try:
            target: Any = import_module(module.strip())
            for part in attribute.strip().split("."):
                target = getattr(target, part)
        except Exception as exc:
            raise HkkError(f"agent {self.name!r} ({self._where()}): its factory {self.value} "
                           f"does not load: {type(exc).__name__}: {exc}") from exc
        if not callable(target):
            raise HkkError(f"agent {self.name!r} ({self._where()}): {self.value} is not "
                           f"callable")
        factory: Factory = target
        return factory

    def _where(self) -> str:
        return f"distribution {self.distribution or '?'}, entry point {ENTRY_POINT_GROUP}"

    def options(self) -> dict[str, Any]:
        """The factory's options and their defaults (``seed`` is not an option)."""
        return factory_options(self.load())

    def summary(self) -> str:
        """The first line of the factory's docstring."""
        doc = inspect.getdoc(self.load()) or ""
        return doc.strip().split("\n\n")[0].replace("\n", " ")


def factory_options(factory: Factory) -> dict[str, Any]:
    """A factory's options and their defaults, from its signature (``seed`` is not one)."""
    try:
        parameters = inspect.signature(factory).parameters.values()
    except (TypeError, ValueError):
        return {}
    return {p.name: (None if p.default is inspect.Parameter.empty else p.default)
            for p in parameters if p.name != "seed"
            and p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)}


def _accepts_any(factory: Factory) -> bool:
    try:
        parameters = inspect.signature(factory).parameters.values()
    except (TypeError, ValueError):
        return True
    return any(p.kind is p.VAR_KEYWORD for p in parameters)


@dataclass
class AgentRegistry:
    """The agents found: name -> entry; ``problems``: entries not loaded, and why."""

    entries: dict[str, AgentEntry] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)

    def get(self, name: str) -> AgentEntry:
        try:
            return self.entries[name]
        except KeyError:
            raise HkkError(f"no agent {name!r}; registered agents: "
                           f"{', '.join(sorted(self.entries))} (entry-point group "
                           f"{ENTRY_POINT_GROUP}; 'hkk agents' lists them)") from None

    def factory(self, spec: str) -> Callable[[int | None], Agent]:
        """A maker of agents of ``spec``: ``maker(seed)``; the spec is checked once, here."""
        name, options = parse_spec(spec)
        entry = self.get(name)
        factory = entry.load()
        known = factory_options(factory)
        unknown = sorted(set(options) - set(known))
        if unknown and not _accepts_any(factory):
            raise HkkError(f"agent spec {spec!r}: {no_such_option(name, unknown, known)}")

        def make(seed: int | None) -> Agent:
            try:
                agent = factory(seed=seed, **options)
            except HkkError as exc:
                raise HkkError(f"agent spec {spec!r}: {exc}") from exc
            except Exception as exc:
                raise HkkError(f"agent spec {spec!r} ({entry._where()}): its factory failed: "
                               f"{type(exc).__name__}: {exc}") from exc
            if not callable(getattr(agent, "choose", None)):
                raise HkkError(f"agent spec {spec!r} ({entry._where()}): the factory returned "
                               f"{agent!r}, which has no choose(view, decision) method")
            return agent
        return make


def agent_entries(entry_points: Any = None) -> AgentRegistry:
    """Every registered agent: hkk's own, then the ``hkk.agents`` entry points of other
    distributions (sorted by distribution, so install order never matters)."""
    import importlib_metadata

    registry = AgentRegistry({name: AgentEntry(name, value, "hkk")
                              for name, value in BUILTIN_AGENTS.items()})
    if entry_points is None:
        entry_points = importlib_metadata.entry_points(group=ENTRY_POINT_GROUP)
    found = []
    for ep in entry_points:
        dist = getattr(getattr(ep, "dist", None), "name", None)
        found.append(AgentEntry(ep.name, ep.value, dist))
    for entry in sorted(found, key=lambda e: (e.distribution or "", e.name, e.value)):
        if entry.distribution == "hkk" and BUILTIN_AGENTS.get(entry.name) == entry.value:
            continue  # hkk's own, already there
        if not AGENT_NAME.match(entry.name):
            registry.problems.append(f"agent {entry.name!r} of distribution "
                                     f"{entry.distribution}: not an agent name (lower-case "
                                     f"letters, digits, '-' and '_')")
            continue
        taken = registry.entries.get(entry.name)
        if taken is not None:
            registry.problems.append(f"agent {entry.name!r} of distribution "
                                     f"{entry.distribution} ({entry.value}) is not loaded: "
                                     f"distribution {taken.distribution} registers that name")
            continue
        registry.entries[entry.name] = entry
    return registry


def make_agent(spec: str, seed: int | None = None,
               registry: AgentRegistry | None = None) -> Agent:
    """An agent from its spec (``"random"``, ``"mcts:budget=50"``), made by the factory
    registered under its name in the ``hkk.agents`` entry-point group.  ``seed`` makes it
    deterministic (an agent never draws from the game's RNG: its view has none)."""
    return (registry or agent_entries()).factory(spec)(seed)


def describe_options(options: Mapping[str, Any]) -> str:
    return ", ".join(f"{k}={v}" for k, v in options.items())


def agent_seed(game_seed: int, seat: int) -> int:
    """The seed of the agent in ``seat`` (0 or 1) of the game of seed ``game_seed``: each seat's
    own, apart from the game's RNG, so a game's shuffles do not depend on who plays it, and
    ``hkk play --seed S --agents A B`` plays ``hkk simulate``'s game S again.  A hash: an agent
    knows its own seed, and must not learn the game's from it (a game of that seed deals the
    same hands and decks)."""
    digest = hashlib.sha256(f"hkk agent seed {game_seed} {seat}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def agent_failure(error: BaseException, agents: Sequence[Any], specs: Sequence[str],
                  registry: AgentRegistry | None = None) -> AgentError | None:
    """The :class:`AgentError` that says which of the seated ``agents`` (made from ``specs``)
    caused ``error`` - it raised inside its ``choose``, or answered an option not offered
    (:class:`IllegalDecision`, at the decision of its seat) - or None when no agent did (the
    engine's or a set's error).  Read from the traceback: the engine needs no wrapper round
    each agent."""
    seat: int | None = None
    frame_seat: int | None = None
    tb = error.__traceback__
    while tb is not None and seat is None:
        local = tb.tb_frame.f_locals
        if tb.tb_frame.f_code.co_name == "choose":
            me = local.get("self")
            seat = next((i for i, agent in enumerate(agents)
                         if agent is not None and agent is me), None)
        player = getattr(local.get("decision"), "player", None)
        if isinstance(error, IllegalDecision) and isinstance(player, int):
            frame_seat = player  # the innermost decision: the one answered wrongly
        tb = tb.tb_next
    raised = seat is not None
    seat = seat if raised else frame_seat
    if seat is None or seat >= len(specs) or agents[seat] is None:
        return None
    spec = specs[seat]
    try:
        distribution = (registry or agent_entries()).get(parse_spec(spec)[0]).distribution
    except HkkError:
        distribution = None
    what = f"raised {type(error).__name__}: {error}" if raised else \
        f"answered an option not offered: {error}"
    return AgentError(f"agent {spec!r} (distribution {distribution or '?'}) in seat "
                      f"{seat + 1} {what}", agent=spec, seat=seat, distribution=distribution)
