//! Card data at work (`hkk._cards.interpret`): a permanent's automatic abilities as pending
//! items of the steps they are timed on, and of its entering play; resolving one binds its
//! effects, then applies them.

use crate::cards::{Ability, Activation, CardId, CardPool, WhoseTurn};
use crate::effects::{apply_all, bind, Context, Effect, Targets};
use crate::emit;
use crate::errors::Flow;
use crate::events::{Kind, Prefix, Text};
use crate::game::{count_use, Game};
use crate::phases::Step;

/// A card ability's pending item (`ability_item`, automatic): labelled
/// `<card id>#<uid>:<ability index>`, keyed by (uid, index).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Item {
    pub controller: usize,
    pub uid: u32,
    pub card: CardId,
    pub index: usize,
    pub optional: bool,
    /// An activated ability's cost and limits (None: automatic).
    pub activation: Option<Activation>,
    /// A triggered item's: what its event bound, and its key in the trigger watch
    /// (`("trigger", n)`); None for the other abilities.
    pub trigger: Option<(crate::triggers::Bound, u64)>,
    /// A triggered item whose label another waiting item has: it is told apart as
    /// `<label> (n)` (`_trigger_queue`'s distinct labels); 0 for none.
    pub copy: u32,
}

impl Item {
    /// `<card id>#<uid>:<ability index>`, made only when a decision or an event shows it.
    pub fn label(&self, cards: &CardPool) -> String {
        self.label_after("", cards)
    }

    /// `prefix` then [`Item::label`] (an option's `use <label>`), written by hand
    /// (`state::push_uint`).
    pub fn label_after(&self, prefix: &str, cards: &CardPool) -> String {
        let mut text = crate::state::card_label(prefix, cards.name(self.card), self.uid);
        text.push(':');
        crate::state::push_uint(&mut text, self.index as u64);
        if self.copy != 0 {
            text.push_str(" (");
            crate::state::push_uint(&mut text, u64::from(self.copy));
            text.push(')');
        }
        text
    }

    /// `prefix` then its label, as a [`Text`] (written only when read).
    pub fn text(&self, prefix: Prefix) -> Text {
        Text::Item {
            prefix,
            card: self.card,
            uid: self.uid,
            index: self.index as u32,
            copy: self.copy,
        }
    }

    pub fn key(&self) -> (u32, usize) {
        (self.uid, self.index)
    }

    /// The stable order where no player decides: controller, timestamp, set, card, ability.
    pub fn order(&self) -> (usize, u32, usize) {
        (self.controller, self.uid, self.index)
    }
}

fn item(game: &Game, uid: u32, ability: &Ability) -> Option<Item> {
    Some(item_of(game.permanent(uid)?, ability))
}

pub(crate) fn item_of(perm: &crate::state::Permanent, ability: &Ability) -> Item {
    Item {
        controller: perm.controller,
        uid: perm.uid,
        card: perm.card,
        index: ability.index,
        // an activated ability is optional unless its controller must use it (41.1)
        optional: ability
            .activation
            .map_or(ability.optional, |a| !a.mandatory),
        activation: ability.activation,
        trigger: None,
        copy: 0,
    }
}

/// `items_at`: the abilities of the permanents in play timed on `step`'s hook, in timestamp
/// order; one limited to a player's turns is left out in the other's.
pub fn items_at(game: &Game, step: &Step) -> Vec<Item> {
    items_where(game, step, |_, _| true)
}

/// [`items_at`] of only the permanents' abilities `keep` accepts, read before the item is
/// made: a caller after a few (an action step's activated abilities of one player) copies no
/// card id for the others.
pub fn items_where(
    game: &Game,
    step: &Step,
    keep: impl Fn(&crate::state::Permanent, &Ability) -> bool,
) -> Vec<Item> {
    let mut items = Vec::new();
    each_item_where(game, step, keep, |item| items.push(item));
    items
}

/// [`items_where`], each item handed to `each` in turn: a caller with a list of its own (a
/// step's reused buffer) fills it without a list made for the call.
pub fn each_item_where(
    game: &Game,
    step: &Step,
    keep: impl Fn(&crate::state::Permanent, &Ability) -> bool,
    mut each: impl FnMut(Item),
) {
    let bit = step.bit;
    let hooked = game.in_play.hooked_count(bit);
    if hooked == 0 {
        return;
    }
    for perm in game.hooked_permanents(bit) {
        let Some(card) = game.cards.get(perm.card) else {
            continue;
        };
        for ability in card
            .abilities
            .iter()
            .filter(|a| a.hook == bit && keep(perm, a))
        {
            let own = perm.controller == game.active;
            // an activated ability's turns are its usage limit (`usable`)
            let applies = ability.activation.is_some()
                || match ability.whose_turn {
                    WhoseTurn::Any => true,
                    WhoseTurn::Own => own,
                    WhoseTurn::Opponent => !own,
                };
            let holds = ability
                .condition
                .is_none_or(|c| c.holds(game, perm.controller));
            if applies && holds {
                each(item_of(perm, ability));
            }
        }
    }
}

/// `CardAbilities.entered_play`: the permanent's "enters play" automatic abilities.
pub fn entered_play(game: &Game, uid: u32) -> Vec<Item> {
    let Some(perm) = game.permanent(uid) else {
        return Vec::new();
    };
    let Some(card) = game.cards.get(perm.card) else {
        return Vec::new();
    };
    let controller = perm.controller;
    card.abilities
        .iter()
        .filter(|a| a.timing == "on_enter")
        .filter(|a| a.condition.is_none_or(|c| c.holds(game, controller)))
        .filter_map(|a| item(game, uid, a))
        .collect()
}

/// `resolve` of an automatic card ability: logged, bound, applied - unless a static ability
/// prevents it (D-prevented).
pub fn resolve(game: &mut Game, item: &Item) -> Flow {
    resolving(game, item);
    if let Some(by) = preventer(game, item) {
        prevented(game, item, by);
        return Ok(());
    }
    bind_and_apply(game, item)
}

/// `preventer`: the permanent whose static ability prevents `item` now (the first in
/// timestamp order), or None.
#[inline]
pub fn preventer(game: &Game, item: &Item) -> Option<u32> {
    // the usual case, read where it is called: nothing in play prevents anything (every
    // item resolving asks)
    if !game.in_play.preventers() {
        return None;
    }
    preventer_in_play(game, item)
}

/// [`preventer`] with a permanent in play whose static ability prevents.
#[inline(never)]
fn preventer_in_play(game: &Game, item: &Item) -> Option<u32> {
    use crate::effects::{PreventAbilities, PreventWhose};
    let step = game.step.map_or(0, |i| crate::phases::DEFAULT_TURN[i].bit);
    let kind = if item.activation.is_some() {
        PreventAbilities::Activated
    } else {
        PreventAbilities::Automatic
    };
    let prevents = |source: &crate::state::Permanent, p: &crate::effects::Prevention| {
        let mine = item.controller == source.controller;
        let whose = match p.whose {
            PreventWhose::Opponent => !mine,
            PreventWhose::Controller => mine,
            PreventWhose::Each => true,
        };
        // a named phase holds in its steps only (none between steps)
        p.steps.is_none_or(|steps| steps & step != 0)
            && (p.abilities == PreventAbilities::All || p.abilities == kind)
            && whose
    };
    // `game.statics()` in its order, a condition read only for a static whose prevention
    // fits (the conditions read the state, never change it: the first found is the same);
    // the others' static abilities prevent nothing
    for source in game.static_users(crate::cards::PREVENTS) {
        let Some(card) = game.cards.get(source.card) else {
            continue;
        };
        for ability in card.abilities.iter().filter(|a| a.is_static) {
            let fits = ability
                .effects
                .iter()
                .filter_map(|e| e.prevention.as_ref())
                .any(|p| prevents(source, p));
            if fits
                && ability
                    .condition
                    .is_none_or(|c| c.holds(game, source.controller))
            {
                return Some(source.uid);
            }
        }
    }
    None
}

/// `prevented`: the item resolves without effect.
pub fn prevented(game: &mut Game, item: &Item, by: u32) {
    let preventer_card = game.permanent(by).map_or(CardId::NONE, |p| p.card);
    emit!(
        game,
        Kind::Prevented {
            item: item.text(Prefix::None),
            controller: item.controller,
            card: item.card,
            preventer_uid: by,
            preventer_card,
        }
    );
}

/// `usable`: may its controller use this activated ability now? Its uses this turn and game,
/// whose turn it is, whether he can pay, and its card still in play.
pub fn usable(game: &Game, item: &Item) -> bool {
    let Some(a) = &item.activation else {
        return true;
    };
    let preparation = in_preparation(game);
    activation_usable(game, item.controller, item.key(), a, preparation)
        && game.permanent(item.uid).is_some()
}

/// The game is in the preparation phase, where an activated ability needs its text's
/// permission and is tried once a turn (29.4.7, 29.4.9): read once for a list of abilities.
pub fn in_preparation(game: &Game) -> bool {
    game.step
        .is_some_and(|i| crate::phases::PREPARATION_STEPS & 1 << i != 0)
}

/// [`usable`] of the activated ability keyed `key` of a permanent in play that `controller`
/// controls, read before its item is made (an action step's list, `steps::actions`, makes
/// items only of the usable ones); `preparation` as [`in_preparation`] tells.
pub fn activation_usable(
    game: &Game,
    controller: usize,
    key: (u32, usize),
    a: &Activation,
    preparation: bool,
) -> bool {
    // 29.4.7: only with its text's permission; 29.4.9: one attempt per turn
    if preparation && (!a.in_preparation || game.attempted.contains(&key)) {
        return false;
    }
    if a.per_turn
        .is_some_and(|n| game.uses(&game.usage_turn, key) >= n)
        || a.per_game
            .is_some_and(|n| game.uses(&game.usage_game, key) >= n)
    {
        return false;
    }
    let own = controller == game.active;
    let turn = match a.whose_turn {
        WhoseTurn::Any => true,
        WhoseTurn::Own => own,
        WhoseTurn::Opponent => !own,
    };
    let p = &game.players[controller];
    turn && a.vp <= p.vp && a.components <= p.components
}

/// `resolve` of an activated ability: logged, its use counted and its cost paid (its card
/// sacrificed as a cost gives no component [R]), bound, applied.
pub fn resolve_activated(game: &mut Game, item: &Item) -> Flow {
    resolving(game, item);
    if let Some(a) = item.activation {
        let key = item.key();
        if in_preparation(game) {
            game.attempted.push(key); // 29.4.9: the attempt counts even if it then fails
        }
        count_use(&mut game.usage_turn, key);
        count_use(&mut game.usage_game, key);
        if !a.free() {
            let p = &mut game.players[item.controller];
            p.vp -= a.vp;
            p.components -= a.components;
            emit!(
                game,
                Kind::CostPaid {
                    controller: item.controller,
                    item: item.text(Prefix::None),
                    vp: a.vp,
                    components: a.components,
                    sacrifice: a.sacrifice_self,
                }
            );
            if a.sacrifice_self {
                crate::changes::destroy(game, item.uid, "sacrificed_as_cost", None, false);
            }
        }
    }
    if let Some(by) = preventer(game, item) {
        prevented(game, item, by);
        return Ok(());
    }
    bind_and_apply(game, item)
}

/// The `resolving` event of an automatic card ability (`Pending.describe`).
pub fn resolving(game: &mut Game, item: &Item) {
    emit!(
        game,
        Kind::Resolving {
            // an outcome recorder reads its card, not its label: not made for one
            item: game.text(false, || item.text(Prefix::None)),
            controller: Some(item.controller),
            item_kind: if item.activation.is_some() {
                "activated"
            } else {
                "automatic"
            },
            uid: Some(item.uid),
            card: Some(item.card),
            ability: Some(item.index),
        }
    );
}

/// The item's context; `labelled`: with its label (only its effects' events read it; their
/// binding only for a target decision's prompt, shown outside).
fn context(game: &Game, item: &Item, labelled: bool) -> Context {
    Context {
        controller: item.controller,
        source: Some(item.uid),
        // a player's damage names its source's uid for an outcome recorder: no text for one
        label: if labelled || game.outside {
            game.text(false, || item.text(Prefix::None))
        } else {
            Text::Borrowed("")
        },
        trigger: item.trigger.map(|(bound, _)| bound),
    }
}

fn effects_of<'a>(cards: &'a CardPool, item: &Item) -> &'a [Effect] {
    cards
        .get(item.card)
        .and_then(|c| c.abilities.iter().find(|a| a.index == item.index))
        .map_or(&[], |a| a.effects.as_slice())
}

/// An item's `bind`, then its `apply` on what it bound, on one context (labelled: the
/// binding reads the label only for a prompt shown outside, where it is made either way) and
/// one look-up of its effects.
fn bind_and_apply(game: &mut Game, item: &Item) -> Flow {
    let cards = game.cards.clone(); // the cards do not change: borrowed beside the game
    let effects = effects_of(&cards, item);
    let ctx = context(game, item, true);
    let bound = bind(game, &ctx, effects)?;
    apply_all(game, &ctx, effects, bound)
}

/// An automatic ability's `bind`: its effects' targets, its choices made; `cards`: the
/// game's, borrowed beside it by the caller (once for all the items it resolves).
pub fn bind_item(game: &mut Game, cards: &CardPool, item: &Item) -> crate::effects::Bound {
    bind(game, &context(game, item, false), effects_of(cards, item))
}

/// An automatic ability's `apply` on what it bound (`cards` as [`bind_item`]'s).
pub fn apply_item(game: &mut Game, cards: &CardPool, item: &Item, bound: Targets) -> Flow {
    apply_all(
        game,
        &context(game, item, true),
        effects_of(cards, item),
        bound,
    )
}
