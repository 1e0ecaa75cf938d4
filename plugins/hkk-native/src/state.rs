//! A game's players as plain data (`hkk._state.Player`): deck (top is the end), hand.

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Player {
    pub index: usize,
    pub deck: Vec<String>,
    pub hand: Vec<String>,
}

impl Player {
    pub fn new(index: usize, deck: Vec<String>) -> Self {
        Player {
            index,
            deck,
            hand: Vec::new(),
        }
    }
}
