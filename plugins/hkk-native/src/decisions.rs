//! A decision waited for: its kind, the player, the options' labels in order, the prompt and
//! the rule point (`hkk._decisions.Decision`).

use std::borrow::Cow;

/// An option's label: the fixed ones (`pass`, `decline`...) borrowed, the others made only
/// when shown (`Game::option`), so a seated game at the outcome level allocates none.
pub type Label = Cow<'static, str>;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decision {
    pub kind: &'static str,
    pub player: usize,
    pub options: Vec<Label>,
    /// The question as the Python engine asks it ("Which happens next?", "Block X#3?"):
    /// made only when the decision is shown outside (`Game::prompt`).
    pub prompt: Label,
    pub rule: Option<&'static str>,
}
