//! The Ép check (`hkk._checks`): 29.4.10 in the preparation phase, [D] D-hp-check after every
//! item elsewhere, 41.4 at the start of a turn; and the players' loss (K 3.12).

use crate::changes::destroy;
use crate::emit;
use crate::errors::Flow;
use crate::events::Kind;
use crate::game::Game;

/// `check_hp`: every permanent at 0 Ép (Sp) or below goes to the graveyard, all found first
/// (in timestamp order), then all destroyed; again while a round finds someone (a static
/// source that left play may take others' Ép with it), each later round logged with its
/// number.
pub fn check_hp(game: &mut Game, rule: &'static str, components: bool) -> Flow {
    for round in 1.. {
        let mods = game.static_mods(); // read once: every Ép against the same state
        let dead: Vec<u32> = game
            .permanents
            .iter()
            .filter(|p| game.hp_with(p, &mods) <= 0)
            .map(|p| p.uid)
            .collect();
        if dead.is_empty() && round > 1 {
            break;
        }
        emit!(
            game,
            Kind::HpCheck {
                rule,
                dead: dead.clone(),
                round: (round > 1).then_some(round),
            }
        );
        if dead.is_empty() {
            break;
        }
        for uid in dead {
            destroy(game, uid, "hp", Some(rule), components);
        }
    }
    check_players(game)
}

/// K 3.12: a player at 0 Ép or below loses; both at once: a draw (D-both-lose).
pub fn check_players(game: &mut Game) -> Flow {
    let losers: Vec<usize> = (0..2).filter(|&i| game.players[i].hp <= 0).collect();
    if losers.is_empty() || game.over {
        return Ok(());
    }
    let winner = if losers.len() == 2 {
        None
    } else {
        Some(1 - losers[0])
    };
    game.end_game(winner, "hp", "3.12")
}
