//! The learning environment's numbers on the native core (`hkk_env`, docs/LEARNING.md, "The
//! batch on the native core"): a seat's observation vector and the action index of each option,
//! by the same rules as `hkk_env.layout.Layout` (its `encode`, `board`, `actions` and `_place`),
//! read from the native game's state of that seat's fair view - its own hand, both boards,
//! graveyards, sizes, the step and the decision if it is his; never the other hand's cards nor
//! a deck's order - and a batch of N games answered from outside, stepped in one call.
//!
//! The layout is `hkk_env`'s: its vocabulary, caps, word lists and scales come over as plain
//! data ([`Spec`]) and the offsets it computed are checked against the ones computed here, so a
//! layout this module does not know is refused by name, never encoded otherwise.

use std::collections::HashMap;
use std::sync::Arc;

use crate::agents::Seat;
use crate::cards::{CardId, CardPool};
use crate::decisions::Decision;
use crate::events::Level;
use crate::forward::Driven;
use crate::game::Game;
use crate::phases::DEFAULT_TURN;
use crate::rng::key_of;

/// `hkk_env.Layout` as plain data (`Layout.plain()`).
#[derive(Debug, Clone, Default)]
pub struct Spec {
    pub cards: Vec<String>,
    pub steps: Vec<String>,
    pub slots: usize,
    pub abilities: usize,
    pub order_cap: usize,
    pub words: Vec<String>,
    pub kinds: Vec<String>,
    pub permanent_words: Vec<String>,
    pub card_words: Vec<String>,
    pub zones: Vec<String>,
    /// turn, Ép, VP, components, hand, pile, stat.
    pub scales: Vec<f64>,
    /// `Layout.ranges()`: (name, first index, size), in order.
    pub ranges: Vec<(String, usize, usize)>,
    /// `Layout.sections()`: (name, size), in order.
    pub sections: Vec<(String, usize)>,
}

/// The offsets of one layout, and the card and step indices of the native game's.
#[derive(Debug, Clone)]
pub struct Layout {
    spec: Spec,
    /// A native card id's place in the vocabulary (`len(cards)`: not in it).
    by_id: Vec<u32>,
    by_name: HashMap<String, u32>,
    /// A native step's place in the layout's steps (`len(steps)`: none of them).
    step_of: Vec<u32>,
    /// The first action of each range: the words', the players', each card word's and each
    /// permanent word's (in the spec's order), the abilities', the order's and the others'.
    word: usize,
    player: usize,
    card_words: Vec<usize>,
    permanent_words: Vec<usize>,
    use_: usize,
    order: usize,
    other: usize,
    at: HashMap<&'static str, usize>,
    /// Each section's start, by name, for the ones read per decision.
    flags: usize,
    kind: usize,
    step: usize,
    me: usize,
    opponent: usize,
    hand: usize,
    graveyard: [usize; 2],
    board: usize,
    pub per_slot: usize,
    pub n_observation: usize,
    pub n_actions: usize,
}

/// The scales' names, in `Spec::scales` order.
const SCALES: [&str; 7] = ["turn", "hp", "vp", "components", "hand", "pile", "stat"];

impl Layout {
    /// The layout of `spec` over the native cards `cards`, or why not (its offsets are not
    /// the ones this module computes: it would encode otherwise).
    pub fn new(spec: Spec, cards: &CardPool) -> Result<Layout, String> {
        if spec.scales.len() != SCALES.len() {
            return Err(format!(
                "the layout has {} scales, the native encoder reads {}: {SCALES:?}",
                spec.scales.len(),
                SCALES.len()
            ));
        }
        let n_cards = spec.cards.len();
        let c = n_cards + 1;
        let mut ranges: Vec<(String, usize)> =
            vec![("word".into(), spec.words.len()), ("player".into(), 2)];
        ranges.extend(spec.card_words.iter().map(|w| (w.clone(), c)));
        ranges.extend(
            spec.permanent_words
                .iter()
                .map(|w| (w.clone(), 2 * spec.slots)),
        );
        ranges.push(("use".into(), 2 * spec.slots * spec.abilities));
        ranges.push(("order".into(), spec.order_cap));
        ranges.push(("other".into(), spec.order_cap));
        let mut range = HashMap::new();
        let mut mine = Vec::new();
        let mut first = 0;
        for (name, size) in ranges {
            range.insert(name.clone(), first);
            mine.push((name, first, size));
            first += size;
        }
        if mine != spec.ranges {
            return Err(format!(
                "the layout's action ranges {:?} are not the native encoder's {mine:?}",
                spec.ranges
            ));
        }
        let per_slot = 1 + c + spec.zones.len() + 1 + 6;
        let sections: [(&'static str, usize); 11] = [
            ("flags", 6),
            ("kind", spec.kinds.len() + 1),
            ("step", spec.steps.len() + 1),
            ("me", 7),
            ("opponent", 7),
            ("hand", c),
            ("graveyard_me", c),
            ("graveyard_opponent", c),
            ("void_me", c),
            ("void_opponent", c),
            ("board", 2 * spec.slots * per_slot),
        ];
        let theirs: Vec<(&str, usize)> = spec
            .sections
            .iter()
            .map(|(n, s)| (n.as_str(), *s))
            .collect();
        if theirs != sections {
            return Err(format!(
                "the layout's observation sections {theirs:?} are not the native encoder's \
                 {sections:?}"
            ));
        }
        let mut at = HashMap::new();
        let mut start = 0;
        for (name, size) in sections {
            at.insert(name, start);
            start += size;
        }
        let by_name: HashMap<String, u32> = spec
            .cards
            .iter()
            .enumerate()
            .map(|(i, name)| (name.clone(), i as u32))
            .collect();
        let by_id = (0..cards.len())
            .map(|i| {
                let name = cards.name(CardId(i as u32));
                by_name.get(name).copied().unwrap_or(n_cards as u32)
            })
            .collect();
        let step_of = DEFAULT_TURN
            .iter()
            .map(|s| {
                spec.steps
                    .iter()
                    .position(|h| h == s.hook)
                    .unwrap_or(spec.steps.len()) as u32
            })
            .collect();
        let card_words = spec.card_words.iter().map(|w| range[w]).collect();
        let permanent_words = spec.permanent_words.iter().map(|w| range[w]).collect();
        Ok(Layout {
            by_id,
            by_name,
            step_of,
            word: range["word"],
            player: range["player"],
            card_words,
            permanent_words,
            use_: range["use"],
            order: range["order"],
            other: range["other"],
            flags: at["flags"],
            kind: at["kind"],
            step: at["step"],
            me: at["me"],
            opponent: at["opponent"],
            hand: at["hand"],
            graveyard: [at["graveyard_me"], at["graveyard_opponent"]],
            board: at["board"],
            at,
            per_slot,
            n_observation: start,
            n_actions: first,
            spec,
        })
    }

    /// A native card's place in the vocabulary.
    fn card(&self, id: CardId) -> usize {
        self.by_id
            .get(id.0 as usize)
            .map_or(self.spec.cards.len(), |&i| i as usize)
    }

    /// `Layout.board`: the uid and slot of each of the seat's permanents in the first
    /// `slots` slots (oldest first), the opponent's in the next `slots`.
    pub fn board(&self, game: &Game, me: usize, out: &mut Vec<(u32, usize)>) {
        out.clear();
        for (side, first) in [(me, 0), (1 - me, self.spec.slots)] {
            let mut uids: Vec<u32> = game
                .permanents
                .iter()
                .filter(|p| p.controller == side)
                .map(|p| p.uid)
                .collect();
            uids.sort_unstable();
            out.extend(
                uids.into_iter()
                    .take(self.spec.slots)
                    .enumerate()
                    .map(|(i, uid)| (uid, first + i)),
            );
        }
    }

    /// `Layout.actions`: the action index of each of the decision's options, in order.
    pub fn actions(
        &self,
        decision: &Decision,
        me: usize,
        board: &[(u32, usize)],
        cards: &crate::cards::CardPool,
        out: &mut Vec<u32>,
    ) -> Result<(), String> {
        out.clear();
        let other = self.other;
        let mut spare = 0;
        for (position, option) in decision.options.iter().enumerate() {
            let option = &option.render(cards);
            let placed = self
                .place(decision.kind, position, option, me, board)
                .filter(|i| !out.contains(&(*i as u32)));
            let index = match placed {
                Some(index) => index,
                None => {
                    if spare >= self.spec.order_cap {
                        return Err(format!(
                            "{} decision of player {me}: option {} has no action (more than \
                             {} options without a place of their own; raise order_cap)",
                            decision.kind,
                            py_repr(option),
                            self.spec.order_cap
                        ));
                    }
                    spare += 1;
                    other + spare - 1
                }
            };
            out.push(index as u32);
        }
        Ok(())
    }

    /// `Layout._place`: an option's own action index, if it has one.
    fn place(
        &self,
        kind: &str,
        position: usize,
        label: &str,
        me: usize,
        board: &[(u32, usize)],
    ) -> Option<usize> {
        if kind == "order" {
            return (position < self.spec.order_cap).then(|| self.order + position);
        }
        let data = OptionData::of(label);
        if let Some(player) = data.player {
            return Some(self.player + usize::from(player != me as u64));
        }
        let word = data.word;
        if let (Some(word), Some(card)) = (word, data.card) {
            if let Some(at) = self.spec.card_words.iter().position(|w| w == word) {
                let card = self
                    .by_name
                    .get(card)
                    .map_or(self.spec.cards.len(), |&i| i as usize);
                return Some(self.card_words[at] + card);
            }
        }
        if let Some(uid) = data.uid {
            let slot = board.iter().find(|(u, _)| Some(u64::from(*u)) == uid)?.1;
            let word = word.unwrap_or("");
            if let Some(at) = self.spec.permanent_words.iter().position(|w| w == word) {
                return Some(self.permanent_words[at] + slot);
            }
            let ability = data.ability.unwrap_or(Some(0))?;
            if word == "use" && ability < self.spec.abilities as u64 {
                return Some(self.use_ + slot * self.spec.abilities + ability as usize);
            }
            return None;
        }
        let word = word?;
        let at = self.spec.words.iter().position(|w| w == word)?;
        Some(self.word + at)
    }

    /// `Layout.encode`: seat `me`'s observation of `game` into `out` (zeroed here), from what
    /// his fair view shows; `board` is [`Layout::board`]'s for him.
    pub fn encode(&self, game: &Game, me: usize, board: &[(u32, usize)], out: &mut [f32]) {
        out.fill(0.0);
        let scale = |value: f64, of: usize| (value / self.spec.scales[of]) as f32;
        let flag = |b: bool| if b { 1.0 } else { 0.0 };
        let decision = game.waiting.as_deref();
        let deciding = decision.map(|d| d.player);
        let f = self.flags;
        out[f] = scale(f64::from(game.turn), 0);
        out[f + 1] = flag(game.active == me);
        out[f + 2] = flag(game.turn_passed);
        out[f + 3] = flag(deciding == Some(me));
        out[f + 4] = flag(deciding.is_some_and(|p| p != me));
        out[f + 5] = flag(game.over);
        if let Some(d) = decision.filter(|d| d.player == me) {
            let kind = self.spec.kinds.iter().position(|k| k == d.kind);
            out[self.kind + kind.unwrap_or(self.spec.kinds.len())] = 1.0;
        }
        let step = game.step.map_or(self.spec.steps.len(), |s| {
            self.step_of
                .get(s)
                .map_or(self.spec.steps.len(), |&i| i as usize)
        });
        out[self.step + step] = 1.0;
        for (side, at) in [(me, self.me), (1 - me, self.opponent)] {
            let p = &game.players[side];
            // the native core has no void (no native word puts a card there): always empty
            out[at] = scale(p.hp as f64, 1);
            out[at + 1] = scale(p.vp as f64, 2);
            out[at + 2] = scale(p.components as f64, 3);
            out[at + 3] = scale(p.hand.len() as f64, 4);
            out[at + 4] = scale(p.deck.len() as f64, 5);
            out[at + 5] = scale(p.graveyard.len() as f64, 5);
            out[at + 6] = scale(0.0, 5);
            let graveyard = self.graveyard[usize::from(side != me)];
            for &card in &p.graveyard {
                out[graveyard + self.card(card)] += 1.0;
            }
        }
        for &card in &game.players[me].hand {
            out[self.hand + self.card(card)] += 1.0;
        }
        let cards = self.spec.cards.len() + 1;
        let zones = self.spec.zones.len();
        for perm in &game.permanents {
            let Some(&(_, slot)) = board.iter().find(|(uid, _)| *uid == perm.uid) else {
                continue;
            };
            let mut s = self.board + slot * self.per_slot;
            out[s] = 1.0;
            out[s + 1 + self.card(perm.card)] = 1.0;
            let zone = self.spec.zones.iter().position(|z| z == perm.zone.name());
            out[s + 1 + cards + zone.unwrap_or(zones)] = 1.0;
            s += 1 + cards + zones + 1;
            let hp = game.hp_of(perm);
            let counters: i64 = perm.counters.iter().map(|(_, n)| n).sum();
            out[s] = flag(perm.active);
            out[s + 1] = scale(game.damage_value(perm.uid) as f64, 6);
            out[s + 2] = scale(hp as f64, 6);
            out[s + 3] = scale((hp + perm.damage_taken) as f64, 6);
            out[s + 4] = scale(perm.defence_bonus as f64, 6);
            out[s + 5] = scale(counters as f64, 6);
        }
    }

    /// A section's start, by name (tests).
    pub fn section(&self, name: &str) -> Option<usize> {
        self.at.get(name).copied()
    }

    /// Seat `seat`'s observation and mask of `game` (a game outside a batch: the leak tests'
    /// twins), as a batch row writes them.
    pub fn observe(
        &self,
        game: &Game,
        seat: usize,
        obs: &mut [f32],
        mask: &mut [i8],
    ) -> Result<(), String> {
        let mut board = Vec::new();
        self.board(game, seat, &mut board);
        self.encode(game, seat, &board, obs);
        mask.fill(0);
        if let Some(decision) = game.waiting.as_deref().filter(|d| d.player == seat) {
            let mut actions = Vec::new();
            self.actions(decision, seat, &board, &game.cards, &mut actions)?;
            for a in actions {
                mask[a as usize] = 1;
            }
        }
        Ok(())
    }
}

/// Python's `repr` of a plain label (the error messages `hkk_env` writes).
fn py_repr(label: &str) -> String {
    if label.contains('\'') && !label.contains('"') {
        format!("\"{label}\"")
    } else {
        format!("'{}'", label.replace('\\', "\\\\").replace('\'', "\\'"))
    }
}

/// `hkk._decisions.option_data`: what a label names (its word, card, uid, ability, player).
/// `Some(None)` of a number: written, but past 64 bits (no permanent or ability has it).
#[derive(Debug, Default, PartialEq, Eq)]
struct OptionData<'a> {
    word: Option<&'a str>,
    player: Option<u64>,
    card: Option<&'a str>,
    uid: Option<Option<u64>>,
    ability: Option<Option<u64>>,
}

/// `[^\s#:()]`: a character of a card id's two halves.
fn id_char(c: char) -> bool {
    !(c.is_whitespace() || matches!(c, '#' | ':' | '(' | ')'))
}

/// The digits at the start of `s` (`\d+`), and where they end.
fn digits(s: &str) -> Option<(Option<u64>, usize)> {
    let end = s
        .char_indices()
        .find(|(_, c)| !c.is_ascii_digit())
        .map_or(s.len(), |(i, _)| i);
    (end > 0).then(|| (s[..end].parse().ok(), end))
}

impl<'a> OptionData<'a> {
    fn of(label: &'a str) -> OptionData<'a> {
        let mut data = OptionData::default();
        // _PLAYER: "^player (\d+)"
        if let Some((player, _)) = label.strip_prefix("player ").and_then(digits) {
            data.word = Some("player");
            data.player = Some(player.unwrap_or(u64::MAX));
            return data;
        }
        // _CARD.search: the first run of id characters followed by ':' and another run
        let mut found = None;
        let mut i = 0;
        while i < label.len() {
            let rest = &label[i..];
            let Some(c) = rest.chars().next() else { break };
            if !id_char(c) {
                i += c.len_utf8();
                continue;
            }
            let run = rest.find(|c| !id_char(c)).unwrap_or(rest.len());
            let after = &rest[run..];
            if let Some(second) = after.strip_prefix(':') {
                let len = second.find(|c| !id_char(c)).unwrap_or(second.len());
                if len > 0 {
                    found = Some((i, i + run + 1 + len));
                    break;
                }
            }
            i += run.max(1);
        }
        let Some((start, end)) = found else {
            let word = label.trim();
            data.word = (!word.is_empty()).then_some(word);
            return data;
        };
        let word = label[..start].trim();
        data.word = (!word.is_empty()).then_some(word);
        data.card = Some(&label[start..end]);
        if let Some((uid, n)) = label[end..].strip_prefix('#').and_then(digits) {
            data.uid = Some(uid);
            let after = &label[end + 1 + n..];
            if let Some((ability, _)) = after.strip_prefix(':').and_then(digits) {
                data.ability = Some(ability);
            }
        }
        data
    }
}

/// Why a batch's step stopped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StepError {
    /// An action that is not one of its decision's options, or an option the layout cannot
    /// place (`hkk_env.ActionError`'s message).
    Action(String),
    /// A game the native core stopped short of its end, or one over before a decision.
    Stopped(String),
}

/// One row: its game, its seed, the decider's board and its options' action indices, and the
/// option indices answered since the game began (its Python twin replays them: `raw`).
#[derive(Debug, Clone)]
struct Row {
    driven: Driven,
    seed: i64,
    board: Vec<(u32, usize)>,
    actions: Vec<u32>,
    answers: Vec<u32>,
}

/// The arrays a step writes, row-major (`HkkBatch`'s `obs`, `mask`, `player`, `reward`,
/// `done`, `seeds`).
#[derive(Debug, Clone, Default)]
pub struct Arrays {
    pub obs: Vec<f32>,
    pub mask: Vec<i8>,
    pub player: Vec<i8>,
    pub reward: Vec<f32>,
    pub done: Vec<u8>,
    pub seeds: Vec<i64>,
}

/// N games of two decks, both seats answered from outside, the k-th game started of seed
/// `first_seed + k`; a game that ends is replaced at once by the next seed's (`HkkBatch`).
#[derive(Debug, Clone)]
pub struct Batch {
    pub layout: Arc<Layout>,
    cards: Arc<CardPool>,
    decks: [Vec<CardId>; 2],
    first_seed: i64,
    pub started: u64,
    rows: Vec<Row>,
    pub arrays: Arrays,
}

impl Batch {
    pub fn new(
        layout: Arc<Layout>,
        cards: Arc<CardPool>,
        decks: [Vec<CardId>; 2],
        n: usize,
        first_seed: i64,
    ) -> Batch {
        let arrays = Arrays {
            obs: vec![0.0; n * layout.n_observation],
            mask: vec![0; n * layout.n_actions],
            player: vec![0; n],
            reward: vec![0.0; 2 * n],
            done: vec![0; n],
            seeds: vec![0; n],
        };
        Batch {
            layout,
            cards,
            decks,
            first_seed,
            started: 0,
            rows: Vec::with_capacity(n),
            arrays,
        }
    }

    pub fn n(&self) -> usize {
        self.arrays.player.len()
    }

    /// The next seed's game, at its first decision.
    fn start(&mut self) -> Result<Row, StepError> {
        let seed = self.first_seed.wrapping_add(self.started as i64);
        self.started += 1;
        let game = Game::new(
            self.cards.clone(),
            seed,
            &key_of(seed.unsigned_abs()),
            self.decks.clone(),
            [Seat::Outside, Seat::Outside],
            Level::Outcome,
        );
        let mut row = Row {
            driven: Driven::new(game),
            seed,
            board: Vec::new(),
            actions: Vec::new(),
            answers: Vec::new(),
        };
        if row.driven.decision().is_none() {
            return Err(stopped(&row, "ended before a decision"));
        }
        Ok(row)
    }

    /// Start `n` games and write their first decisions.
    pub fn reset(&mut self) -> Result<(), StepError> {
        self.started = 0;
        self.rows.clear();
        for row in 0..self.n() {
            let started = self.start()?;
            self.rows.push(started);
            self.write(row)?;
        }
        self.arrays.reward.fill(0.0);
        self.arrays.done.fill(0);
        Ok(())
    }

    /// The row's decider's observation, mask, seat and seed into the arrays.
    fn write(&mut self, r: usize) -> Result<(), StepError> {
        let layout = &self.layout;
        let row = &mut self.rows[r];
        let game = &row.driven.game;
        let Some(decision) = game.waiting.as_deref() else {
            return Err(stopped(row, "waits for no decision"));
        };
        let me = decision.player;
        layout.board(game, me, &mut row.board);
        layout
            .actions(decision, me, &row.board, &game.cards, &mut row.actions)
            .map_err(StepError::Action)?;
        let d = layout.n_observation;
        layout.encode(
            game,
            me,
            &row.board,
            &mut self.arrays.obs[r * d..(r + 1) * d],
        );
        let a = layout.n_actions;
        let mask = &mut self.arrays.mask[r * a..(r + 1) * a];
        mask.fill(0);
        for &i in &row.actions {
            mask[i as usize] = 1;
        }
        self.arrays.player[r] = me as i8;
        self.arrays.seeds[r] = row.seed;
        Ok(())
    }

    /// Answer each row's decision with its action index (`HkkBatch.step`): rows in order; a
    /// bad action stops the call at its row (the rows before it stepped, its game unchanged).
    pub fn step(&mut self, actions: &[i64]) -> Result<(), StepError> {
        if self.rows.is_empty() {
            return Err(StepError::Stopped(
                "hkk_env: reset() the batch before step()".into(),
            ));
        }
        self.arrays.reward.fill(0.0);
        self.arrays.done.fill(0);
        for (r, &action) in actions.iter().enumerate().take(self.n()) {
            let row = &mut self.rows[r];
            let Some(chosen) = row.actions.iter().position(|&a| i64::from(a) == action) else {
                let decision = row.driven.game.waiting.as_deref();
                return Err(StepError::Action(format!(
                    "action {action} is not an option of player {}'s {} decision (game of seed \
                     {}; its actions: {:?})",
                    decision.map_or(0, |d| d.player),
                    decision.map_or("", |d| d.kind),
                    row.seed,
                    row.actions
                )));
            };
            if row.driven.answer(chosen).is_err() {
                return Err(stopped(row, "refused an answer"));
            }
            row.answers.push(chosen as u32);
            if row.driven.decision().is_none() {
                let game = &row.driven.game;
                if !game.over {
                    return Err(stopped(row, "stopped short"));
                }
                let reward = match game.winner {
                    Some(0) => [1.0, -1.0],
                    Some(_) => [-1.0, 1.0],
                    None => [0.0, 0.0],
                };
                self.arrays.reward[2 * r..2 * r + 2].copy_from_slice(&reward);
                self.arrays.done[r] = 1;
                self.rows[r] = self.start()?;
            }
            self.write(r)?;
        }
        Ok(())
    }

    /// The seed of a row's game and the option indices answered in it since it began.
    pub fn history(&self, row: usize) -> Option<(i64, &[u32])> {
        self.rows.get(row).map(|r| (r.seed, r.answers.as_slice()))
    }
}

fn stopped(row: &Row, what: &str) -> StepError {
    let why = row.driven.game.unported.as_deref().unwrap_or("");
    StepError::Stopped(format!(
        "hkk_env: the game of seed {} {what} on the native core{}{why}",
        row.seed,
        if why.is_empty() { "" } else { ": " }
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Random;

    /// `hkk_env.Layout`'s defaults over `cards`, its ranges and sections as Python computes
    /// them (written out here: the Python tests compare the two on every layout they use).
    fn spec(cards: &CardPool) -> Spec {
        let strings = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let names: Vec<String> = (0..cards.len())
            .map(|i| cards.name(CardId(i as u32)).to_string())
            .collect();
        let c = names.len() + 1;
        let mut spec = Spec {
            cards: names,
            steps: DEFAULT_TURN.iter().map(|s| s.hook.to_string()).collect(),
            slots: 16,
            abilities: 2,
            order_cap: 32,
            words: strings(&[
                "pass",
                "pass turn",
                "start",
                "hand over",
                "hold",
                "no block",
                "decline",
                "use attack",
            ]),
            kinds: strings(&[
                "start",
                "action",
                "order",
                "use",
                "target",
                "target_player",
                "attack",
                "block",
                "extract",
            ]),
            permanent_words: strings(&["use guard", "attack with", "block with", "target"]),
            card_words: strings(&["play", "extract"]),
            zones: strings(&["guard_post", "reserve", "buildings"]),
            scales: vec![50.0, 20.0, 50.0, 5.0, 10.0, 40.0, 5.0],
            ..Spec::default()
        };
        let mut first = 0;
        for (name, size) in [
            ("word", 8),
            ("player", 2),
            ("play", c),
            ("extract", c),
            ("use guard", 32),
            ("attack with", 32),
            ("block with", 32),
            ("target", 32),
            ("use", 64),
            ("order", 32),
            ("other", 32),
        ] {
            spec.ranges.push((name.into(), first, size));
            first += size;
        }
        let per_slot = 1 + c + 3 + 1 + 6;
        spec.sections = [
            ("flags", 6),
            ("kind", 10),
            ("step", 13),
            ("me", 7),
            ("opponent", 7),
            ("hand", c),
            ("graveyard_me", c),
            ("graveyard_opponent", c),
            ("void_me", c),
            ("void_opponent", c),
            ("board", 32 * per_slot),
        ]
        .iter()
        .map(|(n, s)| (n.to_string(), *s))
        .collect();
        spec
    }

    fn batch(n: usize, seed: i64) -> Batch {
        let cards = crate::runner::tests::creatures(|i| i % 3);
        let layout = Layout::new(spec(&cards), &cards).unwrap();
        let decks = [
            crate::runner::tests::deck(0, 20),
            crate::runner::tests::deck(20, 20),
        ];
        Batch::new(Arc::new(layout), cards, decks, n, seed)
    }

    /// A random legal action of each row, from the mask.
    fn sample(batch: &Batch, rng: &mut Random) -> Vec<i64> {
        let a = batch.layout.n_actions;
        (0..batch.n())
            .map(|r| {
                let legal: Vec<usize> = (0..a)
                    .filter(|&i| batch.arrays.mask[r * a + i] == 1)
                    .collect();
                legal[rng.below(legal.len())] as i64
            })
            .collect()
    }

    #[test]
    fn a_finished_row_has_its_rewards_and_the_next_seeds_game() {
        let mut batch = batch(2, 10);
        batch.reset().unwrap();
        assert_eq!(batch.arrays.seeds, vec![10, 11]);
        let mut rng = Random::new(3);
        let mut ended = 0;
        let mut next = 12; // the seed of the next game started: rows are stepped in order
        for _ in 0..5000 {
            let actions = sample(&batch, &mut rng);
            batch.step(&actions).unwrap();
            for r in 0..2 {
                let reward = &batch.arrays.reward[2 * r..2 * r + 2];
                if batch.arrays.done[r] == 1 {
                    ended += 1;
                    assert!(reward == [1.0, -1.0] || reward == [-1.0, 1.0] || reward == [0.0, 0.0]);
                    assert_eq!(batch.arrays.seeds[r], next);
                    next += 1;
                    assert_eq!(batch.history(r).map(|(_, a)| a.len()), Some(0));
                } else {
                    assert_eq!(reward, [0.0, 0.0]);
                }
                let mask =
                    &batch.arrays.mask[r * batch.layout.n_actions..][..batch.layout.n_actions];
                assert!(mask.contains(&1), "every row waits for a decision");
            }
        }
        assert!(ended >= 2 && batch.started == 2 + ended);
    }

    #[test]
    fn a_bad_action_is_refused_naming_it_and_its_row_is_unchanged() {
        let mut batch = batch(1, 4);
        batch.reset().unwrap();
        let before = batch.arrays.clone();
        let a = batch.layout.n_actions;
        let bad = (0..a).find(|&i| batch.arrays.mask[i] == 0).unwrap() as i64;
        match batch.step(&[bad]) {
            Err(StepError::Action(message)) => {
                assert!(message.starts_with(&format!("action {bad} is not an option of player")));
                assert!(message.contains("game of seed 4"));
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(batch.arrays.obs, before.obs);
        assert_eq!(batch.history(0).map(|(_, a)| a.len()), Some(0));
    }

    #[test]
    fn a_layout_with_other_offsets_is_refused_naming_them() {
        let cards = crate::runner::tests::creatures(|i| i % 3);
        let mut other = spec(&cards);
        other.slots = 8;
        let refused = Layout::new(other, &cards).unwrap_err();
        assert!(refused.contains("action ranges"), "{refused}");
        let mut other = spec(&cards);
        other.sections.pop();
        let refused = Layout::new(other, &cards).unwrap_err();
        assert!(refused.contains("observation sections"), "{refused}");
    }

    #[test]
    fn option_data_reads_labels_as_the_engine_does() {
        let d = OptionData::of("play alap:tuzmano");
        assert_eq!(
            (d.word, d.card, d.uid),
            (Some("play"), Some("alap:tuzmano"), None)
        );
        let d = OptionData::of("use alap:x#12:1");
        assert_eq!(
            (d.word, d.card, d.uid, d.ability),
            (Some("use"), Some("alap:x"), Some(Some(12)), Some(Some(1)))
        );
        let d = OptionData::of("attack with alap:x#3");
        assert_eq!(
            (d.word, d.uid, d.ability),
            (Some("attack with"), Some(Some(3)), None)
        );
        let d = OptionData::of("player 1 (P2)");
        assert_eq!((d.word, d.player, d.card), (Some("player"), Some(1), None));
        let d = OptionData::of("pass turn");
        assert_eq!((d.word, d.card), (Some("pass turn"), None));
        // an item's own label: no word before the card
        let d = OptionData::of("alap:x#4: deal 2");
        assert_eq!(
            (d.word, d.card, d.uid, d.ability),
            (None, Some("alap:x"), Some(Some(4)), None)
        );
        // a run that is not a card id before the one that is
        let d = OptionData::of("a(b:c) x:y");
        assert_eq!(d.card, Some("b:c"));
        let d = OptionData::of("x# y:z#");
        assert_eq!((d.word, d.card, d.uid), (Some("x#"), Some("y:z"), None));
    }
}
