//! The built-in rules plugins (`hkk._rules`) as the native runner needs them on a board
//! without permanents: VP regeneration (29.3), passive cards becoming active (D-stage3),
//! drawing (D-stage4), restoring (41.3), and which cards a player may play (8.1, D-instants).

use crate::errors::Flow;
use crate::events::Kind;
use crate::game::Game;
use crate::phases::Step;

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
            // no permanent is in play: nobody becomes active, nothing is restored
            RuleItem::BecomeActive | RuleItem::Restore => Ok(()),
            RuleItem::Draw => game.draw(game.active, 1, "D-stage4"),
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

/// 29.3 with no creature in reserve and no modifier in force; unspent VP carries over
/// (D-vp-carry).
fn regenerate(game: &mut Game) {
    let player = game.active;
    let p = &mut game.players[player];
    let turns = (p.turns_taken as usize).clamp(1, REGENERATION.len());
    let amount = REGENERATION[turns - 1].max(0);
    p.vp += amount;
    p.vp_received = amount;
    let after = p.vp;
    game.emit(Kind::VpRegenerated {
        player,
        amount,
        after,
        rule: "29.3",
    });
}

/// `HandPlay.playable`: the card ids in the player's hand he may play now and can pay for, in
/// hand order, each once (D-instants: only the active player, where the step allows hand play,
/// except instants; never in the preparation phase, 29.4.6).
pub fn playable(game: &Game, step: &Step, player: usize) -> Vec<String> {
    if game.over || step.no_hand_play {
        return Vec::new();
    }
    let p = &game.players[player];
    let mut result: Vec<String> = Vec::new();
    for card_id in &p.hand {
        if result.contains(card_id) {
            continue;
        }
        let Some(card) = game.cards.get(card_id) else {
            continue;
        };
        if card.cost_vp > p.vp || card.cost_components > p.components {
            continue;
        }
        let instant = card.kind == "spell" && card.instant;
        if (!step.hand_play || player != game.active) && !instant {
            continue;
        }
        result.push(card_id.clone());
    }
    result
}
