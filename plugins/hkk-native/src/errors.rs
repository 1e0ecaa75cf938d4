//! Why a game stops before its next step (`hkk._errors.GameOver`, and what is not native yet).

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Halt {
    /// The game is over (`GameOver`): `game_over` is logged.
    GameOver,
    /// The game reached something the native core does not run yet; the reason names it.
    Unported(String),
}

pub type Flow = Result<(), Halt>;
