"""Every event kind the engine logs, one class each, defined here once (hook API 2.0).

An event is an immutable instance of its kind's class: the envelope ``seq``, ``turn``, ``step``
(and the class's ``kind`` string), then the kind's fields in the order the class declares them.
``event.amount`` reads a field; ``event["amount"]`` and ``event.get("round")`` still work.
The reference page (``hkk reference events``, ``docs/REFERENCE.md``) is generated from these
classes, and a test over them holds every kind to one convention:

- who it concerns is ``player`` (a player index); a permanent's owner is ``controller``;
- a permanent is its ``uid`` with its ``card`` id beside it (another permanent of the event:
  ``<role>_uid``, ``<role>_card``);
- how much is ``amount``; a value after the change is ``after``;
- where it came from is ``source``: always a string (an item label, a card id, a permanent
  ``<card id>#<uid>``, a rule tag) or null.

The engine emits an event as ``game.emit(Damaged, uid=..., card=..., ...)``: the class and its
fields, so a log that neither keeps nor hands it to anybody does not even build it.  A new kind
is one more class here, decorated with :func:`kind` (which, with :class:`Event`, :func:`field`
and the registry of kinds, lives in :mod:`hkk._event_base`).

Hook API 1 names (``event["count"]``, ``event["vp"]`` for "VP now"...) still read, for one
release, with a ``DeprecationWarning`` naming the new field (:attr:`Event.RENAMED`).
"""

from __future__ import annotations

from typing import Any

from hkk._event_base import ENVELOPE, KINDS, Event, field, kind, of

__all__ = ["ENVELOPE", "KINDS", "Event", "field", "kind", "of"]  # and every kind's class


# -- field meanings that recur, worded once --------------------------------------------------------

_PLAYER = "player index, 0 or 1"
_CONTROLLER = "its controller (the permanent's owner in play)"
_UID = "the permanent's uid (its timestamp; see *How permanents are numbered*)"
_CARD = "card id, `<set>:<slug>`"
_SOURCE = ("what caused it, a string: an item label (`<card id>#<uid>:<ability>`), a card id "
           "(spell), a permanent (`<card id>#<uid>`), a rule tag; or null")
_RULE = "the rule point or ruling tag"


# -- the game and its turns ------------------------------------------------------------------------

@kind("game_started", rules=("3.6-3.12",))
class GameStarted(Event):
    """The game begins (before shuffling and dealing)."""
    seed: int = field("the game's RNG seed (`\"?\"` in a player's view until the game is over)")
    decks: list[int] = field("the two decks' sizes")
    built: bool | None = field(
        "true when the game was set up by hand (`hkk.testing.set_up_by_hand`, used by "
        "`hkk.testing.build_game` and pytest-hkk's `hkk_game`): no shuffle, no deal",
        optional=True)


@kind("starting_player", rules=("28",))
class StartingPlayer(Event):
    """Who plays the first turn, after the `start` decision."""
    player: int = field(_PLAYER)


@kind("turn_started", rules=("41.6", "D-own-turn-number"))
class TurnStarted(Event):
    """A turn begins; the deferred Ép check of 41.4 follows at once."""
    player: int = field("the active player")
    turn_of_player: int = field("his own turn number (29.3)")


@kind("step_started", rules=("D-phase-list",))
class StepStarted(Event):
    """A step of the turn begins."""
    phase: str = field("`preparation`, `main`, `combat` or `end`")
    stage: int = field("the stage, from 1")
    hook: str = field("the step's hook name")
    mode: str = field("`simultaneous`, `ordered`, `alternating` or `actions` (how its items "
                      "run)")


@kind("step_ended", rules=("D-phase-list",))
class StepEnded(Event):
    """A step ends."""
    hook: str = field("the step's hook name")


@kind("turn_ended", rules=("41.6",))
class TurnEnded(Event):
    """The turn is over; the other player's turn follows."""
    player: int = field("the player whose turn it was")
    rule: str = field(_RULE)


@kind("game_over", rules=("3.12", "D-both-lose", "D-empty-deck", "D-turn-limit"))
class GameEnded(Event):
    """The game ends (always the last event)."""
    winner: int | None = field("the winner's index, null for a draw")
    reason: str = field("`hp` (a player at 0 Ép), `empty_deck` or `turn_limit`")
    rule: str = field(_RULE)


@kind("clock_closed", rules=("41.7", "D-41.7-last-pass"))
class ClockClosed(Event):
    """The game clock counts the turn as closed (the elapsed time is not logged)."""
    player: int = field("the active player")
    rule: str = field(_RULE)


# -- decisions and items ---------------------------------------------------------------------------

@kind("decision")
class Decided(Event):
    """A player decided (see *Decisions* for the kinds and labels)."""
    player: int = field(_PLAYER)
    decision: str = field("the decision kind")
    choice: str = field("the chosen option's label")
    options: int = field("how many options were offered")
    rule: str | None = field(_RULE + ", or null")


@kind("resolving", rules=("29.4.1", "41.1", "41.2"), renamed={"source": "uid"})
class Resolving(Event):
    """A pending item starts resolving (its cost is paid next, then it acts)."""
    item: str = field("the item's label")
    controller: int | None = field("its controller, null for the rules")
    item_kind: str = field("`automatic`, `activated`, `rule` or `action`")
    card: str | None = field("the card id, or null")
    uid: int | None = field("the uid of the permanent whose ability it is, or null")
    ability: int | None = field("the ability index on the card, or null")


@kind("moment", rules=("29.4.2", "29.4.4", "29.4.5", "41.4"))
class Moment(Event):
    """A simultaneous moment: the listed items, the expiry and the bonus loss happen together."""
    rule: str = field(_RULE)
    items: list[str] = field("labels of the items of the moment")
    ends: list[str] = field("the durations that end at it")


@kind("triggered", rules=("D-trigger-wait", "D-trigger-loop"))
class Triggered(Event):
    """Something set off a triggered ability or a plugin's `triggered` hook: the item waits
    until the cause has finished and its Ép check is done (a `resolving` follows, or a `use`
    decision for an optional one)."""
    item: str = field("the triggered item's label (`<card id>#<uid>:<ability>` for a card, "
                      "` (2)`… after it for the same ability set off again while it waits)")
    controller: int | None = field("its controller")
    card: str | None = field("the card id, or null")
    ability: int | None = field("the ability index on the card, or null")
    optional: bool = field("true if its controller may decline it")
    cause: str = field("the kind of the event that set it off")
    cause_seq: int = field("that event's seq")
    chain: int = field("how many triggers long its chain is (1: set off by no other trigger)")


@kind("item_dropped", rules=("29.4.2", "D-moment-payments"),
      rare="two paid items at one moment that the player cannot afford together")
class ItemDropped(Event):
    """An item of a moment is left out: it cannot be paid beside the others chosen."""
    item: str = field("the item's label")
    controller: int | None = field(_PLAYER)
    reason: str = field("why, in words")
    rule: str = field(_RULE)


@kind("cost_paid", rules=("29.4.9",), renamed={"player": "controller"})
class CostPaid(Event):
    """An item's cost is paid (after `resolving`)."""
    controller: int | None = field("the item's controller, who pays")
    item: str = field("the item's label")
    vp: int = field("VP paid")
    components: int = field("monster components paid")
    sacrifice: bool = field("true if its source was sacrificed (a `died` follows)")


@kind("passed", rules=("4.11.7", "41.1", "D-forced-pass"))
class Passed(Event):
    """A player passes in an action phase or in end stage 1."""
    player: int = field(_PLAYER)
    rule: str = field(_RULE)
    forced: bool | None = field("end stage 1 only: true when he had nothing to use and was "
                                "not asked", optional=True)


@kind("turn_passed", rules=("41.5",))
class TurnPassed(Event):
    """The active player passes for the whole turn."""
    player: int = field(_PLAYER)
    rule: str = field(_RULE)


# -- cards -----------------------------------------------------------------------------------------

@kind("card_drawn", rules=("28", "D-stage4"))
class CardDrawn(Event):
    """A card goes from the deck to the hand."""
    player: int = field(_PLAYER)
    card: str = field(_CARD)
    source: str | None = field("`setup`, `D-stage4` or the item label")


@kind("draw_failed", rules=("D-empty-deck",))
class DrawFailed(Event):
    """A player had to draw from an empty deck."""
    player: int = field(_PLAYER)
    source: str | None = field(_SOURCE)


@kind("card_played", rules=("8.1", "D-instants"))
class CardPlayed(Event):
    """A card is played from hand and paid for."""
    player: int = field(_PLAYER)
    card: str = field(_CARD)
    vp: int = field("VP paid")
    components: int = field("monster components paid")


@kind("entered_play", rules=("8.1.2", "D-buildings-passive"), renamed={"player": "controller"})
class EnteredPlay(Event):
    """A creature or building enters play."""
    controller: int = field(_CONTROLLER)
    card: str = field(_CARD)
    uid: int = field(_UID)
    zone: str = field("`reserve`, `guard_post` or `buildings`")
    active: bool = field("true if it entered active")


@kind("became_active", rules=("D-stage3",))
class BecameActive(Event):
    """A passive permanent becomes active."""
    uid: int = field(_UID)
    card: str = field(_CARD)
    rule: str = field(_RULE)


@kind("moved", rules=("D-guard-post",))
class Moved(Event):
    """A creature moves to another zone."""
    uid: int = field(_UID)
    card: str = field(_CARD)
    zone: str = field("the zone it is in now")
    rule: str = field(_RULE)


@kind("attack", rules=("D-combat",))
class Attack(Event):
    """Combat damage is about to be dealt."""
    attackers: list[int] = field("uids of the attacking creatures")
    blockers: list[int | None] = field("for each attacker the blocker's uid, or null")
    rule: str = field(_RULE)


# -- Ép, damage, death -----------------------------------------------------------------------------

@kind("hp_check", rules=("29.4.10", "41.4", "D-hp-check", "D-settled-check", "D-lethal"))
class HpCheck(Event):
    """An Ép check: every permanent at 0 Ép (Sp) or less, or named by a `lethal` hook, dies."""
    rule: str = field(_RULE)
    dead: list[int] = field("uids of the permanents that die in this round")
    round: int | None = field("only from the second round on: its number (a death took a "
                              "bonus away)", optional=True)


@kind("died", rules=("29.4.10", "29.4.11", "D-lethal", "D-components-window"))
class Died(Event):
    """A creature leaves play for its owner's graveyard (or void)."""
    card: str = field(_CARD)
    uid: int = field(_UID)
    controller: int = field(_CONTROLLER)
    cause: str = field("`hp`, `sacrificed`, `sacrificed_as_cost`, `destroyed` or a `lethal` "
                       "cause (`poison`)")
    to: str = field("`graveyard` or `void`")
    rule: str | None = field(_RULE + ", or null")
    components_offered: int = field("monster components its opponent may now extract (0: "
                                    "none)")


@kind("destroyed", rules=("29.4.10",))
class Destroyed(Event):
    """A building leaves play (same fields as `died`)."""
    card: str = field(_CARD)
    uid: int = field(_UID)
    controller: int = field(_CONTROLLER)
    cause: str = field("as for `died`")
    to: str = field("`graveyard` or `void`")
    rule: str | None = field(_RULE + ", or null")
    components_offered: int = field("always 0 (buildings have no components)")


@kind("damaged", renamed={"hp": "after"})
class Damaged(Event):
    """A permanent takes damage."""
    uid: int = field(_UID)
    card: str = field(_CARD)
    amount: int = field("damage dealt")
    source: str | None = field(_SOURCE)
    source_uid: int | None = field("the permanent whose ability or combat damage dealt it "
                                   "(D-trigger-source), or null")
    after: int = field("its Ép (Sp) after it")


@kind("player_damaged", rules=("3.12",), renamed={"hp": "after"})
class PlayerDamaged(Event):
    """A player takes damage."""
    player: int = field(_PLAYER)
    amount: int = field("damage dealt")
    source: str | None = field(_SOURCE)
    after: int = field("his Ép after it")


@kind("healed", rare="a heal effect aimed at a damaged creature (no shipped card does it)")
class Healed(Event):
    """A damaged permanent heals."""
    uid: int = field(_UID)
    card: str = field(_CARD)
    amount: int = field("Ép healed")
    source: str | None = field(_SOURCE)


@kind("player_healed")
class PlayerHealed(Event):
    """A player heals."""
    player: int = field(_PLAYER)
    amount: int = field("Ép healed")
    source: str | None = field(_SOURCE)


@kind("restored", rules=("41.3",), renamed={"hp": "after"})
class Restored(Event):
    """A damaged permanent returns to its max Ép (Sp)."""
    uid: int = field(_UID)
    card: str = field(_CARD)
    after: int = field("its Ép now")
    rule: str = field(_RULE)


# -- VP, components, counters, defence -------------------------------------------------------------

@kind("vp_regenerated", rules=("29.3", "29.4.5", "D-vp-carry"), renamed={"vp": "after"})
class VpRegenerated(Event):
    """The active player's VP regeneration."""
    player: int = field(_PLAYER)
    amount: int = field("VP received")
    after: int = field("his VP now")
    rule: str = field(_RULE)


@kind("vp_gained", renamed={"vp": "after"})
class VpGained(Event):
    """A player gains VP."""
    player: int = field(_PLAYER)
    amount: int = field("VP gained")
    source: str | None = field(_SOURCE)
    after: int = field("his VP now")


@kind("vp_lost", rules=("D-moment-nets",), renamed={"vp": "after"},
      rare="a `lose_vp` effect (no shipped card has one)")
class VpLost(Event):
    """A player loses VP (never below 0; inside a moment it nets out first)."""
    player: int = field(_PLAYER)
    amount: int = field("VP lost")
    source: str | None = field(_SOURCE)
    after: int = field("his VP now")


@kind("components_gained", renamed={"count": "amount"})
class ComponentsGained(Event):
    """A player gains monster components."""
    player: int = field(_PLAYER)
    amount: int = field("how many")
    source: str | None = field(_SOURCE)


@kind("components_paid", rules=("D-moment-nets",), renamed={"count": "amount"},
      rare="a `pay_components` effect (no shipped card has one)")
class ComponentsPaid(Event):
    """A player pays monster components to an effect."""
    player: int = field(_PLAYER)
    amount: int = field("how many")
    source: str | None = field(_SOURCE)


@kind("components_extracted", rules=("D-components-window",), renamed={"count": "amount"})
class ComponentsExtracted(Event):
    """A player extracts a dead creature's monster components (a `components_gained` comes
    first)."""
    player: int = field(_PLAYER)
    card: str = field(_CARD)
    uid: int = field("the dead creature's uid")
    amount: int = field("how many")


@kind("components_declined", rules=("D-components-window",))
class ComponentsDeclined(Event):
    """A player leaves a dead creature's components as its phase ends; the offer lapses."""
    player: int = field(_PLAYER)
    card: str = field(_CARD)
    uid: int = field("the dead creature's uid")


@kind("counters_added", rules=("121.1",), renamed={"count": "amount", "total": "after"})
class CountersAdded(Event):
    """Counters are put on a permanent."""
    uid: int = field(_UID)
    card: str = field(_CARD)
    counter: str = field("the counter's name, e.g. `poison`")
    amount: int = field("how many")
    after: int = field("its counters of that name now")
    source: str | None = field(_SOURCE)


@kind("counters_removed", renamed={"count": "amount", "total": "after"})
class CountersRemoved(Event):
    """Counters are taken off a permanent."""
    uid: int = field(_UID)
    card: str = field(_CARD)
    counter: str = field("the counter's name")
    amount: int = field("how many")
    after: int = field("its counters of that name now")
    source: str | None = field(_SOURCE)


@kind("defence_bonus_gained")
class DefenceBonusGained(Event):
    """A creature gets a defence bonus (it raises max Ép)."""
    uid: int = field(_UID)
    card: str = field(_CARD)
    amount: int = field("the bonus")
    source: str | None = field(_SOURCE)


@kind("defence_bonus_lost", rules=("41.4",))
class DefenceBonusLost(Event):
    """A creature loses its whole defence bonus."""
    uid: int = field(_UID)
    card: str = field(_CARD)
    amount: int = field("the bonus it had")
    rule: str | None = field(_RULE + ", or null")
    source: str | None = field(_SOURCE)


# -- lasting effects -------------------------------------------------------------------------------

_EFFECT = "the effect's uid (same counter as permanents)"
_STAT = "`damage`, `hp`, `sp` or `vp_regen`"
_MODIFIER = "the modifier, e.g. 1 or -2"
_DURATION = ("`permanent`, `until_end_of_turn`, `this_turn`, `until_preparation`, "
             "`until_own_preparation` or `turns`")
_TARGETS = "uids of the permanents it modifies (fixed when made, K 99.5)"
_EFFECT_PLAYER = "for `vp_regen`: the player whose regeneration it modifies; else null"


@kind("effect_created", rules=("29.4.5", "D-this-turn-wait"), renamed={"by": "amount"},
      rare="a `this_turn` effect made in preparation stage 1 (only plugins can)")
class EffectCreated(Event):
    """A "this turn" effect made in preparation stage 1 waits for stage 2."""
    effect: int = field(_EFFECT)
    stat: str = field(_STAT)
    amount: int = field(_MODIFIER)
    duration: str = field(_DURATION)
    targets: list[int] = field(_TARGETS)
    player: int | None = field(_EFFECT_PLAYER)
    source: str | None = field(_SOURCE)


@kind("effect_started", rules=("29.4.5", "D-counted-turns", "D-own-preparation"),
      renamed={"by": "amount"})
class EffectStarted(Event):
    """A lasting effect starts: its modifier counts from now on."""
    effect: int = field(_EFFECT)
    stat: str = field(_STAT)
    amount: int = field(_MODIFIER)
    duration: str = field(_DURATION)
    targets: list[int] = field(_TARGETS)
    player: int | None = field(_EFFECT_PLAYER)
    source: str | None = field(_SOURCE)
    ends_turn: int | None = field("for a `turns` duration, the turn in whose end stage 4 it "
                                  "ends; for `until_own_preparation` made in its controller's "
                                  "own stage 1, the turn at whose stage 2 it ends",
                                  optional=True)
    rule: str | None = field("only for an effect that waited (`effect_created`): `29.4.5`",
                             optional=True)


@kind("effect_ended", rules=("29.4.4", "41.4", "D-end4-created", "D-counted-turns", "D-dispel"))
class EffectEnded(Event):
    """A lasting effect ends (all of a moment's together, each logged after all are gone)."""
    effect: int = field("the effect's uid")
    stat: str = field("its stat")
    targets: list[int] = field("uids of the permanents it no longer modifies")
    rule: str = field(_RULE)
    partial: bool | None = field("only when it ends for some of its permanents (`targets`) "
                                 "and goes on for the others (D-dispel): true", optional=True)


def _prevented_by(event: Any) -> str:
    """preventer_card and preventer_uid"""
    return f"{event.preventer_card}#{event.preventer_uid}"


@kind("prevented", rules=("29.4.9", "D-prevented"), legacy={"by": _prevented_by})
class Prevented(Event):
    """An item resolves without effect: a static ability prevents it (after `resolving` and,
    for an activated ability, `cost_paid`: the use and the attempt count, 29.4.9)."""
    item: str = field("the item's label")
    controller: int | None = field(_PLAYER)
    card: str | None = field(_CARD + " of the item")
    preventer_uid: int = field("the uid of the preventing permanent")
    preventer_card: str = field("its card id")
    rule: str = field(_RULE)
