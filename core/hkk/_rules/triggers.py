"""Triggered items in a pool step: in preparation stage 2 what was triggered joins the stage's
items and the active player orders them all (29.4.1, D-trigger-prep)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hkk import TURN_HOOKS, hookimpl, only_in_steps

if TYPE_CHECKING:
    from hkk import Game, Pending, Step


class TriggerPool:
    """Built-in plugin ``hkk.rules.triggers``: returns the waiting triggered items from the hook
    of a step whose ``triggers`` is ``"pool"``."""


def _in_pool_step(step: Step | None, hook: str) -> bool:
    return step is not None and step.triggers == "pool" and step.hook == hook


def _make_impl(hook: str) -> Any:
    @only_in_steps(_in_pool_step)
    def impl(self: TriggerPool, game: Game) -> list[Pending] | None:
        step = game.step
        if step is not None and step.triggers == "pool" and game.triggers.waiting \
                and step.hook == hook:
            return game.pooled_triggers()
        return None
    impl.__name__ = hook
    return hookimpl(specname=hook)(impl)


for _hook in TURN_HOOKS:
    setattr(TriggerPool, _hook, _make_impl(_hook))
