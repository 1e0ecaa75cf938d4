//! The cards as the Python engine loaded and checked them (`hkk._cards.model`), handed over as
//! plain data: the native core never reads a card file. Each card carries the words of the card
//! language it uses (`do = "damage"`, `timing = "main_phase"`, ...); a word the native core does
//! not implement is refused by name, with its card, when a game is built.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use crate::conditions::{Condition, PlainCondition};
use crate::continuous::Stat;
use crate::effects::{parse, Effect, PlainEffect, TargetSpec};

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
    /// An instant spell (D-instants: either player, outside the preparation phase); false
    /// for a card of another kind.
    pub instant: bool,
    /// A creature's damage (0 for others), its Ép or a building's Sp (0 for spells), and the
    /// monster components a dead creature offers.
    pub damage: i64,
    pub hp: i64,
    pub components: i64,
    /// The words of everything but a spell's effects (abilities, play conditions): none is
    /// native yet.
    pub words: Vec<Word>,
    /// A spell's effects, the implemented ones (`effects`).
    pub effects: Vec<Effect>,
    /// Its abilities, the implemented ones (automatic, timed on `TIMINGS`).
    pub abilities: Vec<Ability>,
    /// Why the card cannot be played natively, if it cannot: its first word not implemented.
    pub refused: Option<String>,
    /// It has a static ability.
    pub has_statics: bool,
    /// What its static abilities do, as [`static_use`] bits: the stats they modify and
    /// whether one prevents (0: none); a walk for one of them skips the other cards unread.
    pub static_uses: u8,
    /// The most its static abilities can take from an Ép or Sp (the sum of their negative
    /// Ép/Sp modifiers, whatever their conditions and targets; 0 for none): the Ép check
    /// reads the modifiers in force only when some permanent is within reach of 0.
    pub static_hp_floor: i64,
    /// The hooks its abilities are timed on, as [`hook_bit`]s: the steps that find none skip
    /// it unread.
    pub hooks: u64,
    /// The trigger events its triggered abilities watch, as [`TriggerEvent::bit`]s (0: none).
    pub triggers: u16,
    /// "Csak akkor játszható ki, ha ...": it may be played only while this holds for its
    /// player (`play_condition`).
    pub play_condition: Option<Condition>,
}

/// A static ability's bit in [`Card::static_uses`] for a modifier of `stat`.
pub const fn static_use(stat: Stat) -> u8 {
    1 << stat as u8
}

/// [`Card::static_uses`]'s bit for a prevention.
pub const PREVENTS: u8 = 1 << 7;

/// A hook's bit: its step's index in `phases::DEFAULT_TURN`, one more for any other timing
/// (`on_enter`).
pub fn hook_bit(hook: &str) -> u64 {
    let steps = crate::phases::DEFAULT_TURN;
    1 << steps
        .iter()
        .position(|s| s.hook == hook)
        .unwrap_or(steps.len())
}

impl Card {
    /// A card from the Python side's plain data; its words and effects are checked here.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        id: String,
        kind: String,
        numbers: (i64, i64, i64, i64, i64),
        instant: bool,
        words: Vec<Word>,
        effects: &[PlainEffect],
        abilities: &[PlainAbility],
    ) -> Card {
        let mut refused = words.first().map(|w| {
            format!(
                "card {id}: the word `{}` ({}) is not implemented by the native core",
                w.word, w.place
            )
        });
        let mut parsed = Vec::new();
        for plain in effects {
            match parse(plain) {
                Ok(effect) => parsed.push(effect),
                Err(word) if refused.is_none() => {
                    refused = Some(format!(
                        "card {id}: the word {word} is not implemented by the native core"
                    ));
                }
                Err(_) => {}
            }
        }
        let mut native = Vec::new();
        for plain in abilities {
            match plain.parse() {
                Ok(ability) => native.push(ability),
                Err(word) if refused.is_none() => {
                    refused = Some(format!(
                        "card {id}: the word {word} is not implemented by the native core"
                    ));
                }
                Err(_) => {}
            }
        }
        let (cost_vp, cost_components, damage, hp, components) = numbers;
        let has_statics = native.iter().any(|a| a.is_static);
        let static_uses = native
            .iter()
            .filter(|a| a.is_static)
            .flat_map(|a| &a.effects)
            .fold(0, |bits, e| {
                let stat = e.lasting.map_or(0, |(stat, _)| static_use(stat));
                bits | stat | if e.prevention.is_some() { PREVENTS } else { 0 }
            });
        let static_hp_floor = native
            .iter()
            .filter(|a| a.is_static)
            .flat_map(|a| &a.effects)
            .filter(|e| matches!(e.lasting, Some((Stat::Hp | Stat::Sp, _))))
            .map(|e| e.amount.min(0))
            .sum();
        let hooks = native.iter().fold(0, |bits, a| bits | a.hook);
        let triggers = native
            .iter()
            .filter_map(|a| a.when.as_ref())
            .fold(0, |bits, w| bits | w.event.bit());
        // only a spell is played as an instant (D-instants): read once here, not per play
        let instant = instant && kind == "spell";
        Card {
            id,
            kind,
            cost_vp,
            cost_components,
            instant,
            damage,
            hp,
            components,
            words,
            effects: parsed,
            abilities: native,
            refused,
            has_statics,
            static_uses,
            static_hp_floor,
            hooks,
            triggers,
            play_condition: None,
        }
    }
}

/// The words the native core implements: creatures and buildings without abilities, and spells
/// whose effects are these verbs with a fixed amount and one of these targets
/// (`effects::parse`). Every other word is refused by name until it lands here together with
/// the differential tests that prove it.
pub const IMPLEMENTED: &[&str] = &[
    "do = \"damage\"",
    "do = \"heal\"",
    "do = \"draw\"",
    "do = \"gain_vp\"",
    "do = \"give_defence_bonus\"",
    "do = \"remove_defence_bonus\"",
    "do = \"gain_components\"",
    "do = \"sacrifice\"",
    "do = \"modify\"",
    "do = \"end_effects\"",
    "do = \"add_counters\"",
    "do = \"remove_counters\"",
    "do = \"prevent\"",
    "target = \"controller\"",
    "target = \"opponent\"",
    "target = \"each_player\"",
    "target = \"chosen_player\"",
    "target = \"own_creatures\"",
    "target = \"opponent_creatures\"",
    "target = \"all_creatures\"",
    "target = \"chosen_creature\"",
    "target = \"chosen_own_creature\"",
    "target = \"chosen_opponent_creature\"",
    "do = \"destroy\"",
    "do = \"lose_vp\"",
    "do = \"pay_components\"",
    "target = \"own_buildings\"",
    "target = \"all_buildings\"",
    "target = \"chosen_building\"",
    "instant = true",
    "play_condition = { ... }",
    "amount = { count = ... }",
    "where = { ... }",
    "kind = \"triggered\"",
    "target = \"trigger_permanent\"",
    "target = \"trigger_source\"",
    "target = \"trigger_player\"",
];

/// The steps an automatic ability may be timed on natively (and `on_enter`): the ordered
/// steps, and the moment `prep_stage2_start` (29.4.2: bound together, applied as one moment).
/// The action and alternating steps are refused (and the models refuse `end_stage4`).
pub const TIMINGS: &[&str] = &[
    "on_enter",
    "prep_stage1",
    "prep_stage2_start",
    "prep_stage2",
    "end_stage2",
    "end_stage3",
];

/// `whose_turn` of an automatic ability.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WhoseTurn {
    Any,
    Own,
    Opponent,
}

/// What using an activated ability costs and how often it may be used (`hkk._pending.Price`,
/// `Usage`; Kódex ch. 90).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Activation {
    pub vp: i64,
    pub components: i64,
    pub sacrifice_self: bool,
    pub per_turn: Option<u32>,
    pub per_game: Option<u32>,
    pub whose_turn: WhoseTurn,
    /// Its controller must use it (41.1: free, not conditional, in end stage 1; 29.4.7: its
    /// text orders its use in the preparation phase).
    pub mandatory: bool,
    /// Its text allows (or orders) its use in the preparation phase (29.4.7).
    pub in_preparation: bool,
}

impl Activation {
    pub fn free(&self) -> bool {
        self.vp == 0 && self.components == 0 && !self.sacrifice_self
    }
}

/// The steps an activated ability may be timed on: preparation stage 2 (29.4.7), the action
/// steps and end stage 1 (41.1).
pub const ACTIVATED_TIMINGS: &[&str] = &["prep_stage2", "main_phase", "combat_phase", "end_stage1"];

/// An automatic or activated ability the native core runs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ability {
    pub index: usize,
    /// A triggered ability's `when` (None: another kind).
    pub when: Option<When>,
    /// None: automatic or static; else the activated ability's cost and limits.
    pub activation: Option<Activation>,
    /// A static ability: its effects are modifiers in force while its card is in play
    /// (D-static-scope) and its condition holds (D-conditions).
    pub is_static: bool,
    /// It fires only while this holds (D-conditions).
    pub condition: Option<Condition>,
    pub timing: String,
    /// Its timing's [`hook_bit`]: a step's abilities are told by a number, not a string.
    pub hook: u64,
    pub whose_turn: WhoseTurn,
    pub optional: bool,
    pub effects: Vec<Effect>,
}

/// An ability as the Python side hands it over: its index, kind, timing, whose turn, whether
/// optional, its effects, and the words of its other fields (a condition, a cost, a limit...).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlainAbility {
    pub index: usize,
    pub kind: String,
    pub timing: String,
    pub whose_turn: String,
    pub optional: bool,
    pub effects: Vec<PlainEffect>,
    pub condition: Option<PlainCondition>,
    /// An activated ability's cost (VP, components, sacrifice itself) and limit (per turn, per
    /// game, whose turn).
    pub activation: Option<PlainActivation>,
    pub others: Vec<Word>,
    /// A triggered ability's `when`: event, which, whose, card kind ("": any).
    pub when: Option<(String, String, String, String)>,
}

/// An activated ability's cost and limit as the Python side hands them over.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlainActivation {
    pub vp: i64,
    pub components: i64,
    pub sacrifice_self: bool,
    pub per_turn: Option<u32>,
    pub per_game: Option<u32>,
    pub whose_turn: String,
    /// `usable_in_preparation`, `must_use_in_preparation` (29.4.7).
    pub usable_in_preparation: bool,
    pub must_use_in_preparation: bool,
}

fn whose(word: &str) -> WhoseTurn {
    match word {
        "own" => WhoseTurn::Own,
        "opponent" => WhoseTurn::Opponent,
        _ => WhoseTurn::Any,
    }
}

impl PlainAbility {
    /// The ability, or the word the native core does not implement.
    fn parse(&self) -> Result<Ability, String> {
        let place = format!("card.abilities[{}]", self.index);
        let timings = match self.kind.as_str() {
            "automatic" => TIMINGS,
            "activated" => ACTIVATED_TIMINGS,
            "static" | "triggered" => &[""],
            _ => return Err(format!("`kind = \"{}\"` ({place})", self.kind)),
        };
        if !timings.contains(&self.timing.as_str()) {
            return Err(format!("`timing = \"{}\"` ({place})", self.timing));
        }
        let activation = match (&self.activation, self.kind.as_str()) {
            (Some(a), "activated") => {
                let free = a.vp == 0 && a.components == 0 && !a.sacrifice_self;
                Some(Activation {
                    vp: a.vp,
                    components: a.components,
                    sacrifice_self: a.sacrifice_self,
                    per_turn: a.per_turn,
                    per_game: a.per_game,
                    whose_turn: whose(&a.whose_turn),
                    // `ability_item`: free and not conditional, in end stage 1 (41.1); or its
                    // text orders its use in the preparation phase (29.4.7)
                    mandatory: a.must_use_in_preparation
                        || (self.timing == "end_stage1" && free && !self.optional),
                    in_preparation: a.usable_in_preparation || a.must_use_in_preparation,
                })
            }
            (None, "activated") => return Err(format!("`kind = \"activated\"` ({place})")),
            _ => None,
        };
        if let Some(word) = self.others.first() {
            return Err(format!("`{}` ({})", word.word, word.place));
        }
        let whose_turn = whose(&self.whose_turn);
        let effects = self
            .effects
            .iter()
            .map(parse)
            .collect::<Result<Vec<_>, _>>()?;
        let condition = self
            .condition
            .as_ref()
            .map(|c| {
                c.parse()
                    .map_err(|what| format!("the condition's {what} ({place}.condition)"))
            })
            .transpose()?;
        let when = match (&self.when, self.kind.as_str()) {
            (Some(plain), "triggered") => Some(
                When::parse(plain)
                    .ok_or_else(|| format!("`when = {{ event = \"{}\" }}` ({place})", plain.0))?,
            ),
            (None, "triggered") => return Err(format!("`kind = \"triggered\"` ({place})")),
            _ => None,
        };
        let is_static = self.kind == "static";
        if is_static {
            // modifiers only, of the stats and targets a static can have (`static_applies`)
            for (effect, plain) in effects.iter().zip(&self.effects) {
                let statics = [
                    TargetSpec::SelfPerm,
                    TargetSpec::OwnCreatures,
                    TargetSpec::OpponentCreatures,
                    TargetSpec::AllCreatures,
                    TargetSpec::OwnBuildings,
                    TargetSpec::AllBuildings,
                    TargetSpec::Controller,
                    TargetSpec::Opponent,
                    TargetSpec::EachPlayer,
                ];
                let modifier = effect.lasting.is_some() && statics.contains(&effect.target);
                if !modifier && effect.prevention.is_none() {
                    return Err(format!("`do = \"{}\"` ({})", plain.verb, plain.place));
                }
            }
        }
        Ok(Ability {
            index: self.index,
            when,
            activation,
            is_static,
            condition,
            timing: self.timing.clone(),
            hook: hook_bit(&self.timing),
            whose_turn,
            optional: self.optional,
            effects,
        })
    }
}

/// `when.which` of a triggered ability: the permanent it happens to (`hkk._cards.abilities.When`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Which {
    This,
    Another,
    Any,
}

/// A triggered ability's `when` (`hkk._cards.abilities.When`): what sets it off.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct When {
    pub event: TriggerEvent,
    pub which: Which,
    /// Whose permanent it happens to (or who played the card), seen from its controller.
    pub whose: WhoseTurn,
    /// Only subjects of this kind (`creature`, `building`, `spell`); None: any.
    pub card_kind: Option<String>,
}

impl When {
    fn parse((event, which, whose_word, kind): &(String, String, String, String)) -> Option<When> {
        Some(When {
            event: TriggerEvent::parse(event)?,
            which: match which.as_str() {
                "this" => Which::This,
                "another" => Which::Another,
                _ => Which::Any,
            },
            whose: whose(whose_word),
            card_kind: (!kind.is_empty()).then(|| kind.clone()),
        })
    }
}

/// The `when.event` words (`hkk._cards.trigger_events.WHEN_EVENTS`), in their names' order:
/// the order a logged event's trigger events are looked at in (`TriggerDetection._card_kinds`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum TriggerEvent {
    Attacks,
    Blocks,
    CardPlayed,
    Damaged,
    DealsCombatDamage,
    Dies,
    EffectEnds,
    EntersPlay,
    IsBlocked,
    TakesCombatDamage,
}

impl TriggerEvent {
    pub fn parse(word: &str) -> Option<TriggerEvent> {
        Some(match word {
            "attacks" => TriggerEvent::Attacks,
            "blocks" => TriggerEvent::Blocks,
            "card_played" => TriggerEvent::CardPlayed,
            "damaged" => TriggerEvent::Damaged,
            "deals_combat_damage" => TriggerEvent::DealsCombatDamage,
            "dies" => TriggerEvent::Dies,
            "effect_ends" => TriggerEvent::EffectEnds,
            "enters_play" => TriggerEvent::EntersPlay,
            "is_blocked" => TriggerEvent::IsBlocked,
            "takes_combat_damage" => TriggerEvent::TakesCombatDamage,
            _ => return None,
        })
    }

    /// Its bit in a set of trigger events.
    pub const fn bit(self) -> u16 {
        1 << self as u16
    }

    /// The trigger events an event sets off, by its variant ([`TriggerEvent::of_kind`] of its
    /// name, matched without comparing names).
    pub fn of_event(kind: &crate::events::Kind) -> &'static [TriggerEvent] {
        use crate::events::Kind;
        use TriggerEvent::*;
        match kind {
            Kind::Attack { .. } => &[Attacks, Blocks, IsBlocked],
            Kind::CardPlayed { .. } => &[CardPlayed],
            Kind::Damaged { .. } => &[Damaged, DealsCombatDamage, TakesCombatDamage],
            Kind::PlayerDamaged { .. } => &[DealsCombatDamage],
            Kind::Died { .. } => &[Dies],
            Kind::EffectEnded { .. } => &[EffectEnds],
            Kind::EnteredPlay { .. } => &[EntersPlay],
            _ => &[],
        }
    }

    /// The trigger events a logged event kind sets off (`log_kinds`), in their names' order.
    #[cfg(test)]
    pub fn of_kind(kind: &str) -> &'static [TriggerEvent] {
        use TriggerEvent::*;
        match kind {
            "attack" => &[Attacks, Blocks, IsBlocked],
            "card_played" => &[CardPlayed],
            "damaged" => &[Damaged, DealsCombatDamage, TakesCombatDamage],
            "player_damaged" => &[DealsCombatDamage],
            "died" | "destroyed" => &[Dies],
            "effect_ended" => &[EffectEnds],
            "entered_play" => &[EntersPlay],
            _ => &[],
        }
    }
}

/// The card pool's hasher: rustc's FxHash, a word of the id at a time (the ids are short,
/// looked up on every permanent a step reads; FNV's byte at a time was ~3 % of a base game).
#[derive(Debug, Clone, Copy, Default)]
pub struct WordHash(u64);

impl WordHash {
    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(0x517c_c1b7_2722_0a95);
    }
}

impl Hasher for WordHash {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        let mut words = bytes.chunks_exact(8);
        for word in &mut words {
            let mut eight = [0u8; 8];
            eight.copy_from_slice(word);
            self.add(u64::from_le_bytes(eight));
        }
        let rest = words.remainder();
        if !rest.is_empty() {
            let mut eight = [0u8; 8];
            eight[..rest.len()].copy_from_slice(rest);
            self.add(u64::from_le_bytes(eight));
        }
    }

    fn write_u8(&mut self, byte: u8) {
        self.add(u64::from(byte));
    }

    fn write_u32(&mut self, word: u32) {
        self.add(u64::from(word));
    }
}

/// A card's id as a number: its place among the pool's ids in sorted order, so that ordering
/// ids orders their strings (`determinize` sorts card ids); [`CardPool::name`] gives the string.
/// Copied where the Python engine copies a `str`: no allocation, no hashing on the hot path.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct CardId(pub u32);

impl CardId {
    /// No card: the empty id an event writes for a permanent no longer in play.
    pub const NONE: CardId = CardId(u32::MAX);
    /// A card hidden from a player (`hkk._player_view.HIDDEN`): named "?" in a view's log.
    pub const HIDDEN: CardId = CardId(u32::MAX - 1);
}

/// The cards of an engine, in their ids' sorted order ([`CardId`] is the place), and the ids.
#[derive(Debug, Default, Clone)]
pub struct CardPool {
    cards: Vec<Card>,
    ids: HashMap<String, CardId, BuildHasherDefault<WordHash>>,
    /// The rulings of the engine these cards are handed over from: every game of them reads
    /// them (the defaults unless [`CardPool::with_rulings`]).
    pub rulings: crate::rulings::Rulings,
}

impl CardPool {
    pub fn new(mut cards: Vec<Card>) -> Self {
        cards.sort_by(|a, b| a.id.cmp(&b.id));
        cards.dedup_by(|a, b| a.id == b.id);
        let ids = cards
            .iter()
            .enumerate()
            .map(|(at, c)| (c.id.clone(), CardId(at as u32)))
            .collect();
        CardPool {
            cards,
            ids,
            rulings: crate::rulings::Rulings::default(),
        }
    }

    /// The pool read under `rulings` (an engine's other than the defaults).
    pub fn with_rulings(mut self, rulings: crate::rulings::Rulings) -> Self {
        self.rulings = rulings;
        self
    }

    /// The card of an id this pool gave (None for [`CardId::NONE`]).
    pub fn get(&self, id: CardId) -> Option<&Card> {
        self.cards.get(id.0 as usize)
    }

    /// The id of a card's string id, if the pool has it.
    pub fn id(&self, name: &str) -> Option<CardId> {
        self.ids.get(name).copied()
    }

    /// The card of a string id, if the pool has it.
    pub fn by_name(&self, name: &str) -> Option<&Card> {
        self.get(self.id(name)?)
    }

    /// The string id (empty for [`CardId::NONE`], "?" for [`CardId::HIDDEN`]).
    pub fn name(&self, id: CardId) -> &str {
        if id == CardId::HIDDEN {
            return crate::events::HIDDEN;
        }
        self.get(id).map_or("", |c| c.id.as_str())
    }

    /// The ids of a deck's string ids, or the first one the pool does not have, refused.
    pub fn ids(&self, names: &[String]) -> Result<Vec<CardId>, String> {
        names
            .iter()
            .map(|n| {
                self.id(n)
                    .ok_or_else(|| format!("card {n}: not among the engine's cards"))
            })
            .collect()
    }

    pub fn len(&self) -> usize {
        self.cards.len()
    }

    pub fn is_empty(&self) -> bool {
        self.cards.is_empty()
    }

    /// Every ability of every card of the pool.
    pub fn abilities(&self) -> impl Iterator<Item = &Ability> {
        self.cards.iter().flat_map(|card| &card.abilities)
    }

    /// The trigger events any card of the pool watches, as [`TriggerEvent::bit`]s: the
    /// others are never looked for (0: no card has a triggered ability).
    pub fn trigger_events(&self) -> u16 {
        self.cards.iter().fold(0, |bits, c| bits | c.triggers)
    }

    /// The first word of a card the native core does not implement, as a refusal.
    pub fn unported_word(&self, id: CardId) -> Option<String> {
        self.get(id)?.refused.clone()
    }

    /// Why these decks cannot be played natively: the first unknown card or word not
    /// implemented (cards in sorted order, so the answer does not depend on deck order).
    pub fn refusal(&self, decks: &[Vec<String>]) -> Option<String> {
        let mut ids: Vec<&String> = decks.iter().flatten().collect();
        ids.sort();
        ids.dedup();
        for id in ids {
            let Some(card) = self.by_name(id) else {
                return Some(format!("card {id}: not among the engine's cards"));
            };
            if let Some(reason) = &card.refused {
                return Some(reason.clone());
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn card(id: &str, words: &[&str]) -> Card {
        let words = words
            .iter()
            .map(|w| Word {
                place: "ability 1".into(),
                word: (*w).into(),
            })
            .collect();
        Card::new(
            id.into(),
            "creature".into(),
            (1, 0, 1, 1, 0),
            false,
            words,
            &[],
            &[],
        )
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

    fn ability(kind: &str, timing: &str, others: &[&str]) -> PlainAbility {
        PlainAbility {
            index: 0,
            kind: kind.into(),
            timing: timing.into(),
            whose_turn: "any".into(),
            optional: false,
            effects: vec![PlainEffect::of("heal", "controller", Some(1))],
            condition: None,
            activation: None,
            when: None,
            others: others
                .iter()
                .map(|w| Word {
                    place: "card.abilities[0]".into(),
                    word: (*w).into(),
                })
                .collect(),
        }
    }

    #[test]
    fn an_automatic_ability_of_implemented_words_is_native() {
        let plain = ability("automatic", "end_stage2", &[]);
        let card = Card::new(
            "t:a".into(),
            "creature".into(),
            (1, 0, 1, 1, 0),
            false,
            vec![],
            &[],
            &[plain],
        );
        assert_eq!(card.refused, None);
        assert_eq!(card.abilities.len(), 1);
    }

    #[test]
    fn abilities_of_other_kinds_timings_or_fields_are_refused_by_name() {
        let refused = |plain: PlainAbility| {
            Card::new(
                "t:a".into(),
                "creature".into(),
                (1, 0, 1, 1, 0),
                false,
                vec![],
                &[],
                &[plain],
            )
            .refused
            .unwrap()
        };
        assert!(refused(ability("activated", "main_phase", &[])).contains("kind = \"activated\""));
        assert!(refused(ability("automatic", "main_phase", &[])).contains("main_phase"));
        let conditional = refused(ability("automatic", "end_stage2", &["condition = {}"]));
        assert!(conditional.contains("condition") && conditional.contains("t:a"));
    }

    #[test]
    fn card_ids_are_numbered_so_that_sorting_ids_sorts_their_strings() {
        let pool = CardPool::new(vec![card("t:b", &[]), card("t:c", &[]), card("t:a", &[])]);
        let mut ids: Vec<CardId> = ["t:c", "t:a", "t:b"]
            .iter()
            .map(|n| pool.id(n).unwrap())
            .collect();
        ids.sort();
        let names: Vec<&str> = ids.iter().map(|&i| pool.name(i)).collect();
        assert_eq!(names, ["t:a", "t:b", "t:c"]);
        assert_eq!(pool.by_name("t:b").map(|c| c.id.as_str()), Some("t:b"));
        assert_eq!(pool.name(CardId::NONE), "");
    }

    #[test]
    fn a_deck_with_an_unknown_card_is_refused_naming_it() {
        let pool = CardPool::new(vec![card("t:a", &[])]);
        let refused = pool.ids(&["t:a".into(), "t:zz".into()]).unwrap_err();
        assert!(refused.contains("t:zz"), "{refused}");
        assert_eq!(pool.ids(&["t:a".into()]), Ok(vec![CardId(0)]));
    }

    #[test]
    fn an_unknown_card_is_refused() {
        let pool = CardPool::new(vec![]);
        assert!(pool.refusal(&[vec!["t:x".into()]]).unwrap().contains("t:x"));
    }
}
