//! The native agents: seated random and first-legal players that draw exactly as
//! `hkk._agents.RandomAgent` and `FirstLegalAgent` do, so that a seated game never crosses into
//! Python per decision.

use crate::decisions::Decision;
use crate::rng::{Random, RangeError};
use sha2::{Digest, Sha256};

/// `RandomAgent`'s default chance of considering a pass at all.
pub const PASS_BIAS: f64 = 0.25;

/// `hkk._agent_registry.agent_seed`: the seed of the engine's default agent in `seat` (0 or 1)
/// of the game of seed `game_seed`, the first 8 bytes (big-endian) of the SHA-256 of
/// `"hkk agent seed {game_seed} {seat}"`. Made here, a batch of games seated as the engine
/// seats them crosses into Python once, not once a game.
pub fn agent_seed(game_seed: i64, seat: usize) -> u64 {
    let digest = Sha256::digest(format!("hkk agent seed {game_seed} {seat}"));
    let mut head = [0; 8];
    head.copy_from_slice(&digest[..8]);
    u64::from_be_bytes(head)
}

/// Who answers a seat's decisions.
#[derive(Debug, Clone)]
pub enum Seat {
    /// `RandomAgent(seed, pass_bias)`: always its own RNG, never the game's.
    Random { pass_bias: f64, rng: Box<Random> },
    /// A native mcts rollout's player (`mcts:rollout=fight`): attacks and blocks by the rules
    /// of thumb of `search::fighting_choice` (it reads the game: `Game::decide` asks it there),
    /// and answers any other decision as `Random`.
    Fighting { pass_bias: f64, rng: Box<Random> },
    /// `FirstLegalAgent`: the first option.
    First,
    /// No agent: answered from outside, one decision at a time (`forward::Driven`).
    Outside,
}

/// Where a random agent's RNG comes from: the state of the Python agent's RNG
/// (`getstate()[1]`, 625 words), or the seed it is made with (`RandomAgent(seed)`, as
/// `hkk._agent_registry.agent_seed` gives the engine's default agents).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OwnRng {
    State(Vec<u32>),
    Seed(u64),
}

impl Seat {
    /// `RandomAgent(pass_bias=...)`, drawing from the RNG [`agent_rng`] gives it.
    pub fn random(pass_bias: f64, own: &OwnRng) -> Result<Seat, RangeError> {
        Ok(Seat::Random {
            pass_bias,
            rng: Box::new(agent_rng(own)?),
        })
    }

    /// The engine's default agent of `seat` in the game of seed `game_seed`,
    /// `RandomAgent(agent_seed(game_seed, seat), pass_bias)`.
    pub fn default_random(game_seed: i64, seat: usize, pass_bias: f64) -> Seat {
        Seat::Random {
            pass_bias,
            rng: Box::new(Random::lazy(agent_seed(game_seed, seat))),
        }
    }

    /// A random seat's own generator (None: a seat that draws nothing).
    pub fn own_rng(&mut self) -> Option<&mut Random> {
        match self {
            Seat::Random { rng, .. } | Seat::Fighting { rng, .. } => Some(rng),
            Seat::First | Seat::Outside => None,
        }
    }

    /// The chosen option's index, drawn as the Python agent draws it: from its own RNG (the
    /// game's RNG is never touched by an agent); None for a seat answered from outside.
    pub fn choose(&mut self, decision: &Decision) -> Option<usize> {
        match self {
            Seat::First => Some(0),
            Seat::Random { pass_bias, rng } | Seat::Fighting { pass_bias, rng, .. } => {
                Some(choose_random(*pass_bias, decision, rng))
            }
            Seat::Outside => None,
        }
    }
}

/// The one place the agents' RNG is wired: `RandomAgent` draws from a `random.Random` of its
/// own (`self._rng`), seeded from its seed or the operating system; a player's view has no
/// RNG. The Python side (`hkk_native._core._seat`) hands over its state, or the seed of an
/// agent it makes itself (the engine's default agents, `RandomAgent(agent_seed(seed, seat))`).
pub fn agent_rng(own: &OwnRng) -> Result<Random, RangeError> {
    match own {
        OwnRng::State(words) => Random::from_state(words),
        // seeded with its game, beside the game's own (`Game::new`), else at its first draw: a
        // batch's seats, made before its games, hold no state
        OwnRng::Seed(seed) => Ok(Random::lazy(*seed)),
    }
}

/// `RandomAgent.choose`: for an action decision with more than one option, passing is
/// considered only with chance `pass_bias` (one `random()` drawn only when a pass is offered);
/// then one option uniformly (`randrange`).
pub fn choose_random(pass_bias: f64, decision: &Decision, rng: &mut Random) -> usize {
    let options = &decision.options;
    // `label.startswith("pass")` as one 4-byte comparison; a label written from a card is
    // never a pass
    let not_pass = |o: &&crate::decisions::Label| {
        o.literal()
            .and_then(|l| l.as_bytes().first_chunk::<4>())
            .is_none_or(|head| head != b"pass")
    };
    let action = options.len() > 1 && decision.kind == "action";
    let others = if action {
        options.iter().filter(not_pass).count()
    } else {
        options.len()
    };
    // the k-th option that is not a pass (none listed: nothing allocated)
    let nth_other = |k: usize| {
        options
            .iter()
            .enumerate()
            .filter(|(_, o)| not_pass(o))
            .nth(k)
            .map_or(0, |(i, _)| i)
    };
    choose_counted(pass_bias, action, options.len(), others, nth_other, rng)
}

/// [`choose_random`] told what it reads of the options: how many there are, whether it is an
/// action decision, how many of them are not passes and where the k-th of those is (an action
/// step's own seated decisions know it without labels: `steps::act`). The draws are the same.
pub fn choose_counted(
    pass_bias: f64,
    action: bool,
    options: usize,
    others: usize,
    nth_other: impl FnOnce(usize) -> usize,
    rng: &mut Random,
) -> usize {
    if options > 1 && action && others < options && rng.random() >= pass_bias && others != 0 {
        return nth_other(rng.below(others));
    }
    rng.below(options)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn agent_seed_is_the_python_engines() {
        // `hkk._agent_registry.agent_seed(seed, seat)` of each, printed by CPython
        let cases = [
            ((0, 0), 3_370_577_174_936_694_030),
            ((1, 1), 6_105_142_120_160_858_457),
            ((-5, 0), 9_315_211_219_912_334_482),
            ((i64::MAX, 1), 11_996_711_317_300_772_831),
            ((i64::MIN, 0), 13_658_019_374_951_133_880),
        ];
        for ((seed, seat), want) in cases {
            assert_eq!(agent_seed(seed, seat), want, "seed {seed}, seat {seat}");
        }
    }

    fn decision(kind: &'static str, options: &[&str]) -> Decision {
        Decision {
            kind,
            player: 0,
            options: options.iter().map(|o| (*o).to_string().into()).collect(),
            prompt: "".into(),
            rule: None,
        }
    }

    #[test]
    fn first_takes_the_first_option() {
        let d = decision("start", &["start", "hand over"]);
        assert_eq!(Seat::First.choose(&d), Some(0));
        assert_eq!(Seat::Outside.choose(&d), None);
    }

    #[test]
    fn random_on_a_plain_decision_is_one_randrange_of_its_own_rng() {
        let d = decision("start", &["start", "hand over"]);
        let mut reference = Random::new(5);
        let chosen = Seat::random(PASS_BIAS, &OwnRng::Seed(5))
            .unwrap()
            .choose(&d);
        assert_eq!(chosen, Some(reference.below(2)));
    }

    #[test]
    fn random_action_with_a_pass_draws_random_then_randrange() {
        // random.Random(11): random() then randrange over the non-pass options, as Python
        let d = decision("action", &["pass", "play:a", "play:b"]);
        let mut reference = Random::new(11);
        let mut seat = Seat::random(PASS_BIAS, &OwnRng::Seed(11)).unwrap();
        let chosen = seat.choose(&d).unwrap();
        let expected = if reference.random() >= PASS_BIAS {
            1 + reference.below(2)
        } else {
            reference.below(3)
        };
        assert_eq!(chosen, expected);
        let Seat::Random { rng, .. } = seat else {
            unreachable!()
        };
        assert_eq!(*rng, reference);
    }

    #[test]
    fn an_agent_from_a_state_draws_as_one_from_its_seed() {
        let own = OwnRng::State(Random::new(3).state());
        assert_eq!(agent_rng(&own).unwrap(), Random::new(3));
        assert!(agent_rng(&OwnRng::State(vec![1, 2])).is_err());
    }
}
