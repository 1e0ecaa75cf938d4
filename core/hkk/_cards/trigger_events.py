"""The trigger events of the card-data language (``when = { event = "..." }``), one class each.

A :class:`TriggerEvent` says what the word means (for ``hkk schema``), which logged event kinds
set it off, what each such event happened to (its :class:`Subject`: the permanent or the card
played, and what ``trigger_*`` targets bind to), which ``trigger_*`` targets it offers, and how
``hkk cards`` reads it.  :mod:`hkk._triggers` listens to the log kinds and matches the subjects
against each ability's ``when``.  Adding an event is one class here with ``@trigger_event``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

from hkk._cards.registry import Registry

if TYPE_CHECKING:
    from hkk._state import Permanent
    from hkk._view import GameView

__all__ = ["WHEN_EVENTS", "Subject", "TriggerEvent", "hu_subject", "trigger_event"]


class Subject:
    """What an event happened to: a permanent (or a card played) and the bindings it offers."""

    __slots__ = ("uid", "controller", "card_kind", "permanent", "source", "amount")

    def __init__(self, uid: int | None, controller: int, card_kind: str,
                 permanent: Permanent | None = None, source: Permanent | None = None,
                 amount: int | None = None) -> None:
        self.uid = uid
        self.controller = controller
        self.card_kind = card_kind
        self.permanent = permanent
        self.source = source
        #: The event's amount (the damage dealt), counted by ``trigger_amount``.
        self.amount = amount


class TriggerEvent:
    """One ``when.event`` word."""

    name: ClassVar[str]
    #: What it means, for authors and their editors (``hkk schema``).
    meaning: ClassVar[str]
    #: The logged event kinds that set it off.
    log_kinds: ClassVar[tuple[str, ...]]
    #: It happens to a permanent (``which`` and ``card_kind`` "creature"/"building" apply);
    #: otherwise to ``subject``.
    of_permanent: ClassVar[bool] = True
    subject: ClassVar[str] = "a permanent"
    #: The event-bound targets (``trigger_*``) its abilities may use.
    offers: ClassVar[frozenset[str]] = frozenset({"trigger_permanent", "trigger_player"})
    #: ``hkk cards``: what happens to the subject ("dies", "is damaged").
    text: ClassVar[str]
    #: The printed text (Hungarian): what happens to the subject ("sérülést szenved"); none:
    #: the printed text of its abilities cannot be generated.
    hu_text: ClassVar[str] = ""
    #: The printed text of its ``trigger_*`` targets, in the cases of
    #: :data:`hkk._cards.wording.TARGETS` (nom, dat, dels, acc).
    hu_targets: ClassVar[dict[str, tuple[str, str, str, str]]] = {}
    #: What its amount is, counted by ``amount = { count = "trigger_amount" }`` ("the damage
    #: dealt"); "": it has none.
    amount: ClassVar[str] = ""
    #: The printed text's clause of a count of it ("amennyi sebzést okozott").
    hu_amount: ClassVar[str] = ""

    def subjects(self, game: GameView, event: Any) -> list[Subject]:
        """What ``event`` (of one of :attr:`log_kinds`) happened to; [] if nothing in play."""
        raise NotImplementedError

    def describe(self, when: Any) -> str:
        """A ``when`` table in words: "a creature of yours dies", "this is damaged"."""
        kind = when.card_kind or "permanent"
        if when.which == "this":
            subject = "this"
        else:
            owner = {"own": " of yours", "opponent": " of the opponent's", "any": ""}[when.whose]
            subject = f"{'another' if when.which == 'another' else 'a'} {kind}{owner}"
        return f"{subject} {self.text}"

    def hu(self, when: Any, own_kind: str) -> str:
        """The ``when`` of the printed text, after "Amikor": "egy lényed meghal", "ez a lény
        sérülést szenved"; ``own_kind`` is the kind of the ability's card ("this")."""
        return f"{hu_subject(when, own_kind)} {self.hu_verb(when, own_kind)}"

    def hu_verb(self, when: Any, own_kind: str) -> str:
        if not self.hu_text:
            from hkk._cards.wording import NoTemplate

            raise NoTemplate(f"the trigger event {self.name!r} has no printed-text template")
        return self.hu_text


#: A permanent's kind: (noun, the controller's, the opponent's possessive).
_NOUNS = {"creature": ("lény", "lényed", "lénye"), "building": ("építmény", "építményed",
                                                                  "építménye"),
          None: ("lap", "lapod", "lapja")}


def hu_subject(when: Any, own_kind: str) -> str:
    """"ez a lény", "egy másik lényed", "az ellenfél egy építménye", "egy lap"."""
    if when.which == "this":
        return "ez a lény" if own_kind == "creature" else "ez az építmény"
    noun, mine, theirs = _NOUNS[when.card_kind]
    other = "másik " if when.which == "another" else ""
    if when.whose == "own":
        return f"egy {other}{mine}"
    if when.whose == "opponent":
        return f"az ellenfél egy {other}{theirs}"
    return f"egy {other}{noun}"


#: Every ``when.event`` word by name.
WHEN_EVENTS: Registry[TriggerEvent] = Registry("trigger event")

E = TypeVar("E", bound=type[TriggerEvent])


def trigger_event(cls: E) -> E:
    """Class decorator: register an instance of ``cls`` as ``when.event = cls.name``."""
    WHEN_EVENTS.register(cls.name, cls())
    return cls


def _permanent(game: GameView, event: Any) -> list[Subject]:
    perm = game.permanents.get(event.uid)
    return [] if perm is None else [Subject(perm.uid, perm.controller, perm.kind, perm)]


#: No damage remembered (D-trigger-killer).
_NO_HIT: tuple[int | None, int] = (None, -1)


@trigger_event
class Dies(TriggerEvent):
    name = "dies"
    meaning = ("a permanent goes from play to the graveyard or the void (a creature dies, a "
               "building is destroyed); trigger_source: the permanent whose damage killed it")
    log_kinds = ("died", "destroyed")
    # the permanent is gone: nothing to aim at but its killer and its controller
    offers = frozenset({"trigger_source", "trigger_player"})
    text = "dies"
    hu_text = "meghal"
    hu_targets = {"trigger_source": ("az őt elpusztító lény", "az őt elpusztító lénynek",
                                     "az őt elpusztító lényről", "az őt elpusztító lényt")}

    def hu_verb(self, when: Any, own_kind: str) -> str:
        kind = own_kind if when.which == "this" else when.card_kind
        return {"creature": "meghal", "building": "elpusztul"}.get(kind or "",
                                                                   "elhagyja a játékot")

    def subjects(self, game: GameView, event: Any) -> list[Subject]:
        # D-trigger-killer: died of Ép loss, the permanent whose damage it took last this turn
        hit = game.triggers.last_hit.get(event.uid, _NO_HIT) if event.cause == "hp" else _NO_HIT
        killer = game.permanents.get(hit[0]) if hit[1] == game.turn and hit[0] else None
        return [Subject(event.uid, event.controller, game.cards[event.card].kind, None, killer)]


@trigger_event
class Damaged(TriggerEvent):
    name = "damaged"
    meaning = "a permanent is dealt damage"
    log_kinds = ("damaged",)
    offers = frozenset({"trigger_permanent", "trigger_source", "trigger_player"})
    text = "is damaged"
    hu_text = "sérülést szenved"
    hu_targets = {"trigger_source": ("a sebzés forrása", "a sebzés forrásának",
                                     "a sebzés forrásáról", "a sebzés forrását")}
    amount = "the damage it is dealt"
    hu_amount = "amennyi sebzést szenvedett"

    def subjects(self, game: GameView, event: Any) -> list[Subject]:
        found = _permanent(game, event)
        if found:
            found[0].amount = event.amount
            if event.source_uid is not None:
                # D-trigger-source: the permanent whose ability or combat dealt it, in play
                found[0].source = game.permanents.get(event.source_uid)
        return found


@trigger_event
class EntersPlay(TriggerEvent):
    name = "enters_play"
    meaning = "a permanent enters play"
    log_kinds = ("entered_play",)
    text = "enters play"
    hu_text = "játékba kerül"

    def subjects(self, game: GameView, event: Any) -> list[Subject]:
        return _permanent(game, event)


@trigger_event
class EffectEnds(TriggerEvent):
    name = "effect_ends"
    meaning = "a lasting effect on a permanent ends"
    log_kinds = ("effect_ended",)
    text = "loses an effect"
    hu_text = "ható hatás véget ér"

    def hu(self, when: Any, own_kind: str) -> str:
        """"egy rá ható hatás véget ér", "egy lényedre ható hatás véget ér"."""
        if when.which == "this":
            return "egy rá ható hatás véget ér"
        noun = {"creature": ("lényre", "lényedre", "lényére"),
                "building": ("építményre", "építményedre", "építményére"),
                None: ("lapra", "lapodra", "lapjára")}[when.card_kind]
        other = "másik " if when.which == "another" else ""
        subject = {"own": f"egy {other}{noun[1]}", "opponent": f"az ellenfél egy {other}{noun[2]}",
                   "any": f"egy {other}{noun[0]}"}[when.whose]
        return f"{subject} {self.hu_text}"

    def subjects(self, game: GameView, event: Any) -> list[Subject]:
        # the event does not name the effect's targets: the trigger watch kept them
        targets = game.triggers.effect_targets().pop(event.effect, ())
        perms = [game.permanents.get(uid) for uid in targets]
        return [Subject(p.uid, p.controller, p.kind, p) for p in perms if p is not None]


@trigger_event
class CardPlayed(TriggerEvent):
    name = "card_played"
    meaning = "a card is played from hand"
    log_kinds = ("card_played",)
    of_permanent = False
    subject = "the card played"
    offers = frozenset({"trigger_player"})
    text = "plays"
    hu_text = "kijátszik"

    def hu(self, when: Any, own_kind: str) -> str:
        """"varázslatot játszol ki", "az ellenfeled varázslatot játszik ki"."""
        what = {"spell": "varázslatot", "creature": "lényt", "building": "építményt",
                None: "lapot"}[when.card_kind]
        return {"own": f"{what} játszol ki", "opponent": f"az ellenfeled {what} játszik ki",
                "any": f"egy játékos {what} játszik ki"}[when.whose]

    def subjects(self, game: GameView, event: Any) -> list[Subject]:
        return [Subject(None, event.player, game.cards[event.card].kind)]

    def describe(self, when: Any) -> str:
        who = {"own": "you play", "opponent": "opponent plays", "any": "a player plays"}
        return f"{who[when.whose]} a {when.card_kind or 'card'}"


def _fighters(game: GameView, event: Any, blocking: bool) -> list[Subject]:
    """The attackers (or the blockers) of an ``attack`` event still in play, each with the
    creature it fights as its source (none: an unblocked attacker)."""
    found = []
    for attacker_uid, blocker_uid in zip(event.attackers, event.blockers, strict=True):
        attacker = game.permanents.get(attacker_uid)
        blocker = game.permanents.get(blocker_uid) if blocker_uid is not None else None
        perm, other = (blocker, attacker) if blocking else (attacker, blocker)
        if perm is not None:
            found.append(Subject(perm.uid, perm.controller, perm.kind, perm, other))
    return found


@trigger_event
class Attacks(TriggerEvent):
    name = "attacks"
    meaning = ("a creature attacks (declared an attacker, D-combat); it resolves before combat "
               "damage (D-trigger-attack); trigger_source: the creature blocking it, if any")
    log_kinds = ("attack",)
    offers = frozenset({"trigger_permanent", "trigger_source", "trigger_player"})
    text = "attacks"
    hu_text = "támad"
    hu_targets = {"trigger_source": ("az őt blokkoló lény", "az őt blokkoló lénynek",
                                     "az őt blokkoló lényről", "az őt blokkoló lényt")}

    def subjects(self, game: GameView, event: Any) -> list[Subject]:
        return _fighters(game, event, blocking=False)


@trigger_event
class Blocks(TriggerEvent):
    name = "blocks"
    meaning = ("a creature blocks an attacker (D-combat); it resolves before combat damage "
               "(D-trigger-attack); trigger_source: the attacker it blocks")
    log_kinds = ("attack",)
    offers = frozenset({"trigger_permanent", "trigger_source", "trigger_player"})
    text = "blocks"
    hu_text = "blokkol"
    hu_targets = {"trigger_source": ("az általa blokkolt lény", "az általa blokkolt lénynek",
                                     "az általa blokkolt lényről", "az általa blokkolt lényt")}

    def subjects(self, game: GameView, event: Any) -> list[Subject]:
        return _fighters(game, event, blocking=True)


#: The subject of a combat event is a creature, whatever ``card_kind`` says (only they fight).
_FIGHTER = {"card_kind": "creature"}


@trigger_event
class IsBlocked(TriggerEvent):
    name = "is_blocked"
    meaning = ("an attacking creature is blocked (a blocker is assigned to it, D-combat); it "
               "resolves before combat damage (D-trigger-attack); trigger_source: the creature "
               "blocking it")
    log_kinds = ("attack",)
    offers = frozenset({"trigger_permanent", "trigger_source", "trigger_player"})
    text = "is blocked"
    hu_text = "blokkolják"
    hu_targets = Attacks.hu_targets

    def hu(self, when: Any, own_kind: str) -> str:
        """"ezt a lényt blokkolják", "az ellenfél egy lényét blokkolják": the passive of
        Hungarian is the object of a 3rd-person plural."""
        if when.which == "this":
            return f"ezt a lényt {self.hu_text}"
        other = "másik " if when.which == "another" else ""
        subject = {"own": f"egy {other}lényedet", "opponent": f"az ellenfél egy {other}lényét",
                   "any": f"egy {other}lényt"}[when.whose]
        return f"{subject} {self.hu_text}"

    def subjects(self, game: GameView, event: Any) -> list[Subject]:
        return [s for s in _fighters(game, event, blocking=False) if s.source is not None]


@trigger_event
class DealsCombatDamage(TriggerEvent):
    name = "deals_combat_damage"
    meaning = ("a creature deals combat damage to a creature or a player (D-combat, "
               "D-trigger-combat), each time it does; trigger_amount: the damage dealt")
    log_kinds = ("damaged", "player_damaged")
    offers = frozenset({"trigger_permanent", "trigger_player"})
    text = "deals combat damage"
    hu_text = "harci sebzést okoz"
    amount = "the combat damage it dealt"
    hu_amount = "amennyi sebzést okozott"

    def hu(self, when: Any, own_kind: str) -> str:
        return f"{hu_subject(when.model_copy(update=_FIGHTER), own_kind)} {self.hu_text}"

    def subjects(self, game: GameView, event: Any) -> list[Subject]:
        dealer = game.triggers.combat_source
        if dealer is None or dealer.uid not in game.permanents:
            return []  # not combat damage (D-trigger-combat)
        return [Subject(dealer.uid, dealer.controller, dealer.kind, dealer, None, event.amount)]


@trigger_event
class TakesCombatDamage(TriggerEvent):
    name = "takes_combat_damage"
    meaning = ("a creature is dealt combat damage (D-combat, D-trigger-combat); "
               "trigger_source: the creature that dealt it; trigger_amount: the damage")
    log_kinds = ("damaged",)
    offers = frozenset({"trigger_permanent", "trigger_source", "trigger_player"})
    text = "takes combat damage"
    hu_text = "harci sebzést szenved"
    hu_targets = {"trigger_source": ("az őt sebző lény", "az őt sebző lénynek",
                                     "az őt sebző lényről", "az őt sebző lényt")}
    amount = "the combat damage it took"
    hu_amount = "amennyi sebzést szenvedett"

    def hu(self, when: Any, own_kind: str) -> str:
        return f"{hu_subject(when.model_copy(update=_FIGHTER), own_kind)} {self.hu_text}"

    def subjects(self, game: GameView, event: Any) -> list[Subject]:
        dealer = game.triggers.combat_source
        perm = game.permanents.get(event.uid)
        if dealer is None or perm is None:
            return []  # not combat damage (D-trigger-combat)
        source = dealer if dealer.uid in game.permanents else None
        return [Subject(perm.uid, perm.controller, perm.kind, perm, source, event.amount)]
