"""Scripted players by step: the answers a player gives in each step of the turn."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from hkk import IllegalDecision
from pytest_hkk.builders import PassingAgent


class StepScript:
    """An agent answering from a script per step::

        StepScript({"prep_stage2": ["use sarkany:harcos#1:0"],
                    "main_phase": ["play sarkany:harcos", "pass turn"]})

    Keys are step hook names (``game.log.step``, the ``step`` of events).  Every decision the
    player makes while such a step runs takes the next answer of its list, whatever the
    decision's kind (``use``, ``order``, ``action``, ``target``…): script them in the order
    they come.  An answer picks the option with exactly that label, else the first option
    whose label starts with it.  An answer that no option matches raises
    :class:`hkk.IllegalDecision` naming the step, the decision kind and the labels offered: the
    test is wrong, not the game.  Decisions in other steps, and in a step whose list is used
    up, go to ``fallback`` (default :class:`pytest_hkk.PassingAgent`: passes the step at
    actions, never the whole turn; otherwise the first option).  ``remaining`` shows the
    answers not given yet.
    """

    def __init__(self, steps: Mapping[str, Sequence[str]], fallback: Any = None) -> None:
        for hook, answers in steps.items():
            if isinstance(answers, str):
                raise TypeError(f"StepScript: the answers of {hook!r} must be a list of labels, "
                                f"not the string {answers!r}")
        self.steps = {hook: list(answers) for hook, answers in steps.items()}
        self.fallback = fallback or PassingAgent()
        self.seen: list[tuple[str, Any]] = []  # (step, decision), every decision asked
        self._checked = False

    @property
    def remaining(self) -> dict[str, list[str]]:
        """The answers not given yet, by step (empty when the script was played out)."""
        return {hook: answers for hook, answers in self.steps.items() if answers}

    def choose(self, game: Any, decision: Any) -> Any:
        if not self._checked:
            self._check_steps(game)
        step = game.log.step
        self.seen.append((step, decision))
        answers = self.steps.get(step)
        if not answers:
            return self.fallback.choose(game, decision)
        answer = answers[0]
        option = _matching(decision.options, answer)
        if option is None:
            raise IllegalDecision(
                f"step {step}: the script answers {answer!r}, but the {decision.kind} decision "
                f"of player {decision.player} offers {decision.labels()}")
        answers.pop(0)
        return option

    def _check_steps(self, game: Any) -> None:
        hooks = [s.hook for s in game.turn_steps]
        unknown = sorted(set(self.steps) - set(hooks))
        if unknown:
            raise IllegalDecision(f"StepScript: no step {', '.join(map(repr, unknown))}; "
                                  f"the turn's steps are {hooks}")
        self._checked = True


def _matching(options: Sequence[Any], answer: str) -> Any:
    for option in options:
        if option.label == answer:
            return option
    return next((o for o in options if o.label.startswith(answer)), None)
