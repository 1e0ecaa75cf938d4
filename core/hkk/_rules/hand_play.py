"""Playing cards from hand (8.1; 29.4.6): which cards a player may play now, and playing one.

A built-in rules plugin, ``hkk.rules.hand_play``: it answers the ``playable`` hook
(D-instants), and in every action step (``Mode.ACTIONS``) it contributes one item per card each
player may play, offered as ``play <card id>`` in hand order, before every other action;
using one plays the card (``game.play_card``) and runs its "enters play" items.  A set changes
what may be played when by answering ``playable`` itself (asked before the built-in), or
replaces the plugin by name; ``game.playable(player)`` and ``game.play_card(player, card_id)``
ask the hook."""

from __future__ import annotations

import types
from typing import TYPE_CHECKING, Any

from hkk import PLAY, TURN_HOOKS, Mode, Pending, hookimpl, only_in_steps

if TYPE_CHECKING:
    from hkk import Game, Step

__all__ = ["HandPlay"]

#: The timestamp part of a hand card's sort key: cards in hand have no timestamp yet, and come
#: before every permanent's items and every rules item (-1), in hand order.
IN_HAND = -2


class HandPlay:
    """[D] D-instants: only the active player plays creatures, buildings and ordinary spells,
    where the step allows hand play (the main phase); either player may play instant spells
    outside the preparation phase; never in the preparation phase (29.4.6)."""

    # slots: every action decision reads these (CPython 3.11 specializes a slot's read; the
    # plugin's instance dict, once pluggy has looked into it, it does not)
    __slots__ = ("_items", "_playable", "_cards", "_rulings", "_collected", "_alone_in",
                 "_alone", "_conditional")

    def __init__(self) -> None:
        #: (player, card id, position among the playable cards) -> its item.  Items hold no
        #: state of a game, and every action decision asks for them: made once, not per call.
        self._items: dict[tuple[int, str, int], Pending] = {}
        #: (active?, step allows hand play, VP, components, hand) -> the playable card ids,
        #: for the card table ``_cards`` under the rulings ``_rulings`` (D-no-target: a game's
        #: own rulings may be other than the previous game's of the engine).
        self._playable: dict[tuple[Any, ...], tuple[str, ...]] = {}
        self._cards: Any = None
        self._rulings: Any = None
        #: (active player, step allows hand play, both players' VP, components and hands) ->
        #: the items of an action step, for the card table ``_cards`` and ``_rulings``: every
        #: collection of an action step asks, mostly about the same hands.
        self._collected: dict[tuple[Any, ...], tuple[Pending, ...]] = {}
        #: Whether this plugin alone answers ``playable`` in the game whose hook table
        #: (``game.hook_impls``, one per game) ``_alone_in`` is: only then may ``_collected``
        #: answer for it, since a set's answer may depend on anything.
        self._alone_in: Any = None
        self._alone = True
        #: The cards of the card table ``_cards`` with a ``play_condition``, or spells that
        #: only act on chosen permanents (D-no-target, when the rulings say so), by id: an
        #: answer that read one depends on the state, so it is never kept.
        self._conditional: dict[str, Any] = {}

    def items(self, game: Game) -> list[Pending] | None:
        """Each player's ``play <card id>`` items, when the step is an action step."""
        step = game.step
        if step is None or step.mode is not _ACTIONS or game.over:
            return None
        active = game.active
        p, q = game.players[active], game.players[1 - active]
        key = (active, step.hand_play, step.no_hand_play, p.vp, p.components, tuple(p.hand),
               q.vp, q.components, tuple(q.hand))
        if self._alone_in is not game.hook_impls:  # a game this plugin has not seen yet
            self._alone_in = game.hook_impls
            self._alone = [i.plugin for i in game.hook.playable.get_hookimpls()] == [self]
        known = self._collected.get(key) if self._alone else None
        if known is None or self._cards is not game.cards or self._rulings is not game.rulings:
            known = self._collect(game, key)
        return list(known)

    def _collect(self, game: Game, key: tuple[Any, ...]) -> tuple[Pending, ...]:
        items = []
        made = self._items
        playable = self.playable if self._alone else lambda game, player: game.playable(player)
        for player in (game.active, 1 - game.active):  # the active player, then his opponent
            for index, card_id in enumerate(playable(game, player)):
                item = made.get((player, card_id, index))
                if item is None:
                    item = made[player, card_id, index] = Pending(
                        f"play {card_id}", self._play, controller=player, kind=PLAY,
                        card_id=card_id, rule="8.1")
                    item.order = (player, IN_HAND, index)  # hand order, before the others
                items.append(item)
        collected = tuple(items)
        if self._alone and not self._conditional:  # a play condition reads the state
            if len(self._collected) > 512:  # forgotten all at once: hands vary little
                self._collected = {}
            self._collected[key] = collected
        return collected

    def _play(self, game: Game, item: Pending, bound: object) -> None:
        assert item.controller is not None and item.card_id is not None  # a player's card
        perm = game.play_card(item.controller, item.card_id)
        if perm is not None:
            game.run_entry_triggers(perm)

    @hookimpl
    def playable(self, game: Game, player: int) -> list[str]:
        """Card ids in ``player``'s hand he may play now and can pay for, in hand order."""
        step = game.step
        if step is None or game.over or step.no_hand_play:  # 29.4.6
            return []
        # Asked for both players before every action decision, mostly about the same hand:
        # the answer depends only on what this key holds (and the card table), so it is kept
        # (forgotten all at once past a few hundred answers: hands vary little in a step).
        p = game.players[player]
        key = (player == game.active, step.hand_play, p.vp, p.components, tuple(p.hand))
        if self._cards is not game.cards or self._rulings is not game.rulings \
                or len(self._playable) > 512:
            self._forget(game)
        if (known := self._playable.get(key)) is not None:  # one line: the hottest path
            return list(known)
        result = []
        for card_id in dict.fromkeys(p.hand):
            card = game.cards[card_id]
            if card.cost.vp > p.vp or card.cost.components > p.components:
                continue
            instant = card.kind == "spell" and card.instant
            if not step.hand_play and not instant:
                continue
            if player != game.active and not instant:
                continue
            result.append(card_id)
        if self._conditional and not self._conditions_hold(game, player, result):
            return result  # read the state: not kept
        self._playable[key] = tuple(result)
        return result

    def _forget(self, game: Game) -> None:
        """Forget every answer kept (a new card table or rulings, or too many answers)."""
        self._playable, self._collected = {}, {}
        if self._cards is not game.cards or self._rulings is not game.rulings:
            self._cards, self._rulings = game.cards, game.rulings
            self._conditional = {i: c for i, c in game.cards.items()
                                 if getattr(c, "play_condition", None) is not None
                                 or game.rulings.spells_need_a_choice
                                 and getattr(c, "only_chooses", False)}

    def _conditions_hold(self, game: Game, player: int, result: list[str]) -> bool:
        """Drop from ``result`` the cards whose ``play_condition`` does not hold now ("Csak
        akkor játszható ki, ha ..."), and the spells with no permanent to choose (D-no-target);
        False if it read one (the answer depends on the state)."""
        conditional = [card_id for card_id in result if card_id in self._conditional]
        for card_id in conditional:
            card = self._conditional[card_id]
            condition = card.play_condition
            if condition is not None and not condition.holds(game, player) \
                    or card.kind == "spell" and game.rulings.spells_need_a_choice \
                    and not card.can_choose(game, player):
                result.remove(card_id)
        return not conditional


def _in_action_step(step: Step | None, hook: str) -> bool:
    return step is not None and step.mode is _ACTIONS


def _make_impl(hook: str) -> object:
    # items() checks the step itself: every collection of every step may call it
    impl = only_in_steps(_in_action_step)(_named(HandPlay.items, hook))
    return hookimpl(specname=hook)(impl)


def _named(function: Any, name: str) -> Any:
    """A copy of ``function`` under the hook's name (one function per hook implemented)."""
    copy = types.FunctionType(function.__code__, function.__globals__, name,
                              function.__defaults__, function.__closure__)
    copy.__qualname__ = f"HandPlay.{name}"
    copy.__doc__ = function.__doc__
    return copy


_ACTIONS = Mode.ACTIONS

for _hook in TURN_HOOKS:  # any step of a custom turn may be an action step
    setattr(HandPlay, _hook, _make_impl(_hook))
