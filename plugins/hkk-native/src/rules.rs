//! The built-in rules plugins (`hkk._rules`) for permanents without abilities: VP
//! regeneration (29.3), passive cards becoming active (D-stage3), drawing (D-stage4),
//! restoring (41.3), which cards a player may play (8.1, D-instants), the guard post
//! (D-guard-post), the provisional combat (D-combat) and monster components
//! (D-components-window).

use crate::agents::Seat;
use crate::changes::{damage, extract_components, restore, Target};
use crate::decisions::{Decision, Label};
use crate::emit;
use crate::errors::{Flow, Halt};
use crate::events::{Kind, Prefix, Text};
use crate::game::Game;
use crate::phases::Step;
use crate::state::{Fact, InPlay, Permanent, Places, Zone};

/// 29.3: VP received in the player's 1st, 2nd, 3rd, 4th and 5th-or-later turn.
pub const REGENERATION: [i64; 5] = [1, 2, 3, 4, 5];

/// A rules item (`kind=RULE`): its label and what it does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RuleItem {
    VpRegeneration,
    BecomeActive,
    Draw,
    Restore,
}

impl RuleItem {
    pub fn label(self) -> &'static str {
        match self {
            RuleItem::VpRegeneration => "VP regeneration",
            RuleItem::BecomeActive => "passive cards become active",
            RuleItem::Draw => "draw a card",
            RuleItem::Restore => "restore damaged creatures and buildings",
        }
    }

    /// `item.apply`.
    pub fn apply(self, game: &mut Game) -> Flow {
        match self {
            RuleItem::VpRegeneration => {
                regenerate(game);
                Ok(())
            }
            RuleItem::BecomeActive => {
                become_active(game);
                Ok(())
            }
            RuleItem::Restore => {
                // walked in place, no list made: a restore neither moves a permanent nor
                // changes its `damaged_turn`, so each is judged as the walk reaches it
                let turn = game.turn;
                let mut at = 0;
                while let Some(perm) = game.permanents.get(at) {
                    if perm.damaged_turn == turn {
                        // 41.3: "a kör folyamán"
                        restore(game, perm.uid, "41.3");
                    }
                    at += 1;
                }
                Ok(())
            }
            RuleItem::Draw => game.draw(game.active, 1, &Text::Borrowed("D-stage4")),
        }
    }
}

/// The rules item a step's hook returns, if any.
pub fn rule_item(hook: &str) -> Option<RuleItem> {
    match hook {
        "vp_regeneration" => Some(RuleItem::VpRegeneration),
        "prep_stage3" => Some(RuleItem::BecomeActive),
        "prep_stage4" => Some(RuleItem::Draw),
        "end_stage3" => Some(RuleItem::Restore),
        _ => None,
    }
}

/// 29.3: by the player's own turn number, +1 for every second creature in his reserve, with
/// the modifiers in force; unspent VP carries over unless the rulings say not (D-vp-carry).
fn regenerate(game: &mut Game) {
    let player = game.active;
    // from the masks (`InPlay::fact`); every test made, as in `is_ready`
    let fact = |fact| game.in_play.fact(fact);
    let mask = fact(Fact::Creature) & fact(Fact::of(player)) & fact(Fact::Reserve);
    let reserve = game
        .permanents_at(Places(mask), |c| {
            c.creature & (c.controller == player) & (c.zone == Zone::Reserve)
        })
        .count() as i64;
    let modifier = crate::continuous::vp_regen_modifier(game, player);
    let carries_over = game.cards.rulings.unspent_vp_carries_over;
    let p = &mut game.players[player];
    if !carries_over {
        p.vp = 0; // D-vp-carry
    }
    let turns = (p.turns_taken as usize).clamp(1, REGENERATION.len());
    let amount = (REGENERATION[turns - 1] + reserve / 2 + modifier).max(0);
    p.vp += amount;
    p.vp_received = amount;
    let after = p.vp;
    emit!(
        game,
        Kind::VpRegenerated {
            player,
            amount,
            after,
            rule: "29.3",
        }
    );
}

/// `HandPlay.playable`: the card ids in the player's hand he may play now and can pay for, in
/// hand order, each once (D-instants: only the active player, where the step allows hand play,
/// except instants; never in the preparation phase, 29.4.6); as their first places in the
/// hand (no id copied until one is played). A card met earlier in the hand was offered (or
/// refused) there: the same card is judged alike, so it is skipped.
pub fn playable<'a>(
    game: &'a Game,
    step: &'a Step,
    player: usize,
) -> impl Iterator<Item = usize> + 'a {
    let p = &game.players[player];
    let open = !game.over && !step.no_hand_play;
    let hand = if open { &p.hand[..] } else { &[] };
    // outside his own hand-play steps only instants (the card's kind read only there)
    let any = step.hand_play && player == game.active;
    let need_a_choice = game.cards.rulings.spells_need_a_choice; // read once, not per card
    hand.iter().enumerate().filter_map(move |(at, &card_id)| {
        // the cheap tests first: each is the same for every copy of a card, so the copies are
        // looked for only among the cards that pass them
        let card = game.cards.get(card_id)?;
        // every test made (`&`): one branch a card, not one a test
        let open = any | card.instant;
        if !(open & (card.cost_vp <= p.vp) & (card.cost_components <= p.components)) {
            return None;
        }
        if hand[..at].contains(&card_id) {
            return None;
        }
        // "Csak akkor játszható ki, ha ...": its play_condition holds for him now
        if card.play_condition.is_some_and(|c| !c.holds(game, player)) {
            return None;
        }
        // D-no-target, where the rulings say so: a spell of chosen permanents only while
        // there is one to choose
        if need_a_choice
            && card.kind == "spell"
            && !crate::effects::can_choose(game, player, &card.effects)
        {
            return None;
        }
        Some(at)
    })
}

/// D-stage3: the active player's passive cards become active.
fn become_active(game: &mut Game) {
    let active = game.active;
    // his passive ones from the masks (`InPlay::fact`), each turned and logged in turn, as
    // `_activate` does (no list made: logging one moves no permanent)
    let passive = game.in_play.fact(Fact::of(active)) & !game.in_play.fact(Fact::Active);
    for at in InPlay::places(passive, game.permanents.len()) {
        let perm = &mut game.permanents[at];
        if perm.controller != active || perm.active {
            continue; // past the masks
        }
        perm.active = true;
        let (uid, card) = (perm.uid, perm.card);
        game.in_play.set(Fact::Active, at, true);
        emit!(
            game,
            Kind::BecameActive {
                uid,
                card,
                rule: "D-stage3",
            }
        );
    }
}

/// D-guard-post: an active creature in reserve may move to the guard post (its controller's
/// while he is the active player). Every test made, as [`is_ready`].
pub fn can_guard(p: &crate::state::Permanent) -> bool {
    p.creature & p.active & (p.zone == Zone::Reserve)
}

/// Move a creature to the guard post.
pub fn guard(game: &mut Game, uid: u32) {
    let Some(perm) = game.permanent_mut(uid) else {
        return;
    };
    perm.zone = Zone::GuardPost;
    let card = perm.card;
    game.refresh_facts(uid);
    emit!(
        game,
        Kind::Moved {
            uid,
            card,
            zone: Zone::GuardPost.name(),
            rule: "D-guard-post",
        }
    );
}

/// A player's creatures that may attack or block: active, on the guard post (into `out`,
/// emptied first).
fn ready(game: &Game, player: usize, out: &mut Vec<u32>) {
    out.clear();
    out.extend(ready_creatures(game, player).map(|c| c.uid));
}

/// `player`'s creatures that may attack or block ([`is_ready`]), in order: found from the
/// masks of their facts (`InPlay::fact`), as `steps::actions`' walk.
pub fn ready_creatures(game: &Game, player: usize) -> impl Iterator<Item = &Permanent> + '_ {
    let fact = |fact| game.in_play.fact(fact);
    let mask = fact(Fact::Creature) & fact(Fact::of(player)) & fact(Fact::Active);
    let places = Places(mask & fact(Fact::GuardPost));
    game.permanents_at(places, move |c| is_ready(c, player))
}

/// The places among the first 64 of `player`'s creatures that may move to the guard post
/// ([`can_guard`]), as a mask.
pub fn guard_mask(game: &Game, player: usize) -> u64 {
    let fact = |fact| game.in_play.fact(fact);
    fact(Fact::Creature) & fact(Fact::of(player)) & fact(Fact::Active) & fact(Fact::Reserve)
}

/// A creature of `player` that may attack or block: active, on the guard post. The attack is
/// offered to the active player, once a turn, while he has one (D-combat). Every test is
/// made (`&`, no short cut): a walk over the permanents branches once on each, not once a
/// test, each of which goes one way or the other at random.
pub fn is_ready(c: &crate::state::Permanent, player: usize) -> bool {
    c.creature & (c.controller == player) & c.active & (c.zone == Zone::GuardPost)
}

fn describe(game: &Game, uid: u32) -> Text {
    describe_after(Prefix::None, game, uid)
}

/// `prefix` then [`describe`] (`state::card_label`; the prefix alone for none in play).
fn describe_after(prefix: Prefix, game: &Game, uid: u32) -> Text {
    game.permanent(uid)
        .map_or(Text::Borrowed(prefix.as_str()), |p| Text::Card {
            prefix,
            card: p.card,
            uid: p.uid,
        })
}

/// The lists a combat fills (kept in the game between combats, `steps::Scratch::combat`:
/// some seven lists a combat were made and dropped each). Emptied before use; a copy of the
/// game starts without them, and a combat stopped at a decision from outside drops them.
#[derive(Debug, Default)]
pub struct CombatLists {
    ready: Vec<u32>,
    attackers: Vec<u32>,
    options: Vec<Label>,
    /// The ready blockers a block decision shows (`Game::combat`'s), given back after it.
    shown: Vec<u32>,
    pairs: Vec<(u32, Option<u32>)>,
    hits: Vec<(Target, i64, u32)>,
}

/// The attack action (D-combat): its `bind`, then its `apply`, on the game's combat lists.
pub fn combat(game: &mut Game) -> Flow {
    let mut lists = std::mem::take(&mut game.scratch.combat);
    declare(game, &mut lists)?;
    let flow = fight(game, &mut lists);
    game.scratch.combat = lists;
    flow
}

/// D-combat's `bind`: the attacker picks attackers, then the defender blocks each with one of
/// his ready creatures at most (the pairs into `lists.pairs`).
fn declare(game: &mut Game, lists: &mut CombatLists) -> Result<(), Halt> {
    let attacker_side = game.active;
    let CombatLists {
        ready: blocks,
        attackers,
        options,
        shown,
        pairs,
        ..
    } = lists;
    attackers.clear();
    pairs.clear();
    // one list of options for every decision of the declaration, emptied and filled again
    let mut decision = Decision {
        kind: "attack",
        player: attacker_side,
        options: std::mem::take(options),
        prompt: Label::from(""),
        rule: Some("D-combat"),
    };
    // a seated random or first-legal player draws from the options' number alone: only the
    // chosen one is labelled, if logged (`Game::seated`); a fighting rollout player reads the
    // game (`Game::decide`)
    let counted = |game: &Game, player: usize| {
        game.seated(player) && !matches!(game.seats[player], Seat::Fighting { .. })
    };
    ready(game, attacker_side, blocks);
    for &uid in blocks.iter() {
        let chosen = if counted(game, attacker_side) {
            let label = |game: &Game, at: usize| match at {
                0 => describe_after(Prefix::AttackWith, game, uid),
                _ => Text::Borrowed("hold"),
            };
            game.decide_counted(attacker_side, "attack", decision.rule, 2, 2, None, label)
        } else {
            decision.options.clear();
            decision
                .options
                .push(game.option(|| describe_after(Prefix::AttackWith, game, uid)));
            decision.options.push("hold".into());
            game.combat = Some((uid, Vec::new()));
            let chosen = game.decide(&decision)?; // waiting, the decision's combat stays
            game.combat = None;
            chosen
        };
        if chosen == 0 {
            attackers.push(uid);
        }
    }
    ready(game, 1 - attacker_side, blocks);
    decision.kind = "block";
    decision.player = 1 - attacker_side;
    for &attacker in attackers.iter() {
        let chosen = if counted(game, decision.player) {
            let label = |game: &Game, at: usize| match blocks.get(at) {
                Some(&blocker) => describe_after(Prefix::BlockWith, game, blocker),
                None => Text::Borrowed("no block"),
            };
            let options = blocks.len() + 1;
            let rule = decision.rule;
            game.decide_counted(
                decision.player,
                "block",
                rule,
                options,
                options,
                None,
                label,
            )
        } else {
            decision.options.clear();
            decision.options.extend(
                blocks
                    .iter()
                    .map(|&b| game.option(|| describe_after(Prefix::BlockWith, game, b))),
            );
            decision.options.push("no block".into());
            decision.prompt =
                game.prompt(|| format!("Block {}?", describe(game, attacker).render(&game.cards)));
            let mut showing = std::mem::take(shown);
            showing.clear();
            showing.extend_from_slice(blocks);
            game.combat = Some((attacker, showing));
            let chosen = game.decide(&decision)?;
            if let Some((_, showing)) = game.combat.take() {
                *shown = showing;
            }
            chosen
        };
        let blocker = (chosen < blocks.len()).then(|| blocks.remove(chosen));
        pairs.push((attacker, blocker));
    }
    *options = decision.options;
    Ok(())
}

/// D-combat's `apply` on `lists.pairs`: attackers become passive; every damage value is read
/// before any is dealt (one moment); unblocked damage hits the defending player.
fn fight(game: &mut Game, lists: &mut CombatLists) -> Flow {
    let CombatLists { pairs, hits, .. } = lists;
    if pairs.is_empty() {
        return Ok(());
    }
    for &(attacker, _) in pairs.iter() {
        if let Some(at) = game.place(attacker) {
            game.permanents[at].active = false;
            game.in_play.set(Fact::Active, at, false);
        }
    }
    emit!(
        game,
        Kind::Attack {
            attackers: game
                .log
                .events
                .extras_mut()
                .put_uids(pairs.iter().map(|&(a, _)| a)),
            blockers: game
                .log
                .events
                .extras_mut()
                .put_blockers(pairs.iter().map(|&(_, b)| b)),
            rule: "D-combat",
        }
    );
    if !game.watch.waiting.is_empty() {
        // D-trigger-attack: what the declaration set off resolves first; a creature out of
        // play then deals and takes nothing, a blocked attacker stays blocked
        if let Some(step) = game.step.map(|i| &crate::phases::DEFAULT_TURN[i]) {
            crate::triggers::settle(game, step)?;
        }
        pairs.retain(|&(a, b)| {
            game.permanent(a).is_some() && b.is_none_or(|b| game.permanent(b).is_some())
        });
    }
    let defender = 1 - game.active;
    let value = |game: &Game, uid: u32| game.damage_value(uid);
    hits.clear();
    for &(attacker, blocker) in pairs.iter() {
        match blocker {
            None => hits.push((Target::Player(defender), value(game, attacker), attacker)),
            Some(blocker) => {
                hits.push((Target::Permanent(blocker), value(game, attacker), attacker));
                hits.push((Target::Permanent(attacker), value(game, blocker), blocker));
            }
        }
    }
    for &(target, amount, source) in hits.iter() {
        // an outcome recorder reads the uid of a player's damage (`source`, in play: its
        // label would name it), not the label: not made for one
        let label = game.text(false, || describe(game, source));
        game.watch.combat_source = Some(source); // D-trigger-combat: what this damage sets off
        damage(game, target, amount, label, Some(source));
    }
    game.watch.combat_source = None;
    Ok(())
}

/// `close_offers`: as a phase ends, what is left of its offers is offered one last time
/// (R-components), then lapses.
pub fn close_offers(game: &mut Game, phase: &str) -> Flow {
    let mut index = 0;
    while index < game.offers.len() {
        if game.offers[index].phase != phase {
            index += 1;
            continue;
        }
        let offer = game.offers[index].clone();
        let decision = Decision {
            kind: "extract",
            player: offer.player,
            options: vec![game.option(|| offer.text()), Label::from("decline")],
            prompt: Label::from(""),
            rule: Some("R-components"),
        };
        if game.decide(&decision)? == 1 {
            game.offers.remove(index);
            emit!(
                game,
                Kind::ComponentsDeclined {
                    player: offer.player,
                    card: offer.card,
                    uid: offer.uid,
                }
            );
        } else {
            extract_components(game, index);
        }
    }
    game.offers.retain(|o| o.phase != phase);
    Ok(())
}
