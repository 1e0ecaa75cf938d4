//! Triggered abilities ("Amikor ..."): the trigger watch over the log (`hkk._trigger_watch`),
//! its waiting items resolved (`hkk._trigger_queue`), and the events' subjects
//! (`hkk._cards.trigger_events`). Every event is looked at as it is logged (`emit!` hands it
//! to [`observe`] while a card of the game has a triggered ability); what it sets off waits
//! (`triggered`) and resolves as the step's `triggers` setting says (D-trigger-wait): after the
//! item or action and its Ép check ([`settle`]), ordered by the active player
//! (D-trigger-order); in the pool of prep stage 2 (29.4.1, D-trigger-prep, `steps.rs`); never
//! in end stage 4 (41.4, D-trigger-end4).

use std::collections::HashMap;
use std::hash::BuildHasherDefault;

use crate::cards::{CardId, CardPool, TriggerEvent, Which, WhoseTurn, WordHash};
use crate::decisions::{Decision, Label};
use crate::emit;
use crate::errors::{Flow, Halt};
use crate::events::{Kind, Prefix};
use crate::game::Game;
use crate::interpret::{resolve, Item};
use crate::phases::{Step, Triggers};

/// What the event that set a triggered ability off bound (`ctx.trigger`): the `trigger_*`
/// targets and the event's amount.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Bound {
    pub permanent: Option<u32>,
    pub source: Option<u32>,
    pub player: Option<usize>,
    pub amount: Option<i64>,
}

/// A triggered item waiting to resolve, with the length of its chain of causes (itself
/// included): the Python engine keeps the causes' labels, but reads only how many there are
/// (D-trigger-loop), so none is written here.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Waiting {
    pub item: Item,
    pub chain: usize,
}

impl Waiting {
    pub fn key(&self) -> u64 {
        self.item.trigger.map_or(0, |(_, key)| key)
    }
}

/// The stable order where no player decides (`Pending.order`): controller, timestamp, card,
/// ability, label (compared unwritten: where the rest ties, only the copy differs).
pub fn order(a: &Item, b: &Item) -> std::cmp::Ordering {
    (a.controller, a.uid, a.index)
        .cmp(&(b.controller, b.uid, b.index))
        .then_with(|| copy_order(a.copy, b.copy))
}

/// Two labels of one ability of one permanent compared as text, unwritten: they differ only
/// in the copy's " (n)" suffix, none first (a prefix of the others), then the numbers'
/// digits as text (")" sorts before a digit: "(2)" < "(23)" < "(3)").
fn copy_order(a: u32, b: u32) -> std::cmp::Ordering {
    match (a, b) {
        _ if a == b => std::cmp::Ordering::Equal,
        (0, _) => std::cmp::Ordering::Less,
        (_, 0) => std::cmp::Ordering::Greater,
        _ => digits(a, &mut [0; 10]).cmp(digits(b, &mut [0; 10])),
    }
}

/// `n`'s decimal digits as text, written at the end of `room` (no string made).
fn digits(mut n: u32, room: &mut [u8; 10]) -> &[u8] {
    let mut at = room.len();
    loop {
        at -= 1;
        room[at] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            return &room[at..];
        }
    }
}

impl Watch {
    /// The watch of a new game: it listens if a card of the game has a triggered ability,
    /// for the trigger events `watched` (`TriggerEvent::bit`s), any permanent's (none
    /// known to be "this" only).
    pub fn new(watched: u16) -> Watch {
        Watch {
            listening: watched != 0,
            watched,
            others: watched,
            always: LOOKED_AT_ALWAYS,
            killers: watched & TriggerEvent::Dies.bit() != 0,
            ..Watch::default()
        }
    }

    /// The watch of a game of the cards `cards`: as [`Watch::new`] for the trigger events
    /// they watch, knowing which of them only a "when this ..." ability watches.
    pub fn of_pool(cards: &CardPool) -> Watch {
        let mut watch = Watch::new(cards.trigger_events());
        watch.others = cards
            .abilities()
            .filter_map(|a| a.when.as_ref())
            .filter(|w| w.which != Which::This)
            .fold(0, |bits, w| bits | w.event.bit());
        watch.killers = cards
            .abilities()
            .filter(|a| {
                a.when
                    .as_ref()
                    .is_some_and(|w| w.event == TriggerEvent::Dies)
            })
            .flat_map(|a| &a.effects)
            .any(|e| e.target == crate::effects::TargetSpec::TriggerSource);
        if watch.others & TriggerEvent::EffectEnds.bit() == 0 {
            // an effect's end is seen only by a target watching it, in play as the effect
            // started: with none in play, neither its start nor its end is looked at
            watch.always &= !TriggerEvent::EffectEnds.bit();
        }
        watch
    }

    /// Whether a permanent's killer is kept as it takes damage (`last_hit`): only a "dies"
    /// ability aimed at the killer (`trigger_source`) reads it (D-trigger-killer).
    pub fn keeps_killers(&self) -> bool {
        self.killers
    }

    /// Whether only a permanent the event happened to can listen for `trigger`: every
    /// ability of the game's cards watching it is a "when this ..." one.
    fn only_this(&self, trigger: TriggerEvent) -> bool {
        self.others & trigger.bit() == 0
    }
}

/// The trigger events whose events are looked at even while no permanent in play watches
/// them: a death is kept for the dead's own "dies" abilities (D-trigger-lookback), an
/// effect's targets for its end (unless only a "when this ..." ability watches effects'
/// ends: [`Watch::of_pool`]).
const LOOKED_AT_ALWAYS: u16 = TriggerEvent::Dies.bit() | TriggerEvent::EffectEnds.bit();

impl Watch {
    /// Whether an event of a kind that sets off `events` (`looked_at`) is looked at: a card
    /// of the game watches one of them, and a permanent in play does (the others' listeners
    /// are the permanents in play: with none, [`detect`] finds nothing), or it is one of
    /// [`LOOKED_AT_ALWAYS`] (kept in `always`).
    pub fn looks_at(&self, events: u16) -> bool {
        self.watched & events & (self.in_play | self.always) != 0
    }

    /// Whether a card of the game watches one of `events` (`TriggerEvent::bit`s).
    pub fn watches(&self, events: u16) -> bool {
        self.watched & events != 0
    }

    /// Whether the death of a permanent whose card watches `triggers` is looked at (instead
    /// of [`Watch::looks_at`]): a card of the game watches deaths, and the dead does, or a
    /// permanent in play does, or one gone since the last settle may (D-trigger-lookback);
    /// else no listener could see it, and no later death's listener could see this one.
    pub fn looks_at_death(&self, triggers: u16) -> bool {
        let dies = TriggerEvent::Dies.bit();
        self.watched & dies != 0 && ((triggers | self.in_play) & dies != 0 || !self.gone.is_empty())
    }

    /// A permanent whose card watches `triggers` (`TriggerEvent::bit`s) enters play (`by` 1)
    /// or leaves it (`by` -1): `Game::enter_play`, `Game::leave_play`.
    pub fn count_in_play(&mut self, triggers: u16, by: i16) {
        if triggers == 0 {
            return;
        }
        let mut bits = triggers;
        while bits != 0 {
            let at = bits.trailing_zeros() as usize;
            self.in_play_counts[at] = self.in_play_counts[at].wrapping_add_signed(by);
            bits &= bits - 1;
        }
        self.in_play = (0..16)
            .filter(|&at| self.in_play_counts[at] != 0)
            .fold(0, |mask, at| mask | 1 << at);
    }
}

pub const fn same(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// The trigger events [`detect`] reads an event of the `Kind` variant named `variant` for
/// (`TriggerEvent::of_kind` of its names, and what it keeps for them: an effect's targets
/// for "effect ends", the dead for "dies"), as `TriggerEvent::bit`s: `emit!` reads it at
/// compile time and builds no other event for the watch.
pub const fn looked_at(variant: &str) -> u16 {
    use TriggerEvent::*;
    if same(variant, "Attack") {
        Attacks.bit() | Blocks.bit() | IsBlocked.bit()
    } else if same(variant, "CardPlayed") {
        CardPlayed.bit()
    } else if same(variant, "Damaged") {
        Damaged.bit() | DealsCombatDamage.bit() | TakesCombatDamage.bit()
    } else if same(variant, "PlayerDamaged") {
        DealsCombatDamage.bit()
    } else if same(variant, "Died") {
        Dies.bit()
    } else if same(variant, "EffectStarted") || same(variant, "EffectEnded") {
        EffectEnds.bit()
    } else if same(variant, "EnteredPlay") {
        EntersPlay.bit()
    } else {
        0
    }
}

/// The watch's maps by uid hash with the card pool's FxHash, not SipHash: a uid is no
/// attacker's key, and SipHash was ~1 % of a base game (a hit is kept on every damage). Nothing
/// iterates them, so their order is never read.
type UidHash = BuildHasherDefault<WordHash>;

/// The game's trigger watch (`TriggerDetection`). Cloned field by field (`clone_fields!`):
/// restoring or keeping a checkpoint reuses its lists and maps (a derived `clone_from` made
/// them again, at every answer from outside).
#[derive(Debug, Default)]
pub struct Watch {
    /// A card of the game has a triggered ability: every event is looked at.
    pub listening: bool,
    /// The trigger events a card of the game watches (`TriggerEvent::bit`s): an event that
    /// sets off none of them has nothing to find.
    watched: u16,
    /// The trigger events a permanent in play watches, and how many watch each (by its bit's
    /// place): an event setting off none of them has no listener but the dead's.
    in_play: u16,
    in_play_counts: [u16; 16],
    /// The trigger events a card of the game watches with an ability other than a "when
    /// this ..." one (`Which::This`): for the others, only the permanents an event happened
    /// to are listeners.
    others: u16,
    /// [`LOOKED_AT_ALWAYS`], less what [`Watch::of_pool`] knows no listener could see.
    always: u16,
    /// A "dies" ability of a card of the game aims at the killer: `last_hit` is kept.
    killers: bool,
    /// Triggered items waiting to resolve, in the order they were triggered.
    pub waiting: Vec<Waiting>,
    /// The length of the chain of the trigger resolving now (0: none): what it sets off
    /// continues it.
    pub cause: usize,
    count: u64,
    /// Triggers set off by the cause being settled now (D-trigger-loop).
    set_off: usize,
    /// Triggered items resolved (D-work-limit), and the count the turn began at.
    resolved: u64,
    work_turn: u32,
    turn_began_at: u64,
    /// Permanents that left play since the last settle, (uid, card, controller): "when ...
    /// dies" abilities of permanents dying together still see each other
    /// (D-trigger-lookback).
    gone: Vec<(u32, CardId, usize)>,
    /// effect uid -> the uids it modifies, for "an effect on it ends".
    effect_targets: HashMap<u32, Vec<u32>, UidHash>,
    /// A permanent's uid -> (the permanent whose damage it took last, the turn): its killer
    /// (D-trigger-killer), kept only while `killers`.
    pub last_hit: HashMap<u32, (Option<u32>, u32), UidHash>,
    /// The creature whose combat damage the combat rule deals now (D-trigger-combat).
    pub combat_source: Option<u32>,
    /// A limit passed while an event was logged: the game stops at the next settle.
    halt: Option<String>,
    /// [`detect`]'s lists, kept between events so that detecting makes none: the cards
    /// listening for a trigger event and what the event happened to (emptied before use;
    /// a copy of the watch copies them empty or nearly, and never reads them).
    listeners: Vec<(u32, CardId, usize)>,
    subjects: Vec<Subject>,
    /// The items an event set off, between [`detect`] and their queueing.
    found: Vec<Item>,
}

crate::clone_fields!(Watch {
    listening,
    watched,
    in_play,
    in_play_counts,
    others,
    always,
    killers,
    waiting,
    cause,
    count,
    set_off,
    resolved,
    work_turn,
    turn_began_at,
    gone,
    effect_targets,
    last_hit,
    combat_source,
    halt,
    listeners,
    subjects,
    found
});

/// What an event happened to (`Subject`).
#[derive(Debug, Clone)]
struct Subject {
    uid: Option<u32>,
    controller: usize,
    card_kind: &'static str,
    bound: Bound,
}

/// The kind of a card (`creature`, `spell`, `building`; "" for none), without a copy.
fn kind_of(game: &Game, card: CardId) -> &'static str {
    match game.cards.get(card).map(|c| c.kind.as_str()) {
        Some("creature") => "creature",
        Some("spell") => "spell",
        Some("building") => "building",
        _ => "",
    }
}

fn in_play(game: &Game, uid: u32) -> Option<Subject> {
    let perm = game.permanent(uid)?;
    Some(Subject {
        uid: Some(uid),
        controller: perm.controller,
        card_kind: kind_of(game, perm.card),
        bound: Bound {
            permanent: Some(uid),
            player: Some(perm.controller),
            ..Bound::default()
        },
    })
}

/// `TriggerEvent.subjects`: what `kind` happened to, for the trigger event `trigger`, put in
/// `out` (the watch's list, emptied first: an event's detection makes none); `ended`: an
/// ended effect's targets, which the event does not name (the watch kept them, [`detect`]
/// takes them out).
fn subjects(
    game: &Game,
    trigger: TriggerEvent,
    kind: &Kind,
    ended: &[u32],
    out: &mut Vec<Subject>,
) {
    out.clear();
    let alive = |game: &Game, uid: Option<u32>| uid.filter(|&u| game.permanent(u).is_some());
    match (trigger, kind) {
        (
            TriggerEvent::Dies,
            Kind::Died {
                card,
                uid,
                controller,
                cause,
                ..
            },
        ) => {
            // D-trigger-killer: died of Ép loss, the permanent whose damage it took last this
            // turn, if in play
            let hit = match game.watch.last_hit.get(uid) {
                Some(&(by, turn)) if *cause == "hp" && turn == game.turn => by,
                _ => None,
            };
            out.push(Subject {
                uid: Some(*uid),
                controller: *controller,
                card_kind: kind_of(game, *card),
                bound: Bound {
                    source: alive(game, hit),
                    player: Some(*controller),
                    ..Bound::default()
                },
            });
        }
        (
            TriggerEvent::Damaged,
            Kind::Damaged {
                uid,
                amount,
                source_uid,
                ..
            },
        ) => out.extend(in_play(game, *uid).map(|mut s| {
            s.bound.amount = Some(*amount);
            // D-trigger-source: the permanent whose ability or combat dealt it, in play
            s.bound.source = alive(game, *source_uid);
            s
        })),
        (TriggerEvent::EntersPlay, Kind::EnteredPlay { uid, .. }) => {
            out.extend(in_play(game, *uid));
        }
        (TriggerEvent::EffectEnds, Kind::EffectEnded { .. }) => {
            out.extend(ended.iter().filter_map(|&u| in_play(game, u)));
        }
        (TriggerEvent::CardPlayed, Kind::CardPlayed { player, card, .. }) => out.push(Subject {
            uid: None,
            controller: *player,
            card_kind: kind_of(game, *card),
            bound: Bound {
                player: Some(*player),
                ..Bound::default()
            },
        }),
        (
            TriggerEvent::Attacks | TriggerEvent::Blocks | TriggerEvent::IsBlocked,
            Kind::Attack {
                attackers,
                blockers,
                ..
            },
        ) => {
            // the attackers (or blockers) still in play, each with the creature it fights
            let extras = game.log.events.staged();
            let pairs: Vec<(u32, Option<u32>)> = (extras.uids(*attackers).iter().copied())
                .zip(extras.blockers(*blockers).iter().copied())
                .collect();
            for (attacker, blocker) in pairs {
                let attacker = alive(game, Some(attacker));
                let blocker = alive(game, blocker);
                let (perm, other) = if trigger == TriggerEvent::Blocks {
                    (blocker, attacker)
                } else {
                    (attacker, blocker)
                };
                if trigger == TriggerEvent::IsBlocked && other.is_none() {
                    continue;
                }
                if let Some(mut s) = perm.and_then(|u| in_play(game, u)) {
                    s.bound.source = other;
                    out.push(s);
                }
            }
        }
        (TriggerEvent::DealsCombatDamage, Kind::Damaged { amount, .. })
        | (TriggerEvent::DealsCombatDamage, Kind::PlayerDamaged { amount, .. }) => {
            // D-trigger-combat: only while the combat rule deals it
            let dealer = alive(game, game.watch.combat_source);
            out.extend(dealer.and_then(|u| in_play(game, u)).map(|mut s| {
                s.bound.amount = Some(*amount);
                s
            }));
        }
        (TriggerEvent::TakesCombatDamage, Kind::Damaged { uid, amount, .. }) => {
            let Some(dealer) = game.watch.combat_source else {
                return;
            };
            out.extend(in_play(game, *uid).map(|mut s| {
                s.bound.amount = Some(*amount);
                s.bound.source = alive(game, Some(dealer));
                s
            }));
        }
        _ => {}
    }
}

/// `_matches`: the ability's `when` against the subject, seen from its permanent.
fn matches(when: &crate::cards::When, uid: u32, controller: usize, subject: &Subject) -> bool {
    match when.which {
        Which::This => return subject.uid == Some(uid),
        Which::Another if subject.uid == Some(uid) => return false,
        _ => {}
    }
    let mine = subject.controller == controller;
    match when.whose {
        WhoseTurn::Own if !mine => return false,
        WhoseTurn::Opponent if mine => return false,
        _ => {}
    }
    when.card_kind
        .as_ref()
        .is_none_or(|kind| kind == subject.card_kind)
}

/// An event is logged (`emit!` calls this while the watch listens): what it sets off is
/// found against the state it was logged in, then it is logged, then each item it set off
/// waits (`triggered`, after its cause).
pub fn observe(game: &mut Game, kind: Kind) {
    let seq = game.log.emitted;
    // the watch's list, given back below (an event that sets something off makes none)
    let mut found = std::mem::take(&mut game.watch.found);
    detect(game, &kind, &mut found);
    // the cause's name only where something was set off (most events set off nothing)
    let name = if found.is_empty() { "" } else { kind.name() };
    if game.log.builds(true) || kind.kept_at(game.log.level) {
        game.log.emit(kind);
    } else {
        // what the log drops is counted, not handed over (a kind is large to move); what it
        // put beside the events is taken back
        game.log.events.forget(&kind);
        game.log.emitted += 1;
    }
    for item in found.drain(..) {
        queue(game, item, name, seq);
    }
    game.watch.found = found;
}

/// `TriggerDetection._on_event`: the items `kind` sets off, put in `items` (empty).
fn detect(game: &mut Game, kind: &Kind, items: &mut Vec<Item>) {
    let watched = game.watch.watched;
    let is = |trigger: TriggerEvent| watched & trigger.bit() != 0;
    match kind {
        // what only an "effect ends" or a "dies" ability reads is kept only if one is watched
        Kind::EffectStarted {
            effect, targets, ..
        } => {
            let ends = TriggerEvent::EffectEnds;
            if !is(ends) {
                return;
            }
            if game.watch.only_this(ends) {
                // only a target watching its end can see it end: the others are not kept,
                // nor the effect with none
                let watching = |u: u32| {
                    let perm = game.permanent(u);
                    perm.is_some_and(|p| p.triggers & ends.bit() != 0)
                };
                let targets = game.log.events.staged().uids(*targets);
                if targets.iter().any(|&u| watching(u)) {
                    let kept = targets.iter().copied().filter(|&u| watching(u)).collect();
                    game.watch.effect_targets.insert(*effect, kept);
                }
            } else {
                let targets = game.log.events.staged().uids(*targets).to_vec();
                game.watch.effect_targets.insert(*effect, targets);
            }
            return;
        }
        Kind::Died {
            card,
            uid,
            controller,
            ..
        } if is(TriggerEvent::Dies) => {
            // seen until the next settle; its own "dies" ability too (D-trigger-lookback)
            game.watch.gone.push((*uid, *card, *controller));
        }
        _ => {}
    }
    let triggers = TriggerEvent::of_event(kind);
    if !triggers.iter().any(|&t| is(t)) {
        return; // no card of the game watches what this event sets off
    }
    let step = game.step.map(|i| &crate::phases::DEFAULT_TURN[i]);
    if step.is_some_and(|s| s.triggers == Triggers::None) {
        // 41.4: nothing is examined any more (an ended effect's targets are let go)
        if let Kind::EffectEnded { effect, .. } = kind {
            game.watch.effect_targets.remove(effect);
        }
        return;
    }
    let dying = matches!(kind, Kind::Died { .. });
    let mut listening = std::mem::take(&mut game.watch.listeners);
    let mut found = std::mem::take(&mut game.watch.subjects);
    let mut ended = Vec::new();
    for &trigger in triggers.iter().filter(|&&t| is(t)) {
        if !dying && trigger != TriggerEvent::EffectEnds && game.watch.in_play & trigger.bit() == 0
        {
            continue; // no permanent in play watches it: no listener, no subject to read
        }
        if let (TriggerEvent::EffectEnds, Kind::EffectEnded { effect, .. }) = (trigger, kind) {
            // its targets are let go as they are read (its subjects are read below, always)
            ended = game.watch.effect_targets.remove(effect).unwrap_or_default();
        }
        // read only from here on: the cards borrowed beside the game, not counted again
        let (game, cards) = (&*game, &game.cards);
        let watches = |&(_, card_id, _): &(u32, CardId, usize)| {
            cards
                .get(card_id)
                .is_some_and(|card| card.triggers & trigger.bit() != 0)
        };
        listening.clear();
        if game.watch.only_this(trigger) {
            // only "when this ..." abilities: the listeners are among the subjects, each
            // found by its uid (the permanents' walk below, less the entries no ability
            // of theirs could match), in the walk's (timestamp) order
            subjects(game, trigger, kind, &ended, &mut found);
            for uid in found.iter().filter_map(|s| s.uid) {
                let perm = game.permanent(uid);
                let perm = perm.filter(|p| p.triggers & trigger.bit() != 0);
                listening.extend(perm.map(|p| (p.uid, p.card, p.controller)));
            }
            if listening.len() > 1 {
                listening.sort_by_key(|e| e.0);
                listening.dedup_by_key(|e| e.0);
            }
            if dying {
                let gone = game.watch.gone.iter().copied();
                let seen = |e: &(u32, CardId, usize)| found.iter().any(|s| s.uid == Some(e.0));
                listening.extend(gone.filter(seen));
                listening.sort_by_key(|e| e.0);
            }
            listening.retain(watches);
            if listening.is_empty() {
                continue;
            }
        } else {
            // the index's entries: in play, and (for a death) gone since the last settle;
            // only those whose card watches this trigger event
            let gone = game.watch.gone.iter().filter(|_| dying);
            // the walk stops at the last permanent in play watching it
            let watching = usize::from(game.watch.in_play_counts[trigger as usize]);
            let entries = game
                .permanents
                .iter()
                .filter(|p| p.triggers & trigger.bit() != 0)
                .take(watching)
                .map(|p| (p.uid, p.card, p.controller));
            listening.extend(entries.chain(gone.copied()).filter(watches));
            if dying {
                listening.sort_by_key(|e| e.0);
            }
            if listening.is_empty() && trigger != TriggerEvent::EffectEnds {
                continue; // no card in play listens: no subject to read
            }
            subjects(game, trigger, kind, &ended, &mut found);
        }
        let made_from = items.len();
        for &(uid, card_id, controller) in &listening {
            let Some(card) = cards.get(card_id) else {
                continue;
            };
            let abilities = card.abilities.iter();
            for ability in abilities.filter(|a| a.when.as_ref().is_some_and(|w| w.event == trigger))
            {
                let holds = ability.condition.is_none_or(|c| c.holds(game, controller));
                if !holds {
                    continue; // D-conditions: read when the event happens
                }
                let when = ability
                    .when
                    .as_ref()
                    .expect("a triggered ability has a when");
                for subject in &found {
                    if matches(when, uid, controller, subject) {
                        let made = &items[made_from..];
                        items.push(card_item(
                            game,
                            uid,
                            card_id,
                            controller,
                            ability,
                            subject.bound,
                            made,
                        ));
                    }
                }
            }
        }
    }
    game.watch.listeners = listening;
    game.watch.subjects = found;
}

/// `_card_item`: labelled as every card ability is; a counter only between equals (the same
/// ability set off again while the first waits, or twice by this event).
fn card_item(
    game: &Game,
    uid: u32,
    card: CardId,
    controller: usize,
    ability: &crate::cards::Ability,
    bound: Bound,
    made: &[Item],
) -> Item {
    // two items' labels are equal when their (uid, ability, copy) are: a uid is one card's,
    // and a label without a copy never ends as one with a copy does; compared so, no label
    // is written
    let taken = |copy: u32| {
        let same = |m: &Item| m.uid == uid && m.index == ability.index && m.copy == copy;
        made.iter().any(same) || game.watch.waiting.iter().any(|w| same(&w.item))
    };
    let mut copy = 0;
    if taken(0) {
        copy = 2;
        while taken(copy) {
            copy += 1;
        }
    }
    Item {
        controller,
        uid,
        card,
        index: ability.index,
        optional: ability.optional,
        activation: None,
        trigger: Some((bound, 0)),
        copy,
    }
}

/// `_queue`: the item waits, keyed; its chain continues the cause's; `triggered` is logged.
fn queue(game: &mut Game, mut item: Item, cause: &'static str, cause_seq: usize) {
    // `Rulings.max_triggers_per_cause` (D-trigger-loop): past it the Python engine stops the
    // game with an error; the native game stops there (`Halt::Unported`)
    let per_cause = game.cards.rulings.max_triggers_per_cause;
    let watch = &mut game.watch;
    watch.count += 1;
    if !watch.waiting.is_empty() || watch.cause != 0 {
        watch.set_off += 1; // the same cause goes on setting off triggers
        if watch.set_off > per_cause && watch.halt.is_none() {
            watch.halt = Some(format!(
                "one cause set off more than {per_cause} triggers: the Python engine stops it \
                 (D-trigger-loop)"
            ));
        }
    } else {
        watch.set_off = 1;
    }
    if let Some((_, key)) = item.trigger.as_mut() {
        *key = watch.count;
    }
    let chain = watch.cause + 1;
    // logged before it waits (nothing reads the watch meanwhile): its label written only when
    // the event is built
    emit!(
        game,
        Kind::Triggered {
            item: item.text(Prefix::None),
            controller: item.controller,
            card: item.card,
            ability: item.index,
            optional: item.optional,
            cause,
            cause_seq,
            chain,
        }
    );
    game.watch.waiting.push(Waiting { item, chain });
}

/// Forget the permanents that left play (after their deaths were seen).
fn purge(game: &mut Game) {
    game.watch.gone.clear();
}

fn halted(game: &mut Game) -> Flow {
    match game.watch.halt.take() {
        Some(reason) => Err(Halt::Unported(reason)),
        None => Ok(()),
    }
}

/// `settle`: after an item or action and its Ép check, the waiting items resolve as the
/// step's `triggers` says (D-trigger-wait).
#[inline]
pub fn settle(game: &mut Game, step: &Step) -> Flow {
    let watch = &mut game.watch;
    if watch.halt.is_none() && watch.waiting.is_empty() {
        // the usual case, read where it is called: nothing to resolve
        watch.gone.clear();
        watch.cause = 0;
        return Ok(());
    }
    settle_waiting(game, step)
}

/// [`settle`] with a limit passed or items waiting.
#[inline(never)]
fn settle_waiting(game: &mut Game, step: &Step) -> Flow {
    halted(game)?;
    purge(game);
    if game.watch.waiting.is_empty() {
        game.watch.cause = 0;
        return Ok(());
    }
    match step.triggers {
        Triggers::Resolve => resolve_waiting(game, step),
        Triggers::Pool => {
            game.watch.cause = 0;
            Ok(())
        }
        Triggers::Wait | Triggers::None => Ok(()),
    }
}

/// `step_over`: the step has ended; in a pool step what is left was declined (D-declined),
/// in end stage 4 nothing resolves (41.4); elsewhere what waits resolves now, unless the step
/// makes it wait for the next (29.4, D-trigger-prep).
#[inline]
pub fn step_over(game: &mut Game, step: &Step) -> Flow {
    let watch = &game.watch;
    if watch.halt.is_none() && (watch.waiting.is_empty() || step.triggers == Triggers::Wait) {
        return Ok(()); // nothing waits, or it waits on
    }
    halted(game)?;
    if game.watch.waiting.is_empty() || step.triggers == Triggers::Wait {
        return Ok(());
    }
    if matches!(step.triggers, Triggers::Pool | Triggers::None) {
        game.watch.waiting.clear();
        return Ok(());
    }
    settle(game, step)
}

/// D-trigger-loop, D-work-limit: a chain too long, or too many triggered items resolved this
/// turn or game (`Rulings.max_trigger_chain`, `max_triggers_per_turn`, `max_triggers_per_game`):
/// the Python engine stops the game with an error, the native one here.
fn check_work(game: &mut Game, chain: usize) -> Flow {
    let rulings = game.cards.rulings;
    if chain > rulings.max_trigger_chain {
        return Err(Halt::Unported(format!(
            "a chain of {chain} triggers: the Python engine stops it (D-trigger-loop)"
        )));
    }
    let watch = &mut game.watch;
    watch.resolved += 1;
    if watch.work_turn != game.turn {
        watch.work_turn = game.turn;
        watch.turn_began_at = watch.resolved - 1;
    }
    if watch.resolved - watch.turn_began_at > rulings.max_triggers_per_turn
        || watch.resolved > rulings.max_triggers_per_game
    {
        return Err(Halt::Unported(
            "the work limit of triggered items: the Python engine stops it (D-work-limit)".into(),
        ));
    }
    Ok(())
}

/// `_resolve_waiting`: the waiting items one by one, the active player ordering two or more
/// (D-trigger-order), an optional one offered to its controller (D-trigger-wait), each
/// followed by its Ép check; what they set off joins the waiting ones.
fn resolve_waiting(game: &mut Game, step: &Step) -> Flow {
    while !game.watch.waiting.is_empty() && !game.over {
        if game.watch.waiting.len() == 1 {
            // the usual case: one item, nothing to order (no list made)
            resolve_next(game, step, 0)?;
            continue;
        }
        let mut ready: Vec<usize> = (0..game.watch.waiting.len()).collect();
        ready.sort_by(|&a, &b| {
            let w = &game.watch.waiting;
            order(&w[a].item, &w[b].item)
        });
        if !game.cards.rulings.active_orders_triggers {
            // `Rulings(trigger_orderer="stable")`: nobody orders, the first in the stable order
            resolve_next(game, step, ready[0])?;
            continue;
        }
        let label = |game: &Game, i: usize| game.watch.waiting[i].item.text(Prefix::None);
        let (player, rule) = (game.active, Some("D-trigger-order"));
        let chosen = if game.seated(player) {
            // answered natively: the options counted, not listed
            let n = ready.len();
            game.decide_counted(player, "order", rule, n, n, None, |g, k| label(g, ready[k]))
        } else {
            let decision = Decision {
                kind: "order",
                player,
                options: ready
                    .iter()
                    .map(|&i| game.option(|| label(game, i)))
                    .collect(),
                prompt: Label::from("Which trigger happens next?"),
                rule,
            };
            game.decide(&decision)?
        };
        let at = ready[chosen];
        resolve_next(game, step, at)?;
    }
    Ok(())
}

/// The waiting item at `at` leaves the queue and resolves, if its controller wants an
/// optional one (D-trigger-wait), followed by its Ép check.
fn resolve_next(game: &mut Game, step: &Step, at: usize) -> Flow {
    let Waiting { item, chain } = game.watch.waiting.remove(at);
    check_work(game, chain)?;
    if item.optional && !crate::steps::wants(game, &item, "D-trigger-wait")? {
        return Ok(());
    }
    game.watch.cause = chain;
    let flow = resolve(game, &item).and_then(|()| crate::steps::after_resolution(game, step));
    game.watch.cause = 0;
    flow?;
    purge(game);
    Ok(())
}

/// A pooled item's `apply` (`_from_pool`), after its `resolving` and its binding: it leaves
/// the queue, its chain is checked and goes on through what it sets off.
pub fn from_pool(game: &mut Game, key: u64) -> Flow {
    let at = game.watch.waiting.iter().position(|w| w.key() == key);
    let chain = match at {
        Some(at) => game.watch.waiting.remove(at).chain,
        None => 0,
    };
    check_work(game, chain)?;
    game.watch.cause = chain;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bits(events: &[TriggerEvent]) -> u16 {
        events.iter().fold(0, |b, e| b | e.bit())
    }

    #[test]
    fn copies_are_ordered_as_their_labels_text_is() {
        // the Python engine sorts "name", "name (2)", "name (23)", "name (3)" as text
        let label = |copy: u32| match copy {
            0 => "x".to_string(),
            n => format!("x ({n})"),
        };
        let copies = [0, 1, 2, 3, 9, 10, 23, 100, 4_000_000_000];
        for a in copies {
            for b in copies {
                assert_eq!(
                    copy_order(a, b),
                    label(a).cmp(&label(b)),
                    "copies {a} and {b}"
                );
            }
        }
    }

    #[test]
    fn the_watch_looks_at_a_kind_for_every_trigger_event_its_names_set_off() {
        // every logged name `TriggerEvent::of_kind` knows, with its `Kind` variant
        let named = [
            ("Attack", "attack"),
            ("CardPlayed", "card_played"),
            ("Damaged", "damaged"),
            ("PlayerDamaged", "player_damaged"),
            ("Died", "died"),
            ("Died", "destroyed"),
            ("EffectEnded", "effect_ended"),
            ("EnteredPlay", "entered_play"),
        ];
        for (variant, name) in named {
            assert_eq!(
                looked_at(variant),
                bits(TriggerEvent::of_kind(name)),
                "{variant}"
            );
        }
        // an effect's start is kept for its "effect ends"; what sets off nothing is not read
        assert_eq!(looked_at("EffectStarted"), TriggerEvent::EffectEnds.bit());
        assert_eq!(looked_at("TurnStarted"), 0);
        assert!(TriggerEvent::of_kind("turn_started").is_empty());
        // by variant as by name
        let card = CardId::NONE;
        let source = || crate::events::Text::Borrowed("x");
        let kinds = [
            Kind::Attack {
                attackers: crate::events::Span::default(),
                blockers: crate::events::Span::default(),
                rule: "",
            },
            Kind::CardPlayed {
                player: 0,
                card,
                vp: 0,
                components: 0,
            },
            Kind::Damaged {
                uid: 1,
                card,
                amount: 1,
                source: source(),
                source_uid: None,
                after: 0,
            },
            Kind::PlayerDamaged {
                player: 0,
                amount: 1,
                source: source(),
                source_uid: None,
                after: 0,
            },
            Kind::EffectEnded {
                effect: 1,
                stat: "",
                targets: crate::events::Span::default(),
                rule: "",
                partial: false,
            },
            Kind::EnteredPlay {
                controller: 0,
                card,
                uid: 1,
                zone: "",
                active: true,
            },
            Kind::TurnEnded {
                player: 0,
                rule: "",
            },
        ];
        let died = [true, false].map(|creature| Kind::Died {
            creature,
            card,
            uid: 1,
            controller: 0,
            cause: "",
            rule: None,
            components_offered: 0,
        });
        for kind in kinds.iter().chain(&died) {
            assert_eq!(
                TriggerEvent::of_event(kind),
                TriggerEvent::of_kind(kind.name()),
                "{}",
                kind.name()
            );
        }
    }

    /// A game whose pool has a creature that gains its controller 1 VP when damaged
    /// (`t:watcher`) and one without words (`t:plain`), neither in play.
    fn watcher_game() -> Game {
        game_of(None)
    }

    /// [`watcher_game`], the watcher's abilities followed by `more` if given.
    fn game_of(more: Option<crate::cards::PlainAbility>) -> Game {
        use crate::cards::{Card, PlainAbility};
        use crate::effects::PlainEffect;
        let gain = PlainEffect::of("gain_vp", "controller", Some(1));
        let when_damaged = PlainAbility {
            index: 0,
            kind: "triggered".into(),
            timing: String::new(),
            whose_turn: "any".into(),
            optional: false,
            effects: vec![gain],
            condition: None,
            activation: None,
            others: vec![],
            when: Some(("damaged".into(), "this".into(), "any".into(), String::new())),
        };
        let when_ends = PlainAbility {
            index: 1,
            when: Some((
                "effect_ends".into(),
                "this".into(),
                "any".into(),
                String::new(),
            )),
            ..when_damaged.clone()
        };
        let creature = |id: &str, abilities: &[PlainAbility]| {
            let numbers = (0, 0, 1, 5, 0);
            Card::new(
                id.into(),
                "creature".into(),
                numbers,
                false,
                vec![],
                &[],
                abilities,
            )
        };
        let watching: Vec<PlainAbility> =
            [when_damaged, when_ends].into_iter().chain(more).collect();
        let pool = CardPool::new(vec![
            creature("t:watcher", &watching),
            creature("t:plain", &[]),
        ]);
        Game::new(
            std::sync::Arc::new(pool),
            1,
            &crate::rng::key_of(1),
            [vec![], vec![]],
            [crate::agents::Seat::First, crate::agents::Seat::First],
            crate::events::Level::Full,
        )
    }

    #[test]
    fn an_event_is_looked_at_only_while_a_permanent_in_play_watches_what_it_sets_off() {
        use crate::changes::{damage, destroy, enter_play, Target};
        let mut game = watcher_game();
        let damaged = looked_at("Damaged");
        let (watcher, plain) = (game.cards.id("t:watcher"), game.cards.id("t:plain"));
        let plain = enter_play(&mut game, 0, plain.unwrap());
        assert!(!game.watch.looks_at(damaged), "no watcher in play");
        let watcher = enter_play(&mut game, 0, watcher.unwrap());
        assert!(game.watch.looks_at(damaged));
        damage(
            &mut game,
            Target::Permanent(plain),
            1,
            crate::events::Text::default(),
            None,
        );
        assert!(
            game.watch.waiting.is_empty(),
            "another's damage sets off nothing"
        );
        damage(
            &mut game,
            Target::Permanent(watcher),
            1,
            crate::events::Text::default(),
            None,
        );
        assert_eq!(game.watch.waiting.len(), 1, "its own damage sets it off");
        destroy(&mut game, watcher, "destroyed", None, false);
        assert!(!game.watch.looks_at(damaged), "the watcher left play");
        // a death is looked at all the same: the dead's own "dies" abilities see it
        let dies = Watch::new(TriggerEvent::Dies.bit());
        assert!(dies.looks_at(looked_at("Died")));
    }

    #[test]
    fn a_this_only_trigger_finds_what_the_walk_of_every_listener_finds() {
        use crate::changes::enter_play;
        use crate::events::{EffectStart, Text};
        let mut game = watcher_game();
        let ends = TriggerEvent::EffectEnds.bit();
        assert!(game.watch.only_this(TriggerEvent::Damaged));
        assert_eq!(
            game.watch.always & ends,
            0,
            "only a target sees its effect end"
        );
        let (watcher, plain) = (game.cards.id("t:watcher"), game.cards.id("t:plain"));
        let a = enter_play(&mut game, 0, watcher.unwrap());
        let other = enter_play(&mut game, 1, plain.unwrap());
        let b = enter_play(&mut game, 1, watcher.unwrap());
        let effect = 90;
        // read by the watch from the log's extras, as an event built and not pushed yet
        let extras = game.log.events.extras_mut();
        let started = Kind::EffectStarted {
            waits: false,
            effect,
            targets: extras.put_uids([b, other, a]),
            rest: extras.put_start(EffectStart {
                stat: "attack",
                amount: 1,
                duration: "end_of_turn",
                player: None,
                source: Text::default(),
                ends_turn: None,
                rule: None,
            }),
        };
        let mut events = vec![started];
        for uid in [a, other, b] {
            events.push(Kind::Damaged {
                uid,
                card: game.permanent(uid).unwrap().card,
                amount: 1,
                source: Text::default(),
                source_uid: Some(other),
                after: 0,
            });
        }
        events.push(Kind::EffectEnded {
            effect,
            stat: "attack",
            targets: game.log.events.extras_mut().put_uids([b, other, a]),
            rule: "",
            partial: false,
        });
        // the same events to a watch that walks every listener (none known "this" only)
        let mut walking = game.clone();
        walking.watch.others = walking.watch.watched;
        walking.watch.always = LOOKED_AT_ALWAYS;
        let detected = |game: &mut Game, kind: &Kind| {
            let mut items = Vec::new();
            detect(game, kind, &mut items);
            items
        };
        for kind in &events {
            let found = detected(&mut game, kind);
            assert_eq!(found, detected(&mut walking, kind), "{kind:?}");
            match kind {
                Kind::Damaged { uid, .. } => assert_eq!(found.len(), usize::from(*uid != other)),
                Kind::EffectEnded { .. } => assert_eq!(found.len(), 2, "its two watching targets"),
                _ => {}
            }
        }
        assert!(game.watch.effect_targets.is_empty());
    }

    #[test]
    fn a_killer_is_kept_only_for_a_dies_ability_aimed_at_it() {
        assert!(!watcher_game().watch.keeps_killers(), "no dies ability");
        let ability = |target: &str| crate::cards::PlainAbility {
            index: 2,
            kind: "triggered".into(),
            timing: String::new(),
            whose_turn: "any".into(),
            optional: false,
            effects: vec![crate::effects::PlainEffect {
                place: "card.abilities[2].effects[0]".into(),
                ..crate::effects::PlainEffect::of("damage", target, Some(1))
            }],
            condition: None,
            activation: None,
            others: vec![],
            when: Some(("dies".into(), "any".into(), "any".into(), String::new())),
        };
        let game = game_of(Some(ability("opponent")));
        assert!(game.watch.watched & TriggerEvent::Dies.bit() != 0);
        assert!(
            !game.watch.keeps_killers(),
            "a dies ability not aimed at the killer"
        );
        assert!(game_of(Some(ability("trigger_source")))
            .watch
            .keeps_killers());
    }

    #[test]
    fn the_watch_looks_only_at_kinds_setting_off_an_event_a_card_watches() {
        let watch = Watch::new(TriggerEvent::Dies.bit());
        assert!(watch.listening && watch.looks_at(looked_at("Died")));
        assert!(!watch.looks_at(looked_at("Damaged")));
        assert!(!Watch::new(0).looks_at(looked_at("Died")));
    }
}
