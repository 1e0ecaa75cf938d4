//! A decision waited for: its kind, the player, the options' labels in order, the prompt and
//! the rule point (`hkk._decisions.Decision`).

/// An option's label: the fixed ones (`pass`, `decline`...) borrowed, the others kept as what
/// they are made of and written only when read ([`crate::events::Text`]): a seated game
/// allocates none, and its log keeps the chosen one as it is.
pub type Label = crate::events::Text;

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
