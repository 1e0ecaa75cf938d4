//! A decision waited for: its kind, the player, the options' labels in order, the prompt and
//! the rule point (`hkk._decisions.Decision`).

use crate::cards::CardPool;
use crate::events::Text;
use std::borrow::Cow;

/// An option's label (or a prompt): the fixed ones (`pass`, `decline`...) borrowed, the others
/// kept as what they are made of and written only when read ([`Text`]): a seated game
/// allocates none, and its log keeps the chosen one as it is. One written by hand (a player
/// named from outside, a prompt) is owned: the log copies it beside its events
/// ([`crate::events::Choice::Logged`]), whose texts own nothing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Label {
    Text(Text),
    Owned(Box<str>),
}

impl Default for Label {
    fn default() -> Self {
        Label::Text(Text::default())
    }
}

impl From<Text> for Label {
    fn from(text: Text) -> Self {
        Label::Text(text)
    }
}

impl From<&'static str> for Label {
    fn from(text: &'static str) -> Self {
        Label::Text(Text::Borrowed(text))
    }
}

impl From<String> for Label {
    fn from(text: String) -> Self {
        Label::Owned(text.into_boxed_str())
    }
}

impl Label {
    /// The label, written with the card ids' strings of `cards` (the game's pool).
    pub fn render<'a>(&'a self, cards: &CardPool) -> Cow<'a, str> {
        match self {
            Label::Text(text) => text.render(cards),
            Label::Owned(text) => Cow::Borrowed(text),
        }
    }

    /// The label when it is written out already; None for one written from a card.
    pub fn literal(&self) -> Option<&str> {
        match self {
            Label::Text(text) => text.literal(),
            Label::Owned(text) => Some(text),
        }
    }
}

/// A literal compared with a label (as [`Text`]'s).
impl PartialEq<&str> for Label {
    fn eq(&self, other: &&str) -> bool {
        self.literal() == Some(*other)
    }
}

impl PartialEq<str> for Label {
    fn eq(&self, other: &str) -> bool {
        self.literal() == Some(other)
    }
}

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
