"""Games with given cards in given zones, and scripted players."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from hkk import ScriptedAgent
from hkk.state import BUILDINGS, GUARD_POST, RESERVE

#: Keys of a player's spec in :func:`build_game`.
ZONES = ("hand", "deck", "graveyard", RESERVE, GUARD_POST, BUILDINGS)
NUMBERS = ("hp", "vp", "components")


class PassingAgent:
    """Passes at every action decision (``pass turn`` where offered, else ``pass``); anything
    else gets the first legal option.  Predictable players for tests."""

    def choose(self, game: Any, decision: Any) -> Any:
        if decision.kind == "action":
            labels = decision.labels()
            for label in ("pass turn", "pass"):
                if label in labels:
                    return decision.options[labels.index(label)]
        return decision.options[0]


def script(*steps: Any, only: Iterable[str] | None = None,
           fallback: Any = None) -> ScriptedAgent:
    """A :class:`hkk.ScriptedAgent`: each step is an option label ("play alap:tuzmano",
    "pass"), an index or a function of the decision.  Decisions outside ``only`` kinds and
    those after the script go to ``fallback`` (default :class:`PassingAgent`)."""
    return ScriptedAgent(list(steps), fallback=fallback or PassingAgent(), only=only)


def filler_card(engine: Any) -> str:
    """A vanilla creature (no abilities) of the loaded sets, for default decks."""
    plain = sorted(c.id for c in engine.cards.values()
                   if c.kind == "creature" and not c.abilities)
    if plain:
        return plain[0]
    if not engine.cards:
        raise ValueError("the engine has no cards; install a set or give decks")
    return min(engine.cards)


def build_game(engine: Any, players: Sequence[Mapping[str, Any]] = ({}, {}), *,
               agents: Sequence[Any] | None = None, seed: int = 0, active: int = 0) -> Any:
    """A game that has not started a turn: each player's spec gives zones (``hand``, ``deck``,
    ``graveyard``: card ids, top of the deck last; ``reserve``, ``guard_post``, ``buildings``:
    card ids put into play, **active**) and numbers (``hp``, ``vp``, ``components``).  A
    player without ``deck`` gets 20 copies of a vanilla creature.  No setup happens (no
    shuffle, no opening hand); ``active`` plays the first turn.  Permanents entering here fire
    no entry triggers."""
    if len(players) != 2:
        raise ValueError("a game has two players")
    for index, spec in enumerate(players):
        unknown = sorted(set(spec) - set(ZONES) - set(NUMBERS))
        if unknown:
            raise ValueError(f"player {index}: unknown keys {unknown}; use {ZONES + NUMBERS}")
        missing = sorted({c for zone in ZONES for c in spec.get(zone, ())} - set(engine.cards))
        if missing:
            raise ValueError(f"player {index}: unknown cards {missing}")
    decks = [list(spec["deck"]) if "deck" in spec else [filler_card(engine)] * 20
             for spec in players]
    agents = agents or (PassingAgent(), PassingAgent())
    agents = [a if a is not None else PassingAgent() for a in agents]
    game = engine.new_game(decks, agents=agents, seed=seed)
    game.started = True  # set up by hand: game.play() must not shuffle and deal again
    game.emit("game_started", seed=seed, decks=[len(d) for d in decks], built=True)
    game.active = active
    for index, spec in enumerate(players):
        player = game.players[index]
        player.hand.extend(spec.get("hand", ()))
        player.graveyard.extend(spec.get("graveyard", ()))
        for name in NUMBERS:
            if name in spec:
                setattr(player, name, spec[name])
        for zone in (RESERVE, GUARD_POST, BUILDINGS):
            for card_id in spec.get(zone, ()):
                game.enter_play(index, card_id, zone, active=True)
    return game
