//! How good a position is for a player (`hkk._evaluation`): the value the native `greedy`
//! agent maximises and the native `mcts` agent cuts its rollouts off with. It reads only what
//! a player may see - both players' Ép, VP, components, hand and deck sizes, and the board -
//! so it is the same on a position and on any determinization of it. The weights and their
//! meaning are `hkk._evaluation.Weights`' (the docstring there says why each is there).

use crate::cards::CardId;
use crate::game::Game;
use crate::state::Zone;

/// `hkk._evaluation.Weights`, the same names and defaults.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Weights {
    pub hp: f64,
    pub low_hp: f64,
    pub danger: f64,
    pub creature: f64,
    pub ready: f64,
    pub building: f64,
    pub ability: f64,
    pub vp: f64,
    pub components: f64,
    pub hand: f64,
    pub deck: f64,
    pub deck_horizon: f64,
    pub threat: f64,
    pub lethal: f64,
    pub scale: f64,
}

impl Default for Weights {
    fn default() -> Self {
        Weights {
            hp: 1.0,
            low_hp: 1.0,
            danger: 6.0,
            creature: 0.6,
            ready: 0.3,
            building: 0.4,
            ability: 1.0,
            vp: 0.25,
            components: 0.3,
            hand: 1.0,
            deck: 0.5,
            deck_horizon: 4.0,
            threat: 0.4,
            lethal: 4.0,
            scale: 20.0,
        }
    }
}

impl Weights {
    /// The weight called `name`, to be set by a spec (`greedy:hp=2`); None: no such weight.
    pub fn get_mut(&mut self, name: &str) -> Option<&mut f64> {
        Some(match name {
            "hp" => &mut self.hp,
            "low_hp" => &mut self.low_hp,
            "danger" => &mut self.danger,
            "creature" => &mut self.creature,
            "ready" => &mut self.ready,
            "building" => &mut self.building,
            "ability" => &mut self.ability,
            "vp" => &mut self.vp,
            "components" => &mut self.components,
            "hand" => &mut self.hand,
            "deck" => &mut self.deck,
            "deck_horizon" => &mut self.deck_horizon,
            "threat" => &mut self.threat,
            "lethal" => &mut self.lethal,
            "scale" => &mut self.scale,
            _ => return None,
        })
    }
}

/// `_lasting`: how many of the card's abilities last while it is in play (all but on-enter).
fn lasting(game: &Game, card: CardId) -> usize {
    game.cards.get(card).map_or(0, |c| {
        c.abilities
            .iter()
            .filter(|a| a.timing != "on_enter")
            .count()
    })
}

/// `side_value`: one side's sum, before the difference and the squashing.
pub fn side_value(game: &Game, player: usize, w: &Weights) -> f64 {
    let me = &game.players[player];
    let opponent_hp = game.players[1 - player].hp;
    let mut value = w.hp * me.hp as f64 - w.low_hp * (w.danger - me.hp as f64).max(0.0);
    let mut threat = 0;
    for perm in game.permanents.iter().filter(|p| p.controller == player) {
        let hp = game.hp_of(perm).max(0) as f64;
        if perm.creature {
            let damage = game.damage_value(perm.uid).max(0);
            threat += damage;
            value += w.creature * (damage as f64 + hp);
            if perm.active && perm.zone == Zone::GuardPost {
                value += w.ready * damage as f64;
            }
        } else {
            value += w.building * hp + w.ability * lasting(game, perm.card) as f64;
        }
    }
    value += w.vp * me.vp as f64 + w.components * me.components as f64;
    value += w.hand * me.hand.len() as f64 + w.deck * (me.deck.len() as f64).min(w.deck_horizon);
    value += w.threat * (threat.min(opponent_hp.max(0))) as f64;
    if opponent_hp > 0 && threat >= opponent_hp {
        value += w.lethal;
    }
    value
}

/// `position_value`: the position's value for `player` in (-1, 1), as if the game went on.
pub fn position_value(game: &Game, player: usize, w: &Weights) -> f64 {
    let diff = side_value(game, player, w) - side_value(game, 1 - player, w);
    (diff / w.scale).tanh()
}

/// `_final`: a finished game is 1 (won), -1 (lost) or 0 (drawn) for `player`.
pub fn final_value(game: &Game, player: usize) -> f64 {
    match game.winner {
        None => 0.0,
        Some(w) if w == player => 1.0,
        Some(_) => -1.0,
    }
}

/// `evaluate`: a finished game's result, else the position's value.
pub fn evaluate(game: &Game, player: usize, w: &Weights) -> f64 {
    if game.over {
        final_value(game, player)
    } else {
        position_value(game, player, w)
    }
}
