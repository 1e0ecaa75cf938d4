//! The native log: every event as a typed value, kept natively and turned into Python's
//! `as_dict()` shape (`hkk._event_base`: `seq`, `turn`, `step`, `kind`, then the kind's fields in
//! declaration order, optional fields left out when absent) only when read. Kinds and fields
//! mirror `hkk.events`; the levels mirror `hkk._events`.

use crate::cards::{CardId, CardPool};
use crate::outcome::Outcome;
use std::borrow::Cow;
use std::sync::Arc;

/// What a label or a source begins with before its card (`Text::Card`, `Text::Item`,
/// `Text::Name`): one byte, so that a [`Text`] is no larger than a `String`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Prefix {
    None,
    Use,
    UseGuard,
    Guard,
    AttackWith,
    BlockWith,
    Target,
    Extract,
    Play,
}

impl Prefix {
    pub fn as_str(self) -> &'static str {
        match self {
            Prefix::None => "",
            Prefix::Use => "use ",
            Prefix::UseGuard => "use guard ",
            Prefix::Guard => "guard ",
            Prefix::AttackWith => "attack with ",
            Prefix::BlockWith => "block with ",
            Prefix::Target => "target ",
            Prefix::Extract => "extract ",
            Prefix::Play => "play ",
        }
    }
}

/// A text an event or an option shows (a source, an item's label, an option's label), kept
/// as what it is made of and written only when read ([`Text::render`]: the conversion to
/// Python, a decision shown outside, a search reading labels): a full-level game makes
/// thousands a game, and most are never read. What it is made of never changes afterwards (a
/// card id names the same card in the game's pool for good; uids, ability indices and copy
/// numbers are copied in), so it writes what the eager text was. It owns nothing (Copy): an
/// event keeps it as it is (a text written by hand is a [`crate::decisions::Label`]'s, or the
/// log's [`Choice::Logged`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Text {
    Borrowed(&'static str),
    /// `<prefix><card>#<uid>` (`state::card_label`).
    Card {
        prefix: Prefix,
        card: CardId,
        uid: u32,
    },
    /// An ability's item, `<prefix><card>#<uid>:<index>`, then ` (<copy>)` for a copy of
    /// another waiting triggered item's label (`interpret::Item::label_after`).
    Item {
        prefix: Prefix,
        card: CardId,
        uid: u32,
        index: u32,
        copy: u32,
    },
    /// `<prefix><card>` (a card played, a spell's source).
    Name {
        prefix: Prefix,
        card: CardId,
    },
}

impl Default for Text {
    fn default() -> Self {
        Text::Borrowed("")
    }
}

impl From<&'static str> for Text {
    fn from(text: &'static str) -> Self {
        Text::Borrowed(text)
    }
}

impl Text {
    /// The text, written with the card ids' strings of `cards` (the game's pool).
    pub fn render<'a>(&'a self, cards: &CardPool) -> std::borrow::Cow<'a, str> {
        use std::borrow::Cow;
        match self {
            Text::Borrowed(text) => Cow::Borrowed(text),
            Text::Card { prefix, card, uid } => Cow::Owned(crate::state::card_label(
                prefix.as_str(),
                cards.name(*card),
                *uid,
            )),
            Text::Item {
                prefix,
                card,
                uid,
                index,
                copy,
            } => {
                let mut text = crate::state::card_label(prefix.as_str(), cards.name(*card), *uid);
                text.push(':');
                crate::state::push_uint(&mut text, u64::from(*index));
                if *copy != 0 {
                    text.push_str(" (");
                    crate::state::push_uint(&mut text, u64::from(*copy));
                    text.push(')');
                }
                Cow::Owned(text)
            }
            Text::Name { prefix, card } => {
                Cow::Owned([prefix.as_str(), cards.name(*card)].concat())
            }
        }
    }

    /// The text when it is written out already (a literal, or made by hand); None for one
    /// written from a card.
    pub fn literal(&self) -> Option<&str> {
        match self {
            Text::Borrowed(text) => Some(text),
            _ => None,
        }
    }

    /// The uid it names (the outcome recorder's `#(\d+)`: the first `#` followed by a digit;
    /// a card id has no `#`).
    pub fn uid(&self) -> Option<u64> {
        match self {
            Text::Card { uid, .. } | Text::Item { uid, .. } => Some(u64::from(*uid)),
            Text::Name { .. } => None,
            Text::Borrowed(text) => uid_in(text),
        }
    }

    /// Nothing written (a text not made: `Game::text`).
    pub fn is_empty(&self) -> bool {
        self.literal() == Some("")
    }
}

/// A literal compared with a label or a source: a text written from a card is never one of
/// the literals the code looks for (`pass`, `start`, `use attack`: they name no card).
impl PartialEq<&str> for Text {
    fn eq(&self, other: &&str) -> bool {
        self.literal() == Some(*other)
    }
}

impl PartialEq<str> for Text {
    fn eq(&self, other: &str) -> bool {
        self.literal() == Some(other)
    }
}

/// The uid in a text such as `alap:langorzo#1:1` (the first `#` followed by a digit).
pub fn uid_in(text: &str) -> Option<u64> {
    text.match_indices('#').find_map(|(at, _)| {
        let digits: &str = &text[at + 1..];
        let end = digits
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(digits.len());
        digits[..end].parse().ok()
    })
}

/// One event's kind and fields (the envelope is in [`Event`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Kind {
    GameStarted {
        /// None: hidden from the player whose copy this is (`hide_event`, shown as `"?"`).
        seed: Option<i128>,
        decks: [usize; 2],
    },
    TurnStarted {
        player: usize,
        turn_of_player: u32,
    },
    StepStarted {
        phase: &'static str,
        stage: u32,
        hook: &'static str,
        mode: &'static str,
    },
    StepEnded {
        hook: &'static str,
    },
    TurnEnded {
        player: usize,
        rule: &'static str,
    },
    GameEnded {
        winner: Option<usize>,
        reason: &'static str,
        rule: &'static str,
    },
    ClockClosed {
        player: usize,
        rule: &'static str,
    },
    Decided {
        player: usize,
        decision: &'static str,
        choice: Choice,
        options: usize,
        rule: Option<&'static str>,
    },
    /// `resolving`: a rules item, an action or a card's ability.
    Resolving {
        item: Text,
        controller: Option<usize>,
        item_kind: &'static str,
        uid: Option<u32>,
        card: Option<CardId>,
        ability: Option<usize>,
    },
    /// `moment`: the items that happen at it (their labels) and the durations it ends.
    Moment {
        rule: &'static str,
        /// [`Extras::texts`].
        items: Span,
        ends: &'static [&'static str],
    },
    Passed {
        player: usize,
        rule: &'static str,
        forced: Option<bool>,
    },
    TurnPassed {
        player: usize,
        rule: &'static str,
    },
    CardDrawn {
        player: usize,
        card: CardId,
        source: Text,
    },
    DrawFailed {
        player: usize,
        source: Text,
    },
    PlayerHealed {
        player: usize,
        amount: i64,
        source: Text,
    },
    Healed {
        uid: u32,
        card: CardId,
        amount: i64,
        source: Text,
    },
    VpGained {
        player: usize,
        amount: i64,
        source: Text,
        after: i64,
    },
    /// `vp_lost`: never below 0 (inside a moment it nets out first).
    VpLost {
        player: usize,
        amount: i64,
        source: Text,
        after: i64,
    },
    /// `hp_check`: the uids that die in its first round (empty: it found nobody).
    HpCheck {
        rule: &'static str,
        /// [`Extras::uids`].
        dead: Span,
        /// Its round, from the second on.
        round: Option<u32>,
    },
    CardPlayed {
        player: usize,
        card: CardId,
        vp: i64,
        components: i64,
    },
    EnteredPlay {
        controller: usize,
        card: CardId,
        uid: u32,
        zone: &'static str,
        active: bool,
    },
    BecameActive {
        uid: u32,
        card: CardId,
        rule: &'static str,
    },
    Moved {
        uid: u32,
        card: CardId,
        zone: &'static str,
        rule: &'static str,
    },
    Attack {
        /// [`Extras::uids`].
        attackers: Span,
        /// [`Extras::blockers`].
        blockers: Span,
        rule: &'static str,
    },
    Damaged {
        uid: u32,
        card: CardId,
        amount: i64,
        source: Text,
        source_uid: Option<u32>,
        after: i64,
    },
    PlayerDamaged {
        player: usize,
        amount: i64,
        source: Text,
        /// The permanent whose ability or combat dealt it, for an outcome recorder, which
        /// reads it where `source` was not made (`Game::text`); not a field of the event.
        source_uid: Option<u32>,
        after: i64,
    },
    /// `died` (a creature) or `destroyed` (a building).
    Died {
        creature: bool,
        card: CardId,
        uid: u32,
        controller: usize,
        cause: &'static str,
        rule: Option<&'static str>,
        components_offered: i64,
    },
    /// `effect_started`, or `effect_created` for one that waits (29.4.5).
    EffectStarted {
        waits: bool,
        effect: u32,
        /// [`Extras::uids`].
        targets: Span,
        /// Its other fields, beside the events ([`Extras::start`]): a rare kind kept from
        /// setting every event's size (a `Kind` is as large as its largest variant, and each
        /// is moved into the log).
        rest: u32,
    },
    EffectEnded {
        effect: u32,
        stat: &'static str,
        /// [`Extras::uids`].
        targets: Span,
        rule: &'static str,
        /// It ended for some of its permanents only (D-dispel).
        partial: bool,
    },
    CountersAdded {
        uid: u32,
        card: CardId,
        /// [`Extras::str`].
        counter: Span,
        amount: i64,
        after: i64,
        source: Text,
    },
    CountersRemoved {
        uid: u32,
        card: CardId,
        /// [`Extras::str`].
        counter: Span,
        amount: i64,
        after: i64,
        source: Text,
    },
    /// `triggered`: something set off a triggered ability; it waits (D-trigger-wait).
    Triggered {
        item: Text,
        controller: usize,
        card: CardId,
        ability: usize,
        optional: bool,
        cause: &'static str,
        cause_seq: usize,
        chain: usize,
    },
    Prevented {
        item: Text,
        controller: usize,
        card: CardId,
        preventer_uid: u32,
        preventer_card: CardId,
    },
    CostPaid {
        controller: usize,
        item: Text,
        vp: i64,
        components: i64,
        sacrifice: bool,
    },
    DefenceBonusGained {
        uid: u32,
        card: CardId,
        amount: i64,
        source: Text,
    },
    DefenceBonusLost {
        uid: u32,
        card: CardId,
        amount: i64,
        rule: Option<&'static str>,
        source: Option<Text>,
    },
    Restored {
        uid: u32,
        card: CardId,
        after: i64,
        rule: &'static str,
    },
    ComponentsGained {
        player: usize,
        amount: i64,
        source: Text,
    },
    /// `components_paid`: to an effect.
    ComponentsPaid {
        player: usize,
        amount: i64,
        source: Text,
    },
    ComponentsExtracted {
        player: usize,
        card: CardId,
        uid: u32,
        amount: i64,
    },
    ComponentsDeclined {
        player: usize,
        card: CardId,
        uid: u32,
    },
    StartingPlayer {
        player: usize,
    },
    VpRegenerated {
        player: usize,
        amount: i64,
        after: i64,
        rule: &'static str,
    },
}

/// [`Kind::EffectStarted`]'s fields but its uid and targets.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EffectStart {
    pub stat: &'static str,
    pub amount: i64,
    pub duration: &'static str,
    pub player: Option<usize>,
    pub source: Text,
    pub ends_turn: Option<u32>,
    pub rule: Option<&'static str>,
}

/// What a player sees in place of a hidden value (`hkk._player_view.HIDDEN`).
pub const HIDDEN: &str = "?";

impl Kind {
    /// The event as `player` may know it (`hkk._player_view.hide_event`, not over): a card the
    /// opponent drew is hidden, and so is how many options his decision offered and the seed.
    pub fn hide_from(&mut self, player: usize) {
        match self {
            Kind::CardDrawn {
                player: p, card, ..
            } if *p != player => *card = CardId::HIDDEN,
            Kind::Decided {
                player: p, options, ..
            } if *p != player => *options = 0,
            Kind::GameStarted { seed, .. } => *seed = None,
            _ => {}
        }
    }

    pub fn name(&self) -> &'static str {
        match self {
            Kind::GameStarted { .. } => "game_started",
            Kind::TurnStarted { .. } => "turn_started",
            Kind::StepStarted { .. } => "step_started",
            Kind::StepEnded { .. } => "step_ended",
            Kind::TurnEnded { .. } => "turn_ended",
            Kind::GameEnded { .. } => "game_over",
            Kind::ClockClosed { .. } => "clock_closed",
            Kind::Decided { .. } => "decision",
            Kind::Resolving { .. } => "resolving",
            Kind::Moment { .. } => "moment",
            Kind::Passed { .. } => "passed",
            Kind::TurnPassed { .. } => "turn_passed",
            Kind::CardDrawn { .. } => "card_drawn",
            Kind::DrawFailed { .. } => "draw_failed",
            Kind::HpCheck { .. } => "hp_check",
            Kind::StartingPlayer { .. } => "starting_player",
            Kind::VpRegenerated { .. } => "vp_regenerated",
            Kind::CardPlayed { .. } => "card_played",
            Kind::EnteredPlay { .. } => "entered_play",
            Kind::BecameActive { .. } => "became_active",
            Kind::Moved { .. } => "moved",
            Kind::Attack { .. } => "attack",
            Kind::Damaged { .. } => "damaged",
            Kind::PlayerDamaged { .. } => "player_damaged",
            Kind::Died { creature: true, .. } => "died",
            Kind::Died { .. } => "destroyed",
            Kind::Restored { .. } => "restored",
            Kind::DefenceBonusGained { .. } => "defence_bonus_gained",
            Kind::CostPaid { .. } => "cost_paid",
            Kind::Prevented { .. } => "prevented",
            Kind::Triggered { .. } => "triggered",
            Kind::CountersAdded { .. } => "counters_added",
            Kind::CountersRemoved { .. } => "counters_removed",
            Kind::EffectStarted { waits: true, .. } => "effect_created",
            Kind::EffectStarted { .. } => "effect_started",
            Kind::EffectEnded { .. } => "effect_ended",
            Kind::DefenceBonusLost { .. } => "defence_bonus_lost",
            Kind::ComponentsGained { .. } => "components_gained",
            Kind::ComponentsExtracted { .. } => "components_extracted",
            Kind::ComponentsDeclined { .. } => "components_declined",
            Kind::PlayerHealed { .. } => "player_healed",
            Kind::Healed { .. } => "healed",
            Kind::VpGained { .. } => "vp_gained",
            Kind::VpLost { .. } => "vp_lost",
            Kind::ComponentsPaid { .. } => "components_paid",
        }
    }

    /// Whether the log level keeps it (`hkk._events`: outcome keeps only `game_over`; compact
    /// drops `step_started`, `step_ended`, `decision` and an `hp_check` that found nobody).
    pub fn kept_at(&self, level: Level) -> bool {
        match level {
            Level::Full => true,
            Level::Compact => {
                !matches!(
                    self,
                    Kind::Decided { .. } | Kind::StepStarted { .. } | Kind::StepEnded { .. }
                ) && !matches!(self, Kind::HpCheck { dead, .. } if dead.len == 0)
            }
            Level::Outcome => matches!(self, Kind::GameEnded { .. }),
        }
    }
}

/// A field's value, as Python will see it; a text borrowed where it is kept already (a fixed
/// one, a card's id, a text of the log's), so that reading a log copies none of those.
#[derive(Debug, Clone, PartialEq)]
pub enum Value<'a> {
    Int(i64),
    /// An int wider than 64 bits signed (a determinized copy's seed is `getrandbits(64)`).
    Wide(i128),
    Bool(bool),
    Str(Cow<'a, str>),
    Ints(Vec<i64>),
    /// A list of ints some of which are null (`attack`'s blockers).
    OptInts(Vec<Option<i64>>),
    Strs(Vec<String>),
    None,
    /// An optional field this event leaves out (not in `as_dict()`).
    Absent,
}

/// The log levels of `hkk._events.LOG_LEVELS`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Level {
    Full,
    Compact,
    Outcome,
}

impl Level {
    pub fn parse(name: &str) -> Option<Level> {
        match name {
            "full" => Some(Level::Full),
            "compact" => Some(Level::Compact),
            "outcome" => Some(Level::Outcome),
            _ => None,
        }
    }
}

/// An event with its envelope.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Event {
    pub seq: usize,
    pub turn: u32,
    pub step: &'static str,
    pub kind: Kind,
}

// An event owns no heap memory: its lists and written texts are its chunk's [`Extras`],
// named by a [`Span`]. A log's chunk then drops (or clears) in O(1), not walking its ~256
// events' drop glue (~110,000 instructions a full-level game), and a kind that owns heap
// memory cannot be added without this failing to compile.
const _: () = assert!(!std::mem::needs_drop::<Event>());

/// Where an event's list (or text) lies in its chunk's [`Extras`]: a start and a length.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Span {
    pub start: u32,
    pub len: u32,
}

impl Span {
    fn range(self) -> std::ops::Range<usize> {
        self.start as usize..(self.start + self.len) as usize
    }

    fn after(start: usize, end: usize) -> Span {
        Span {
            start: start as u32,
            len: (end - start) as u32,
        }
    }
}

/// A decision's chosen option as the log keeps it: a [`Text`], or a label written by hand (a
/// player named from outside: `Game::player_labels`) kept in the chunk's [`Extras::str`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Choice {
    Text(Text),
    Logged(Span),
}

impl From<Text> for Choice {
    fn from(text: Text) -> Self {
        Choice::Text(text)
    }
}

impl From<&'static str> for Choice {
    fn from(text: &'static str) -> Self {
        Choice::Text(Text::Borrowed(text))
    }
}

/// What a chunk's events keep beside them, each list in one `Vec` (an event names its part
/// with a [`Span`]): uid lists, blockers, a moment's items, an effect's start, written texts.
/// Written just before the event is pushed, into the chunk it will be pushed to
/// ([`Events::extras_mut`]); a chunk shared between copies of the game carries its own.
#[derive(Debug, Clone, Default)]
pub struct Extras {
    /// Made at the first put: a log that keeps no lists (the outcome level's) has none, and a
    /// log is one word larger for them, not five lists (a game is copied whole: `clone()`).
    lists: Option<Box<Lists>>,
}

#[derive(Debug, Clone, Default, PartialEq)]
struct Lists {
    uids: Vec<u32>,
    blockers: Vec<Option<u32>>,
    texts: Vec<Text>,
    starts: Vec<EffectStart>,
    strs: String,
}

/// What extras with no lists read (an empty span).
static NO_LISTS: Lists = Lists {
    uids: Vec::new(),
    blockers: Vec::new(),
    texts: Vec::new(),
    starts: Vec::new(),
    strs: String::new(),
};

/// The same lists (none and empty ones alike).
impl PartialEq for Extras {
    fn eq(&self, other: &Self) -> bool {
        self.read() == other.read()
    }
}

impl Extras {
    fn read(&self) -> &Lists {
        self.lists.as_deref().unwrap_or(&NO_LISTS)
    }

    fn write(&mut self) -> &mut Lists {
        self.lists.get_or_insert_with(Box::default)
    }

    pub fn uids(&self, span: Span) -> &[u32] {
        &self.read().uids[span.range()]
    }

    pub fn blockers(&self, span: Span) -> &[Option<u32>] {
        &self.read().blockers[span.range()]
    }

    pub fn texts(&self, span: Span) -> &[Text] {
        &self.read().texts[span.range()]
    }

    pub fn start(&self, at: u32) -> &EffectStart {
        &self.read().starts[at as usize]
    }

    pub fn str(&self, span: Span) -> &str {
        &self.read().strs[span.range()]
    }

    /// The chosen option's text, written.
    pub fn choice<'a>(&'a self, choice: &'a Choice, cards: &CardPool) -> std::borrow::Cow<'a, str> {
        match choice {
            Choice::Text(text) => text.render(cards),
            Choice::Logged(span) => std::borrow::Cow::Borrowed(self.str(*span)),
        }
    }

    pub fn put_uids(&mut self, uids: impl IntoIterator<Item = u32>) -> Span {
        let list = &mut self.write().uids;
        let start = list.len();
        list.extend(uids);
        Span::after(start, list.len())
    }

    pub fn put_blockers(&mut self, blockers: impl IntoIterator<Item = Option<u32>>) -> Span {
        let list = &mut self.write().blockers;
        let start = list.len();
        list.extend(blockers);
        Span::after(start, list.len())
    }

    pub fn put_texts(&mut self, texts: impl IntoIterator<Item = Text>) -> Span {
        let list = &mut self.write().texts;
        let start = list.len();
        list.extend(texts);
        Span::after(start, list.len())
    }

    pub fn put_start(&mut self, start: EffectStart) -> u32 {
        let list = &mut self.write().starts;
        list.push(start);
        (list.len() - 1) as u32
    }

    pub fn put_str(&mut self, text: &str) -> Span {
        let list = &mut self.write().strs;
        let start = list.len();
        list.push_str(text);
        Span::after(start, list.len())
    }

    /// A decision's chosen label as the log keeps it (a written one copied in).
    pub fn put_label(&mut self, label: &crate::decisions::Label) -> Choice {
        match label {
            crate::decisions::Label::Text(text) => Choice::Text(*text),
            crate::decisions::Label::Owned(text) => Choice::Logged(self.put_str(text)),
        }
    }

    /// What `kind` put here, taken back: a kind not kept was the last to put any. An empty
    /// span put nothing (and may be no place at the end: `Span::default()`).
    fn forget(&mut self, kind: &Kind) {
        let Some(lists) = self.lists.as_deref_mut() else {
            return;
        };
        fn cut<T>(list: &mut Vec<T>, span: &Span) {
            if span.len != 0 {
                list.truncate(span.start as usize);
            }
        }
        match kind {
            Kind::Moment { items, .. } => cut(&mut lists.texts, items),
            Kind::HpCheck { dead, .. } => cut(&mut lists.uids, dead),
            Kind::Attack {
                attackers,
                blockers,
                ..
            } => {
                cut(&mut lists.uids, attackers);
                cut(&mut lists.blockers, blockers);
            }
            Kind::EffectStarted { targets, rest, .. } => {
                cut(&mut lists.uids, targets);
                lists.starts.truncate(*rest as usize);
            }
            Kind::EffectEnded { targets, .. } => cut(&mut lists.uids, targets),
            Kind::CountersAdded { counter, .. } | Kind::CountersRemoved { counter, .. }
                if counter.len != 0 =>
            {
                lists.strs.truncate(counter.start as usize)
            }
            Kind::Decided {
                choice: Choice::Logged(span),
                ..
            } if span.len != 0 => lists.strs.truncate(span.start as usize),
            _ => {}
        }
    }

    /// Only the parts `events` name kept: each list cut after the last place one names.
    fn trim(&mut self, events: &[Event]) {
        let Some(lists) = self.lists.as_deref_mut() else {
            return; // nothing was put (the outcome level's log)
        };
        let end = |span: &Span| (span.start + span.len) as usize;
        let (mut uids, mut blockers, mut texts, mut starts, mut strs) = (0, 0, 0, 0, 0);
        for event in events {
            match &event.kind {
                Kind::Moment { items, .. } => texts = texts.max(end(items)),
                Kind::HpCheck { dead, .. } => uids = uids.max(end(dead)),
                Kind::Attack {
                    attackers,
                    blockers: blocks,
                    ..
                } => {
                    uids = uids.max(end(attackers));
                    blockers = blockers.max(end(blocks));
                }
                Kind::EffectStarted { targets, rest, .. } => {
                    uids = uids.max(end(targets));
                    starts = starts.max(*rest as usize + 1);
                }
                Kind::EffectEnded { targets, .. } => uids = uids.max(end(targets)),
                Kind::CountersAdded { counter, .. } | Kind::CountersRemoved { counter, .. } => {
                    strs = strs.max(end(counter))
                }
                Kind::Decided {
                    choice: Choice::Logged(span),
                    ..
                } => strs = strs.max(end(span)),
                _ => {}
            }
        }
        lists.uids.truncate(uids);
        lists.blockers.truncate(blockers);
        lists.texts.truncate(texts);
        lists.starts.truncate(starts);
        lists.strs.truncate(strs);
    }

    /// `kind` (its parts read here) with its parts put in `into`.
    pub fn copy_into(&self, kind: &Kind, into: &mut Extras) -> Kind {
        let mut kind = *kind;
        match &mut kind {
            Kind::Moment { items, .. } => *items = into.put_texts(self.texts(*items).to_vec()),
            Kind::HpCheck { dead, .. } => *dead = into.put_uids(self.uids(*dead).to_vec()),
            Kind::Attack {
                attackers,
                blockers,
                ..
            } => {
                *attackers = into.put_uids(self.uids(*attackers).to_vec());
                *blockers = into.put_blockers(self.blockers(*blockers).to_vec());
            }
            Kind::EffectStarted { targets, rest, .. } => {
                *targets = into.put_uids(self.uids(*targets).to_vec());
                *rest = into.put_start(*self.start(*rest));
            }
            Kind::EffectEnded { targets, .. } => {
                *targets = into.put_uids(self.uids(*targets).to_vec())
            }
            Kind::CountersAdded { counter, .. } | Kind::CountersRemoved { counter, .. } => {
                *counter = into.put_str(self.str(*counter))
            }
            Kind::Decided {
                choice: Choice::Logged(span),
                ..
            } => *span = into.put_str(self.str(*span)),
            _ => {}
        }
        kind
    }
}

fn int(v: usize) -> Value<'static> {
    Value::Int(v as i64)
}

fn uid_value(v: u32) -> Value<'static> {
    Value::Int(i64::from(v))
}

fn text(v: &str) -> Value<'_> {
    Value::Str(Cow::Borrowed(v))
}

fn shown<'a>(v: &'a Text, cards: &'a CardPool) -> Value<'a> {
    Value::Str(v.render(cards))
}

fn opt_text(v: &Option<&'static str>) -> Value<'static> {
    v.map_or(Value::None, text)
}

impl Event {
    /// The fields after the envelope, in `hkk.events`' declaration order (card ids named by
    /// the game's `cards`; lists and written texts read from its chunk's `extras`).
    pub fn fields<'a>(
        &'a self,
        extras: &'a Extras,
        cards: &'a CardPool,
    ) -> Vec<(&'static str, Value<'a>)> {
        let ints =
            |span: Span| Value::Ints(extras.uids(span).iter().map(|&u| i64::from(u)).collect());
        match &self.kind {
            Kind::GameStarted { seed, decks } => vec![
                ("seed", seed.map_or_else(|| text(HIDDEN), Value::Wide)),
                (
                    "decks",
                    Value::Ints(decks.iter().map(|&d| d as i64).collect()),
                ),
            ],
            Kind::TurnStarted {
                player,
                turn_of_player,
            } => vec![
                ("player", int(*player)),
                ("turn_of_player", Value::Int(i64::from(*turn_of_player))),
            ],
            Kind::StepStarted {
                phase,
                stage,
                hook,
                mode,
            } => vec![
                ("phase", text(phase)),
                ("stage", Value::Int(i64::from(*stage))),
                ("hook", text(hook)),
                ("mode", text(mode)),
            ],
            Kind::StepEnded { hook } => vec![("hook", text(hook))],
            Kind::TurnEnded { player, rule }
            | Kind::ClockClosed { player, rule }
            | Kind::TurnPassed { player, rule } => {
                vec![("player", int(*player)), ("rule", text(rule))]
            }
            Kind::GameEnded {
                winner,
                reason,
                rule,
            } => vec![
                ("winner", winner.map_or(Value::None, int)),
                ("reason", text(reason)),
                ("rule", text(rule)),
            ],
            Kind::Decided {
                player,
                decision,
                choice,
                options,
                rule,
            } => vec![
                ("player", int(*player)),
                ("decision", text(decision)),
                ("choice", Value::Str(extras.choice(choice, cards))),
                ("options", int(*options)),
                ("rule", opt_text(rule)),
            ],
            Kind::Resolving {
                item,
                controller,
                item_kind,
                uid,
                card,
                ability,
            } => vec![
                ("item", shown(item, cards)),
                ("controller", controller.map_or(Value::None, int)),
                ("item_kind", text(item_kind)),
                ("card", card.map_or(Value::None, |c| text(cards.name(c)))),
                ("uid", uid.map_or(Value::None, uid_value)),
                ("ability", ability.map_or(Value::None, int)),
            ],
            Kind::Moment { rule, items, ends } => vec![
                ("rule", text(rule)),
                (
                    "items",
                    Value::Strs(
                        extras
                            .texts(*items)
                            .iter()
                            .map(|i| i.render(cards).into_owned())
                            .collect(),
                    ),
                ),
                (
                    "ends",
                    Value::Strs(ends.iter().map(|e| e.to_string()).collect()),
                ),
            ],
            Kind::Passed {
                player,
                rule,
                forced,
            } => vec![
                ("player", int(*player)),
                ("rule", text(rule)),
                ("forced", forced.map_or(Value::Absent, Value::Bool)),
            ],
            Kind::CardDrawn {
                player,
                card,
                source,
            } => vec![
                ("player", int(*player)),
                ("card", text(cards.name(*card))),
                ("source", shown(source, cards)),
            ],
            Kind::DrawFailed { player, source } => {
                vec![("player", int(*player)), ("source", shown(source, cards))]
            }
            Kind::PlayerHealed {
                player,
                amount,
                source,
            } => vec![
                ("player", int(*player)),
                ("amount", Value::Int(*amount)),
                ("source", shown(source, cards)),
            ],
            Kind::Healed {
                uid,
                card,
                amount,
                source,
            } => vec![
                ("uid", uid_value(*uid)),
                ("card", text(cards.name(*card))),
                ("amount", Value::Int(*amount)),
                ("source", shown(source, cards)),
            ],
            Kind::VpGained {
                player,
                amount,
                source,
                after,
            }
            | Kind::VpLost {
                player,
                amount,
                source,
                after,
            } => vec![
                ("player", int(*player)),
                ("amount", Value::Int(*amount)),
                ("source", shown(source, cards)),
                ("after", Value::Int(*after)),
            ],
            Kind::HpCheck { rule, dead, round } => vec![
                ("rule", text(rule)),
                ("dead", ints(*dead)),
                (
                    "round",
                    round.map_or(Value::Absent, |r| Value::Int(i64::from(r))),
                ),
            ],
            Kind::CardPlayed {
                player,
                card,
                vp,
                components,
            } => vec![
                ("player", int(*player)),
                ("card", text(cards.name(*card))),
                ("vp", Value::Int(*vp)),
                ("components", Value::Int(*components)),
            ],
            Kind::EnteredPlay {
                controller,
                card,
                uid,
                zone,
                active,
            } => vec![
                ("controller", int(*controller)),
                ("card", text(cards.name(*card))),
                ("uid", uid_value(*uid)),
                ("zone", text(zone)),
                ("active", Value::Bool(*active)),
            ],
            Kind::BecameActive { uid, card, rule } => vec![
                ("uid", uid_value(*uid)),
                ("card", text(cards.name(*card))),
                ("rule", text(rule)),
            ],
            Kind::Moved {
                uid,
                card,
                zone,
                rule,
            } => vec![
                ("uid", uid_value(*uid)),
                ("card", text(cards.name(*card))),
                ("zone", text(zone)),
                ("rule", text(rule)),
            ],
            Kind::Attack {
                attackers,
                blockers,
                rule,
            } => vec![
                ("attackers", ints(*attackers)),
                (
                    "blockers",
                    Value::OptInts(
                        extras
                            .blockers(*blockers)
                            .iter()
                            .map(|b| b.map(i64::from))
                            .collect(),
                    ),
                ),
                ("rule", text(rule)),
            ],
            Kind::Damaged {
                uid,
                card,
                amount,
                source,
                source_uid,
                after,
            } => vec![
                ("uid", uid_value(*uid)),
                ("card", text(cards.name(*card))),
                ("amount", Value::Int(*amount)),
                ("source", shown(source, cards)),
                ("source_uid", source_uid.map_or(Value::None, uid_value)),
                ("after", Value::Int(*after)),
            ],
            Kind::PlayerDamaged {
                player,
                amount,
                source,
                after,
                ..
            } => vec![
                ("player", int(*player)),
                ("amount", Value::Int(*amount)),
                ("source", shown(source, cards)),
                ("after", Value::Int(*after)),
            ],
            Kind::Died {
                card,
                uid,
                controller,
                cause,
                rule,
                components_offered,
                ..
            } => vec![
                ("card", text(cards.name(*card))),
                ("uid", uid_value(*uid)),
                ("controller", int(*controller)),
                ("cause", text(cause)),
                ("to", text("graveyard")),
                ("rule", opt_text(rule)),
                ("components_offered", Value::Int(*components_offered)),
            ],
            Kind::EffectStarted {
                waits,
                effect,
                targets,
                rest,
            } => {
                let EffectStart {
                    stat,
                    amount,
                    duration,
                    player,
                    source,
                    ends_turn,
                    rule,
                } = extras.start(*rest);
                let mut fields = vec![
                    ("effect", uid_value(*effect)),
                    ("stat", text(stat)),
                    ("amount", Value::Int(*amount)),
                    ("duration", text(duration)),
                    ("targets", ints(*targets)),
                    ("player", player.map_or(Value::None, int)),
                    ("source", shown(source, cards)),
                ];
                if !waits {
                    fields.push((
                        "ends_turn",
                        ends_turn.map_or(Value::Absent, |t| Value::Int(i64::from(t))),
                    ));
                    fields.push(("rule", rule.map_or(Value::Absent, text)));
                }
                fields
            }
            Kind::EffectEnded {
                effect,
                stat,
                targets,
                rule,
                partial,
            } => vec![
                ("effect", uid_value(*effect)),
                ("stat", text(stat)),
                ("targets", ints(*targets)),
                ("rule", text(rule)),
                (
                    "partial",
                    if *partial {
                        Value::Bool(true)
                    } else {
                        Value::Absent
                    },
                ),
            ],
            Kind::CountersAdded {
                uid,
                card,
                counter,
                amount,
                after,
                source,
            }
            | Kind::CountersRemoved {
                uid,
                card,
                counter,
                amount,
                after,
                source,
            } => vec![
                ("uid", uid_value(*uid)),
                ("card", text(cards.name(*card))),
                ("counter", text(extras.str(*counter))),
                ("amount", Value::Int(*amount)),
                ("after", Value::Int(*after)),
                ("source", shown(source, cards)),
            ],
            Kind::Triggered {
                item,
                controller,
                card,
                ability,
                optional,
                cause,
                cause_seq,
                chain,
            } => vec![
                ("item", shown(item, cards)),
                ("controller", int(*controller)),
                ("card", text(cards.name(*card))),
                ("ability", int(*ability)),
                ("optional", Value::Bool(*optional)),
                ("cause", text(cause)),
                ("cause_seq", int(*cause_seq)),
                ("chain", int(*chain)),
            ],
            Kind::Prevented {
                item,
                controller,
                card,
                preventer_uid,
                preventer_card,
            } => vec![
                ("item", shown(item, cards)),
                ("controller", int(*controller)),
                ("card", text(cards.name(*card))),
                ("preventer_uid", uid_value(*preventer_uid)),
                ("preventer_card", text(cards.name(*preventer_card))),
                ("rule", text("D-prevented")),
            ],
            Kind::CostPaid {
                controller,
                item,
                vp,
                components,
                sacrifice,
            } => vec![
                ("controller", int(*controller)),
                ("item", shown(item, cards)),
                ("vp", Value::Int(*vp)),
                ("components", Value::Int(*components)),
                ("sacrifice", Value::Bool(*sacrifice)),
            ],
            Kind::DefenceBonusGained {
                uid,
                card,
                amount,
                source,
            } => vec![
                ("uid", uid_value(*uid)),
                ("card", text(cards.name(*card))),
                ("amount", Value::Int(*amount)),
                ("source", shown(source, cards)),
            ],
            Kind::DefenceBonusLost {
                uid,
                card,
                amount,
                rule,
                source,
            } => vec![
                ("uid", uid_value(*uid)),
                ("card", text(cards.name(*card))),
                ("amount", Value::Int(*amount)),
                ("rule", opt_text(rule)),
                (
                    "source",
                    source.as_ref().map_or(Value::None, |s| shown(s, cards)),
                ),
            ],
            Kind::Restored {
                uid,
                card,
                after,
                rule,
            } => vec![
                ("uid", uid_value(*uid)),
                ("card", text(cards.name(*card))),
                ("after", Value::Int(*after)),
                ("rule", text(rule)),
            ],
            Kind::ComponentsGained {
                player,
                amount,
                source,
            }
            | Kind::ComponentsPaid {
                player,
                amount,
                source,
            } => vec![
                ("player", int(*player)),
                ("amount", Value::Int(*amount)),
                ("source", shown(source, cards)),
            ],
            Kind::ComponentsExtracted {
                player,
                card,
                uid,
                amount,
            } => vec![
                ("player", int(*player)),
                ("card", text(cards.name(*card))),
                ("uid", uid_value(*uid)),
                ("amount", Value::Int(*amount)),
            ],
            Kind::ComponentsDeclined { player, card, uid } => vec![
                ("player", int(*player)),
                ("card", text(cards.name(*card))),
                ("uid", uid_value(*uid)),
            ],
            Kind::StartingPlayer { player } => vec![("player", int(*player))],
            Kind::VpRegenerated {
                player,
                amount,
                after,
                rule,
            } => vec![
                ("player", int(*player)),
                ("amount", Value::Int(*amount)),
                ("after", Value::Int(*after)),
                ("rule", text(rule)),
            ],
        }
    }
}

/// `emit!(game, Kind::X { .. })`: log an event, built only when the log may keep it, an
/// outcome is recorded or the trigger watch looks at its kind - at the outcome level, which
/// keeps only `game_over` (emitted with `Game::emit`), any other event is counted and never
/// built (`EventLog.quiet`: its emitter skips building it), but for the kinds an outcome
/// recorder reads (`outcome::records`) while one records. Written `Kind::X { .. }`, whether
/// the watch looks at it is known from `X` before it is built (`triggers::looked_at`);
/// handed a built kind, the watch looks at it while it listens at all.
#[macro_export]
macro_rules! emit {
    ($game:expr, Kind::$variant:ident $fields:tt) => {
        $crate::emit!(
            $game,
            looked $game
                .watch
                .looks_at(const { $crate::triggers::looked_at(stringify!($variant)) }),
            Kind::$variant $fields
        )
    };
    // `emit!(game, looked COND, Kind::X { .. })`: the watch asked by COND, not by the kind
    // alone (a death: `Watch::looks_at_death`)
    ($game:expr, looked $looked:expr, Kind::$variant:ident $fields:tt) => {
        if $looked {
            // built before the game is lent: its fields may read the game
            let kind = Kind::$variant $fields;
            $crate::triggers::observe($game, kind);
        } else if !$game
            .log
            .builds(const { $crate::outcome::records(stringify!($variant)) })
        {
            $game.log.emitted += 1;
        } else {
            let kind = Kind::$variant $fields;
            $game.log.emit(kind);
        }
    };
    // `emit!(game, unrecorded Kind::X { .. })`: an event of a kind the outcome recorder reads
    // that it skips all the same (`Outcome::record`: a rule's or an action's `resolving`),
    // not built for it
    ($game:expr, unrecorded Kind::$variant:ident $fields:tt) => {
        if $game
            .watch
            .looks_at(const { $crate::triggers::looked_at(stringify!($variant)) })
        {
            let kind = Kind::$variant $fields;
            $crate::triggers::observe($game, kind);
        } else if !$game.log.builds(false) {
            $game.log.emitted += 1;
        } else {
            let kind = Kind::$variant $fields;
            $game.log.emit(kind);
        }
    };
    ($game:expr, $kind:expr) => {
        if $game.watch.listening {
            // a card of the game has a triggered ability: every event is looked at
            let kind = $kind;
            $crate::triggers::observe($game, kind);
        } else if !$game.log.builds(true) {
            $game.log.emitted += 1;
        } else {
            let kind = $kind;
            $game.log.emit(kind);
        }
    };
}

/// Events a chunk of the log holds (about 32 kB of them).
const CHUNK: usize = 256;

/// A chunk of the log: its events and what they keep beside them (their [`Span`]s name
/// places in its `extras`), shared between copies of the game and dropped as one.
#[derive(Debug, Clone, Default)]
struct Chunk {
    events: Vec<Event>,
    extras: Extras,
}

/// The kept events, in fixed-size chunks: the log grows without copying what it holds (a
/// `Vec` growing by doubling moved a full-level game's ~600 kB once more in all, in ten
/// reallocations), and a copy of the game shares the full chunks (`Arc`) instead of copying
/// them; a shared chunk is copied only when changed (`Arc::make_mut`: a hidden event). The
/// chunk being filled is the log's own (`tail`, copied with the game): a push is a plain
/// `Vec` push, with no atomic check of an `Arc`'s counts, written in place.
#[derive(Debug, Clone, Default)]
pub struct Events {
    /// Full chunks, `CHUNK` events each.
    full: Vec<Arc<Chunk>>,
    /// The events after them: fewer than `CHUNK`, in room for at most `CHUNK`.
    tail: Chunk,
}

impl Events {
    pub fn len(&self) -> usize {
        self.full.len() * CHUNK + self.tail.events.len()
    }

    pub fn is_empty(&self) -> bool {
        self.full.is_empty() && self.tail.events.is_empty()
    }

    #[inline]
    pub fn push(&mut self, event: Event) {
        self.push_with_room(event, false);
    }

    /// [`Events::push`], a tail begun with room for a whole chunk if `whole` (a log that
    /// keeps more than the game's end): the first chunk is not grown by doubling, copying its
    /// events each time.
    #[inline]
    pub fn push_with_room(&mut self, event: Event, whole: bool) {
        // room known here, the push needs no growing path: the event is written in place
        // instead of kept aside across a call that may grow the chunk
        if self.tail.events.len() < self.tail.events.capacity() {
            self.tail.events.push(event);
        } else {
            self.push_into_new_room(event, whole);
        }
    }

    /// [`Events::push_with_room`] of the event `make` makes once room is known: it is written
    /// in place, not made aside and copied in (an event is 128 bytes).
    #[inline]
    pub fn push_made(&mut self, whole: bool, make: impl FnOnce() -> Event) {
        if self.tail.events.len() < self.tail.events.capacity() {
            self.tail.events.push(make());
        } else {
            self.push_into_new_room(make(), whole);
        }
    }

    /// A push to a full tail: it becomes a shared chunk and a new one is begun with room for
    /// a whole chunk; a tail not yet whole (the first, or one copied) grows to a whole chunk
    /// if `whole`, else by doubling up to `CHUNK` (a log at the outcome level keeps one event).
    #[cold]
    #[inline(never)]
    fn push_into_new_room(&mut self, event: Event, whole: bool) {
        if self.tail.events.len() >= CHUNK {
            self.seal_tail();
        } else {
            // `with_capacity` gives exactly the room asked for: never more than `CHUNK`
            let room = if whole {
                CHUNK
            } else {
                (self.tail.events.len() * 2).clamp(4, CHUNK)
            };
            let mut grown = Vec::with_capacity(room);
            grown.append(&mut self.tail.events);
            self.tail.events = grown;
        }
        self.tail.events.push(event);
    }

    /// The full tail becomes a shared chunk, a new one begun with room for a whole chunk.
    #[cold]
    #[inline(never)]
    fn seal_tail(&mut self) {
        let chunk = Chunk {
            events: Vec::with_capacity(CHUNK),
            extras: Extras::default(),
        };
        self.full
            .push(Arc::new(std::mem::replace(&mut self.tail, chunk)));
    }

    /// Where the next event pushed keeps its lists and written texts: its chunk's extras (a
    /// full tail is sealed first, so the event lands in the chunk they are put in). Put them
    /// just before the event is built, and push it next (or drop it: [`Log::emit`]).
    #[inline]
    pub fn extras_mut(&mut self) -> &mut Extras {
        if self.tail.events.len() >= CHUNK {
            self.seal_tail();
        }
        &mut self.tail.extras
    }

    /// The extras a kind built and not pushed yet reads its parts from (the tail's).
    pub fn staged(&self) -> &Extras {
        &self.tail.extras
    }

    /// What a kind not kept put in the tail's extras, taken back (it was the last to put any).
    pub fn forget(&mut self, kind: &Kind) {
        self.tail.extras.forget(kind);
    }

    pub fn get(&self, index: usize) -> Option<&Event> {
        self.get_with(index).map(|(event, _)| event)
    }

    /// The event at `index` with its chunk's extras (its lists and written texts).
    pub fn get_with(&self, index: usize) -> Option<(&Event, &Extras)> {
        let chunk = match self.full.get(index / CHUNK) {
            Some(chunk) => chunk,
            None => &self.tail,
        };
        let at = index - (index / CHUNK).min(self.full.len()) * CHUNK;
        chunk.events.get(at).map(|event| (event, &chunk.extras))
    }

    pub fn last(&self) -> Option<&Event> {
        match self.tail.events.last() {
            Some(event) => Some(event),
            None => self.full.last()?.events.last(),
        }
    }

    pub fn iter(&self) -> impl Iterator<Item = &Event> {
        self.iter_with().map(|(event, _)| event)
    }

    /// The events, each with its chunk's extras.
    pub fn iter_with(&self) -> impl Iterator<Item = (&Event, &Extras)> {
        self.full
            .iter()
            .map(|chunk| &**chunk)
            .chain(std::iter::once(&self.tail))
            .flat_map(|chunk| chunk.events.iter().map(|event| (event, &chunk.extras)))
    }

    /// The events from `from` on, to change (their chunks unshared).
    pub fn iter_mut_from(&mut self, from: usize) -> impl Iterator<Item = &mut Event> {
        let skip = from.min(self.len());
        let in_full = self.full.len() * CHUNK;
        self.full
            .iter_mut()
            .skip(skip / CHUNK)
            .enumerate()
            .flat_map(move |(i, chunk)| {
                let start = if i == 0 { skip % CHUNK } else { 0 };
                Arc::make_mut(chunk).events.iter_mut().skip(start)
            })
            .chain(
                self.tail
                    .events
                    .iter_mut()
                    .skip(skip.saturating_sub(in_full)),
            )
    }

    pub fn truncate(&mut self, len: usize) {
        if len >= self.len() {
            return;
        }
        let whole = len / CHUNK;
        if whole < self.full.len() {
            // the chunk the cut falls in becomes the tail (copied if a copy shares it)
            self.full.truncate(whole + 1);
            let chunk = self.full.pop().expect("the chunk the cut falls in");
            self.tail = Arc::try_unwrap(chunk).unwrap_or_else(|shared| (*shared).clone());
        }
        self.tail.events.truncate(len - whole * CHUNK);
        // the parts of the events cut go with them: a step run again from its checkpoint
        // (`forward::Driven::restore`) puts its events' parts again, answer after answer
        self.tail.extras.trim(&self.tail.events);
    }

    pub fn clear(&mut self) {
        self.full.clear();
        self.tail.events.clear();
        self.tail.extras = Extras::default();
    }

    /// Only the events `keep` holds for, in order.
    pub fn retain(&mut self, mut keep: impl FnMut(&Event) -> bool) {
        let mut kept = Events::default();
        for (event, extras) in self.iter_with() {
            if keep(event) {
                let kind = extras.copy_into(&event.kind, kept.extras_mut());
                kept.push(Event { kind, ..*event });
            }
        }
        *self = kept;
    }

    /// The first `len` events (a copy sharing their full chunks).
    pub fn prefix(&self, len: usize) -> Events {
        if len >= self.len() {
            return self.clone();
        }
        let whole = len / CHUNK;
        let from = match self.full.get(whole) {
            Some(chunk) => chunk,
            None => &self.tail,
        };
        let mut events = Vec::with_capacity(CHUNK);
        events.extend_from_slice(&from.events[..len - whole * CHUNK]);
        Events {
            full: self.full[..whole].to_vec(),
            tail: Chunk {
                events,
                extras: from.extras.clone(),
            },
        }
    }
}

/// The same events, their lists and written texts read (two logs may keep them at other
/// places in their extras).
impl PartialEq for Events {
    fn eq(&self, other: &Self) -> bool {
        let read = |(event, extras): (&Event, &Extras)| {
            let mut own = Extras::default();
            let kind = extras.copy_into(&event.kind, &mut own);
            (Event { kind, ..*event }, own)
        };
        self.len() == other.len() && self.iter_with().map(read).eq(other.iter_with().map(read))
    }
}

impl std::ops::Index<usize> for Events {
    type Output = Event;

    fn index(&self, index: usize) -> &Event {
        self.get(index).expect("event index out of range")
    }
}

/// The append-only log at a level: what the level drops is counted, never built.
#[derive(Debug, Clone)]
pub struct Log {
    pub level: Level,
    pub events: Events,
    pub turn: u32,
    pub step: &'static str,
    /// Events emitted, kept or not (the next `seq`).
    pub emitted: usize,
    /// What `hkk simulate` records of the game, when asked (`outcome::Outcome`).
    pub outcome: Option<Box<Outcome>>,
}

impl Log {
    pub fn new(level: Level) -> Self {
        Log {
            level,
            events: Events::default(),
            turn: 0,
            step: "",
            emitted: 0,
            outcome: None,
        }
    }

    /// Whether an event is built: kept by the level, or of a kind the outcome recorder reads
    /// (`recorded`: `outcome::records` of its variant) while one records.
    pub fn builds(&self, recorded: bool) -> bool {
        self.level != Level::Outcome || (recorded && self.outcome.is_some())
    }

    pub fn emit(&mut self, kind: Kind) {
        if self.outcome.is_some() {
            self.record(&kind);
        }
        if kind.kept_at(self.level) {
            let whole = self.level != Level::Outcome;
            let (seq, turn, step) = (self.emitted, self.turn, self.step);
            self.events.push_made(whole, || Event {
                seq, // the seq it has in the full log
                turn,
                step,
                kind,
            });
        } else {
            self.events.forget(&kind);
        }
        self.emitted += 1;
    }

    /// The outcome recorder's reading of an event, kept out of [`Log::emit`]: a log that
    /// keeps every event pays no more for a recorder it lacks than a check.
    #[inline(never)]
    fn record(&mut self, kind: &Kind) {
        if let Some(outcome) = &mut self.outcome {
            outcome.record(kind, self.events.staged(), self.turn);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pool() -> CardPool {
        let card = |id: &str| {
            crate::cards::Card::new(
                id.into(),
                "creature".into(),
                (1, 0, 1, 1, 0),
                false,
                Vec::new(),
                &[],
                &[],
            )
        };
        CardPool::new(vec![card("alap:tuz"), card("t:c01")])
    }

    #[test]
    fn texts_written_when_read_are_what_the_eager_labels_were() {
        let cards = pool();
        let card = cards.id("t:c01").unwrap();
        for (uid, index, copy) in [(0, 0, 0), (40, 2, 0), (7, 1, 3), (u32::MAX, 12, 10)] {
            let item = crate::interpret::Item {
                controller: 0,
                uid,
                card,
                index: index as usize,
                optional: false,
                activation: None,
                trigger: None,
                copy,
            };
            for prefix in [Prefix::None, Prefix::Use] {
                let eager = item.label_after(prefix.as_str(), &cards);
                assert_eq!(item.text(prefix).render(&cards), eager);
            }
            let offer = crate::state::ExtractionOffer {
                card,
                uid,
                count: 1,
                player: 0,
                phase: "main",
            };
            assert_eq!(offer.text().render(&cards), offer.label(&cards));
            for prefix in [
                Prefix::None,
                Prefix::UseGuard,
                Prefix::Guard,
                Prefix::AttackWith,
                Prefix::BlockWith,
                Prefix::Target,
            ] {
                let text = Text::Card { prefix, card, uid };
                let eager = format!("{}t:c01#{uid}", prefix.as_str());
                assert_eq!(text.render(&cards), eager);
                assert_eq!(text.uid(), Some(u64::from(uid)));
            }
        }
        let play = Text::Name {
            prefix: Prefix::Play,
            card,
        };
        assert_eq!(play.render(&cards), ["play ", cards.name(card)].concat());
        assert_eq!(play.uid(), None);
        assert_eq!(Text::from("pass").render(&cards), "pass");
        let mut extras = Extras::default();
        let written = extras.put_label(&"x#5".to_string().into());
        assert_eq!(extras.choice(&written, &cards), "x#5");
        // no larger than the `String` it replaces: events and options stay as small
        assert_eq!(std::mem::size_of::<Text>(), std::mem::size_of::<String>());
        // a chosen option's written label kept beside the events: a choice is no larger
        assert_eq!(std::mem::size_of::<Choice>(), std::mem::size_of::<String>());
        assert!(std::mem::size_of::<Event>() <= 128);
    }

    #[test]
    fn the_outcome_level_keeps_only_the_game_over() {
        let mut log = Log::new(Level::Outcome);
        log.emit(Kind::StartingPlayer { player: 1 });
        log.emit(Kind::GameEnded {
            winner: None,
            reason: "turn_limit",
            rule: "D-turn-limit",
        });
        assert_eq!(log.events.len(), 1);
        assert_eq!(log.events[0].seq, 1);
        assert_eq!(log.emitted, 2);
    }

    #[test]
    fn the_compact_level_drops_bookkeeping_and_keeps_full_seqs() {
        let mut log = Log::new(Level::Compact);
        log.emit(Kind::Decided {
            player: 0,
            decision: "start",
            choice: "start".into(),
            options: 2,
            rule: Some("28"),
        });
        log.emit(Kind::HpCheck {
            rule: "41.4",
            dead: Span::default(),
            round: None,
        });
        log.emit(Kind::StepEnded { hook: "main_phase" });
        log.emit(Kind::StartingPlayer { player: 0 });
        assert_eq!(log.events.len(), 1);
        assert_eq!(log.events[0].seq, 3);
    }

    fn numbered(n: usize) -> Event {
        Event {
            seq: n,
            turn: 0,
            step: "",
            kind: Kind::StartingPlayer { player: n % 2 },
        }
    }

    #[test]
    fn the_chunked_events_behave_as_a_list() {
        for len in [0, 1, CHUNK - 1, CHUNK, CHUNK + 1, 3 * CHUNK, 3 * CHUNK + 7] {
            let model: Vec<Event> = (0..len).map(numbered).collect();
            let mut events = Events::default();
            // a whole chunk's room made first: the same list
            let whole = len % 2 == 1;
            model
                .iter()
                .cloned()
                .for_each(|e| events.push_with_room(e, whole));
            assert_eq!(events.len(), len);
            assert!(events.full.iter().all(|chunk| chunk.events.len() == CHUNK));
            assert!(events.tail.events.len() <= CHUNK && events.tail.events.capacity() <= CHUNK);
            assert!(events.iter().eq(model.iter()));
            assert!((0..len).all(|i| events[i] == model[i] && events.get(i) == Some(&model[i])));
            assert_eq!(events.last(), model.last());
            assert_eq!(events.get(len), None);
            for cut in [0, 1, CHUNK - 1, CHUNK, CHUNK + 1, 2 * CHUNK, len] {
                let cut = cut.min(len);
                let prefix = events.prefix(cut);
                assert!(prefix.iter().eq(model[..cut].iter()), "{len} {cut}");
                let mut cut_back = events.clone();
                cut_back.truncate(cut);
                assert_eq!(cut_back, prefix);
                // a shared chunk changed is copied first: the log cut from stays whole
                cut_back.push(numbered(9999));
                for e in cut_back.iter_mut_from(cut.saturating_sub(3)) {
                    e.turn = 7;
                }
                assert!(events.iter().eq(model.iter()));
                assert_eq!(cut_back.len(), cut + 1);
                assert!(cut_back
                    .iter()
                    .skip(cut.saturating_sub(3))
                    .all(|e| e.turn == 7));
                assert!(cut_back
                    .iter()
                    .take(cut.saturating_sub(3))
                    .all(|e| e.turn == 0));
                assert_eq!(cut_back[cut].seq, 9999);
            }
            let mut odd = events.clone();
            odd.retain(|e| e.seq % 2 == 1);
            assert!(odd.iter().eq(model.iter().filter(|e| e.seq % 2 == 1)));
        }
    }

    /// The uids each `hp_check` of `events` names, read from its chunk's extras.
    fn deaths(events: &Events) -> Vec<Vec<u32>> {
        events
            .iter_with()
            .filter_map(|(e, extras)| match e.kind {
                Kind::HpCheck { dead, .. } => Some(extras.uids(dead).to_vec()),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn an_events_lists_stay_with_it_across_chunks_copies_and_cuts() {
        let mut log = Log::new(Level::Full);
        let len = 3 * CHUNK + 5;
        for n in 0..len as u32 {
            if n % 3 == 0 {
                let dead = log.events.extras_mut().put_uids([n, n + 1]);
                log.emit(Kind::HpCheck {
                    rule: "41.4",
                    dead,
                    round: None,
                });
            } else {
                log.emit(Kind::StartingPlayer { player: 0 });
            }
        }
        let model: Vec<Vec<u32>> = (0..len as u32)
            .filter(|n| n % 3 == 0)
            .map(|n| vec![n, n + 1])
            .collect();
        assert_eq!(deaths(&log.events), model);
        let copy = log.events.clone();
        for cut in [1, CHUNK, CHUNK + 1, 2 * CHUNK + 2] {
            let prefix = log.events.prefix(cut);
            let kept = cut.div_ceil(3);
            assert_eq!(deaths(&prefix), model[..kept]);
            let mut cut_back = log.events.clone();
            cut_back.truncate(cut);
            assert_eq!(cut_back, prefix);
            // what a copy puts after the cut is its own
            let dead = cut_back.extras_mut().put_uids([9999]);
            cut_back.push(Event {
                kind: Kind::HpCheck {
                    rule: "",
                    dead,
                    round: None,
                },
                ..log.events[0]
            });
            assert_eq!(deaths(&cut_back).last(), Some(&vec![9999]));
            assert_eq!(deaths(&log.events), model);
        }
        let mut odd = copy.clone();
        odd.retain(|e| e.seq % 2 == 1);
        let odd_model: Vec<Vec<u32>> = model.iter().filter(|d| d[0] % 2 == 1).cloned().collect();
        assert_eq!(deaths(&odd), odd_model);
        assert_eq!(copy, log.events);
        let cards = pool();
        let fields = log.events[0].fields(log.events.get_with(0).unwrap().1, &cards);
        assert_eq!(fields[1], ("dead", Value::Ints(vec![0, 1])));
    }

    #[test]
    fn a_cut_lets_go_of_the_parts_of_the_events_it_cuts() {
        // a step run again from its checkpoint, answer after answer: cut back, put again
        let mut log = Log::new(Level::Full);
        let hp_check = |log: &mut Log, n: u32| {
            let dead = log.events.extras_mut().put_uids([n, n + 1, n + 2]);
            log.emit(Kind::HpCheck {
                rule: "41.4",
                dead,
                round: None,
            });
        };
        for n in 0..10 {
            hp_check(&mut log, n);
        }
        let once = log.events.staged().clone();
        for n in 0..100 {
            log.events.truncate(5);
            for m in 5..10 {
                hp_check(&mut log, m + 1000 * n);
            }
        }
        assert_eq!(
            log.events.staged().read().uids.len(),
            once.read().uids.len()
        );
        assert_eq!(deaths(&log.events)[9], vec![99009, 99010, 99011]);
        assert_eq!(deaths(&log.events)[4], vec![4, 5, 6]);
    }

    #[test]
    fn what_a_kind_not_kept_put_beside_the_events_is_taken_back() {
        let mut log = Log::new(Level::Outcome);
        log.outcome = Some(Box::default());
        let extras = log.events.extras_mut();
        let attackers = extras.put_uids([3, 4]);
        let blockers = extras.put_blockers([None, Some(5)]);
        log.emit(Kind::Attack {
            attackers,
            blockers,
            rule: "D-combat",
        });
        let counter = log.events.extras_mut().put_str("fire");
        log.emit(Kind::CountersAdded {
            uid: 3,
            card: CardId::NONE,
            counter,
            amount: 1,
            after: 1,
            source: Text::default(),
        });
        assert!(log.events.is_empty());
        assert_eq!(log.events.staged(), &Extras::default());
        // an empty list put nothing: what others put stays (a compact log's empty hp_check)
        let mut log = Log::new(Level::Compact);
        let dead = log.events.extras_mut().put_uids([7]);
        log.emit(Kind::HpCheck {
            rule: "41.4",
            dead,
            round: None,
        });
        log.emit(Kind::HpCheck {
            rule: "41.4",
            dead: Span::default(),
            round: None,
        });
        assert_eq!(deaths(&log.events), [vec![7]]);
    }

    #[test]
    fn an_absent_optional_field_is_marked_so() {
        let mut log = Log::new(Level::Full);
        log.emit(Kind::Passed {
            player: 0,
            rule: "4.11.7",
            forced: None,
        });
        assert_eq!(
            log.events[0].fields(&Extras::default(), &CardPool::default())[2],
            ("forced", Value::Absent)
        );
    }

    #[test]
    fn events_carry_their_envelope_and_fields_in_order() {
        let mut log = Log::new(Level::Full);
        log.emit(Kind::CardDrawn {
            player: 0,
            card: CardId::NONE,
            source: "setup".into(),
        });
        let event = &log.events[0];
        assert_eq!((event.seq, event.turn, event.step), (0, 0, ""));
        let names: Vec<&str> = event
            .fields(&Extras::default(), &CardPool::default())
            .iter()
            .map(|(n, _)| *n)
            .collect();
        assert_eq!(names, ["player", "card", "source"]);
        assert_eq!(event.kind.name(), "card_drawn");
    }
}
