"""The four ways a step of the turn runs (:class:`hkk.Mode`): one simultaneous moment,
items ordered by one player, players alternating, players taking actions."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Any

from hkk._decisions import Option
from hkk._effects import Duration
from hkk._errors import StepLoopError
from hkk._game import Game
from hkk._hookcall import first, implementations, notify
from hkk._pending import ACTION, ACTIVATED, PLAY, Pending
from hkk._phases import Mode, Step
from hkk._prevention import prevented_items
from hkk._resolution import (
    after_resolution,
    call_hook,
    guarded,
    passed_the_turn,
    pay,
    prevented,
    resolve,
    usable,
)
from hkk._triggers import settle, too_many_items
from hkk.events import ItemDropped, Moment, Passed, Resolving, TurnPassed

if TYPE_CHECKING:
    from hkk._state import Permanent

PASS = "pass"
PASS_TURN = "pass turn"  # 41.5: "announces not to act this turn"


def run_simultaneous(game: Game, step: Step) -> None:
    """One moment (29.4.2, 41.4): every item is bound against the same state, then the expiry of
    the step's durations, the start of waiting effects, the loss of defence bonus and every item
    happen together.  Nothing triggers from the expiry; nothing is collected again."""
    items = [i for i in call_hook(game, step.hook) if usable(game, i, step)]
    chosen = _choose_for_moment(game, step, items)
    # choices are made against the state before the moment (29.4.2); a prevented item makes
    # none (D-prevented)
    stopped = prevented_items(game, chosen)
    bound = [(item, None if item in stopped
              else guarded(game, item, partial(item.bind, game, item))) for item in chosen]
    rule = step.rules[0] if step.rules else step.hook
    game.emit(Moment, rule=rule, items=[i.label for i, _ in bound],
              ends=sorted(step.ends))
    if step.ends:
        game.end_effects({Duration(d) for d in step.ends}, rule=_end_rule(step),
                         only_controller=_until_preparation_owner(game, step))
    if step.starts_waiting_effects:
        game.start_waiting_effects(rule="29.4.5")
    with game.moment():
        if step.defence_bonus_lost:  # 41.4; after any bonus the moment's items give
            for perm in game.creatures(game.active):
                game.remove_defence_bonus(perm, rule="41.4")
        for item, b in bound:
            game.emit(Resolving, **item.describe())
            if item.kind in (ACTIVATED, ACTION):
                pay(game, item)
            if item in stopped:
                prevented(game, item, stopped[item])
                continue
            guarded(game, item, partial(item.apply, game, item, b))
    if step.ends_created:
        game.end_effects({Duration(d) for d in step.ends}, rule=_end_rule(step))
    after_resolution(game, step)
    settle(game, step)  # what the moment triggered waits until it and its check are over


def _choose_for_moment(game: Game, step: Step, items: list[Pending]) -> list[Pending]:
    """The items that happen at the moment.  All are paid for from the state before it
    (29.4.2), so what one player pays for must be affordable together.  Where it is, each
    optional item's controller says whether he uses it (stable order).  Where a player cannot
    pay for all of his, their order may not decide it ("sorrendiségük nem vizsgálható"): his
    mandatory items are paid first, then his optional ones, and between equals that do not
    all fit he chooses; what no longer fits is left out, ``item_dropped`` (D-moment-payments)."""
    if not items:
        return items
    paid: dict[int, list[Pending]] = {}
    for item in items:
        if item.kind in (ACTIVATED, ACTION) and item.controller is not None \
                and not item.price.free:
            paid.setdefault(item.controller, []).append(item)
    short = [player for player, theirs in sorted(paid.items())
             if not _Budget(game, player).fits_all(theirs)] if paid else ()
    chosen = []
    for item in items:
        if short and item.controller in short and any(i is item for i in paid[item.controller]):
            continue  # chosen below
        if not item.optional or _wants(game, item, step):
            chosen.append(item)
    if not short:  # everything fits: the usual moment
        return chosen
    for player in short:
        budget = _Budget(game, player)
        theirs = paid[player]
        for mandatory in (True, False):
            group = [i for i in theirs if i.optional is not mandatory]
            chosen += _pay_for(game, step, player, group, budget, mandatory)
    taken = {id(item) for item in chosen}
    return [item for item in items if id(item) in taken]  # in the moment's order


def _pay_for(game: Game, step: Step, player: int, group: list[Pending], budget: _Budget,
             mandatory: bool) -> list[Pending]:
    """Of one player's equal items (all mandatory or all optional) those he pays for."""
    taken: list[Pending] = []
    while group:
        fitting = [i for i in group if budget.fits(i)]
        for item in group:
            if not budget.fits(item):
                game.emit(ItemDropped, item=item.label, controller=item.controller,
                          reason="cannot be paid together with the moment's other items",
                          rule="29.4.2")
        group = fitting
        if not group:
            break
        if budget.fits_all(group):
            for item in group:
                if mandatory or _wants(game, item, step):
                    budget.add(item)
                    taken.append(item)
            break
        if not mandatory and passed_the_turn(game, player):  # 41.5
            break
        options = [Option(f"use {i.label}", i) for i in group]
        if not mandatory:
            options.append(Option("decline"))
        answer = game.decide(player, "use", options, prompt="Which do you pay for?",
                             rule="D-moment-payments")
        if answer.label == "decline":
            break
        item = answer.value
        group = [i for i in group if i is not item]
        budget.add(item)
        taken.append(item)
    return taken


class _Budget:
    """What a player has promised to pay at a moment, against what he has before it."""

    __slots__ = ("player", "vp", "components", "sacrificed")

    def __init__(self, game: Game, player: int) -> None:
        self.player = game.players[player]
        self.vp = 0
        self.components = 0
        self.sacrificed: set[int] = set()

    def fits(self, item: Pending) -> bool:
        return self.fits_all([item])

    def fits_all(self, items: list[Pending]) -> bool:
        vp, components = self.vp, self.components
        sacrificed = set(self.sacrificed)
        for item in items:
            price = item.price
            vp += price.vp
            components += price.components
            if price.sacrifice_self:
                assert item.source is not None  # what sacrifices its source has one
                if item.source.uid in sacrificed:
                    return False
                sacrificed.add(item.source.uid)
        return vp <= self.player.vp and components <= self.player.components

    def add(self, item: Pending) -> None:
        price = item.price
        self.vp += price.vp
        self.components += price.components
        if price.sacrifice_self:
            assert item.source is not None  # as in fits_all
            self.sacrificed.add(item.source.uid)


def _until_preparation_owner(game: Game, step: Step) -> int | None:
    # D-until-preparation: with "controller", only the active player's effects end now
    if "until_preparation" in step.ends and game.rulings.until_preparation_ends == "controller":
        return game.active
    return None


def _end_rule(step: Step) -> str:
    return "29.4.4" if "until_preparation" in step.ends else "41.4"


def _wants(game: Game, item: Pending, step: Step) -> bool:
    """An optional item's controller says whether he uses it (not the active player after
    passing the turn: he uses nothing optional any more, 41.5)."""
    if game.turn_passed and passed_the_turn(game, _owner(game, item)):
        return False
    options = (Option(f"use {item.label}", item), Option("decline"))
    answer = game.decide(_owner(game, item), "use", options, prompt=f"Use {item.label}?",
                         rule=step.rules[0] if step.rules else None)
    return answer.label != "decline"


def _orderer(game: Game, step: Step) -> int | None:
    # 29.4.1; [D] the active player also orders where no rule names who does (41.2): the
    # ``orderer`` hook, answered by the built-in hkk.rules.orderer from the Rulings.
    orderer: int | None = first(game, "orderer", step=step)
    return orderer


def run_ordered(game: Game, step: Step) -> None:
    """Collect → order → resolve → check, until nothing is left (29.4.1 and the like).

    Mandatory items must all happen; optional ones are offered to their controllers, and a
    declined item is not offered again in this step.  In a mandatory step (41.2) every item
    happens once, whatever its flag says.

    The hook is collected again after every resolution, unless nothing it returns can have
    changed (:func:`_steady`): then the items left are the ones collected, less the one that
    resolved, and the step's cost grows with its items, not with their square."""
    finished: set[tuple[Any, ...]] = set()  # automatic items resolved and items declined this step
    wanted: set[tuple[Any, ...]] = set()
    limit = game.rulings.max_items_per_step
    ready: list[Option] = []
    kept_at: int | None = None  # the ability index's version the kept collection is valid for
    for _ in range(limit):
        if kept_at is None or kept_at != game.abilities_version:
            version = game.abilities_version
            ready, keep = _collect_ordered(game, step, finished, wanted)
            kept_at = version if keep and version == game.abilities_version else None
        if not ready:
            return
        orderer = _orderer(game, step) if len(ready) > 1 else None
        if orderer is None:
            chosen = ready[0]
        else:
            chosen = game.decide(orderer, "order", ready, prompt="Which happens next?",
                                 rule=step.order_rule)
        item = chosen.value
        key = item.key
        wanted.discard(key)
        if item.kind not in (ACTIVATED, ACTION) or step.mandatory:
            finished.add(key)
        if kept_at is not None:  # kept items are automatic, keys unique: it resolves once
            del ready[_position(ready, chosen)]
        resolve(game, item)
        after_resolution(game, step)
        settle(game, step)  # D-trigger-wait
    # a pool of triggers (prep stage 2) that keeps growing is a trigger loop (D-trigger-loop)
    raise too_many_items(game, step, limit, [option.value for option in ready])


def _position(options: list[Option], chosen: Option) -> int:
    """Where the chosen option object is (found by identity, not by label: C-level ids)."""
    return list(map(id, options)).index(id(chosen))


def _collect_ordered(game: Game, step: Step, finished: set[tuple[Any, ...]],
                     wanted: set[tuple[Any, ...]]) -> tuple[list[Option], bool]:
    """The step's items left to resolve, as the order decision's options; and whether they
    may be kept until the ability index changes: the hook is steady (:func:`_steady`) and
    every item it returned is automatic, so none of them can become usable or unusable, or
    be used twice, while the index stays; and no two share a key (the one that resolves
    first would end the other's turn in the step too)."""
    ready = []
    collected = call_hook(game, step.hook)
    for item in collected:
        key = item.key
        if key in finished or not usable(game, item, step):
            continue
        if item.optional and not step.mandatory and key not in wanted:
            if not _wants(game, item, step):
                finished.add(key)
                continue
            wanted.add(key)
        ready.append(Option(item.label, item))
    keep = bool(ready) and _steady(game, step) and all(
        i.kind not in (ACTIVATED, ACTION) for i in collected) and len(
        {option.value.key for option in ready}) == len(ready)
    return ready, keep


def _steady(game: Game, step: Step) -> bool:
    """Whether what the step's hook returns changes only when the ability index does
    (``game.abilities_version``): every implementation either returns nothing in this step (it
    is marked ``only_in_steps`` and the step is not one of them) or says so of itself with
    ``steady_in(game, step)`` (the card interpreter, unless an ability there has a condition).
    Any other implementation is asked again after every resolution, as a hook expects."""
    for impl in game.hook_impls.get(step.hook) or implementations(game, step.hook):
        applies = getattr(impl.function, "hkk_applies", None)
        if applies is not None and not applies(step, step.hook):
            continue
        steady = getattr(impl.plugin, "steady_in", None)
        if steady is None or not steady(game, step):
            return False
    return True


def _owner(game: Game, item: Pending) -> int:
    """Who uses an item: its controller; the active player for the rules' own items."""
    return item.controller if item.controller is not None else game.active


def run_alternating(game: Game, step: Step) -> None:
    """41.1: players alternately use end-of-turn abilities, the active player first.  Items with a
    cost or a conditional text are optional; the others must be used, so a player who still has
    one cannot pass.  The stage ends when both players pass one after the other."""
    player = game.active
    passes = 0
    used: set[tuple[Any, ...]] = set()  # mandatory items already used
    for _ in range(game.rulings.max_items_per_step):
        if passes >= 2:
            return
        items = [i for i in call_hook(game, step.hook)
                 if _owner(game, i) == player and i.key not in used and usable(game, i, step)]
        if player == game.active and game.turn_passed:  # 41.5: he announced not to act
            items = [i for i in items if not i.optional]
        mandatory = [i for i in items if not i.optional]
        options = [Option(f"use {i.label}", i) for i in items]
        if not mandatory:
            options.append(Option(PASS))
        if len(options) == 1 and options[0].label == PASS:
            game.emit(Passed, player=player, rule="41.1", forced=True)
            passes += 1
        else:
            choice = game.decide(player, "action", options, prompt="End of turn", rule="41.1")
            if choice.label == PASS:
                game.emit(Passed, player=player, rule="41.1", forced=False)
                passes += 1
            else:
                item = choice.value
                if not item.optional or item.kind != ACTIVATED:
                    used.add(item.key)  # automatic effects happen once; mandatory ones too
                passes = 0
                resolve(game, item)
                after_resolution(game, step)
                settle(game, step)  # D-trigger-wait
        player = game.opponent(player)
    raise StepLoopError(f"step {step.hook} went on for {game.rulings.max_items_per_step} turns "
                        "of alternation; an ability without cost or limit repeats forever")


def run_actions(game: Game, step: Step, player: int | None = None,
                active_passed: bool = False) -> None:
    """Players act in turn, the active player first (4.11.6).  The phase ends when both have
    passed, the active player first: his pass, then his opponent's (4.11.7); an action by
    either reopens it.  An action: play a card from hand (8.1), use an activated ability or an
    action a rules plugin offers, extract monster components.  The active player may pass for
    the whole turn (41.5): from then on only his opponent acts, in this phase and in every
    action phase left; each ends when the opponent passes.

    ``player`` and ``active_passed`` are where a resumed step goes on (the forward model,
    :func:`hkk._runner.resume_step`): whose action it is, and whether the active player's
    pass stands."""
    active = game.active
    if player is None:
        player = active
    offered: dict[int, tuple[Any, Option]] = {}  # the step's options, made once per item
    for _ in range(game.rulings.max_items_per_step):
        if game.over:
            return
        if player == active and game.turn_passed:  # 41.5: he does not act any more
            active_passed = True
            player = 1 - player  # his opponent (game.opponent, without a call)
            continue
        options = action_options(game, step, player, offered)
        choice = game.decide(player, "action", options, prompt=step.hook, rule=step.rules[0])
        kind = choice.label
        if kind in (PASS, PASS_TURN):
            if kind == PASS_TURN:
                game.turn_passed = True
                game.emit(TurnPassed, player=player, rule="41.5")
                notify(game, "turn_passed", player=player)  # the game clock closes (41.7)
            else:
                game.emit(Passed, player=player, rule="4.11.7")
            if player != active and active_passed:
                return  # 4.11.7: the active player's pass, then his opponent's
            active_passed = active_passed or player == active
        else:
            active_passed = False
            choice.value(game)
            after_resolution(game, step)
            settle(game, step)  # D-trigger-wait: mandatory triggers resolve, not as actions
        player = 1 - player
    raise StepLoopError(f"step {step.hook} had {game.rulings.max_items_per_step} actions "
                        "without ending")


def action_options(game: Game, step: Step, player: int,
                   offered: dict[int, tuple[Any, Option]] | None = None) -> list[Option]:
    """The player's actions: the items of the step's hook - cards to play from hand (8.1,
    ``hkk.rules.hand_play``) as ``play <card>``, the others as ``use <item>`` - then the
    monster components he may extract (D-components-window), then passing.

    ``offered`` (``id(item) -> (item, option)``, kept by the caller for one step) lets an item
    collected again offer the same Option instead of a new one: hooks mostly return the same
    item objects decision after decision; the pair holds the item, so its id stays its own."""
    if offered is None:
        offered = {}
    options: list[Option] = []
    for item in call_hook(game, step.hook):
        # a card to play is always usable (usable() asks only about abilities and actions)
        if item.controller == player and (item.kind is PLAY or usable(game, item, step)):
            made = offered.get(id(item))
            if made is None or made[0] is not item:
                if item.kind == PLAY:
                    made = (item, Option(item.label, _play(item)))
                else:
                    made = (item, Option(f"use {item.label}", _use(item)))
                offered[id(item)] = made
            options.append(made[1])
    if game.offers:
        for offer in game.offers:
            if offer.player == player:
                options.append(Option(f"extract {offer.card_id}#{offer.uid}", _extract(offer)))
    options.append(_PASS)
    if player == game.active and not game.turn_passed:
        options.append(_PASS_TURN)
    return options


# Passing is the same answer in every decision: one Option each, never changed.
_PASS = Option(PASS)
_PASS_TURN = Option(PASS_TURN)


def _play(item: Pending) -> Callable[[Game], None]:
    return lambda game: item.apply(game, item, None)


def _use(item: Pending) -> Callable[[Game], None]:
    return lambda game: resolve(game, item)


def _extract(offer: Any) -> Callable[[Game], None]:
    return lambda game: game.extract_components(offer)


def run_entry_triggers(game: Game, perm: Permanent) -> None:
    """A permanent's "enters play" automatic effects, ordered by its controller [R]."""
    items = call_hook(game, "entered_play", permanent=perm)
    while items:
        if len(items) == 1:
            item = items[0]
        else:
            item = game.decide(perm.controller, "order", [Option(i.label, i) for i in items],
                               prompt="Which happens next?", rule="R-enter-order").value
        items.remove(item)
        # a card enters play within a step: both calls below read it
        assert game.step is not None
        if item.optional and not _wants(game, item, game.step):
            continue
        resolve(game, item)
        after_resolution(game, game.step)  # [D] D-hp-check: after every effect


RUNNERS: dict[Mode, Callable[[Game, Step], Any]] = {
    Mode.SIMULTANEOUS: run_simultaneous,
    Mode.ORDERED: run_ordered,
    Mode.ALTERNATING: run_alternating,
    Mode.ACTIONS: run_actions,
}
