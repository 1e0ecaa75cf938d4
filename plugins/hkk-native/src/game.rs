//! The game (`hkk._game.Game`): state, log, RNG and seats, with the one door for decisions. The
//! native core runs a game while every card played is one without words (creatures and
//! buildings with no ability): there are no effects, triggers or statics in its state, and it
//! stops (`Halt::Unported`) where a card with a word is played.

use std::sync::Arc;

use crate::agents::Seat;
use crate::cards::{CardId, CardPool};
use crate::continuous::Stat;
use crate::decisions::{Decision, Label};
use crate::effects::{Effect, TargetSpec};
use crate::emit;
use crate::errors::{Flow, Halt};
use crate::events::{Kind, Level, Log};
use crate::rng::Random;
use crate::state::{ExtractionOffer, Fact, InPlay, Permanent, Places, Player};

/// The permanents whose Ép changed an Ép check reads alone ([`Game::hp_changed`]); past them
/// it reads them all.
const HP_DIRTY_MAX: usize = 8;

#[derive(Debug)]
pub struct Game {
    pub cards: Arc<CardPool>,
    /// The seed the log shows (a determinized copy's is `getrandbits(64)`: wider than i64).
    pub seed: i128,
    pub rng: Random,
    pub players: [Player; 2],
    /// In play, by uid (their timestamps: insertion order is uid order); added and taken
    /// away only by [`Game::enter_play`] and [`Game::leave_play`], which count them in
    /// `in_play`.
    pub permanents: Vec<Permanent>,
    pub in_play: crate::state::InPlay,
    /// The next uid (`hkk._continuous.new_uid`), from 1.
    pub next_uid: u32,
    /// Monster components dead creatures offer (D-components-window).
    pub offers: Vec<ExtractionOffer>,
    /// The active player attacked this turn (the attack's `per_turn=1`, D-combat).
    pub attacked: bool,
    pub seats: [Seat; 2],
    pub log: Log,
    pub turn: u32,
    pub active: usize,
    /// The step running, an index into `phases::DEFAULT_TURN`.
    pub step: Option<usize>,
    /// The next step to run; None between turns.
    pub step_index: Option<usize>,
    pub started: bool,
    pub over: bool,
    pub winner: Option<usize>,
    /// The active player passed the turn (41.5).
    pub turn_passed: bool,
    /// The game clock (41.7): a turn started, and the last turn it closed.
    pub clock_started: bool,
    pub clock_closed_turn: u32,
    /// Set when the game reached what the native core does not run yet.
    pub unported: Option<String>,
    /// A simultaneous moment is being applied (29.4.2, 41.4): heals add up freely, limits
    /// apply when it ends (`hkk._changes.begin_moment`).
    pub in_moment: bool,
    /// Something in this moment healed a permanent past its max Ép or took a counter below
    /// zero: the moment's end clamps them (`end_moment`); without it, nothing to walk.
    pub moment_overshot: bool,
    /// Defence bonuses lost at the moment, lost when it ends: (uid, rule, source).
    pub bonus_losses: Vec<(u32, Option<&'static str>, Option<crate::events::Text>)>,
    /// Permanents destroyed at the moment, leaving play when it ends (D-moment-leaves):
    /// (uid, cause, rule, whether it offers components).
    pub leaving_play: Vec<(u32, &'static str, Option<&'static str>, bool)>,
    /// Uses of activated abilities by (uid, ability index): this turn, this game.
    pub usage_turn: Vec<((u32, usize), u32)>,
    pub usage_game: Vec<((u32, usize), u32)>,
    /// Preparation-phase abilities attempted this turn (29.4.9).
    pub attempted: Vec<(u32, usize)>,
    /// Lasting effects, in the order they were made.
    pub effects: Vec<crate::continuous::Lasting>,
    /// The `Duration::bit`s of the lasting effects (some may have ended since: it is made
    /// again only when effects end, `continuous::end_effects`): a moment ending none of them
    /// does not walk them.
    pub lasting_kinds: u8,
    /// The trigger watch (`game.triggers`).
    pub watch: crate::triggers::Watch,
    /// A seat is answered from outside (`Seat::Outside`): options' labels are made at every
    /// log level, as the Python engine's (a seated game at the outcome level makes none).
    pub outside: bool,
    /// The answers given from outside since the last step boundary, in order, and how many
    /// of them the present run of the step has taken (`forward::Driven` runs it again).
    pub answers: Vec<usize>,
    pub replayed: usize,
    /// Decisions asked in the present run of the step (answered by a seat or from outside).
    pub asked: usize,
    /// While a seat is answered from outside, the options chosen in the present run of the
    /// step, every seat's, in order (a reseat takes them again: `forward::Driven::reseat`).
    pub chosen: Vec<usize>,
    /// A determinized copy's resampling, applied when the step run again reaches the decision
    /// it was made at (`determinize::Resample`).
    pub resample: Option<Box<crate::determinize::Resample>>,
    /// The seats that take over where the answers given run out (a search's rollout plays on
    /// natively from the decision its world stands at).
    pub then: Option<Box<[Seat; 2]>>,
    /// The first `forced` answers are taken by any seat, its agent's included (a game loaded
    /// from a save replays the decisions its seated agents made before the save:
    /// `forward::Driven::reseat`); 0 but there.
    pub forced: usize,
    /// The decision a seat answered from outside waits for (`Halt::Decision`).
    pub waiting: Option<Box<Decision>>,
    /// The step runners' lists, made once a game (`steps::Scratch`).
    pub scratch: crate::steps::Scratch,
    /// The last Ép check found every permanent out of the statics' reach
    /// (`checks::out_of_reach`), and since then no permanent entered play nor had its Ép
    /// changed ([`Game::hp_changed`]; one leaving play takes no Ép from the others): the next
    /// check finds the same without reading them.
    pub hp_out_of_reach: bool,
    /// The last Ép check found every permanent out of the statics' reach, and since then only
    /// those in `hp_dirty` may have come within it (their Ép fell or they entered play; none
    /// with a static that could take Ép entered): the next check reads only them
    /// (`checks::dirty_out_of_reach`) before it reads them all.
    pub hp_known: bool,
    pub hp_dirty: Vec<u32>,
    /// The options of a chosen-player decision, `player i (name)` with the players' names
    /// (`hkk._cards.targets`); P1 and P2 but where the caller names them.
    pub player_labels: [crate::decisions::Label; 2],
    /// The combat decision under way (D-combat's declaration): the attacker offered or
    /// blocked, and the blockers offered in the options' order - what a rollout's fighting
    /// player reads (`search::fighting_choice`; an option's label is not made in a rollout).
    pub combat: Option<(u32, Vec<u32>)>,
    /// Where an action step stopped between two of its decisions for the driver to keep a
    /// checkpoint there (`steps::Resume`): the step goes on from it, not from its beginning.
    pub resume: Option<crate::steps::Resume>,
}

crate::clone_fields!(Game {
    cards,
    seed,
    rng,
    players,
    permanents,
    in_play,
    next_uid,
    offers,
    attacked,
    seats,
    log,
    turn,
    active,
    step,
    step_index,
    started,
    over,
    winner,
    turn_passed,
    clock_started,
    clock_closed_turn,
    unported,
    in_moment,
    moment_overshot,
    bonus_losses,
    leaving_play,
    usage_turn,
    usage_game,
    attempted,
    effects,
    lasting_kinds,
    watch,
    outside,
    answers,
    replayed,
    asked,
    chosen,
    resample,
    then,
    forced,
    waiting,
    scratch,
    hp_out_of_reach,
    hp_known,
    hp_dirty,
    player_labels,
    combat,
    resume
});

/// A static ability's modifier in force (`count_static`): its source, what it modifies, by how
/// much.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StaticMod {
    pub source: u32,
    pub controller: usize,
    pub target: TargetSpec,
    pub stat: Stat,
    pub amount: i64,
}

/// The static modifiers of `stat` on `perm` (`count_static`, `static_applies`).
pub fn static_mod(mods: &[StaticMod], perm: &Permanent, stat: Stat) -> i64 {
    mods.iter()
        .filter(|m| m.stat == stat && reaches(m.target, m.source, m.controller, perm))
        .map(|m| m.amount)
        .sum()
}

/// `static_applies`: a static modifier of `source` (controlled by `controller`) aimed at
/// `target` modifies `perm`.
fn reaches(target: TargetSpec, source: u32, controller: usize, perm: &Permanent) -> bool {
    match target {
        TargetSpec::SelfPerm => source == perm.uid,
        TargetSpec::OwnCreatures => perm.creature && perm.controller == controller,
        TargetSpec::OpponentCreatures => perm.creature && perm.controller != controller,
        TargetSpec::AllCreatures => perm.creature,
        TargetSpec::OwnBuildings => !perm.creature && perm.controller == controller,
        TargetSpec::AllBuildings => !perm.creature,
        _ => false,
    }
}

/// One more use of the ability `key` in `usage`.
pub fn count_use(usage: &mut Vec<((u32, usize), u32)>, key: (u32, usize)) {
    match usage.iter_mut().find(|(k, _)| *k == key) {
        Some((_, n)) => *n += 1,
        None => usage.push((key, 1)),
    }
}

/// The room the permanents' list is made with (a base game's board seldom holds more): made
/// once, not grown from empty.
const PERMANENTS_ROOM: usize = 16;

impl Game {
    /// A game of two decks (card ids in the Python engine's deck order), seeded as
    /// `random.Random(seed)` with `key` its absolute value's 32-bit words.
    pub fn new(
        cards: Arc<CardPool>,
        seed: i64,
        key: &[u32],
        decks: [Vec<CardId>; 2],
        mut seats: [Seat; 2],
        level: Level,
    ) -> Self {
        let [a, b] = decks;
        // two random seats' own generators, not seeded before their first draws, are seeded
        // beside the game's: the same states, in about the time of one seeding
        let rng = match seats.each_mut().map(Seat::own_rng) {
            [Some(a), Some(b)] => Random::from_key_beside(key, [a, b]),
            _ => Random::from_key(key),
        };
        let watch = crate::triggers::Watch::of_pool(&cards);
        let outside = seats.iter().any(|s| matches!(s, Seat::Outside));
        Game {
            cards,
            seed: i128::from(seed),
            rng,
            players: [Player::new(0, a), Player::new(1, b)],
            permanents: Vec::with_capacity(PERMANENTS_ROOM),
            in_play: Default::default(),
            next_uid: 1,
            offers: Vec::new(),
            attacked: false,
            seats,
            log: Log::new(level),
            turn: 0,
            active: 0,
            step: None,
            step_index: None,
            started: false,
            over: false,
            winner: None,
            turn_passed: false,
            clock_started: false,
            clock_closed_turn: 0,
            unported: None,
            in_moment: false,
            moment_overshot: false,
            bonus_losses: Vec::new(),
            leaving_play: Vec::new(),
            usage_turn: Vec::new(),
            usage_game: Vec::new(),
            attempted: Vec::new(),
            effects: Vec::new(),
            lasting_kinds: 0,
            watch,
            outside,
            answers: Vec::new(),
            replayed: 0,
            asked: 0,
            chosen: Vec::new(),
            resample: None,
            then: None,
            forced: 0,
            waiting: None,
            scratch: Default::default(),
            hp_out_of_reach: false,
            hp_known: false,
            hp_dirty: Vec::new(),
            player_labels: [
                crate::decisions::Label::from("player 0 (P1)"),
                crate::decisions::Label::from("player 1 (P2)"),
            ],
            combat: None,
            resume: None,
        }
    }

    /// The permanents in play with an ability timed on the hook whose bit this is, in
    /// timestamp order: at their places as `InPlay` keeps them (no branch on each permanent
    /// of the list), then any past its 64 places filtered.
    pub fn hooked_permanents(&self, bit: u64) -> impl Iterator<Item = &Permanent> + '_ {
        self.permanents_at(self.in_play.hooked_places(bit), move |p| p.hooks & bit != 0)
    }

    /// The permanents in play whose statics have the use whose bit this is
    /// (`cards::static_use`, `cards::PREVENTS`), as [`Game::hooked_permanents`].
    pub fn static_users(&self, bit: u8) -> impl Iterator<Item = &Permanent> + '_ {
        self.permanents_at(self.in_play.use_places(bit), move |p| {
            p.static_uses & bit != 0
        })
    }

    /// The permanents at the places of one of `InPlay`'s masks (or of several ANDed), in
    /// order, then those past its 64 places that pass `test`, the test the mask stands for.
    pub fn permanents_at<'a>(
        &'a self,
        places: Places,
        test: impl Fn(&Permanent) -> bool + 'a,
    ) -> impl Iterator<Item = &'a Permanent> + 'a {
        let placed = places.map(|at| &self.permanents[at]);
        let past = self.permanents.get(InPlay::PAST..).unwrap_or_default();
        placed.chain(past.iter().filter(move |p| test(p)))
    }

    /// The creatures in play (`creature`) or the buildings, `of`'s or anyone's, in order:
    /// found from `InPlay`'s masks of their facts (those past the masks tested).
    pub fn permanents_of_kind(
        &self,
        creature: bool,
        of: Option<usize>,
    ) -> impl Iterator<Item = &Permanent> + '_ {
        let kind = if creature {
            Fact::Creature
        } else {
            Fact::Building
        };
        let whose = of.map_or(u64::MAX, |p| self.in_play.fact(Fact::of(p)));
        let places = Places(self.in_play.fact(kind) & whose);
        self.permanents_at(places, move |p| {
            (p.creature == creature) & of.is_none_or(|c| p.controller == c)
        })
    }

    /// A permanent enters play (its uid the largest: the list stays in timestamp order).
    pub fn enter_play(&mut self, perm: Permanent) {
        debug_assert!(self.permanents.last().is_none_or(|p| p.uid < perm.uid));
        self.in_play.entered(&perm, self.permanents.len());
        self.watch.count_in_play(perm.triggers, 1);
        let floor = self.static_hp_floor(&perm);
        if floor < 0 {
            // the statics may now take more from every permanent
            self.in_play.hp_floor += floor;
            self.hp_changed_all();
        } else {
            self.hp_changed(perm.uid);
        }
        self.permanents.push(perm);
    }

    /// The permanent at `at` in the list leaves play.
    pub fn leave_play(&mut self, at: usize) -> Permanent {
        let perm = self.permanents.remove(at);
        self.in_play.left(&perm, at, &self.permanents);
        self.watch.count_in_play(perm.triggers, -1);
        self.in_play.hp_floor -= self.static_hp_floor(&perm);
        perm
    }

    /// The permanent `uid` entered play or its Ép (Sp) may have fallen: the next Ép check
    /// reads it again (all of them, past a few).
    pub fn hp_changed(&mut self, uid: u32) {
        self.hp_out_of_reach = false;
        if self.hp_known {
            if self.hp_dirty.len() < HP_DIRTY_MAX {
                self.hp_dirty.push(uid);
            } else {
                self.hp_changed_all();
            }
        }
    }

    /// Every permanent's Ép may have come within reach: the next Ép check reads them all.
    pub fn hp_changed_all(&mut self) {
        self.hp_out_of_reach = false;
        self.hp_known = false;
        self.hp_dirty.clear();
    }

    /// The most the statics of `perm`'s card could take from a permanent's Ép (0 or less:
    /// `Card::static_hp_floor`).
    fn static_hp_floor(&self, perm: &Permanent) -> i64 {
        if !perm.has_statics {
            return 0;
        }
        self.cards.get(perm.card).map_or(0, |c| c.static_hp_floor)
    }

    /// A text only events show (an option's label, an effect's source): made only when events
    /// are built, else empty - at the outcome level nobody reads it (the native agents tell
    /// passes by the literal `pass` labels, which are always made), but an outcome recorder
    /// reads a player's damage's source (`Text::uid`): `recorded` says the text may
    /// become one.
    pub fn text(
        &self,
        recorded: bool,
        make: impl FnOnce() -> crate::events::Text,
    ) -> crate::events::Text {
        if self.log.builds(recorded) || self.outside {
            make()
        } else {
            crate::events::Text::Borrowed("")
        }
    }

    /// An option's label, made as [`Game::text`] makes a text (empty otherwise: borrowed), but
    /// not for an outcome recorder (it reads no decision).
    /// A step run again from its checkpoint (`forward::Driven`) makes none for the decisions
    /// the answers given take again: only the decision it stops at is shown, and the outcome
    /// level logs no choice (labels are built just before their decision, never kept).
    pub fn option<L: Into<Label>>(&self, make: impl FnOnce() -> L) -> Label {
        if self.log.builds(false) || (self.outside && self.replayed >= self.answers.len()) {
            make().into()
        } else {
            Label::from("")
        }
    }

    /// A decision's prompt: made only for a decision shown outside (no log keeps one).
    pub fn prompt<L: Into<Label>>(&self, make: impl FnOnce() -> L) -> Label {
        if self.outside && self.replayed >= self.answers.len() {
            make().into()
        } else {
            Label::from("")
        }
    }

    pub fn emit(&mut self, kind: Kind) {
        self.log.emit(kind);
    }

    /// `Game.decide`: the seat answers; the decision is logged. A seat answered from outside
    /// takes the next answer given since the step began, or stops the game here
    /// (`Halt::Decision`, the decision in `waiting`).
    pub fn decide(&mut self, decision: &Decision) -> Result<usize, Halt> {
        self.resample_due();
        self.asked += 1;
        let chosen = if self.replayed < self.forced {
            self.given_answer(decision)?
        } else {
            match self.seated_choice(decision) {
                Some(chosen) => chosen,
                None if self.replayed < self.answers.len() => self.given_answer(decision)?,
                None => match self.then.take() {
                    Some(seats) => {
                        self.seats = *seats;
                        return self.decide_seated(decision);
                    }
                    None => {
                        self.waiting = Some(Box::new(decision.clone()));
                        return Err(Halt::Decision);
                    }
                },
            }
        };
        self.decided(decision, chosen)
    }

    /// A decision of `player` asked now is answered by his seat's native agent, and nobody
    /// reads its options' labels but the log the chosen one's; nor does a checkpoint or a
    /// replay take it: [`Game::decide_counted`] answers it as [`Game::decide`] would, its
    /// options counted, not listed, the chosen one's label made only if the log keeps it.
    pub fn seated(&self, player: usize) -> bool {
        !self.outside
            && self.replayed >= self.forced
            && !matches!(self.seats[player], Seat::Outside)
    }

    /// [`Game::decide`] of a decision [`Game::seated`] allows, told how many `options` it has
    /// and how many of them are not passes (`others`: the passes are the last options), the
    /// place of the attack among them (a fighting rollout player takes it) and how to label
    /// each (`label`, called for the chosen one if the log keeps it): the seat draws as
    /// `choose_random` would from the labels, the decision is logged the same.
    #[allow(clippy::too_many_arguments)]
    pub fn decide_counted<L: Into<Label>>(
        &mut self,
        player: usize,
        kind: &'static str,
        rule: Option<&'static str>,
        options: usize,
        others: usize,
        attack: Option<usize>,
        label: impl Fn(&Game, usize) -> L,
    ) -> usize {
        debug_assert!(self.seated(player));
        self.resample_due();
        self.asked += 1;
        let action = options > 1 && kind == "action";
        let chosen = match &mut self.seats[player] {
            Seat::Fighting { .. } if kind == "action" && attack.is_some() => attack.unwrap_or(0),
            Seat::Random { pass_bias, rng } | Seat::Fighting { pass_bias, rng } => {
                crate::agents::choose_counted(*pass_bias, action, options, others, |k| k, rng)
            }
            Seat::First | Seat::Outside => 0,
        };
        emit!(
            self,
            Kind::Decided {
                player,
                decision: kind,
                choice: {
                    let label = label(self, chosen).into();
                    self.log.events.extras_mut().put_label(&label)
                },
                options,
                rule,
            }
        );
        chosen
    }

    /// A decision of `player` asked now would be asked from outside past every answer given
    /// (none waiting to be taken again, no resampling due, no seats to take over): the point
    /// an action step stops at for a checkpoint (`steps::act`, `Halt::Pause`).
    pub fn pauses_before(&self, player: usize) -> bool {
        self.outside
            && matches!(self.seats[player], Seat::Outside)
            && self.replayed == self.answers.len()
            && self.resample.is_none()
            && self.then.is_none()
    }

    /// A determinized copy's resampling, applied here if the step run again has reached the
    /// decision the copy was made at (before its options are collected where they read a
    /// hand: `steps::run_actions` calls this too).
    pub fn resample_due(&mut self) {
        if self.resample.as_ref().is_some_and(|r| r.at == self.asked) {
            if let Some(resample) = self.resample.take() {
                (*resample).apply(self);
            }
        }
    }

    /// The decision logged with its answer.
    fn decided(&mut self, decision: &Decision, chosen: usize) -> Result<usize, Halt> {
        if self.outside {
            self.chosen.push(chosen);
        }
        emit!(
            self,
            Kind::Decided {
                player: decision.player,
                decision: decision.kind,
                choice: self
                    .log
                    .events
                    .extras_mut()
                    .put_label(&decision.options[chosen]),
                options: decision.options.len(),
                rule: decision.rule,
            }
        );
        Ok(chosen)
    }

    /// The seat's answer (None: answered from outside); a fighting rollout player reads the
    /// game at a combat decision.
    fn seated_choice(&mut self, decision: &Decision) -> Option<usize> {
        if let Seat::Fighting { .. } = self.seats[decision.player] {
            if let Some(chosen) = crate::search::fighting_choice(self, decision) {
                return Some(chosen);
            }
        }
        self.seats[decision.player].choose(decision)
    }

    /// [`Game::decide`] by the seats just put in (`then`): a seat answered from outside stops.
    fn decide_seated(&mut self, decision: &Decision) -> Result<usize, Halt> {
        let Some(chosen) = self.seated_choice(decision) else {
            self.waiting = Some(Box::new(decision.clone()));
            return Err(Halt::Decision);
        };
        self.decided(decision, chosen)
    }

    /// The next answer given since the step began (there is one).
    fn given_answer(&mut self, decision: &Decision) -> Result<usize, Halt> {
        let answer = self.answers[self.replayed];
        if answer >= decision.options.len() {
            // never so while the step runs again as it ran (`forward::Driven`)
            return Err(Halt::Unported(
                "the step run again from its checkpoint offered fewer options than were \
                 answered: it did not run as before"
                    .into(),
            ));
        }
        self.replayed += 1;
        Ok(answer)
    }

    /// `hkk._characteristics.hp`: with the static modifiers in force.
    pub fn hp(&self, uid: u32) -> i64 {
        self.permanent(uid).map_or(0, |perm| self.hp_of(perm))
    }

    /// [`Game::hp`] of a permanent at hand.
    pub fn hp_of(&self, perm: &Permanent) -> i64 {
        let stat = if perm.creature { Stat::Hp } else { Stat::Sp };
        perm.hp() + self.static_mod_of(perm, stat)
    }

    /// `static_mod(&self.static_mods(), perm, stat)` without collecting them: a static
    /// ability's condition is read only when one of its modifiers would reach `perm` (the
    /// conditions read the state, never change it, so the sum is the same).
    pub fn static_mod_of(&self, perm: &Permanent, stat: Stat) -> i64 {
        let mut sum = 0;
        if !self.in_play.statics() {
            return sum;
        }
        // the others' static abilities modify no `stat`
        let bit = crate::cards::static_use(stat);
        // only the permanents whose statics modify `stat` (most often none)
        for source in self.static_users(bit) {
            let Some(card) = self.cards.get(source.card) else {
                continue;
            };
            for ability in card.abilities.iter().filter(|a| a.is_static) {
                let (mut reached, mut amount) = (false, 0);
                for e in &ability.effects {
                    if matches!(e.lasting, Some((s, _)) if s == stat)
                        && reaches(e.target, source.uid, source.controller, perm)
                    {
                        reached = true;
                        amount += e.amount;
                    }
                }
                if reached
                    && ability
                        .condition
                        .is_none_or(|c| c.holds(self, source.controller))
                {
                    sum += amount;
                }
            }
        }
        sum
    }

    /// [`Game::hp`] of a permanent at hand, with the static modifiers read beforehand (a check
    /// reads every permanent's Ép against the same state: it reads them once).
    pub fn hp_with(&self, perm: &Permanent, mods: &[StaticMod]) -> i64 {
        let stat = if perm.creature { Stat::Hp } else { Stat::Sp };
        perm.hp() + static_mod(mods, perm, stat)
    }

    /// `hkk._characteristics.damage_value`.
    pub fn damage_value(&self, uid: u32) -> i64 {
        self.permanent(uid).map_or(0, |perm| {
            (perm.base_damage + perm.mod_damage + self.static_mod_of(perm, Stat::Damage)).max(0)
        })
    }

    /// The static abilities in force, as (source, its effect), in timestamp then card order:
    /// every one of a card in play whose condition holds (D-static-scope, D-conditions). They
    /// are read when a number is, never stored, so they are always up to date.
    pub fn statics(&self) -> impl Iterator<Item = (&Permanent, &Effect)> {
        self.statics_of(self.permanents.iter().filter(|p| p.has_statics))
    }

    /// [`Game::statics`] of the permanents whose statics have the use whose bit this is
    /// (`cards::static_use`): the others' give none of it.
    pub fn statics_using(&self, bit: u8) -> impl Iterator<Item = (&Permanent, &Effect)> {
        self.statics_of(self.static_users(bit))
    }

    /// [`Game::statics`] of these permanents.
    fn statics_of<'a>(
        &'a self,
        permanents: impl Iterator<Item = &'a Permanent> + 'a,
    ) -> impl Iterator<Item = (&'a Permanent, &'a Effect)> + 'a {
        permanents
            .filter_map(|p| Some((p, self.cards.get(p.card)?)))
            .flat_map(move |(p, card)| {
                card.abilities
                    .iter()
                    .filter(|a| a.is_static)
                    .filter(move |a| a.condition.is_none_or(|c| c.holds(self, p.controller)))
                    .flat_map(move |a| a.effects.iter().map(move |e| (p, e)))
            })
    }

    /// The static modifiers of permanents' stats in force now (none allocated when no static
    /// is in play, the common case).
    pub fn static_mods(&self) -> Vec<StaticMod> {
        if !self.in_play.statics() {
            return Vec::new();
        }
        self.statics()
            .filter_map(|(source, e)| {
                let (stat, _) = e.lasting?;
                Some(StaticMod {
                    source: source.uid,
                    controller: source.controller,
                    target: e.target,
                    stat,
                    amount: e.amount,
                })
            })
            .collect()
    }

    /// `hkk._changes.draw`: from the end of the deck into the hand; an empty deck loses
    /// (D-empty-deck, unless the rulings say it does not: the draw fails, no more is drawn).
    pub fn draw(&mut self, player: usize, count: usize, source: &crate::events::Text) -> Flow {
        for _ in 0..count {
            let Some(card) = self.players[player].deck.pop() else {
                emit!(
                    self,
                    Kind::DrawFailed {
                        player,
                        source: *source,
                    }
                );
                if !self.cards.rulings.empty_deck_loses {
                    return Ok(());
                }
                return self.end_game(Some(1 - player), "empty_deck", "D-empty-deck");
            };
            self.players[player].hand.push(card);
            emit!(
                self,
                Kind::CardDrawn {
                    player,
                    card,
                    // an outcome recorder reads the card, not its source: not made for one
                    source: self.text(false, || *source),
                }
            );
        }
        Ok(())
    }

    /// The permanent with this uid, if in play ([`Game::place`]).
    pub fn permanent(&self, uid: u32) -> Option<&Permanent> {
        self.place(uid).map(|at| &self.permanents[at])
    }

    /// The permanent with this uid to change, if in play: a change to a `state::Fact` it is
    /// filtered on is followed by [`Game::refresh_facts`] (or `InPlay::set` of that fact).
    pub fn permanent_mut(&mut self, uid: u32) -> Option<&mut Permanent> {
        self.place(uid).map(|at| &mut self.permanents[at])
    }

    /// The permanent with this uid changed its `state::Fact`s (its active state, zone or defence
    /// bonus): `InPlay`'s masks read it again.
    pub fn refresh_facts(&mut self, uid: u32) {
        if let Some(at) = self.place(uid) {
            self.in_play.refresh(&self.permanents[at], at);
        }
    }

    /// The place of the permanent with this uid in the list, if in play (kept by uid as they
    /// enter and leave play: `InPlay::place`).
    pub fn place(&self, uid: u32) -> Option<usize> {
        let at = self.in_play.place(uid);
        debug_assert_eq!(
            at,
            self.permanents.binary_search_by_key(&uid, |p| p.uid).ok()
        );
        at
    }

    /// `hkk._changes.end_game`.
    pub fn end_game(
        &mut self,
        winner: Option<usize>,
        reason: &'static str,
        rule: &'static str,
    ) -> Flow {
        self.over = true;
        self.winner = winner;
        self.emit(Kind::GameEnded {
            winner,
            reason,
            rule,
        });
        Err(Halt::GameOver)
    }

    /// How often the ability `key` was used, in `usage` (this turn's or the game's).
    pub fn uses(&self, usage: &[((u32, usize), u32)], key: (u32, usize)) -> u32 {
        usage.iter().find(|(k, _)| *k == key).map_or(0, |(_, n)| *n)
    }

    /// `hkk._changes.end_moment`: what a moment's changes netted out to, within the limits:
    /// VP and components at least 0, a permanent healed past its max Ép back to it (no event).
    pub fn end_moment(&mut self) {
        self.in_moment = false;
        for player in &mut self.players {
            player.vp = player.vp.max(0);
            player.components = player.components.max(0);
        }
        // only a heal or a counter removal inside the moment overshoots (`effects`)
        if std::mem::take(&mut self.moment_overshot) {
            let mut healed_past_max = false;
            for perm in &mut self.permanents {
                if perm.damage_taken < 0 {
                    perm.damage_taken = 0;
                    healed_past_max = true;
                }
                if !perm.counters.is_empty() {
                    perm.counters.retain(|(_, n)| *n > 0);
                }
            }
            if healed_past_max {
                self.hp_changed_all();
            }
        }
        // each list taken while it is worked through, then given back emptied (its buffer
        // kept for the next moment) unless something filled it again meanwhile
        let mut losses = std::mem::take(&mut self.bonus_losses);
        for (uid, rule, source) in losses.drain(..) {
            // 41.4 lists every creature of the active player: one without a bonus (most)
            // loses nothing and logs nothing, so it is not handed on
            if self.permanent(uid).is_some_and(|p| p.defence_bonus != 0) {
                crate::changes::remove_defence_bonus(self, uid, rule, source);
            }
        }
        if self.bonus_losses.is_empty() {
            self.bonus_losses = losses;
        }
        // every item saw them in play (29.4.2): now they leave it
        let mut leaving = std::mem::take(&mut self.leaving_play);
        for (uid, cause, rule, components) in leaving.drain(..) {
            crate::changes::destroy(self, uid, cause, rule, components);
        }
        if self.leaving_play.is_empty() {
            self.leaving_play = leaving;
        }
    }

    /// `GameClock.close_turn` (41.7): once a turn, after its first start.
    pub fn close_clock(&mut self, rule: &'static str) {
        if self.clock_closed_turn == self.turn || !self.clock_started {
            return;
        }
        self.clock_closed_turn = self.turn;
        emit!(
            self,
            Kind::ClockClosed {
                player: self.active,
                rule,
            }
        );
    }
}
