"""Exceptions raised by hkk.

The hierarchy::

    HkkError                      base of everything hkk raises on purpose
    ├── RuleViolation             an action the rulebook forbids; names the rule point
    ├── IllegalDecision           an agent answered with an option that was not offered
    ├── ConfigError               hkk.toml / [tool.hkk] is unreadable or invalid; names the file
    ├── SetError                  a card set could not be used; names set, distribution, stage
    │   └── CardDataError         a card file is invalid; names set, file, card and field
    └── HookError                 code of a set raised inside a hook; names set, card, hook

Every error keeps the game state unchanged where it is raised before anything resolved
(rule violations are checked before any mutation).
"""

from __future__ import annotations


class HkkError(Exception):
    """Base class of every error hkk raises on purpose."""


class RuleViolation(HkkError):
    """An action the rules forbid; ``rule`` is the Kódex point, e.g. ``"29.4.6"``."""

    def __init__(self, rule: str, message: str) -> None:
        self.rule = rule
        super().__init__(f"[{rule}] {message}")


class IllegalDecision(HkkError):
    """An agent chose something that was not among the legal options."""


class ConfigError(HkkError):
    """The configuration file (``hkk.toml`` or ``[tool.hkk]`` in ``pyproject.toml``) cannot be
    read or is invalid; the message names the file and the key.  A usage error for the CLI."""


class SetError(HkkError):
    """A card set failed to load at some discovery stage."""

    def __init__(
        self,
        message: str,
        *,
        code: str | None = None,
        distribution: str | None = None,
        version: str | None = None,
        stage: str | None = None,
    ) -> None:
        self.code = code
        self.distribution = distribution
        self.version = version
        self.stage = stage
        self.reason = message
        where = code or "?"
        if distribution:
            where += f" ({distribution} {version or ''}".rstrip() + ")"
        prefix = f"set {where}"
        if stage:
            prefix += f", stage {stage}"
        super().__init__(f"{prefix}: {message}")


class CardDataError(SetError):
    """Invalid card data. ``str()`` reads like
    ``alap: cards/creatures.toml: cards[3].hp: Input should be greater than 0``."""

    def __init__(self, message: str, *, code: str, file: str, card: str | None = None,
                 field: str | None = None, stage: str | None = "validate") -> None:
        self.file = file
        self.card = card
        self.field = field
        HkkError.__init__(self, message)
        self.code = code
        self.distribution = None
        self.version = None
        self.stage = stage
        self.reason = message


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
