//! The cards as the Python engine loaded and checked them (`hkk._cards.model`), handed over as
//! plain data: the native core never reads a card file. Each card carries the words of the card
//! language it uses (`do = "damage"`, `timing = "main_phase"`, ...); a word the native core does
//! not implement is refused by name, with its card, when a game is built.

use std::collections::HashMap;

/// One word of the card language, where a card uses it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Word {
    /// Where in the card: `card`, `ability 1`, `ability 1 effect 2`, ...
    pub place: String,
    /// The word as the card file writes it: `do = "damage"`.
    pub word: String,
}

/// A card's data: what the native turn machine reads, and the words it must implement.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Card {
    pub id: String,
    /// `creature`, `spell` or `building`.
    pub kind: String,
    /// The cost to play it (`cost.vp`, `cost.components`).
    pub cost_vp: i64,
    pub cost_components: i64,
    /// An instant spell (D-instants: either player, outside the preparation phase).
    pub instant: bool,
    /// A creature's damage (0 for others), its Ép or a building's Sp (0 for spells), and the
    /// monster components a dead creature offers.
    pub damage: i64,
    pub hp: i64,
    pub components: i64,
    pub words: Vec<Word>,
}

/// The words the native core implements. Cards without words (creatures and buildings with no
/// ability) are played natively; no ability word is native yet, so every word is refused by
/// name until it lands here together with the differential tests that prove it.
pub const IMPLEMENTED: &[&str] = &[];

/// The cards of an engine, by id.
#[derive(Debug, Default, Clone)]
pub struct CardPool {
    cards: HashMap<String, Card>,
}

impl CardPool {
    pub fn new(cards: Vec<Card>) -> Self {
        CardPool {
            cards: cards.into_iter().map(|c| (c.id.clone(), c)).collect(),
        }
    }

    pub fn get(&self, id: &str) -> Option<&Card> {
        self.cards.get(id)
    }

    pub fn len(&self) -> usize {
        self.cards.len()
    }

    pub fn is_empty(&self) -> bool {
        self.cards.is_empty()
    }

    /// The first word of a card the native core does not implement, as a refusal.
    pub fn unported_word(&self, id: &str) -> Option<String> {
        let card = self.get(id)?;
        card.words
            .iter()
            .find(|w| !IMPLEMENTED.contains(&w.word.as_str()))
            .map(|word| {
                format!(
                    "card {id}: the word `{}` ({}) is not implemented by the native core",
                    word.word, word.place
                )
            })
    }

    /// Why these decks cannot be played natively: the first unknown card or word not
    /// implemented (cards in sorted order, so the answer does not depend on deck order).
    pub fn refusal(&self, decks: &[Vec<String>]) -> Option<String> {
        let mut ids: Vec<&String> = decks.iter().flatten().collect();
        ids.sort();
        ids.dedup();
        for id in ids {
            let Some(card) = self.get(id) else {
                return Some(format!("card {id}: not among the engine's cards"));
            };
            if let Some(reason) = self.unported_word(&card.id) {
                return Some(reason);
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn card(id: &str, words: &[&str]) -> Card {
        Card {
            id: id.into(),
            kind: "creature".into(),
            cost_vp: 1,
            cost_components: 0,
            instant: false,
            damage: 1,
            hp: 1,
            components: 0,
            words: words
                .iter()
                .map(|w| Word {
                    place: "ability 1".into(),
                    word: (*w).into(),
                })
                .collect(),
        }
    }

    #[test]
    fn a_card_without_words_is_accepted() {
        let pool = CardPool::new(vec![card("t:vanilla", &[])]);
        assert_eq!(pool.refusal(&[vec!["t:vanilla".into()]]), None);
    }

    #[test]
    fn a_word_not_implemented_is_refused_naming_card_and_word() {
        let pool = CardPool::new(vec![card("t:a", &[]), card("t:b", &["do = \"damage\""])]);
        let reason = pool
            .refusal(&[vec!["t:a".into()], vec!["t:b".into()]])
            .unwrap();
        assert!(reason.contains("t:b"), "{reason}");
        assert!(reason.contains("do = \"damage\""), "{reason}");
    }

    #[test]
    fn an_unknown_card_is_refused() {
        let pool = CardPool::new(vec![]);
        assert!(pool.refusal(&[vec!["t:x".into()]]).unwrap().contains("t:x"));
    }
}
