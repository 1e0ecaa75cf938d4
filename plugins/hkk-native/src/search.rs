//! The native search agents: `greedy` (`hkk._greedy`) and `mcts` (`hkk._mcts`), the same
//! algorithms over the native forward model (`forward::Driven`: answer, clone, and
//! `determinize` for every world they look at). They draw from their own MT19937, seeded from
//! the Python agent's RNG, so a game is deterministic for its seeds; they need not draw as the
//! Python agents do (docs/NATIVE.md). A seat played by one is answered from outside in the
//! game (`Seat::Outside`), and [`play`] answers its decisions natively.

use crate::agents::Seat;
use crate::decisions::Decision;
use crate::evaluation::{evaluate, position_value, Weights};
use crate::events::Level;
use crate::forward::Driven;
use crate::game::Game;
use crate::rng::Random;

/// `hkk._greedy.FOLLOW_UPS`: his own follow-up decisions greedy looks through after an option.
pub const FOLLOW_UPS: usize = 3;
/// `hkk._greedy.AHEAD_ANSWERS`: answers the look ahead gives at most.
pub const AHEAD_ANSWERS: usize = 90;
/// `hkk._mcts`' scoring: a win less this a turn, and this a decision; a cut-off position scaled.
pub const WIN_DISCOUNT: f64 = 0.02;
pub const DECISION_DISCOUNT: f64 = 0.0005;
pub const POSITION_SCALE: f64 = 0.9;
/// The rollouts' chance of considering a pass (`RolloutPolicy`, as `random`).
pub const ROLLOUT_PASS_BIAS: f64 = 0.25;
/// The native mcts' root prior: each option of the decision searched starts with a tenth of
/// the budget (at least one) in virtual visits scored at greedy's one-ply score of it (in one
/// determinized world, greedy's `ahead` [`PRIOR_AHEAD`]), so the first real visits go to
/// greedy's best options and a rollout's noise moves the choice only when it keeps
/// disagreeing. A share, not a fixed count: 20 visits at budget 200 (measured there, docs/
/// NATIVE.md), and a small budget is not greedy in disguise (20 visits at budget 20 lost the
/// skill gap a card's ablation shows, tests/test_skill_gap.py).
pub const ROOT_PRIOR_SHARE: usize = 10;
pub const PRIOR_AHEAD: f64 = 0.5;

/// `greedy`: one-ply lookahead (see `hkk._greedy`).
#[derive(Debug, Clone)]
pub struct Greedy {
    pub rng: Random,
    pub weights: Weights,
    pub samples: usize,
    pub ahead: f64,
    /// Decisions it looked ahead for (the trivial ones are not counted).
    pub decisions: u64,
}

/// `mcts`: information-set MCTS (see `hkk._mcts`), with a root prior from greedy
/// ([`ROOT_PRIOR_SHARE`]) and rollouts stopping after its own turn ([`rollout_limit`]).
#[derive(Debug, Clone)]
pub struct Mcts {
    pub rng: Random,
    pub weights: Weights,
    pub budget: usize,
    pub rollout_turns: u32,
    pub exploration: f64,
    /// The rollouts' own RNG (`RolloutPolicy`'s, drawn from the agent's), and the RNGs of the
    /// players seated in a rollout from its first step boundary on (seeded from it).
    pub rollout: Random,
    pub players: Option<[Box<Random>; 2]>,
    /// How the rollouts' players answer (`rollout`).
    pub rollout_policy: Rollout,
    /// Decisions it searched (the trivial ones are not counted).
    pub decisions: u64,
}

/// A native search agent.
#[derive(Debug, Clone)]
pub enum Searcher {
    Greedy(Box<Greedy>),
    Mcts(Box<Mcts>),
}

/// Why a search agent's spec was refused (the message names the agent and the option).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SpecError(pub String);

fn checked(agent: &str, name: &str, value: f64, low: f64, whole: bool) -> Result<f64, SpecError> {
    if !value.is_finite() || value < low || (whole && value.fract() != 0.0) {
        let what = if whole { "a whole number" } else { "a number" };
        return Err(SpecError(format!(
            "{agent}: option {name}={value} must be {what} of at least {low}"
        )));
    }
    Ok(value)
}

impl Searcher {
    /// The agent `kind` ("greedy" or "mcts") with its RNG and options by name (the Python
    /// agent's: greedy `samples`, `ahead`; mcts `budget`, `rollout_turns`, `exploration`; both
    /// any evaluation weight); an unknown option is refused naming it and the known ones.
    pub fn new(kind: &str, rng: Random, options: &[(String, f64)]) -> Result<Self, SpecError> {
        let own: &[&str] = match kind {
            "greedy" => &["samples", "ahead"],
            "mcts" => &["budget", "rollout_turns", "exploration", "rollout"],
            _ => return Err(SpecError(format!("no native search agent {kind:?}"))),
        };
        let mut weights = Weights::default();
        let get = |name: &str, default: f64| {
            options
                .iter()
                .rev()
                .find(|(n, _)| n == name)
                .map_or(default, |(_, v)| *v)
        };
        for (name, value) in options {
            if own.contains(&name.as_str()) {
                continue;
            }
            match weights.get_mut(name) {
                Some(weight) => *weight = checked(kind, name, *value, f64::MIN, false)?,
                None => {
                    return Err(SpecError(format!(
                        "{kind}: no option {name:?}; its options are {}, and the evaluation \
                         weights",
                        own.join(", ")
                    )))
                }
            }
        }
        let mut rng = rng;
        Ok(match kind {
            "greedy" => Searcher::Greedy(Box::new(Greedy {
                samples: checked(kind, "samples", get("samples", 1.0), 1.0, true)? as usize,
                ahead: {
                    let ahead = checked(kind, "ahead", get("ahead", 0.5), 0.0, false)?;
                    if ahead > 1.0 {
                        return Err(SpecError(format!("greedy: option ahead={ahead} is 0-1")));
                    }
                    ahead
                },
                rng,
                weights,
                decisions: 0,
            })),
            _ => {
                let rollout_policy = Rollout::from_option(get("rollout", 1.0))?;
                let mut rollout = Random::new(rng.getrandbits(32));
                let players = Some([0, 1].map(|_| Box::new(Random::new(rollout.getrandbits(32)))));
                Searcher::Mcts(Box::new(Mcts {
                    budget: checked(kind, "budget", get("budget", 200.0), 1.0, true)? as usize,
                    rollout_turns: checked(
                        kind,
                        "rollout_turns",
                        get("rollout_turns", 4.0),
                        0.0,
                        true,
                    )? as u32,
                    exploration: checked(kind, "exploration", get("exploration", 0.7), 0.0, false)?,
                    rng,
                    weights,
                    rollout,
                    players,
                    rollout_policy,
                    decisions: 0,
                }))
            }
        })
    }

    /// The chosen option's index for the decision `driven` waits for.
    pub fn choose(&mut self, driven: &Driven, decision: &Decision) -> usize {
        if let Some(trivial) = without_search(decision) {
            return trivial;
        }
        match self {
            Searcher::Greedy(g) => {
                g.decisions += 1;
                g.choose(driven, decision)
            }
            Searcher::Mcts(m) => {
                m.decisions += 1;
                m.choose(driven, decision)
            }
        }
    }

    /// Decisions it searched so far (the trivial ones are not counted).
    pub fn decisions(&self) -> u64 {
        match self {
            Searcher::Greedy(g) => g.decisions,
            Searcher::Mcts(m) => m.decisions,
        }
    }
}

/// `without_search`: the only option, or "start" at the starting decision (K 28).
fn without_search(decision: &Decision) -> Option<usize> {
    let options = &decision.options;
    if options.len() == 1 {
        return Some(0);
    }
    if decision.kind == "start" {
        return Some(options.iter().position(|o| o == "start").unwrap_or(0));
    }
    None
}

/// Answer `driven`'s decisions whose seat has a search agent in `searchers`, until the end or
/// a decision of a seat answered from outside by the caller.
pub fn play(driven: &mut Driven, searchers: &mut [Option<Searcher>; 2]) {
    while let Some(decision) = driven.decision().cloned() {
        let Some(searcher) = searchers[decision.player].as_mut() else {
            return;
        };
        // what `hkk simulate` records stays out of the worlds searched (each would copy it)
        let recorded = driven.game.log.outcome.take();
        let kept = driven.checkpoint.as_mut().map(|c| c.log.outcome.take());
        let chosen = searcher.choose(driven, &decision);
        driven.game.log.outcome = recorded;
        if let (Some(checkpoint), Some(kept)) = (driven.checkpoint.as_mut(), kept) {
            checkpoint.log.outcome = kept;
        }
        if driven.answer(chosen).is_err() {
            return; // never: a searcher answers one of the options
        }
    }
}

/// A world to search: `driven` determinized for `player`, its log at the outcome level (a
/// search reads the state, not the log).
fn world(driven: &Driven, player: usize, rng: &mut Random) -> Driven {
    driven.determinize(player, rng, Some(Level::Outcome))
}

fn answer(world: &mut Driven, index: usize) {
    let _ = world.answer(index); // the index is one of the decision's options
}

impl Greedy {
    fn choose(&mut self, driven: &Driven, decision: &Decision) -> usize {
        let me = decision.player;
        let mut totals = vec![0.0; decision.options.len()];
        for _ in 0..self.samples {
            let world = world(driven, me, &mut self.rng);
            for (total, value) in
                totals
                    .iter_mut()
                    .zip(scores(&world, decision, &self.weights, self.ahead))
            {
                *total += value;
            }
        }
        best(&totals)
    }
}

/// Greedy's score of each option of `decision` in `world` (a determinized world): answered,
/// `me`'s follow-ups settled, blended (`ahead`) with the position at his next turn if both
/// then only fight.
fn scores(world: &Driven, decision: &Decision, weights: &Weights, ahead: f64) -> Vec<f64> {
    let me = decision.player;
    (0..decision.options.len())
        .map(|index| {
            let mut game = world.clone();
            answer(&mut game, index);
            let (mut game, mut now) = settled(game, me, FOLLOW_UPS, decision.kind, weights);
            if ahead > 0.0 && !game.game.over {
                now = (1.0 - ahead) * now + ahead * after_fighting_turns(&mut game, me, weights);
            }
            now
        })
        .collect()
}

/// `settled`: the game once `me`'s own follow-up decisions (not an action, not another
/// decision of the kind being decided) are answered, each tried, the best taken, `depth`
/// deep; and its value for him.
fn settled(mut game: Driven, me: usize, depth: usize, kind: &str, w: &Weights) -> (Driven, f64) {
    while !game.game.over {
        let Some(decision) = game.decision() else {
            break;
        };
        if decision.player != me || decision.kind == "action" || decision.kind == kind || depth == 0
        {
            break;
        }
        let n = decision.options.len();
        if n == 1 {
            answer(&mut game, 0);
            continue;
        }
        let mut found: Option<(Driven, f64)> = None;
        for index in 0..n {
            let mut copy = game.clone();
            answer(&mut copy, index);
            let tried = settled(copy, me, depth - 1, kind, w);
            if found.as_ref().is_none_or(|(_, v)| tried.1 > *v) {
                found = Some(tried); // ties: the earlier option
            }
        }
        if let Some(found) = found {
            return found;
        }
    }
    let value = evaluate(&game.game, me, w);
    (game, value)
}

/// The index of the best total; ties go to the earlier option.
fn best(totals: &[f64]) -> usize {
    let mut best = 0;
    for (i, &t) in totals.iter().enumerate() {
        if t > totals[best] {
            best = i;
        }
    }
    best
}

/// `_after_fighting_turns`: the value for `me` at his next turn's first action if both
/// players play nothing more but fight as [`fight`] says.
fn after_fighting_turns(world: &mut Driven, me: usize, weights: &Weights) -> f64 {
    let start = world.game.turn;
    for _ in 0..AHEAD_ANSWERS {
        let Some(decision) = world.decision().cloned() else {
            break;
        };
        let game = &world.game;
        if decision.kind == "action"
            && decision.player == me
            && game.turn > start
            && game.active == me
        {
            break;
        }
        let chosen = fight(game, &decision);
        answer(world, chosen);
    }
    evaluate(&world.game, me, weights)
}

/// The uid an option's label names (`"... <card>#<uid>"`).
fn uid_of(label: &str) -> Option<u32> {
    let (_, rest) = label.split_once('#')?;
    let digits: &str = &rest[..rest
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(rest.len())];
    digits.parse().ok()
}

/// `_ready`: `player`'s creatures that may attack or block now (the rules' test).
fn ready(game: &Game, player: usize) -> impl Iterator<Item = &crate::state::Permanent> {
    game.permanents
        .iter()
        .filter(move |p| crate::rules::is_ready(p, player))
}

/// `_fight`: the look ahead's answer - an action uses the attack or passes; the attacker
/// attacks with a creature no ready blocker survives; the defender blocks with the first
/// creature that survives every attacker, or with the first at all when the attack would
/// kill him; any other decision takes its last option.
fn fight(game: &Game, decision: &Decision) -> usize {
    let labels = &decision.options;
    match decision.kind {
        "action" => ["use attack", "pass", "pass turn"]
            .iter()
            .find_map(|w| labels.iter().position(|l| l == w))
            .unwrap_or(0),
        "attack" => {
            let damage =
                uid_of(&labels[0].render(&game.cards)).map_or(0, |uid| game.damage_value(uid));
            let survives = ready(game, 1 - decision.player).any(|c| game.hp_of(c) > damage);
            usize::from(survives)
        }
        "block" => {
            let attackers: Vec<i64> = ready(game, 1 - decision.player)
                .map(|c| game.damage_value(c.uid))
                .collect();
            let strongest = attackers.iter().copied().max().unwrap_or(0);
            let blockers: Vec<(usize, u32)> = labels
                .iter()
                .enumerate()
                .filter_map(|(i, l)| Some((i, uid_of(&l.render(&game.cards))?)))
                .collect();
            if let Some(&(i, _)) = blockers.iter().find(|(_, uid)| game.hp(*uid) > strongest) {
                return i;
            }
            if !blockers.is_empty()
                && attackers.iter().sum::<i64>() >= game.players[decision.player].hp
            {
                return blockers[0].0;
            }
            labels.len() - 1
        }
        _ => labels.len() - 1,
    }
}

/// How a rollout's players answer (the option `rollout`: 0 `random`, 1 `fight`, the default).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rollout {
    /// Uniformly, a pass considered with chance [`ROLLOUT_PASS_BIAS`] (`random`; the Python
    /// agent's `RolloutPolicy`).
    Random,
    /// As `Random`, but fighting by [`fighting_choice`]'s rules of thumb.
    Fight,
}

impl Rollout {
    fn from_option(value: f64) -> Result<Self, SpecError> {
        match value {
            0.0 => Ok(Rollout::Random),
            1.0 => Ok(Rollout::Fight),
            _ => Err(SpecError(format!(
                "mcts: option rollout={value} must be 0 (random) or 1 (fight)"
            ))),
        }
    }

    fn seat(self, rng: Box<Random>) -> Seat {
        let pass_bias = ROLLOUT_PASS_BIAS;
        match self {
            Rollout::Random => Seat::Random { pass_bias, rng },
            Rollout::Fight => Seat::Fighting { pass_bias, rng },
        }
    }
}

/// A rollout's fighting player's answer (None: answer as random): at an action decision he
/// attacks when he may (`use attack`); at a combat decision (D-combat), read from the game's
/// [`Game::combat`] (a rollout makes no labels), the attacker attacks unless a ready blocker
/// would kill it and survive; the defender blocks with a creature that kills the
/// attacker and survives, else one that survives, else (the attack alone would kill him) one
/// that kills it or the first, else one that kills it for no more than it is worth (damage plus
/// Ép), else not at all.
pub fn fighting_choice(game: &Game, decision: &Decision) -> Option<usize> {
    if decision.kind == "action" {
        return decision.options.iter().position(|o| o == "use attack");
    }
    let (attacker, blockers) = game.combat.as_ref()?;
    let (damage, hp) = (game.damage_value(*attacker), game.hp(*attacker));
    let kills = |uid: u32| game.damage_value(uid) >= hp;
    let survives = |uid: u32| game.hp(uid) > damage;
    match decision.kind {
        "attack" => {
            let stopped = ready(game, 1 - decision.player).any(|b| survives(b.uid) && kills(b.uid));
            Some(usize::from(stopped))
        }
        "block" => {
            let first = |good: &dyn Fn(u32) -> bool| blockers.iter().position(|&b| good(b));
            let lethal = damage >= game.players[decision.player].hp;
            first(&|b| survives(b) && kills(b))
                .or_else(|| first(&survives))
                .or_else(|| (lethal && !blockers.is_empty()).then(|| first(&kills).unwrap_or(0)))
                .or_else(|| {
                    first(&|b| kills(b) && game.damage_value(b) + game.hp(b) <= damage + hp)
                })
                .or(Some(blockers.len()))
        }
        _ => None,
    }
}

/// One option along a path: who chose it, visits, total score from his side, how often it was
/// available, and the options tried after it (by label, indices into the tree).
#[derive(Debug)]
struct Node {
    player: usize,
    visits: u32,
    total: f64,
    available: u32,
    children: Vec<(String, usize)>,
}

impl Node {
    fn new(player: usize) -> Self {
        Node {
            player,
            visits: 0,
            total: 0.0,
            available: 0,
            children: Vec::new(),
        }
    }
}

/// The decision's labels as written (the tree's keys).
fn labels(cards: &crate::cards::CardPool, decision: &Decision) -> Vec<String> {
    decision
        .options
        .iter()
        .map(|o| o.render(cards).into_owned())
        .collect()
}

fn child(tree: &[Node], node: usize, label: &str) -> Option<usize> {
    tree[node]
        .children
        .iter()
        .find(|(l, _)| l == label)
        .map(|(_, i)| *i)
}

impl Mcts {
    fn choose(&mut self, driven: &Driven, decision: &Decision) -> usize {
        let me = decision.player;
        let mut tree = vec![Node::new(me)];
        self.seed_root(driven, decision, &mut tree);
        for _ in 0..self.budget {
            self.simulate(driven, &mut tree);
        }
        // most visited, then best scored, then the earlier option
        let mut best: (usize, (i64, f64)) = (0, (-1, 0.0));
        for (i, label) in labels(&driven.game.cards, decision).iter().enumerate() {
            let rank = child(&tree, 0, label)
                .map(|c| &tree[c])
                .filter(|n| n.visits > 0)
                .map_or((-1, 0.0), |n| {
                    (i64::from(n.visits), n.total / f64::from(n.visits))
                });
            if rank > best.1 {
                best = (i, rank);
            }
        }
        best.0
    }

    /// The root prior: a child for each option of `decision`, [`Mcts::prior_visits`] virtual
    /// visits at greedy's score of it in one determinized world.
    fn seed_root(&mut self, driven: &Driven, decision: &Decision, tree: &mut Vec<Node>) {
        let me = decision.player;
        let world = world(driven, me, &mut self.rng);
        let values = scores(&world, decision, &self.weights, PRIOR_AHEAD);
        let visits = self.prior_visits();
        for (label, value) in labels(&driven.game.cards, decision).into_iter().zip(values) {
            let mut n = Node::new(me);
            n.visits = visits;
            n.available = visits;
            n.total = f64::from(visits) * value;
            tree.push(n);
            let at = tree.len() - 1;
            tree[0].children.push((label, at));
        }
    }

    /// The root prior's virtual visits: [`ROOT_PRIOR_SHARE`]'s share of the budget, at least 1.
    fn prior_visits(&self) -> u32 {
        u32::try_from((self.budget / ROOT_PRIOR_SHARE).max(1)).unwrap_or(u32::MAX)
    }

    fn simulate(&mut self, driven: &Driven, tree: &mut Vec<Node>) {
        let me = tree[0].player;
        let mut world = world(driven, me, &mut self.rng);
        let cards = world.game.cards.clone(); // the labels are written from them
        let start = world.game.turn;
        let mut node = 0;
        let mut path: Vec<usize> = Vec::new();
        while !world.game.over {
            let Some(decision) = world.decision() else {
                break;
            };
            let options = labels(&cards, decision);
            let player = decision.player;
            if options.len() == 1 {
                answer(&mut world, 0);
                continue;
            }
            let mut untried = Vec::new();
            for (i, label) in options.iter().enumerate() {
                match child(tree, node, label) {
                    Some(c) => tree[c].available += 1,
                    None => untried.push(i),
                }
            }
            if !untried.is_empty() {
                let index = untried[self.rng.below(untried.len())];
                let mut new = Node::new(player);
                new.available = 1;
                tree.push(new);
                let at = tree.len() - 1;
                tree[node].children.push((options[index].clone(), at));
                answer(&mut world, index);
                path.push(at);
                break;
            }
            let index = self.select(tree, node, &options);
            node = child(tree, node, &options[index]).unwrap_or(node);
            answer(&mut world, index);
            path.push(node);
        }
        let score = self.rollout(&mut world, me, start, path.len());
        for &step in &path {
            let n = &mut tree[step];
            n.visits += 1;
            n.total += if n.player == me { score } else { -score };
        }
    }

    /// UCB1 with availability counts (ISMCTS); ties go to the earlier option.
    fn select(&self, tree: &[Node], node: usize, labels: &[String]) -> usize {
        let (mut best, mut best_value) = (0, f64::NEG_INFINITY);
        for (i, label) in labels.iter().enumerate() {
            let value = child(tree, node, label).map_or(f64::INFINITY, |c| {
                let n = &tree[c];
                if n.visits == 0 {
                    return f64::INFINITY;
                }
                let visits = f64::from(n.visits);
                n.total / visits + self.exploration * (f64::from(n.available).ln() / visits).sqrt()
            });
            if value > best_value {
                best = i;
                best_value = value;
            }
        }
        best
    }

    /// `_rollout`: random players (pass considered with chance 0.25) to the end of the
    /// searcher's own turn [`rollout_limit`] names; a win sooner beats a win later, any win beats a position, which
    /// scores its value times [`POSITION_SCALE`]. The rest of the step the world stands in is
    /// answered from outside; from the next step boundary on the players are seated natively
    /// (no step run again an answer).
    fn rollout(&mut self, world: &mut Driven, me: usize, start: u32, decisions: usize) -> f64 {
        if self.rollout_turns > 0 && !world.game.over && world.game.waiting.is_some() {
            // the step runs again once from its checkpoint with the answers given, and from
            // the decision it stands at the two players are seated natively (`Game::then`):
            // no step run again an answer; their RNGs are the agent's own two, lent to the
            // world (seeding two a rollout cost a tenth of the search)
            let lent = self.players.take().unwrap_or_else(|| {
                [0, 1].map(|_| Box::new(Random::new(self.rollout.getrandbits(32))))
            });
            world.restore();
            let Driven { game, answers, .. } = world;
            game.answers.clone_from(answers);
            (game.replayed, game.asked, game.waiting) = (0, 0, None);
            game.outside = false; // no labels made: nobody reads them
            let policy = self.rollout_policy;
            game.then = Some(Box::new(lent.map(|rng| policy.seat(rng))));
            // before the first turn (the set-up) who moves first is not known yet
            while game.turn == 0 && crate::runner::advance(game) {}
            let limit = rollout_limit(game.turn, game.active == me, self.rollout_turns);
            while game.turn <= limit && crate::runner::advance(game) {}
            let [a, b] = match game.then.take() {
                Some(seats) => *seats,
                None => std::mem::replace(&mut game.seats, [Seat::Outside, Seat::Outside]),
            };
            match (a, b) {
                (Seat::Random { rng: a, .. }, Seat::Random { rng: b, .. })
                | (Seat::Fighting { rng: a, .. }, Seat::Fighting { rng: b, .. }) => {
                    self.players = Some([a, b]);
                }
                _ => {}
            }
        }
        let game = &world.game;
        if game.over {
            if game.winner.is_none() {
                return 0.0;
            }
            let won = 1.0
                - WIN_DISCOUNT * f64::from(game.turn.saturating_sub(start))
                - DECISION_DISCOUNT * decisions.min(100) as f64;
            return if game.winner == Some(me) { won } else { -won };
        }
        POSITION_SCALE * position_value(game, me, &self.weights)
    }
}

/// The last turn a rollout plays out, from turn `turn` (`mine`: the searcher's), for a
/// positive `rollout_turns`: always one of the searcher's own turns, his first to end for
/// `rollout_turns` 1 or 2, his second for 3 or 4, and so on. The evaluation does not see who
/// moves next, so a rollout stopping after the opponent's random turn scored him better off
/// (the Python agent's cut after `rollout_turns` turns, at 200 visits against greedy: 4 % with
/// 1, 13 % with 3; docs/NATIVE.md); turns alternate, so two turns on is his own again.
fn rollout_limit(turn: u32, mine: bool, rollout_turns: u32) -> u32 {
    turn + u32::from(!mine) + 2 * (rollout_turns.div_ceil(2) - 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agents::{OwnRng, PASS_BIAS};
    use crate::events::Level;
    use crate::rng::key_of;

    fn game(seed: u64, seats: [Seat; 2]) -> Game {
        let pool = crate::runner::tests::creatures(|i| i % 3);
        let deck = |from: usize| crate::runner::tests::deck(from, 20);
        Game::new(
            pool,
            seed as i64,
            &key_of(seed),
            [deck(0), deck(20)],
            seats,
            Level::Full,
        )
    }

    fn searcher(kind: &str, seed: u64, options: &[(&str, f64)]) -> Searcher {
        let options: Vec<(String, f64)> =
            options.iter().map(|(n, v)| (n.to_string(), *v)).collect();
        Searcher::new(kind, Random::new(seed), &options).unwrap()
    }

    /// A game of `kind` (as player 0) against a seated random player, to its end.
    fn searched_game(kind: &str, seed: u64, options: &[(&str, f64)]) -> Driven {
        let random = Seat::random(PASS_BIAS, &OwnRng::Seed(seed + 1)).unwrap();
        let mut driven = Driven::new(game(seed, [Seat::Outside, random]));
        let mut searchers = [Some(searcher(kind, seed, options)), None];
        play(&mut driven, &mut searchers);
        driven
    }

    #[test]
    fn a_searched_game_is_the_same_for_the_same_seeds() {
        for (kind, options) in [("greedy", &[][..]), ("mcts", &[("budget", 8.0)][..])] {
            let a = searched_game(kind, 4, options);
            let b = searched_game(kind, 4, options);
            assert!(a.game.over && a.game.unported.is_none(), "{kind}");
            assert_eq!(a.game.log.events, b.game.log.events, "{kind}");
        }
    }

    #[test]
    fn the_evaluation_of_a_position_is_the_opposite_for_the_other_player() {
        let mut driven = Driven::new(game(2, [Seat::Outside, Seat::Outside]));
        let mut rng = Random::new(3);
        for _ in 0..30 {
            let n = driven.decision().unwrap().options.len();
            driven.answer(rng.below(n)).unwrap();
        }
        let w = Weights::default();
        let value = position_value(&driven.game, 0, &w);
        assert!(value != 0.0 && value.abs() < 1.0);
        assert!((value + position_value(&driven.game, 1, &w)).abs() < 1e-12);
    }

    #[test]
    fn an_unknown_option_is_refused_naming_it_and_a_bad_value_naming_the_option() {
        let refused = |kind: &str, name: &str, value: f64| {
            Searcher::new(kind, Random::new(1), &[(name.to_string(), value)]).unwrap_err()
        };
        assert!(refused("mcts", "budgte", 3.0).0.contains("\"budgte\""));
        assert!(refused("greedy", "budget", 3.0).0.contains("\"budget\""));
        assert!(refused("mcts", "budget", 0.5).0.contains("budget=0.5"));
        assert!(refused("greedy", "ahead", 2.0).0.contains("ahead=2"));
        assert!(Searcher::new("minimax", Random::new(1), &[]).is_err());
        assert!(Searcher::new("mcts", Random::new(1), &[("hp".into(), 2.0)]).is_ok());
    }

    /// The decisions of a game between two random players answered from outside, each with
    /// the game at it (a world to search from).
    fn random_decisions(seed: u64, count: usize) -> Vec<(Driven, Decision)> {
        let mut driven = Driven::new(game(seed, [Seat::Outside, Seat::Outside]));
        let mut rng = Random::new(seed + 1);
        let mut found = Vec::new();
        for _ in 0..count {
            let Some(decision) = driven.decision().cloned() else {
                break;
            };
            let n = decision.options.len();
            found.push((driven.clone(), decision));
            driven.answer(rng.below(n)).unwrap();
        }
        found
    }

    fn mcts(seed: u64, options: &[(&str, f64)]) -> Mcts {
        match searcher("mcts", seed, options) {
            Searcher::Mcts(m) => *m,
            Searcher::Greedy(_) => unreachable!(),
        }
    }

    #[test]
    fn the_root_prior_sends_the_first_simulation_to_greedys_best_option() {
        let mut compared = 0;
        for (driven, decision) in random_decisions(6, 120) {
            if without_search(&decision).is_some() {
                continue;
            }
            let mut m = mcts(9, &[("budget", 1.0), ("exploration", 0.0)]);
            // greedy's scores in the world the prior is seeded from (the agent's next draw)
            let world = world(&driven, decision.player, &mut m.rng.clone());
            let values = scores(&world, &decision, &m.weights, PRIOR_AHEAD);
            if values.iter().all(|v| *v == values[0]) {
                continue; // no order to follow
            }
            // one simulation: it goes to the option with the best prior, the one chosen
            let chosen = m.choose(&driven, &decision);
            assert_eq!(chosen, best(&values), "{:?}", decision.options);
            compared += 1;
        }
        assert!(compared >= 5, "{compared}");
    }

    #[test]
    fn the_root_prior_is_a_tenth_of_the_budget_in_virtual_visits_at_least_one() {
        let visits = |budget: f64| mcts(1, &[("budget", budget)]).prior_visits();
        assert_eq!((visits(200.0), visits(20.0), visits(1.0)), (20, 2, 1));
    }

    #[test]
    fn a_rollout_stops_after_the_searchers_own_turn_whoever_decides() {
        let mut seen = [0, 0]; // rollouts from the searcher's turn, from the opponent's
        for (driven, decision) in random_decisions(3, 150).into_iter().step_by(5) {
            for me in 0..2 {
                for rollout_turns in [1u32, 2, 3] {
                    let mut m = mcts(5, &[("rollout_turns", f64::from(rollout_turns))]);
                    let mut world = world(&driven, me, &mut m.rng);
                    let turn = world.game.turn;
                    let mine = turn > 0 && world.game.active == me;
                    let taken = world.game.players[me].turns_taken;
                    m.rollout(&mut world, me, turn, 0);
                    if world.game.over {
                        continue;
                    }
                    // the last turn played out was his own (the one under way counts), his
                    // first for 1 or 2, his second for 3
                    let own = rollout_turns.div_ceil(2) - u32::from(mine);
                    assert_eq!(world.game.active, 1 - me, "{:?}", decision.options);
                    assert_eq!(
                        world.game.players[me].turns_taken - taken,
                        own,
                        "{:?}",
                        decision.options
                    );
                    seen[usize::from(!mine)] += 1;
                }
            }
        }
        assert!(seen[0] >= 5 && seen[1] >= 5, "{seen:?}");
    }

    /// D-combat: a fighting rollout player attacks with a creature unless a ready blocker of
    /// the defender has Ép above its damage and damage of at least its Ép; he blocks with one
    /// that kills the attacker and survives, else one that survives, else (the attacker's
    /// damage alone would kill him) one that kills it or the first, else one that kills it
    /// for no more than it is worth, else not at all. Read from the game's combat under way,
    /// which names what the options' labels name.
    #[test]
    fn a_fighting_rollout_player_attacks_and_blocks_by_its_rules_of_thumb() {
        let mut seen = [0; 4]; // attack, hold, block, no block
        for seed in 0..40 {
            for (driven, decision) in random_decisions(seed, 400) {
                let game = &driven.game;
                if !matches!(decision.kind, "attack" | "block") {
                    assert_eq!(game.combat, None);
                    continue;
                }
                let (attacker, blockers) = game.combat.clone().unwrap();
                let (damage, hp) = (game.damage_value(attacker), game.hp(attacker));
                let chosen = fighting_choice(game, &decision).unwrap();
                let labels = &decision.options;
                if decision.kind == "attack" {
                    assert_eq!(uid_of(&labels[0].render(&game.cards)), Some(attacker));
                    let stopped = game.permanents.iter().any(|b| {
                        b.creature
                            && b.controller != decision.player
                            && b.active
                            && b.zone == crate::state::Zone::GuardPost
                            && game.hp_of(b) > damage
                            && game.damage_value(b.uid) >= hp
                    });
                    assert_eq!(chosen, usize::from(stopped));
                    seen[chosen] += 1;
                    continue;
                }
                let offered: Vec<Option<u32>> = labels
                    .iter()
                    .map(|l| uid_of(&l.render(&game.cards)))
                    .collect();
                let named: Vec<Option<u32>> = blockers.iter().map(|&b| Some(b)).collect();
                assert_eq!(offered[..offered.len() - 1], named[..]);
                let kills = |b: u32| game.damage_value(b) >= hp;
                let survives = |b: u32| game.hp(b) > damage;
                let worth = |b: u32| game.damage_value(b) + game.hp(b) <= damage + hp;
                let lethal = damage >= game.players[decision.player].hp;
                let expected = blockers
                    .iter()
                    .position(|&b| kills(b) && survives(b))
                    .or_else(|| blockers.iter().position(|&b| survives(b)))
                    .or_else(|| {
                        (lethal && !blockers.is_empty())
                            .then(|| blockers.iter().position(|&b| kills(b)).unwrap_or(0))
                    })
                    .or_else(|| blockers.iter().position(|&b| kills(b) && worth(b)))
                    .unwrap_or(blockers.len());
                assert_eq!(chosen, expected);
                seen[2 + usize::from(chosen == blockers.len())] += 1;
            }
        }
        assert!(seen.iter().all(|&n| n >= 3), "{seen:?}");
    }

    #[test]
    fn a_fighting_rollout_player_attacks_when_he_may_and_answers_the_rest_as_random() {
        let mut attacked = 0;
        for seed in 0..20 {
            for (driven, decision) in random_decisions(seed, 300) {
                let chosen = fighting_choice(&driven.game, &decision);
                if decision.kind == "action" && decision.options.iter().any(|o| o == "use attack") {
                    assert_eq!(
                        chosen.map(|i| decision.options[i].literal()),
                        Some(Some("use attack"))
                    );
                    attacked += 1;
                } else if !matches!(decision.kind, "attack" | "block") {
                    assert_eq!(chosen, None, "{:?}", decision.options);
                }
            }
        }
        assert!(attacked >= 3, "{attacked}");
    }

    #[test]
    fn a_seated_fighting_player_fights_as_its_rules_say_and_else_draws_as_random() {
        // the outside answers: the fighting rules where they answer, else a random player's
        // draw from the same RNG - the same game as the seated fighting players'
        let mut fought = 0;
        for seed in 0..6 {
            let rngs = || [0, 1].map(|i| Box::new(Random::new(2 * seed + i)));
            let seats = rngs().map(|rng| Rollout::Fight.seat(rng));
            let mut seated = game(seed, seats);
            crate::runner::play(&mut seated);
            let mut driven = Driven::new(game(seed, [Seat::Outside, Seat::Outside]));
            let mut draws = rngs();
            while let Some(decision) = driven.decision().cloned() {
                let chosen = fighting_choice(&driven.game, &decision);
                fought += usize::from(chosen.is_some());
                let rng = &mut draws[decision.player];
                let chosen = chosen.unwrap_or_else(|| {
                    crate::agents::choose_random(ROLLOUT_PASS_BIAS, &decision, rng)
                });
                driven.answer(chosen).unwrap();
            }
            assert!(driven.game.over && seated.over);
            assert_eq!(driven.game.log.events, seated.log.events, "seed {seed}");
        }
        assert!(fought >= 20, "{fought}");
    }

    #[test]
    fn the_rollout_options_choose_the_rollout_players_and_their_length() {
        assert_eq!(mcts(1, &[]).rollout_policy, Rollout::Fight);
        // by default to the end of the searcher's second own turn
        assert_eq!(mcts(1, &[]).rollout_turns, 4);
        assert_eq!(mcts(1, &[("rollout", 0.0)]).rollout_policy, Rollout::Random);
        assert!(matches!(
            Rollout::Fight.seat(Box::new(Random::new(1))),
            Seat::Fighting { .. }
        ));
        assert!(matches!(
            Rollout::Random.seat(Box::new(Random::new(1))),
            Seat::Random { .. }
        ));
        let refused = Searcher::new("mcts", Random::new(1), &[("rollout".into(), 2.0)]);
        assert!(refused.unwrap_err().0.contains("rollout=2"));
    }

    #[test]
    fn the_look_ahead_reads_the_uid_an_option_names() {
        assert_eq!(uid_of("block with t:c01#12"), Some(12));
        assert_eq!(uid_of("use t:c01#7:1"), Some(7));
        assert_eq!(uid_of("no block"), None);
    }
}
