"""The turn runner: walks the turn's steps and owns the hard parts of the rules.

For every step it **collects** pending items from the step's hook, lets the right player
**order** them, **resolves** one, **checks** creatures' Ép where the rules require it and
collects again.  Hooks never change the game; all changes happen here, through
:class:`hkk.game.Game`'s primitives, so ordering rules, usage limits and logging live in one place.
"""

from __future__ import annotations

from typing import Any, Callable

from hkk.agents import Option
from hkk.effects import Duration
from hkk.errors import HkkError, HookError
from hkk.game import Game, GameOver
from hkk.pending import ACTION, ACTIVATED, Pending
from hkk.phases import Mode, Step

PASS = "pass"
PASS_TURN = "pass turn"  # 41.5: "announces not to act this turn"


def _order(item: Pending) -> tuple:
    return item.order


class StepLoopError(HkkError):
    """A step never ended: some ability can be used over and over for nothing."""


# -- collecting -------------------------------------------------------------------------------

def call_hook(game: Game, hook_name: str, **kwargs: Any) -> list[Pending]:
    """Call every implementation of a hook and return their items in a stable order.

    Implementations are called one by one (not through pluggy's loop) so that an exception is
    reported with the plugin that raised it; the result is sorted, so registration order and
    install order never reach the game (design: "order never depends on install order")."""
    impls = game.hook_impls.get(hook_name)
    if impls is None:
        impls = game.hook_impls[hook_name] = getattr(game.hook, hook_name).get_hookimpls()
    kwargs["game"] = game
    items: list[Pending] = []
    for impl in impls:
        try:
            if impl.argnames == ("game",):  # the common case, without building arguments
                result = impl.function(game)
            else:
                result = impl.function(*[kwargs[name] for name in impl.argnames])
        except (GameOver, HkkError):
            raise
        except Exception as exc:
            set_code = impl.plugin_name.removeprefix("hkk.sets.") \
                if impl.plugin_name.startswith("hkk.sets.") else None
            step = game.step
            raise HookError(f"{type(exc).__name__}: {exc} (in plugin {impl.plugin_name})",
                            hook=hook_name, set_code=set_code,
                            rule=", ".join(step.rules) if step and step.hook == hook_name
                            else None) from exc
        if result:
            items.extend(result)
    items.sort(key=_order)
    return items


# -- resolving --------------------------------------------------------------------------------

def usable(game: Game, item: Pending, step: Step) -> bool:
    """May the item's controller use this activated ability or action now?"""
    if item.kind not in (ACTIVATED, ACTION):
        return True
    key = item.key
    if step.phase == "preparation":
        if key in game.attempted:  # 29.4.9: one attempt per turn
            return False
        if step.hook == "prep_stage2" and item.kind == ACTIVATED \
                and not item.usable_in_preparation:  # 29.4.7
            return False
    usage = item.usage
    if usage.per_turn is not None and game.usage_turn.get(key, 0) >= usage.per_turn:
        return False
    if usage.per_game is not None and game.usage_game.get(key, 0) >= usage.per_game:
        return False
    if usage.whose_turn == "own" and item.controller != game.active:
        return False
    if usage.whose_turn == "opponent" and item.controller == game.active:
        return False
    price = item.price
    if item.controller is not None:
        player = game.players[item.controller]
        if price.vp > player.vp or price.components > player.components:
            return False
    if price.sacrifice_self and (item.source is None or item.source.uid not in game.permanents):
        return False
    if item.source is not None and item.source.uid not in game.permanents:
        return False
    return True


def _wrap(game: Game, item: Pending, exc: Exception) -> HookError:
    step = game.step
    return HookError(f"{type(exc).__name__}: {exc}", hook=step.hook if step else "?",
                     set_code=item.set_code or None, card=item.card_id,
                     ability=item.ability_index, rule=item.rule)


def pay(game: Game, item: Pending) -> None:
    """Count the use, then pay the cost.  In the preparation phase the attempt counts even if
    the effect then fails (29.4.9)."""
    key = item.key
    if game.step is not None and game.step.phase == "preparation":
        game.attempted.add(key)
    game.usage_turn[key] = game.usage_turn.get(key, 0) + 1
    game.usage_game[key] = game.usage_game.get(key, 0) + 1
    price = item.price
    if price.free or item.controller is None:
        return
    player = game.players[item.controller]
    player.vp -= price.vp
    player.components -= price.components
    game.emit("cost_paid", player=item.controller, item=item.label, vp=price.vp,
              components=price.components, sacrifice=price.sacrifice_self)
    if price.sacrifice_self and item.source is not None:
        # never any component from a creature sacrificed as a cost [R]
        game.destroy(item.source, "sacrificed_as_cost", components=False)


def resolve(game: Game, item: Pending) -> None:
    game.emit("resolving", **item.describe())
    if item.kind in (ACTIVATED, ACTION):
        pay(game, item)
    try:
        bound = item.bind(game, item)
        item.apply(game, item, bound)
    except (GameOver, HkkError):
        raise
    except Exception as exc:
        raise _wrap(game, item, exc) from exc


def after_resolution(game: Game, step: Step) -> None:
    """29.4.10 in the preparation phase; [D] after every action and effect elsewhere."""
    if step.hp_check:
        game.check_hp(_hp_rule(step), components=not step.no_components)
    else:
        game.check_players()


def _hp_rule(step: Step) -> str:
    return "29.4.10" if step.phase == "preparation" else "D-hp-check"


# -- the four ways a step runs ----------------------------------------------------------------

def run_simultaneous(game: Game, step: Step) -> None:
    """One moment (29.4.2, 41.4): every item is bound against the same state, then the expiry of
    the step's durations, the start of waiting effects, the loss of defence bonus and every item
    happen together.  Nothing triggers from the expiry; nothing is collected again."""
    items = call_hook(game, step.hook)
    chosen = [i for i in items if not i.optional or _wants(game, i, step)]
    bound = []
    for item in chosen:  # choices are made against the state before the moment (29.4.2)
        try:
            bound.append((item, item.bind(game, item)))
        except (GameOver, HkkError):
            raise
        except Exception as exc:
            raise _wrap(game, item, exc) from exc
    rule = step.rules[0] if step.rules else step.hook
    game.emit("moment", rule=rule, items=[i.label for i, _ in bound],
              ends=sorted(step.ends))
    if step.defence_bonus_lost:  # 41.4
        for perm in game.creatures(game.active):
            game.remove_defence_bonus(perm, rule="41.4")
    if step.ends:
        game.end_effects({Duration(d) for d in step.ends}, rule=_end_rule(step),
                         only_controller=_until_preparation_owner(game, step))
    if step.starts_waiting_effects:
        game.start_waiting_effects(rule="29.4.5")
    game.in_moment = True  # heals and damage of the moment net out (29.4.2, 41.4)
    try:
        for item, b in bound:
            game.emit("resolving", **item.describe())
            try:
                item.apply(game, item, b)
            except (GameOver, HkkError):
                raise
            except Exception as exc:
                raise _wrap(game, item, exc) from exc
    finally:
        game.in_moment = False
        for perm in game.permanents.values():
            if perm.damage_taken < 0:  # healed past max Ép: back to max, not above
                perm.damage_taken = 0
    if step.ends_created:
        game.end_effects({Duration(d) for d in step.ends}, rule=_end_rule(step))
    after_resolution(game, step)


def _until_preparation_owner(game: Game, step: Step) -> int | None:
    # D-until-preparation: with "controller", only the active player's effects end now
    if "until_preparation" in step.ends and game.rulings.until_preparation_ends == "controller":
        return game.active
    return None


def _end_rule(step: Step) -> str:
    return "29.4.4" if "until_preparation" in step.ends else "41.4"


def _wants(game: Game, item: Pending, step: Step) -> bool:
    """An optional item's controller says whether he uses it."""
    owner = item.controller if item.controller is not None else game.active
    answer = game.decide(owner, "use", (Option(f"use {item.label}", item), Option("decline")),
                         prompt=f"Use {item.label}?", rule=step.rules[0] if step.rules else None)
    return answer.label != "decline"


def _orderer(game: Game, step: Step) -> int | None:
    # 29.4.1; [D] the active player also orders where no rule names who does (41.2).
    return game.rulings.orderer(game, step)


def run_ordered(game: Game, step: Step) -> None:
    """Collect → order → resolve → check, until nothing is left (29.4.1 and the like).

    Mandatory items must all happen; optional ones are offered to their controllers, and a
    declined item is not offered again in this step."""
    done: set[tuple] = set()
    declined: set[tuple] = set()
    wanted: set[tuple] = set()
    limit = game.rulings.max_items_per_step
    for _ in range(limit):
        items = [i for i in call_hook(game, step.hook)
                 if i.key not in done and i.key not in declined and usable(game, i, step)]
        for item in items:
            if item.optional and item.key not in wanted:
                if _wants(game, item, step):
                    wanted.add(item.key)
                else:
                    declined.add(item.key)
        ready = [i for i in items if not i.optional or i.key in wanted]
        if not ready:
            return
        orderer = _orderer(game, step) if len(ready) > 1 else None
        if orderer is None:
            item = ready[0]
        else:
            item = game.decide(orderer, "order", [Option(i.label, i) for i in ready],
                               prompt="Which happens next?", rule=_order_rule(step)).value
        wanted.discard(item.key)
        if item.kind not in (ACTIVATED, ACTION):
            done.add(item.key)
        resolve(game, item)
        after_resolution(game, step)
    raise StepLoopError(f"step {step.hook} resolved {limit} items without ending; an ability "
                        "that costs nothing and has no usage limit repeats forever")


def _order_rule(step: Step) -> str:
    return "29.4.1" if step.phase == "preparation" and step.stage == 2 else "D-orderer"


def _owner(game: Game, item: Pending) -> int:
    """Who uses an item: its controller; the active player for the rules' own items."""
    return item.controller if item.controller is not None else game.active


def run_alternating(game: Game, step: Step) -> None:
    """41.1: players alternately use end-of-turn abilities, the active player first.  Items with a
    cost or a conditional text are optional; the others must be used, so a player who still has
    one cannot pass.  The stage ends when both players pass one after the other."""
    player = game.active
    passes = 0
    used: set[tuple] = set()  # mandatory items already used
    for _ in range(game.rulings.max_items_per_step):
        if passes >= 2:
            return
        items = [i for i in call_hook(game, step.hook)
                 if _owner(game, i) == player and i.key not in used and usable(game, i, step)]
        mandatory = [i for i in items if not i.optional]
        options = [Option(f"use {i.label}", i) for i in items]
        if not mandatory:
            options.append(Option(PASS))
        if len(options) == 1 and options[0].label == PASS:
            game.emit("passed", player=player, rule="41.1", forced=True)
            passes += 1
        else:
            choice = game.decide(player, "action", options, prompt="End of turn", rule="41.1")
            if choice.label == PASS:
                game.emit("passed", player=player, rule="41.1", forced=False)
                passes += 1
            else:
                item = choice.value
                if not item.optional or item.kind != ACTIVATED:
                    used.add(item.key)  # automatic effects happen once; mandatory ones too
                passes = 0
                resolve(game, item)
                after_resolution(game, step)
        player = game.opponent(player)
    raise StepLoopError(f"step {step.hook} went on for {game.rulings.max_items_per_step} turns "
                        "of alternation; an ability without cost or limit repeats forever")


def run_actions(game: Game, step: Step) -> bool:
    """Players act in turn, the active player first (4.11.6), until both pass one after the
    other (4.11.7).  An action: play a card from hand (8.1), use an activated ability or an
    action a rules plugin offers, extract monster components.  The active player may pass for
    the whole turn (41.5): from then on only the opponent may act.  Returns whether anybody
    acted."""
    player = game.active
    passes = 0
    acted = False
    for _ in range(game.rulings.max_items_per_step):
        if passes >= 2 or game.over:
            return acted
        if game.turn_passed and player == game.active:  # 41.5
            passes += 1
            player = game.opponent(player)
            continue
        options = action_options(game, step, player)
        choice = game.decide(player, "action", options, prompt=step.hook, rule=step.rules[0])
        kind = choice.label
        if kind == PASS:
            game.emit("passed", player=player, rule="4.11.7")
            passes += 1
        elif kind == PASS_TURN:
            game.turn_passed = True
            game.emit("turn_passed", player=player, rule="41.5")
            game.clock.close_turn(game, rule="41.7")
            passes += 1
        else:
            passes = 0
            acted = True
            choice.value(game)
            after_resolution(game, step)
        player = game.opponent(player)
    raise StepLoopError(f"step {step.hook} had {game.rulings.max_items_per_step} actions "
                        "without ending")


def action_options(game: Game, step: Step, player: int) -> list[Option]:
    options: list[Option] = []
    for card_id in game.playable(player):
        options.append(Option(f"play {card_id}", _play(player, card_id)))
    for item in call_hook(game, step.hook):
        if item.controller == player and usable(game, item, step):
            options.append(Option(f"use {item.label}", _use(item)))
    for offer in game.offers:
        if offer.player == player:
            options.append(Option(f"extract {offer.card_id}#{offer.uid}", _extract(offer)))
    options.append(Option(PASS))
    if player == game.active and not game.turn_passed:
        options.append(Option(PASS_TURN))
    return options


def _play(player: int, card_id: str) -> Callable[[Game], None]:
    def act(game: Game) -> None:
        perm = game.play_card(player, card_id)
        if perm is not None:
            run_entry_triggers(game, perm)
    return act


def _use(item: Pending) -> Callable[[Game], None]:
    return lambda game: resolve(game, item)


def _extract(offer: Any) -> Callable[[Game], None]:
    return lambda game: extract(game, offer)


def extract(game: Game, offer: Any) -> None:
    game.offers.remove(offer)
    game.gain_components(offer.player, offer.count, source=f"{offer.card_id}#{offer.uid}")
    game.emit("components_extracted", player=offer.player, card=offer.card_id, uid=offer.uid,
              count=offer.count)


def run_entry_triggers(game: Game, perm: Any) -> None:
    """A permanent's "enters play" automatic effects, ordered by its controller [R]."""
    items = call_hook(game, "entered_play", permanent=perm)
    while items:
        if len(items) == 1:
            item = items[0]
        else:
            item = game.decide(perm.controller, "order", [Option(i.label, i) for i in items],
                               prompt="Which happens next?", rule="R-enter-order").value
        items.remove(item)
        if item.optional and not _wants(game, item, game.step):
            continue
        resolve(game, item)


def close_offers(game: Game, phase: str) -> None:
    """Components may be extracted until the end of the phase of the death [R]; what is left is
    offered one last time, then lapses."""
    for offer in [o for o in game.offers if o.phase == phase]:
        answer = game.decide(offer.player, "extract",
                             (Option(f"extract {offer.card_id}#{offer.uid}", offer),
                              Option("decline")), rule="R-components")
        if answer.label == "decline":
            game.offers.remove(offer)
            game.emit("components_declined", player=offer.player, card=offer.card_id,
                      uid=offer.uid)
        else:
            extract(game, offer)
    game.offers = [o for o in game.offers if o.phase != phase]


# -- the turn and the game --------------------------------------------------------------------

RUNNERS: dict[Mode, Callable[[Game, Step], Any]] = {
    Mode.SIMULTANEOUS: run_simultaneous,
    Mode.ORDERED: run_ordered,
    Mode.ALTERNATING: run_alternating,
    Mode.ACTIONS: run_actions,
}


def start_turn(game: Game) -> None:
    game.turn += 1
    game.log.turn = game.turn
    game.log.step = ""
    player = game.active_player
    player.turns_taken += 1
    game.usage_turn.clear()
    game.attempted.clear()
    game.turn_passed = False
    for perm in game.permanents.values():
        perm.damaged_this_turn = False
    game.emit("turn_started", player=game.active, turn_of_player=player.turns_taken)
    game.clock.start_turn(game)
    # 41.4 supplement: Ép was not checked since end stage 4; [D] that check happens at the very
    # start of this preparation phase, before VP regeneration, and gives no component.
    game.check_hp("41.4", components=game.rulings.deferred_check_gives_components)


def run_step(game: Game, step: Step) -> Any:
    game.step = step
    game.log.step = step.hook
    game.emit("step_started", phase=step.phase, stage=step.stage, hook=step.hook,
              mode=step.mode.value)
    result = RUNNERS[step.mode](game, step)
    game.emit("step_ended", hook=step.hook)
    return result


class Turn:
    """One turn, walked step by step: ``Turn(game)`` starts it, ``run_to("end_stage2")`` runs
    the steps before that one (or through it, ``inclusive=True``), ``finish()`` runs the rest
    and ends the turn.  :func:`play_turn` is ``Turn(game).finish()``."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.index = 0  # the next step to run
        self.skip_actions = False  # 41.5
        start_turn(game)

    @property
    def next_step(self) -> Step | None:
        steps = self.game.turn_steps
        return steps[self.index] if self.index < len(steps) else None

    def run_next(self) -> None:
        game = self.game
        steps = game.turn_steps
        step = steps[self.index]
        self.index += 1
        if step.mode is Mode.ACTIONS and self.skip_actions:
            game.emit("step_skipped", hook=step.hook, rule="41.5")
        else:
            acted = run_step(game, step)
            # 41.5: once the active player passed the turn, an opponent who does not act lets
            # play continue from the end-of-turn phase.
            if step.mode is Mode.ACTIONS and game.turn_passed and not acted:
                self.skip_actions = True
            if step.hook == "end_stage1":
                game.clock.close_turn(game, rule="41.7")  # [D] implicit signal
        following = steps[self.index].phase if self.index < len(steps) else None
        if following != step.phase:
            close_offers(game, step.phase)

    def run_to(self, hook: str, *, inclusive: bool = False) -> None:
        hooks = [s.hook for s in self.game.turn_steps]
        if hook not in hooks[self.index:]:
            raise LookupError(f"step {hook!r} is not ahead in this turn; the steps left are "
                              f"{hooks[self.index:]}")
        stop = hooks.index(hook, self.index) + (1 if inclusive else 0)
        while self.index < stop:
            self.run_next()
        if not inclusive:  # standing at the step: rules that ask "which step is it" see it
            self.game.step = self.game.turn_steps[stop]
            self.game.log.step = hook

    def finish(self) -> None:
        """Run the remaining steps and end the turn; the next player's turn begins right
        after end stage 4 (41.6)."""
        game = self.game
        while self.index < len(game.turn_steps):
            self.run_next()
        game.step = None
        game.log.step = ""
        game.emit("turn_ended", player=game.active, rule="41.6")
        game.active = game.opponent(game.active)


def play_turn(game: Game) -> None:
    """One whole turn (41.0-41.6)."""
    Turn(game).finish()


def setup(game: Game) -> None:
    """K 3.6-3.12, 28: shuffle, draw 5 each, a random starting player who may hand the start to
    his opponent."""
    game.started = True
    game.emit("game_started", seed=game.seed, decks=[len(p.deck) for p in game.players])
    for player in game.players:
        game.rng.shuffle(player.deck)
    starter = game.rng.randrange(2)
    answer = game.decide(starter, "start", (Option("start"), Option("hand over")), rule="28")
    game.active = starter if answer.label == "start" else game.opponent(starter)
    game.emit("starting_player", player=game.active)
    for player in game.players:
        game.draw(player.index, 5, source="setup")


def play_game(game: Game, max_turns: int | None = None) -> int | None:
    """Play until a player loses; returns the winner (None for a draw)."""
    limit = max_turns if max_turns is not None else game.rulings.max_turns
    try:
        if not game.started:
            setup(game)
        while not game.over:
            if game.turn >= limit:
                game.over = True
                game.emit("game_over", winner=None, reason="turn_limit", rule="D-turn-limit")
                break
            play_turn(game)
    except GameOver:
        pass
    return game.winner
