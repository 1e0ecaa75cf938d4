"""Exceptions raised by hkk.

The hierarchy::

    HkkError                      base of everything hkk raises on purpose
    ├── RuleViolation             an action the rulebook forbids; names the rule point
    ├── IllegalDecision           an agent answered with an option that was not offered
    ├── AgentError                a seated agent raised or answered an option not offered; names
    │                             the agent's spec, its distribution and its seat
    ├── ConfigError               hkk.toml / [tool.hkk] is unreadable or invalid; names the file
    ├── BadArgument               a value handed to hkk's API that it does not take (also a
    │                             ValueError): a log level, a build_game spec, a duration
    ├── SetError                  a card set could not be used; names set, distribution, stage
    │   └── CardDataError         a card or deck file is invalid; names set, file and each
    │                             problem's line, card and field (DataProblem)
    ├── HookError                 code of a set raised inside a hook (any exception, SystemExit
    │                             included) or returned the wrong type; names set, card, hook
    ├── StepLoopError             a step never ended: an ability usable over and over for nothing
    ├── TriggerLoopError          triggered abilities set each other off without end; names the
    │                             cards of the chain
    │   └── WorkLimitError        a turn or game resolved more triggers than its work limit
    ├── InvariantViolation        ``hkk verify`` found the game in an impossible state; names the
    │                             invariant, the turn and step (and the card where there is one)
    ├── SaveError                 a save that cannot be made or loaded (hkk._saving)
    ├── ReplayError               the machine's position does not match its game (hkk._forward)
    ├── CloneError                a game that cannot be copied (hkk._clone)
    ├── Divergence                the first event of a replay that differs (hkk._replay)
    ├── ScaffoldError             ``hkk new-set`` cannot create the project (hkk._scaffold)
    ├── SpoilerError              a spoiler file cannot be read (hkk._spoiler)
    ├── CoreError                 a core not installed, not loading or refusing a game (hkk._cores)
    ├── ArtError                  a card's art file cannot be read or is not a PNG (hkk._card_image)
    └── PrintExtraMissing         PNG and PDF need the extra hkk[print] (hkk._card_image)

    ValueError
    └── DataFileError             a set's data file cannot be used (hkk._datafile); the caller
                                  names the set and file

    Exception
    └── GameOver                  control flow, not an error: a player lost (K 3.12) or the game
                                  ended otherwise; the runner catches it at the step boundary

    KeyboardInterrupt
    └── Interrupted               Ctrl-C (or a set raising KeyboardInterrupt) while a set's code
                                  ran: stops the program, naming where it was

    BaseException
    └── GameTimeout               a game ran past its time limit (``--game-timeout``); a
                                  BaseException so that a set's ``except Exception`` cannot
                                  swallow it

Every error keeps the game state unchanged where it is raised before anything resolved
(rule violations are checked before any mutation).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


class HkkError(Exception):
    """Base class of every error hkk raises on purpose."""


class RuleViolation(HkkError):
    """An action the rules forbid; ``rule`` is the Kódex point, e.g. ``"29.4.6"``."""

    def __init__(self, rule: str, message: str) -> None:
        self.rule = rule
        super().__init__(f"[{rule}] {message}")


class IllegalDecision(HkkError):
    """An agent chose something that was not among the legal options."""


class AgentError(HkkError):
    """A seated agent failed the game: it raised, or answered with an option that was not
    offered.  ``agent`` is its spec (``mcts:budget=50``), ``distribution`` the one that
    registered it, ``seat`` its player index (0 or 1); the cause is ``__cause__``."""

    def __init__(self, message: str, *, agent: str, seat: int,
                 distribution: str | None = None) -> None:
        self.agent = agent
        self.seat = seat
        self.distribution = distribution
        super().__init__(message)


class BadArgument(HkkError, ValueError):
    """A value handed to hkk's API that it does not take; the message names the argument and
    what it may be.  A ValueError too, as it was before it was an HkkError."""


class ConfigError(HkkError):
    """The configuration file (``hkk.toml`` or ``[tool.hkk]`` in ``pyproject.toml``) cannot be
    read or is invalid; the message names the file and the key.  A usage error for the CLI."""


@dataclass(frozen=True)
class DataProblem:
    """One problem in a set's data file: the file (relative to the set's package), the line
    (None for a problem of the whole file, e.g. too big), the key's path (``cards[3].hp``), the
    card's id, what is wrong, and the file on disk (None if the package is not a folder).
    ``str()``: ``cards/creatures.toml: cards[3].hp: Input should be greater than 0``."""

    file: str
    message: str
    field: str | None = None
    line: int | None = None
    card: str | None = None
    source: str | None = None

    def __str__(self) -> str:
        return f"{self.file}: {self.field}: {self.message}" if self.field \
            else f"{self.file}: {self.message}"


class SetError(HkkError):
    """A card set failed to load at some discovery stage.  ``problems``: each problem of its
    data files, with its place (issue 24 item 11); ``prefix`` names the set and stage."""

    def __init__(
        self,
        message: str,
        *,
        code: str | None = None,
        distribution: str | None = None,
        version: str | None = None,
        stage: str | None = None,
        problems: tuple[DataProblem, ...] = (),
    ) -> None:
        self.code = code
        self.distribution = distribution
        self.version = version
        self.stage = stage
        self.reason = message
        self.problems = problems
        where = code or "?"
        if distribution:
            where += f" ({distribution} {version or ''}".rstrip() + ")"
        self.prefix = f"set {where}"
        if stage:
            self.prefix += f", stage {stage}"
        super().__init__(f"{self.prefix}: {message}")


class CardDataError(SetError):
    """Invalid card data.  ``str()`` has a line per problem, each reading like
    ``alap: cards/creatures.toml: cards[3].hp: Input should be greater than 0``; ``card``,
    ``field`` and ``line`` are the first problem's, ``problems`` all of them."""

    def __init__(self, message: str, *, code: str, file: str, card: str | None = None,
                 field: str | None = None, stage: str | None = "validate",
                 problems: tuple[DataProblem, ...] = ()) -> None:
        self.file = file
        self.card = card
        self.field = field
        HkkError.__init__(self, message)
        self.code = code
        self.distribution = None
        self.version = None
        self.stage = stage
        self.reason = message
        self.prefix = code
        self.problems = problems

    @property
    def line(self) -> int | None:
        return self.problems[0].line if self.problems else None

    @property
    def errors(self) -> list[str]:
        """Each problem as a line of ``str()``."""
        return [f"{self.code}: {problem}" for problem in self.problems] or [str(self)]


class HookError(HkkError):
    """An exception escaped from a set's code while a hook or card effect ran."""

    def __init__(self, message: str, *, hook: str, set_code: str | None = None,
                 card: str | None = None, ability: int | None = None,
                 rule: str | None = None) -> None:
        self.hook = hook
        self.set_code = set_code
        self.card = card
        self.ability = ability
        self.rule = rule
        parts = [f"hook {hook}"]
        if set_code:
            parts.append(f"set {set_code}")
        if card:
            parts.append(f"card {card}" + (f" ability {ability}" if ability is not None else ""))
        if rule:
            parts.append(f"rule {rule}")
        super().__init__(", ".join(parts) + f": {message}")


class StepLoopError(HkkError):
    """A step never ended: some ability can be used over and over for nothing."""


class TriggerLoopError(HkkError):
    """Triggered abilities set each other off without end (D-trigger-loop): a chain longer
    than ``Rulings.max_trigger_chain``, or the same state with the same triggers waiting
    again.  ``chain`` lists the labels of the items in the chain, ``cards`` their cards."""

    def __init__(self, message: str, chain: list[str], cards: list[str]) -> None:
        self.chain = chain
        self.cards = cards
        super().__init__(message)


class WorkLimitError(TriggerLoopError):
    """A turn or a game resolved more triggered items than ``Rulings.max_triggers_per_turn``
    or ``max_triggers_per_game`` allow (D-work-limit): a runaway game, stopped the same way on
    every machine.  ``limit`` names the ruling, ``turn`` and ``step`` where it stopped;
    ``cards`` the cards resolving (the chain of the trigger resolving, then those waiting)."""

    def __init__(self, message: str, chain: list[str], cards: list[str], *, limit: str,
                 turn: int, step: str) -> None:
        self.limit = limit
        self.turn = turn
        self.step = step
        super().__init__(message, chain, cards)


class GameOver(Exception):
    """Raised inside the runner when the game ends (a player at 0 Ép or below, K 3.12; an empty
    deck, D-empty-deck).  Control flow, not an error: not an :class:`HkkError`, so handlers of
    errors never swallow it; :func:`hkk.advance` catches it."""


class InvariantViolation(HkkError):
    """A game reached a state the rules cannot produce (checked by :mod:`hkk._invariants` when
    ``hkk verify`` plays).  ``invariant`` names the check; ``card`` the card concerned, if any."""

    def __init__(self, invariant: str, message: str, *, turn: int | None = None,
                 step: str | None = None, card: str | None = None) -> None:
        self.invariant = invariant
        self.turn = turn
        self.step = step
        self.card = card
        where = f" (turn {turn}, {step_name(turn, step)})" if turn is not None else ""
        super().__init__(f"invariant {invariant}{where}: {message}")


class Interrupted(KeyboardInterrupt):
    """A KeyboardInterrupt (Ctrl-C, or a set's code raising it) that says where it happened:
    which set was being imported, or which hook, set and card ran.  It still stops the program
    (it is a KeyboardInterrupt); the commands print it and exit with 1."""

    def __init__(self, message: str, *, set_code: str | None = None, hook: str | None = None,
                 card: str | None = None) -> None:
        self.set_code = set_code
        self.hook = hook
        self.card = card
        super().__init__(message)

    @classmethod
    def during(cls, game: Any, hook: str, set_code: str | None,
               card: str | None = None) -> Interrupted:
        """The interruption of ``game`` while ``hook`` (of set ``set_code``) ran."""
        where = [f"hook {hook}"] + ([f"set {set_code}"] if set_code else []) \
            + ([f"card {card}"] if card else [])
        return cls(f"interrupted in turn {game.turn} ({step_name(game.turn, game.log.step)}), "
                   + ", ".join(where), set_code=set_code, hook=hook, card=card)


#: Exceptions that pass through the wrapping of a set's code unchanged: the engine's own
#: signals (the game ended, an error hkk raised on purpose, an already attributed Ctrl-C).
PASSTHROUGH: tuple[type[BaseException], ...] = (GameOver, HkkError, Interrupted)


def step_name(turn: int, step: str | None) -> str:
    """How messages name where a game was: the step's hook, else "setup" before the first turn
    and "start of turn" between a turn's start and its first step."""
    return step or ("setup" if not turn else "start of turn")


def plugin_set(plugin_name: str | None) -> str | None:
    """The set code of a plugin registered by discovery (``hkk.sets.<code>``), else None."""
    if plugin_name and plugin_name.startswith("hkk.sets."):
        return plugin_name.removeprefix("hkk.sets.")
    return None


class GameTimeout(BaseException):
    """A game ran longer than its time limit (:func:`hkk._limits.time_limit`): ``seconds`` of
    ``clock`` time ("CPU" outside the agents, or "wall-clock"); with ``agent``, that agent's
    (its class name) thinking on one decision.  ``where`` names the code that was running
    (module, function, line; a set's package if it was a set's)."""

    def __init__(self, seconds: float, where: str = "", *, module: str | None = None,
                 clock: str = "", agent: str | None = None) -> None:
        self.seconds = seconds
        self.where = where
        self.module = module  # the module of the code that was running
        self.clock = clock
        self.agent = agent
        unit = f"{seconds:g} {clock} s" if clock else f"{seconds:g} s"
        what = f"agent {agent} thought longer on one decision than its limit of {unit}" \
            if agent else f"the game ran longer than its time limit of {unit}"
        super().__init__(what + (f"; it was running {where}" if where else ""))


# -- errors of single modules, kept here with the others (their old homes import them, so
# hkk._saving.SaveError and the like keep working) ---------------------------------------------


class DataFileError(ValueError):
    """A data file that cannot be used: outside the package, too big, not UTF-8, too deep."""


class ScaffoldError(HkkError):
    """The project cannot be created (bad name, folder not empty)."""


class ReplayError(HkkError):
    """The machine's position does not match the game it is in: a frame names an item, a
    permanent or an answer the game does not have (an edited save, or a hook that depends on
    something outside the game)."""


class SaveError(HkkError):
    """A save that cannot be made or loaded (foreign file, other versions, mid-step game)."""


class SpoilerError(HkkError):
    """The spoiler file cannot be read (not CSV/JSON, unknown column, a number that is not)."""


class CoreError(HkkError):
    """A core that is not installed, does not load, or refuses the game: a usage error."""


class ArtError(HkkError):
    """A card's art file cannot be read, or is not a PNG."""


class PrintExtraMissing(HkkError):
    """PNG and PDF need the optional extra ``hkk[print]`` (CairoSVG and the Cairo library)."""


class CloneError(HkkError):
    """A game that cannot be copied: inside a step, or a set's item that holds what cannot be
    copied (the message names the set)."""


class Divergence(HkkError):
    """The first event of the replay that differs from the log: its number, the recorded
    event (None: the log had ended) and what the replay gave instead.  An HkkError so that it
    passes through the runner's wrapping of errors in sets' code."""

    def __init__(self, index: int, expected: dict[str, Any] | None,
                 got: dict[str, Any] | str | None) -> None:
        self.index = index
        self.expected = expected
        self.got = got
        super().__init__(f"event {index}: expected {expected}, got {got}")
