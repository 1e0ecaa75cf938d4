//! Why a game stops before its next step (`hkk._errors.GameOver`, what is not native yet, and a
//! seat answered from outside that must decide: `hkk._forward.Stop`).

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Halt {
    /// The game is over (`GameOver`): `game_over` is logged.
    GameOver,
    /// The game reached something the native core does not run yet; the reason names it.
    Unported(String),
    /// A seat answered from outside must decide (`game.waiting` holds the decision): the step
    /// is left here and run again from its checkpoint once answered (`forward`).
    Decision,
    /// An action step stopped between two decisions for the driver to keep a checkpoint
    /// there (`game.resume` says where); `runner::advance` goes on from it.
    Pause,
}

pub type Flow = Result<(), Halt>;
