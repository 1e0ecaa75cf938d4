//! What `hkk simulate` records of a game (`hkk._outcome.OutcomeRecorder`), computed natively
//! from the events as they are emitted, kept or not: who started and won, why, the turns, and
//! per player the cards drawn and played, the abilities fired (automatic) and used
//! (activated), and the permanents that acted (attacked, blocked or dealt damage). It listens
//! to the recorder's ten kinds (`hkk._outcome.KINDS`) and ignores the others.

use std::collections::BTreeMap;

use crate::cards::CardId;
use crate::events::Kind;

/// Card id -> count, sorted by card id (as `Outcome.as_row` writes it: [`CardId`]s sort as
/// their strings).
pub type Counts = BTreeMap<CardId, u32>;

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Outcome {
    pub winner: Option<usize>,
    pub reason: Option<&'static str>,
    pub turns: u32,
    pub first: Option<usize>,
    pub played: [Counts; 2],
    pub fired: [Counts; 2],
    pub used: [Counts; 2],
    pub drawn: [Counts; 2],
    pub acted: [Counts; 2],
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

fn count(counts: &mut Counts, card: &CardId) {
    *counts.entry(*card).or_insert(0) += 1;
}

/// The uid in a damage source such as `alap:langorzo#1:1` (the recorder's `#(\d+)`: the first
/// `#` followed by a digit).
fn source_uid(source: &str) -> Option<u64> {
    source.match_indices('#').find_map(|(at, _)| {
        let digits: &str = &source[at + 1..];
        let end = digits
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(digits.len());
        digits[..end].parse().ok()
    })
}

impl Outcome {
    fn acted(&mut self, uid: Option<u64>) {
        let known = uid
            .and_then(|u| usize::try_from(u).ok())
            .and_then(|u| self.permanents.get(u))
            .and_then(Option::as_ref);
        if let Some((controller, card)) = known {
            count(&mut self.acted[*controller], card);
        }
    }

    /// `OutcomeRecorder._on_event`: `turn` is the event's envelope.
    pub fn record(&mut self, kind: &Kind, turn: u32) {
        match kind {
            Kind::CardDrawn { player, card, .. } => count(&mut self.drawn[*player], card),
            Kind::Damaged { source_uid, .. } => self.acted(source_uid.map(u64::from)),
            Kind::PlayerDamaged { source, .. } => self.acted(source_uid(source)),
            Kind::Attack {
                attackers,
                blockers,
                ..
            } => {
                for &uid in attackers {
                    self.acted(Some(u64::from(uid)));
                }
                for &uid in blockers {
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
            Kind::CardPlayed { player, card, .. } => count(&mut self.played[*player], card),
            Kind::Resolving {
                controller: Some(player),
                card: Some(card),
                item_kind,
                ..
            } => match *item_kind {
                "automatic" => count(&mut self.fired[*player], card),
                "activated" => count(&mut self.used[*player], card),
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_damage_source_names_its_permanent_by_the_first_hash_and_digits() {
        assert_eq!(source_uid("alap:langorzo#12:1"), Some(12));
        assert_eq!(source_uid("a#b#7"), Some(7));
        assert_eq!(source_uid("alap:tuz"), None);
        assert_eq!(source_uid("x#"), None);
    }

    #[test]
    fn damage_by_a_permanent_counts_as_its_controllers_card_acting() {
        let mut o = Outcome::default();
        o.record(
            &Kind::EnteredPlay {
                controller: 1,
                card: CardId(0),
                uid: 3,
                zone: "reserve",
                active: false,
            },
            2,
        );
        o.record(
            &Kind::PlayerDamaged {
                player: 0,
                amount: 2,
                source: "t:a#3".into(),
                after: 18,
            },
            2,
        );
        o.record(
            &Kind::Attack {
                attackers: vec![3],
                blockers: vec![None],
                rule: "D-combat",
            },
            2,
        );
        assert_eq!(o.acted[1].get(&CardId(0)), Some(&2));
        assert!(o.acted[0].is_empty());
    }
}
