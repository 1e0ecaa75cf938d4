"""The native core against the Python engine, the reference (docs/NATIVE.md): for the same decks,
seed and agents both give the same log, event for event (kind, envelope, fields, in order), at
every log level, and the same state, over what the native core runs today (the setup: K
3.6-3.12, 28). Whole games it does not run are refused by name, never played differently."""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from hkk import Engine, FirstLegalAgent, RandomAgent, advance, hookimpl

hkk_native = pytest.importorskip(
    "hkk_native", reason="hkk_native is not built: pip install ./plugins/hkk-native (needs cargo)")

BASE_DECKS = ("alap:tuz", "alap:viz")
PAIRINGS = list(itertools.product(BASE_DECKS, repeat=2))


@pytest.fixture(scope="module")
def engine() -> Engine:
    return Engine.installed(allow=["alap"])


def _agents(kind: str) -> tuple[Any, Any]:
    if kind == "first":
        return FirstLegalAgent(), FirstLegalAgent()
    if kind == "seeded":
        return RandomAgent(seed=11), RandomAgent(seed=12, pass_bias=0.5)
    return RandomAgent(), RandomAgent()


def _first_difference(seed: int, decks: tuple[str, str], native: list[dict[str, Any]],
                      python: list[dict[str, Any]]) -> str:
    """The seed, the decks and the first differing event of each core."""
    for index, (a, b) in enumerate(itertools.zip_longest(native, python)):
        if a != b:
            return (f"cores differ: seed={seed} decks={decks} at event {index}\n"
                    f"  native: {a}\n  python: {b}")
    return ""


def _python_setup(engine: Engine, decks: tuple[str, str], seed: int, agents: Any,
                  level: str) -> Any:
    game = engine.new_game(list(decks), list(agents), seed=seed, log_level=level)
    advance(game)  # the setup, and nothing of the first turn
    return game


@pytest.mark.parametrize("agents", ["random", "first", "seeded"])
@pytest.mark.parametrize("level", ["full", "compact", "outcome"])
def test_k3_28_setup_is_event_for_event_the_python_engines(engine: Engine, agents: str,
                                                           level: str) -> None:
    for (decks, seed) in itertools.product(PAIRINGS, range(60)):
        python = _python_setup(engine, decks, seed, _agents(agents), level)
        native = hkk_native.play_native(engine, list(decks), seed=seed, agents=_agents(agents),
                                        log_level=level)
        python_log = [event.as_dict() for event in python.log]
        assert native.log == python_log, _first_difference(seed, decks, native.log, python_log)
        assert native.active == python.active
        assert native.zones() == [(p.hand, p.deck) for p in python.players], (seed, decks)
        assert native.unported is not None  # it stopped at the turn, and says so


@pytest.mark.parametrize("seed", [0, -1, 2**40 + 3, -(2**63), 2**63 - 1])
def test_k3_28_setup_matches_for_big_and_negative_seeds(engine: Engine, seed: int) -> None:
    python = _python_setup(engine, BASE_DECKS, seed, _agents("random"), "full")
    native = hkk_native.play_native(engine, list(BASE_DECKS), seed=seed)
    python_log = [event.as_dict() for event in python.log]
    assert native.log == python_log, _first_difference(seed, BASE_DECKS, native.log, python_log)


def test_native_core_refuses_a_whole_base_game_naming_card_and_word(engine: Engine) -> None:
    reason = hkk_native.core.refuses(engine, list(BASE_DECKS))
    assert reason is not None
    assert "card alap:" in reason and "` (" in reason  # the card, then the word in backticks
    with pytest.raises(hkk_native.Refused, match="card alap:"):
        hkk_native.core.new_game(engine, list(BASE_DECKS), seed=1)


def test_native_core_refuses_a_set_with_python_hooks_naming_it_and_the_hook() -> None:
    class LoudSet:
        @hookimpl
        def prep_stage2(self, game: Any) -> list[Any]:
            return []

    engine = Engine.installed(allow=["alap"], plugins=[LoudSet()])
    reason = hkk_native.core.refuses(engine, list(BASE_DECKS))
    assert reason is not None and "prep_stage2" in reason


def test_native_core_refuses_the_turn_for_decks_of_words_it_knows() -> None:
    from hkk._cards.model import CreatureCard

    vanilla = CreatureCard(id="tt:vanilla", name="Vanilla", cost={"vp": 1}, damage=1, hp=1)
    engine = Engine({"tt:vanilla": vanilla})
    reason = hkk_native.core.refuses(engine, [["tt:vanilla"] * 10, ["tt:vanilla"] * 10])
    assert reason is not None and "29.4, 41" in reason


def test_native_core_refuses_agents_it_has_no_twin_of(engine: Engine) -> None:
    class Custom:
        def choose(self, game: Any, decision: Any) -> Any:
            return decision.options[0]

    with pytest.raises(hkk_native.Refused, match="Custom"):
        hkk_native.play_native(engine, list(BASE_DECKS), agents=[Custom(), Custom()])


def test_28_batched_native_setups_choose_the_python_engines_starting_players(engine: Engine
                                                                            ) -> None:
    seeds = list(range(-20, 80))
    native = hkk_native.play_many_native(engine, list(BASE_DECKS), seeds=seeds,
                                         log_level="full")
    for seed, (active, emitted) in zip(seeds, native, strict=True):
        python = _python_setup(engine, BASE_DECKS, seed, _agents("random"), "full")
        assert (active, emitted) == (python.active, len(python.log)), seed
