//! The turn as data (`hkk._phases`): the steps of `DEFAULT_TURN`, each with its phase, stage,
//! hook, mode and the rule switches the runner reads.

use crate::rules::RuleItem;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    Simultaneous,
    Ordered,
    Alternating,
    Actions,
}

impl Mode {
    pub fn name(self) -> &'static str {
        match self {
            Mode::Simultaneous => "simultaneous",
            Mode::Ordered => "ordered",
            Mode::Alternating => "alternating",
            Mode::Actions => "actions",
        }
    }
}

/// What happens to the abilities triggered in a step (`Step.triggers`, `hkk._triggers`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Triggers {
    /// After each item and its Ép check, ordered (D-trigger-wait).
    Resolve,
    /// They wait for the next step (prep stage 1 and the moment at stage 2's start: all of it
    /// joins the stage-2 pool, 29.4, 29.4.1, 29.4.2).
    Wait,
    /// They join this ordered step's items, ordered with them (29.4.1, D-trigger-prep).
    Pool,
    /// Nothing triggers here (41.4, D-trigger-end4).
    None,
}

/// One step (`hkk._phases.Step`); only the switches the native runner reads today.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Step {
    pub phase: &'static str,
    pub stage: u32,
    pub hook: &'static str,
    pub mode: Mode,
    /// Check Ép after every item (False only in end stage 4, 41.4).
    pub hp_check: bool,
    /// Cards may be played from hand here (the main phase).
    pub hand_play: bool,
    /// No card may be played from hand here, instants included (29.4.6).
    pub no_hand_play: bool,
    /// Deaths here give no monster component (29.4.11).
    pub no_components: bool,
    /// Durations ending at the start of the step, sorted (the `moment` event's `ends`).
    pub ends: &'static [&'static str],
    /// The last step where the active player may act: the clock closes at its end (41.7).
    pub closes_clock: bool,
    /// The rule point of the Ép check after each item.
    pub check_rule: &'static str,
    /// The step's first rule point (`rules[0]`): the action decisions and moments cite it.
    pub rule: &'static str,
    /// Every item happens, once: an `optional` flag is not honoured (41.2).
    pub mandatory: bool,
    /// The rule point an order decision here cites (29.4.1, or [D] D-orderer).
    pub order_rule: &'static str,
    /// The active player orders here whatever the rulings say (29.4.1); elsewhere
    /// `Rulings.default_orderer` says who does (D-orderer).
    pub active_orders: bool,
    /// The active player's creatures lose their defence bonus at this moment (41.4).
    pub defence_bonus_lost: bool,
    /// A "this turn" effect made here waits for preparation stage 2 (29.4.5).
    pub this_turn_waits: bool,
    /// Waiting effects start at this moment (29.4.5).
    pub starts_waiting_effects: bool,
    /// Effects made at the moment with durations it ends end right after it (D-end4-created).
    pub ends_created: bool,
    /// What happens to the abilities triggered here.
    pub triggers: Triggers,
    /// The rules' own item of the step (`rules::rule_item` of its hook), read without
    /// comparing the hook's name.
    pub rule_item: Option<RuleItem>,
    /// The rule point the effects ending at its moment cite: 29.4.4 where the moment ends
    /// "until preparation" ones, 41.4 elsewhere (set by `numbered`, not compared by name at
    /// every moment).
    pub end_rule: &'static str,
    /// Its place in `DEFAULT_TURN` as a bit (`cards::hook_bit` of its hook): the abilities
    /// timed on it are found by a number, not a string compared.
    pub bit: u64,
    /// The next step is another phase's (or the turn ends): the phase's offers lapse at its
    /// end, found without comparing the phases' names.
    pub ends_phase: bool,
}

const PREPARATION: &str = "preparation";

const fn step(phase: &'static str, stage: u32, hook: &'static str, mode: Mode) -> Step {
    Step {
        phase,
        stage,
        hook,
        mode,
        hp_check: true,
        hand_play: false,
        no_hand_play: false,
        no_components: false,
        ends: &[],
        closes_clock: false,
        check_rule: "D-hp-check",
        rule: "",
        mandatory: false,
        order_rule: "D-orderer",
        active_orders: false,
        defence_bonus_lost: false,
        this_turn_waits: false,
        starts_waiting_effects: false,
        ends_created: false,
        triggers: Triggers::Resolve,
        rule_item: None,
        end_rule: "41.4",  // set by `numbered`
        bit: 0,            // set by `numbered`
        ends_phase: false, // set by `numbered`
    }
}

/// The steps, each with its place's bit.
const fn numbered(mut steps: [Step; 12]) -> [Step; 12] {
    let mut i = 0;
    while i < steps.len() {
        steps[i].bit = 1 << i;
        let ends = steps[i].ends;
        let mut j = 0;
        while j < ends.len() {
            if crate::triggers::same(ends[j], "until_preparation") {
                steps[i].end_rule = "29.4.4";
            }
            j += 1;
        }
        steps[i].ends_phase =
            i + 1 == steps.len() || !crate::triggers::same(steps[i].phase, steps[i + 1].phase);
        i += 1;
    }
    steps
}

/// The bit of the step of `DEFAULT_TURN` whose hook this is (`cards::hook_bit`), at compile
/// time: a step is told by it where it is met at every decision, not by comparing strings.
pub const fn step_bit(hook: &str) -> u64 {
    let mut i = 0;
    while i < DEFAULT_TURN.len() {
        if crate::triggers::same(DEFAULT_TURN[i].hook, hook) {
            return DEFAULT_TURN[i].bit;
        }
        i += 1;
    }
    panic!("no step of the turn has this hook")
}

/// The main phase's and the combat phase's bits ([`step_bit`]).
pub const MAIN_PHASE: u64 = step_bit("main_phase");
pub const COMBAT_PHASE: u64 = step_bit("combat_phase");

/// The bits of the preparation phase's steps.
pub const PREPARATION_STEPS: u64 = {
    let (mut bits, mut i) = (0, 0);
    while i < DEFAULT_TURN.len() {
        if crate::triggers::same(DEFAULT_TURN[i].phase, PREPARATION) {
            bits |= DEFAULT_TURN[i].bit;
        }
        i += 1;
    }
    bits
};

/// The preparation phase's switches (29.4.6, 29.4.10).
const fn prep(hook: &'static str, stage: u32, mode: Mode, rule: &'static str) -> Step {
    Step {
        no_hand_play: true,
        check_rule: "29.4.10",
        rule,
        ..step(PREPARATION, stage, hook, mode)
    }
}

/// `hkk._phases.DEFAULT_TURN`.
pub const DEFAULT_TURN: [Step; 12] = numbered([
    Step {
        this_turn_waits: true,
        triggers: Triggers::Wait,
        ..prep("prep_stage1", 1, Mode::Ordered, "29.4.5")
    },
    Step {
        this_turn_waits: true,
        triggers: Triggers::Wait,
        rule_item: Some(RuleItem::VpRegeneration),
        ..prep("vp_regeneration", 1, Mode::Ordered, "29.3")
    },
    Step {
        triggers: Triggers::Wait,
        ends: &["until_own_preparation", "until_preparation"],
        starts_waiting_effects: true,
        no_components: true,
        order_rule: "29.4.1",
        active_orders: true,
        ..prep("prep_stage2_start", 2, Mode::Simultaneous, "29.4.2")
    },
    Step {
        no_components: true,
        order_rule: "29.4.1",
        active_orders: true,
        triggers: Triggers::Pool,
        ..prep("prep_stage2", 2, Mode::Ordered, "29.4")
    },
    Step {
        rule_item: Some(RuleItem::BecomeActive),
        ..prep("prep_stage3", 3, Mode::Ordered, "29.2")
    },
    Step {
        rule_item: Some(RuleItem::Draw),
        ..prep("prep_stage4", 4, Mode::Ordered, "29.2")
    },
    Step {
        hand_play: true,
        rule: "4.11.6",
        ..step("main", 1, "main_phase", Mode::Actions)
    },
    Step {
        rule: "33",
        ..step("combat", 1, "combat_phase", Mode::Actions)
    },
    Step {
        closes_clock: true,
        rule: "41.1",
        ..step("end", 1, "end_stage1", Mode::Alternating)
    },
    Step {
        rule: "41.2",
        mandatory: true,
        ..step("end", 2, "end_stage2", Mode::Ordered)
    },
    Step {
        rule: "41.3",
        rule_item: Some(RuleItem::Restore),
        ..step("end", 3, "end_stage3", Mode::Ordered)
    },
    Step {
        hp_check: false,
        defence_bonus_lost: true,
        ends_created: true,
        triggers: Triggers::None,
        ends: &["this_turn", "turns", "until_end_of_turn"],
        rule: "41.4",
        ..step("end", 4, "end_stage4", Mode::Simultaneous)
    },
]);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_steps_end_rule_is_29_4_4_where_it_ends_until_preparation_effects() {
        for step in DEFAULT_TURN {
            let rule = if step.ends.contains(&"until_preparation") {
                "29.4.4"
            } else {
                "41.4"
            };
            assert_eq!(step.end_rule, rule, "{}", step.hook);
        }
    }

    #[test]
    fn a_steps_bit_is_its_hooks() {
        for step in DEFAULT_TURN {
            assert_eq!(step.bit, crate::cards::hook_bit(step.hook), "{}", step.hook);
        }
    }

    #[test]
    fn the_named_steps_bits_are_their_hooks_and_phases() {
        assert_eq!(MAIN_PHASE, crate::cards::hook_bit("main_phase"));
        assert_eq!(COMBAT_PHASE, crate::cards::hook_bit("combat_phase"));
        for step in DEFAULT_TURN {
            let preparation = PREPARATION_STEPS & step.bit != 0;
            assert_eq!(preparation, step.phase == "preparation", "{}", step.hook);
        }
    }

    #[test]
    fn a_step_ends_its_phase_where_the_next_ones_phase_differs() {
        for (i, step) in DEFAULT_TURN.iter().enumerate() {
            let next = DEFAULT_TURN.get(i + 1).map(|s| s.phase);
            assert_eq!(step.ends_phase, next != Some(step.phase), "{}", step.hook);
        }
    }

    #[test]
    fn a_steps_rules_item_is_its_hooks() {
        for step in DEFAULT_TURN {
            let hooks = crate::rules::rule_item(step.hook);
            assert_eq!(step.rule_item, hooks, "{}", step.hook);
        }
    }

    #[test]
    fn the_turn_has_the_python_engines_twelve_steps_in_order() {
        let hooks: Vec<&str> = DEFAULT_TURN.iter().map(|s| s.hook).collect();
        assert_eq!(
            hooks,
            [
                "prep_stage1",
                "vp_regeneration",
                "prep_stage2_start",
                "prep_stage2",
                "prep_stage3",
                "prep_stage4",
                "main_phase",
                "combat_phase",
                "end_stage1",
                "end_stage2",
                "end_stage3",
                "end_stage4"
            ]
        );
    }
}
