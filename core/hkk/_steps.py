"""The four ways a step of the turn runs (:class:`hkk.Mode`): one simultaneous moment,
items ordered by one player, players alternating, players taking actions."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from hkk._cards.interpret import ability_item
from hkk._deciding import ask
from hkk._decisions import Option
from hkk._effects import Duration
from hkk._errors import StepLoopError
from hkk._forward import PositionError
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
    resolve_again,
    usable,
)
from hkk._state import Permanent
from hkk._triggers import settle, settle_again, too_many_items
from hkk.events import ComponentsDeclined, ItemDropped, Moment, Passed, Resolving, TurnPassed

PASS = "pass"
PASS_TURN = "pass turn"  # 41.5: "announces not to act this turn"


def run_simultaneous(game: Game, step: Step) -> None:
    """One moment (29.4.2, 41.4): every item is bound against the same state, then the expiry of
    the step's durations, the start of waiting effects, the loss of defence bonus and every item
    happen together.  Nothing triggers from the expiry; nothing is collected again.

    Its frame, ``["moment", stage, answers]``: choosing and binding change nothing (29.4.2), so
    a decision there is reached again by choosing and binding again with the answers given
    (stage 0); stage 1 settles what the moment triggered."""
    machine = game.machine
    if machine.back:
        frame = machine.frame(["moment"])
    else:
        frame = ["moment", 0, []]
        machine.frames.append(frame)
    if frame[1] == 0:
        items = [i for i in call_hook(game, step.hook) if usable(game, i, step)]
        machine.region, machine.replayed = frame[2], 0  # a step runs in no bind: it had none
        chosen = _choose_for_moment(game, step, items)
        # choices are made against the state before the moment (29.4.2); a prevented item
        # makes none (D-prevented)
        stopped = prevented_items(game, chosen)
        bound = [(item, None if item in stopped
                  else guarded(game, item, partial(item.bind, game, item))) for item in chosen]
        machine.region = None
        frame[1] = 1
        _moment(game, step, bound, stopped)
    # what the moment triggered waits until it and its check are over
    (settle_again if machine.back else settle)(game, step)
    machine.frames.pop()


def _moment(game: Game, step: Step, bound: list[tuple[Pending, Any]],
            stopped: dict[Pending, Any]) -> None:
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
            if not budget.fits(item) and not game.machine.replaying():  # logged when first met
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
        answer = ask(game, player, "use", options, prompt="Which do you pay for?",
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
    answer = ask(game, _owner(game, item), "use", options, prompt=f"Use {item.label}?",
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
    resolved, and the step's cost grows with its items, not with their square.

    Its frame: ``["ordered", finished, wanted, count, stage, item]`` - the keys of the
    automatic items resolved and the items declined, of the optional items wanted, how many
    resolved; stage 0 collects and orders, 1 resolves ``item`` (its key and label), 2 settles
    what it triggered."""
    machine = game.machine
    first: list[Pending] | None = None  # the first collection, made before the frame
    start = 0
    if machine.back:
        frame = machine.frame(["ordered"])
        start = frame[3]
        if frame[4]:  # going back to the item resolving (1), or to what it triggered (2)
            if frame[4] == 1:
                resolve_again(game, _collected(game, step, frame[5]))
                after_resolution(game, step)
                frame[4] = 2
            settle_again(game, step)
            frame[4] = 0
            start += 1
    else:
        first = call_hook(game, step.hook)
        if not first:  # nothing to order (most steps): no frame
            return
        frame = ["ordered", set(), set(), 0, 0, None]
        machine.frames.append(frame)
    finished: set[tuple[Any, ...]] = frame[1]  # automatic items resolved, items declined
    wanted: set[tuple[Any, ...]] = frame[2]
    limit = game.rulings.max_items_per_step
    ready: list[Option] = []
    kept_at: int | None = None  # the ability index's version the kept collection is valid for
    for count in range(start, limit):
        frame[3] = count
        if kept_at is None or kept_at != game.abilities_version:
            version = game.abilities_version
            ready, keep = _collect_ordered(game, step, finished, wanted, first)
            first = None
            kept_at = version if keep and version == game.abilities_version else None
        if not ready:
            machine.frames.pop()
            return
        orderer = _orderer(game, step) if len(ready) > 1 else None
        if orderer is None:
            chosen = ready[0]
        else:
            chosen = ask(game, orderer, "order", ready, prompt="Which happens next?",
                                 rule=step.order_rule)
        item = chosen.value
        key = item.key
        wanted.discard(key)
        if item.kind not in (ACTIVATED, ACTION) or step.mandatory:
            finished.add(key)
        if kept_at is not None:  # kept items are automatic, keys unique: it resolves once
            del ready[_position(ready, chosen)]
        frame[4] = 1  # single stores: a slice assignment costs more than both
        frame[5] = key, item.label
        resolve(game, item)
        after_resolution(game, step)
        frame[4] = 2
        settle(game, step)  # D-trigger-wait
        frame[4] = 0
    # a pool of triggers (prep stage 2) that keeps growing is a trigger loop (D-trigger-loop)
    raise too_many_items(game, step, limit, [option.value for option in ready])


def _collected(game: Game, step: Step, which: tuple[Any, str]) -> Pending:
    """The item of the step's hook with this key and label: the one a frame resolves."""
    key, label = which
    held: Pending | None = game.machine.held  # the item this game stopped in (the usual
    if held is not None and held.key == key and held.label == label:  # case): as it was
        return held
    for item in call_hook(game, step.hook):
        if item.key == key and item.label == label:
            game.machine.held = item  # (a copy's or a load's): held while it resolves, as
            return item  # the step may stop offering it (an attack: the attackers passive)
    raise PositionError(f"the machine's position resolves {label!r}, which step {step.hook} "
                        "does not offer")


def _position(options: list[Option], chosen: Option) -> int:
    """Where the chosen option object is (found by identity, not by label: C-level ids)."""
    return list(map(id, options)).index(id(chosen))


def _collect_ordered(game: Game, step: Step, finished: set[tuple[Any, ...]],
                     wanted: set[tuple[Any, ...]],
                     collected: list[Pending] | None = None) -> tuple[list[Option], bool]:
    """The step's items left to resolve, as the order decision's options; and whether they
    may be kept until the ability index changes: the hook is steady (:func:`_steady`) and
    every item it returned is automatic, so none of them can become usable or unusable, or
    be used twice, while the index stays; and no two share a key (the one that resolves
    first would end the other's turn in the step too)."""
    ready = []
    if collected is None:
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
    one cannot pass.  The stage ends when both players pass one after the other.

    Its frame: ``["alternating", player, passes, used, count, stage, item]``: whose turn,
    the passes in a row, the keys of the mandatory items used, the turns of alternation; stage 0
    asks, 1 resolves ``item`` (key and label), 2 settles."""
    machine = game.machine
    if machine.back:
        frame = machine.frame(["alternating"])
    else:
        frame = ["alternating", game.active, 0, set(), 0, 0, None]
        machine.frames.append(frame)
    used: set[tuple[Any, ...]] = frame[3]  # mandatory items already used
    while frame[4] < game.rulings.max_items_per_step:
        player = frame[1]
        if frame[5] == 0:
            if frame[2] >= 2:
                machine.frames.pop()
                return
            items = [i for i in call_hook(game, step.hook)
                     if _owner(game, i) == player and i.key not in used
                     and usable(game, i, step)]
            if player == game.active and game.turn_passed:  # 41.5: he announced not to act
                items = [i for i in items if not i.optional]
            mandatory = [i for i in items if not i.optional]
            options = [Option(f"use {i.label}", i) for i in items]
            if not mandatory:
                options.append(Option(PASS))
            if len(options) == 1 and options[0].label == PASS:
                game.emit(Passed, player=player, rule="41.1", forced=True)
                frame[2] += 1
            else:
                choice = ask(game, player, "action", options, prompt="End of turn",
                                     rule="41.1")
                if choice.label == PASS:
                    game.emit(Passed, player=player, rule="41.1", forced=False)
                    frame[2] += 1
                else:
                    item = choice.value
                    if not item.optional or item.kind != ACTIVATED:
                        used.add(item.key)  # automatic effects happen once; mandatory ones too
                    frame[2] = 0
                    frame[5], frame[6] = 1, (item.key, item.label)
        elif frame[5] == 1:
            item = _collected(game, step, frame[6])
        if frame[5] == 1:
            (resolve_again if machine.back else resolve)(game, item)
            after_resolution(game, step)
            frame[5] = 2
        if frame[5] == 2:
            (settle_again if machine.back else settle)(game, step)  # D-trigger-wait
        frame[5] = 0
        frame[1] = game.opponent(player)
        frame[4] += 1
    raise StepLoopError(f"step {step.hook} went on for {game.rulings.max_items_per_step} turns "
                        "of alternation; an ability without cost or limit repeats forever")


def run_actions(game: Game, step: Step) -> None:
    """Players act in turn, the active player first (4.11.6).  The phase ends when both have
    passed, the active player first: his pass, then his opponent's (4.11.7); an action by
    either reopens it.  An action: play a card from hand (8.1), use an activated ability or an
    action a rules plugin offers, extract monster components.  The active player may pass for
    the whole turn (41.5): from then on only his opponent acts, in this phase and in every
    action phase left; each ends when the opponent passes.

    Its frame: ``["actions", player, active_passed, count, stage, action]``: whose action,
    whether the active player's pass stands, the actions so far; stage 0 asks, 1 does
    ``action`` (``("play", card id)``, ``("use", key, label)`` or ``("extract", uid)``), 2
    settles what it triggered."""
    active = game.active
    machine = game.machine
    stopped = None
    offered: dict[int, tuple[Any, Option]]  # the step's options, made once per item
    if machine.back:
        frame = machine.frame(["actions"])
        if not machine.back and frame[4] == 0:  # back to its own decision, answered from
            stopped, machine.stopped = machine.stopped, None  # outside: the options it offered
        kept = machine.offered  # those it had made before it stopped (if this game's)
        if kept is not None and kept[0] is frame:
            offered = kept[1]
        else:  # a copy's or a load's: made again
            offered = {}
            machine.offered = (frame, offered)
    else:
        frame = ["actions", active, False, 0, 0, None]
        machine.frames.append(frame)
        machine.offered = (frame, offered := {})  # for going on after a stop (once a step)
    limit = game.rulings.max_items_per_step
    player, active_passed, start = frame[1], frame[2], frame[3]
    if frame[4]:  # going back to the action being done (1), or to what it triggered (2)
        if frame[4] == 1:
            _act(game, step, frame[5])(game)
            after_resolution(game, step)
            frame[4] = 2
        settle_again(game, step)
        frame[4] = 0
        player, start = 1 - player, start + 1
    for count in range(start, limit):
        if game.over:
            machine.frames.pop()
            return
        if player == active and game.turn_passed:  # 41.5: he does not act any more
            active_passed = True
            player = 1 - player  # his opponent (game.opponent, without a call)
            continue
        if stopped is None:
            options = action_options(game, step, player, offered)
        else:
            options, stopped = list(stopped.options), None
        frame[1] = player
        frame[2] = active_passed
        frame[3] = count
        choice = ask(game, player, "action", options, prompt=step.hook, rule=step.rules[0])
        kind = choice.label
        if kind in (PASS, PASS_TURN):
            if kind == PASS_TURN:
                game.turn_passed = True
                game.emit(TurnPassed, player=player, rule="41.5")
                notify(game, "turn_passed", player=player)  # the game clock closes (41.7)
            else:
                game.emit(Passed, player=player, rule="4.11.7")
            if player != active and active_passed:
                machine.frames.pop()
                return  # 4.11.7: the active player's pass, then his opponent's
            active_passed = active_passed or player == active
        else:
            active_passed = frame[2] = False
            frame[4] = 1
            frame[5], act = choice.value
            act(game)
            after_resolution(game, step)
            frame[4] = 2
            settle(game, step)  # D-trigger-wait: mandatory triggers resolve, not as actions
            frame[4] = 0
        player = 1 - player
    raise StepLoopError(f"step {step.hook} had {game.rulings.max_items_per_step} actions "
                        "without ending")


def _act(game: Game, step: Step, action: tuple[Any, ...]) -> Callable[[Game], None]:
    """The action a frame is doing, found again: the card played goes on from its frames
    (:func:`play_from_hand`), an item by its key and label, an extraction by its uid."""
    if action[0] == "play":
        return lambda game: play_from_hand(game, action[1], action[2])
    if action[0] == "use":
        item = _collected(game, step, (action[1], action[2]))
        return lambda game: resolve_again(game, item)
    for offer in game.offers:
        if offer.uid == action[1]:
            return lambda game: game.extract_components(offer)
    raise PositionError(f"the machine's position extracts from #{action[1]}, which is offered "
                        "no more")


def play_from_hand(game: Game, player: int, card_id: str) -> None:
    """A card played from hand going on from its frames, as ``hkk.rules.hand_play``'s item
    plays it: paid and resolving (a spell binding its targets), or its "enters play" items."""
    machine = game.machine
    frame = machine.frames[machine.depth]
    if frame[0] == "entry":
        run_entry_triggers(game, _entering(game, frame))
        return
    perm = game.play_card(player, card_id)
    if perm is not None:
        game.run_entry_triggers(perm)


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
                    made = (item, Option(item.label, (("play", item.controller, item.card_id),
                                                      _play(item))))
                else:
                    made = (item, Option(f"use {item.label}",
                                         (("use", item.key, item.label), _use(item))))
                offered[id(item)] = made
            options.append(made[1])
    if game.offers:
        for offer in game.offers:
            if offer.player == player:
                options.append(Option(f"extract {offer.card_id}#{offer.uid}",
                                      (("extract", offer.uid), _extract(offer))))
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


def _entering(game: Game, frame: list[Any]) -> Permanent:
    """The permanent an ``entry`` frame runs the "enters play" items of.  One of them may have
    taken it out of play (a ``sacrifice``): its others are still ordered and asked about, as
    a seated game goes on with the permanent it holds, so it is stood in for by a permanent
    out of play, from the frame's card and players (its "self" is no target any more)."""
    if len(frame) < 9:  # an older save's frame: neither the card nor the items' keys kept
        frame.extend([None] * (9 - len(frame)))
    perm = game.permanents.get(frame[1])
    if perm is not None:
        return perm
    if not isinstance(frame[5], str) or frame[5] not in game.cards:
        raise PositionError(f"the machine's position runs the \"enters play\" items of "
                            f"#{frame[1]}, which has left play, and does not name its card")
    perm = Permanent(frame[1], game.cards[frame[5]], frame[6], "graveyard", 0)
    perm.controller = frame[7]
    return perm


def _fired(perm: Permanent, items: list[Pending], keys: Any) -> list[Pending]:
    """The items with these keys, which fired as the permanent entered play, going on from
    its frame: those the hook still returns, and a card's ability whose condition no longer
    holds (it is read when the ability fires, D-conditions: a seated game goes on with the
    items it collected then) made again from the card."""
    by_key = {i.key: i for i in items}
    fired = []
    for key in keys:
        item = by_key.get(key)
        if item is None:
            ability = _entry_ability(perm, key)
            if ability is None:
                raise PositionError(f"the machine's position resolves an item of "
                                    f"#{perm.uid} entering play that it no longer has")
            item = ability_item(perm, key[1], ability)
        fired.append(item)
    return fired


def _entry_ability(perm: Permanent, key: Any) -> Any:
    """The card's "enters play" ability a card ability's item key ``(uid, index)`` names."""
    if not (isinstance(key, tuple) and len(key) == 2 and key[0] == perm.uid
            and isinstance(key[1], int) and 0 <= key[1] < len(perm.card.abilities)):
        return None
    ability = perm.card.abilities[key[1]]
    return ability if ability.kind == "automatic" and ability.timing == "on_enter" else None


def run_entry_triggers(game: Game, perm: Permanent) -> None:
    """A permanent's "enters play" automatic effects, ordered by its controller [R].

    Its frame: ``["entry", uid, done, stage, item, card, owner, controller, keys]``: the keys
    of the items taken; stage 0 orders, 1 asks about an optional ``item`` (its key), 2
    resolves it; the permanent's card and players, to go on if one of its items takes it out
    of play (:func:`_entering`); the keys of its items as they fired (:func:`_fired`)."""
    machine = game.machine
    frame = machine.frame(["entry", perm.uid, [], 0, None, perm.card.id, perm.owner,
                           perm.controller, None])
    done = frame[2]
    items = call_hook(game, "entered_play", permanent=perm)
    if frame[8] is None:  # as they fire: kept for going on from the frame
        frame[8] = [i.key for i in items] if items else ()
    else:
        items = _fired(perm, items, frame[8])
    if done:
        left = [i for i in items if i.key not in done]
        if frame[3]:
            found = [i for i in items if i.key == frame[4]]
            if not found:
                raise PositionError(f"the machine's position resolves an item of "
                                    f"#{perm.uid} entering play that it no longer has")
            item = found[0]
        items = left
    # a card enters play within a step: every call below reads it
    step = game.step
    assert step is not None
    while items or frame[3]:
        if frame[3] == 0:
            if len(items) == 1:
                item = items[0]
            else:
                item = ask(game, perm.controller, "order",
                                   [Option(i.label, i) for i in items],
                                   prompt="Which happens next?", rule="R-enter-order").value
            items.remove(item)
            done.append(item.key)
            frame[3], frame[4] = 1, item.key
        if frame[3] == 1:
            if item.optional and not _wants(game, item, step):
                frame[3] = 0
                continue
            frame[3] = 2
        (resolve_again if machine.back else resolve)(game, item)
        after_resolution(game, step)  # [D] D-hp-check: after every effect
        frame[3] = 0
    machine.frames.pop()


def close_offers(game: Game, phase: str) -> None:
    """Components may be extracted until the end of the phase of the death [R]; what is left is
    offered one last time, then lapses (D-components-window).  The offers are the game's: a
    decision here goes on from them (its frame, ``["offers"]``, says the machine is here)."""
    machine = game.machine
    machine.frame(["offers"])
    for offer in [o for o in game.offers if o.phase == phase]:
        answer = ask(game, offer.player, "extract",
                             (Option(f"extract {offer.card_id}#{offer.uid}", offer),
                              Option("decline")), rule="R-components")
        if answer.label == "decline":
            game.offers.remove(offer)
            game.emit(ComponentsDeclined, player=offer.player, card=offer.card_id,
                      uid=offer.uid)
        else:
            game.extract_components(offer)
    game.offers = [o for o in game.offers if o.phase != phase]
    machine.closing = None
    machine.frames.pop()


RUNNERS: dict[Mode, Callable[[Game, Step], Any]] = {
    Mode.SIMULTANEOUS: run_simultaneous,
    Mode.ORDERED: run_ordered,
    Mode.ALTERNATING: run_alternating,
    Mode.ACTIONS: run_actions,
}
