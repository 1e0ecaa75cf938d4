//! The native agents: seated random and first-legal players that draw exactly as
//! `hkk._agents.RandomAgent` and `FirstLegalAgent` do, so that a seated game never crosses into
//! Python per decision.

use crate::decisions::Decision;
use crate::rng::{Random, RangeError};

/// `RandomAgent`'s default chance of considering a pass at all.
pub const PASS_BIAS: f64 = 0.25;

/// Who answers a seat's decisions.
#[derive(Debug, Clone)]
pub enum Seat {
    /// `RandomAgent(seed, pass_bias)`: its own RNG when seeded, else the game's.
    Random {
        pass_bias: f64,
        own: Option<Box<Random>>,
    },
    /// `FirstLegalAgent`: the first option.
    First,
}

impl Seat {
    /// `RandomAgent(pass_bias=...)`, drawing from the RNG [`agent_rng`] gives it.
    pub fn random(pass_bias: f64, own_state: Option<&[u32]>) -> Result<Seat, RangeError> {
        Ok(Seat::Random {
            pass_bias,
            own: agent_rng(own_state)?,
        })
    }

    /// The chosen option's index, drawn as the Python agent draws it.
    pub fn choose(&mut self, decision: &Decision, game_rng: &mut Random) -> usize {
        match self {
            Seat::First => 0,
            Seat::Random { pass_bias, own } => {
                let rng = own.as_deref_mut().unwrap_or(game_rng);
                choose_random(*pass_bias, decision, rng)
            }
        }
    }
}

/// The one place the agents' RNG is wired: an agent with an RNG of its own (`RandomAgent(seed)`)
/// draws from a copy of that RNG's state (`getstate()[1]`, 625 words); one without draws from
/// the game's RNG, as `RandomAgent.choose` does today (`self._rng or game.rng`). When the Python
/// agent moves to an RNG of its own seeded from the game's seed and the seat, this function (and
/// its callers' argument, `hkk_native._core._seat`) is what changes.
pub fn agent_rng(own_state: Option<&[u32]>) -> Result<Option<Box<Random>>, RangeError> {
    own_state
        .map(|state| Random::from_state(state).map(Box::new))
        .transpose()
}

/// `RandomAgent.choose`: for an action decision with more than one option, passing is
/// considered only with chance `pass_bias` (one `random()` drawn only when a pass is offered);
/// then one option uniformly (`randrange`).
fn choose_random(pass_bias: f64, decision: &Decision, rng: &mut Random) -> usize {
    let options = &decision.options;
    if decision.kind == "action" && options.len() > 1 {
        let others: Vec<usize> = (0..options.len())
            .filter(|&i| !options[i].starts_with("pass"))
            .collect();
        if others.len() < options.len() && rng.random() >= pass_bias && !others.is_empty() {
            return others[rng.below(others.len())];
        }
    }
    rng.below(options.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decision(kind: &'static str, options: &[&str]) -> Decision {
        Decision {
            kind,
            player: 0,
            options: options.iter().map(|o| (*o).to_string()).collect(),
            rule: None,
        }
    }

    #[test]
    fn first_takes_the_first_option() {
        let mut rng = Random::new(0);
        let d = decision("start", &["start", "hand over"]);
        assert_eq!(Seat::First.choose(&d, &mut rng), 0);
        assert_eq!(rng, Random::new(0), "the first agent draws nothing");
    }

    #[test]
    fn random_on_a_plain_decision_is_one_randrange() {
        let d = decision("start", &["start", "hand over"]);
        let mut rng = Random::new(5);
        let mut reference = Random::new(5);
        let chosen = Seat::random(PASS_BIAS, None).unwrap().choose(&d, &mut rng);
        assert_eq!(chosen, reference.below(2));
        assert_eq!(rng, reference);
    }

    #[test]
    fn random_action_with_a_pass_draws_random_then_randrange() {
        // random.Random(11): random() then randrange over the non-pass options, as Python
        let d = decision("action", &["pass", "play:a", "play:b"]);
        let mut rng = Random::new(11);
        let mut reference = Random::new(11);
        let chosen = Seat::random(PASS_BIAS, None).unwrap().choose(&d, &mut rng);
        let expected = if reference.random() >= PASS_BIAS {
            1 + reference.below(2)
        } else {
            reference.below(3)
        };
        assert_eq!(chosen, expected);
        assert_eq!(rng, reference);
    }

    #[test]
    fn a_seeded_agent_leaves_the_game_rng_alone() {
        let d = decision("start", &["start", "hand over"]);
        let mut rng = Random::new(1);
        let own = Random::new(3).state();
        Seat::random(PASS_BIAS, Some(&own))
            .unwrap()
            .choose(&d, &mut rng);
        assert_eq!(rng, Random::new(1));
    }
}
