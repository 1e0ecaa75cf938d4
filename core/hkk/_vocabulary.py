"""The decisions' vocabulary: every decision kind with its option labels.  Plain data, behind
the *Decisions* section of ``hkk reference`` and ``docs/REFERENCE.md``.  (The event kinds are
classes, :mod:`hkk.events`.)

It imports nothing from the engine, so any layer may read it.  ``tests/test_vocabulary.py``
plays seeded games of every deck pairing and fails when the engine offers a decision kind or an
option label that is not registered here (and ``tests/conftest.py`` checks every decision of the
whole test suite the same way).  Add a kind or a label shape here in the same commit that makes
the engine offer it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["DECISIONS", "DecisionKind", "decision_problems", "decisions_markdown",
           "label_pattern"]


@dataclass(frozen=True)
class DecisionKind:
    meaning: str
    who: str
    #: label shape -> what choosing it means.  ``<…>`` stands for a variable part.
    options: dict[str, str]
    rules: tuple[str, ...] = ()


DECISIONS: dict[str, DecisionKind] = {
    "start": DecisionKind(
        "The randomly chosen player starts or hands the first turn over.",
        "the player the RNG picked",
        {"start": "he plays the first turn", "hand over": "his opponent does"}, ("28",)),
    "order": DecisionKind(
        "Which pending item happens next (asked only when more than one is ready).",
        "the active player (29.4.1; D-orderer elsewhere); for \"enters play\" effects the "
        "permanent's controller",
        {"<item label>": "that item resolves next; the others are collected again after it. "
                         "A triggered ability's label is its permanent and ability, "
                         "`<card id>#<uid>:<ability index>`, the same whatever else was logged; "
                         "one ability set off twice while both wait is told apart by a counter: "
                         "`alap:langorzo#3:1`, `alap:langorzo#3:1 (2)` (D-trigger-order)"},
        ("29.4.1", "D-orderer", "R-enter-order")),
    "use": DecisionKind(
        "Whether an optional item is used; at a moment where a player cannot pay for all of "
        "his items, which of the equal ones he pays for (D-moment-payments).",
        "the item's controller (the active player for the rules' own items)",
        {"use <item label>": "it happens (its cost is paid)",
         "decline": "not this time; in an ordered step it is not offered again (D-declined); "
                    "absent where he must pay for one of the options"},
        ("29.4.2", "29.4.7", "D-declined", "D-moment-payments")),
    "action": DecisionKind(
        "What a player does next in an action phase (main, combat) or in end stage 1.",
        "the players in turn, active player first",
        {"play <card id>": "play that card from hand (action phases only)",
         "use <item label>": "use an activated ability or a rules action, e.g. "
                             "`use alap:sarkany#3:0`, `use guard alap:tuzmano#2`, `use attack`",
         "extract <card id>#<uid>": "extract a dead creature's monster components",
         "pass": "pass (the phase ends after the active player's pass, then his opponent's)",
         "pass turn": "the active player passes for the whole turn (action phases only)"},
        ("4.11.6", "4.11.7", "41.1", "41.5")),
    "target": DecisionKind(
        "Which permanent an effect with a `chosen_…` target affects.",
        "the effect's controller",
        {"target <card id>#<uid>": "that permanent"}, ()),
    "target_player": DecisionKind(
        "Which player an effect with the `chosen_player` target affects.",
        "the effect's controller",
        {"player <index> (<name>)": "that player (index 0 or 1)"}, ("D-chosen-player",)),
    "extract": DecisionKind(
        "Last call for a dead creature's components as the phase of its death ends.",
        "the dead creature's opponent",
        {"extract <card id>#<uid>": "take them now", "decline": "the offer lapses"},
        ("D-components-window",)),
    "attack": DecisionKind(
        "Whether a ready guard-post creature attacks (asked once per creature).",
        "the active player",
        {"attack with <card id>#<uid>": "it attacks (and becomes passive)",
         "hold": "it stays back"}, ("D-combat",)),
    "block": DecisionKind(
        "Which of the defender's ready guard-post creatures blocks an attacker.",
        "the defending player",
        {"block with <card id>#<uid>": "that creature blocks it",
         "no block": "its damage hits the player"}, ("D-combat",)),
}


def label_pattern(shape: str) -> re.Pattern[str]:
    """A regular expression for an option label shape: ``<…>`` parts match any text."""
    parts = re.split(r"<[^>]+>", shape)
    return re.compile(".+".join(re.escape(p) for p in parts) + r"\Z", re.S)


_PATTERNS = {kind: [label_pattern(s) for s in d.options] for kind, d in DECISIONS.items()}


def decision_problems(kind: str, labels: object) -> list[str]:
    """What is wrong with a decision of ``kind`` offering (or choosing) ``labels``."""
    patterns = _PATTERNS.get(kind)
    if patterns is None:
        return [f"decision kind {kind!r} is not in hkk._vocabulary.DECISIONS"]
    return [f"{kind} decision: option {label!r} matches no registered label shape"
            for label in labels  # type: ignore[attr-defined]
            if not any(p.match(label) for p in patterns)]


# -- the reference page's sections ------------------------------------------------------------

def _rules(rules: tuple[str, ...]) -> str:
    return ", ".join(rules) if rules else "-"


def decisions_markdown() -> str:
    lines = ["## Decisions", "",
             "Players decide through one door, `agent.choose(game, decision) -> option`: "
             "`decision.kind`, `decision.player`, `decision.options` (each an `Option` with a "
             "`label`), `decision.labels()`, `decision.rule`. Scripts and agents match on the "
             "labels below (`<…>` is a variable part): `hkk.ScriptedAgent` and pytest-hkk's "
             "scripts take the option with exactly the label scripted, else the first whose "
             "label starts with it. Each decision is logged as a `decision` event.", ""]
    for kind, d in DECISIONS.items():
        lines += [f"### `{kind}`", "", d.meaning, "", f"Who decides: {d.who}.", ""]
        lines += [f"- `{shape}`: {meaning}" for shape, meaning in d.options.items()]
        lines += ["", f"Rules: {_rules(d.rules)}", ""]
    return "\n".join(lines)
