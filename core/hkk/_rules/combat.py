"""[D] D-combat: a simple provisional combat until the Kódex's ch. 33 is implemented.

Once per turn the active player may attack: he picks attackers among his active creatures on
the guard post (they become passive); the defender assigns to each attacker at most one of his
active guard-post creatures; damage is dealt at one moment; unblocked damage hits the player.

[D] D-trigger-attack: what the declaration (the ``attack`` event) triggers - "Amikor ez a lény
támad / blokkol" - resolves before the combat damage, each trigger followed by its Ép check; a
creature that has left play meanwhile deals and takes no combat damage, and an attacker whose
blocker has left play stays blocked.

[D] D-trigger-combat: the damage dealt in the combat's moment is combat damage ("Amikor ez a lény
harci sebzést okoz / szenved"): while dealing each hit the rule names its creature to the trigger
watch (``game.triggers.combat_source``), which a combat replacing this one does too."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hkk import ACTION, GUARD_POST, Option, Pending, Usage, hookimpl
from hkk.events import Attack

if TYPE_CHECKING:
    from hkk import Game


def _declare(game: Game, item: Pending) -> list[tuple[Any, Any]]:
    """Attackers, then a blocker for each.  A pure bind (it changes nothing), run again from
    its start for each decision answered from outside: it then goes on from what its run
    before had decided when it stopped (``machine.kept``), not through those decisions again.
    Its answers are the attacks, one an offer, then the blocks, one an attacker: how many are
    given says where it stands."""
    attacker_side = game.active
    machine = game.machine
    region, kept = machine.region, machine.kept
    pairs: list[tuple[Any, Any]]  # (attacker, blocker or None)
    if kept is not None and kept[0] is region:  # run again for an answer given from outside:
        offers, attackers, blocks, pairs = kept[1]  # its run before stopped here, and the game
        done = machine.replayed = len(region)  # waited since: every answer given is taken
    else:  # each side's active creatures on the guard post, offered
        offers, attackers, blocks, pairs = [], [], [], []
        done = 0
        for perm in game.permanents.values():
            if perm.zone == GUARD_POST and perm.active and perm.kind == "creature":
                if perm.controller == attacker_side:
                    offers.append((Option(f"attack with {perm.describe()}", perm),
                                   Option("hold")))
                else:  # a defender blocks one attacker at most: the blocks still open
                    blocks.append(Option(f"block with {perm.describe()}", perm))
    try:
        for offer in offers[done:] if done else offers:  # (no copy made: a seated run)
            answer = game.decide(attacker_side, "attack", offer, rule="D-combat")
            if answer.label != "hold":
                attackers.append(offer[0].value)
        defender = 1 - attacker_side  # game.opponent, without a call
        for attacker in attackers[len(pairs):] if pairs else attackers:
            answer = game.decide(defender, "block", [*blocks, _NO_BLOCK],
                                 prompt=f"Block {attacker.describe()}?", rule="D-combat")
            blocker = answer.value
            if blocker is not None:  # the offered option itself: found by identity, in C
                del blocks[list(map(id, blocks)).index(id(answer))]
            pairs.append((attacker, blocker))
    except BaseException:  # stopped at a decision: what is decided so far, for the run again
        if type(machine.region) is list:  # (tied to the bind's answers; never copied)
            machine.kept = (machine.region, (offers, attackers, blocks, pairs))
        raise
    return pairs


#: not blocking: the same answer in every block decision
_NO_BLOCK = Option("no block")


def _fight(game: Game, item: Pending, pairs: list[tuple[Any, Any]] | None) -> None:
    """The declared fight.  Its frame, ``["fight", pairs]`` (attacker and blocker uids), lets
    the triggers of the declaration stop at a decision and the fight go on after them."""
    machine = game.machine
    if machine.next_is("fight"):  # going back: the declaration was made and logged
        frame = machine.frame(["fight"])
        pairs = [(game.permanents.get(a) or _Gone(a), None if b is None
                  else game.permanents.get(b) or _Gone(b)) for a, b in frame[1]]
    else:
        if not pairs:
            return
        for attacker, _ in pairs:
            attacker.active = False
        game.emit(Attack, attackers=[a.uid for a, _ in pairs],
                  blockers=[b.uid if b is not None else None for _, b in pairs],
                  rule="D-combat")
        machine.frame(["fight", [(a.uid, None if b is None else b.uid) for a, b in pairs]])
    assert pairs is not None
    if game.triggers.waiting or machine.next_is("settle"):  # D-trigger-attack: first
        game.triggers.resolve_waiting()
        pairs = _still_fighting(game, pairs)
    machine.leave()
    # every damage value is read before any damage is dealt: one moment
    hits = []
    defender = game.players[game.opponent(game.active)]
    for attacker, blocker in pairs:
        if blocker is None:
            hits.append((defender, game.damage_value(attacker), attacker))
        else:
            hits.append((blocker, game.damage_value(attacker), attacker))
            hits.append((attacker, game.damage_value(blocker), blocker))
    triggers = game.triggers
    try:
        for target, amount, source in hits:
            triggers.combat_source = source  # D-trigger-combat: what this damage sets off
            game.damage(target, amount, source=source.describe(), source_uid=source.uid)
    finally:
        triggers.combat_source = None


class _Gone:
    """A fighter that left play while the machine stood at a decision: only its uid is read
    (:func:`_still_fighting` drops it)."""

    def __init__(self, uid: int) -> None:
        self.uid = uid


def _still_fighting(game: Game, pairs: list[tuple[Any, Any]]) -> list[tuple[Any, Any]]:
    """D-trigger-attack: the pairs after the triggers of the declaration.  A creature out of
    play deals and takes nothing; a blocked attacker stays blocked (its damage goes nowhere)."""
    fighting = []
    for attacker, blocker in pairs:
        if attacker.uid not in game.permanents:
            continue
        if blocker is not None and blocker.uid not in game.permanents:
            continue  # blocked: no damage reaches the player
        fighting.append((attacker, blocker))
    return fighting


class SimpleCombat:
    def __init__(self) -> None:  # one attack item per player, made once: it holds no game state
        self.attack = [Pending("attack", _fight, controller=player, kind=ACTION, bind=_declare,
                               usage=Usage(per_turn=1), rule="D-combat", key=("attack",))
                       for player in (0, 1)]

    @hookimpl
    def combat_phase(self, game: Game) -> list[Pending]:
        active = game.active
        # offered while he has a creature _declare() would offer: the first one found will do
        # (collected before every action decision of the combat phase)
        for perm in game.permanents.values():
            if perm.zone == GUARD_POST and perm.kind == "creature" and perm.active \
                    and perm.controller == active:
                return [self.attack[active]]
        return []
