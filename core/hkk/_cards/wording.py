"""The printed text's words: the Hungarian templates of targets, durations, conditions, counted
amounts, filters and numbers, in the register of the base set (docs/CARD-TEXT.md).

Each ``do`` verb words itself (``Verb.hu``, in its own module) and each trigger event its
``when`` (``TriggerEvent.hu``) with these; :mod:`hkk._cards.printed` puts a whole card
together.  One template per word: a target has one phrase per grammatical case (``nom``
subject, ``dat`` "to", ``dels`` "from", ``acc`` object), a duration one adverbial and one
adjectival form, a quantity its two possessives (:mod:`hkk._cards.quantities`).
"""

from __future__ import annotations

from typing import Any

from hkk._cards.amounts import TRIGGER_AMOUNT, Count, Where
from hkk._cards.quantities import PERMANENT_QUANTITIES, QUANTITIES

__all__ = ["COUNTERS", "DURATIONS", "TARGETS", "NoTemplate", "Voice", "card_count",
           "condition_hu", "join", "times_hu", "with_instrumental"]


class NoTemplate(Exception):
    """The data holds something the printed text cannot be generated for (a custom effect)."""


class Voice:
    """How an effect is worded where it stands: in a spell ("3 sebzés ...", "Húzz két
    lapot"), in an activated ability after its cost ("1 VP: 1 sebzés ..., kapsz 2 VP-t"), in
    an automatic, triggered or static ability ("2 sebzést okoz ...", "1 Ép-t gyógyítasz");
    ``optional``: its text is conditional (41.1: "húzhatsz", "okozhatsz")."""

    __slots__ = ("kind", "optional", "static", "trigger_targets", "trigger_amount")

    def __init__(self, kind: str, *, optional: bool = False, static: bool = False,
                 trigger_targets: dict[str, tuple[str, str, str, str]] | None = None,
                 trigger_amount: str = "") -> None:
        self.kind = kind  # "spell", "activated" or "automatic"
        self.optional = optional
        #: In a static ability: a standing state ("1-gyel kevesebb", no "véglegesen").
        self.static = static
        self.trigger_targets = trigger_targets or {}
        #: The clause of a count of the event's amount ("amennyi sebzést okozott").
        self.trigger_amount = trigger_amount

    @property
    def nominal(self) -> bool:
        """Damage is said as a noun ("2 sebzés az ellenfélnek") after a cost and in spells."""
        return self.kind in ("spell", "activated")

    def target(self, target: str | None, case: str, where: Where | None = None) -> str:
        """``target`` in ``case`` (nom, dat, dels, acc), its filter worded in."""
        if target is None:
            return ""
        forms = self.trigger_targets.get(target) or TARGETS[target]
        phrase = forms[_CASES.index(case)]
        adjective, clause = _where_hu(where)
        phrase = phrase.replace("{a}", adjective)
        return f"{phrase}, {clause}," if clause else phrase

    def counted(self, amount: int | Count, unit: str = "") -> tuple[str, str]:
        """(the amount with its unit, the clause that closes the sentence): ("2 VP-t", ""),
        ("annyi VP-t", ", ahány lényed van"), ("kétszer annyi VP-t", ", amennyi sebzést
        okozott")."""
        if isinstance(amount, int):
            return (f"{amount} {unit}".strip(), "")
        many = "annyi" if amount.times == 1 else f"{times_hu(amount.times)} annyi"
        if amount.count == TRIGGER_AMOUNT:
            if not self.trigger_amount:
                raise NoTemplate("a count of the event's amount outside a triggered ability")
            return (f"{many} {unit}".strip(), f", {self.trigger_amount}")
        return (f"{many} {unit}".strip(), f", ahány {_quantity_has(amount.count)}")


_CASES = ("nom", "dat", "dels", "acc")

#: Each target in the four cases; ``{a}`` is where a filter's adjective goes ("sérült ").
#: ``self`` and ``controller`` have no subject: the card itself, or "you" (2nd person).
TARGETS: dict[str, tuple[str, str, str, str]] = {
    "self": ("", "magának", "róla", "ezt a lapot"),
    "controller": ("", "neked", "rólad", "téged"),
    "opponent": ("az ellenfél", "az ellenfélnek", "az ellenfélről", "az ellenfelet"),
    "each_player": ("minden játékos", "minden játékosnak", "minden játékosról",
                    "minden játékost"),
    "chosen_player": ("válassz egy játékost:", "egy általad választott játékosnak",
                      "egy általad választott játékosról", "egy általad választott játékost"),
    "own_creatures": ("minden {a}lényed", "minden {a}lényednek", "minden {a}lényedről",
                      "minden {a}lényedet"),
    "opponent_creatures": ("az ellenfél minden {a}lénye", "az ellenfél minden {a}lényének",
                           "az ellenfél minden {a}lényéről", "az ellenfél minden {a}lényét"),
    "all_creatures": ("minden {a}lény", "minden {a}lénynek", "minden {a}lényről",
                      "minden {a}lényt"),
    "chosen_creature": ("egy általad választott {a}lény", "egy általad választott {a}lénynek",
                        "egy általad választott {a}lényről", "egy általad választott {a}lényt"),
    "chosen_own_creature": ("egy {a}lényed", "egy {a}lényednek", "egy {a}lényedről",
                            "egy {a}lényedet"),
    "chosen_opponent_creature": ("az ellenfél egy {a}lénye", "az ellenfél egy {a}lényének",
                                 "az ellenfél egy {a}lényéről", "az ellenfél egy {a}lényét"),
    "own_buildings": ("minden {a}építményed", "minden {a}építményednek",
                      "minden {a}építményedről", "minden {a}építményedet"),
    "all_buildings": ("minden {a}építmény", "minden {a}építménynek", "minden {a}építményről",
                      "minden {a}építményt"),
    "chosen_building": ("egy általad választott {a}építmény",
                        "egy általad választott {a}építménynek",
                        "egy általad választott {a}építményről",
                        "egy általad választott {a}építményt"),
    # what an event bound; a trigger event words its own (TriggerEvent.hu_targets)
    "trigger_permanent": ("az", "neki", "róla", "azt"),
    "trigger_source": ("a forrás", "a forrásnak", "a forrásról", "a forrást"),
    "trigger_player": ("az a játékos", "annak a játékosnak", "arról a játékosról",
                       "azt a játékost"),
}

#: Each duration: the adverbial template around the change ("{} a kör végéig") and the
#: adjective of the effects that last so ("a kör végéig tartó"), for ending them.
DURATIONS: dict[str, tuple[str, str]] = {
    "permanent": ("véglegesen {}", "a végleges"),
    "until_end_of_turn": ("{} a kör végéig", "a kör végéig tartó"),
    "this_turn": ("{}, csak ebben a körben", "a csak ebben a körben érvényes"),
    "until_preparation": ("{} az előkészítő fázisig", "az előkészítő fázisig tartó"),
    "until_own_preparation": ("{} a következő saját előkészítő fázisodig",
                              "a következő saját előkészítő fázisodig tartó"),
    "turns": ("{turns} körön át {}", "a körökön át tartó"),
}

#: Counter names and their printed word (accusative and possessive are made by suffix);
#: another name is printed as it is, quoted.
COUNTERS: dict[str, str] = {"poison": "méregjelző", "rune": "rúnajelző"}


def counter_hu(name: str) -> str:
    return COUNTERS.get(name, f"„{name}” jelző")


_COMPARED = {"at_least": "legalább", "at_most": "legfeljebb", "more_than": "több mint",
             "fewer_than": "kevesebb mint"}
_TIMES = {1: "egyszer", 2: "kétszer", 3: "háromszor", 4: "négyszer", 5: "ötször",
          6: "hatszor", 7: "hétszer", 8: "nyolcszor", 9: "kilencszer", 10: "tízszer"}


def times_hu(n: int) -> str:
    """1 -> "egyszer", 2 -> "kétszer", 12 -> "12-szer"."""
    return _TIMES.get(n, f"{n}-szer")


_SMALL = {1: "egy", 2: "két"}


def card_count(n: int, noun_acc: str) -> str:
    """Cards, components, counters: "egy lapot", "két lapot", "3 lapot"."""
    return f"{_SMALL.get(n, str(n))} {noun_acc}"


_INSTRUMENTAL = {1: "gyel", 2: "vel", 3: "mal", 4: "gyel", 5: "tel", 6: "tal", 7: "tel",
                 8: "cal", 9: "cel", 10: "zel", 20: "szal", 30: "cal", 40: "nel", 50: "nel",
                 60: "nal", 70: "nel", 80: "nal", 90: "nel", 100: "zal", 1000: "rel"}


def with_instrumental(n: int) -> str:
    """1 -> "1-gyel", 2 -> "2-vel", 10 -> "10-zel" ("1-gyel nő")."""
    for unit in (1000, 100):
        if n % unit == 0 and n:
            return f"{n}-{_INSTRUMENTAL[unit]}"
    key = n % 10 or n % 100 or 10
    return f"{n}-{_INSTRUMENTAL.get(key, 'zel')}"


def join(parts: list[str]) -> str:
    """"a, b és c"."""
    parts = [p for p in parts if p]
    if len(parts) <= 1:
        return "".join(parts)
    return ", ".join(parts[:-1]) + " és " + parts[-1]


def _where_hu(where: Where | None) -> tuple[str, str]:
    """(an adjective before the noun, or a relative clause after the phrase)."""
    if where is None:
        return "", ""
    name, bound = where.comparison
    if where.of == "damage_taken" and name == "at_least" and bound == 1:
        return "sérült ", ""
    if where.of == "counters":
        has = f"{counter_hu(where.counter or '')}je"
    else:
        has = PERMANENT_QUANTITIES[where.of].hu
    return "", f"amelynek {_COMPARED[name]} {bound} {has} van"


def _split(name: str) -> tuple[bool, Any]:
    whose, kind = name.split("_", 1)
    return whose == "own", QUANTITIES[kind]


def _quantity_has(name: str) -> str:
    """"lényed van" / "lénye van az ellenfélnek": what ``ahány`` counts."""
    own, quantity = _split(name)
    return f"{quantity.hu[0]} van" if own else f"{quantity.hu[1]} van az ellenfélnek"


def condition_hu(condition: Any) -> str:
    """A condition in words, without its "ha": "legalább 5 VP-d van", "az ellenfélnek több
    lénye van, mint neked"."""
    own, left = _split(condition.of)
    name, bound = condition.comparison
    who = "" if own else "az ellenfélnek "
    noun = left.hu[0 if own else 1]
    if isinstance(bound, int):
        return f"{who}{_COMPARED[name]} {bound} {noun} van"
    other_own, right = _split(bound)
    more = {"at_least": "legalább annyi", "at_most": "legfeljebb annyi", "more_than": "több",
            "fewer_than": "kevesebb"}[name]
    if right is left and other_own != own:  # the same number of both sides
        return f"{who}{more} {noun} van, mint {'az ellenfélnek' if own else 'neked'}"
    return f"{who}{more} {noun} van, mint ahány {_quantity_has(bound)}"


def player_verb(voice: Voice, target: str, you: str, *, may: str | None = None,
                spell: str | None = None, third: str, tail: str = "") -> str:
    """A player's verb: "you" forms for the controller (``may`` when optional, ``spell`` in a
    spell: the imperative), else the 3rd person after the target ("az ellenfél húz egy
    lapot", "válassz egy játékost: húz egy lapot")."""
    if target == "controller":
        if voice.optional:
            text = may if may is not None else f"ha akarod, {you}"
        else:
            text = spell if voice.kind == "spell" and spell is not None else you
    else:
        text = f"{voice.target(target, 'nom')} {third}"
    return text + tail


def may(voice: Voice, text: str) -> str:
    """An effect without a "-hat/-het" form of its own, in a conditional text."""
    return f"ha akarod, {text}" if voice.optional else text
