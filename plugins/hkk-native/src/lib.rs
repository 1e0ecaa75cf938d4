//! hkk's native core: a Rust twin of the Python engine (`core/hkk`) for data-only games, kept in
//! step with it by the differential tests (`tests/test_native_*.py`). Modules mirror the Python
//! engine's concepts: `rng` (`random.Random`), `cards` (`hkk._cards`), `state` (`hkk._state`),
//! `events` (`hkk.events`, `hkk._events`), `decisions` (`hkk._decisions`), `determinize` (`hkk._driving.determinize`), `effects` (`hkk._cards.verbs`, `hkk._cards.targets`), `env` (`hkk_env`'s observation, actions and batch), `agents`
//! (`hkk._agents`), `errors` (`hkk._errors`), `evaluation` (`hkk._evaluation`), `search` (`hkk._greedy`, `hkk._mcts`), `game` (`hkk._game`), `interpret` (`hkk._cards.interpret`), `outcome` (`hkk._outcome`), `phases` (`hkk._phases`),
//! `changes` (`hkk._changes`), `checks` (`hkk._checks`), `conditions` (`hkk._conditions`), `continuous`
//! (`hkk._continuous`), `rules` (`hkk._rules`), `rulings` (`hkk._rulings`), `steps` (`hkk._steps`), `triggers` (`hkk._trigger_watch`,
//! `hkk._trigger_queue`), `runner`
//! (`hkk._runner`). `python` holds the PyO3 bindings.

pub mod agents;
pub mod cards;
pub mod changes;
pub mod checks;
pub mod conditions;
pub mod continuous;
pub mod decisions;
pub mod determinize;
pub mod effects;
pub mod env;
pub mod errors;
pub mod evaluation;
pub mod events;
pub mod forward;
pub mod game;
pub mod interpret;
pub mod outcome;
pub mod phases;
pub mod rng;
pub mod rules;
pub mod rulings;
pub mod runner;
pub mod search;
pub mod state;
pub mod steps;
pub mod triggers;

#[cfg(feature = "python")]
mod python;

/// The extension's Rust allocations go to mimalloc: a game makes ~1,600 small short-lived
/// allocations, and glibc's malloc and free were ~13 % of a base game's instructions.
#[cfg(feature = "python")]
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;
