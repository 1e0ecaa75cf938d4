//! A game's players as plain data (`hkk._state.Player`): Ép, VP, components, deck (top is the
//! end), hand, and his own turn number.

/// K 3.12.
pub const STARTING_HP: i64 = 20;
pub const STARTING_VP: i64 = 0;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Player {
    pub index: usize,
    pub hp: i64,
    pub vp: i64,
    pub components: i64,
    pub deck: Vec<String>,
    pub hand: Vec<String>,
    /// This player's own turn number (29.3).
    pub turns_taken: u32,
    /// VP received in the current turn's stage 1 (29.3.1).
    pub vp_received: i64,
}

impl Player {
    pub fn new(index: usize, deck: Vec<String>) -> Self {
        Player {
            index,
            hp: STARTING_HP,
            vp: STARTING_VP,
            components: 0,
            deck,
            hand: Vec::new(),
            turns_taken: 0,
            vp_received: 0,
        }
    }
}
