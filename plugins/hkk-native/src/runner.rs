//! The turn runner (`hkk._runner`): the setup (K 3.6-3.12, 28), turns and their steps, the
//! turn limit. `advance` takes the game to its next step boundary, as the Python one does.

use crate::checks::check_hp;
use crate::decisions::{Decision, Label};
use crate::emit;
use crate::errors::{Flow, Halt};
use crate::events::Kind;
use crate::game::Game;
use crate::phases::DEFAULT_TURN;
use crate::steps;

/// Cards each player draws at the setup (K 3.12).
pub const OPENING_HAND: usize = 5;

/// `hkk._runner.setup`: shuffle, a random starting player who may hand the start over, five
/// cards each.
pub fn setup(game: &mut Game) -> Flow {
    game.started = true;
    let decks = [game.players[0].deck.len(), game.players[1].deck.len()];
    emit!(
        game,
        Kind::GameStarted {
            seed: Some(game.seed),
            decks,
        }
    );
    for player in &mut game.players {
        game.rng.shuffle(&mut player.deck);
    }
    let starter = game.rng.below(2);
    let answer = game.decide(&Decision {
        kind: "start",
        player: starter,
        options: vec![Label::from("start"), Label::from("hand over")],
        prompt: Label::from(""),
        rule: Some("28"),
    })?;
    game.active = if answer == 0 { starter } else { 1 - starter };
    emit!(
        game,
        Kind::StartingPlayer {
            player: game.active,
        }
    );
    for player in 0..2 {
        game.draw(
            player,
            OPENING_HAND,
            &crate::events::Text::Borrowed("setup"),
        )?;
    }
    Ok(())
}

/// `start_turn`: the turn number, the player's own, the clock, the deferred Ép check (41.4).
pub fn start_turn(game: &mut Game) -> Flow {
    game.turn += 1;
    game.log.turn = game.turn;
    game.log.step = "";
    let active = game.active;
    game.players[active].turns_taken += 1;
    game.turn_passed = false;
    game.step_index = Some(0);
    let turn_of_player = game.players[active].turns_taken;
    emit!(
        game,
        Kind::TurnStarted {
            player: active,
            turn_of_player,
        }
    );
    game.attacked = false; // the turn's usage counters
    game.usage_turn.clear();
    game.attempted.clear();
    game.clock_started = true; // the game clock starts (41.7)
                               // 41.4 supplement: the check deferred since end stage 4; [D] it gives no component unless
                               // the rulings say so (D-deferred-check)
    check_hp(
        game,
        "41.4",
        game.cards.rulings.deferred_check_gives_components,
    )
}

/// `run_next_step` with `run_step`: started, run by its mode, ended; the clock closes at the
/// end of the last step the active player may act in (D-41.7-last-pass).
pub fn run_next_step(game: &mut Game) -> Flow {
    let index = game.step_index.unwrap_or(0);
    game.step_index = Some(index + 1);
    let step = &DEFAULT_TURN[index];
    game.step = Some(index);
    game.log.step = step.hook;
    emit!(
        game,
        Kind::StepStarted {
            phase: step.phase,
            stage: step.stage,
            hook: step.hook,
            mode: step.mode.name(),
        }
    );
    steps::run(game, step)?;
    finish_step(game, index)
}

/// The step `game.resume` stopped inside (`Halt::Pause`), run on from there and ended.
pub fn resume_step(game: &mut Game) -> Flow {
    let index = game.step.unwrap_or(0);
    steps::resume(game, &DEFAULT_TURN[index])?;
    finish_step(game, index)
}

/// The end of `run_next_step` (step `index`), once the step's mode has run.
fn finish_step(game: &mut Game, index: usize) -> Flow {
    let step = &DEFAULT_TURN[index];
    crate::triggers::step_over(game, step)?; // triggers still waiting (D-trigger-wait)
    emit!(game, Kind::StepEnded { hook: step.hook });
    if step.closes_clock {
        game.close_clock("41.7");
    }
    if step.ends_phase {
        crate::rules::close_offers(game, step.phase)?; // the phase's offers lapse
    }
    Ok(())
}

/// `end_turn`: the next player's turn begins right after end stage 4 (41.6).
pub fn end_turn(game: &mut Game) {
    game.step = None;
    game.step_index = None;
    game.log.step = "";
    emit!(
        game,
        Kind::TurnEnded {
            player: game.active,
            rule: "41.6",
        }
    );
    game.active = 1 - game.active;
}

/// `advance`: to the next step boundary; false once the game is over, has reached what the
/// native core does not run (`game.unported`), or stopped at a decision of a seat answered from
/// outside (`game.waiting`, mid-step: `forward::Driven` runs the step again once answered).
pub fn advance(game: &mut Game) -> bool {
    advance_inlined(game)
}

/// [`advance`]'s body, inlined into [`play`]'s loop: a seated game enters the function that
/// holds the steps' code once, not at each step (its registers saved and restored each time).
#[inline(always)]
fn advance_inlined(game: &mut Game) -> bool {
    if game.unported.is_some() {
        return false;
    }
    let flow = if !game.started {
        setup(game)
    } else if game.over {
        Ok(())
    } else if game.resume.is_some() {
        resume_step(game)
    } else {
        match game.step_index {
            None if game.turn >= game.cards.rulings.max_turns => {
                game.over = true;
                game.emit(Kind::GameEnded {
                    winner: None,
                    reason: "turn_limit",
                    rule: "D-turn-limit",
                });
                Ok(())
            }
            None => start_turn(game),
            Some(index) if index < DEFAULT_TURN.len() => run_next_step(game),
            Some(_) => {
                end_turn(game);
                Ok(())
            }
        }
    };
    if let Err(Halt::Unported(reason)) = flow {
        game.unported = Some(reason);
    }
    !game.over && game.unported.is_none() && game.waiting.is_none()
}

/// Play until the game is over or reaches what is not native yet.
pub fn play(game: &mut Game) {
    while advance_inlined(game) {}
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::agents::{OwnRng, Seat, PASS_BIAS};
    use crate::cards::{Card, CardId, CardPool};
    use crate::events::Level;
    use crate::rng::{key_of, Random};
    use std::sync::Arc;

    fn pool(cost: i64) -> Arc<CardPool> {
        creatures(|_| cost)
    }

    /// Forty creatures without words, `t:c00` … `t:c39`, of VP cost `cost(i)`: the cards the
    /// crate's game tests play.
    pub(crate) fn creatures(cost: impl Fn(i64) -> i64) -> Arc<CardPool> {
        let cards = (0..40)
            .map(|i| {
                let numbers = (cost(i), 0, 1 + (i % 3), 1 + (i % 4), i % 2);
                Card::new(
                    format!("t:c{i:02}"),
                    "creature".into(),
                    numbers,
                    false,
                    vec![],
                    &[],
                    &[],
                )
            })
            .collect();
        Arc::new(CardPool::new(cards))
    }

    /// `t:c<from>` ... : the pool's ids are its cards' places in sorted order.
    pub(crate) fn deck(from: usize, n: usize) -> Vec<CardId> {
        (from..from + n).map(|i| CardId(i as u32)).collect()
    }

    fn game(seed: u64, cost: i64, decks: usize) -> Game {
        let seats = [
            Seat::random(PASS_BIAS, &OwnRng::Seed(seed + 100)).unwrap(),
            Seat::random(PASS_BIAS, &OwnRng::Seed(seed + 200)).unwrap(),
        ];
        let key = key_of(seed);
        let decks = [deck(0, decks), deck(20, decks)];
        Game::new(pool(cost), seed as i64, &key, decks, seats, Level::Full)
    }

    #[test]
    fn setup_deals_five_each_and_logs_thirteen_events() {
        let mut g = game(3, 99, 20);
        setup(&mut g).unwrap();
        assert_eq!(g.players[0].hand.len(), 5);
        assert_eq!(g.players[1].deck.len(), 15);
        assert_eq!(g.log.events.len(), 13);
    }

    #[test]
    fn setup_draws_shuffle_then_starter_from_the_game_rng() {
        let mut g = game(8, 99, 20);
        setup(&mut g).unwrap();
        let mut rng = Random::new(8);
        let (mut a, mut b) = (deck(0, 20), deck(20, 20));
        rng.shuffle(&mut a);
        rng.shuffle(&mut b);
        let starter = rng.below(2);
        let handed_over = rng.below(2) == 1;
        assert_eq!(g.active, if handed_over { 1 - starter } else { starter });
        assert_eq!(
            g.players[0].hand,
            a[15..].iter().rev().cloned().collect::<Vec<_>>()
        );
    }

    #[test]
    fn unplayable_cards_run_turns_until_a_deck_is_empty() {
        // nobody can pay for a card: both pass every turn, and the first to draw from an
        // empty deck loses (D-empty-deck)
        let mut g = game(5, 99, 8);
        play(&mut g);
        assert!(g.over);
        assert_eq!(g.unported, None);
        assert_eq!(end_reason(&g), Some("empty_deck"));
        assert_eq!(g.winner.map(|w| g.players[1 - w].deck.len()), Some(0));
    }

    #[test]
    fn cheap_vanilla_creatures_fight_to_the_end() {
        let mut g = game(1, 0, 20);
        play(&mut g);
        assert_eq!(g.unported, None);
        assert!(g.over);
        let kinds: Vec<&str> = g.log.events.iter().map(|e| e.kind.name()).collect();
        for kind in ["entered_play", "moved", "attack", "died"] {
            assert!(kinds.contains(&kind), "{kind} missing");
        }
    }

    #[test]
    fn a_card_with_a_word_stops_the_native_game_naming_it() {
        let words = vec![crate::cards::Word {
            place: "card.abilities[0]".into(),
            word: "do = \"damage\"".into(),
        }];
        let card = Card::new(
            "t:c00".into(),
            "creature".into(),
            (0, 0, 1, 1, 0),
            false,
            words,
            &[],
            &[],
        );
        let cards = vec![card];
        let seats = [Seat::First, Seat::First];
        let decks = [vec![CardId(0); 6], vec![CardId(0); 6]];
        let pool = Arc::new(CardPool::new(cards));
        let mut g = Game::new(pool, 1, &[1], decks, seats, Level::Full);
        play(&mut g);
        let reason = g.unported.unwrap();
        assert!(
            reason.contains("t:c00") && reason.contains("do = \"damage\""),
            "{reason}"
        );
    }

    /// The reason of the `game_ended` event the log ends with, if it ends with one.
    fn end_reason(g: &Game) -> Option<&'static str> {
        match g.log.events.last()?.kind {
            Kind::GameEnded { reason, .. } => Some(reason),
            _ => None,
        }
    }

    /// [`game`] of unplayable cards (VP cost 99) whose pool reads `rulings`.
    fn ruled(seed: u64, decks: usize, rulings: crate::rulings::Rulings) -> Game {
        let mut g = game(seed, 99, decks);
        let pool = Arc::try_unwrap(pool(99)).unwrap_or_else(|_| unreachable!());
        g.cards = Arc::new(pool.with_rulings(rulings));
        g
    }

    #[test]
    fn d_turn_limit_the_rulings_limit_ends_the_game_as_a_draw() {
        let rulings = crate::rulings::Rulings {
            max_turns: 3,
            ..Default::default()
        };
        let mut g = ruled(5, 20, rulings);
        play(&mut g);
        assert_eq!((g.turn, g.winner), (3, None));
        assert_eq!(end_reason(&g), Some("turn_limit"));
    }

    #[test]
    fn d_empty_deck_a_failed_draw_loses_only_where_the_rulings_say_so() {
        let rulings = crate::rulings::Rulings {
            empty_deck_loses: false,
            max_turns: 30,
            ..Default::default()
        };
        let mut g = ruled(5, 8, rulings);
        play(&mut g);
        let failed = g.log.events.iter();
        let failed = failed.filter(|e| matches!(e.kind, Kind::DrawFailed { .. }));
        assert!(failed.count() > 2, "the empty decks were drawn from again");
        assert_eq!((g.turn, g.winner), (30, None), "a draw at the turn limit");
    }

    #[test]
    fn d_vp_carry_unspent_vp_is_lost_where_the_rulings_say_so() {
        let rulings = crate::rulings::Rulings {
            unspent_vp_carries_over: false,
            ..Default::default()
        };
        let mut g = ruled(5, 12, rulings);
        play(&mut g);
        let regenerated = g.log.events.iter().filter_map(|e| match e.kind {
            Kind::VpRegenerated { amount, after, .. } => Some((amount, after)),
            _ => None,
        });
        // nothing is ever bought: each turn's VP is its regeneration alone
        assert!(regenerated
            .into_iter()
            .all(|(amount, after)| amount == after));
    }

    #[test]
    fn vp_regenerates_by_the_players_own_turn_number() {
        let mut g = game(5, 99, 12);
        play(&mut g);
        let amounts: Vec<i64> = g
            .log
            .events
            .iter()
            .filter_map(|e| match e.kind {
                Kind::VpRegenerated { amount, .. } => Some(amount),
                _ => None,
            })
            .collect();
        assert_eq!(&amounts[..6], &[1, 1, 2, 2, 3, 3]);
    }
}
