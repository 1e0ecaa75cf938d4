//! The PyO3 bindings: `hkk_native._native`. Plain data crosses: card ids and words in, event
//! dicts out (built when read, from the native log).

use pyo3::buffer::PyBuffer;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyInt, PyList, PyString, PyTuple};

use crate::agents::{agent_rng, OwnRng, Seat, PASS_BIAS};
use crate::cards::{Card, CardId, CardPool, PlainAbility, PlainActivation, Word, IMPLEMENTED};
use crate::conditions::PlainCondition;
use crate::effects::PlainEffect;
use crate::env::{Batch, Layout, Spec, StepError};
use crate::events::{Event, Extras, Level, Value};
use crate::forward::{Driven, Refusal, Stop};
use crate::game::Game;
use crate::outcome::{Outcome, Tally, COLUMNS, KINDS};
use crate::rng::Random;
use crate::rulings::Rulings;
use crate::runner;
use crate::search::{self, Searcher, SpecError};
use crate::steps::Scratch;
use std::borrow::Cow;
use std::sync::Arc;

/// The 32-bit words of `abs(seed)`, least significant first, as CPython's `random_seed` takes
/// them (any size of int; zero is `[0]`).
fn seed_key(seed: &Bound<'_, PyAny>) -> PyResult<Vec<u32>> {
    if !seed.is_instance_of::<PyInt>() {
        return Err(PyTypeError::new_err("the native Random takes an int seed"));
    }
    let n = seed.call_method0("__abs__")?;
    let bits: usize = n.call_method0("bit_length")?.extract()?;
    let words = bits.div_ceil(32).max(1);
    let bytes: Vec<u8> = n
        .call_method1("to_bytes", (words * 4, "little"))?
        .extract()?;
    Ok(bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect())
}

/// `random.Random` for int seeds, bit for bit (the methods the engine calls).
#[pyclass(name = "Random", module = "hkk_native._native")]
struct PyRandom {
    inner: Random,
}

#[pymethods]
impl PyRandom {
    #[new]
    fn new(seed: &Bound<'_, PyAny>) -> PyResult<Self> {
        Ok(PyRandom {
            inner: Random::from_key(&seed_key(seed)?),
        })
    }

    fn random(&mut self) -> f64 {
        self.inner.random()
    }

    fn getrandbits(&mut self, k: u32) -> PyResult<u64> {
        if k > 64 {
            return Err(PyValueError::new_err(
                "the native getrandbits draws at most 64 bits",
            ));
        }
        Ok(self.inner.getrandbits(k))
    }

    #[pyo3(signature = (start, stop=None, step=1))]
    fn randrange(&mut self, start: i64, stop: Option<i64>, step: i64) -> PyResult<i64> {
        let (start, stop) = match stop {
            Some(stop) => (start, stop),
            None if step != 1 => {
                return Err(PyTypeError::new_err("Missing a non-None stop argument"))
            }
            None => (0, start),
        };
        self.inner
            .randrange(start, stop, step)
            .map_err(|e| PyValueError::new_err(e.0))
    }

    /// `shuffle(x)` in place, the same swaps as `random.py`.
    fn shuffle(&mut self, items: &Bound<'_, PyList>) -> PyResult<()> {
        for i in (1..items.len()).rev() {
            let j = self.inner.below(i + 1);
            if i != j {
                let (a, b) = (items.get_item(i)?, items.get_item(j)?);
                items.set_item(i, b)?;
                items.set_item(j, a)?;
            }
        }
        Ok(())
    }

    /// The 624 words and the index, as `getstate()[1]`.
    fn state(&self) -> Vec<u32> {
        self.inner.state()
    }

    /// A generator that draws on from here as this one does (their state shared until one
    /// writes it): what a determinized copy keeps to deal its Python twin, without handing
    /// 624 words over at each copy.
    fn copy(&self) -> Self {
        PyRandom {
            inner: self.inner.clone(),
        }
    }
}

fn seat_of(spec: &SeatSpec) -> PyResult<(Seat, Option<Searcher>)> {
    let (kind, pass_bias, own, options) = spec;
    let own = || match own {
        Some(PyOwnRng::State(words)) => Ok(OwnRng::State(words.clone())),
        Some(PyOwnRng::Seed(seed)) => Ok(OwnRng::Seed(*seed)),
        None => Err(PyValueError::new_err(format!(
            "a native {kind} agent needs its own RNG's state or seed"
        ))),
    };
    match kind.as_str() {
        "random" => Seat::random(*pass_bias, &own()?)
            .map(|seat| (seat, None))
            .map_err(|e| PyValueError::new_err(format!("the random agent's RNG state: {e}"))),
        "first" => Ok((Seat::First, None)),
        "outside" => Ok((Seat::Outside, None)),
        "greedy" | "mcts" => {
            let rng = agent_rng(&own()?)
                .map_err(|e| PyValueError::new_err(format!("the {kind} agent's RNG state: {e}")))?;
            let searcher = Searcher::new(kind, rng, options)
                .map_err(|SpecError(e)| PyValueError::new_err(e))?;
            Ok((Seat::Outside, Some(searcher)))
        }
        other => Err(PyValueError::new_err(format!(
            "no native agent {other:?}; the native seats are random, first, greedy, mcts and \
             outside"
        ))),
    }
}

fn level_of(name: &str) -> PyResult<Level> {
    Level::parse(name).ok_or_else(|| {
        PyValueError::new_err(format!(
            "unknown log level {name:?}; the levels are full, compact, outcome"
        ))
    })
}

/// Decks of string ids as the pool's ids; an unknown card is a `ValueError` naming it.
fn deck_ids(cards: &CardPool, decks: &(Vec<String>, Vec<String>)) -> PyResult<[Vec<CardId>; 2]> {
    let ids = |deck: &[String]| cards.ids(deck).map_err(PyValueError::new_err);
    Ok([ids(&decks.0)?, ids(&decks.1)?])
}

/// The engine's cards as plain data: `(id, kind, [(place, word), ...])` each.
#[pyclass(name = "Engine", module = "hkk_native._native")]
struct PyEngine {
    cards: Arc<CardPool>,
}

/// A random agent's own RNG as Python hands it over: its state words or a seed. The seed is
/// tried first: a batched call hands one a game, and a failed extraction costs a Python error.
#[derive(FromPyObject)]
enum PyOwnRng {
    Seed(u64),
    State(Vec<u32>),
}

/// A seat: `("random" | "first" | "greedy" | "mcts" | "outside", pass bias, the agent's RNG
/// state or seed, a search agent's options by name)`.
type SeatSpec = (String, f64, Option<PyOwnRng>, Vec<(String, f64)>);

/// The seats of a game, and the search agents that answer the seats they play from outside.
type Seats = ([Seat; 2], [Option<Searcher>; 2]);

fn seats_of(seats: &(SeatSpec, SeatSpec)) -> PyResult<Seats> {
    let (a, s) = seat_of(&seats.0)?;
    let (b, t) = seat_of(&seats.1)?;
    Ok(([a, b], [s, t]))
}

/// The seats of a batch's games as Python hands them over: a list of seat pairs (one: every
/// game starts from it; else one per seed), or the pass bias of the engine's default agents,
/// each game seated as the engine seats it (`RandomAgent(agent_seed(seed, seat))`, their
/// seeds made natively: nothing a game is built in Python).
#[derive(FromPyObject)]
enum BatchSpec {
    Default(f64),
    Given(Vec<(SeatSpec, SeatSpec)>),
}

/// [`BatchSpec`] checked and made native.
enum BatchSeats {
    Default(f64),
    Given(Vec<Seats>),
}

impl BatchSeats {
    /// `method`: the call's name, for the error of a list that fits neither way.
    fn of(spec: BatchSpec, seeds: usize, method: &str) -> PyResult<Self> {
        match spec {
            BatchSpec::Default(pass_bias) => Ok(BatchSeats::Default(pass_bias)),
            BatchSpec::Given(seats) if seats.len() == 1 || seats.len() == seeds => Ok(
                BatchSeats::Given(seats.iter().map(seats_of).collect::<PyResult<_>>()?),
            ),
            BatchSpec::Given(_) => Err(PyValueError::new_err(format!(
                "{method} takes one pair of seats, or one per seed"
            ))),
        }
    }

    /// The seats of the batch's `i`-th game, of seed `seed`.
    fn seats(&self, i: usize, seed: i64) -> Cow<'_, Seats> {
        match self {
            BatchSeats::Default(bias) => Cow::Owned((
                [0, 1].map(|seat| Seat::default_random(seed, seat, *bias)),
                [None, None],
            )),
            BatchSeats::Given(seats) => Cow::Borrowed(&seats[i % seats.len()]),
        }
    }
}

/// Play a game to its end with its seats and search agents (these through the forward model).
fn play_seated(game: Game, searchers: &[Option<Searcher>; 2]) -> Game {
    if searchers.iter().all(Option::is_none) {
        let mut game = game;
        runner::play(&mut game);
        return game;
    }
    let mut driven = Driven::new(game);
    let mut searchers = searchers.clone();
    search::play(&mut driven, &mut searchers);
    driven.game
}
/// A spell's effect as `hkk_native._plain.spell_effects` hands it over: place, `do`, target,
/// amount (None: counted), its other fields set.
type PlainEffectTuple = (
    String,
    String,
    String,
    Option<i64>,
    Vec<String>,
    Option<(String, String, Option<u32>)>,
    Vec<String>,
    Option<(String, i64)>,
    Option<(String, String, String, i64)>,
);
/// A card as `hkk_native._plain.plain_cards` hands it over: id, kind, its numbers (cost in VP
/// and components, damage, Ép or Sp, monster components), instant, `(place, word)`s of all
/// but a spell's effects, and those effects.
type PlainCard = (
    String,
    String,
    (i64, i64, i64, i64, i64),
    bool,
    Vec<(String, String)>,
    Vec<PlainEffectTuple>,
    Vec<PlainAbilityTuple>,
    Option<PlainConditionTuple>,
);
/// An ability as `hkk_native._plain.abilities` hands it over: index, kind, timing, whose turn,
/// optional, effects, condition, activation, the `(place, word)`s of its other fields, and a
/// triggered ability's `when` (event, which, whose, card kind or "").
type PlainAbilityTuple = (
    usize,
    String,
    String,
    String,
    bool,
    Vec<PlainEffectTuple>,
    Option<PlainConditionTuple>,
    Option<PlainActivationTuple>,
    Vec<(String, String)>,
    Option<(String, String, String, String)>,
);
/// An activated ability's cost and limit as `hkk_native._plain.activation` hands them over:
/// VP, components, sacrifice itself; per turn, per game, whose turn.
type PlainActivationTuple = (i64, i64, bool, Option<u32>, Option<u32>, String, bool, bool);
/// A condition as `hkk_native._plain.condition` hands it over: `of`, the comparison, its bound
/// as a number or a quantity's name.
type PlainConditionTuple = (String, String, Option<i64>, Option<String>);

fn plain_effects(effects: Vec<PlainEffectTuple>) -> Vec<PlainEffect> {
    effects
        .into_iter()
        .map(
            |(place, verb, target, amount, others, modify, durations, counted, filter)| {
                PlainEffect {
                    place,
                    verb,
                    target,
                    amount,
                    others,
                    modify,
                    durations,
                    counted,
                    filter,
                }
            },
        )
        .collect()
}

fn plain_words(words: Vec<(String, String)>) -> Vec<Word> {
    words
        .into_iter()
        .map(|(place, word)| Word { place, word })
        .collect()
}

/// `hkk.Rulings` as the Python engine holds them: read attribute by attribute (the choices
/// as the Python engine compares them; the Python side refuses what does not fit).
#[derive(FromPyObject)]
struct PlainRulings {
    empty_deck_loses: bool,
    unspent_vp_carries_over: bool,
    default_orderer: String,
    until_preparation_ends: String,
    counted_turns: String,
    deferred_check_gives_components: bool,
    max_turns: u32,
    max_items_per_step: usize,
    trigger_orderer: String,
    max_trigger_chain: usize,
    max_triggers_per_cause: usize,
    max_triggers_per_turn: u64,
    max_triggers_per_game: u64,
    spells_need_a_choice: bool,
}

impl From<PlainRulings> for Rulings {
    fn from(r: PlainRulings) -> Self {
        Rulings {
            empty_deck_loses: r.empty_deck_loses,
            unspent_vp_carries_over: r.unspent_vp_carries_over,
            active_orders: r.default_orderer == "active",
            until_own_preparation: r.until_preparation_ends == "controller",
            counts_own_turns: r.counted_turns == "own",
            deferred_check_gives_components: r.deferred_check_gives_components,
            max_turns: r.max_turns,
            max_items_per_step: r.max_items_per_step,
            active_orders_triggers: r.trigger_orderer == "active",
            max_trigger_chain: r.max_trigger_chain,
            max_triggers_per_cause: r.max_triggers_per_cause,
            max_triggers_per_turn: r.max_triggers_per_turn,
            max_triggers_per_game: r.max_triggers_per_game,
            spells_need_a_choice: r.spells_need_a_choice,
        }
    }
}

#[pymethods]
impl PyEngine {
    /// The engine's cards and its rulings (None: `hkk.Rulings()`).
    #[new]
    #[pyo3(signature = (cards, rulings=None))]
    fn new(cards: Vec<PlainCard>, rulings: Option<PlainRulings>) -> Self {
        let cards = cards
            .into_iter()
            .map(
                |(id, kind, numbers, instant, words, effects, abilities, play)| {
                    let abilities: Vec<PlainAbility> = abilities
                        .into_iter()
                        .map(
                            |(
                                index,
                                kind,
                                timing,
                                whose_turn,
                                optional,
                                effects,
                                condition,
                                activation,
                                others,
                                when,
                            )| {
                                PlainAbility {
                                    index,
                                    kind,
                                    timing,
                                    whose_turn,
                                    optional,
                                    effects: plain_effects(effects),
                                    condition: condition.map(|(of, compare, number, quantity)| {
                                        PlainCondition {
                                            of,
                                            compare,
                                            number,
                                            quantity,
                                        }
                                    }),
                                    activation: activation.map(
                                        |(
                                            vp,
                                            components,
                                            sacrifice_self,
                                            per_turn,
                                            per_game,
                                            whose,
                                            usable_in_preparation,
                                            must_use_in_preparation,
                                        )| {
                                            PlainActivation {
                                                vp,
                                                components,
                                                sacrifice_self,
                                                per_turn,
                                                per_game,
                                                whose_turn: whose,
                                                usable_in_preparation,
                                                must_use_in_preparation,
                                            }
                                        },
                                    ),
                                    others: plain_words(others),
                                    when,
                                }
                            },
                        )
                        .collect();
                    let effects = plain_effects(effects);
                    let mut card = Card::new(
                        id,
                        kind,
                        numbers,
                        instant,
                        plain_words(words),
                        &effects,
                        &abilities,
                    );
                    if let Some((of, compare, number, quantity)) = play {
                        let plain = PlainCondition {
                            of,
                            compare,
                            number,
                            quantity,
                        };
                        match plain.parse() {
                            Ok(condition) => card.play_condition = Some(condition),
                            Err(what) if card.refused.is_none() => {
                                card.refused = Some(format!(
                                    "card {}: the play_condition's {what} is not implemented by \
                                 the native core",
                                    card.id
                                ));
                            }
                            Err(_) => {}
                        }
                    }
                    card
                },
            )
            .collect();
        let rulings = rulings.map_or_else(Rulings::default, Rulings::from);
        PyEngine {
            cards: Arc::new(CardPool::new(cards).with_rulings(rulings)),
        }
    }

    /// Why these decks cannot be played natively (the first card and word), or None.
    fn refusal(&self, decks: Vec<Vec<String>>) -> Option<String> {
        self.cards.refusal(&decks)
    }

    #[staticmethod]
    fn implemented_words() -> Vec<&'static str> {
        IMPLEMENTED.to_vec()
    }

    #[staticmethod]
    fn default_pass_bias() -> f64 {
        PASS_BIAS
    }

    /// A native game: decks in the Python engine's order, the seed (an int that fits 64 bits
    /// signed, as the log holds it), each seat `(agent, pass_bias, its own RNG's state words or None)`;
    /// `names`: the players' (None: P1, P2), as a chosen-player decision's options show them.
    #[pyo3(signature = (decks, seed, seats, level, names=None))]
    fn new_game(
        &self,
        decks: (Vec<String>, Vec<String>),
        seed: &Bound<'_, PyAny>,
        seats: (SeatSpec, SeatSpec),
        level: &str,
        names: Option<(String, String)>,
    ) -> PyResult<PyGame> {
        let key = seed_key(seed)?;
        let logged: i64 = seed.extract()?;
        let (seats, searchers) = seats_of(&seats)?;
        let decks = deck_ids(&self.cards, &decks)?;
        let mut game = Game::new(
            self.cards.clone(),
            logged,
            &key,
            decks,
            seats,
            level_of(level)?,
        );
        if let Some((first, second)) = names {
            game.player_labels = [
                format!("player 0 ({first})").into(),
                format!("player 1 ({second})").into(),
            ];
        }
        Ok(PyGame {
            driven: Driven::new(game),
            searchers,
        })
    }

    /// Many games in one call, the GIL released (catanatron's `*_many`): each seed's game of
    /// these decks played as far as the native core goes, seated by the seats of the same
    /// index (one pair of seats: every game starts from them). Returns, per game, the winner
    /// (-1: none, or not over), the turns begun and the events emitted; the logs are not kept.
    fn play_many(
        &self,
        py: Python<'_>,
        decks: (Vec<String>, Vec<String>),
        seeds: Vec<i64>,
        seats: BatchSpec,
        level: &str,
    ) -> PyResult<Vec<(i64, u32, usize)>> {
        let level = level_of(level)?;
        let seats = BatchSeats::of(seats, seeds.len(), "play_many")?;
        let decks = deck_ids(&self.cards, &decks)?;
        Ok(py.allow_threads(|| {
            // one game's step lists handed on to the next (`Scratch`: never read between steps)
            let mut scratch = Scratch::default();
            seeds
                .iter()
                .enumerate()
                .map(|(i, &seed)| {
                    let key = crate::rng::key_of(seed.unsigned_abs());
                    let decks = decks.clone();
                    let (seats, searchers) = seats.seats(i, seed).into_owned();
                    let mut game = Game::new(self.cards.clone(), seed, &key, decks, seats, level);
                    game.scratch = std::mem::take(&mut scratch);
                    let mut game = play_seated(game, &searchers);
                    scratch = std::mem::take(&mut game.scratch);
                    (
                        game.winner.map_or(-1, |w| w as i64),
                        game.turn,
                        game.log.emitted,
                    )
                })
                .collect()
        }))
    }

    /// Many games in one call, the GIL released, each recorded as `hkk simulate` records it
    /// (`hkk._outcome.OutcomeRecorder`, computed natively: nothing per event in Python), at
    /// the outcome level: per game `(winner, reason, turns, first, unported, counts)`, the
    /// counts `played`, `fired`, `used`, `drawn`, `acted`, each a pair of players' sorted
    /// `(card, count)` lists. Seats as `play_many`.
    fn play_outcomes<'py>(
        &self,
        py: Python<'py>,
        decks: (Vec<String>, Vec<String>),
        seeds: Vec<i64>,
        seats: BatchSpec,
    ) -> PyResult<Vec<OutcomeTuple<'py>>> {
        let seats = BatchSeats::of(seats, seeds.len(), "play_outcomes")?;
        let decks = deck_ids(&self.cards, &decks)?;
        let played = py.allow_threads(|| {
            let mut rows = Vec::with_capacity(seeds.len());
            let mut recorder = Box::<Outcome>::default();
            let mut scratch = Scratch::default();
            for (i, &seed) in seeds.iter().enumerate() {
                let seats = seats.seats(i, seed);
                let (o, unported) = self.recorded(seed, &decks, &seats, recorder, &mut scratch);
                let pairs = |kind| [0, 1].map(|player| o.counted(player, kind).collect());
                let counts: [[Vec<(CardId, u32)>; 2]; KINDS] = std::array::from_fn(pairs);
                rows.push((o.winner, o.reason, o.turns, o.first, unported, counts));
                recorder = o;
            }
            rows
        });
        // each card's name made a Python string once a call, not once a count
        let mut names: Vec<Option<Bound<'py, PyString>>> = vec![None; self.cards.len()];
        let mut name = |card: CardId| {
            names[card.0 as usize]
                .get_or_insert_with(|| PyString::new(py, self.cards.name(card)))
                .clone()
        };
        let mut named = |counts: &[(CardId, u32)]| -> Vec<(Bound<'py, PyString>, u32)> {
            counts.iter().map(|&(card, n)| (name(card), n)).collect()
        };
        Ok(played
            .into_iter()
            .map(|(winner, reason, turns, first, unported, counts)| {
                let counts = counts.map(|players| players.iter().map(|c| named(c)).collect());
                (winner, reason, turns, first, unported, counts)
            })
            .collect())
    }

    /// `play_outcomes`' games tallied in one group (`hkk._outcome.Group`: nothing per game
    /// crosses into Python): `(games, wins, first games, first wins, [(turns, games)],
    /// [(reason, games)], per seat [(card, columns)], results, [(index, why)] of the games
    /// stopped short)`.
    fn tally_outcomes(
        &self,
        py: Python<'_>,
        decks: (Vec<String>, Vec<String>),
        seeds: Vec<i64>,
        seats: BatchSpec,
    ) -> PyResult<TallyTuple> {
        let seats = BatchSeats::of(seats, seeds.len(), "tally_outcomes")?;
        let decks = deck_ids(&self.cards, &decks)?;
        let (t, stopped) = py.allow_threads(|| {
            let mut tally = Tally::default();
            let mut stopped = Vec::new();
            // one recorder for all the games: its tables, once grown, are not made again
            let mut recorder = Box::<Outcome>::default();
            let mut scratch = Scratch::default();
            for (i, &seed) in seeds.iter().enumerate() {
                let seats = seats.seats(i, seed);
                let (o, unported) = self.recorded(seed, &decks, &seats, recorder, &mut scratch);
                match unported {
                    None => tally.add(&o),
                    Some(why) => {
                        tally.stopped();
                        stopped.push((i, why));
                    }
                }
                recorder = o;
            }
            (tally, stopped)
        });
        let cards = |seat: usize| -> Vec<(String, [u64; COLUMNS])> {
            t.cards(seat)
                .map(|(card, &columns)| (self.cards.name(card).to_string(), columns))
                .collect()
        };
        let cards = [cards(0), cards(1)];
        Ok((
            t.games,
            t.wins,
            t.first_games,
            t.first_wins,
            t.turns.into_iter().collect(),
            t.reasons.into_iter().collect(),
            cards,
            PyBytes::new(py, &t.results).unbind(),
            stopped,
        ))
    }
}

impl PyEngine {
    /// A game played to its end at the outcome level, recorded as `hkk simulate` records it
    /// by `recorder` (cleared first, handed back), and why the native core stopped it short, if
    /// it did.
    ///
    /// `scratch`: the step lists of the batch's game before, handed on to this one and back.
    fn recorded(
        &self,
        seed: i64,
        decks: &[Vec<CardId>; 2],
        seats: &Seats,
        mut recorder: Box<Outcome>,
        scratch: &mut Scratch,
    ) -> (Box<Outcome>, Option<String>) {
        let key = crate::rng::key_of(seed.unsigned_abs());
        let (seats, searchers) = seats;
        let mut game = Game::new(
            self.cards.clone(),
            seed,
            &key,
            decks.clone(),
            seats.clone(),
            Level::Outcome,
        );
        recorder.clear();
        game.log.outcome = Some(recorder);
        game.scratch = std::mem::take(scratch);
        let mut game = play_seated(game, searchers);
        *scratch = std::mem::take(&mut game.scratch);
        let o = game.log.outcome.take().unwrap_or_default();
        (o, game.unported.take())
    }
}

/// `tally_outcomes`' answer.
type TallyTuple = (
    u32,
    [u32; 2],
    u32,
    u32,
    Vec<(u32, u32)>,
    Vec<(Option<&'static str>, u32)>,
    [Vec<(String, [u64; COLUMNS])>; 2],
    Py<PyBytes>,
    Vec<(usize, String)>,
);

/// A player's counts as `(card, count)`s sorted by card (the pool's ids are its cards' places
/// in sorted order); both players'.
type PlayersCounts<'py> = Vec<Vec<(Bound<'py, PyString>, u32)>>;
/// `play_outcomes`' answer for one game.
type OutcomeTuple<'py> = (
    Option<usize>,
    Option<&'static str>,
    u32,
    Option<usize>,
    Option<String>,
    [PlayersCounts<'py>; KINDS],
);

/// A native game, played by its seated agents or answered from outside one decision at a time
/// (`forward::Driven`); its log stays native until read.
#[pyclass(name = "Game", module = "hkk_native._native")]
struct PyGame {
    driven: Driven,
    /// The search agents of the seats they play (answered from outside in the game).
    searchers: [Option<Searcher>; 2],
}

/// The Python strings of the texts events borrow (field names, kinds, steps, rules, card ids,
/// the log's own texts), each made once for all the events read in one call, not once an
/// event: a full game's log has thousands of events and a few hundred texts. One event read
/// alone makes its few strings without the list (`uncached`).
struct Texts<'py> {
    py: Python<'py>,
    /// by the text's place (start and length): none of them moves or changes while the
    /// game is read
    made: Option<std::collections::HashMap<(usize, usize), Bound<'py, PyString>>>,
}

impl<'py> Texts<'py> {
    fn cached(py: Python<'py>) -> Self {
        Texts {
            py,
            made: Some(std::collections::HashMap::new()),
        }
    }

    fn uncached(py: Python<'py>) -> Self {
        Texts { py, made: None }
    }

    fn get(&mut self, text: &str) -> Bound<'py, PyString> {
        let py = self.py;
        match &mut self.made {
            Some(made) => made
                .entry((text.as_ptr() as usize, text.len()))
                .or_insert_with(|| PyString::new(py, text))
                .clone(),
            None => PyString::new(py, text),
        }
    }
}

fn event_dict<'py>(
    texts: &mut Texts<'py>,
    cards: &CardPool,
    (event, extras): (&Event, &Extras),
) -> PyResult<Bound<'py, PyDict>> {
    let py = texts.py;
    let dict = PyDict::new(py);
    dict.set_item(texts.get("seq"), event.seq)?;
    dict.set_item(texts.get("turn"), event.turn)?;
    dict.set_item(texts.get("step"), texts.get(event.step))?;
    dict.set_item(texts.get("kind"), texts.get(event.kind.name()))?;
    for (name, value) in event.fields(extras, cards) {
        let name = texts.get(name);
        match value {
            Value::Int(v) => dict.set_item(name, v)?,
            Value::Wide(v) => dict.set_item(name, v)?,
            Value::Str(Cow::Borrowed(v)) => dict.set_item(name, texts.get(v))?,
            Value::Str(Cow::Owned(v)) => dict.set_item(name, v)?,
            Value::Bool(v) => dict.set_item(name, v)?,
            Value::Ints(v) => dict.set_item(name, v)?,
            Value::OptInts(v) => dict.set_item(name, v)?,
            Value::Strs(v) => dict.set_item(name, v)?,
            Value::None => dict.set_item(name, py.None())?,
            Value::Absent => {}
        }
    }
    Ok(dict)
}

/// A decision as `PyGame::decision` hands it over: `(kind, player, labels, rule, prompt)`, the labels
/// a tuple of strings made straight from them (no `String` made first).
type Found<'py> = (
    &'static str,
    usize,
    Bound<'py, PyTuple>,
    Option<&'static str>,
    Bound<'py, PyString>,
);

fn found<'py>(
    py: Python<'py>,
    d: &crate::decisions::Decision,
    cards: &CardPool,
) -> PyResult<Found<'py>> {
    let written = |o: &crate::decisions::Label| PyString::new(py, &o.render(cards));
    let labels = PyTuple::new(py, d.options.iter().map(written))?;
    Ok((d.kind, d.player, labels, d.rule, written(&d.prompt)))
}

#[pymethods]
impl PyGame {
    /// Play as far as the native core goes (to the end, or to the first card played), or to
    /// the turn limit `max_turns` (`play(max_turns=...)`, D-turn-limit).
    #[pyo3(signature = (max_turns=None))]
    fn play(&mut self, py: Python<'_>, max_turns: Option<u32>) {
        py.allow_threads(|| {
            if self.searchers.iter().any(Option::is_some) {
                self.driven.turn_limit = max_turns;
                search::play(&mut self.driven, &mut self.searchers);
                self.driven.turn_limit = None;
            } else {
                self.driven.play(max_turns);
            }
        });
    }

    /// The turn limit of a `play(max_turns=...)` that a Python driver runs through
    /// `decision` and `answer` (None: the rulings').
    #[getter]
    fn turn_limit(&self) -> Option<u32> {
        self.driven.turn_limit
    }

    #[setter]
    fn set_turn_limit(&mut self, limit: Option<u32>) {
        self.driven.turn_limit = limit;
    }

    /// The decision a seat answered from outside waits for, as `(kind, player, labels, rule, prompt)`
    /// (the game runs up to it first); None once over, stopped short, or all seats seated.
    fn decision<'py>(&mut self, py: Python<'py>) -> PyResult<Option<Found<'py>>> {
        if self.searchers.iter().any(Option::is_some) {
            // the search agents' seats answered first, up to a seat answered by the caller
            py.allow_threads(|| search::play(&mut self.driven, &mut self.searchers));
        }
        let cards = self.driven.game.cards.clone(); // the labels are written from them
        self.driven
            .decision()
            .map(|d| found(py, d, &cards))
            .transpose()
    }

    /// Answer the waiting decision with its option at `index` and run on to the next one;
    /// returns that one as `decision` does when no search agent is seated (None: over,
    /// stopped short, or ask `decision`), saving the caller a second call.
    fn answer<'py>(&mut self, py: Python<'py>, index: usize) -> PyResult<Option<Found<'py>>> {
        // a few microseconds: the GIL is kept (releasing and taking it again was a tenth)
        self.driven.answer(index).map_err(|refusal| match refusal {
            Refusal::NoDecision => PyValueError::new_err("the game waits for no decision"),
            Refusal::OutOfRange(n) => {
                PyValueError::new_err(format!("option {index} of a decision of {n} options"))
            }
        })?;
        if self.searchers.iter().any(Option::is_some) {
            return Ok(None);
        }
        let game = &self.driven.game;
        game.waiting
            .as_deref()
            .map(|d| found(py, d, &game.cards))
            .transpose()
    }

    /// An independent copy (a struct clone), its log kept at `level` from now on if given.
    #[pyo3(signature = (level=None))]
    fn clone(&self, level: Option<&str>) -> PyResult<PyGame> {
        let mut driven = self.driven.clone();
        driven.turn_limit = None; // the caller's play(max_turns=...) is not the copy's
        if let Some(level) = level {
            driven.set_level(level_of(level)?);
        }
        Ok(PyGame {
            driven,
            searchers: self.searchers.clone(),
        })
    }

    /// A copy in which what `player` cannot know is resampled (`determinize::Driven`), drawn
    /// from the RNG whose state words (`getstate()[1]`) are given; returns the copy and the
    /// RNG's state after the draws, to be put back in the caller's RNG.
    #[pyo3(signature = (player, state, level=None))]
    fn determinize(
        &self,
        player: usize,
        state: Vec<u32>,
        level: Option<&str>,
    ) -> PyResult<(PyGame, Vec<u32>)> {
        if player > 1 {
            return Err(PyValueError::new_err(format!(
                "player {player}: a game has players 0 and 1"
            )));
        }
        let mut rng = crate::rng::Random::from_state(&state)
            .map_err(|e| PyValueError::new_err(format!("the RNG's state: {e}")))?;
        let level = level.map(level_of).transpose()?;
        let driven = self.driven.determinize(player, &mut rng, level);
        let searchers = [None, None];
        Ok((PyGame { driven, searchers }, rng.state()))
    }

    /// [`PyGame::determinize`] drawing from a native `Random` in place (no state handed
    /// over: a search's many worlds from one dealer).
    #[pyo3(signature = (player, rng, level=None))]
    fn determinize_native(
        &self,
        player: usize,
        mut rng: PyRefMut<'_, PyRandom>,
        level: Option<&str>,
    ) -> PyResult<PyGame> {
        if player > 1 {
            return Err(PyValueError::new_err(format!(
                "player {player}: a game has players 0 and 1"
            )));
        }
        let level = level.map(level_of).transpose()?;
        let driven = self.driven.determinize(player, &mut rng.inner, level);
        Ok(PyGame {
            driven,
            searchers: [None, None],
        })
    }

    /// Replay a save's decisions by their labels, every seat answered from outside, to the
    /// next decision or to `stop` = `(events, turn, step_index)` between two steps
    /// (`forward::Driven::replay`); a label that does not fit is a ValueError naming it.
    #[pyo3(signature = (labels, stop=None))]
    fn replay(
        &mut self,
        py: Python<'_>,
        labels: Vec<String>,
        stop: Option<(usize, u32, Option<usize>)>,
    ) -> PyResult<()> {
        let stop = stop.map(|(events, turn, step_index)| Stop {
            events,
            turn,
            step_index,
        });
        py.allow_threads(|| self.driven.replay(&labels, stop))
            .map_err(PyValueError::new_err)
    }

    /// Seat these agents where the game stands (`forward::Driven::reseat`); a seat of kind
    /// `"keep"` stays as it is (its agent's RNG where it stands).
    fn reseat(&mut self, seats: (SeatSpec, SeatSpec)) -> PyResult<()> {
        // a kept seat as it stands (the decisions of the step so far are taken again as made)
        let now = &self.driven.game;
        let kept = |spec: &SeatSpec, i: usize| -> PyResult<(Seat, Option<Searcher>)> {
            if spec.0 == "keep" {
                Ok((now.seats[i].clone(), self.searchers[i].clone()))
            } else {
                seat_of(spec)
            }
        };
        let (a, s) = kept(&seats.0, 0)?;
        let (b, t) = kept(&seats.1, 1)?;
        self.driven.reseat([a, b]);
        self.searchers = [s, t];
        Ok(())
    }

    /// The next step to run (an index into the turn's steps); None between turns.
    #[getter]
    fn step_index(&self) -> Option<usize> {
        self.driven.game.step_index
    }

    #[getter]
    fn seed(&self) -> i128 {
        self.driven.game.seed
    }

    /// Each seat's search agent's decisions searched so far (None: no search agent).
    #[getter]
    fn searched(&self) -> [Option<u64>; 2] {
        [0, 1].map(|i| self.searchers[i].as_ref().map(Searcher::decisions))
    }

    /// What stopped the game short of its end, if anything.
    #[getter]
    fn unported(&self) -> Option<String> {
        self.driven.game.unported.clone()
    }

    #[getter]
    fn active(&self) -> usize {
        self.driven.game.active
    }

    #[getter]
    fn over(&self) -> bool {
        self.driven.game.over
    }

    #[getter]
    fn winner(&self) -> Option<usize> {
        self.driven.game.winner
    }

    #[getter]
    fn turn(&self) -> u32 {
        self.driven.game.turn
    }

    /// Events emitted, kept or not.
    #[getter]
    fn emitted(&self) -> usize {
        self.driven.game.log.emitted
    }

    fn __len__(&self) -> usize {
        self.driven.game.log.events.len()
    }

    /// The kept event at `index`, as the Python event's `as_dict()`.
    fn event<'py>(&self, py: Python<'py>, index: usize) -> PyResult<Bound<'py, PyDict>> {
        let event =
            self.driven.game.log.events.get_with(index).ok_or_else(|| {
                pyo3::exceptions::PyIndexError::new_err("event index out of range")
            })?;
        event_dict(&mut Texts::uncached(py), &self.driven.game.cards, event)
    }

    /// Every kept event, as `as_dict()`s.
    fn events<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyDict>>> {
        let mut texts = Texts::cached(py);
        self.driven
            .game
            .log
            .events
            .iter_with()
            .map(|e| event_dict(&mut texts, &self.driven.game.cards, e))
            .collect()
    }

    /// Every kept event's kind, in order (no event's fields read).
    fn kinds(&self) -> Vec<&'static str> {
        self.driven
            .game
            .log
            .events
            .iter()
            .map(|e| e.kind.name())
            .collect()
    }

    /// The players' hands and decks (deck top last), for tests.
    fn zones(&self) -> Vec<(Vec<String>, Vec<String>)> {
        self.driven
            .game
            .players
            .iter()
            .map(|p| {
                let names = |ids: &[CardId]| {
                    ids.iter()
                        .map(|&c| self.driven.game.cards.name(c).to_string())
                        .collect()
                };
                (names(&p.hand), names(&p.deck))
            })
            .collect()
    }
}

/// `hkk_env.Layout.plain()`: the layout as plain data.
#[derive(FromPyObject)]
struct PySpec {
    #[pyo3(item)]
    cards: Vec<String>,
    #[pyo3(item)]
    steps: Vec<String>,
    #[pyo3(item)]
    slots: usize,
    #[pyo3(item)]
    abilities: usize,
    #[pyo3(item)]
    order_cap: usize,
    #[pyo3(item)]
    words: Vec<String>,
    #[pyo3(item)]
    kinds: Vec<String>,
    #[pyo3(item)]
    permanent_words: Vec<String>,
    #[pyo3(item)]
    card_words: Vec<String>,
    #[pyo3(item)]
    zones: Vec<String>,
    #[pyo3(item)]
    scales: Vec<f64>,
    #[pyo3(item)]
    ranges: Vec<(String, usize, usize)>,
    #[pyo3(item)]
    sections: Vec<(String, usize)>,
}

fn layout_of(spec: PySpec, cards: &CardPool) -> PyResult<Layout> {
    let spec = Spec {
        cards: spec.cards,
        steps: spec.steps,
        slots: spec.slots,
        abilities: spec.abilities,
        order_cap: spec.order_cap,
        words: spec.words,
        kinds: spec.kinds,
        permanent_words: spec.permanent_words,
        card_words: spec.card_words,
        zones: spec.zones,
        scales: spec.scales,
        ranges: spec.ranges,
        sections: spec.sections,
    };
    Layout::new(spec, cards).map_err(PyValueError::new_err)
}

/// Copy `source` into the writable, C-contiguous buffer `target` of the same length (a numpy
/// array of the batch), naming it if it is not one.
fn write_into<T: pyo3::buffer::Element + Copy>(
    py: Python<'_>,
    name: &str,
    target: &Bound<'_, PyAny>,
    source: &[T],
) -> PyResult<()> {
    let buffer = PyBuffer::<T>::get(target)
        .map_err(|e| PyTypeError::new_err(format!("the batch's {name} array: {e}")))?;
    let cells = buffer
        .as_mut_slice(py)
        .filter(|cells| cells.len() == source.len())
        .ok_or_else(|| {
            PyValueError::new_err(format!(
                "the batch's {name} array must be writable, C-contiguous, of {} items",
                source.len()
            ))
        })?;
    for (cell, &value) in cells.iter().zip(source) {
        cell.set(value);
    }
    Ok(())
}

/// N native games answered from outside, stepped in one call (`env::Batch`, `hkk_env.HkkBatch`
/// on the native core): each call writes the arrays it is given.
#[pyclass(name = "Batch", module = "hkk_native._native")]
struct PyBatch {
    batch: Batch,
}

fn step_error(e: StepError) -> PyErr {
    match e {
        StepError::Action(message) => PyValueError::new_err(message),
        StepError::Stopped(message) => pyo3::exceptions::PyRuntimeError::new_err(message),
    }
}

#[pymethods]
impl PyBatch {
    /// `n` games of `decks` (card ids in the Python engine's order), the k-th started of seed
    /// `seed + k`, encoded by the layout `spec` (`hkk_env.Layout.plain()`).
    #[new]
    fn new(
        engine: &PyEngine,
        spec: PySpec,
        decks: (Vec<String>, Vec<String>),
        n: usize,
        seed: i64,
    ) -> PyResult<Self> {
        let layout = layout_of(spec, &engine.cards)?;
        let decks = deck_ids(&engine.cards, &decks)?;
        Ok(PyBatch {
            batch: Batch::new(Arc::new(layout), engine.cards.clone(), decks, n, seed),
        })
    }

    #[getter]
    fn started(&self) -> u64 {
        self.batch.started
    }

    #[getter]
    fn n_observation(&self) -> usize {
        self.batch.layout.n_observation
    }

    #[getter]
    fn n_actions(&self) -> usize {
        self.batch.layout.n_actions
    }

    /// Start the games; write (obs, mask, player, reward, done, seeds).
    #[allow(clippy::too_many_arguments)]
    fn reset(
        &mut self,
        py: Python<'_>,
        obs: &Bound<'_, PyAny>,
        mask: &Bound<'_, PyAny>,
        player: &Bound<'_, PyAny>,
        reward: &Bound<'_, PyAny>,
        done: &Bound<'_, PyAny>,
        seeds: &Bound<'_, PyAny>,
    ) -> PyResult<()> {
        let result = py.allow_threads(|| self.batch.reset());
        self.write(py, [obs, mask, player, reward, done, seeds])?;
        result.map_err(step_error)
    }

    /// Answer each row's decision with its action index (an int64 array of n) and write the
    /// arrays; a bad action is a ValueError naming it (the rows before it stepped).
    #[allow(clippy::too_many_arguments)]
    fn step(
        &mut self,
        py: Python<'_>,
        actions: PyBuffer<i64>,
        obs: &Bound<'_, PyAny>,
        mask: &Bound<'_, PyAny>,
        player: &Bound<'_, PyAny>,
        reward: &Bound<'_, PyAny>,
        done: &Bound<'_, PyAny>,
        seeds: &Bound<'_, PyAny>,
    ) -> PyResult<()> {
        let actions = actions.to_vec(py)?;
        if actions.len() != self.batch.n() {
            return Err(PyValueError::new_err(format!(
                "the batch takes {} actions, got {}",
                self.batch.n(),
                actions.len()
            )));
        }
        let result = py.allow_threads(|| self.batch.step(&actions));
        self.write(py, [obs, mask, player, reward, done, seeds])?;
        result.map_err(step_error)
    }

    /// A row's game: its seed and the option indices answered in it since it began.
    fn history(&self, row: usize) -> PyResult<(i64, Vec<u32>)> {
        self.batch
            .history(row)
            .map(|(seed, answers)| (seed, answers.to_vec()))
            .ok_or_else(|| pyo3::exceptions::PyIndexError::new_err(format!("no row {row}")))
    }

    /// Seat `seat`'s observation and mask of a native game (as a row's), into `obs` and `mask`.
    fn observe(
        &self,
        py: Python<'_>,
        game: &mut PyGame,
        seat: usize,
        obs: &Bound<'_, PyAny>,
        mask: &Bound<'_, PyAny>,
    ) -> PyResult<()> {
        if seat > 1 {
            return Err(PyValueError::new_err(format!(
                "seat {seat}: a game has seats 0 and 1"
            )));
        }
        game.driven.decision();
        let layout = &self.batch.layout;
        let mut o = vec![0.0; layout.n_observation];
        let mut m = vec![0; layout.n_actions];
        layout
            .observe(&game.driven.game, seat, &mut o, &mut m)
            .map_err(PyValueError::new_err)?;
        write_into(py, "obs", obs, &o)?;
        write_into(py, "mask", mask, &m)
    }
}

impl PyBatch {
    fn write(&self, py: Python<'_>, arrays: [&Bound<'_, PyAny>; 6]) -> PyResult<()> {
        let a = &self.batch.arrays;
        let [obs, mask, player, reward, done, seeds] = arrays;
        write_into(py, "obs", obs, &a.obs)?;
        write_into(py, "mask", mask, &a.mask)?;
        write_into(py, "player", player, &a.player)?;
        write_into(py, "reward", reward, &a.reward)?;
        write_into(py, "done", done, &a.done)?;
        write_into(py, "seeds", seeds, &a.seeds)
    }
}

/// How this extension was built, for the benchmarks' figures: `install_pgo.py` sets
/// `HKK_NATIVE_BUILD` for its profile-guided build (cargo rebuilds when it changes).
const BUILD: &str = match option_env!("HKK_NATIVE_BUILD") {
    Some(build) => build,
    None if cfg!(debug_assertions) => "debug",
    None => "release",
};

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("BUILD", BUILD)?;
    m.add_class::<PyRandom>()?;
    m.add_class::<PyEngine>()?;
    m.add_class::<PyGame>()?;
    m.add_class::<PyBatch>()?;
    Ok(())
}
