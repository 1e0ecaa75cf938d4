//! What `hkk simulate` records of a game (`hkk._outcome.OutcomeRecorder`), computed natively
//! from the events as they are emitted, kept or not: who started and won, why, the turns, and
//! per player the cards drawn and played, the abilities fired (automatic) and used
//! (activated), and the permanents that acted (attacked, blocked or dealt damage). It listens
//! to the recorder's ten kinds (`hkk._outcome.KINDS`) and ignores the others.
//!
//! Counts are tables indexed by card (a [`CardId`] is its card's place), not maps: a count is
//! an add, and a recorder reused from game to game ([`Outcome::clear`]) and a [`Tally`]
//! allocate nothing once grown.

use std::collections::BTreeMap;

use crate::cards::CardId;
use crate::events::{Extras, Kind};

/// A card's counts in a game, in `Outcome.as_row`'s order: played, fired, used, drawn, acted.
pub const KINDS: usize = 5;
const PLAYED: usize = 0;
const FIRED: usize = 1;
const USED: usize = 2;
const DRAWN: usize = 3;
const ACTED: usize = 4;

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Outcome {
    pub winner: Option<usize>,
    pub reason: Option<&'static str>,
    pub turns: u32,
    pub first: Option<usize>,
    /// Per seat, by card (its [`CardId`]'s place, which orders the ids' strings): its
    /// [`KINDS`] counts; as long as the highest card counted.
    counts: [Vec<[u32; KINDS]>; 2],
    /// The permanents that entered play, by uid: (controller, card).
    permanents: Vec<Option<(usize, CardId)>>,
}

/// Whether the recorder reads events of the `Kind` variant named `variant` (`KINDS`):
/// `emit!` reads it at compile time and builds no other event for it at the outcome level.
pub const fn records(variant: &str) -> bool {
    const RECORDED: [&str; 10] = [
        "CardDrawn",
        "Damaged",
        "PlayerDamaged",
        "Attack",
        "EnteredPlay",
        "CardPlayed",
        "Resolving",
        "TurnStarted",
        "StartingPlayer",
        "GameEnded",
    ];
    let mut i = 0;
    while i < RECORDED.len() {
        if crate::triggers::same(RECORDED[i], variant) {
            return true;
        }
        i += 1;
    }
    false
}

impl Outcome {
    /// Ready for another game: nothing recorded, the tables' room kept.
    pub fn clear(&mut self) {
        let [ours, theirs] = &mut self.counts;
        ours.clear();
        theirs.clear();
        self.permanents.clear();
        (self.winner, self.reason, self.turns, self.first) = (None, None, 0, None);
    }

    /// The cards `player` counted of `kind` ([`KINDS`]' order) and their counts, in card order.
    pub fn counted(&self, player: usize, kind: usize) -> impl Iterator<Item = (CardId, u32)> + '_ {
        self.counts[player]
            .iter()
            .zip(0..)
            .filter(move |(c, _)| c[kind] > 0)
            .map(move |(c, at)| (CardId(at), c[kind]))
    }

    fn count(&mut self, player: usize, card: CardId, kind: usize) {
        // every card an event names here is one of the game's (never NONE or HIDDEN)
        debug_assert!(card < CardId::HIDDEN, "a recorded card that is none");
        let at = card.0 as usize;
        let counts = &mut self.counts[player];
        if counts.len() <= at {
            counts.resize(at + 1, [0; KINDS]);
        }
        counts[at][kind] += 1;
    }

    fn acted(&mut self, uid: Option<u64>) {
        let known = uid
            .and_then(|u| usize::try_from(u).ok())
            .and_then(|u| self.permanents.get(u))
            .and_then(|&known| known);
        if let Some((controller, card)) = known {
            self.count(controller, card, ACTED);
        }
    }

    /// `OutcomeRecorder._on_event`: `turn` is the event's envelope.
    pub fn record(&mut self, kind: &Kind, extras: &Extras, turn: u32) {
        match kind {
            Kind::CardDrawn { player, card, .. } => self.count(*player, *card, DRAWN),
            Kind::Damaged { source_uid, .. } => self.acted(source_uid.map(u64::from)),
            // the uid its source names; where the source was not made (an ability's, for a
            // recorder: `Game::text`), the uid the emitter gives, the one it would name
            Kind::PlayerDamaged {
                source,
                source_uid: uid,
                ..
            } => self.acted(if source.is_empty() {
                uid.map(u64::from)
            } else {
                source.uid()
            }),
            Kind::Attack {
                attackers,
                blockers,
                ..
            } => {
                for &uid in extras.uids(*attackers) {
                    self.acted(Some(u64::from(uid)));
                }
                for &uid in extras.blockers(*blockers) {
                    self.acted(uid.map(u64::from));
                }
            }
            Kind::EnteredPlay {
                controller,
                card,
                uid,
                ..
            } => {
                let at = *uid as usize;
                if self.permanents.len() <= at {
                    self.permanents.resize(at + 1, None);
                }
                self.permanents[at] = Some((*controller, *card));
            }
            Kind::CardPlayed { player, card, .. } => self.count(*player, *card, PLAYED),
            Kind::Resolving {
                controller: Some(player),
                card: Some(card),
                item_kind,
                ..
            } => match *item_kind {
                "automatic" => self.count(*player, *card, FIRED),
                "activated" => self.count(*player, *card, USED),
                _ => {}
            },
            Kind::TurnStarted { .. } => self.turns = turn,
            Kind::StartingPlayer { player } => self.first = Some(*player),
            Kind::GameEnded { winner, reason, .. } => {
                self.winner = *winner;
                self.reason = Some(reason);
            }
            _ => {}
        }
    }
}

/// The columns of a card in a [`Tally`] (`hkk._outcome.COLUMNS`, in that order): over a
/// group's games, the sums of the five counts, then the games (and won games) the card was
/// played in (P) or drawn in (D), the games both, the plays summed over D, and its acts
/// (fired + used + acted) summed over P - what the reports need per card without the games.
pub const COLUMNS: usize = 12;

/// A game's result as a [`Tally`] keeps it: the winner's seat, or one of these.
pub const DRAW: u8 = 2;
/// A game stopped short: the caller plays it again elsewhere and tallies it there.
pub const STOPPED: u8 = 3;

/// Many games of one pairing and seats tallied as `hkk._outcome.Tally` tallies a group
/// (`Group.add`): what `hkk simulate`'s reports read, its size independent of the games'.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Tally {
    /// The games tallied (the stopped ones apart).
    pub games: u32,
    pub wins: [u32; 2],
    pub first_games: u32,
    pub first_wins: u32,
    /// Turns -> games that lasted them.
    pub turns: BTreeMap<u32, u32>,
    /// Game-over reason (None: unfinished) -> games.
    pub reasons: BTreeMap<Option<&'static str>, u32>,
    /// Per seat, by card (as [`Outcome`]'s tables): its [`COLUMNS`], None for a card no game
    /// counted.
    cards: [Vec<Option<[u64; COLUMNS]>>; 2],
    /// Per game in the order added: the winner's seat, [`DRAW`] or [`STOPPED`].
    pub results: Vec<u8>,
}

impl Tally {
    /// A game stopped short: only its place in `results`.
    pub fn stopped(&mut self) {
        self.results.push(STOPPED);
    }

    /// The cards some game of `seat` counted, in card order, and their columns.
    pub fn cards(&self, seat: usize) -> impl Iterator<Item = (CardId, &[u64; COLUMNS])> + '_ {
        self.cards[seat]
            .iter()
            .zip(0..)
            .filter_map(|(columns, at)| Some((CardId(at), columns.as_ref()?)))
    }

    pub fn add(&mut self, o: &Outcome) {
        self.games += 1;
        if let Some(w) = o.winner {
            self.wins[w] += 1;
        }
        if let Some(first) = o.first {
            self.first_games += 1;
            self.first_wins += u32::from(o.winner == Some(first));
        }
        *self.turns.entry(o.turns).or_insert(0) += 1;
        *self.reasons.entry(o.reason).or_insert(0) += 1;
        self.results
            .push(o.winner.map_or(DRAW, |w| u8::try_from(w).unwrap_or(DRAW)));
        for seat in 0..2 {
            let won = u64::from(o.winner == Some(seat));
            let counts = &o.counts[seat];
            let cards = &mut self.cards[seat];
            if cards.len() < counts.len() {
                cards.resize(counts.len(), None);
            }
            for (five, columns) in counts.iter().zip(cards.iter_mut()) {
                if *five == [0; KINDS] {
                    continue; // not counted in this game
                }
                let [played, fired, used, drawn, acted] = five.map(u64::from);
                let (p, d) = (u64::from(played > 0), u64::from(drawn > 0));
                let adds = [
                    played,
                    fired,
                    used,
                    drawn,
                    acted,
                    p,
                    p * won,
                    d,
                    d * won,
                    p * d,
                    d * played,
                    p * (fired + used + acted),
                ];
                let c = columns.get_or_insert([0; COLUMNS]);
                for (column, add) in c.iter_mut().zip(adds) {
                    *column += add;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn acted(o: &Outcome, player: usize) -> Vec<(CardId, u32)> {
        o.counted(player, ACTED).collect()
    }

    #[test]
    fn a_damage_source_names_its_permanent_by_the_first_hash_and_digits() {
        let source_uid = crate::events::uid_in;
        assert_eq!(source_uid("alap:langorzo#12:1"), Some(12));
        assert_eq!(source_uid("a#b#7"), Some(7));
        assert_eq!(source_uid("alap:tuz"), None);
        assert_eq!(source_uid("x#"), None);
    }

    #[test]
    fn damage_by_a_permanent_counts_as_its_controllers_card_acting() {
        let mut o = Outcome::default();
        let mut extras = Extras::default();
        o.record(
            &Kind::EnteredPlay {
                controller: 1,
                card: CardId(0),
                uid: 3,
                zone: "reserve",
                active: false,
            },
            &extras,
            2,
        );
        o.record(
            &Kind::PlayerDamaged {
                player: 0,
                amount: 2,
                source: "t:a#3".into(),
                source_uid: None,
                after: 18,
            },
            &extras,
            2,
        );
        o.record(
            &Kind::Attack {
                attackers: extras.put_uids([3]),
                blockers: extras.put_blockers([None]),
                rule: "D-combat",
            },
            &extras,
            2,
        );
        assert_eq!(acted(&o, 1), vec![(CardId(0), 2)]);
        assert_eq!(acted(&o, 0), vec![]);
    }

    #[test]
    fn a_players_damage_whose_source_was_not_made_counts_the_uid_it_was_given() {
        let mut o = Outcome::default();
        let extras = Extras::default();
        let entered = |uid| Kind::EnteredPlay {
            controller: 0,
            card: CardId(uid),
            uid,
            zone: "reserve",
            active: false,
        };
        o.record(&entered(4), &extras, 1);
        o.record(&entered(5), &extras, 1);
        let damage = |source: &'static str, source_uid| Kind::PlayerDamaged {
            player: 1,
            amount: 1,
            source: source.into(),
            source_uid,
            after: 19,
        };
        o.record(&damage("", Some(4)), &extras, 1); // an ability's label, not made for a recorder
        o.record(&damage("t:b#5", Some(4)), &extras, 1); // a made source names its own
        o.record(&damage("t:tuz", None), &extras, 1); // a spell's: no permanent
        assert_eq!(acted(&o, 0), vec![(CardId(4), 1), (CardId(5), 1)]);
    }

    #[test]
    fn a_tally_counts_a_cards_games_by_whether_it_was_played_and_drawn() {
        let (a, b) = (CardId(0), CardId(1));
        let mut won = Outcome {
            winner: Some(0),
            reason: Some("hp"),
            turns: 9,
            first: Some(0),
            ..Outcome::default()
        };
        for (card, kind) in [(a, DRAWN), (a, DRAWN), (a, PLAYED), (b, PLAYED)] {
            won.count(0, card, kind);
        }
        for _ in 0..3 {
            won.count(0, a, FIRED);
        }
        let mut lost = Outcome {
            winner: Some(1),
            reason: Some("hp"),
            turns: 9,
            first: Some(0),
            ..Outcome::default()
        };
        lost.count(0, a, DRAWN);
        let mut t = Tally::default();
        t.add(&won);
        t.stopped();
        t.add(&lost);
        assert_eq!(
            (t.games, t.wins, t.first_games, t.first_wins),
            (2, [1, 1], 2, 1)
        );
        assert_eq!(t.turns.get(&9), Some(&2));
        assert_eq!(t.results, vec![0, STOPPED, 1]);
        let cards: Vec<_> = t.cards(0).collect();
        // a: played 1, fired 3, drawn 3; played in 1 game (won), drawn in 2 (1 won), both in
        // 1, played 1 over the games drawn, 3 acts over the games played
        // b: played without being drawn
        assert_eq!(
            cards,
            vec![
                (a, &[1, 3, 0, 3, 0, 1, 1, 2, 1, 1, 1, 3]),
                (b, &[1, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0])
            ]
        );
        assert_eq!(t.cards(1).count(), 0);
    }

    #[test]
    fn a_cleared_recorder_records_the_next_game_afresh() {
        let mut o = Outcome::default();
        o.record(&Kind::StartingPlayer { player: 1 }, &Extras::default(), 0);
        o.count(1, CardId(7), DRAWN);
        o.clear();
        assert_eq!(o, Outcome::default());
        o.count(0, CardId(2), USED);
        assert_eq!(o.counted(0, USED).collect::<Vec<_>>(), vec![(CardId(2), 1)]);
        assert_eq!(o.counted(1, DRAWN).count(), 0);
    }

    #[test]
    fn a_card_counted_in_no_game_of_a_seat_has_no_columns_there() {
        let mut o = Outcome::default();
        o.count(0, CardId(3), PLAYED);
        o.count(1, CardId(1), DRAWN);
        let mut t = Tally::default();
        t.add(&o);
        let seat = |s| t.cards(s).map(|(c, _)| c).collect::<Vec<_>>();
        assert_eq!((seat(0), seat(1)), (vec![CardId(3)], vec![CardId(1)]));
    }
}
