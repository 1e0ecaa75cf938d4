//! The native log: every event as a typed value, kept natively and turned into Python's
//! `as_dict()` shape (`hkk._event_base`: `seq`, `turn`, `step`, `kind`, then the kind's fields in
//! declaration order) only when read. Kinds and fields mirror `hkk.events`.

/// One event's kind and fields (the envelope is in [`Event`]).
#[derive(Debug, Clone, PartialEq)]
pub enum Kind {
    /// `game_started`: the seed and the two decks' sizes.
    GameStarted { seed: i64, decks: [usize; 2] },
    /// `decision`: a player decided.
    Decided {
        player: usize,
        decision: &'static str,
        choice: String,
        options: usize,
        rule: Option<&'static str>,
    },
    /// `starting_player` (28).
    StartingPlayer { player: usize },
    /// `card_drawn`: deck to hand.
    CardDrawn {
        player: usize,
        card: String,
        source: Option<&'static str>,
    },
}

impl Kind {
    pub fn name(&self) -> &'static str {
        match self {
            Kind::GameStarted { .. } => "game_started",
            Kind::Decided { .. } => "decision",
            Kind::StartingPlayer { .. } => "starting_player",
            Kind::CardDrawn { .. } => "card_drawn",
        }
    }

    /// Whether the log level keeps it (`hkk._events`: outcome keeps only `game_over`; compact
    /// drops `step_started`, `step_ended` and `decision`).
    pub fn kept_at(&self, level: Level) -> bool {
        match level {
            Level::Full => true,
            Level::Compact => !matches!(self, Kind::Decided { .. }),
            Level::Outcome => false,
        }
    }
}

/// A field's value, as Python will see it.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    Int(i64),
    Str(String),
    Ints(Vec<i64>),
    None,
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
#[derive(Debug, Clone, PartialEq)]
pub struct Event {
    pub seq: usize,
    pub turn: u32,
    pub step: &'static str,
    pub kind: Kind,
}

impl Event {
    /// The fields after the envelope, in `hkk.events`' declaration order (optional fields that
    /// are None left out, as `as_dict()` leaves them out).
    pub fn fields(&self) -> Vec<(&'static str, Value)> {
        let int = |v: usize| Value::Int(v as i64);
        let opt = |v: &Option<&'static str>| v.map_or(Value::None, |s| Value::Str(s.into()));
        match &self.kind {
            Kind::GameStarted { seed, decks } => vec![
                ("seed", Value::Int(*seed)),
                (
                    "decks",
                    Value::Ints(decks.iter().map(|&d| d as i64).collect()),
                ),
            ],
            Kind::Decided {
                player,
                decision,
                choice,
                options,
                rule,
            } => vec![
                ("player", int(*player)),
                ("decision", Value::Str((*decision).into())),
                ("choice", Value::Str(choice.clone())),
                ("options", int(*options)),
                ("rule", opt(rule)),
            ],
            Kind::StartingPlayer { player } => vec![("player", int(*player))],
            Kind::CardDrawn {
                player,
                card,
                source,
            } => vec![
                ("player", int(*player)),
                ("card", Value::Str(card.clone())),
                ("source", opt(source)),
            ],
        }
    }
}

/// The append-only log at a level: what the level drops is never built.
#[derive(Debug, Clone)]
pub struct Log {
    pub level: Level,
    pub events: Vec<Event>,
    pub turn: u32,
    pub step: &'static str,
    /// Events emitted, kept or not (the next `seq`).
    pub emitted: usize,
}

impl Log {
    pub fn new(level: Level) -> Self {
        Log {
            level,
            events: Vec::new(),
            turn: 0,
            step: "",
            emitted: 0,
        }
    }

    pub fn emit(&mut self, kind: Kind) {
        if kind.kept_at(self.level) {
            self.events.push(Event {
                seq: self.emitted, // the seq it has in the full log
                turn: self.turn,
                step: self.step,
                kind,
            });
        }
        self.emitted += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_outcome_level_keeps_no_setup_event() {
        let mut log = Log::new(Level::Outcome);
        log.emit(Kind::StartingPlayer { player: 1 });
        assert!(log.events.is_empty());
        assert_eq!(log.emitted, 1);
    }

    #[test]
    fn the_compact_level_drops_decisions_and_keeps_full_seqs() {
        let mut log = Log::new(Level::Compact);
        log.emit(Kind::Decided {
            player: 0,
            decision: "start",
            choice: "start".into(),
            options: 2,
            rule: Some("28"),
        });
        log.emit(Kind::StartingPlayer { player: 0 });
        assert_eq!(log.events.len(), 1);
        assert_eq!(log.events[0].seq, 1);
    }

    #[test]
    fn events_carry_their_envelope_and_fields_in_order() {
        let mut log = Log::new(Level::Full);
        log.emit(Kind::CardDrawn {
            player: 0,
            card: "t:x".into(),
            source: Some("setup"),
        });
        let event = &log.events[0];
        assert_eq!((event.seq, event.turn, event.step), (0, 0, ""));
        let names: Vec<&str> = event.fields().iter().map(|(n, _)| *n).collect();
        assert_eq!(names, ["player", "card", "source"]);
        assert_eq!(event.kind.name(), "card_drawn");
    }
}
