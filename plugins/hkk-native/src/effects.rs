//! The effects the native core implements (`hkk._cards.verbs`, `hkk._cards.targets`), of spells
//! and of automatic abilities: the verbs `damage`, `heal`, `draw` and `gain_vp` with a fixed
//! amount and a player, group, chosen or `self` target. Any other verb, target or field of an effect is refused by name when the
//! game is built (`cards::CardPool::refusal`).

use crate::cards::CardId;
use crate::changes::{
    damage, destroy, gain_components, give_defence_bonus, remove_defence_bonus, Target,
};
use crate::conditions::{Compare, Named};
use crate::continuous::{add_effect, dispel, Duration, Stat};
use crate::decisions::Decision;
use crate::emit;
use crate::errors::{Flow, Halt};
use crate::events::{Kind, Prefix, Text};
use crate::game::Game;
use std::sync::Arc;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verb {
    Damage,
    Heal,
    Draw,
    GainVp,
    GiveDefenceBonus,
    RemoveDefenceBonus,
    GainComponents,
    Sacrifice,
    Modify,
    EndEffects,
    AddCounters,
    RemoveCounters,
    Prevent,
    Destroy,
    LoseVp,
    PayComponents,
}

impl Verb {
    fn parse(word: &str) -> Option<Verb> {
        match word {
            "damage" => Some(Verb::Damage),
            "heal" => Some(Verb::Heal),
            "draw" => Some(Verb::Draw),
            "gain_vp" => Some(Verb::GainVp),
            "give_defence_bonus" => Some(Verb::GiveDefenceBonus),
            "remove_defence_bonus" => Some(Verb::RemoveDefenceBonus),
            "gain_components" => Some(Verb::GainComponents),
            "sacrifice" => Some(Verb::Sacrifice),
            "modify" => Some(Verb::Modify),
            "end_effects" => Some(Verb::EndEffects),
            "add_counters" => Some(Verb::AddCounters),
            "remove_counters" => Some(Verb::RemoveCounters),
            "prevent" => Some(Verb::Prevent),
            "destroy" => Some(Verb::Destroy),
            "lose_vp" => Some(Verb::LoseVp),
            "pay_components" => Some(Verb::PayComponents),
            _ => None,
        }
    }

    /// `PlayerVerb`s (cards, VP) act on players only.
    fn players_only(self) -> bool {
        matches!(
            self,
            Verb::Draw | Verb::GainVp | Verb::GainComponents | Verb::LoseVp | Verb::PayComponents
        )
    }

    /// Defence bonuses are creatures' (the models allow creature targets only).
    fn creatures_only(self) -> bool {
        matches!(
            self,
            Verb::GiveDefenceBonus
                | Verb::RemoveDefenceBonus
                | Verb::Sacrifice
                | Verb::AddCounters
                | Verb::RemoveCounters
        )
    }

    /// A verb without an amount (`remove_defence_bonus` loses the whole bonus; `sacrifice`).
    fn amountless(self) -> bool {
        matches!(
            self,
            Verb::RemoveDefenceBonus
                | Verb::Sacrifice
                | Verb::EndEffects
                | Verb::Prevent
                | Verb::Destroy
        )
    }
}

/// `hkk._cards.types.Target`, the ones implemented.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TargetSpec {
    /// No target (`end_effects` of some durations, everyone's).
    Nobody,
    /// The ability's own permanent, while in play.
    SelfPerm,
    Controller,
    Opponent,
    EachPlayer,
    ChosenPlayer,
    OwnCreatures,
    OpponentCreatures,
    AllCreatures,
    ChosenCreature,
    ChosenOwnCreature,
    ChosenOpponentCreature,
    OwnBuildings,
    AllBuildings,
    ChosenBuilding,
    /// Bound by the event that set a triggered ability off (`TRIGGER_TARGETS`).
    TriggerPermanent,
    TriggerSource,
    TriggerPlayer,
}

impl TargetSpec {
    fn parse(word: &str) -> Option<TargetSpec> {
        Some(match word {
            "" => TargetSpec::Nobody,
            "self" => TargetSpec::SelfPerm,
            "controller" => TargetSpec::Controller,
            "opponent" => TargetSpec::Opponent,
            "each_player" => TargetSpec::EachPlayer,
            "chosen_player" => TargetSpec::ChosenPlayer,
            "own_creatures" => TargetSpec::OwnCreatures,
            "opponent_creatures" => TargetSpec::OpponentCreatures,
            "all_creatures" => TargetSpec::AllCreatures,
            "chosen_creature" => TargetSpec::ChosenCreature,
            "chosen_own_creature" => TargetSpec::ChosenOwnCreature,
            "chosen_opponent_creature" => TargetSpec::ChosenOpponentCreature,
            "own_buildings" => TargetSpec::OwnBuildings,
            "all_buildings" => TargetSpec::AllBuildings,
            "chosen_building" => TargetSpec::ChosenBuilding,
            "trigger_permanent" => TargetSpec::TriggerPermanent,
            "trigger_source" => TargetSpec::TriggerSource,
            "trigger_player" => TargetSpec::TriggerPlayer,
            _ => return None,
        })
    }

    fn of_players(self) -> bool {
        matches!(
            self,
            TargetSpec::Controller
                | TargetSpec::Opponent
                | TargetSpec::EachPlayer
                | TargetSpec::ChosenPlayer
                | TargetSpec::TriggerPlayer
        )
    }
}

/// What a counted amount counts (`hkk._cards.amounts.Count`): a quantity seen from the
/// ability's controller, or the amount of the event that set a triggered ability off.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Counted {
    Quantity(Named),
    /// `trigger_amount` (D-trigger-amount).
    TriggerAmount,
}

/// `where.of` (`hkk._cards.quantities.PERMANENT_QUANTITIES`): a number of each permanent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Of {
    DamageTaken,
    Hp,
    Damage,
    Counters(String),
}

/// A target filter (`hkk._cards.amounts.Where`): read when the targets are chosen.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Where {
    pub of: Of,
    pub compare: Compare,
    pub bound: i64,
}

impl Where {
    fn parse((of, counter, compare, bound): &(String, String, String, i64)) -> Option<Where> {
        let of = match (of.as_str(), counter.is_empty()) {
            ("damage_taken", true) => Of::DamageTaken,
            ("hp", true) => Of::Hp,
            ("damage", true) => Of::Damage,
            ("counters", false) => Of::Counters(counter.clone()),
            _ => return None,
        };
        Some(Where {
            of,
            compare: Compare::parse(compare)?,
            bound: *bound,
        })
    }

    /// `Where.holds` for the permanent `uid` (in play).
    fn holds(&self, game: &Game, uid: u32) -> bool {
        let Some(perm) = game.permanent(uid) else {
            return false;
        };
        let value = match &self.of {
            Of::DamageTaken => perm.damage_taken,
            Of::Hp => game.hp_of(perm),
            Of::Damage if perm.creature => game.damage_value(uid),
            Of::Damage => 0,
            Of::Counters(name) => perm
                .counters
                .iter()
                .find(|(c, _)| **c == **name)
                .map_or(0, |(_, n)| *n),
        };
        self.compare.test(value, self.bound)
    }
}

/// One effect of a spell, as the native core runs it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Effect {
    pub verb: Verb,
    pub target: TargetSpec,
    pub amount: i64,
    /// A counted amount, read when the effect applies, and its `times` (None: `amount`).
    pub counted: Option<(Counted, i64)>,
    /// A target filter (`where`).
    pub filter: Option<Where>,
    /// `modify`'s stat and duration.
    pub lasting: Option<(Stat, Duration)>,
    /// `end_effects`: the durations it ends, as `Duration::bit`s (0: every one).
    pub durations: u8,
    /// The counter `add_counters` and `remove_counters` put on or take off (shared with the
    /// permanents it is put on: `Permanent::counters`).
    pub counter: Arc<str>,
    /// A static `prevent`: whose abilities, of which kind, in which phase.
    pub prevention: Option<Prevention>,
}

/// `Prevent` (D-prevented): the abilities a static ability makes resolve without effect.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Prevention {
    /// `opponent`, `controller` or `each_player`.
    pub whose: PreventWhose,
    /// `activated`, `automatic` or `all`.
    pub abilities: PreventAbilities,
    /// The steps of the phase it names (`DEFAULT_TURN` bits, `Step::bit`), None for `any`:
    /// read at each resolution without comparing names.
    pub steps: Option<u64>,
}

/// Whose abilities a prevention stops (any other word: every player's, as `_` reads it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PreventWhose {
    Opponent,
    Controller,
    Each,
}

/// Which abilities a prevention stops (any other word: none).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PreventAbilities {
    All,
    Activated,
    Automatic,
    Neither,
}

impl Prevention {
    /// Parsed once, when the card is built.
    fn parse(whose: &str, abilities: &str, phase: &str) -> Prevention {
        Prevention {
            whose: match whose {
                "opponent" => PreventWhose::Opponent,
                "controller" => PreventWhose::Controller,
                _ => PreventWhose::Each,
            },
            abilities: match abilities {
                "all" => PreventAbilities::All,
                "activated" => PreventAbilities::Activated,
                "automatic" => PreventAbilities::Automatic,
                _ => PreventAbilities::Neither,
            },
            steps: (phase != "any").then(|| {
                crate::phases::DEFAULT_TURN
                    .iter()
                    .filter(|s| s.phase == phase)
                    .fold(0, |bits, s| bits | s.bit)
            }),
        }
    }
}

/// An effect as the Python side hands it over: where it stands, its `do`, its `target`, its
/// amount (None: a counted amount) and the names of its other fields set.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlainEffect {
    pub place: String,
    pub verb: String,
    pub target: String,
    pub amount: Option<i64>,
    pub others: Vec<String>,
    /// `modify`'s stat, duration and turns.
    pub modify: Option<(String, String, Option<u32>)>,
    /// The names the effect takes: `end_effects`' durations, or a counter's name.
    pub durations: Vec<String>,
    /// A counted amount: the name counted and `times`.
    pub counted: Option<(String, i64)>,
    /// A target filter: `of`, its counter ("" for none), the comparison and the bound.
    pub filter: Option<(String, String, String, i64)>,
}

#[cfg(test)]
impl PlainEffect {
    /// A card's first effect of a verb, a target and an amount, nothing else (tests' cards).
    pub fn of(verb: &str, target: &str, amount: Option<i64>) -> Self {
        PlainEffect {
            place: "card.abilities[0].effects[0]".into(),
            verb: verb.into(),
            target: target.into(),
            amount,
            others: vec![],
            modify: None,
            durations: vec![],
            counted: None,
            filter: None,
        }
    }
}

/// The effect, or the word the native core does not implement (as a refusal's text).
pub fn parse(plain: &PlainEffect) -> Result<Effect, String> {
    let refuse = |word: String| Err(format!("{word} ({})", plain.place));
    let Some(verb) = Verb::parse(&plain.verb) else {
        return refuse(format!("`do = \"{}\"`", plain.verb));
    };
    let Some(target) = TargetSpec::parse(&plain.target) else {
        return refuse(format!("`target = \"{}\"`", plain.target));
    };
    let targetless = matches!(verb, Verb::EndEffects | Verb::Prevent) && plain.target.is_empty();
    if (target == TargetSpec::Nobody) != targetless {
        return refuse(format!("`target = \"{}\"`", plain.target));
    }
    let counter = match verb {
        Verb::AddCounters | Verb::RemoveCounters => match plain.durations.as_slice() {
            [name] => name.as_str().into(),
            _ => return refuse(format!("`do = \"{}\"`", plain.verb)),
        },
        _ => "".into(),
    };
    let prevention = match (verb, plain.durations.as_slice()) {
        (Verb::Prevent, [whose, abilities, phase]) => {
            Some(Prevention::parse(whose, abilities, phase))
        }
        (Verb::Prevent, _) => return refuse("`do = \"prevent\"`".into()),
        _ => None,
    };
    let counted = matches!(
        verb,
        Verb::AddCounters | Verb::RemoveCounters | Verb::Prevent
    );
    let mut durations = 0;
    for word in plain.durations.iter().filter(|_| !counted) {
        // `turns` is a duration to end too, whatever its count
        match Duration::parse(word, None).or(Duration::parse(word, Some(1))) {
            Some(d) => durations |= d.bit(),
            None => return refuse(format!("`durations = [\"{word}\"]`")),
        }
    }
    if (verb.players_only() && !target.of_players())
        || (verb.creatures_only() && target.of_players())
    {
        return refuse(format!("`target = \"{}\"`", plain.target));
    }
    if let Some(other) = plain.others.first() {
        return refuse(format!("`{other}`"));
    }
    let lasting = match (&plain.modify, verb) {
        (Some((stat, duration, turns)), Verb::Modify) => {
            let Some(stat) = Stat::parse(stat) else {
                return refuse(format!("`stat = \"{stat}\"`"));
            };
            let Some(duration) = Duration::parse(duration, *turns) else {
                return refuse(format!("`duration = \"{duration}\"`"));
            };
            if (stat == Stat::VpRegen) != target.of_players() {
                return refuse(format!("`target = \"{}\"`", plain.target));
            }
            Some((stat, duration))
        }
        (None, Verb::Modify) => return refuse("`do = \"modify\"`".into()),
        _ => None,
    };
    let counted = match &plain.counted {
        Some((name, times)) => {
            let counted = if name == "trigger_amount" {
                Counted::TriggerAmount
            } else {
                match Named::parse(name) {
                    Some(named) => Counted::Quantity(named),
                    None => return refuse(format!("`count = \"{name}\"`")),
                }
            };
            Some((counted, *times))
        }
        None => None,
    };
    let amount = match plain.amount {
        Some(amount) => amount,
        None if verb.amountless() || counted.is_some() => 0,
        None => return refuse("an amount".into()),
    };
    let filter = match &plain.filter {
        Some(found) => match Where::parse(found) {
            Some(filter) => Some(filter),
            None => return refuse(format!("`where = {{ of = \"{}\" }}`", found.0)),
        },
        None => None,
    };
    Ok(Effect {
        verb,
        target,
        amount,
        counted,
        filter,
        lasting,
        durations,
        counter,
        prevention,
    })
}

/// `EffectContext`: who controls the effect, the permanent it comes from, its label.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Context {
    pub controller: usize,
    pub source: Option<u32>,
    pub label: Text,
    /// What the event that set a triggered ability off bound (`ctx.trigger`).
    pub trigger: Option<crate::triggers::Bound>,
}

impl TargetSpec {
    /// A target its controller chooses a permanent for (`CHOSEN_PERMANENTS`).
    fn chooses_permanent(self) -> bool {
        matches!(
            self,
            TargetSpec::ChosenCreature
                | TargetSpec::ChosenOwnCreature
                | TargetSpec::ChosenOpponentCreature
                | TargetSpec::ChosenBuilding
        )
    }

    /// `p` is among the permanents this chosen target chooses from, for its controller `me`.
    fn choosable(self, p: &crate::state::Permanent, me: usize) -> bool {
        match self {
            TargetSpec::ChosenCreature => p.creature,
            TargetSpec::ChosenOwnCreature => p.creature && p.controller == me,
            TargetSpec::ChosenOpponentCreature => p.creature && p.controller != me,
            TargetSpec::ChosenBuilding => !p.creature,
            _ => false,
        }
    }
}

/// `SpellCard.can_choose` (D-no-target): a spell whose every effect acts on a chosen
/// permanent has one to choose now for `player` (its filter holding for it); any other spell
/// can be played.
pub fn can_choose(game: &Game, player: usize, effects: &[Effect]) -> bool {
    if !effects.iter().all(|e| e.target.chooses_permanent()) {
        return true;
    }
    effects.iter().any(|e| {
        game.permanents
            .iter()
            .filter(|p| e.target.choosable(p, player))
            .any(|p| e.filter.as_ref().is_none_or(|w| w.holds(game, p.uid)))
    })
}

/// `filtered_targets`: the permanents of a group target that `filter` holds for; of a
/// choice, the controller chooses among those only.
fn filtered_targets(
    game: &mut Game,
    ctx: &Context,
    target: TargetSpec,
    filter: &Where,
    out: &mut Vec<Target>,
) -> Result<(), Halt> {
    let me = ctx.controller;
    let found: Vec<u32> = game
        .permanents
        .iter()
        .filter(|p| match target {
            TargetSpec::OwnCreatures | TargetSpec::ChosenOwnCreature => {
                p.creature && p.controller == me
            }
            TargetSpec::OpponentCreatures | TargetSpec::ChosenOpponentCreature => {
                p.creature && p.controller != me
            }
            TargetSpec::AllCreatures | TargetSpec::ChosenCreature => p.creature,
            TargetSpec::OwnBuildings => !p.creature && p.controller == me,
            TargetSpec::AllBuildings | TargetSpec::ChosenBuilding => !p.creature,
            _ => false,
        })
        .map(|p| p.uid)
        .collect();
    let found: Vec<u32> = found
        .into_iter()
        .filter(|&uid| filter.holds(game, uid))
        .collect();
    let chosen = matches!(
        target,
        TargetSpec::ChosenCreature
            | TargetSpec::ChosenOwnCreature
            | TargetSpec::ChosenOpponentCreature
            | TargetSpec::ChosenBuilding
    );
    if !chosen || found.is_empty() {
        out.extend(found.into_iter().map(Target::Permanent));
        return Ok(());
    }
    out.push(chosen_permanent(game, ctx, &found)?);
    Ok(())
}

/// The permanent the controller chooses among `uids` (a "target" decision, one option a
/// permanent, the item's label its prompt).
fn chosen_permanent(game: &mut Game, ctx: &Context, uids: &[u32]) -> Result<Target, Halt> {
    let label = |game: &Game, uid: u32| {
        game.permanent(uid)
            .map_or(Text::Borrowed("target "), |p| Text::Card {
                prefix: Prefix::Target,
                card: p.card,
                uid: p.uid,
            })
    };
    if game.seated(ctx.controller) {
        // answered natively: the options counted, not listed (a fighting seat chooses
        // targets as a random one: `search::fighting_choice` reads no target decision)
        let n = uids.len();
        let player = ctx.controller;
        let at = game.decide_counted(player, "target", None, n, n, None, |g, at| {
            label(g, uids[at])
        });
        return Ok(Target::Permanent(uids[at]));
    }
    let options = uids
        .iter()
        .map(|&uid| game.option(|| label(game, uid)))
        .collect();
    let decision = Decision {
        kind: "target",
        player: ctx.controller,
        options,
        prompt: game.prompt(|| ctx.label),
        rule: None,
    };
    Ok(Target::Permanent(uids[game.decide(&decision)?]))
}

/// Who an effect acts on, bound before anything is applied.
fn select_targets(
    game: &mut Game,
    ctx: &Context,
    target: TargetSpec,
    out: &mut Vec<Target>,
) -> Result<(), Halt> {
    let me = ctx.controller;
    // a group's targets, put straight from the permanents (no list of uids between)
    let group = |game: &Game, creature: bool, of: Option<usize>, out: &mut Vec<Target>| {
        out.extend(
            game.permanents_of_kind(creature, of)
                .map(|p| Target::Permanent(p.uid)),
        );
    };
    match target {
        TargetSpec::Nobody => {}
        TargetSpec::SelfPerm => out.extend(
            ctx.source
                .filter(|&uid| game.permanent(uid).is_some())
                .map(Target::Permanent),
        ),
        // D-trigger-targets: a permanent that has left play is no target any more
        TargetSpec::TriggerPlayer => {
            out.extend(ctx.trigger.and_then(|t| t.player).map(Target::Player));
        }
        TargetSpec::TriggerPermanent | TargetSpec::TriggerSource => out.extend(
            ctx.trigger
                .and_then(|t| {
                    if target == TargetSpec::TriggerPermanent {
                        t.permanent
                    } else {
                        t.source
                    }
                })
                .filter(|&uid| game.permanent(uid).is_some())
                .map(Target::Permanent),
        ),
        TargetSpec::Controller => out.push(Target::Player(me)),
        TargetSpec::Opponent => out.push(Target::Player(1 - me)),
        TargetSpec::EachPlayer => out.extend([Target::Player(0), Target::Player(1)]),
        TargetSpec::ChosenPlayer => {
            let decision = Decision {
                kind: "target_player",
                player: me,
                options: game.player_labels.to_vec(),
                prompt: game.prompt(|| ctx.label),
                rule: None,
            };
            out.push(Target::Player(game.decide(&decision)?));
        }
        TargetSpec::OwnCreatures => group(game, true, Some(me), out),
        TargetSpec::OpponentCreatures => group(game, true, Some(1 - me), out),
        TargetSpec::AllCreatures => group(game, true, None, out),
        TargetSpec::OwnBuildings => group(game, false, Some(me), out),
        TargetSpec::AllBuildings => group(game, false, None, out),
        TargetSpec::ChosenCreature
        | TargetSpec::ChosenOwnCreature
        | TargetSpec::ChosenOpponentCreature
        | TargetSpec::ChosenBuilding => {
            let of = match target {
                TargetSpec::ChosenOwnCreature => Some(me),
                TargetSpec::ChosenOpponentCreature => Some(1 - me),
                _ => None,
            };
            let creature = target != TargetSpec::ChosenBuilding;
            // the candidates listed in the game's kept list (`Scratch::uids`), not a new one
            let mut candidates = std::mem::take(&mut game.scratch.uids);
            candidates.clear();
            candidates.extend(game.permanents_of_kind(creature, of).map(|p| p.uid));
            let chosen = if candidates.is_empty() {
                Ok(None)
            } else {
                chosen_permanent(game, ctx, &candidates).map(Some)
            };
            game.scratch.uids = candidates;
            out.extend(chosen?);
        }
    }
    Ok(())
}

/// `resolve_spell`: every effect bound (its choices made), then every one applied.
pub fn resolve_spell(game: &mut Game, player: usize, card: CardId, effects: &[Effect]) -> Flow {
    let ctx = Context {
        controller: player,
        source: None,
        label: Text::Name {
            prefix: Prefix::None,
            card,
        },
        trigger: None,
    };
    let bound = bind(game, &ctx, effects)?;
    apply_all(game, &ctx, effects, bound)
}

/// What an item's `bind` gives: each effect's targets (or a stop at a decision from outside).
pub type Bound = Result<Targets, Halt>;

/// An ability's effects' targets kept inline in [`Targets`]; more are rare.
const INLINE_ENDS: usize = 4;

/// Every effect's targets in one list, effect after effect, with where each effect's end: an
/// item's bind makes one list (none when it has no target), not one per effect.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Targets {
    list: Vec<Target>,
    ends: [u32; INLINE_ENDS],
    more: Vec<u32>,
    count: usize,
}

impl Targets {
    /// The targets put since the last effect's are the next effect's.
    fn close(&mut self) {
        let end = self.list.len() as u32;
        if self.count < INLINE_ENDS {
            self.ends[self.count] = end;
        } else {
            self.more.push(end);
        }
        self.count += 1;
    }

    fn end(&self, effect: usize) -> usize {
        if effect < INLINE_ENDS {
            self.ends[effect] as usize
        } else {
            self.more[effect - INLINE_ENDS] as usize
        }
    }

    /// The effects bound.
    pub fn len(&self) -> usize {
        self.count
    }

    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// The targets of the effect at `effect` (< `len()`).
    pub fn of(&self, effect: usize) -> &[Target] {
        let start = if effect == 0 { 0 } else { self.end(effect - 1) };
        &self.list[start..self.end(effect)]
    }
}

/// An item's `bind`: every effect's targets, its choices made.
pub fn bind(game: &mut Game, ctx: &Context, effects: &[Effect]) -> Bound {
    // room for a few targets an effect: the list made once, not grown (none for no effect),
    // or one given back by an earlier item's `apply` (`steps::Scratch::target_list`)
    let mut list = Vec::new();
    if !effects.is_empty() {
        list = game.scratch.target_list();
        list.reserve(4 * effects.len());
    }
    let mut bound = Targets {
        list,
        ..Targets::default()
    };
    for e in effects {
        match &e.filter {
            Some(filter) => filtered_targets(game, ctx, e.target, filter, &mut bound.list),
            None => select_targets(game, ctx, e.target, &mut bound.list),
        }?;
        bound.close();
    }
    Ok(bound)
}

/// An item's `apply`: every effect on its bound targets.
pub fn apply_all(game: &mut Game, ctx: &Context, effects: &[Effect], bound: Targets) -> Flow {
    for (at, effect) in effects.iter().enumerate().take(bound.len()) {
        apply(game, ctx, effect, bound.of(at))?;
    }
    game.scratch.give_back(bound.list);
    Ok(())
}

/// The largest number an effect may carry or a player's Ép, VP or components may reach
/// natively: the Python engine's integers are unbounded, the native core's 64 bits; below
/// 2^52 no sum of an effect's amount and a total can overflow, so the game stops, naming the
/// card, before an effect whose numbers have run away (a count that doubles every turn).
pub const NUMBER_RANGE: i64 = 1 << 52;

fn within_range(game: &Game, n: Option<i64>, ctx: &Context) -> Result<i64, Halt> {
    let totals = game.players.iter().flat_map(|p| [p.hp, p.vp, p.components]);
    match n {
        Some(n)
            if n.abs() <= NUMBER_RANGE && totals.into_iter().all(|v| v.abs() <= NUMBER_RANGE) =>
        {
            Ok(n)
        }
        _ => {
            let card = ctx.source.and_then(|uid| game.permanent(uid));
            let card = card.map_or_else(
                || ctx.label.render(&game.cards).into_owned(),
                |perm| game.cards.name(perm.card).to_string(),
            );
            Err(Halt::Unported(format!(
                "a number beyond 2^52 in an effect of {card}: the native core counts in 64 \
                 bits, the Python engine without bound (play this game on the Python core)"
            )))
        }
    }
}

fn apply(game: &mut Game, ctx: &Context, effect: &Effect, targets: &[Target]) -> Flow {
    let label = &ctx.label;
    // a number, or a count read now (`Count.value`)
    let n = match effect.counted {
        None => Some(effect.amount),
        Some((Counted::Quantity(named), times)) => {
            named.read(game, ctx.controller).checked_mul(times)
        }
        Some((Counted::TriggerAmount, times)) => ctx
            .trigger
            .and_then(|t| t.amount)
            .unwrap_or(0)
            .checked_mul(times),
    };
    let n = within_range(game, n, ctx)?;
    if effect.verb == Verb::EndEffects {
        // `EndEffects.apply`: everyone's, or those on the permanents in play and players
        if effect.target == TargetSpec::Nobody {
            dispel(game, "D-dispel", effect.durations, None);
        } else {
            let mut uids = Vec::new();
            let mut players = Vec::new();
            for &target in targets {
                match target {
                    Target::Permanent(uid) if game.permanent(uid).is_some() => uids.push(uid),
                    Target::Player(p) => players.push(p),
                    Target::Permanent(_) => {}
                }
            }
            dispel(game, "D-dispel", effect.durations, Some((&uids, &players)));
        }
        return Ok(());
    }
    if let Some((stat, duration)) = effect.lasting {
        // `Modify.apply`: a player's VP regeneration, or the permanents still in play
        if n == 0 {
            return Ok(());
        }
        if stat == Stat::VpRegen {
            for &target in targets {
                if let Target::Player(p) = target {
                    let c = ctx.controller;
                    add_effect(game, (stat, duration), n, Vec::new(), Some(p), c, label);
                }
            }
        } else {
            // the effect's own list, made at its size once (a collect grows it past four)
            let mut perms = Vec::with_capacity(targets.len());
            perms.extend(targets.iter().filter_map(|t| match t {
                Target::Permanent(uid) if game.permanent(*uid).is_some() => Some(*uid),
                _ => None,
            }));
            if !perms.is_empty() {
                add_effect(
                    game,
                    (stat, duration),
                    n,
                    perms,
                    None,
                    ctx.controller,
                    label,
                );
            }
        }
        return Ok(());
    }
    if n == 0
        && !matches!(
            effect.verb,
            Verb::Damage | Verb::RemoveDefenceBonus | Verb::Sacrifice | Verb::Destroy
        )
    {
        return Ok(()); // a count of 0: nothing
    }
    for &target in targets {
        match effect.verb {
            Verb::Damage => damage(game, target, n, *label, ctx.source),
            Verb::Heal => heal(game, target, n, label),
            Verb::GiveDefenceBonus => {
                if let Target::Permanent(uid) = target {
                    give_defence_bonus(game, uid, n, label);
                }
            }
            Verb::Modify | Verb::EndEffects | Verb::Prevent => {} // above; a static's
            Verb::AddCounters | Verb::RemoveCounters => {
                if let Target::Permanent(uid) = target {
                    let add = effect.verb == Verb::AddCounters;
                    counters(game, uid, &effect.counter, if add { n } else { -n }, label);
                }
            }
            Verb::GainComponents => {
                if let Target::Player(p) = target {
                    gain_components(game, p, n, *label);
                }
            }
            Verb::Sacrifice => {
                if let Target::Permanent(uid) = target {
                    destroy(game, uid, "sacrificed", None, true);
                }
            }
            Verb::Destroy => {
                if let Target::Permanent(uid) = target {
                    destroy(game, uid, "destroyed", None, true);
                }
            }
            Verb::LoseVp => {
                if let Target::Player(p) = target {
                    lose_vp(game, p, n, label);
                }
            }
            Verb::PayComponents => {
                if let Target::Player(p) = target {
                    pay_components(game, p, n, label);
                }
            }
            Verb::RemoveDefenceBonus => {
                if let Target::Permanent(uid) = target {
                    remove_defence_bonus(game, uid, None, Some(*label));
                }
            }
            Verb::Draw => {
                if let Target::Player(p) = target {
                    game.draw(p, n.max(0) as usize, label)?;
                }
            }
            Verb::GainVp => {
                if let Target::Player(p) = target {
                    game.players[p].vp += n;
                    let after = game.players[p].vp;
                    emit!(
                        game,
                        Kind::VpGained {
                            player: p,
                            amount: n,
                            source: *label,
                            after,
                        }
                    );
                }
            }
        }
    }
    Ok(())
}

/// `lose_vp`: at most what he has, except inside a moment, where it nets out
/// (`Game::end_moment`).
fn lose_vp(game: &mut Game, player: usize, amount: i64, label: &Text) {
    let in_moment = game.in_moment;
    let p = &mut game.players[player];
    let lost = if in_moment { amount } else { amount.min(p.vp) };
    p.vp -= lost;
    let after = p.vp;
    emit!(
        game,
        Kind::VpLost {
            player,
            amount: lost,
            source: *label,
            after,
        }
    );
}

/// `pay_components`: at most what he has, except inside a moment (it nets out).
fn pay_components(game: &mut Game, player: usize, count: i64, label: &Text) {
    let in_moment = game.in_moment;
    let p = &mut game.players[player];
    let paid = if in_moment {
        count
    } else {
        count.min(p.components)
    };
    p.components -= paid;
    emit!(
        game,
        Kind::ComponentsPaid {
            player,
            amount: paid,
            source: *label,
        }
    );
}

/// `add_counters` (`by` > 0) and `remove_counters` (`by` < 0): at most what it has, except
/// inside a moment, where they net out (`Game::end_moment`).
fn counters(game: &mut Game, uid: u32, counter: &Arc<str>, by: i64, label: &Text) {
    let in_moment = game.in_moment;
    let Some(perm) = game.permanent_mut(uid) else {
        return;
    };
    let at = match perm.counters.iter().position(|(c, _)| c == counter) {
        Some(at) => at,
        None => {
            perm.counters.push((counter.clone(), 0));
            perm.counters.len() - 1
        }
    };
    let have = perm.counters[at].1;
    let amount = if by >= 0 || in_moment {
        by.abs()
    } else {
        (-by).min(have)
    };
    let after = if by >= 0 {
        have + amount
    } else {
        have - amount
    };
    if after != 0 {
        perm.counters[at].1 = after;
    } else {
        perm.counters.remove(at);
    }
    let card = perm.card;
    if after < 0 {
        game.moment_overshot = true; // the moment's end drops it
    }
    // one event of two kinds with the same fields (`emit!` names its kind literally); the
    // counter's name put beside the events only where the event is built
    macro_rules! counters_event {
        ($kind:ident) => {
            emit!(
                game,
                Kind::$kind {
                    uid,
                    card,
                    counter: game.log.events.extras_mut().put_str(counter),
                    amount,
                    after,
                    source: *label,
                }
            )
        };
    }
    if by >= 0 {
        counters_event!(CountersAdded);
    } else {
        counters_event!(CountersRemoved);
    }
}

/// `heal`: a player's Ép rises; a permanent loses damage, at most what it took.
fn heal(game: &mut Game, target: Target, amount: i64, label: &Text) {
    match target {
        Target::Player(p) => {
            game.players[p].hp += amount;
            emit!(
                game,
                Kind::PlayerHealed {
                    player: p,
                    amount,
                    source: *label,
                }
            );
        }
        Target::Permanent(uid) => {
            let in_moment = game.in_moment;
            let Some(perm) = game.permanent_mut(uid) else {
                return;
            };
            // 29.4.2, 41.4: inside a moment heals and damage net out in any order; the
            // moment's end clamps at max Ép (`Game::end_moment`)
            let healed = if in_moment {
                amount
            } else {
                amount.min(perm.damage_taken)
            };
            if healed != 0 {
                perm.damage_taken -= healed;
                let card = perm.card;
                if perm.damage_taken < 0 {
                    game.moment_overshot = true; // the moment's end clamps it
                }
                if healed < 0 {
                    game.hp_changed(uid); // a negative heal takes Ép
                }
                emit!(
                    game,
                    Kind::Healed {
                        uid,
                        card,
                        amount: healed,
                        source: *label,
                    }
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plain(verb: &str, target: &str, amount: Option<i64>, others: &[&str]) -> PlainEffect {
        PlainEffect {
            place: "card.effects[0]".into(),
            others: others.iter().map(|o| (*o).to_string()).collect(),
            ..PlainEffect::of(verb, target, amount)
        }
    }

    #[test]
    fn implemented_verbs_and_targets_parse() {
        let e = parse(&plain("damage", "chosen_opponent_creature", Some(3), &[])).unwrap();
        assert_eq!(
            (e.verb, e.target, e.amount),
            (Verb::Damage, TargetSpec::ChosenOpponentCreature, 3)
        );
    }

    #[test]
    fn other_words_are_refused_by_name() {
        let refused = |p: PlainEffect| parse(&p).unwrap_err();
        assert!(refused(plain("modify", "self", Some(1), &[])).contains("do = \"modify\""));
        assert!(refused(plain("custom", "self", None, &[])).contains("do = \"custom\""));
        assert!(refused(plain("lose_vp", "own_buildings", Some(1), &[])).contains("own_buildings"));
        assert!(refused(plain("draw", "all_creatures", Some(1), &[])).contains("all_creatures"));
        assert!(refused(plain("damage", "opponent", Some(1), &["where"])).contains("where"));
        assert!(refused(plain("damage", "opponent", None, &[])).contains("an amount"));
    }
}
