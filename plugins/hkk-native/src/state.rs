//! A game's players and permanents as plain data (`hkk._state`): a player's Ép, VP,
//! components, deck (top is the end), hand, graveyard and own turn number; a permanent's uid
//! (its timestamp), controller, zone, whether it is active, the damage it took.

use crate::cards::{CardId, CardPool};

/// K 3.12.
pub const STARTING_HP: i64 = 20;
pub const STARTING_VP: i64 = 0;

/// The zones of permanents (`hkk._state`): a number compared, the name written where logged.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Zone {
    Reserve,
    GuardPost,
    Buildings,
}

impl Zone {
    /// Its name in the Python engine (`hkk._state`).
    pub const fn name(self) -> &'static str {
        match self {
            Zone::Reserve => "reserve",
            Zone::GuardPost => "guard_post",
            Zone::Buildings => "buildings",
        }
    }
}

#[derive(Debug, PartialEq, Eq)]
pub struct Player {
    pub index: usize,
    pub hp: i64,
    pub vp: i64,
    pub components: i64,
    pub deck: Vec<CardId>,
    pub hand: Vec<CardId>,
    pub graveyard: Vec<CardId>,
    /// This player's own turn number (29.3).
    pub turns_taken: u32,
    /// VP received in the current turn's stage 1 (29.3.1).
    pub vp_received: i64,
}

crate::clone_fields!(Player {
    index,
    hp,
    vp,
    components,
    deck,
    hand,
    graveyard,
    turns_taken,
    vp_received
});

/// The room a hand is made with: the opening hand and a few cards more.
const HAND_ROOM: usize = 8;

impl Player {
    pub fn new(index: usize, deck: Vec<CardId>) -> Self {
        Player {
            index,
            hp: STARTING_HP,
            vp: STARTING_VP,
            components: 0,
            // room made once for what a game's zones usually reach, not grown from empty
            // card by card (a few reallocations each, a game)
            hand: Vec::with_capacity(HAND_ROOM),
            graveyard: Vec::with_capacity(deck.len()),
            deck,
            turns_taken: 0,
            vp_received: 0,
        }
    }
}

/// A creature or a building in play (`hkk._state.Permanent`), without abilities: its
/// characteristics are its card's, less the damage it took.
#[derive(Debug, PartialEq, Eq)]
pub struct Permanent {
    /// Also its timestamp: later permanents have larger uids.
    pub uid: u32,
    pub card: CardId,
    pub creature: bool,
    pub owner: usize,
    pub controller: usize,
    pub zone: Zone,
    /// Creatures enter the reserve passive (K 8.1.2).
    pub active: bool,
    pub damage_taken: i64,
    pub base_damage: i64,
    /// Ép, or a building's Sp (41.3).
    pub base_hp: i64,
    /// The monster components it offers when it dies (a creature's).
    pub components: i64,
    /// The sums of the lasting effects' modifiers on its damage, Ép and Sp.
    pub mod_damage: i64,
    pub mod_hp: i64,
    pub mod_sp: i64,
    /// Its named counters and how many of each (none of a name: not listed).
    pub counters: Vec<(std::sync::Arc<str>, i64)>,
    /// Its defence bonus: it raises max Ép until lost (41.4).
    pub defence_bonus: i64,
    /// The turn it was last damaged in (0: never).
    pub damaged_turn: u32,
    /// Its card has abilities (the ones a step may collect): the others are skipped unread.
    pub has_abilities: bool,
    /// Its card has a static ability (the others are skipped unread).
    pub has_statics: bool,
    /// Its card's `static_uses` (`cards::static_use`, `cards::PREVENTS`).
    pub static_uses: u8,
    /// Its card's `hooks` (`cards::hook_bit`).
    pub hooks: u64,
    /// Its card's `triggers` (`TriggerEvent::bit`): the trigger watch skips the others unread.
    pub triggers: u16,
}

crate::clone_fields!(Permanent {
    uid,
    card,
    creature,
    owner,
    controller,
    zone,
    active,
    damage_taken,
    base_damage,
    base_hp,
    components,
    mod_damage,
    mod_hp,
    mod_sp,
    counters,
    defence_bonus,
    damaged_turn,
    has_abilities,
    has_statics,
    static_uses,
    hooks,
    triggers
});

impl Permanent {
    /// `"<card id>#<uid>"`, as labels write it.
    pub fn describe(&self, cards: &CardPool) -> String {
        card_label("", cards.name(self.card), self.uid)
    }

    /// `hkk._characteristics.hp` without statics (`Game::hp` adds them): max Ép (with the
    /// lasting effects and the defence bonus) less the damage taken.
    pub fn hp(&self) -> i64 {
        let mods = if self.creature {
            self.mod_hp
        } else {
            self.mod_sp
        };
        self.base_hp + mods + self.defence_bonus - self.damage_taken
    }
}

/// What the permanents in play have, counted as they enter and leave play
/// (`Game::enter_play`, `Game::leave_play`): how many have an ability timed on each hook (by
/// its `cards::hook_bit`'s place) and how many have a static ability. A step whose hook no
/// permanent has, or a read of the statics while none is in play, skips the walk over them.
/// Also each permanent's place in the list by its uid (`Game::place`): looked up some 1,300
/// times a game, by halving it cost ~3 % of a game.
#[derive(Debug, PartialEq, Eq)]
pub struct InPlay {
    hooks: [u16; InPlay::HOOKS],
    statics: u16,
    preventers: u16,
    /// By uid: its place in `Game::permanents` plus one, 0 for a uid not in play.
    slots: Vec<u16>,
    /// The sum of the permanents' cards' `static_hp_floor`s (kept by `Game::enter_play` and
    /// `Game::leave_play`): the most the statics in play could take from one's Ép.
    pub hp_floor: i64,
    /// Masks of places in the list, a bit a place: by hook (its bit's place), the
    /// permanents with an ability timed on it; then by static use (`cards::static_use`'s and
    /// `cards::PREVENTS`' bit places), those whose statics have it; then by [`Fact`], those
    /// it holds of (kept as a permanent enters, leaves or changes: `InPlay::refresh`,
    /// `InPlay::set`). A walk that filtered the list for them branched on each permanent one
    /// way or the other as the game dealt them, and those mispredictions were most of its
    /// time (docs/NATIVE.md, the branches); the set bits are walked instead. They hold the
    /// first 64 places; the rare permanents past them are walked. One array, so that a
    /// permanent leaving play shifts them all in one plain loop.
    masks: [u64; InPlay::MASKS],
}

/// What the walks over the permanents filter on, a mask each in [`InPlay`]: who controls
/// it, what it is, where it stands, whether it is active and has a defence bonus.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fact {
    OfFirst,
    OfSecond,
    Creature,
    Building,
    Active,
    Reserve,
    GuardPost,
    DefenceBonus,
}

impl Fact {
    pub const COUNT: usize = 8;
    const ALL: [Fact; Fact::COUNT] = [
        Fact::OfFirst,
        Fact::OfSecond,
        Fact::Creature,
        Fact::Building,
        Fact::Active,
        Fact::Reserve,
        Fact::GuardPost,
        Fact::DefenceBonus,
    ];

    /// Controlled by `player`.
    pub fn of(player: usize) -> Fact {
        if player == 0 {
            Fact::OfFirst
        } else {
            Fact::OfSecond
        }
    }

    /// It holds of `perm`.
    pub fn holds(self, perm: &Permanent) -> bool {
        match self {
            Fact::OfFirst => perm.controller == 0,
            Fact::OfSecond => perm.controller == 1,
            Fact::Creature => perm.creature,
            Fact::Building => !perm.creature,
            Fact::Active => perm.active,
            Fact::Reserve => perm.zone == Zone::Reserve,
            Fact::GuardPost => perm.zone == Zone::GuardPost,
            Fact::DefenceBonus => perm.defence_bonus != 0,
        }
    }
}

crate::clone_fields!(InPlay {
    hooks,
    statics,
    preventers,
    slots,
    hp_floor,
    masks
});

impl Default for InPlay {
    fn default() -> Self {
        InPlay {
            hooks: [0; InPlay::HOOKS],
            statics: 0,
            preventers: 0,
            slots: Vec::new(),
            hp_floor: 0,
            masks: [0; InPlay::MASKS],
        }
    }
}

/// The places a mask's set bits stand for, in order.
#[derive(Debug, Clone, Copy)]
pub struct Places(pub u64);

impl Iterator for Places {
    type Item = usize;

    fn next(&mut self) -> Option<usize> {
        if self.0 == 0 {
            return None;
        }
        let at = self.0.trailing_zeros() as usize;
        self.0 &= self.0 - 1;
        Some(at)
    }
}

/// Each set bit's place of `bits` (a `u64` hook set or a `u8` of static uses).
fn bit_places(mut bits: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (bits != 0).then(|| {
            let at = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            at
        })
    })
}

impl InPlay {
    /// The hooks a card's abilities may be timed on: `cards::hook_bit`'s places.
    const HOOKS: usize = crate::phases::DEFAULT_TURN.len() + 1;
    /// Where the static uses' masks begin in `masks`, and the facts'.
    const USES: usize = Self::HOOKS;
    const FACTS: usize = Self::USES + 8;
    const MASKS: usize = Self::FACTS + Fact::COUNT;

    /// `perm` enters play (`by` 1) or leaves it (`by` -1).
    fn count(&mut self, perm: &Permanent, by: i16) {
        let mut hooks = perm.hooks;
        while hooks != 0 {
            let at = hooks.trailing_zeros() as usize;
            self.hooks[at] = self.hooks[at].wrapping_add_signed(by);
            hooks &= hooks - 1;
        }
        if perm.has_statics {
            self.statics = self.statics.wrapping_add_signed(by);
        }
        if perm.static_uses & crate::cards::PREVENTS != 0 {
            self.preventers = self.preventers.wrapping_add_signed(by);
        }
    }

    /// `perm` enters play at place `at` of the list (its end: its uid is the largest).
    pub fn entered(&mut self, perm: &Permanent, at: usize) {
        self.count(perm, 1);
        let uid = perm.uid as usize;
        if self.slots.len() <= uid {
            self.slots.resize(uid + 1, 0);
        }
        self.slots[uid] = u16::try_from(at + 1).expect("fewer than 65,535 permanents in play");
        if at < Self::PAST {
            self.mark(perm, at);
        }
    }

    /// `perm`'s place `at` set in its hooks', static uses' and facts' masks.
    fn mark(&mut self, perm: &Permanent, at: usize) {
        for hook in bit_places(perm.hooks) {
            self.masks[hook] |= 1 << at;
        }
        for used in bit_places(u64::from(perm.static_uses)) {
            self.masks[Self::USES + used] |= 1 << at;
        }
        self.refresh(perm, at);
    }

    /// `perm`'s facts read again, at its place `at`: called wherever one of them changes
    /// (`Game::refresh_facts`).
    pub fn refresh(&mut self, perm: &Permanent, at: usize) {
        if at >= Self::PAST {
            return;
        }
        let bit = 1u64 << at;
        for fact in Fact::ALL {
            let mask = &mut self.masks[Self::FACTS + fact as usize];
            *mask = (*mask & !bit) | (u64::from(fact.holds(perm)) << at);
        }
    }

    /// The fact now holds of the permanent at place `at`, or no longer does: where one
    /// change makes one fact (a zone changes two: [`InPlay::refresh`]).
    pub fn set(&mut self, fact: Fact, at: usize, holds: bool) {
        if at < Self::PAST {
            let mask = &mut self.masks[Self::FACTS + fact as usize];
            *mask = (*mask & !(1 << at)) | (u64::from(holds) << at);
        }
    }

    /// `perm` left play from place `at`; `list` is the list without it (the permanents from
    /// `at` on are each one place earlier now).
    pub fn left(&mut self, perm: &Permanent, at: usize, list: &[Permanent]) {
        self.count(perm, -1);
        self.slots[perm.uid as usize] = 0;
        for p in &list[at..] {
            self.slots[p.uid as usize] -= 1;
        }
        if at >= Self::PAST {
            return; // past the masks
        }
        // every mask's places past `at` one lower, its bit at `at` gone
        let below = (1u64 << at) - 1;
        for mask in &mut self.masks {
            *mask = (*mask & below) | ((*mask >> 1) & !below);
        }
        if let Some(moved) = list.get(Self::PAST - 1) {
            self.mark(moved, Self::PAST - 1); // the permanent that was the first past them
        }
    }

    /// The places among the first 64 of the permanents with an ability timed on the hook
    /// whose bit this is, in order (those past them: [`InPlay::PAST`] on, walked).
    pub fn hooked_places(&self, bit: u64) -> Places {
        Places(self.hooked_mask(bit))
    }

    /// [`InPlay::hooked_places`] as a mask.
    pub fn hooked_mask(&self, bit: u64) -> u64 {
        self.masks[bit.trailing_zeros() as usize]
    }

    /// The places among the first 64 of the permanents whose statics have the use whose bit
    /// this is (`cards::static_use`, `cards::PREVENTS`), in order.
    pub fn use_places(&self, bit: u8) -> Places {
        Places(self.masks[Self::USES + (bit.trailing_zeros() as usize & 7)])
    }

    /// The first place the masks (a bit a place) do not hold.
    pub const PAST: usize = u64::BITS as usize;

    /// The places among the first 64 of the permanents the fact holds of, as a mask.
    pub fn fact(&self, fact: Fact) -> u64 {
        self.masks[Self::FACTS + fact as usize]
    }

    /// The places of a list of `len` permanents a mask of [`InPlay::fact`]s selects, in
    /// order, then every place past the masks (the caller tests those; the masked ones pass).
    pub fn places(mask: u64, len: usize) -> impl Iterator<Item = usize> {
        Places(mask).chain(Self::PAST..len.max(Self::PAST))
    }

    /// The place in the list of the permanent with this uid, if in play.
    pub fn place(&self, uid: u32) -> Option<usize> {
        match self.slots.get(uid as usize) {
            Some(&slot) if slot != 0 => Some(usize::from(slot) - 1),
            _ => None,
        }
    }

    /// Some permanent in play has an ability timed on the hook whose bit this is.
    pub fn hooked(&self, bit: u64) -> bool {
        self.hooked_count(bit) != 0
    }

    /// How many permanents in play have an ability timed on the hook whose bit this is: a
    /// walk looking for them stops at the last.
    pub fn hooked_count(&self, bit: u64) -> usize {
        usize::from(self.hooks[bit.trailing_zeros() as usize])
    }

    /// Some permanent in play has a static ability.
    pub fn statics(&self) -> bool {
        self.statics != 0
    }

    /// Some permanent in play has a static ability that prevents.
    pub fn preventers(&self) -> bool {
        self.preventers != 0
    }
}

/// A dead creature's components its opponent may extract until the end of `phase`
/// (D-components-window).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExtractionOffer {
    pub card: CardId,
    pub uid: u32,
    pub count: i64,
    pub player: usize,
    pub phase: &'static str,
}

impl ExtractionOffer {
    pub fn label(&self, cards: &CardPool) -> String {
        card_label("extract ", cards.name(self.card), self.uid)
    }

    /// [`ExtractionOffer::label`] as a [`crate::events::Text`] (written only when read).
    pub fn text(&self) -> crate::events::Text {
        crate::events::Text::Card {
            prefix: crate::events::Prefix::Extract,
            card: self.card,
            uid: self.uid,
        }
    }
}

/// Appends `n` in decimal. Labels and sources are written by hand rather than by `format!`:
/// at the full level the log makes thousands a game, and the formatting machinery cost
/// several times the text's own copying.
pub fn push_uint(text: &mut String, n: u64) {
    let mut digits = [0u8; 20];
    let mut at = digits.len();
    let mut n = n;
    loop {
        at -= 1;
        digits[at] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    text.extend(digits[at..].iter().map(|&d| char::from(d)));
}

/// `"<prefix><card id>#<uid>"` (`format!("{prefix}{card}#{uid}")`, see [`push_uint`]).
pub fn card_label(prefix: &str, card: &str, uid: u32) -> String {
    let mut text = String::with_capacity(prefix.len() + card.len() + 8);
    text.push_str(prefix);
    text.push_str(card);
    text.push('#');
    push_uint(&mut text, u64::from(uid));
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A permanent of uid `uid` whose hooks and static uses are drawn from its uid.
    fn dealt(uid: u32) -> Permanent {
        Permanent {
            uid,
            card: CardId(0),
            creature: !uid.is_multiple_of(3),
            owner: 0,
            controller: (uid % 2) as usize,
            zone: [Zone::Reserve, Zone::GuardPost, Zone::Buildings][(uid % 5 % 3) as usize],
            active: uid % 7 < 4,
            damage_taken: 0,
            base_damage: 0,
            base_hp: 1,
            components: 0,
            mod_damage: 0,
            mod_hp: 0,
            mod_sp: 0,
            counters: Vec::new(),
            defence_bonus: 0,
            damaged_turn: 0,
            has_abilities: true,
            has_statics: true,
            static_uses: (uid.wrapping_mul(2_654_435_761) >> 24) as u8,
            hooks: (u64::from(uid.wrapping_mul(40_503)) << (uid % 33)) % (1 << InPlay::HOOKS),
            triggers: 0,
        }
    }

    #[test]
    fn in_plays_places_are_the_lists_as_permanents_enter_change_and_leave_past_sixty_four() {
        // the list as `Game::enter_play` and `Game::leave_play` keep it, its masks read
        // against it filtered after every change
        let (mut list, mut in_play) = (Vec::new(), InPlay::default());
        let mut uid = 0;
        let (mut seed, mut max) = (12_345u32, 0);
        for round in 0..600 {
            seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12_345);
            let grow = if round < 300 {
                seed % 3 != 0
            } else {
                seed % 3 == 0
            };
            if grow || list.is_empty() {
                uid += 1;
                let perm = dealt(uid);
                in_play.entered(&perm, list.len());
                list.push(perm);
            } else {
                let at = (seed >> 8) as usize % list.len();
                let perm: Permanent = list.remove(at);
                in_play.left(&perm, at, &list);
            }
            // one permanent changes what a walk may filter it on, as the game changes it
            if !list.is_empty() {
                let at = (seed >> 12) as usize % list.len();
                let perm = &mut list[at];
                match seed % 4 {
                    0 => {
                        // one fact changed, set alone (`InPlay::set`)
                        perm.active = !perm.active;
                        in_play.set(Fact::Active, at, perm.active);
                    }
                    1 => perm.zone = Zone::GuardPost,
                    2 => perm.defence_bonus = i64::from(seed % 8 < 4),
                    _ => {}
                }
                if seed % 4 != 0 {
                    in_play.refresh(&list[at], at);
                }
            }
            let filtered = |test: &dyn Fn(&Permanent) -> bool| -> Vec<usize> {
                (0..list.len()).filter(|&i| test(&list[i])).collect()
            };
            // the masks' places, then the list's past them filtered: the list filtered
            let both = |places: Places, test: &dyn Fn(&Permanent) -> bool| -> Vec<usize> {
                let past = (InPlay::PAST..list.len()).filter(|&i| test(&list[i]));
                places.chain(past).collect()
            };
            for hook in 0..InPlay::HOOKS {
                let bit = 1u64 << hook;
                let test = |p: &Permanent| p.hooks & bit != 0;
                let places = both(in_play.hooked_places(bit), &test);
                assert_eq!(places, filtered(&test), "round {round}, hook {hook}");
            }
            for used in 0..8 {
                let bit = 1u8 << used;
                let test = |p: &Permanent| p.static_uses & bit != 0;
                let places = both(in_play.use_places(bit), &test);
                assert_eq!(places, filtered(&test), "round {round}, use {used}");
            }
            for fact in Fact::ALL {
                let test = |p: &Permanent| fact.holds(p);
                let places = both(Places(in_play.fact(fact)), &test);
                assert_eq!(places, filtered(&test), "round {round}, {fact:?}");
            }
            max = max.max(list.len());
        }
        assert!(max > 80, "the list grew past 64 ({max}) and shrank again");
    }

    #[test]
    fn labels_written_by_hand_are_what_format_writes() {
        for n in [0, 7, 10, 99, 12_345, u64::from(u32::MAX), u64::MAX] {
            let mut text = String::from("x");
            push_uint(&mut text, n);
            assert_eq!(text, format!("x{n}"));
        }
        assert_eq!(card_label("use guard ", "t:c01", 40), "use guard t:c01#40");
    }
}
