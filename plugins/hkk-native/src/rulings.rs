//! The engine's answers where the rules leave a choice, and its limits (`hkk._rulings.Rulings`,
//! docs/RULINGS.md): handed over by the Python engine with its cards, read by every game of
//! them.

/// `hkk.Rulings`, each field as the Python one says (the choices as flags).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rulings {
    /// D-empty-deck: a player who must draw from an empty deck loses.
    pub empty_deck_loses: bool,
    /// D-vp-carry: unspent VP carries over to the next turn.
    pub unspent_vp_carries_over: bool,
    /// D-orderer: the active player orders where no rule names anyone (`"active"`); else
    /// nobody decides and the stable order is used (`"stable"`).
    pub active_orders: bool,
    /// D-until-preparation: "until the preparation phase" ends only its controller's own
    /// (`"controller"`), not at the next one whoever's turn (`"next"`).
    pub until_own_preparation: bool,
    /// D-counted-turns: a "for N turns" effect counts only its controller's own turns
    /// (`"own"`), not every turn (`"every"`).
    pub counts_own_turns: bool,
    /// D-deferred-check: deaths at the deferred Ép check (41.4 supplement) give components.
    pub deferred_check_gives_components: bool,
    /// D-turn-limit: a game still running after this many turns is a draw.
    pub max_turns: u32,
    /// A step with more items or actions than this is an error in the Python engine.
    pub max_items_per_step: usize,
    /// D-trigger-order: the active player orders the triggered items waiting at once
    /// (`"active"`); else the stable order (`"stable"`).
    pub active_orders_triggers: bool,
    /// D-trigger-loop: the longest chain of triggers setting off triggers.
    pub max_trigger_chain: usize,
    /// D-trigger-loop: the triggers one cause may set off.
    pub max_triggers_per_cause: usize,
    /// D-work-limit: the triggered items a turn, and a whole game, may resolve.
    pub max_triggers_per_turn: u64,
    pub max_triggers_per_game: u64,
    /// D-no-target: a spell whose every effect acts on a chosen permanent is offered only
    /// while there is one to choose.
    pub spells_need_a_choice: bool,
}

impl Default for Rulings {
    /// `hkk.Rulings()`.
    fn default() -> Self {
        Rulings {
            empty_deck_loses: true,
            unspent_vp_carries_over: true,
            active_orders: true,
            until_own_preparation: false,
            counts_own_turns: false,
            deferred_check_gives_components: false,
            max_turns: 400,
            max_items_per_step: 500,
            active_orders_triggers: true,
            max_trigger_chain: 50,
            max_triggers_per_cause: 500,
            max_triggers_per_turn: 2_000,
            max_triggers_per_game: 20_000,
            spells_need_a_choice: false,
        }
    }
}
