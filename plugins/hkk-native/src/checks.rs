//! The Ép check (`hkk._checks`): 29.4.10 in the preparation phase, [D] D-hp-check after every
//! item elsewhere, 41.4 at the start of a turn; and the players' loss (K 3.12).

use crate::changes::destroy;
use crate::emit;
use crate::errors::Flow;
use crate::events::{Kind, Span};
use crate::game::Game;

/// `check_hp`: every permanent at 0 Ép (Sp) or below goes to the graveyard, all found first
/// (in timestamp order), then all destroyed; again while a round finds someone (a static
/// source that left play may take others' Ép with it), each later round logged with its
/// number.
pub fn check_hp(game: &mut Game, rule: &'static str, components: bool) -> Flow {
    if game.hp_out_of_reach {
        // every Ép out of reach since the last check: it finds no one (its one round, unread)
        emit!(
            game,
            Kind::HpCheck {
                rule,
                dead: Span::default(),
                round: None,
            }
        );
        return check_players(game);
    }
    check_rounds(game, rule, components)
}

/// [`check_hp`]'s rounds, the permanents read.
#[inline(never)]
fn check_rounds(game: &mut Game, rule: &'static str, components: bool) -> Flow {
    for round in 1.. {
        let unreached = game.hp_out_of_reach
            || (game.hp_known && dirty_out_of_reach(game))
            || out_of_reach(game);
        // what this round reads is all the next reads, unless it finds every Ép out of reach
        game.hp_known = unreached;
        game.hp_dirty.clear();
        // the round's dead in the game's kept list (`Scratch::dead`), put back once read
        let mut dead = std::mem::take(&mut game.scratch.dead);
        dead.clear();
        if unreached {
            game.hp_out_of_reach = true;
        } else {
            // only a permanent within the statics' reach of 0 ([`out_of_reach`]) may be at 0
            // or below: the statics are read for those alone (reading them changes nothing,
            // so every Ép is still read against the same state)
            let floor = game.in_play.hp_floor;
            dead.extend(
                game.permanents
                    .iter()
                    .filter(|p| p.hp() + floor <= 0 && game.hp_of(p) <= 0)
                    .map(|p| p.uid),
            );
        }
        // a later round is logged only if it finds someone
        let found = !dead.is_empty();
        if found || round == 1 {
            emit!(
                game,
                Kind::HpCheck {
                    rule,
                    dead: game.log.events.extras_mut().put_uids(dead.iter().copied()),
                    round: (round > 1).then_some(round),
                }
            );
        }
        for &uid in &dead {
            destroy(game, uid, "hp", Some(rule), components);
        }
        game.scratch.dead = dead;
        if !found {
            break;
        }
    }
    check_players(game)
}

/// Every permanent's Ép (Sp) stays above 0 whatever the static modifiers in force: its own
/// less the most all statics in play could take ([`crate::cards::Card::static_hp_floor`]) is
/// still above 0, so the check finds no one without reading the statics' conditions.
fn out_of_reach(game: &Game) -> bool {
    // the floor kept as permanents enter and leave play, compared once with the lowest Ép
    let floor = game.in_play.hp_floor;
    debug_assert_eq!(
        floor,
        game.permanents
            .iter()
            .filter(|p| p.has_statics)
            .map(|p| game.cards.get(p.card).map_or(0, |c| c.static_hp_floor))
            .sum::<i64>()
    );
    let lowest = game.permanents.iter().map(|p| p.hp()).min();
    lowest.is_none_or(|lowest| lowest + floor > 0)
}

/// [`out_of_reach`] read on the permanents whose Ép may have fallen since the last check that
/// found every Ép out of reach (`Game::hp_dirty`): the others' still are (their Ép is as it
/// was, and the floor has not fallen since: a permanent whose statics could take Ép entering
/// play makes the next check read them all, `Game::hp_changed_all`).
fn dirty_out_of_reach(game: &Game) -> bool {
    let floor = game.in_play.hp_floor;
    game.hp_dirty
        .iter()
        .all(|&uid| game.permanent(uid).is_none_or(|p| p.hp() + floor > 0))
}

/// K 3.12: a player at 0 Ép or below loses; both at once: a draw (D-both-lose).
pub fn check_players(game: &mut Game) -> Flow {
    let lost = [0, 1].map(|i| game.players[i].hp <= 0);
    if lost == [false, false] || game.over {
        return Ok(());
    }
    let winner = match lost {
        [true, true] => None,
        [true, false] => Some(1),
        _ => Some(0),
    };
    game.end_game(winner, "hp", "3.12")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agents::Seat;
    use crate::cards::{Card, CardPool, PlainAbility};
    use crate::changes::enter_play;
    use crate::effects::PlainEffect;
    use crate::events::Level;
    use crate::rng::key_of;
    use std::sync::Arc;

    /// A building whose static ability gives the opponent's creatures `by` Ép.
    fn aura_building(id: &str, by: i64) -> Card {
        let plain = PlainAbility {
            index: 0,
            kind: "static".into(),
            timing: String::new(),
            whose_turn: "any".into(),
            optional: false,
            effects: vec![PlainEffect {
                modify: Some(("hp".into(), "permanent".into(), None)),
                ..PlainEffect::of("modify", "opponent_creatures", Some(by))
            }],
            condition: None,
            activation: None,
            others: vec![],
            when: None,
        };
        Card::new(
            id.into(),
            "building".into(),
            (0, 0, 0, 3, 0),
            false,
            vec![],
            &[],
            &[plain],
        )
    }

    fn game_with(by: i64) -> Game {
        let creature = Card::new(
            "t:one".into(),
            "creature".into(),
            (0, 0, 1, 1, 0),
            false,
            vec![],
            &[],
            &[],
        );
        let pool = Arc::new(CardPool::new(vec![aura_building("t:aura", by), creature]));
        let key = key_of(1);
        let mut game = Game::new(
            pool,
            1,
            &key,
            [vec![], vec![]],
            [Seat::First, Seat::First],
            Level::Full,
        );
        let (aura, one) = (game.cards.id("t:aura"), game.cards.id("t:one"));
        enter_play(&mut game, 0, aura.unwrap());
        enter_play(&mut game, 1, one.unwrap());
        game
    }

    /// The names of the cards in play, in the list's order.
    fn in_play(game: &Game) -> Vec<&str> {
        game.permanents
            .iter()
            .map(|p| game.cards.name(p.card))
            .collect()
    }

    #[test]
    fn test_29_4_10_a_static_minus_one_hp_kills_a_one_hp_creature_at_the_check() {
        let mut game = game_with(-1);
        assert_eq!(game.cards.by_name("t:aura").unwrap().static_hp_floor, -1);
        assert!(!out_of_reach(&game)); // within reach: the statics are read
        check_hp(&mut game, "29.4.10", true).unwrap();
        assert_eq!(in_play(&game), ["t:aura"]);
    }

    #[test]
    fn test_29_4_10_a_static_plus_one_hp_leaves_the_check_nothing_to_read() {
        let mut game = game_with(1);
        assert_eq!(game.cards.by_name("t:aura").unwrap().static_hp_floor, 0);
        assert!(out_of_reach(&game));
        check_hp(&mut game, "29.4.10", true).unwrap();
        assert_eq!(game.permanents.len(), 2);
    }

    #[test]
    fn test_29_4_10_a_check_after_damage_reads_the_permanents_again() {
        let mut game = game_with(1);
        check_hp(&mut game, "29.4.10", true).unwrap();
        assert!(game.hp_out_of_reach); // every Ép out of reach: the next check may skip them
        let one = game.permanents[1].uid;
        crate::changes::damage(
            &mut game,
            crate::changes::Target::Permanent(one),
            2,
            crate::events::Text::Borrowed(""),
            None,
        );
        check_hp(&mut game, "29.4.10", true).unwrap();
        assert_eq!(game.permanents.len(), 1, "the damaged creature died");
    }

    #[test]
    fn test_29_4_10_a_check_after_damage_reads_the_damaged_one_with_the_statics_in_reach() {
        // a +1 Ép static takes nothing: every Ép stays out of reach
        let mut game = game_with(1);
        check_hp(&mut game, "29.4.10", true).unwrap();
        assert!(game.hp_known);
        let one = game.permanents[1].uid;
        let hit = |game: &mut Game, amount| {
            let target = crate::changes::Target::Permanent(one);
            crate::changes::damage(game, target, amount, crate::events::Text::default(), None);
        };
        hit(&mut game, 1);
        assert_eq!(game.hp_dirty, [one]);
        // 0 Ép but for the static's +1: read with the statics, it lives
        check_hp(&mut game, "29.4.10", true).unwrap();
        assert_eq!(game.permanents.len(), 2);
        hit(&mut game, 1);
        check_hp(&mut game, "29.4.10", true).unwrap();
        assert_eq!(game.permanents.len(), 1, "the damaged creature died");
    }

    #[test]
    fn test_29_4_10_a_static_that_may_take_hp_entering_makes_the_check_read_every_hp() {
        let mut game = game_with(-1);
        let aura = game.cards.id("t:aura").unwrap();
        let first = game.permanents[0].uid;
        crate::changes::destroy(&mut game, first, "hp", None, false);
        check_hp(&mut game, "29.4.10", true).unwrap();
        assert!(game.hp_out_of_reach && game.hp_known);
        assert_eq!(
            game.permanents.len(),
            1,
            "the creature lives without the aura"
        );
        enter_play(&mut game, 0, aura); // its -1 reaches the creature, whose Ép did not change
        assert!(!game.hp_known);
        check_hp(&mut game, "29.4.10", true).unwrap();
        assert_eq!(in_play(&game), ["t:aura"]);
    }

    #[test]
    fn the_counts_of_what_is_in_play_follow_permanents_entering_and_leaving() {
        let mut game = game_with(-1);
        let walked = |game: &Game| {
            (
                game.permanents.iter().any(|p| p.has_statics),
                game.permanents.iter().any(|p| p.hooks != 0),
            )
        };
        assert_eq!(game.in_play.statics(), walked(&game).0);
        assert!(game.in_play.statics());
        let aura = game.permanents[0].uid;
        crate::changes::destroy(&mut game, aura, "hp", None, false);
        assert_eq!(game.in_play.statics(), walked(&game).0);
        assert!(!game.in_play.statics());
        for step in crate::phases::DEFAULT_TURN {
            assert!(!game.in_play.hooked(step.bit));
        }
    }

    #[test]
    fn a_permanents_place_by_uid_follows_permanents_entering_and_leaving() {
        let mut game = game_with(-1);
        let one = game.cards.id("t:one").unwrap();
        for _ in 0..4 {
            enter_play(&mut game, 1, one);
        }
        let halving =
            |game: &Game, uid: u32| game.permanents.binary_search_by_key(&uid, |p| p.uid).ok();
        for leaving in [3, 1, 6, 5] {
            crate::changes::destroy(&mut game, leaving, "hp", None, false);
            for uid in 0..game.next_uid + 2 {
                assert_eq!(game.place(uid), halving(&game, uid), "uid {uid}");
            }
        }
        assert_eq!(game.permanents.len(), 2);
    }

    #[test]
    fn a_permanents_static_modifier_read_alone_is_the_one_of_all_modifiers_in_force() {
        for by in [-1, 1] {
            let game = game_with(by);
            let mods = game.static_mods();
            for perm in &game.permanents {
                for stat in [crate::continuous::Stat::Hp, crate::continuous::Stat::Sp] {
                    assert_eq!(
                        game.static_mod_of(perm, stat),
                        crate::game::static_mod(&mods, perm, stat)
                    );
                }
            }
            let one = game
                .permanents
                .iter()
                .find(|p| game.cards.name(p.card) == "t:one")
                .unwrap();
            assert_eq!(game.hp_of(one), 1 + by);
        }
    }
}
