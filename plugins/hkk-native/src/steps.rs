//! The four ways a step runs (`hkk._steps`), for permanents without abilities: the hooks
//! return the rules' own items (regeneration, drawing, restoring...), the guard-post moves, the
//! attack and the cards a player may play. Playing a card with a word of the card language is
//! where the native core stops today (`Halt::Unported`).

use crate::cards::{Ability, CardId};
use crate::changes::{extract_components, play_card};
use crate::checks::{check_hp, check_players};
use crate::continuous::{end_step_effects, start_waiting_effects, until_preparation_owner};
use crate::decisions::{Decision, Label};
use crate::effects::Targets;
use crate::emit;
use crate::errors::{Flow, Halt};
use crate::events::{Kind, Prefix, Text};
use crate::game::Game;
use crate::interpret::{
    activation_usable, apply_item, bind_item, each_item_where, entered_play, in_preparation,
    item_of, prevented, preventer, resolve, resolve_activated, resolving, usable, Item,
};
use crate::phases::{Mode, Step, Triggers, COMBAT_PHASE, MAIN_PHASE};
use crate::rules::{can_guard, combat, guard, guard_mask, playable, ready_creatures};
use crate::state::{Fact, Permanent, Places};
use crate::triggers::{from_pool, order, settle};

pub const PASS: &str = "pass";

/// `Rulings.max_items_per_step`: a step with more items or actions than this is an error in
/// the Python engine (`StepLoopError`, `too_many_items`); the native game stops there.
fn max_items(game: &Game) -> usize {
    game.cards.rulings.max_items_per_step
}

#[cold]
fn step_loop(game: &Game, step: &Step) -> Flow {
    Err(Halt::Unported(format!(
        "step {} went on for {} items or actions: the Python engine stops it with an error",
        step.hook,
        max_items(game)
    )))
}
/// 41.5: "announces not to act this turn".
pub const PASS_TURN: &str = "pass turn";

/// `RUNNERS[step.mode]`.
pub fn run(game: &mut Game, step: &Step) -> Flow {
    match step.mode {
        Mode::Simultaneous => run_simultaneous(game, step),
        Mode::Ordered => run_ordered(game, step),
        Mode::Alternating => run_alternating(game, step),
        Mode::Actions => run_actions(game, step),
    }
}

/// `after_resolution`: 29.4.10 in the preparation phase, [D] after every item elsewhere;
/// only the players' loss where the step defers the check (41.4).
pub(crate) fn after_resolution(game: &mut Game, step: &Step) -> Flow {
    if step.hp_check {
        check_hp(game, step.check_rule, !step.no_components)
    } else {
        check_players(game)
    }
}

/// One moment (29.4.2, 41.4): the abilities timed on it, in the stable order, an optional
/// one used only if its controller says so; every one bound against the same state before
/// the moment is logged; the durations it ends (none in force natively); then every item
/// applied as one moment (heals net out, limits at its end); then the check.
fn run_simultaneous(game: &mut Game, step: &Step) -> Flow {
    if !game.in_play.hooked(step.bit) {
        // no ability timed on the step in play: the moment has no item, its lists stay empty
        // (empty lists allocate nothing: the game's are not taken and put back)
        return simultaneous(game, step, &mut MomentLists::default());
    }
    let mut lists = std::mem::take(&mut game.scratch.moment);
    let flow = simultaneous(game, step, &mut lists);
    game.scratch.moment = lists;
    flow
}

/// [`run_simultaneous`] with its lists.
fn simultaneous(game: &mut Game, step: &Step, lists: &mut MomentLists) -> Flow {
    let MomentLists {
        items,
        chosen,
        stopped,
        bound,
    } = lists;
    items.clear();
    chosen.clear();
    stopped.clear();
    bound.clear();
    each_item_where(game, step, |_, _| true, |item| items.push(item));
    items.sort_by_key(Item::order);
    for item in items.drain(..) {
        if !item.optional || wants(game, &item, step.rule)? {
            chosen.push(item);
        }
    }
    // read against the state before the moment; a prevented item makes no choice
    stopped.extend(chosen.iter().map(|i| preventer(game, i)));
    // the cards do not change: borrowed beside the game once for the moment's items
    let cards = game.cards.clone();
    for (item, by) in chosen.iter().zip(stopped.iter()) {
        bound.push(match by {
            None => bind_item(game, &cards, item)?,
            Some(_) => Targets::default(),
        });
    }
    emit!(
        game,
        Kind::Moment {
            rule: step.rule,
            items: game
                .log
                .events
                .extras_mut()
                .put_texts(chosen.iter().map(|i| i.text(Prefix::None))),
            ends: step.ends,
        }
    );
    let end_rule = step.end_rule;
    if !step.ends.is_empty() {
        let only = until_preparation_owner(game, step);
        end_step_effects(game, step, end_rule, only);
    }
    if step.starts_waiting_effects {
        start_waiting_effects(game, "29.4.5");
    }
    game.in_moment = true;
    if step.defence_bonus_lost {
        // 41.4: the active player's creatures lose it, after any bonus the moment gives
        let active = game.active;
        // with no item in the moment no bonus changes before its end: only those with one
        // have one to lose (the others' loss logs nothing)
        let all = !chosen.is_empty();
        // in the moment `remove_defence_bonus` only lists them for its end (`Game::end_moment`):
        // listed here without a call each (every test made, as in `rules::is_ready`)
        let fact = |fact| game.in_play.fact(fact);
        let theirs = fact(Fact::Creature) & fact(Fact::of(active));
        let mask = theirs
            & if all {
                u64::MAX
            } else {
                fact(Fact::DefenceBonus)
            };
        let loses =
            |p: &Permanent| p.creature & (p.controller == active) & (all | (p.defence_bonus != 0));
        // the list taken out while the permanents are read beside it
        let mut losses = std::mem::take(&mut game.bonus_losses);
        let losing = game.permanents_at(Places(mask), loses);
        losses.extend(losing.map(|p| (p.uid, Some("41.4"), None)));
        game.bonus_losses = losses;
    }
    let mut flow = Ok(());
    let each = chosen
        .iter()
        .zip(bound.drain(..))
        .zip(stopped.iter().copied());
    for ((item, targets), by) in each {
        resolving(game, item);
        if let Some(by) = by {
            prevented(game, item, by);
            continue;
        }
        flow = apply_item(game, &cards, item, targets);
        if flow.is_err() {
            break;
        }
    }
    game.end_moment(); // even when an item ended the game, as `with game.moment()`
    flow?;
    if step.ends_created {
        end_step_effects(game, step, end_rule, None);
    }
    after_resolution(game, step)?;
    // what the moment triggered waits until it and its check are over
    settle(game, step)
}

/// "The same item" in an ordered step (`Ordered::key`): numbers and a tag (an ability 0, a
/// pooled trigger 1, a rules item 2 + its place), compared without comparing labels.
type Key = (u32, usize, u8);

/// The lists a step runner fills again for each item or decision, kept in the game between
/// steps (`Game::scratch`) so that a seated game makes them once, not once a step or a
/// decision. A runner takes its lists while it runs (one run inside it, an entry trigger's,
/// finds none and makes its own) and empties each before use: what they hold between steps
/// is never read. A copy of the game starts without them.
#[derive(Debug, Default)]
pub struct Scratch {
    moment: MomentLists,
    ordered: OrderedLists,
    actions: ActionLists,
    /// Target lists an item's `bind` fills and its `apply` gives back (`effects::Targets`):
    /// some 200 binds a game made one each.
    targets: Vec<Vec<crate::changes::Target>>,
    /// The attack action's lists (`rules::combat`).
    pub combat: crate::rules::CombatLists,
    /// A round's items of an end-of-turn stage (`run_alternating`).
    alternating: Vec<Item>,
    /// The permanents a chosen target is chosen among (`effects::select_targets`).
    pub uids: Vec<u32>,
    /// The permanents a round of the Ép check finds dead (`checks::check_rounds`).
    pub dead: Vec<u32>,
    /// The lasting effects ending at one moment (`continuous::end_effects`).
    pub ending: Vec<crate::continuous::Lasting>,
}

impl Scratch {
    /// An empty target list, one given back before if any.
    pub fn target_list(&mut self) -> Vec<crate::changes::Target> {
        self.targets.pop().unwrap_or_default()
    }

    /// A target list applied, emptied and kept for the next `bind` (a few at most: binds
    /// nest only as deep as resolutions do).
    pub fn give_back(&mut self, mut list: Vec<crate::changes::Target>) {
        if list.capacity() != 0 && self.targets.len() < 16 {
            list.clear();
            self.targets.push(list);
        }
    }
}

impl Clone for Scratch {
    fn clone(&self) -> Self {
        Scratch::default()
    }

    fn clone_from(&mut self, _: &Self) {} // its own lists kept: nothing in them is read
}

/// [`run_simultaneous`]'s: the items collected, those chosen, their preventers and targets.
#[derive(Debug, Default)]
struct MomentLists {
    items: Vec<Item>,
    chosen: Vec<Item>,
    stopped: Vec<Option<u32>>,
    bound: Vec<Targets>,
}

/// [`run_ordered`]'s: the items finished and wanted in the step, those collected and the
/// places of those ready among them.
#[derive(Debug, Default)]
struct OrderedLists {
    finished: Vec<Key>,
    wanted: Vec<Key>,
    items: Vec<Ordered>,
    ready: Vec<usize>,
}

/// [`run_actions`]'s: the options offered and their labels, the items with a source being
/// ordered, and the activated abilities offered (an option names one by its place here: the
/// options stay small to move).
#[derive(Debug, Default)]
struct ActionLists {
    /// Left empty for a decision only counted (`Game::seated`).
    labels: Vec<Label>,
    offered: Vec<Action>,
    usable: Vec<Item>,
}

/// An item of an ordered step: the rules' own, or a card's automatic ability.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Ordered {
    Rule(crate::rules::RuleItem),
    Card(Item),
    /// A triggered item of the pool (29.4.1, D-trigger-prep).
    Trigger(Item),
}

impl Ordered {
    fn text(&self) -> Text {
        match self {
            Ordered::Rule(rule) => Text::Borrowed(rule.label()),
            Ordered::Card(item) | Ordered::Trigger(item) => item.text(Prefix::None),
        }
    }

    /// "The same item" across collections: the rules item by its label, an ability by
    /// (uid, index).
    fn key(&self) -> Key {
        match self {
            // one rules item a label
            Ordered::Rule(rule) => (0, 0, 2 + *rule as u8),
            Ordered::Card(item) => (item.uid, item.index, 0),
            // its key in the trigger watch, `("trigger", n)`
            Ordered::Trigger(item) => (0, item.trigger.map_or(0, |(_, n)| n as usize), 1),
        }
    }
}

/// `call_hook` of an ordered step, in the stable order: the rules' item first (its controller
/// is none), then the abilities by controller and timestamp; an ability `finished` in the
/// step is left out before its item is made. Written into `items` (emptied first).
fn collect(game: &Game, step: &Step, finished: &[Key], items: &mut Vec<Ordered>) {
    // one list: the rules' item, then the cards' sorted after it
    items.clear();
    items.extend(step.rule_item.map(Ordered::Rule));
    let first = items.len();
    let unfinished = |p: &Permanent, a: &Ability| !finished.contains(&(p.uid, a.index, 0));
    each_item_where(game, step, unfinished, |item| {
        items.push(Ordered::Card(item))
    });
    if step.triggers == Triggers::Pool {
        // the waiting triggered items join the step's (`hkk.rules.triggers`)
        items.extend(
            game.watch
                .waiting
                .iter()
                .map(|w| Ordered::Trigger(w.item.clone())),
        );
    }
    items[first..].sort_by(|a, b| match (a, b) {
        (Ordered::Card(x) | Ordered::Trigger(x), Ordered::Card(y) | Ordered::Trigger(y)) => {
            order(x, y)
        }
        _ => std::cmp::Ordering::Equal,
    });
}

/// `_wants`: an optional item's controller says whether he uses it (not the active player
/// after passing the turn, 41.5).
pub(crate) fn wants(game: &mut Game, item: &Item, rule: &'static str) -> Result<bool, Halt> {
    if game.turn_passed && item.controller == game.active {
        return Ok(false);
    }
    if game.seated(item.controller) {
        // drawn from the options' number: the item's label made only if logged (`Game::seated`)
        let label = |_: &Game, at: usize| {
            if at == 0 {
                item.text(Prefix::Use)
            } else {
                Text::Borrowed("decline")
            }
        };
        let chosen = game.decide_counted(item.controller, "use", Some(rule), 2, 2, None, label);
        return Ok(chosen == 0);
    }
    let decision = Decision {
        kind: "use",
        player: item.controller,
        options: vec![
            game.option(|| item.text(Prefix::Use)),
            Label::from("decline"),
        ],
        prompt: game.prompt(|| format!("Use {}?", item.label(&game.cards))),
        rule: Some(rule),
    };
    Ok(game.decide(&decision)? == 0)
}

/// Collect, order, resolve, check, until nothing is left (29.4.1): an optional item is offered
/// to its controller once; two or more ready are ordered by the active player (29.4.1,
/// D-orderer); each resolves once in the step.
fn run_ordered(game: &mut Game, step: &Step) -> Flow {
    if nothing_left(game, step, &[]) {
        return Ok(()); // the step's loop would find nothing ready
    }
    let mut done = None;
    if let Some(rule) = step.rule_item {
        let pooled = step.triggers == Triggers::Pool && !game.watch.waiting.is_empty();
        if !game.in_play.hooked(step.bit) && !pooled {
            // the usual rules step: its item alone is ready, so the loop's first round would
            // resolve it without a decision; resolved here without the lists, the loop goes
            // on only if that brought an item (and the item limit leaves it a round)
            if max_items(game) == 0 {
                return step_loop(game, step);
            }
            let key = Ordered::Rule(rule).key();
            resolve_ordered(game, step, Ordered::Rule(rule))?;
            if max_items(game) == 1 {
                return step_loop(game, step);
            }
            if nothing_left(game, step, &[key]) {
                return Ok(());
            }
            done = Some(key);
        }
    }
    let mut lists = std::mem::take(&mut game.scratch.ordered);
    let flow = ordered(game, step, &mut lists, done);
    game.scratch.ordered = lists;
    flow
}

/// Nothing [`collect`] would find is left to resolve: the rules' item none or `finished`, no
/// permanent in play with an ability timed on the step, no triggered item joining its pool.
#[inline]
fn nothing_left(game: &Game, step: &Step, finished: &[Key]) -> bool {
    let pooled = step.triggers == Triggers::Pool && !game.watch.waiting.is_empty();
    !game.in_play.hooked(step.bit)
        && !pooled
        && step
            .rule_item
            .is_none_or(|r| finished.contains(&Ordered::Rule(r).key()))
}

/// [`run_ordered`] with its lists; `done`: the rules' item, resolved as the loop's first
/// round ([`run_ordered`]).
fn ordered(game: &mut Game, step: &Step, lists: &mut OrderedLists, done: Option<Key>) -> Flow {
    let OrderedLists {
        finished,
        wanted,
        items,
        ready,
    } = lists;
    finished.clear();
    wanted.clear();
    finished.extend(done);
    for _ in usize::from(done.is_some())..max_items(game) {
        ready.clear();
        if nothing_left(game, step, finished) {
            return Ok(()); // as the usual step once its rules item has resolved
        }
        collect(game, step, finished, items);
        // the ready ones by their place in `items`: an item is moved once, when it resolves
        for (at, item) in items.iter().enumerate() {
            let key = item.key();
            if finished.contains(&key) {
                continue;
            }
            if let Ordered::Card(card) | Ordered::Trigger(card) = item {
                if !usable(game, card) {
                    continue;
                }
                if card.optional && !step.mandatory && !wanted.contains(&key) {
                    if !wants(game, card, step.rule)? {
                        finished.push(key);
                        continue;
                    }
                    wanted.push(key);
                }
            }
            ready.push(at);
        }
        if ready.is_empty() {
            return Ok(());
        }
        // 29.4.1; where no rule names who orders, the rulings' orderer (D-orderer): the active
        // player, or nobody (the stable order, the items' order here)
        let ordered = ready.len() > 1 && (step.active_orders || game.cards.rulings.active_orders);
        let chosen = if ordered && game.seated(game.active) {
            // drawn from the options' number: the chosen one's label made only if logged
            // (`Game::seated`)
            let (player, n, rule) = (game.active, ready.len(), Some(step.order_rule));
            let label = |_: &Game, at: usize| items[ready[at]].text();
            game.decide_counted(player, "order", rule, n, n, None, label)
        } else if ordered {
            let decision = Decision {
                kind: "order",
                player: game.active,
                options: ready
                    .iter()
                    .map(|&at| game.option(|| items[at].text()))
                    .collect(),
                prompt: Label::from("Which happens next?"),
                rule: Some(step.order_rule),
            };
            game.decide(&decision)?
        } else {
            0
        };
        let item = items.swap_remove(ready[chosen]);
        let key = item.key();
        wanted.retain(|k| *k != key);
        // an activated ability may be used again while it is usable (29.4.9 stops it in the
        // preparation phase); an automatic one resolves once
        if !matches!(&item, Ordered::Card(card) if card.activation.is_some()) || step.mandatory {
            finished.push(key);
        }
        resolve_ordered(game, step, item)?;
    }
    step_loop(game, step)
}

/// An ordered step's item resolved, then the check and what it set off (D-trigger-wait).
fn resolve_ordered(game: &mut Game, step: &Step, item: Ordered) -> Flow {
    match item {
        Ordered::Rule(rule) => {
            emit!(
                game,
                unrecorded Kind::Resolving {
                    item: game.text(false, || Text::Borrowed(rule.label())),
                    controller: None,
                    item_kind: "rule",
                    uid: None,
                    card: None,
                    ability: None,
                }
            );
            rule.apply(game)?;
        }
        Ordered::Card(card) if card.activation.is_some() => resolve_activated(game, &card)?,
        Ordered::Card(card) => resolve(game, &card)?,
        Ordered::Trigger(card) => resolve_pooled(game, &card)?,
    }
    after_resolution(game, step)?;
    settle(game, step)
}

/// `resolve` of a pooled triggered item (`_from_pool`): logged, prevented or bound; then it
/// leaves the queue and its chain goes on through what it sets off; then applied.
fn resolve_pooled(game: &mut Game, item: &Item) -> Flow {
    resolving(game, item);
    if let Some(by) = preventer(game, item) {
        prevented(game, item, by);
        return Ok(());
    }
    let cards = game.cards.clone(); // the cards do not change: borrowed beside the game
    let bound = bind_item(game, &cards, item)?;
    from_pool(game, item.trigger.map_or(0, |(_, key)| key))?;
    apply_item(game, &cards, item, bound)
}

/// `run_entry_triggers`: a permanent's "enters play" abilities, ordered by its controller
/// (R-enter-order), each followed by the check (D-hp-check).
pub fn run_entry_triggers(game: &mut Game, uid: u32, controller: usize) -> Flow {
    let Some(index) = game.step else {
        return Ok(());
    };
    let step = &crate::phases::DEFAULT_TURN[index];
    let mut items = entered_play(game, uid);
    while !items.is_empty() {
        let chosen = if items.len() == 1 {
            0
        } else if game.seated(controller) {
            // drawn from the options' number: the chosen one's label made only if logged
            // (`Game::seated`)
            let (n, rule) = (items.len(), Some("R-enter-order"));
            let label = |_: &Game, at: usize| items[at].text(Prefix::None);
            game.decide_counted(controller, "order", rule, n, n, None, label)
        } else {
            let decision = Decision {
                kind: "order",
                player: controller,
                options: items
                    .iter()
                    .map(|i| game.option(|| i.text(Prefix::None)))
                    .collect(),
                prompt: Label::from("Which happens next?"),
                rule: Some("R-enter-order"),
            };
            game.decide(&decision)?
        };
        let item = items.remove(chosen);
        if item.optional && !wants(game, &item, step.rule)? {
            continue;
        }
        resolve(game, &item)?;
        after_resolution(game, step)?;
    }
    Ok(())
}

/// 41.1: a player with no end-of-turn ability to use passes, forced.
fn forced_pass(game: &mut Game, step: &Step, player: usize) {
    emit!(
        game,
        Kind::Passed {
            player,
            rule: step.rule,
            forced: Some(true),
        }
    );
}

/// 41.1: players alternately use end-of-turn abilities, the active player first. Those with
/// a cost or a conditional text are optional; the others must be used, so a player who still
/// has one cannot pass. The stage ends when both pass one after the other.
fn run_alternating(game: &mut Game, step: &Step) -> Flow {
    // the loop's third round sees the two passes (a lower item limit stops the step first)
    if !game.in_play.hooked(step.bit) && max_items(game) >= 3 {
        // the usual stage: no ability timed on it in play, so both pass, forced, and nothing
        // happens between the passes that could bring one
        for player in [game.active, 1 - game.active] {
            forced_pass(game, step, player);
        }
        return Ok(());
    }
    let mut items = std::mem::take(&mut game.scratch.alternating);
    let flow = alternating(game, step, &mut items);
    game.scratch.alternating = items;
    flow
}

/// [`run_alternating`] with its list of a round's items (the game's, kept between steps).
fn alternating(game: &mut Game, step: &Step, items: &mut Vec<Item>) -> Flow {
    let mut player = game.active;
    let mut passes = 0;
    let mut used: Vec<(u32, usize)> = Vec::new(); // mandatory items already used
    for _ in 0..max_items(game) {
        if passes >= 2 {
            return Ok(());
        }
        let mine = |p: &Permanent, a: &Ability| {
            p.controller == player && !used.contains(&(p.uid, a.index))
        };
        items.clear();
        each_item_where(game, step, mine, |item| items.push(item));
        items.sort_by_key(Item::order);
        items.retain(|i| usable(game, i));
        if player == game.active && game.turn_passed {
            items.retain(|i| !i.optional); // 41.5: he announced not to act
        }
        let mandatory = items.iter().any(|i| !i.optional);
        if items.is_empty() {
            forced_pass(game, step, player);
            passes += 1;
        } else {
            let chosen = if game.seated(player) {
                // drawn from the options' number: the chosen item's label made only if logged
                // (`Game::seated`)
                let (others, rule) = (items.len(), Some(step.rule));
                let options = others + usize::from(!mandatory);
                let label = |_: &Game, at: usize| match items.get(at) {
                    Some(item) => item.text(Prefix::Use),
                    None => Text::Borrowed(PASS),
                };
                game.decide_counted(player, "action", rule, options, others, None, label)
            } else {
                let mut options: Vec<Label> = items
                    .iter()
                    .map(|i| game.option(|| i.text(Prefix::Use)))
                    .collect();
                if !mandatory {
                    options.push(Label::from(PASS));
                }
                let decision = Decision {
                    kind: "action",
                    player,
                    options,
                    prompt: Label::from("End of turn"),
                    rule: Some(step.rule),
                };
                game.decide(&decision)?
            };
            if chosen == items.len() {
                emit!(
                    game,
                    Kind::Passed {
                        player,
                        rule: step.rule,
                        forced: Some(false),
                    }
                );
                passes += 1;
            } else {
                let item = items.swap_remove(chosen);
                if !item.optional {
                    used.push(item.key());
                }
                passes = 0;
                resolve_activated(game, &item)?;
                after_resolution(game, step)?;
                settle(game, step)?; // D-trigger-wait
            }
        }
        player = 1 - player;
    }
    step_loop(game, step)
}

/// An action a player may take in an action step (`action_options`).
#[derive(Debug, Clone, PartialEq, Eq)]
enum Action {
    /// The card at this place in the player's hand.
    Play(usize),
    Attack,
    /// The creature's uid and card.
    Guard(u32, CardId),
    Extract(usize),
    /// The activated ability at this place in the step's `usable` list.
    Use(usize),
    Pass,
    PassTurn,
}

impl Action {
    /// Its option's label (`action_options`' texts, written only when read); `usable`: the
    /// step's list its `Use` names a place in.
    fn label(&self, game: &Game, player: usize, usable: &[Item]) -> Text {
        match *self {
            Action::Play(at) => Text::Name {
                prefix: Prefix::Play,
                card: game.players[player].hand[at],
            },
            Action::Attack => Text::Borrowed("use attack"),
            Action::Guard(uid, card) => Text::Card {
                prefix: Prefix::UseGuard,
                card,
                uid,
            },
            Action::Extract(index) => game.offers[index].text(),
            Action::Use(at) => usable[at].text(Prefix::Use),
            Action::Pass => Text::Borrowed(PASS),
            Action::PassTurn => Text::Borrowed(PASS_TURN),
        }
    }
}

/// The player's actions, as `action_options` orders them: cards to play (hand order), then the
/// other items in their stable order (the attack, then guard-post moves and activated
/// abilities by timestamp, a move before the card's abilities), then the components he may
/// extract, then passing; written into the step's `labels` and `options` (emptied first: the
/// step reuses them from one decision to the next), the labels only if `labelled`. Returns
/// what a counted decision reads of them besides their number: how many come before the
/// passes, and the attack's place (so it looks for neither in the list).
fn actions(
    game: &Game,
    step: &Step,
    player: usize,
    lists: &mut ActionLists,
    labelled: bool,
) -> (usize, Option<usize>) {
    let ActionLists {
        labels,
        offered: options,
        usable: items,
    } = lists;
    labels.clear();
    options.clear();
    items.clear();
    // the action's place returned
    let mut add = |action: Action| {
        options.push(action);
        options.len() - 1
    };
    for at in playable(game, step, player) {
        add(Action::Play(at));
    }
    let active = player == game.active;
    // D-combat: once a turn, while he has a ready creature
    let attack = active
        && step.bit == COMBAT_PHASE
        && !game.attacked
        && ready_creatures(game, player).next().is_some();
    let attack_at = attack.then(|| add(Action::Attack));
    let bit = step.bit;
    // read once for all his abilities (`usable`'s preparation-phase limits)
    let preparation = in_preparation(game);
    // his activated abilities timed on the step, usable now, in index order: each judged
    // before its item is made (the permanent walked is in play), only a usable one made
    let mut abilities = |perm: &Permanent, add: &mut dyn FnMut(Action) -> usize| {
        let Some(card) = game.cards.get(perm.card) else {
            return;
        };
        for ability in card.abilities.iter().filter(|a| a.hook == bit) {
            let Some(activation) = &ability.activation else {
                continue;
            };
            // an activated ability's turns are its usage limit (`usable`)
            let key = (perm.uid, ability.index);
            if !activation_usable(game, perm.controller, key, activation, preparation) {
                continue;
            }
            let holds = ability
                .condition
                .is_none_or(|c| c.holds(game, perm.controller));
            if holds {
                add(Action::Use(items.len()));
                items.push(item_of(perm, ability));
            }
        }
    };
    let hooked = game.in_play.hooked_count(bit);
    if active && step.bit == MAIN_PHASE {
        // D-guard-post: one walk finds the moves and the abilities in the stable order, over
        // his permanents that have either (from the masks: `InPlay::fact`)
        let mine = game.in_play.fact(Fact::of(player));
        let mask = guard_mask(game, player) | (game.in_play.hooked_mask(bit) & mine);
        for perm in game.permanents_at(Places(mask), |p| p.controller == player) {
            if can_guard(perm) {
                add(Action::Guard(perm.uid, perm.card));
            }
            if perm.hooks & bit != 0 {
                abilities(perm, &mut add);
            }
        }
    } else if hooked != 0 {
        for perm in game
            .hooked_permanents(bit)
            .filter(|p| p.controller == player)
        {
            abilities(perm, &mut add);
        }
    }
    for (index, offer) in game.offers.iter().enumerate() {
        if offer.player == player {
            add(Action::Extract(index));
        }
    }
    let others = add(Action::Pass);
    if active && !game.turn_passed {
        add(Action::PassTurn);
    }
    if labelled {
        // a label is made only where it is kept; the literal ones (the attack, the passes)
        // always are (a random agent tells the passes by them)
        labels.extend(options.iter().map(|action| match action {
            Action::Attack | Action::Pass | Action::PassTurn => {
                action.label(game, player, items).into()
            }
            _ => game.option(|| action.label(game, player, items)),
        }));
    }
    (others, attack_at)
}

/// `resolve` of an action item: logged, its use counted (it is free), bound, applied.
fn use_item(game: &mut Game, player: usize, action: &Action) -> Flow {
    let uid = match action {
        Action::Attack => None,
        Action::Guard(uid, _) => Some(*uid),
        _ => return Ok(()),
    };
    // the label is written only when the event is built
    let item = |game: &Game| match uid.and_then(|u| game.permanent(u)) {
        None if uid.is_none() => Text::Borrowed("attack"),
        perm => perm.map_or(Text::Borrowed("guard "), |p| Text::Card {
            prefix: Prefix::Guard,
            card: p.card,
            uid: p.uid,
        }),
    };
    emit!(
        game,
        unrecorded Kind::Resolving {
            item: game.text(false, || item(game)),
            controller: Some(player),
            item_kind: "action",
            uid,
            card: None,
            ability: None,
        }
    );
    match action {
        Action::Attack => {
            game.attacked = true;
            combat(game)
        }
        Action::Guard(uid, _) => {
            guard(game, *uid);
            Ok(())
        }
        _ => Ok(()),
    }
}

/// 4.11.6-7, 41.5: players act in turn, the active player first, until his pass is followed
/// by his opponent's; an action reopens it; the active player may pass the whole turn.
fn run_actions(game: &mut Game, step: &Step) -> Flow {
    let mut lists = std::mem::take(&mut game.scratch.actions);
    let flow = act(game, step, &mut lists);
    game.scratch.actions = lists;
    flow
}

/// Where an action step stopped between two decisions (`Halt::Pause`): [`act`]'s loop
/// values before the decision of `player`, the loop's `round`-th.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Resume {
    player: usize,
    active_passed: bool,
    round: usize,
}

/// The action step `game.resume` stopped inside, run on from there (`runner::resume_step`).
pub fn resume(game: &mut Game, step: &Step) -> Flow {
    run_actions(game, step)
}

/// [`run_actions`] with its lists (emptied and filled again for each decision). Where the
/// next decision is asked from outside and every answer given has been taken, the step stops
/// before it (`Halt::Pause`) for the driver to keep a checkpoint there (`forward::Driven`):
/// an answer then runs the step again from that decision, not from the step's beginning (the
/// loop's values are all the state it has beside the game's). It goes on from there
/// (`game.resume`) at once, so nothing logged changes.
fn act(game: &mut Game, step: &Step, lists: &mut ActionLists) -> Flow {
    let active = game.active;
    let (mut player, mut active_passed, first) = match game.resume.take() {
        Some(Resume {
            player,
            active_passed,
            round,
        }) => (player, active_passed, round),
        None => (active, false, 0),
    };
    for round in first..max_items(game) {
        if game.over {
            return Ok(());
        }
        game.resample_due(); // the hand the options list is the resampled one
        if player == active && game.turn_passed {
            active_passed = true;
            player = 1 - player;
            continue;
        }
        if round != first && game.pauses_before(player) {
            game.resume = Some(Resume {
                player,
                active_passed,
                round,
            });
            return Err(Halt::Pause);
        }
        let chosen = if game.seated(player) {
            // answered natively: the options counted, not labelled, the chosen one's label
            // made only if the log keeps it
            let (others, attack) = actions(game, step, player, lists, false);
            let (offered, usable) = (&lists.offered, &lists.usable);
            let label = |game: &Game, at: usize| offered[at].label(game, player, usable);
            let options = offered.len();
            let rule = Some(step.rule);
            game.decide_counted(player, "action", rule, options, others, attack, label)
        } else {
            actions(game, step, player, lists, true);
            let decision = Decision {
                kind: "action",
                player,
                options: std::mem::take(&mut lists.labels),
                prompt: Label::from(step.hook),
                rule: Some(step.rule),
            };
            let chosen = game.decide(&decision);
            lists.labels = decision.options; // its buffer, for the next decision
            chosen?
        };
        match lists.offered.swap_remove(chosen) {
            Action::PassTurn => {
                game.turn_passed = true;
                emit!(
                    game,
                    Kind::TurnPassed {
                        player,
                        rule: "41.5",
                    }
                );
                game.close_clock("41.7");
            }
            Action::Pass => emit!(
                game,
                Kind::Passed {
                    player,
                    rule: "4.11.7",
                    forced: None,
                }
            ),
            action => {
                active_passed = false;
                match &action {
                    Action::Play(at) => {
                        let card = game.players[player].hand[*at];
                        play_card(game, player, card)?
                    }
                    Action::Extract(index) => extract_components(game, *index),
                    Action::Use(at) => resolve_activated(game, &lists.usable[*at])?,
                    _ => use_item(game, player, &action)?,
                }
                after_resolution(game, step)?;
                settle(game, step)?; // D-trigger-wait: mandatory triggers resolve, not as actions
                player = 1 - player;
                continue;
            }
        }
        if player != active && active_passed {
            return Ok(());
        }
        active_passed = active_passed || player == active;
        player = 1 - player;
    }
    step_loop(game, step)
}
