"""The game's vocabulary: every event kind with its fields, every decision kind with its
option labels.  Plain data, the one registry behind ``hkk reference`` and ``docs/REFERENCE.md``.

It imports nothing from the engine, so any layer may read it.  ``tests/test_vocabulary.py``
plays seeded games of every deck pairing and fails when the engine emits an event kind, an event
field, a decision kind or an option label that is not registered here (and ``tests/conftest.py``
checks every event of the whole test suite the same way), or when a kind registered here is never
emitted.  Add a kind or a field here in the same commit that makes the engine emit it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["DECISIONS", "ENVELOPE", "EVENTS", "DecisionKind", "EventKind", "decision_problems",
           "event_problems", "label_pattern", "markdown"]


@dataclass(frozen=True)
class EventKind:
    meaning: str
    #: field name -> what it holds, in the order the engine writes them.
    fields: dict[str, str]
    #: Rule points (Kódex numbers, ``D-…``/``R-…`` tags of docs/RULINGS.md) where it is emitted.
    rules: tuple[str, ...] = ()
    #: Fields only some events of the kind carry; every other field is always there.
    optional: frozenset[str] = frozenset()
    #: Non-empty for kinds ordinary seeded games do not emit: when it happens.  The test
    #: ``tests/test_vocabulary.py::test_rare_event_kinds_are_emitted`` has a scenario for each.
    rare: str = ""


@dataclass(frozen=True)
class DecisionKind:
    meaning: str
    who: str
    #: label shape -> what choosing it means.  ``<…>`` stands for a variable part.
    options: dict[str, str]
    rules: tuple[str, ...] = ()


#: Every event carries these four attributes besides its fields (``event.seq``…; in JSON and
#: ``event.as_dict()`` they come first).
ENVELOPE: dict[str, str] = {
    "seq": "position in the log, from 0",
    "turn": "the turn number, from 1 (0 before the first turn)",
    "step": "the hook name of the step it happened in (`main_phase`, `end_stage2`…); "
            "`\"\"` outside steps (setup, the start and end of a turn)",
    "kind": "the event kind (the headings below)",
}

# Field meanings that recur, worded once.
_PLAYER = "player index, 0 or 1"
_UID = "the permanent's uid (its timestamp; see *How permanents are numbered*)"
_CARD = "card id, `<set>:<slug>`"
_SOURCE = "what caused it: an item label (`<card id>#<uid>:<ability>`), a card id (spell), a " \
          "permanent (`<card id>#<uid>`), a rule tag, or null"
_RULE = "the rule point or ruling tag"
_EFFECT_FIELDS = {
    "effect": "the effect's uid (same counter as permanents)",
    "stat": "`damage`, `hp`, `sp` or `vp_regen`",
    "by": "the modifier, e.g. 1 or -2",
    "duration": "`permanent`, `until_end_of_turn`, `this_turn`, `until_preparation`, "
                "`until_own_preparation` or `turns`",
    "targets": "uids of the permanents it modifies (fixed when made, K 99.5)",
    "player": "for `vp_regen`: the player whose regeneration it modifies; else null",
    "source": _SOURCE,
}

EVENTS: dict[str, EventKind] = {
    # -- the game and its turns -------------------------------------------------------------
    "game_started": EventKind(
        "The game begins (before shuffling and dealing).",
        {"seed": "the game's RNG seed", "decks": "the two decks' sizes",
         "built": "true when the game was set up by hand (`hkk.testing.set_up_by_hand`, "
                  "used by `hkk.testing.build_game` and pytest-hkk's `hkk_game`): no "
                  "shuffle, no deal"},
        ("3.6-3.12",), optional=frozenset({"built"})),
    "starting_player": EventKind(
        "Who plays the first turn, after the `start` decision.",
        {"player": _PLAYER}, ("28",)),
    "turn_started": EventKind(
        "A turn begins; the deferred Ép check of 41.4 follows at once.",
        {"player": "the active player", "turn_of_player": "his own turn number (29.3)"},
        ("41.6", "D-own-turn-number")),
    "step_started": EventKind(
        "A step of the turn begins.",
        {"phase": "`preparation`, `main`, `combat` or `end`", "stage": "the stage, from 1",
         "hook": "the step's hook name", "mode": "`simultaneous`, `ordered`, `alternating` "
                                                 "or `actions` (how its items run)"},
        ("D-phase-list",)),
    "step_ended": EventKind("A step ends.", {"hook": "the step's hook name"}, ("D-phase-list",)),
    "turn_ended": EventKind(
        "The turn is over; the other player's turn follows.",
        {"player": "the player whose turn it was", "rule": _RULE}, ("41.6",)),
    "game_over": EventKind(
        "The game ends (always the last event).",
        {"winner": "the winner's index, null for a draw",
         "reason": "`hp` (a player at 0 Ép), `empty_deck` or `turn_limit`", "rule": _RULE},
        ("3.12", "D-both-lose", "D-empty-deck", "D-turn-limit")),
    "clock_closed": EventKind(
        "The game clock counts the turn as closed (the elapsed time is not logged).",
        {"player": "the active player", "rule": _RULE}, ("41.7", "D-41.7-last-pass")),
    # -- decisions and items ---------------------------------------------------------------------
    "decision": EventKind(
        "A player decided (see *Decisions* for the kinds and labels).",
        {"player": _PLAYER, "decision": "the decision kind", "choice": "the chosen option's label",
         "options": "how many options were offered", "rule": _RULE + ", or null"}),
    "resolving": EventKind(
        "A pending item starts resolving (its cost is paid next, then it acts).",
        {"item": "the item's label", "controller": "its controller, null for the rules",
         "item_kind": "`automatic`, `activated`, `rule` or `action`",
         "card": "the card id, or null", "source": "the source permanent's uid, or null",
         "ability": "the ability index on the card, or null"},
        ("29.4.1", "41.1", "41.2")),
    "moment": EventKind(
        "A simultaneous moment: the listed items, the expiry and the bonus loss happen together.",
        {"rule": _RULE, "items": "labels of the items of the moment",
         "ends": "the durations that end at it"},
        ("29.4.2", "29.4.4", "29.4.5", "41.4")),
    "triggered": EventKind(
        "Something set off a triggered ability or a plugin's `triggered` hook: the item waits "
        "until the cause has finished and its Ép check is done (a `resolving` follows, or a "
        "`use` decision for an optional one).",
        {"item": "the triggered item's label (`<card id>#<uid>:<ability>@<seq>` for a card)",
         "controller": "its controller", "card": "the card id, or null",
         "ability": "the ability index on the card, or null",
         "optional": "true if its controller may decline it",
         "cause": "the kind of the event that set it off", "cause_seq": "that event's seq",
         "chain": "how many triggers long its chain is (1: set off by no other trigger)"},
        ("D-trigger-wait", "D-trigger-loop")),
    "item_dropped": EventKind(
        "An item of a moment is left out: it cannot be paid beside the others chosen.",
        {"item": "the item's label", "controller": _PLAYER, "reason": "why, in words",
         "rule": _RULE},
        ("29.4.2", "D-moment-payments"),
        rare="two paid items at one moment that the player cannot afford together"),
    "cost_paid": EventKind(
        "An item's cost is paid (after `resolving`).",
        {"player": _PLAYER, "item": "the item's label", "vp": "VP paid",
         "components": "monster components paid", "sacrifice": "true if its source was "
                                                                "sacrificed (a `died` follows)"},
        ("29.4.9",)),
    "passed": EventKind(
        "A player passes in an action phase or in end stage 1.",
        {"player": _PLAYER, "rule": _RULE,
         "forced": "end stage 1 only: true when he had nothing to use and was not asked"},
        ("4.11.7", "41.1", "D-forced-pass"), optional=frozenset({"forced"})),
    "turn_passed": EventKind(
        "The active player passes for the whole turn.", {"player": _PLAYER, "rule": _RULE},
        ("41.5",)),
    # -- cards -------------------------------------------------------------------------------
    "card_drawn": EventKind(
        "A card goes from the deck to the hand.",
        {"player": _PLAYER, "card": _CARD, "source": "`setup`, `D-stage4` or the item label"},
        ("28", "D-stage4")),
    "draw_failed": EventKind(
        "A player had to draw from an empty deck.", {"player": _PLAYER, "source": _SOURCE},
        ("D-empty-deck",)),
    "card_played": EventKind(
        "A card is played from hand and paid for.",
        {"player": _PLAYER, "card": _CARD, "vp": "VP paid", "components": "components paid"},
        ("8.1", "D-instants")),
    "entered_play": EventKind(
        "A creature or building enters play.",
        {"player": "its controller", "card": _CARD, "uid": _UID,
         "zone": "`reserve`, `guard_post` or `buildings`", "active": "true if it entered active"},
        ("8.1.2", "D-buildings-passive")),
    "became_active": EventKind(
        "A passive permanent becomes active.", {"uid": _UID, "card": _CARD, "rule": _RULE},
        ("D-stage3",)),
    "moved": EventKind(
        "A creature moves to another zone.",
        {"uid": _UID, "card": _CARD, "zone": "the zone it is in now", "rule": _RULE},
        ("D-guard-post",)),
    "attack": EventKind(
        "Combat damage is about to be dealt.",
        {"attackers": "uids of the attacking creatures",
         "blockers": "for each attacker the blocker's uid, or null", "rule": _RULE},
        ("D-combat",)),
    # -- Ép, damage, death ------------------------------------------------------------------------
    "hp_check": EventKind(
        "An Ép check: every permanent at 0 Ép (Sp) or less, or named by a `lethal` hook, dies.",
        {"rule": _RULE, "dead": "uids of the permanents that die in this round",
         "round": "only from the second round on: its number (a death took a bonus away)"},
        ("29.4.10", "41.4", "D-hp-check", "D-settled-check", "D-lethal"),
        optional=frozenset({"round"})),
    "died": EventKind(
        "A creature leaves play for its owner's graveyard (or void).",
        {"card": _CARD, "uid": _UID, "controller": "its controller (not `player`)",
         "cause": "`hp`, `sacrificed`, `sacrificed_as_cost`, `destroyed` or a `lethal` cause "
                  "(`poison`)",
         "to": "`graveyard` or `void`", "rule": _RULE + ", or null",
         "components_offered": "monster components its opponent may now extract (0: none)"},
        ("29.4.10", "29.4.11", "D-lethal", "D-components-window")),
    "destroyed": EventKind(
        "A building leaves play (same fields as `died`).",
        {"card": _CARD, "uid": _UID, "controller": "its controller", "cause": "as for `died`",
         "to": "`graveyard` or `void`", "rule": _RULE + ", or null",
         "components_offered": "always 0 (buildings have no components)"},
        ("29.4.10",)),
    "damaged": EventKind(
        "A permanent takes damage.",
        {"uid": _UID, "card": _CARD, "amount": "damage dealt", "source": _SOURCE,
         "hp": "its Ép (Sp) after it"}),
    "player_damaged": EventKind(
        "A player takes damage.",
        {"player": _PLAYER, "amount": "damage dealt", "source": _SOURCE,
         "hp": "his Ép after it"}, ("3.12",)),
    "healed": EventKind(
        "A damaged permanent heals.",
        {"uid": _UID, "card": _CARD, "amount": "Ép healed", "source": _SOURCE},
        rare="a heal effect aimed at a damaged creature (no shipped card does it)"),
    "player_healed": EventKind(
        "A player heals.", {"player": _PLAYER, "amount": "Ép healed", "source": _SOURCE}),
    "restored": EventKind(
        "A damaged permanent returns to its max Ép (Sp).",
        {"uid": _UID, "card": _CARD, "hp": "its Ép now", "rule": _RULE}, ("41.3",)),
    # -- VP, components, counters, defence ------------------------------------------------------
    "vp_regenerated": EventKind(
        "The active player's VP regeneration.",
        {"player": _PLAYER, "amount": "VP received", "vp": "his VP now", "rule": _RULE},
        ("29.3", "29.4.5", "D-vp-carry")),
    "vp_gained": EventKind(
        "A player gains VP.",
        {"player": _PLAYER, "amount": "VP gained", "source": _SOURCE, "vp": "his VP now"}),
    "vp_lost": EventKind(
        "A player loses VP (never below 0; inside a moment it nets out first).",
        {"player": _PLAYER, "amount": "VP lost", "source": _SOURCE, "vp": "his VP now"},
        ("D-moment-nets",), rare="a `lose_vp` effect (no shipped card has one)"),
    "components_gained": EventKind(
        "A player gains monster components.",
        {"player": _PLAYER, "count": "how many", "source": _SOURCE}),
    "components_paid": EventKind(
        "A player pays monster components to an effect.",
        {"player": _PLAYER, "count": "how many", "source": _SOURCE},
        ("D-moment-nets",), rare="a `pay_components` effect (no shipped card has one)"),
    "components_extracted": EventKind(
        "A player extracts a dead creature's monster components (a `components_gained` "
        "comes first).",
        {"player": _PLAYER, "card": _CARD, "uid": "the dead creature's uid", "count": "how many"},
        ("D-components-window",)),
    "components_declined": EventKind(
        "A player leaves a dead creature's components as its phase ends; the offer lapses.",
        {"player": _PLAYER, "card": _CARD, "uid": "the dead creature's uid"},
        ("D-components-window",)),
    "counters_added": EventKind(
        "Counters are put on a permanent.",
        {"uid": _UID, "counter": "the counter's name, e.g. `poison`", "count": "how many",
         "total": "its counters of that name now", "source": _SOURCE},
        ("121.1",)),
    "counters_removed": EventKind(
        "Counters are taken off a permanent.",
        {"uid": _UID, "counter": "the counter's name", "count": "how many",
         "total": "its counters of that name now", "source": _SOURCE}),
    "defence_bonus_gained": EventKind(
        "A creature gets a defence bonus (it raises max Ép).",
        {"uid": _UID, "amount": "the bonus", "source": _SOURCE}),
    "defence_bonus_lost": EventKind(
        "A creature loses its whole defence bonus.",
        {"uid": _UID, "amount": "the bonus it had", "rule": _RULE + ", or null",
         "source": _SOURCE},
        ("41.4",)),
    # -- lasting effects -------------------------------------------------------------------------
    "effect_created": EventKind(
        "A \"this turn\" effect made in preparation stage 1 waits for stage 2.",
        dict(_EFFECT_FIELDS), ("29.4.5", "D-this-turn-wait"),
        rare="a `this_turn` effect made in preparation stage 1 (only plugins can)"),
    "effect_started": EventKind(
        "A lasting effect starts: its modifier counts from now on.",
        {**_EFFECT_FIELDS,
         "ends_turn": "for a `turns` duration, the turn in whose end stage 4 it ends; for "
                      "`until_own_preparation` made in its controller's own stage 1, the turn "
                      "at whose stage 2 it ends",
         "rule": "only for an effect that waited (`effect_created`): `29.4.5`"},
        ("29.4.5", "D-counted-turns", "D-own-preparation"),
        optional=frozenset({"rule", "ends_turn"})),
    "effect_ended": EventKind(
        "A lasting effect ends (all of a moment's together, each logged after all are gone).",
        {"effect": "the effect's uid", "stat": "its stat",
         "targets": "uids of the permanents it no longer modifies",
         "rule": _RULE,
         "partial": "only when it ends for some of its permanents (`targets`) and goes on for "
                    "the others (D-dispel): true"},
        ("29.4.4", "41.4", "D-end4-created", "D-counted-turns", "D-dispel"),
        optional=frozenset({"partial"})),
    "prevented": EventKind(
        "An item resolves without effect: a static ability prevents it (after `resolving` and, "
        "for an activated ability, `cost_paid`: the use and the attempt count, 29.4.9).",
        {"item": "the item's label", "controller": _PLAYER, "card": _CARD + " of the item",
         "by": "the preventing permanent, `<card id>#<uid>`", "rule": _RULE},
        ("29.4.9", "D-prevented")),
}

DECISIONS: dict[str, DecisionKind] = {
    "start": DecisionKind(
        "The randomly chosen player starts or hands the first turn over.",
        "the player the RNG picked",
        {"start": "he plays the first turn", "hand over": "his opponent does"}, ("28",)),
    "order": DecisionKind(
        "Which pending item happens next (asked only when more than one is ready).",
        "the active player (29.4.1; D-orderer elsewhere); for \"enters play\" effects the "
        "permanent's controller",
        {"<item label>": "that item resolves next; the others are collected again after it"},
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


def event_problems(kind: str, fields: object) -> list[str]:
    """What is wrong with an event of ``kind`` carrying ``fields`` (names), by the registry:
    an unknown kind, an unknown field, a missing field.  Empty when it is registered."""
    known = EVENTS.get(kind)
    if known is None:
        return [f"event kind {kind!r} is not in hkk._vocabulary.EVENTS"]
    names = set(fields)  # type: ignore[call-overload]
    problems = [f"event {kind!r} carries field {name!r}, not registered in hkk._vocabulary"
                for name in sorted(names - set(known.fields))]
    problems += [f"event {kind!r} lacks field {name!r}, registered as always present"
                 for name in sorted(set(known.fields) - known.optional - names)]
    return problems


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


def events_markdown() -> str:
    lines = ["## Events", "",
             "Everything that happens is an event in `game.log` (`hkk.EventLog`): "
             "`game.log.of_kind(\"died\")`, `event[\"card\"]`, `event.get(\"round\")`, "
             "`event.as_dict()`. Every event has the envelope",
             ""]
    lines += [f"- `{name}`: {meaning}" for name, meaning in ENVELOPE.items()]
    lines += ["", "and the fields of its kind, in this order. A field marked *(optional)* is "
              "missing from some events of the kind; every other field is always there (null "
              "where it says so). Rule points are where the kind is emitted.", ""]
    for kind, ev in EVENTS.items():
        lines += [f"### `{kind}`", "", ev.meaning + (f" Rare: {ev.rare}." if ev.rare else ""),
                  ""]
        for name, meaning in ev.fields.items():
            mark = " *(optional)*" if name in ev.optional else ""
            lines.append(f"- `{name}`{mark}: {meaning}")
        lines += ["", f"Rules: {_rules(ev.rules)}", ""]
    return "\n".join(lines)


def decisions_markdown() -> str:
    lines = ["## Decisions", "",
             "Players decide through one door, `agent.choose(game, decision) -> option`: "
             "`decision.kind`, `decision.player`, `decision.options` (each an `Option` with a "
             "`label`), `decision.labels()`, `decision.rule`. Scripts and agents match on the "
             "labels below (`<…>` is a variable part). Each decision is logged as a `decision` "
             "event.", ""]
    for kind, d in DECISIONS.items():
        lines += [f"### `{kind}`", "", d.meaning, "", f"Who decides: {d.who}.", ""]
        lines += [f"- `{shape}`: {meaning}" for shape, meaning in d.options.items()]
        lines += ["", f"Rules: {_rules(d.rules)}", ""]
    return "\n".join(lines)


def markdown() -> str:
    """The events and decisions sections of the reference page."""
    return events_markdown() + "\n" + decisions_markdown()
