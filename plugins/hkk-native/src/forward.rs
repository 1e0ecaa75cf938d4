//! A game answered from outside, one decision at a time, and copied at any decision (the
//! forward model, `hkk._driving`).
//!
//! A seat answered from outside (`Seat::Outside`) stops the game at its decision
//! (`Halt::Decision`): the step is left half run, its events logged up to the decision. The
//! driver keeps a checkpoint - the game as it was at the last step boundary - and the answers
//! given since. An answer is checked, added to them, the checkpoint restored and the step run
//! again (the same state, the same RNG: the same events and decisions), the answers taken in
//! order, on to the next decision from outside or the end. That costs one run again of a step's
//! beginning an answer; in exchange no runner function keeps a resumable frame, and a copy is a
//! plain `Clone`. An action step also keeps one between two of its decisions (`Halt::Pause`:
//! its loop's values are all it keeps beside the game), so there an answer runs it again from
//! the decision before (`Driven::in_place`: or not at all). A game whose seats all have native
//! agents takes no checkpoint.
//!
//! The log is append-only, so a checkpoint leaves it out: restoring one cuts the log back to
//! where the step began.

use crate::agents::Seat;
use crate::decisions::Decision;
use crate::errors::Halt;
use crate::events::Kind;
use crate::events::Log;
use crate::game::Game;
use crate::runner::{advance, start_turn};
use std::ops::{Deref, DerefMut};
use std::sync::Arc;

/// `Clone` field by field, `clone_from` included, so that restoring a checkpoint into a game
/// (and keeping one) reuses the game's vectors and strings instead of allocating them again:
/// the cost of an answer. The field list is checked: a field left out does not compile.
#[macro_export]
macro_rules! clone_fields {
    ($name:ident { $($field:ident),* $(,)? }) => {
        impl Clone for $name {
            fn clone(&self) -> Self {
                $name { $($field: self.$field.clone()),* }
            }

            fn clone_from(&mut self, source: &Self) {
                let $name { $($field),* } = self;
                $($field.clone_from(&source.$field);)*
            }
        }
    };
}

/// A checkpoint, shared by a game and its copies until one of them writes it (a copy is then
/// one `Game` clone, not two): written through `DerefMut`, which copies it first if shared.
#[derive(Debug, Clone)]
pub struct Shared(Arc<Game>);

impl Deref for Shared {
    type Target = Game;
    fn deref(&self) -> &Game {
        &self.0
    }
}

impl DerefMut for Shared {
    fn deref_mut(&mut self) -> &mut Game {
        Arc::make_mut(&mut self.0)
    }
}

/// A determinized copy's own seed and resampling, put into the game each time the step runs
/// again from the checkpoint it shares with its original (`determinize`).
#[derive(Debug, Clone)]
pub struct Patch {
    pub seed: i128,
    pub resample: crate::determinize::Resample,
}

/// A game and what answering it from outside needs.
#[derive(Debug, Clone)]
pub struct Driven {
    pub game: Game,
    /// The game at the last step boundary, with an empty log in the state the game's log had
    /// then (turn, step, events emitted); None while no seat is answered from outside.
    pub(crate) checkpoint: Option<Shared>,
    /// How many events the log kept at the checkpoint.
    pub(crate) kept: usize,
    /// The answers given from outside since the checkpoint, in order.
    pub(crate) answers: Vec<usize>,
    /// How many of them any seat takes, its agent's too (`reseat`).
    pub(crate) forced: usize,
    /// Where a replay stops between two steps (`replay`).
    pub(crate) stop_at: Option<Stop>,
    /// The turn limit of the caller's `play(max_turns=...)` while it runs (None: the
    /// rulings', D-turn-limit); a copy made while it runs has none.
    pub(crate) turn_limit: Option<u32>,
    /// A determinized copy's seed and resampling, put in at each restore of the checkpoint
    /// until the next step boundary.
    pub(crate) patch: Option<Box<Patch>>,
    /// The decision waited for was reseated to an agent: the step runs again from its
    /// checkpoint when the game goes on (`reseat`).
    pub(crate) rerun: bool,
}

/// A point between two steps: the events emitted so far, the turn and the next step (a save
/// made between two steps stands there).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stop {
    pub events: usize,
    pub turn: u32,
    pub step_index: Option<usize>,
}

/// Why an answer was refused (the game is unchanged).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// The game waits for no decision (it is over, stopped short, or every seat has an agent).
    NoDecision,
    /// The index is not one of the waiting decision's options (their number).
    OutOfRange(usize),
}

impl Driven {
    pub fn new(game: Game) -> Self {
        let mut driven = Driven {
            game,
            checkpoint: None,
            kept: 0,
            answers: Vec::new(),
            forced: 0,
            stop_at: None,
            turn_limit: None,
            patch: None,
            rerun: false,
        };
        if driven.game.outside {
            driven.keep_checkpoint();
        }
        driven
    }

    /// The game now is the checkpoint (at a step boundary): no answer since.
    fn keep_checkpoint(&mut self) {
        let log = &self.game.log;
        let empty = Log {
            level: log.level,
            events: crate::events::Events::default(),
            turn: log.turn,
            step: log.step,
            emitted: log.emitted,
            // what the step runs again records again from where it stood (`hkk simulate`)
            outcome: log.outcome.clone(),
        };
        self.kept = log.events.len();
        let log = std::mem::replace(&mut self.game.log, empty);
        match &mut self.checkpoint {
            Some(Shared(checkpoint)) => match Arc::get_mut(checkpoint) {
                Some(checkpoint) => checkpoint.clone_from(&self.game),
                None => *checkpoint = Arc::new(self.game.clone()), // shared: its own now
            },
            None => self.checkpoint = Some(Shared(Arc::new(self.game.clone()))),
        }
        self.patch = None;
        self.game.log = log;
        self.answers.clear();
        self.forced = 0;
    }

    /// The game back at the checkpoint, its log cut back to it.
    pub(crate) fn restore(&mut self) {
        let Some(checkpoint) = &self.checkpoint else {
            return;
        };
        let mut events = std::mem::take(&mut self.game.log.events);
        events.truncate(self.kept);
        self.game.clone_from(checkpoint);
        self.game.log.events = events;
        self.restore_patch();
    }

    /// A determinized copy's seed and resampling put into the game restored (`Patch`).
    pub(crate) fn restore_patch(&mut self) {
        if let Some(patch) = &self.patch {
            self.game.seed = patch.seed;
            self.game.resample = Some(Box::new(patch.resample.clone()));
        }
    }

    /// Run from where the game stands to the next decision from outside, the end, or what the
    /// native core does not run; a checkpoint at every step boundary.
    pub(crate) fn run(&mut self) {
        loop {
            // a stop is between two steps, never where an action step paused (`Halt::Pause`)
            if let Some(stop) = self.stop_at.filter(|_| self.game.resume.is_none()) {
                let game = &self.game;
                if game.log.emitted > stop.events
                    || (game.log.emitted, game.turn, game.step_index)
                        == (stop.events, stop.turn, stop.step_index)
                {
                    break;
                }
            }
            self.game.answers.clone_from(&self.answers);
            self.game.replayed = 0;
            self.game.asked = 0;
            self.game.chosen.clear();
            self.game.forced = self.forced;
            if !advance_to(&mut self.game, self.turn_limit) {
                break;
            }
            self.keep_checkpoint();
        }
        if self.game.waiting.is_some() && self.game.replayed != self.answers.len() {
            // the step ran differently again: a bug of the native core, never a silent one
            self.game.waiting = None;
            self.game.unported = Some(format!(
                "the step run again from its checkpoint took {} of the {} answers given: it \
                 did not run as before",
                self.game.replayed,
                self.answers.len()
            ));
        }
    }

    /// The decision a seat answered from outside waits for: the game runs up to it first if
    /// it has not (None once over or stopped short, or while every seat has an agent).
    pub fn decision(&mut self) -> Option<&Decision> {
        if std::mem::take(&mut self.rerun) {
            self.game.waiting = None;
            self.restore();
        }
        let game = &self.game;
        if game.waiting.is_none() && game.outside && !game.over && game.unported.is_none() {
            self.run();
        }
        self.game.waiting.as_deref()
    }

    /// Answer the waiting decision with its option `chosen` and run on; a refused answer
    /// changes nothing.
    pub fn answer(&mut self, chosen: usize) -> Result<(), Refusal> {
        let options = self.decision().ok_or(Refusal::NoDecision)?.options.len();
        if chosen >= options {
            return Err(Refusal::OutOfRange(options));
        }
        self.answers.push(chosen);
        if self.in_place() {
            // the game stands as its checkpoint does: it goes on from there, nothing copied
            self.game.waiting = None;
            self.game.resume = self.checkpoint.as_ref().and_then(|c| c.resume);
        } else {
            self.restore();
        }
        self.run();
        Ok(())
    }

    /// The decision waited for is the first one since a checkpoint an action step paused at
    /// (`Halt::Pause`), asked straight after it: nothing but asking it has changed the game
    /// since (`steps::act` only reads the game to list the options), so the game is its
    /// checkpoint but for that - an answer goes on from the game as it stands instead of
    /// restoring the checkpoint (the same run again from the same state).
    fn in_place(&self) -> bool {
        let (game, Some(checkpoint)) = (&self.game, &self.checkpoint) else {
            return false;
        };
        checkpoint.resume.is_some()
            && self.patch.is_none()
            && game.asked == 1
            && game.replayed == 0
            && game.resume.is_none()
            && game.log.emitted == checkpoint.log.emitted
            && game.log.events.len() == self.kept
    }

    /// The log kept at `level` from now on (a copy's, `clone(log_level=...)`): the events kept
    /// so far are those the new level keeps of them.
    pub fn set_level(&mut self, level: crate::events::Level) {
        let log = &mut self.game.log;
        let kept = log
            .events
            .iter()
            .take(self.kept)
            .filter(|e| e.kind.kept_at(level))
            .count();
        log.level = level;
        log.events.retain(|e| e.kind.kept_at(level));
        self.kept = kept;
        if let Some(checkpoint) = &mut self.checkpoint {
            if checkpoint.log.level != level {
                checkpoint.log.level = level;
            }
        }
    }

    /// Play on to the end while every seat has an agent (no checkpoint is taken), or to the
    /// turn limit `turn_limit` if given (`play(max_turns=...)`, D-turn-limit). A game stopped
    /// inside a step (loaded at a decision, or reseated there) runs the step again from its
    /// checkpoint with the answers given since.
    pub fn play(&mut self, turn_limit: Option<u32>) {
        let rerun = std::mem::take(&mut self.rerun);
        if self.game.waiting.take().is_some() || rerun {
            self.restore();
        }
        let game = &mut self.game;
        game.answers.clone_from(&self.answers);
        (game.replayed, game.asked, game.forced) = (0, 0, self.forced);
        game.chosen.clear();
        while advance_to(game, turn_limit) {}
    }

    /// Answer the decisions by their labels, in order, every seat answered from outside (a
    /// save's log replayed: `hkk._replay` answers alike), then run on to the next decision, or
    /// to `stop` between two steps. An answer that is not an option of its decision, or a
    /// decision the game does not come to, is named; the game is then not to be used.
    pub fn replay(&mut self, labels: &[String], stop: Option<Stop>) -> Result<(), String> {
        self.stop_at = stop;
        let result = self.answer_labels(labels);
        if result.is_ok() && self.game.waiting.is_none() {
            self.decision();
        }
        self.stop_at = None;
        result?;
        match stop {
            Some(stop) if !self.game.over => {
                let game = &self.game;
                let at = (game.log.emitted, game.turn, game.step_index);
                if game.waiting.is_some() || at != (stop.events, stop.turn, stop.step_index) {
                    return Err(format!(
                        "the replay came between two steps at (events, turn, next step) \
                         {at:?}, not the save's {:?}",
                        (stop.events, stop.turn, stop.step_index)
                    ));
                }
            }
            _ => {}
        }
        Ok(())
    }

    fn answer_labels(&mut self, labels: &[String]) -> Result<(), String> {
        let cards = self.game.cards.clone(); // the labels are written from them
        for (i, label) in labels.iter().enumerate() {
            let Some(decision) = self.decision() else {
                return Err(format!(
                    "the game waits for no decision where the log records decision {i} \
                     ({label:?})"
                ));
            };
            let written = |o: &crate::decisions::Label| o.render(&cards).into_owned();
            let Some(index) = decision.options.iter().position(|o| written(o) == *label) else {
                let offered: Vec<String> = decision.options.iter().map(written).collect();
                return Err(format!(
                    "decision {i}: player {}'s {} decision offers {offered:?}, not {label:?}",
                    decision.player, decision.kind
                ));
            };
            self.answer(index)
                .map_err(|e| format!("decision {i} ({label:?}): {e:?}"))?;
            if let Some(why) = &self.game.unported {
                return Err(format!("decision {i} ({label:?}): {why}"));
            }
        }
        Ok(())
    }

    /// Seat `seats` where the game stands: the decisions made since the checkpoint - every
    /// seat's - are taken again as they were made (`Game::forced`), the seats' agents deciding
    /// only after them (a random agent's RNG is its state now). A decision waited for whose
    /// seat now has an agent is asked to it when the game goes on (the step runs again from
    /// its checkpoint), as the Python engine asks it again.
    pub fn reseat(&mut self, seats: [Seat; 2]) {
        if let Some(waiting) = &self.game.waiting {
            // every decision of the step before the one waited for (`Game::chosen`)
            self.answers.clone_from(&self.game.chosen);
            self.rerun = !matches!(seats[waiting.player], Seat::Outside);
        }
        self.seat(seats);
    }

    fn seat(&mut self, seats: [Seat; 2]) {
        self.forced = self.answers.len();
        self.game.outside = seats.iter().any(|s| matches!(s, Seat::Outside));
        if let Some(checkpoint) = &mut self.checkpoint {
            // the seats a determinized copy's resampling puts in, where the step runs again
            match &mut self.patch {
                Some(patch) => patch.resample.seats.clone_from(&seats),
                None => checkpoint.seats.clone_from(&seats),
            }
            if checkpoint.outside != self.game.outside {
                checkpoint.outside = self.game.outside;
            }
        } else if self.game.outside {
            self.keep_checkpoint();
        }
        self.game.seats = seats;
    }
}

/// [`advance`] with the caller's turn limit (`hkk._runner.advance(game, max_turns)`): between
/// two turns the game ends at `limit` (D-turn-limit) instead of the rulings' `max_turns`,
/// and a limit beyond that starts the turn the rulings' would not.
pub(crate) fn advance_to(game: &mut Game, limit: Option<u32>) -> bool {
    let Some(limit) = limit else {
        return advance(game);
    };
    let between = game.started && !game.over && game.unported.is_none();
    if !(between && game.step_index.is_none() && game.waiting.is_none()) {
        return advance(game);
    }
    if game.turn >= limit {
        game.over = true;
        game.emit(Kind::GameEnded {
            winner: None,
            reason: "turn_limit",
            rule: "D-turn-limit",
        });
        return false;
    }
    if game.turn < game.cards.rulings.max_turns {
        return advance(game);
    }
    if let Err(Halt::Unported(reason)) = start_turn(game) {
        game.unported = Some(reason);
    }
    !game.over && game.unported.is_none() && game.waiting.is_none()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agents::{OwnRng, Seat, PASS_BIAS};
    use crate::cards::CardPool;
    use crate::events::Level;
    use crate::rng::{key_of, Random};
    use std::sync::Arc;

    fn pool() -> Arc<CardPool> {
        crate::runner::tests::creatures(|i| i % 3)
    }

    fn game(seed: u64, seats: [Seat; 2], level: Level) -> Game {
        let deck = |from: u32| (from..from + 20).map(crate::cards::CardId).collect();
        let key = key_of(seed);
        Game::new(pool(), seed as i64, &key, [deck(0), deck(20)], seats, level)
    }

    fn random(seed: u64) -> Seat {
        Seat::random(PASS_BIAS, &OwnRng::Seed(seed)).unwrap()
    }

    /// Answer every decision of `driven` with what a random agent of `seed` draws for it.
    fn answer_randomly(driven: &mut Driven, rng: &mut Random) -> usize {
        let mut answered = 0;
        while let Some(decision) = driven.decision() {
            let n = decision.options.len();
            driven.answer(rng.below(n)).unwrap();
            answered += 1;
        }
        answered
    }

    #[test]
    fn a_game_answered_from_outside_logs_what_the_seated_game_logs() {
        // the outside answers drawn as the seated agent draws them: the same game
        for seed in 0..5 {
            let mut seated = game(seed, [random(7), random(8)], Level::Full);
            crate::runner::play(&mut seated);
            let mut driven = Driven::new(game(seed, [Seat::Outside, random(8)], Level::Full));
            let Seat::Random { pass_bias, rng } = random(7) else {
                unreachable!()
            };
            let mut seat = Seat::Random { pass_bias, rng };
            while let Some(decision) = driven.decision().cloned() {
                driven.answer(seat.choose(&decision).unwrap()).unwrap();
            }
            assert!(driven.game.over && seated.over);
            assert_eq!(driven.game.log.events, seated.log.events, "seed {seed}");
        }
    }

    #[test]
    fn a_game_reseated_inside_a_step_plays_on_as_the_game_seated_from_the_start() {
        // seat 0 answered from outside with a random agent's draws, then given that agent at
        // a decision: the step's decisions so far (seat 1's among them) are taken again as
        // made, and the game goes on as the one seated throughout
        for seed in 0..6 {
            let mut seated = game(seed, [random(7), random(8)], Level::Full);
            crate::runner::play(&mut seated);
            let mut driven = Driven::new(game(seed, [Seat::Outside, random(8)], Level::Full));
            let mut seat = random(7);
            for _ in 0..(3 + 11 * seed) {
                let decision = driven.decision().cloned().unwrap();
                driven.answer(seat.choose(&decision).unwrap()).unwrap();
            }
            assert!(driven.decision().is_some());
            let other = driven.game.seats[1].clone();
            driven.reseat([seat, other]);
            driven.play(None);
            assert!(driven.game.over && seated.over);
            assert_eq!(driven.game.log.events, seated.log.events, "seed {seed}");
        }
    }

    #[test]
    fn a_turn_limit_ends_the_game_between_two_turns() {
        for limit in [0, 1, 3] {
            let mut driven = Driven::new(game(6, [random(1), random(2)], Level::Full));
            driven.play(Some(limit));
            let game = &driven.game;
            assert!(game.over && game.winner.is_none() && game.turn == limit);
            assert!(matches!(
                game.log.events.last().map(|e| &e.kind),
                Some(crate::events::Kind::GameEnded {
                    reason: "turn_limit",
                    ..
                })
            ));
        }
    }

    #[test]
    fn a_copy_goes_on_as_the_original_and_apart_from_it() {
        let mut driven = Driven::new(game(3, [Seat::Outside, Seat::Outside], Level::Full));
        let mut rng = Random::new(1);
        for _ in 0..40 {
            let n = driven.decision().unwrap().options.len();
            driven.answer(rng.below(n)).unwrap();
        }
        let mut copy = driven.clone();
        let before = driven.game.log.events.clone();
        answer_randomly(&mut copy, &mut Random::new(2));
        assert_eq!(
            driven.game.log.events, before,
            "the copy changed the original"
        );
        answer_randomly(&mut driven, &mut Random::new(2));
        assert_eq!(driven.game.log.events, copy.game.log.events);
        assert_eq!(driven.game.winner, copy.game.winner);
    }

    #[test]
    fn a_bad_answer_is_refused_and_changes_nothing() {
        let mut driven = Driven::new(game(4, [Seat::Outside, Seat::Outside], Level::Full));
        let n = driven.decision().unwrap().options.len();
        let events = driven.game.log.events.clone();
        assert_eq!(driven.answer(n), Err(Refusal::OutOfRange(n)));
        assert_eq!(driven.game.log.events, events);
        assert_eq!(driven.decision().map(|d| d.options.len()), Some(n));
    }

    #[test]
    fn a_seated_game_waits_for_nothing_and_takes_no_checkpoint() {
        let mut driven = Driven::new(game(5, [random(1), random(2)], Level::Outcome));
        assert!(driven.decision().is_none());
        assert!(driven.checkpoint.is_none());
        driven.play(None);
        assert!(driven.game.over);
        assert!(driven.checkpoint.is_none());
        assert_eq!(driven.answer(0), Err(Refusal::NoDecision));
    }

    /// The choices the log records, in order (a save's log replayed).
    fn choices(driven: &Driven) -> Vec<String> {
        driven
            .game
            .log
            .events
            .iter_with()
            .filter_map(|(e, extras)| match &e.kind {
                crate::events::Kind::Decided { choice, .. } => {
                    Some(extras.choice(choice, &driven.game.cards).into_owned())
                }
                _ => None,
            })
            .collect()
    }

    #[test]
    fn a_replayed_and_reseated_game_goes_on_as_the_original() {
        for (seed, cut) in [(0, 1), (1, 17), (2, 60), (3, 0)] {
            let mut original = Driven::new(game(seed, [Seat::Outside, random(8)], Level::Full));
            let mut rng = Random::new(seed);
            for _ in 0..cut {
                let n = original.decision().unwrap().options.len();
                original.answer(rng.below(n)).unwrap();
            }
            original.decision();
            let mut loaded = Driven::new(game(seed, [Seat::Outside, Seat::Outside], Level::Full));
            loaded.replay(&choices(&original), None).unwrap();
            assert_eq!(loaded.game.log.events, original.game.log.events);
            loaded.reseat([Seat::Outside, original.game.seats[1].clone()]);
            let mut rest = Random::new(seed + 100);
            while let Some(decision) = original.decision() {
                let n = decision.options.len();
                let chosen = rest.below(n);
                original.answer(chosen).unwrap();
                loaded.answer(chosen).unwrap();
            }
            assert!(loaded.decision().is_none() && loaded.game.over);
            assert_eq!(
                loaded.game.log.events, original.game.log.events,
                "seed {seed}"
            );
        }
    }

    #[test]
    fn a_replay_stops_between_steps_and_plays_on_seated() {
        let mut whole = game(9, [random(1), random(2)], Level::Full);
        crate::runner::play(&mut whole);
        let mut seated = game(9, [random(1), random(2)], Level::Full);
        while seated.turn < 3 && advance(&mut seated) {}
        let stop = Stop {
            events: seated.log.emitted,
            turn: seated.turn,
            step_index: seated.step_index,
        };
        let at = Driven::new(seated.clone());
        let mut loaded = Driven::new(game(9, [Seat::Outside, Seat::Outside], Level::Full));
        loaded.replay(&choices(&at), Some(stop)).unwrap();
        assert!(loaded.game.waiting.is_none());
        assert_eq!(loaded.game.log.events, seated.log.events);
        loaded.reseat(seated.seats.clone());
        assert!(loaded.decision().is_none());
        loaded.play(None);
        assert!(loaded.game.over);
        assert_eq!(loaded.game.log.events, whole.log.events);
    }
}
