//! A copy of a game in which what a player cannot know is resampled (`hkk._driving.determinize`,
//! `_resample`, `_shuffle`), drawing exactly as the Python engine draws from the caller's RNG:
//! his own deck's order, and the other player's hand and deck dealt again from the same cards
//! (each sorted first, so the true order never shows); then the copy's seed,
//! `getrandbits(64)`, and its RNG seeded with it. Both seats are answered from outside, and the
//! past log is the player's view of it (`Kind::hide_from`).
//!
//! The Python engine resamples the state where its machine stopped, and its frames go on from
//! there. The native core goes on by running the step again from its checkpoint
//! (`forward::Driven`), so the resampling is kept with the checkpoint ([`Resample`]) and applied
//! each time the step run again reaches the decision the copy was made at - before that
//! decision's options are collected where they read a hand (an opponent's action lists the
//! cards in his hand: the resampled ones, as the Python engine collects them again).

use crate::agents::Seat;
use crate::cards::CardId;
use crate::events::Level;
use crate::forward::{Driven, Patch};
use crate::game::Game;
use crate::rng::Random;

/// Both players' (hand, deck), the deck's top last.
type Zones = [(Vec<CardId>, Vec<CardId>); 2];

/// A determinized copy's resampling, applied when the step run again reaches the decision the
/// copy was made at (`Game::resample_due`).
#[derive(Debug, Clone)]
pub struct Resample {
    /// Decisions the step had asked before the one the copy was made at.
    pub at: usize,
    /// Whose view the copy is.
    pub player: usize,
    pub zones: Zones,
    /// The copy's own RNG (seeded with its seed).
    pub rng: Random,
    /// The seats from there: both answered from outside, or as the copy was reseated since
    /// (`forward::Driven::reseat`).
    pub seats: [Seat; 2],
    /// The events logged again by the step run again start here: hidden when applied, or
    /// dropped for a copy whose log has no past (`drop`).
    pub hide_from: usize,
    pub drop: bool,
}

impl Resample {
    /// The resampled hands, decks and RNG put in, both seats answered from outside, the events
    /// logged again hidden.
    pub fn apply(self, game: &mut Game) {
        let Resample {
            player,
            zones,
            rng,
            seats,
            hide_from,
            drop,
            ..
        } = self;
        for (p, (hand, deck)) in game.players.iter_mut().zip(zones) {
            p.hand = hand;
            p.deck = deck;
        }
        game.rng = rng;
        game.seats = seats;
        if drop {
            let log = &mut game.log;
            log.events.truncate(hide_from);
            if log.level == Level::Full {
                // the Python full log's next seq is its length: a full copy of a lower-level
                // log numbers its events from 0 (`EventLog.emitted`)
                log.emitted = log.events.len();
            }
        } else {
            hide(game, player, hide_from);
        }
    }
}

fn hide(game: &mut Game, player: usize, from: usize) {
    for event in game.log.events.iter_mut_from(from) {
        event.kind.hide_from(player);
    }
}

/// `_resample`: `player`'s own deck shuffled from its sorted order; the other player's hand
/// and deck dealt again from their cards, sorted, shuffled, to the hand's places first.
fn resample(zones: &mut Zones, player: usize, rng: &mut Random) {
    let deck = &mut zones[player].1;
    if deck.len() > 1 {
        deck.sort_unstable();
        rng.shuffle(deck);
    }
    let (hand, deck) = &mut zones[1 - player];
    let in_hand = hand.len();
    let mut cards: Vec<CardId> = hand.drain(..).chain(deck.drain(..)).collect();
    cards.sort_unstable();
    rng.shuffle(&mut cards);
    *deck = cards.split_off(in_hand);
    *hand = cards;
}

impl Driven {
    /// A copy in which everything hidden from `player` is resampled from `rng` as the Python
    /// engine draws it (see the module's docs), its log kept at `level` if given: at a level
    /// other than the game's, the copy's log has no past (`hkk._clone`: the cheapest copy).
    pub fn determinize(&self, player: usize, rng: &mut Random, level: Option<Level>) -> Driven {
        let drop = level.is_some_and(|level| level != self.game.log.level);
        let game = &self.game;
        let mut zones: Zones = std::array::from_fn(|i| {
            let p = &game.players[i];
            (p.hand.clone(), p.deck.clone())
        });
        if game.started {
            resample(&mut zones, player, rng);
        } else {
            // set-up is the step: its shuffle deals the decks again
            for (_, deck) in &mut zones {
                rng.shuffle(deck);
            }
        }
        let seed = rng.getrandbits(64);
        let resample = Box::new(Resample {
            at: game.asked.saturating_sub(1),
            player,
            zones,
            // seeded when first drawn from: a game draws from its own only at its set-up
            rng: Random::lazy(seed),
            seats: [Seat::Outside, Seat::Outside],
            hide_from: 0,
            drop,
        });
        let (Some(waiting), Some(checkpoint)) = (&game.waiting, &self.checkpoint) else {
            // at a step boundary: the copy is the game, resampled, from here
            let mut new = self.clone();
            new.past(player, level.filter(|_| drop));
            let mut game = new.game;
            game.seed = i128::from(seed);
            resample.apply(&mut game);
            game.outside = true;
            game.waiting = None;
            return Driven::new(game);
        };
        // at a decision: the step runs again from the checkpoint (shared with the game), the
        // copy's seed and resampling put in (`Patch`), the resampling applied at the decision
        let kept = if drop { 0 } else { self.kept };
        let patch = Box::new(Patch {
            seed: i128::from(seed),
            resample: Resample {
                hide_from: kept,
                ..*resample
            },
        });
        let mut new = Driven {
            game: if waiting.player == player {
                game.clone()
            } else {
                (**checkpoint).clone()
            },
            checkpoint: Some(checkpoint.clone()),
            kept,
            answers: self.answers.clone(),
            forced: self.forced,
            stop_at: None,
            turn_limit: None,
            patch: Some(patch),
            rerun: false,
        };
        if waiting.player == player {
            // his own decision, which nothing hidden from him changes (else its options would
            // tell it): the copy is the game as it stands, resampled here - what the step run
            // again to it makes, without running it
            new.past(player, level.filter(|_| drop));
            let Some(patch) = &new.patch else {
                unreachable!()
            };
            let mut here = patch.resample.clone();
            here.hide_from = new.game.log.events.len() * usize::from(!drop);
            new.game.seed = patch.seed;
            here.apply(&mut new.game);
            return new;
        }
        new.restore_patch();
        new.game.log.events = game.log.events.prefix(kept);
        new.past(player, level.filter(|_| drop));
        new.run();
        new
    }

    /// The copy's past log: the player's view of it, or none at another `level` (`hkk._clone`).
    fn past(&mut self, player: usize, level: Option<Level>) {
        if let Some(level) = level {
            self.set_level(level);
            self.game.log.events.clear();
            self.kept = 0;
        }
        hide(&mut self.game, player, 0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::events::Kind;
    use crate::rng::key_of;

    fn driven(seed: u64) -> Driven {
        let pool = crate::runner::tests::creatures(|i| i % 3);
        let deck = |from: usize| crate::runner::tests::deck(from, 20);
        let seats = [Seat::Outside, Seat::Outside];
        let key = key_of(seed);
        Driven::new(Game::new(
            pool,
            seed as i64,
            &key,
            [deck(0), deck(20)],
            seats,
            Level::Full,
        ))
    }

    fn sorted(mut cards: Vec<CardId>) -> Vec<CardId> {
        cards.sort();
        cards
    }

    #[test]
    fn a_determinized_copy_keeps_what_the_player_knows_and_hides_the_rest() {
        let mut game = driven(6);
        let mut answers = Random::new(2);
        for _ in 0..25 {
            let n = game.decision().unwrap().options.len();
            game.answer(answers.below(n)).unwrap();
        }
        let mut rng = Random::new(9);
        let mut copy = game.determinize(0, &mut rng, None);
        let (mine, theirs) = (&game.game.players[0], &game.game.players[1]);
        let (my_copy, their_copy) = (&copy.game.players[0], &copy.game.players[1]);
        assert_eq!(my_copy.hand, mine.hand, "his own hand is known");
        assert_eq!(sorted(my_copy.deck.clone()), sorted(mine.deck.clone()));
        assert_eq!(their_copy.hand.len(), theirs.hand.len());
        let cards = |p: &crate::state::Player| sorted([p.hand.clone(), p.deck.clone()].concat());
        assert_eq!(cards(their_copy), cards(theirs));
        assert!(copy.game.log.events.iter().all(|e| match &e.kind {
            Kind::CardDrawn {
                player: 1, card, ..
            } => *card == CardId::HIDDEN,
            Kind::GameStarted { seed, .. } => seed.is_none(),
            _ => true,
        }));
        assert!(matches!(copy.game.seats, [Seat::Outside, Seat::Outside]));
        while let Some(decision) = copy.decision() {
            let n = decision.options.len();
            copy.answer(answers.below(n)).unwrap();
        }
        assert!(copy.game.over && copy.game.unported.is_none());
    }
}
