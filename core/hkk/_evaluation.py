"""How good a position is for a player, from what that player may see: the evaluation the
``greedy`` agent maximises and the ``mcts`` agent cuts its rollouts off with.

It reads only what :class:`hkk.PlayerView` shows (both players' Ép, VP, monster components,
hand and deck *sizes*, and the board), never a hidden card, so it is the same on a position and
on any determinization of it.  For each side it sums, with the weights of :class:`Weights`:

- ``hp``: the player's Ép (a player at 0 loses, 3.12); and ``low_hp`` for each Ép under
  ``danger`` (the last Ép matter more than the first);
- ``creature``: each creature's damage value plus its current Ép; ``ready`` more for each point
  of damage of a creature that is active in the guard post (it attacks and blocks now);
- ``building``: each building's current Sp; and ``ability`` for each of its lasting abilities
  (any but one that acts as it enters play): a building is played for what it does, turn after
  turn (Mana kút's VP, Lávaárok's damage to each creature the opponent plays), which the one
  turn the agents look ahead cannot show - valued on their Sp alone, Mana kút, Rúnakő and
  Lávaárok were worth less than their card in hand and VP, and greedy never played them
  (forge-ai's ``CreatureEvaluator`` likewise adds a value for each ability beside the stats);
- ``vp`` and ``components``: the VP and monster components he may still spend;
- ``hand``: each card in his hand; ``deck``: each card left in his deck, up to ``deck_horizon``
  (drawing from an empty deck loses, D-empty-deck);
- ``threat``: the damage his creatures could deal next turn, up to the opponent's Ép; and
  ``lethal`` once that is at least the opponent's Ép.

The value is the difference of the two sides, squashed into (-1, 1) by ``tanh(diff / scale)``;
a finished game is 1 (won), -1 (lost) or 0 (drawn).  Change a weight for one agent with
``greedy:hp=2,hand=0.5`` or ``Weights(hp=2)``; the defaults are :data:`DEFAULT_WEIGHTS`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields, replace
from typing import Any

from hkk._decisions import Decision, Option
from hkk._errors import HkkError
from hkk._protocol import FairView
from hkk._state import GUARD_POST

__all__ = ["DEFAULT_WEIGHTS", "Weights", "evaluate", "position_value", "side_value"]


@dataclass(frozen=True)
class Weights:
    """The evaluation's weights, all in one place (see the module's docstring)."""

    hp: float = 1.0
    low_hp: float = 1.0
    danger: int = 6
    creature: float = 0.6
    ready: float = 0.3
    building: float = 0.4
    ability: float = 1.0
    vp: float = 0.25
    components: float = 0.3
    hand: float = 1.0
    deck: float = 0.5
    deck_horizon: int = 4
    threat: float = 0.4
    lethal: float = 4.0
    scale: float = 20.0

    def with_options(self, **options: Any) -> Weights:
        """These weights with some changed by name; an unknown name is an error listing them."""
        known = {f.name for f in fields(self)}
        unknown = sorted(set(options) - known)
        if unknown:
            raise HkkError(f"no evaluation weight {', '.join(map(repr, unknown))}; the weights "
                           f"are {', '.join(f'{k}={v}' for k, v in asdict(self).items())}")
        values: dict[str, Any] = {k: float(v) for k, v in options.items()}
        return replace(self, **values)


DEFAULT_WEIGHTS = Weights()


def agent_weights(agent: str, own: Mapping[str, Any], options: Mapping[str, Any]) -> Weights:
    """The weights a searching agent's spec sets by name (``mcts:hp=2``): an option that is
    neither one of the agent's ``own`` nor a weight is an error listing its own options first;
    a weight must be a finite number."""
    from hkk._agent_registry import checked_option, no_such_option

    unknown = sorted(set(options) - {f.name for f in fields(Weights)})
    if unknown:
        raise no_such_option(agent, unknown, own, asdict(DEFAULT_WEIGHTS), "the evaluation weights")
    return DEFAULT_WEIGHTS.with_options(**{key: checked_option(agent, key, value)
                                           for key, value in options.items()})


def _hand_size(player: Any) -> int:
    size = getattr(player, "hand_size", None)
    return int(size) if size is not None else len(player.hand)


def _deck_size(player: Any) -> int:
    size = getattr(player, "deck_size", None)
    return int(size) if size is not None else len(player.deck)


def _lasting(perm: Any) -> int:
    """How many of ``perm``'s abilities last while it is in play (all but on-enter ones)."""
    return sum(1 for a in perm.card.abilities if getattr(a, "timing", None) != "on_enter")


def _threat(view: FairView, player: int) -> int:
    """What ``player``'s creatures could deal next turn (each creature's damage value)."""
    return sum(max(0, view.damage_value(c)) for c in view.creatures(player))


def side_value(view: FairView, player: int, w: Weights = DEFAULT_WEIGHTS) -> float:
    """One side's sum (before the difference and the squashing)."""
    me = view.players[player]
    opponent_hp = view.players[1 - player].hp
    value: float = w.hp * me.hp - w.low_hp * max(0, w.danger - me.hp)
    for creature in view.creatures(player):
        damage = max(0, view.damage_value(creature))
        value += w.creature * (damage + max(0, view.hp(creature)))
        if creature.active and creature.zone == GUARD_POST:
            value += w.ready * damage
    for building in view.buildings(player):
        value += w.building * max(0, view.hp(building)) + w.ability * _lasting(building)
    value += w.vp * me.vp + w.components * me.components
    value += w.hand * _hand_size(me) + w.deck * min(_deck_size(me), w.deck_horizon)
    threat = _threat(view, player)
    value += w.threat * min(threat, max(0, opponent_hp))
    if opponent_hp > 0 and threat >= opponent_hp:
        value += w.lethal
    return value


def position_value(view: FairView, player: int, weights: Weights = DEFAULT_WEIGHTS) -> float:
    """The position's value for ``player`` in (-1, 1), as if the game went on (a rollout cut
    off by a turn limit is judged by it)."""
    diff = side_value(view, player, weights) - side_value(view, 1 - player, weights)
    return math.tanh(diff / weights.scale)


def evaluate(view: FairView, player: int | None = None,
             weights: Weights = DEFAULT_WEIGHTS) -> float:
    """The position's value for ``player`` (default: the view's own), in [-1, 1]: a finished
    game (``over``, read if the view has it) is 1, -1 or 0 (a draw)."""
    if player is None:
        player = int(view.player)
    if getattr(view, "over", False):
        winner = getattr(view, "winner", None)
        return 0.0 if winner is None else (1.0 if winner == player else -1.0)
    return position_value(view, player, weights)


#: The answer to the starting decision (K 28): taken without a search - nothing is known yet
#: beyond the opening hand, and the report measures the first player's advantage.
START = "start"


def without_search(decision: Decision) -> Option | None:
    """The answer a searching agent gives without looking ahead: the only option, or "start"
    at the starting decision (see :data:`START`); None where it must search."""
    options = decision.options
    if len(options) == 1:
        return options[0]
    if decision.kind == "start":
        return next((o for o in options if o.label == START), options[0])
    return None
