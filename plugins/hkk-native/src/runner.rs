//! The game and its runner (`hkk._runner`): today the setup of K 3.6-3.12 and 28 - shuffle,
//! a random starting player who may hand the start over, five cards each. The turn machine
//! (29.4, 41) is not native yet: a game stops after the setup and says so in `unported`.

use crate::agents::Seat;
use crate::decisions::Decision;
use crate::events::{Kind, Level, Log};
use crate::rng::Random;
use crate::state::Player;

/// Where a native game stops because the rest is not ported (refused by `hkk_native.core`).
pub const UNPORTED_TURN: &str =
    "the turn (29.4, 41): the native core runs the setup (K 3.6-3.12, 28) only";

/// Cards each player draws at the setup (K 3.12).
pub const OPENING_HAND: usize = 5;

#[derive(Debug, Clone)]
pub struct Game {
    pub seed: i64,
    pub rng: Random,
    pub players: [Player; 2],
    pub seats: [Seat; 2],
    pub log: Log,
    pub active: usize,
    pub started: bool,
    /// Set when the game reached what the native core does not run yet.
    pub unported: Option<&'static str>,
}

impl Game {
    /// A game of two decks (card ids in the Python engine's deck order), seeded as
    /// `random.Random(seed)` with `key` its absolute value's 32-bit words.
    pub fn new(
        seed: i64,
        key: &[u32],
        decks: [Vec<String>; 2],
        seats: [Seat; 2],
        level: Level,
    ) -> Self {
        let [a, b] = decks;
        Game {
            seed,
            rng: Random::from_key(key),
            players: [Player::new(0, a), Player::new(1, b)],
            seats,
            log: Log::new(level),
            active: 0,
            started: false,
            unported: None,
        }
    }

    /// `Game.decide`: the seat answers; the decision is logged.
    pub fn decide(&mut self, decision: Decision) -> usize {
        let chosen = self.seats[decision.player].choose(&decision, &mut self.rng);
        self.log.emit(Kind::Decided {
            player: decision.player,
            decision: decision.kind,
            choice: decision.options[chosen].clone(),
            options: decision.options.len(),
            rule: decision.rule,
        });
        chosen
    }

    /// `hkk._changes.draw`: from the end of the deck into the hand.
    pub fn draw(&mut self, player: usize, count: usize, source: &'static str) {
        for _ in 0..count {
            let Some(card) = self.players[player].deck.pop() else {
                self.unported = Some("an empty deck (D-empty-deck) is not native yet");
                return;
            };
            self.players[player].hand.push(card.clone());
            self.log.emit(Kind::CardDrawn {
                player,
                card,
                source: Some(source),
            });
        }
    }

    /// `hkk._runner.setup`.
    pub fn setup(&mut self) {
        self.started = true;
        let decks = [self.players[0].deck.len(), self.players[1].deck.len()];
        self.log.emit(Kind::GameStarted {
            seed: self.seed,
            decks,
        });
        for player in &mut self.players {
            self.rng.shuffle(&mut player.deck);
        }
        let starter = self.rng.below(2);
        let answer = self.decide(Decision {
            kind: "start",
            player: starter,
            options: vec!["start".into(), "hand over".into()],
            rule: Some("28"),
        });
        self.active = if answer == 0 { starter } else { 1 - starter };
        self.log.emit(Kind::StartingPlayer {
            player: self.active,
        });
        for player in 0..2 {
            self.draw(player, OPENING_HAND, "setup");
        }
    }

    /// Play as far as the native core goes: the setup, then stop at the turn.
    pub fn play(&mut self) {
        if !self.started {
            self.setup();
        }
        if self.unported.is_none() {
            self.unported = Some(UNPORTED_TURN);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agents::PASS_BIAS;

    fn deck(prefix: &str, n: usize) -> Vec<String> {
        (0..n).map(|i| format!("{prefix}{i:02}")).collect()
    }

    fn game(seed: u64) -> Game {
        let seats = [
            Seat::random(PASS_BIAS, None).unwrap(),
            Seat::random(PASS_BIAS, None).unwrap(),
        ];
        let key = crate::rng::key_of(seed);
        Game::new(
            seed as i64,
            &key,
            [deck("a", 30), deck("b", 30)],
            seats,
            Level::Full,
        )
    }

    #[test]
    fn setup_deals_five_each_and_logs_thirteen_events() {
        let mut g = game(3);
        g.play();
        assert_eq!(g.players[0].hand.len(), 5);
        assert_eq!(g.players[1].deck.len(), 25);
        assert_eq!(g.log.events.len(), 13);
        assert_eq!(g.unported, Some(UNPORTED_TURN));
    }

    #[test]
    fn setup_draws_shuffle_then_starter_from_the_game_rng() {
        let mut g = game(8);
        g.play();
        let mut rng = Random::new(8);
        let mut a = deck("a", 30);
        let mut b = deck("b", 30);
        rng.shuffle(&mut a);
        rng.shuffle(&mut b);
        let starter = rng.below(2);
        let handed_over = rng.below(2) == 1;
        let active = if handed_over { 1 - starter } else { starter };
        assert_eq!(g.active, active);
        assert_eq!(
            g.players[0].hand,
            a[25..].iter().rev().cloned().collect::<Vec<_>>()
        );
    }
}
