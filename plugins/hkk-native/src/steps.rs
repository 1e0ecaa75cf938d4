//! The four ways a step runs (`hkk._steps`), on a board without permanents: the hooks return
//! only the rules' own items and the cards a player may play. Playing a card is where the
//! native core stops today (`Halt::Unported`).

use crate::checks::{check_hp, check_players};
use crate::decisions::Decision;
use crate::errors::{Flow, Halt};
use crate::events::Kind;
use crate::game::Game;
use crate::phases::{Mode, Step};
use crate::rules::{playable, rule_item};

pub const PASS: &str = "pass";
/// 41.5: "announces not to act this turn".
pub const PASS_TURN: &str = "pass turn";

/// Where the native core stops: the card language is not native yet.
pub const UNPORTED_PLAY: &str = "playing a card from hand (8.1) is not native yet";

/// `RUNNERS[step.mode]`.
pub fn run(game: &mut Game, step: &Step) -> Flow {
    match step.mode {
        Mode::Simultaneous => run_simultaneous(game, step),
        Mode::Ordered => run_ordered(game, step),
        Mode::Alternating => run_alternating(game, step),
        Mode::Actions => run_actions(game, step),
    }
}

/// `after_resolution`: 29.4.10 in the preparation phase, [D] after every item elsewhere;
/// only the players' loss where the step defers the check (41.4).
fn after_resolution(game: &mut Game, step: &Step) -> Flow {
    if step.hp_check {
        check_hp(game, step.check_rule)
    } else {
        check_players(game)
    }
}

/// One moment (29.4.2, 41.4) with no item in it: logged, the durations it ends (none in
/// force), then the check.
fn run_simultaneous(game: &mut Game, step: &Step) -> Flow {
    game.emit(Kind::Moment {
        rule: step.rule,
        ends: step.ends,
    });
    after_resolution(game, step)
}

/// Collect, order, resolve, check: the one rules item of the step, if it has one (a single
/// item needs nobody to order it), resolved once.
fn run_ordered(game: &mut Game, step: &Step) -> Flow {
    let Some(item) = rule_item(step.hook) else {
        return Ok(());
    };
    game.emit(Kind::Resolving {
        item: item.label(),
        item_kind: "rule",
    });
    item.apply(game)?;
    after_resolution(game, step)
}

/// 41.1 with nothing to use: each player passes, forced, the active player first.
fn run_alternating(game: &mut Game, step: &Step) -> Flow {
    let mut player = game.active;
    for _ in 0..2 {
        game.emit(Kind::Passed {
            player,
            rule: step.rule,
            forced: Some(true),
        });
        player = 1 - player;
    }
    Ok(())
}

/// 4.11.6-7, 41.5: players act in turn, the active player first, until his pass is followed
/// by his opponent's; the active player may pass the whole turn.
fn run_actions(game: &mut Game, step: &Step) -> Flow {
    let active = game.active;
    let mut player = active;
    let mut active_passed = false;
    loop {
        if game.over {
            return Ok(());
        }
        if player == active && game.turn_passed {
            active_passed = true;
            player = 1 - player;
            continue;
        }
        let mut options: Vec<String> = playable(game, step, player)
            .into_iter()
            .map(|card| format!("play {card}"))
            .collect();
        options.push(PASS.into());
        if player == active && !game.turn_passed {
            options.push(PASS_TURN.into());
        }
        let decision = Decision {
            kind: "action",
            player,
            options,
            rule: Some(step.rule),
        };
        let chosen = game.decide(&decision);
        let label = decision.options[chosen].as_str();
        if label != PASS && label != PASS_TURN {
            return Err(Halt::Unported(UNPORTED_PLAY));
        }
        if label == PASS_TURN {
            game.turn_passed = true;
            game.emit(Kind::TurnPassed {
                player,
                rule: "41.5",
            });
            game.close_clock("41.7");
        } else {
            game.emit(Kind::Passed {
                player,
                rule: "4.11.7",
                forced: None,
            });
        }
        if player != active && active_passed {
            return Ok(());
        }
        active_passed = active_passed || player == active;
        player = 1 - player;
    }
}
