"""The native core behind the engine's seam (``hkk.cores``): what it refuses, by name, and the
games it builds.  The agents' and decks' translation to plain data is here, in one place."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from hkk_native._native import Engine as _NativeEngine
from hkk_native._native import Game as _NativeGame
from hkk_native._plain import plain_cards

__all__ = ["NativeCore", "NativeGame", "Refused", "play_many_native", "play_native"]

#: The largest seed the native log holds (the Python log holds any int).
_SEED_RANGE = (-(2**63), 2**63 - 1)


class Refused(ValueError):
    """The native core cannot run this game; the message names the set, hook, card or word."""


def _built_in(name: str) -> bool:
    return name.startswith("hkk.rules.")


def _python_hooks(engine: Any) -> str | None:
    """The first plugin that is not a built-in rule and implements a hook: its code is Python,
    which the native core cannot run."""
    for name, plugin in sorted(engine.pm.list_name_plugin(), key=lambda item: str(item[0])):
        if plugin is None or _built_in(str(name)):
            continue
        hooks = sorted(caller.name for caller in engine.pm.get_hookcallers(plugin) or ())
        if hooks:
            return f"{name} implements the hook {hooks[0]} in Python"
    return None


def _deck_lists(engine: Any, decks: Sequence[str | Sequence[str]]) -> list[list[str]]:
    return [engine.deck(d) if isinstance(d, str) else list(d) for d in decks]


def _seat(agent: Any) -> tuple[str, float, list[int] | None]:
    """An agent as a native seat: (kind, pass bias, its own RNG's state or None).  Only the
    built-in random and first agents have a native twin; the agent-RNG wiring on the native
    side is ``agents::agent_rng``."""
    from hkk import FirstLegalAgent, RandomAgent

    if type(agent) is FirstLegalAgent:
        return ("first", 0.0, None)
    if type(agent) is RandomAgent:
        state = agent.rng_state()
        return ("random", float(agent.pass_bias), list(state[1]) if state is not None else None)
    raise Refused(f"agent {type(agent).__name__}: only RandomAgent and FirstLegalAgent are "
                  f"seated natively")


def _native_engine(engine: Any) -> _NativeEngine:
    """The engine's cards as plain data, kept on the engine (cards do not change)."""
    cached = getattr(engine, "_hkk_native_engine", None)
    if cached is None:
        cached = _NativeEngine(plain_cards(engine.cards))
        engine._hkk_native_engine = cached
    return cached


class NativeGame:
    """A game on the native core: ``play()`` runs as far as the native core goes;
    ``unported`` says where it stopped short of the end (None: it ended, ``over``);
    ``log`` is built when read; ``emitted`` counts every event, kept or not."""

    def __init__(self, game: _NativeGame) -> None:
        self._game = game

    def play(self) -> NativeGame:
        self._game.play()
        return self

    @property
    def unported(self) -> str | None:
        return self._game.unported

    @property
    def active(self) -> int:
        return self._game.active

    @property
    def over(self) -> bool:
        return self._game.over

    @property
    def winner(self) -> int | None:
        return self._game.winner

    @property
    def turn(self) -> int:
        return self._game.turn

    @property
    def emitted(self) -> int:
        return self._game.emitted

    @property
    def log(self) -> list[dict[str, Any]]:
        """The kept events as the Python events' ``as_dict()``."""
        return self._game.events()

    def zones(self) -> list[tuple[list[str], list[str]]]:
        """Each player's (hand, deck), the deck's top last."""
        return self._game.zones()


def _checked(engine: Any, decks: Sequence[str | Sequence[str]], seeds: Sequence[int]
             ) -> list[list[str]]:
    for seed in seeds:
        if not _SEED_RANGE[0] <= seed <= _SEED_RANGE[1]:
            raise Refused(f"seed {seed}: the native log holds seeds of 64 bits")
    lists = _deck_lists(engine, decks)
    if len(lists) != 2:
        raise Refused(f"{len(lists)} decks: a game has two")
    unknown = sorted({c for deck in lists for c in deck if c not in engine.cards})
    if unknown:
        raise Refused(f"unknown cards in deck: {unknown}")
    short = [i for i, deck in enumerate(lists) if len(deck) < 5]
    if short:
        raise Refused(f"deck {short[0]} has fewer than 5 cards: an empty deck is not native yet")
    return lists


def _seats(agents: Sequence[Any] | None) -> tuple[tuple[str, float, list[int] | None], ...]:
    from hkk import RandomAgent

    seated = agents if agents is not None else (RandomAgent(), RandomAgent())
    return tuple(_seat(a) for a in seated)


def play_native(engine: Any, decks: Sequence[str | Sequence[str]], *, seed: int = 0,
                agents: Sequence[Any] | None = None, log_level: str = "full") -> NativeGame:
    """Build a native game and play it as far as the native core goes (to its end, or to the
    first card with a word played): for tests that compare the native core with the Python
    engine on what both run."""
    lists = _checked(engine, decks, [seed])
    game = _native_engine(engine).new_game((lists[0], lists[1]), seed, _seats(agents),
                                           log_level)
    return NativeGame(game).play()


def play_many_native(engine: Any, decks: Sequence[str | Sequence[str]], *,
                     seeds: Sequence[int], agents: Sequence[Any] | None = None,
                     log_level: str = "outcome") -> list[tuple[int, int, int]]:
    """One call, many seeds, the GIL released: each game as far as the native core goes;
    per game (winner, -1 for none or not over; turns begun; events emitted)."""
    lists = _checked(engine, decks, seeds)
    return _native_engine(engine).play_many((lists[0], lists[1]), list(seeds), _seats(agents),
                                            log_level)


class NativeCore:
    """The ``hkk.cores`` entry ``native``."""

    name = "native"

    def refuses(self, engine: Any, decks: Sequence[str | Sequence[str]]) -> str | None:
        """Why this game cannot run natively, naming the set and hook, or the card and word;
        None when it can (every card of the decks is one without words)."""
        hooks = _python_hooks(engine)
        if hooks is not None:
            return hooks
        return _native_engine(engine).refusal(_deck_lists(engine, decks))

    def new_game(self, engine: Any, decks: Sequence[str | Sequence[str]], *, seed: int = 0,
                 agents: Sequence[Any] | None = None, log_level: str = "full",
                 clock: Any = None) -> NativeGame:
        reason = self.refuses(engine, decks)
        if reason is not None:
            raise Refused(f"the native core cannot run this game: {reason}")
        return play_native(engine, decks, seed=seed, agents=agents, log_level=log_level)
