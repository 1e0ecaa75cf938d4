"""``do = "prevent"``: for static abilities, named abilities resolve without effect."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, Literal

from hkk._cards.types import Phase
from hkk._cards.verbs.base import Verb, register_verb
from hkk._phases import PHASE_NAMES
from hkk.events import Event, Prevented

if TYPE_CHECKING:
    from hkk._cards.wording import Voice


@register_verb
class Prevent(Verb):
    """For static abilities: the abilities it names resolve without effect and are logged as
    ``prevented`` ("Az ellenfeled előkészítő fázisban használt képességei hatástalanok").  A
    prevented activated ability is still used: its cost is paid and, in the preparation phase,
    it was the one attempt of the turn (29.4.9, D-prevented)."""

    do: Literal["prevent"] = "prevent"
    #: Whose abilities: the static's controller's opponent, its controller, or each player's.
    whose: Literal["opponent", "controller", "each_player"] = "opponent"
    #: Which kind of ability: ``activated`` ("used"), ``automatic``, or ``all`` of both.
    abilities: Literal["activated", "automatic", "all"] = "all"
    #: In which phase (the ``phase`` of the turn's steps: preparation, main, combat, end).
    phase: Phase = "any"
    # A standing state: hkk._changes lists it while in force, hkk._prevention logs what it stops.
    static_only: ClassVar[bool] = True
    emits: ClassVar[tuple[type[Event], ...]] = (Prevented,)

    def hu(self, voice: Voice) -> str:
        """"Az ellenfeled előkészítő fázisban működő képességei hatástalanok"."""
        phase = _PHASES.get(self.phase, f"{self.phase} fázisban")
        kind = {"all": "működő", "activated": "használt",
                "automatic": "automatikusan működő"}[self.abilities]
        whose, abilities = {"opponent": ("az ellenfeled", "képességei"),
                            "controller": ("a", "képességeid"),
                            "each_player": ("minden játékos", "képességei")}[self.whose]
        return " ".join(w for w in (whose, phase, kind, abilities, "hatástalanok") if w)

    def describe_field(self, key: str, value: Any) -> str:
        return f"{key}={value}"


#: The printed text of each phase, in turn order (hkk._phases.PHASE_NAMES), or any.
_PHASES = {"any": "", **dict(zip(PHASE_NAMES, ("előkészítő fázisban", "fő fázisban",
                                                "harci fázisban", "kör vége fázisban"),
                                 strict=True))}
