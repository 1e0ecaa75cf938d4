"""The tournament game clock (41.7) as a rules plugin: it drives ``game.clock``
(:class:`hkk.GameClock`, whose time source is injected) from the turn's hooks.  The turn
counts as closed when the active player passes the turn (41.5, the explicit signal); without
one, his last decision before the end of the step marked ``closes_clock`` (end stage 1) was his
signal (D-41.7-last-pass)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hkk import hookimpl, only_in_steps

if TYPE_CHECKING:
    from hkk import Game, Step

__all__ = ["TurnClock"]


class TurnClock:
    @hookimpl
    def turn_started(self, game: Game) -> None:
        game.clock.start_turn(game)

    @hookimpl
    def decided(self, game: Game, decision: Any, choice: Any) -> None:
        if decision.player == game.active:
            game.clock.active_decided(game)  # 41.7: his last decision may be his signal

    @hookimpl
    def turn_passed(self, game: Game, player: int) -> None:
        game.clock.close_turn(game, rule="41.7")

    @hookimpl
    @only_in_steps(lambda step, hook: step is not None and step.closes_clock)
    def step_ended(self, game: Game, step: Step) -> None:
        if step.closes_clock:  # D-41.7-last-pass: without an explicit signal, his last pass
            game.clock.close_turn(game, rule="41.7")
