"""Small builders for rule tests: in-memory cards, a game with scripted players, test plugins
that contribute pending items, and walking a turn step by step.

Kept deliberately small and free of assertions so that a pytest plugin for set authors can reuse
the ideas (cards from dicts, ``game_with``, ``run_until``, ``item_plugin``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from hkk import Engine, FirstLegalAgent, Pending, ScriptedAgent
from hkk._cards.loader import parse_card_data
from hkk._hookspecs import hookimpl
from hkk._phases import DEFAULT_TURN, Step
from hkk._runner import Turn

SET = "tt"
FILLER = f"{SET}:filler"


def cid(slug: str) -> str:
    return f"{SET}:{slug}"


def creature(slug: str, damage: int = 1, hp: int = 2, *, components: int = 0, vp: int = 0,
             abilities: Sequence[dict] = (), **extra: Any) -> dict:
    card = {"id": cid(slug), "name": slug, "kind": "creature", "damage": damage, "hp": hp,
            "components": components, "cost": {"vp": vp}, "abilities": list(abilities)}
    card.update(extra)
    return card


def building(slug: str, sp: int = 3, *, vp: int = 0, abilities: Sequence[dict] = ()) -> dict:
    return {"id": cid(slug), "name": slug, "kind": "building", "sp": sp, "cost": {"vp": vp},
            "abilities": list(abilities)}


def spell(slug: str, effects: Sequence[dict], *, vp: int = 0, instant: bool = False) -> dict:
    return {"id": cid(slug), "name": slug, "kind": "spell", "cost": {"vp": vp},
            "instant": instant, "effects": list(effects)}


def cards(*defs: dict) -> list[Any]:
    """Validated card definitions, plus a vanilla filler creature for decks."""
    data = list(defs)
    if not any(d["id"] == FILLER for d in data):
        data.append(creature("filler", 1, 1, vp=50))  # drawn, never affordable
    return parse_card_data(SET, "cards/test.toml", {"cards": data})


def scripted(*script: Any, only: Iterable[str] | None = None) -> ScriptedAgent:
    return ScriptedAgent(list(script), fallback=FirstLegalAgent(), only=only)


class Passer:
    """Passes at every action decision (the whole turn, 41.5, when it may); otherwise takes the
    first legal option (uses optional items, extracts components)."""

    def __init__(self, pass_label: str = "pass turn") -> None:
        self.pass_label = pass_label
        self.seen: list[Any] = []

    def choose(self, game: Any, decision: Any) -> Any:
        self.seen.append(decision)
        if decision.kind == "action":
            labels = decision.labels()
            for label in (self.pass_label, "pass"):
                if label in labels:
                    return decision.options[labels.index(label)]
        return decision.options[0]


class Wants(Passer):
    """Takes each wanted option once, the first time one whose label starts with it is offered
    (any decision kind); otherwise behaves like :class:`Passer`."""

    def __init__(self, *wanted: str, pass_label: str = "pass turn") -> None:
        super().__init__(pass_label)
        self.wanted = list(wanted)

    def choose(self, game: Any, decision: Any) -> Any:
        for want in self.wanted:
            for option in decision.options:
                if option.label.startswith(want):
                    self.wanted.remove(want)
                    self.seen.append(decision)
                    return option
        return super().choose(game, decision)


def game_with(card_defs: Sequence[dict] = (), *, plugins: Sequence[Any] = (),
              agents: Sequence[Any] | None = None, decks: Sequence[Sequence[str]] | None = None,
              seed: int = 0, active: int = 0, **kwargs: Any) -> Any:
    """A game that has not started a turn yet; ``active`` plays the first turn."""
    engine = Engine(cards(*card_defs), plugins=list(plugins))
    decks = decks or ([FILLER] * 10, [FILLER] * 10)
    agents = agents or (scripted(), scripted())
    game = engine.new_game(list(decks), agents=tuple(agents), seed=seed, **kwargs)
    game.active = active
    return game


def step_named(hook: str) -> Step:
    return next(s for s in DEFAULT_TURN if s.hook == hook)


def run_until(game: Any, hook: str, *, inclusive: bool = False, start: bool = True) -> Turn:
    """Start a turn (unless ``start`` is False: already started) and run its steps up to
    ``hook`` (through it with ``inclusive``); returns the turn to go on with."""
    turn = Turn(game, start=start)
    turn.run_to(hook, inclusive=inclusive)
    return turn


def item(label: str, apply: Callable[[Any], None], **kwargs: Any) -> Pending:
    """A pending item whose effect is ``apply(game)``."""
    return Pending(label, lambda game, _item, _bound: apply(game), **kwargs)


class item_plugin:  # noqa: N801 - used like a function
    """A test plugin returning ``make(game)`` items from ``hook``."""

    def __init__(self, hook: str, make: Callable[[Any], list[Pending]]) -> None:
        def impl(game: Any) -> list[Pending]:
            return make(game)

        setattr(self, hook, hookimpl(specname=hook)(impl))


def labels(events: Iterable[Any], key: str = "item") -> list[Any]:
    return [e.data.get(key) for e in events]


def resolved(game: Any, step: str | None = None) -> list[str]:
    """Labels of the items resolved (in a given step), in order."""
    return [e["item"] for e in game.log.of_kind("resolving") if step is None or e.step == step]


# -- the cross-core tests' set-ups ------------------------------------------------------------

#: Every pairing of the base decks.
BASE_PAIRINGS = [(a, b) for a in ("alap:tuz", "alap:viz") for b in ("alap:tuz", "alap:viz")]
#: The seats: both answered from outside, or one of them a seated agent (made afresh per game).
SEATS = ("outside", "random-first", "first-second")
#: How the native core stops a game whose numbers leave its range (``effects::NUMBER_RANGE``).
RUNAWAY = "a number beyond 2^52"
#: How it stops a step past the rulings' ``max_items_per_step`` (``steps::step_loop``), where
#: the Python engine raises ``StepLoopError``.
STEP_LOOP = "items or actions: the Python engine stops it"


def beyond_native_range(events: Iterable[dict[str, Any]] = (), players: Iterable[Any] = ()
                        ) -> bool:
    """A number of ``events`` (their fields as dicts) or a player's Ép, VP or components is
    beyond 2^52, where the native core stops a game by name (:data:`RUNAWAY`)."""
    numbers = [v for e in events for v in e.values() if isinstance(v, int)]
    numbers += [n for p in players for n in (p.hp, p.vp, p.components)]
    return max(map(abs, numbers), default=0) > 2**52


def seated_agents(seats: str, seed: int) -> list[Any]:
    """The agents of one of :data:`SEATS` (None: a seat answered from outside)."""
    from hkk import RandomAgent

    if seats == "random-first":
        return [RandomAgent(seed + 1), None]
    if seats == "first-second":
        return [None, FirstLegalAgent()]
    return [None, None]
