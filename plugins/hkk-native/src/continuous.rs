//! Lasting effects (`hkk._continuous`, `hkk._effects`): `modify` makes a modifier of a stat
//! (damage, Ép, Sp, VP regeneration) for a duration; its targets are fixed when it is made
//! (K 99.5); a "this turn" one made in preparation stage 1 waits for stage 2 (29.4.5); they end
//! together at a moment (29.4.4, 41.4, D-counted-turns, D-own-preparation).

use crate::effects::TargetSpec;
use crate::emit;
use crate::events::{EffectStart, Kind, Text};
use crate::game::Game;
use crate::phases::DEFAULT_TURN;

/// A stat a lasting effect modifies (`hkk._cards.types.Stat`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stat {
    Damage,
    Hp,
    Sp,
    VpRegen,
}

impl Stat {
    pub fn parse(word: &str) -> Option<Stat> {
        Some(match word {
            "damage" => Stat::Damage,
            "hp" => Stat::Hp,
            "sp" => Stat::Sp,
            "vp_regen" => Stat::VpRegen,
            _ => return None,
        })
    }

    pub fn name(self) -> &'static str {
        match self {
            Stat::Damage => "damage",
            Stat::Hp => "hp",
            Stat::Sp => "sp",
            Stat::VpRegen => "vp_regen",
        }
    }
}

/// `hkk._effects.Duration`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Duration {
    Permanent,
    UntilEndOfTurn,
    ThisTurn,
    UntilPreparation,
    UntilOwnPreparation,
    Turns(u32),
}

impl Duration {
    pub fn parse(word: &str, turns: Option<u32>) -> Option<Duration> {
        Some(match (word, turns) {
            ("permanent", None) => Duration::Permanent,
            ("until_end_of_turn", None) => Duration::UntilEndOfTurn,
            ("this_turn", None) => Duration::ThisTurn,
            ("until_preparation", None) => Duration::UntilPreparation,
            ("until_own_preparation", None) => Duration::UntilOwnPreparation,
            ("turns", Some(n)) if n >= 1 => Duration::Turns(n),
            _ => return None,
        })
    }

    /// Its kind as one bit of a set of durations.
    pub fn bit(self) -> u8 {
        1 << match self {
            Duration::Permanent => 0,
            Duration::UntilEndOfTurn => 1,
            Duration::ThisTurn => 2,
            Duration::UntilPreparation => 3,
            Duration::UntilOwnPreparation => 4,
            Duration::Turns(_) => 5,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Duration::Permanent => "permanent",
            Duration::UntilEndOfTurn => "until_end_of_turn",
            Duration::ThisTurn => "this_turn",
            Duration::UntilPreparation => "until_preparation",
            Duration::UntilOwnPreparation => "until_own_preparation",
            Duration::Turns(_) => "turns",
        }
    }
}

/// A lasting effect (`hkk._effects.Effect`): its uid is a timestamp shared with permanents.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Lasting {
    pub uid: u32,
    pub stat: Stat,
    pub amount: i64,
    pub duration: Duration,
    /// Permanent uids, sorted (fixed when it was made).
    pub targets: Vec<u32>,
    pub player: Option<usize>,
    pub controller: usize,
    pub source: Text,
    /// False while a "this turn" effect waits for stage 2 (29.4.5).
    pub in_force: bool,
    pub ends_turn: Option<u32>,
}

/// `count_effect`: add (or take back) its modifier to the permanents it affects.
fn count(game: &mut Game, effect: &Lasting, sign: i64) {
    let by = sign * effect.amount;
    let lowers = by < 0 && matches!(effect.stat, Stat::Hp | Stat::Sp);
    for &uid in &effect.targets {
        if lowers {
            game.hp_changed(uid);
        }
        if let Some(perm) = game.permanent_mut(uid) {
            match effect.stat {
                Stat::Damage => perm.mod_damage += by,
                Stat::Hp => perm.mod_hp += by,
                Stat::Sp => perm.mod_sp += by,
                Stat::VpRegen => {}
            }
        }
    }
}

fn started(game: &mut Game, effect: &Lasting, rule: Option<&'static str>, waits: bool) {
    emit!(
        game,
        Kind::EffectStarted {
            waits,
            effect: effect.uid,
            targets: game
                .log
                .events
                .extras_mut()
                .put_uids(effect.targets.iter().copied()),
            rest: game.log.events.extras_mut().put_start(EffectStart {
                stat: effect.stat.name(),
                amount: effect.amount,
                duration: effect.duration.name(),
                player: effect.player,
                source: effect.source,
                ends_turn: effect.ends_turn,
                rule,
            }),
        }
    );
}

/// `add_effect`: a modifier of `stat` for `duration` on `targets` (permanents) or `player`.
pub fn add_effect(
    game: &mut Game,
    (stat, duration): (Stat, Duration),
    amount: i64,
    targets: Vec<u32>,
    player: Option<usize>,
    controller: usize,
    source: &Text,
) {
    let ends_turn = match duration {
        // D-counted-turns: every turn counts, this one included; or, as the rulings may say,
        // only its controller's own turns (turns alternate, 41.6)
        Duration::Turns(n) if game.cards.rulings.counts_own_turns => {
            let first = if controller == game.active {
                game.turn
            } else {
                game.turn + 1
            };
            Some(first + 2 * (n - 1))
        }
        Duration::Turns(n) => Some(game.turn + n - 1),
        // D-own-preparation: made in his own turn before its expiry moment: his next turn's
        Duration::UntilOwnPreparation if controller == game.active && own_expiry_ahead(game) => {
            Some(game.turn + 2)
        }
        _ => None,
    };
    let waits = duration == Duration::ThisTurn
        && stat != Stat::VpRegen
        && game.step.is_some_and(|i| DEFAULT_TURN[i].this_turn_waits);
    let uid = game.next_uid;
    game.next_uid += 1;
    let mut targets = targets;
    targets.sort_unstable();
    targets.dedup();
    let effect = Lasting {
        uid,
        stat,
        amount,
        duration,
        targets,
        player,
        controller,
        source: *source,
        in_force: !waits,
        ends_turn,
    };
    if effect.in_force {
        count(game, &effect, 1);
    }
    started(game, &effect, None, waits);
    game.lasting_kinds |= effect.duration.bit();
    game.effects.push(effect);
}

/// `_own_expiry_ahead`: this turn's moment that ends "until your own preparation" effects is
/// still to come.
fn own_expiry_ahead(game: &Game) -> bool {
    game.step_index.is_some_and(|index| {
        DEFAULT_TURN[index.min(DEFAULT_TURN.len())..]
            .iter()
            .any(|s| s.ends.contains(&"until_own_preparation"))
    })
}

/// A duration's `Duration::bit` by its name (0 for none), at compile time.
const fn duration_bit(name: &str) -> u8 {
    use crate::triggers::same;
    let at = if same(name, "permanent") {
        0
    } else if same(name, "until_end_of_turn") {
        1
    } else if same(name, "this_turn") {
        2
    } else if same(name, "until_preparation") {
        3
    } else if same(name, "until_own_preparation") {
        4
    } else if same(name, "turns") {
        5
    } else {
        return 0;
    };
    1 << at
}

/// Each step's `ends` as `Duration::bit`s, by its place in `DEFAULT_TURN` (named once, at
/// compile time, not compared by name at every moment).
const STEP_ENDS: [u8; DEFAULT_TURN.len()] = {
    let mut bits = [0; DEFAULT_TURN.len()];
    let mut i = 0;
    while i < DEFAULT_TURN.len() {
        let ends = DEFAULT_TURN[i].ends;
        let mut j = 0;
        while j < ends.len() {
            bits[i] |= duration_bit(ends[j]);
            j += 1;
        }
        i += 1;
    }
    bits
};

/// The durations (`Duration::bit`s) `step` ends: [`STEP_ENDS`] at its place (`step.bit`).
fn step_ends(step: &crate::phases::Step) -> u8 {
    STEP_ENDS[step.bit.trailing_zeros() as usize % DEFAULT_TURN.len()]
}

/// `end_effects` of the durations the step ends (its `ends`); `only_controller` limits those
/// but counted and "until your own preparation" ones to his (D-until-preparation).
pub fn end_step_effects(
    game: &mut Game,
    step: &crate::phases::Step,
    rule: &'static str,
    only_controller: Option<usize>,
) {
    end_effects(game, step_ends(step), rule, only_controller);
}

/// `_until_preparation_owner`: with `Rulings(until_preparation_ends="controller")`, only the
/// active player's effects end at a moment that ends "until the preparation phase" ones
/// (D-until-preparation); None: everyone's.
pub fn until_preparation_owner(game: &Game, step: &crate::phases::Step) -> Option<usize> {
    let ends_it = step_ends(step) & Duration::UntilPreparation.bit() != 0;
    (ends_it && game.cards.rulings.until_own_preparation).then_some(game.active)
}

/// `end_effects`: the effects of these durations (`Duration::bit`s) whose time is up end at
/// one moment: all removed, then each logged in uid order; `only_controller`: see
/// [`end_step_effects`].
pub fn end_effects(
    game: &mut Game,
    ending: u8,
    rule: &'static str,
    only_controller: Option<usize>,
) {
    debug_assert_eq!(
        game.lasting_kinds | kinds_of(&game.effects),
        game.lasting_kinds
    );
    if game.lasting_kinds & ending == 0 {
        return; // no effect of these durations: none to walk
    }
    let (turn, active) = (game.turn, game.active);
    let due = |e: &Lasting| {
        if ending & e.duration.bit() == 0 || !e.in_force {
            return false;
        }
        match e.duration {
            Duration::Turns(_) => e.ends_turn.is_some_and(|t| t <= turn),
            Duration::UntilOwnPreparation => {
                e.controller == active && e.ends_turn.is_none_or(|t| t <= turn)
            }
            _ => only_controller.is_none_or(|c| e.controller == c),
        }
    };
    if !game.effects.iter().any(due) {
        return; // the usual case: the lists are left as they are
    }
    // into the game's kept list (`Scratch::ending`), emptied by `end`
    let mut ending = std::mem::take(&mut game.scratch.ending);
    ending.extend(game.effects.extract_if(.., |e| due(e)));
    game.lasting_kinds = kinds_of(&game.effects);
    end(game, &mut ending, Vec::new(), rule);
    game.scratch.ending = ending;
}

/// `_end`: `ending` end at one moment, and `partly` (an effect's index in `game.effects` and
/// the permanents it no longer affects) end for some of their permanents: every modifier
/// taken back before any is logged, then one event each in uid order.
fn end(
    game: &mut Game,
    ending: &mut Vec<Lasting>,
    partly: Vec<(usize, Vec<u32>)>,
    rule: &'static str,
) {
    for effect in ending.iter() {
        count(game, effect, -1);
    }
    if partly.is_empty() {
        // the usual case: the ending effects logged in uid order straight from their list
        ending.sort_unstable_by_key(|e| e.uid); // uids are unique: one order
        for effect in ending.drain(..) {
            emit_ended(
                game,
                effect.uid,
                effect.stat.name(),
                &effect.targets,
                false,
                rule,
            );
        }
        return;
    }
    let mut ended: Vec<(u32, &'static str, Vec<u32>, bool)> =
        Vec::with_capacity(ending.len() + partly.len());
    for effect in ending.drain(..) {
        ended.push((effect.uid, effect.stat.name(), effect.targets, false));
    }
    for (index, taken) in partly {
        let mut part = game.effects[index].clone();
        part.targets.clone_from(&taken);
        count(game, &part, -1);
        game.effects[index]
            .targets
            .retain(|uid| !taken.contains(uid));
        ended.push((part.uid, part.stat.name(), taken, true));
    }
    ended.sort_by_key(|e| e.0);
    for (effect, stat, targets, partial) in ended {
        emit_ended(game, effect, stat, &targets, partial, rule);
    }
}

/// One ended effect's `effect_ended`.
fn emit_ended(
    game: &mut Game,
    effect: u32,
    stat: &'static str,
    targets: &[u32],
    partial: bool,
    rule: &'static str,
) {
    emit!(
        game,
        Kind::EffectEnded {
            effect,
            stat,
            targets: game
                .log
                .events
                .extras_mut()
                .put_uids(targets.iter().copied()),
            rule,
            partial,
        }
    );
}

/// `dispel`: lasting effects in force end now, at one moment (D-dispel): those of `durations`
/// (any, if empty) that affect `on` - permanents (by uid) and players (their VP-regeneration
/// effects); any, if None; `durations` as `Duration::bit`s (0: any). One that also affects permanents not in `on` ends only for those
/// in it (`partial`).
pub fn dispel(game: &mut Game, rule: &'static str, durations: u8, on: Option<(&[u32], &[usize])>) {
    let mut ending_at = Vec::new();
    let mut partly = Vec::new();
    for (index, effect) in game.effects.iter().enumerate() {
        let kind_matches = durations == 0 || durations & effect.duration.bit() != 0;
        if !effect.in_force || !kind_matches {
            continue;
        }
        if let Some((uids, players)) = on {
            if let Some(player) = effect.player {
                if !players.contains(&player) {
                    continue;
                }
            } else {
                let hit: Vec<u32> = effect
                    .targets
                    .iter()
                    .copied()
                    .filter(|u| uids.contains(u))
                    .collect();
                if hit.is_empty() {
                    continue;
                }
                if hit.len() != effect.targets.len() {
                    partly.push((index, hit));
                    continue;
                }
            }
        }
        ending_at.push(index);
    }
    let mut ending = Vec::new();
    let mut kept = Vec::new();
    let partial_uids: Vec<u32> = partly.iter().map(|(i, _)| game.effects[*i].uid).collect();
    for (index, effect) in std::mem::take(&mut game.effects).into_iter().enumerate() {
        if ending_at.contains(&index) {
            ending.push(effect);
        } else {
            kept.push(effect);
        }
    }
    game.effects = kept;
    game.lasting_kinds = kinds_of(&game.effects);
    // the partly ended ones by their place in the effects kept
    let partly = partly
        .into_iter()
        .zip(partial_uids)
        .filter_map(|((_, hit), uid)| {
            let at = game.effects.iter().position(|e| e.uid == uid)?;
            Some((at, hit))
        })
        .collect();
    end(game, &mut ending, partly, rule);
}

/// The `Duration::bit`s of `effects` (`Game::lasting_kinds`).
fn kinds_of(effects: &[Lasting]) -> u8 {
    effects.iter().fold(0, |bits, e| bits | e.duration.bit())
}

/// `start_waiting_effects` (29.4.5).
pub fn start_waiting_effects(game: &mut Game, rule: &'static str) {
    for index in 0..game.effects.len() {
        if !game.effects[index].in_force {
            game.effects[index].in_force = true;
            let effect = game.effects[index].clone();
            count(game, &effect, 1);
            started(game, &effect, Some(rule), false);
        }
    }
}

/// `vp_regen_modifier`: the VP-regeneration modifiers in force for `player` (29.4.5).
pub fn vp_regen_modifier(game: &Game, player: usize) -> i64 {
    let effects: i64 = game
        .effects
        .iter()
        .filter(|e| e.in_force && e.stat == Stat::VpRegen && e.player == Some(player))
        .map(|e| e.amount)
        .sum();
    // static "your VP regeneration is +1" (`static_player`)
    let statics: i64 = game
        .statics_using(crate::cards::static_use(Stat::VpRegen))
        .filter(|(_, e)| e.lasting.is_some_and(|(s, _)| s == Stat::VpRegen))
        .filter(|(source, e)| match e.target {
            TargetSpec::Controller => source.controller == player,
            TargetSpec::Opponent => source.controller != player,
            TargetSpec::EachPlayer => true,
            _ => false,
        })
        .map(|(_, e)| e.amount)
        .sum();
    effects + statics
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_steps_ending_durations_as_bits_are_those_its_ends_name() {
        const KINDS: [Duration; 6] = [
            Duration::Permanent,
            Duration::UntilEndOfTurn,
            Duration::ThisTurn,
            Duration::UntilPreparation,
            Duration::UntilOwnPreparation,
            Duration::Turns(1),
        ];
        for (at, step) in DEFAULT_TURN.iter().enumerate() {
            let named = KINDS
                .iter()
                .filter(|d| step.ends.contains(&d.name()))
                .fold(0, |bits, d| bits | d.bit());
            assert_eq!(STEP_ENDS[at], named, "{}", step.hook);
            assert_eq!(
                named.count_ones() as usize,
                step.ends.len(),
                "{}",
                step.hook
            );
        }
    }

    #[test]
    fn test_41_4_a_moment_ends_the_effects_of_its_durations_and_only_those() {
        let pool = crate::runner::tests::creatures(|_| 0);
        let mut game = Game::new(
            pool,
            1,
            &crate::rng::key_of(1),
            [vec![], vec![]],
            [crate::agents::Seat::First, crate::agents::Seat::First],
            crate::events::Level::Full,
        );
        let one = crate::changes::enter_play(&mut game, 0, crate::cards::CardId(0));
        let turn_long = (Stat::Damage, Duration::ThisTurn);
        let lasting = (Stat::Damage, Duration::Permanent);
        add_effect(
            &mut game,
            turn_long,
            2,
            vec![one],
            None,
            0,
            &Text::Borrowed("t"),
        );
        add_effect(
            &mut game,
            lasting,
            1,
            vec![one],
            None,
            0,
            &Text::Borrowed("t"),
        );
        assert_eq!(game.permanents[0].mod_damage, 3);
        end_effects(&mut game, Duration::UntilPreparation.bit(), "29.4.4", None);
        assert_eq!(game.effects.len(), 2, "no effect of that duration");
        end_effects(&mut game, Duration::ThisTurn.bit(), "41.4", None);
        assert_eq!(game.effects.len(), 1);
        assert_eq!(game.permanents[0].mod_damage, 1);
        assert_eq!(game.lasting_kinds, Duration::Permanent.bit());
    }
}
