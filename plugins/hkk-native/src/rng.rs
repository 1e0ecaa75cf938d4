//! CPython's `random.Random`, bit for bit: the MT19937 generator, its `init_by_array` seeding
//! for int seeds (`random_seed` in `Modules/_randommodule.c`), and the methods of `random.py`
//! (3.11-3.13) the engine calls: `random`, `getrandbits`, `_randbelow`, `randrange`, `shuffle`.
//! The Python engine's only randomness is one `random.Random(seed)` a game (`hkk._game`) and
//! the random agent's draws on it (`hkk._agents.RandomAgent`), so the same seed gives the same
//! game on both cores only if every draw here is CPython's.

const N: usize = 624;
const M: usize = 397;
const MATRIX_A: u32 = 0x9908_b0df;
const UPPER_MASK: u32 = 0x8000_0000;
const LOWER_MASK: u32 = 0x7fff_ffff;

/// MT19937's `init_genrand(s)`: the state every `init_by_array` starts from (with s = 19650218).
const fn init_genrand(s: u32) -> [u32; N] {
    let mut mt = [0u32; N];
    mt[0] = s;
    let mut i = 1;
    while i < N {
        mt[i] = 1_812_433_253u32
            .wrapping_mul(mt[i - 1] ^ (mt[i - 1] >> 30))
            .wrapping_add(i as u32);
        i += 1;
    }
    mt
}

const GENRAND_19650218: [u32; N] = init_genrand(19_650_218);

use std::sync::{Arc, OnceLock};

/// `Random::index` of a generator not seeded yet (`Random::lazy`): its first draw seeds it.
const UNSEEDED: usize = usize::MAX;

/// The state a generator not seeded yet points at (never read: shared, not allocated each).
fn unseeded_state() -> Arc<Words> {
    static STATE: OnceLock<Arc<Words>> = OnceLock::new();
    STATE
        .get_or_init(|| {
            Arc::new(Words {
                mt: [0; N],
                out: [0; N],
            })
        })
        .clone()
}

/// The 624 words of the state and their outputs: each word tempered as `genrand_uint32`
/// tempers it where the words are made (a twist's block, a state set), in a loop the
/// compiler vectorizes; a draw then only reads its output (a draw's tempering was most of it).
#[derive(Clone)]
struct Words {
    mt: [u32; N],
    /// `temper(mt[i])` for every i below `Random::fresh` (all of them once a state set made
    /// them; not read before, when the index is N).
    out: [u32; N],
}

impl Words {
    /// A new state as `init_by_array` starts it: `init_genrand(19650218)`, which does not
    /// depend on the seed (computed once, at compile time, and copied straight into the
    /// state's own allocation). The outputs are made by the first draw's twist (the index is
    /// N): until then any words, these copied with the state's in one go rather than zeroed
    /// apart.
    fn unmixed() -> Arc<Words> {
        Arc::new(Words {
            mt: GENRAND_19650218,
            out: GENRAND_19650218,
        })
    }

    fn temper_all(&mut self) {
        for (out, &word) in self.out.iter_mut().zip(&self.mt) {
            *out = temper(word);
        }
    }
}

/// `genrand_uint32`'s tempering of a state word.
#[inline]
fn temper(mut y: u32) -> u32 {
    y ^= y >> 11;
    y ^= (y << 7) & 0x9d2c_5680;
    y ^= (y << 15) & 0xefc6_0000;
    y ^ (y >> 18)
}

/// Why a draw could not be made (CPython raises `ValueError` for the same arguments).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RangeError(pub String);

impl std::fmt::Display for RangeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for RangeError {}

/// One `random.Random`: the 624-word state and the index of the next word. The state is
/// shared copy-on-write: a draw only reads it and the twist (once every 624 words) writes it,
/// so a copy of a game (`clone()`, a checkpoint, its restoring) copies a pointer, not 2.5 KiB,
/// and a game keeps its generators out of line (a smaller `Game` to move and zero).
/// A generator made by [`Random::lazy`] is seeded at its first draw (or read of its state):
/// the same words as seeding it at once, but a determinized copy's generator, which a game
/// draws from only at its set-up, is never seeded after it (the seeding is `init_by_array`'s
/// 1,247 dependent steps: most of a determinize).
#[derive(Clone)]
pub struct Random {
    mt: Arc<Words>,
    index: usize,
    /// The words of the current generation twisted so far (and their outputs made): the twist
    /// is made a block at a time as the draws reach it ([`Random::refill`]), not all 624
    /// words at once, so a generator that a game leaves with most of a generation undrawn
    /// (a game's own after its set-up's shuffles, each agent's last) never twists those.
    /// N where the whole generation is made (a seeding, a state set).
    fresh: usize,
    /// The seed of a generator not seeded yet (`index` is then `UNSEEDED`).
    seed: u64,
}

impl PartialEq for Random {
    fn eq(&self, other: &Self) -> bool {
        // a generator not seeded yet is the one its seed makes
        match (self.index == UNSEEDED, other.index == UNSEEDED) {
            // the states as `getstate` reads them: a generation twisted to its end
            (false, false) => self.index == other.index && self.twisted().mt == other.twisted().mt,
            (true, true) => self.seed == other.seed,
            (true, false) => Random::new(self.seed) == *other,
            (false, true) => *self == Random::new(other.seed),
        }
    }
}

impl Eq for Random {}

impl std::fmt::Debug for Random {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Random {{ index: {}, mt[0..2]: {:?} }}",
            self.index,
            &self.mt.mt[..2]
        )
    }
}

impl Random {
    /// `random.Random(seed)` for an int seed whose absolute value fits 64 bits.
    pub fn new(seed: u64) -> Self {
        // the key on the stack, not `key_of`'s Vec (a seeding was an allocation and its free)
        let key = [seed as u32, (seed >> 32) as u32];
        Self::from_key(if key[1] == 0 { &key[..1] } else { &key })
    }

    /// [`Random::new`], seeded when first drawn from (or its state read): the same draws.
    pub fn lazy(seed: u64) -> Self {
        Random {
            mt: unseeded_state(),
            index: UNSEEDED,
            fresh: N,
            seed,
        }
    }

    /// `random.Random(seed)` for any int seed, given the absolute value's 32-bit words, least
    /// significant first (CPython seeds with `abs(seed)`; zero is the one word `[0]`).
    pub fn from_key(key: &[u32]) -> Self {
        let mut state = Words::unmixed();
        let mt = &mut Arc::get_mut(&mut state)
            .expect("a new state is not shared")
            .mt;
        match short_adds(key) {
            Some(adds) => seed_short([mt], [adds]),
            None => seed_long(mt, key),
        }
        Random::seeded(state)
    }

    /// [`Random::from_key`], and the two generators of `beside` seeded with it if neither is
    /// yet ([`Random::lazy`]: a game's random seats, which would be at their first draws). The
    /// three seedings' steps go side by side: each of `init_by_array`'s 1,247 steps waits on
    /// the multiply of the step before, so one seeding leaves the processor mostly idle, and
    /// three in one loop take little longer than one. The same states as apart.
    pub fn from_key_beside(key: &[u32], beside: [&mut Random; 2]) -> Self {
        let [a, b] = beside;
        let both_lazy = a.index == UNSEEDED && b.index == UNSEEDED;
        let (Some(adds), true) = (short_adds(key), both_lazy) else {
            return Random::from_key(key);
        };
        let mut states = [Words::unmixed(), Words::unmixed(), Words::unmixed()];
        let [mine, theirs_a, theirs_b] = &mut states;
        let mts = [mine, theirs_a, theirs_b]
            .map(|state| &mut Arc::get_mut(state).expect("a new state is not shared").mt);
        seed_short(mts, [adds, seed_adds(a.seed), seed_adds(b.seed)]);
        let [mine, theirs_a, theirs_b] = states;
        *a = Random::seeded(theirs_a);
        *b = Random::seeded(theirs_b);
        Random::seeded(mine)
    }

    /// A generator of a state `init_by_array` has just mixed (mt[0] still its last word).
    fn seeded(mut state: Arc<Words>) -> Self {
        let mt = &mut Arc::get_mut(&mut state)
            .expect("a new state is not shared")
            .mt;
        mt[0] = 0x8000_0000; // MSB is 1, assuring a non-zero initial array
        Random {
            mt: state,
            index: N,
            fresh: N,
            seed: 0,
        }
    }

    /// The state as `getstate()[1]` holds it: 624 words, then the index.
    pub fn state(&self) -> Vec<u32> {
        if self.index == UNSEEDED {
            return Random::new(self.seed).state();
        }
        let mut words = self.twisted().mt.to_vec();
        words.push(self.index as u32);
        words
    }

    /// `setstate((3, words, None))`: 624 words and an index of at most 624.
    pub fn from_state(words: &[u32]) -> Result<Self, RangeError> {
        if words.len() != N + 1 || words[N] as usize > N {
            return Err(RangeError(
                "state vector is the wrong size or its index is out of range".into(),
            ));
        }
        let mut state = Words {
            mt: [0; N],
            out: [0; N],
        };
        state.mt.copy_from_slice(&words[..N]);
        state.temper_all();
        Ok(Random {
            mt: Arc::new(state),
            index: words[N] as usize,
            fresh: N,
            seed: 0,
        })
    }

    /// The state with the current generation twisted to its end, as CPython's twist (all 624
    /// words at once) leaves it: what `getstate` reads and states are compared by.
    fn twisted(&self) -> std::borrow::Cow<'_, Words> {
        if self.fresh >= N {
            return std::borrow::Cow::Borrowed(&*self.mt);
        }
        let mut words = (*self.mt).clone();
        twist_words(&mut words.mt, self.fresh, N);
        std::borrow::Cow::Owned(words)
    }

    /// The next block of the current generation's words twisted and their outputs made, or a
    /// new generation begun once its 624 are drawn (a generator not seeded yet is seeded
    /// first). Out of line: once every `BLOCK` words, the draws are inlined.
    #[inline(never)]
    fn refill(&mut self) {
        if self.index == UNSEEDED {
            *self = Random::new(self.seed); // seeded at its first draw (`lazy`)
        }
        if self.index >= N {
            (self.index, self.fresh) = (0, 0);
        }
        let (start, end) = (self.fresh, (self.fresh + BLOCK).min(N));
        // the one write: a state shared with a copy is copied here, not at the copy
        let words = Arc::make_mut(&mut self.mt);
        twist_words(&mut words.mt, start, end);
        for (out, &word) in words.out[start..end].iter_mut().zip(&words.mt[start..end]) {
            *out = temper(word);
        }
        self.fresh = end;
    }

    /// The next 32-bit output (`genrand_uint32`), tempered at the twist; inlined where drawn
    /// (a call's entry and exit were a fifth of a draw).
    #[inline]
    pub fn next_u32(&mut self) -> u32 {
        if self.index >= self.fresh {
            self.refill();
        }
        let y = self.mt.out[self.index];
        self.index += 1;
        y
    }

    /// `random()`: a float in [0, 1) from 53 bits of two outputs.
    pub fn random(&mut self) -> f64 {
        let a = self.next_u32() >> 5;
        let b = self.next_u32() >> 6;
        (a as f64 * 67_108_864.0 + b as f64) * (1.0 / 9_007_199_254_740_992.0)
    }

    /// `getrandbits(k)` for k up to 64: words least significant first, the last one cut to
    /// what is left of k (CPython fills its int's words the same way).
    pub fn getrandbits(&mut self, k: u32) -> u64 {
        assert!(k <= 64, "getrandbits: at most 64 bits here, {k} asked");
        if k == 0 {
            return 0;
        }
        if k <= 32 {
            return u64::from(self.next_u32() >> (32 - k));
        }
        let low = u64::from(self.next_u32());
        let high = u64::from(self.next_u32() >> (64 - k));
        low | (high << 32)
    }

    /// `_randbelow(n)` (`_randbelow_with_getrandbits`): draw `n.bit_length()` bits until the
    /// value is below n.
    #[inline]
    pub fn randbelow(&mut self, n: u64) -> u64 {
        assert!(n > 0, "randbelow: n must be positive");
        let k = 64 - n.leading_zeros();
        if k <= 32 {
            // `getrandbits(k)` of one word, its top k bits, drawn here without a call (an
            // agent's every choice is one or two of these)
            let shift = 32 - k;
            loop {
                let r = u64::from(self.next_u32() >> shift);
                if r < n {
                    return r;
                }
            }
        }
        loop {
            let r = self.getrandbits(k);
            if r < n {
                return r;
            }
        }
    }

    /// `randrange(start, stop, step)` with `random.py`'s checks and arithmetic.
    pub fn randrange(&mut self, start: i64, stop: i64, step: i64) -> Result<i64, RangeError> {
        let width = i128::from(stop) - i128::from(start);
        let step128 = i128::from(step);
        let n = match step.cmp(&0) {
            std::cmp::Ordering::Greater => floor_div(width + step128 - 1, step128),
            std::cmp::Ordering::Less => floor_div(width + step128 + 1, step128),
            std::cmp::Ordering::Equal => {
                return Err(RangeError("zero step for randrange()".into()))
            }
        };
        if n <= 0 {
            return Err(RangeError(format!(
                "empty range in randrange({start}, {stop}, {step})"
            )));
        }
        let n = u64::try_from(n).map_err(|_| RangeError("range too wide".into()))?;
        let drawn = i128::from(self.randbelow(n));
        Ok((i128::from(start) + step128 * drawn) as i64)
    }

    /// `randrange(n)`: `_randbelow(n)` for n > 0.
    #[inline]
    pub fn below(&mut self, n: usize) -> usize {
        self.randbelow(n as u64) as usize
    }

    /// `shuffle(x)`: Fisher-Yates from the end, as `random.py` does it.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i + 1);
            items.swap(i, j);
        }
    }
}

/// The words a generation twists at a time ([`Random::refill`]): a few blocks' set-up
/// against at most a block twisted and not drawn.
const BLOCK: usize = 48;

/// `genrand_uint32`'s twist of the words `start..end` of a generation whose words below
/// `start` are twisted already: each new word reads the old word at its index and the next,
/// and the word M on (old below N - M, new from there on: wrapped below the index), so
/// twisting in order, in blocks, makes CPython's words. Its three loops, each index read
/// without a remainder.
fn twist_words(mt: &mut [u32; N], start: usize, end: usize) {
    for kk in start..end.min(N - M) {
        mt[kk] = mt[kk + M] ^ mix(mt[kk], mt[kk + 1]);
    }
    for kk in start.max(N - M)..end.min(N - 1) {
        mt[kk] = mt[kk + M - N] ^ mix(mt[kk], mt[kk + 1]);
    }
    if end == N {
        mt[N - 1] = mt[M - 1] ^ mix(mt[N - 1], mt[0]);
    }
}

/// A twist's step: the upper bit of one word and the lower bits of the next, shifted, with
/// the matrix added where its lowest bit is 1.
fn mix(word: u32, next: u32) -> u32 {
    let y = (word & UPPER_MASK) | (next & LOWER_MASK);
    (y >> 1) ^ ((y & 1).wrapping_neg() & MATRIX_A)
}

/// `init_by_array` for a key of any length (here one of more than two words: a Python seed
/// of more than 64 bits): its two loops,
/// each word mixed with the one written before it (`last`, kept at hand), in runs that end
/// where the index wraps (after index N - 1 comes index 1, with mt[0] its copy): no index
/// checked inside a run. mt[0] is left to the caller.
fn seed_long(mt: &mut [u32; N], key: &[u32]) {
    let mut last = mt[0];
    let mut i = 1;
    let mut j = 0;
    let mut left = N.max(key.len());
    while left > 0 {
        let run = left.min(N - i);
        for slot in &mut mt[i..i + run] {
            last = (*slot ^ (last ^ (last >> 30)).wrapping_mul(1_664_525))
                .wrapping_add(key[j])
                .wrapping_add(j as u32);
            *slot = last;
            j += 1;
            if j == key.len() {
                j = 0;
            }
        }
        (i, left) = (i + run, left - run);
        if i == N {
            mt[0] = last;
            i = 1;
        }
    }
    let mut left = N - 1;
    while left > 0 {
        let run = left.min(N - i);
        for (slot, at) in mt[i..i + run].iter_mut().zip(i as u32..) {
            last = (*slot ^ (last ^ (last >> 30)).wrapping_mul(1_566_083_941)).wrapping_sub(at);
            *slot = last;
        }
        (i, left) = (i + run, left - run);
        if i == N {
            mt[0] = last;
            i = 1;
        }
    }
}

/// `init_by_array`'s addends for a key of one or two words (`key[j] + j`, by the step's
/// parity; one word's twice; no word is zero's key, `[0]`): a seed below 2**64, which
/// [`seed_short`] mixes in. None for a longer key ([`seed_long`]).
fn short_adds(key: &[u32]) -> Option<[u32; 2]> {
    match *key {
        [] => Some([0, 0]),
        [word] => Some([word, word]),
        [low, high] => Some([low, high.wrapping_add(1)]),
        _ => None,
    }
}

/// [`short_adds`] of `random.Random(seed)`'s key (one word below 2**32: [`Random::new`]).
fn seed_adds(seed: u64) -> [u32; 2] {
    let (low, high) = (seed as u32, (seed >> 32) as u32);
    if high == 0 {
        [low, low]
    } else {
        [low, high.wrapping_add(1)]
    }
}

/// `init_by_array` for keys of one or two words (`adds` their [`short_adds`]) of K states at
/// once, each state's steps one after the other (each reads the word written before it) and
/// the K states' side by side; mt[0] left to the caller. The first loop's 624 steps write
/// indices 1 to 623 and, wrapped, 1 again; the second's 623 steps 2 to 623 and 1 again;
/// mt[0]'s copies of the last word are not written (only the final word 0 is read, and it is
/// set).
fn seed_short<const K: usize>(mut mts: [&mut [u32; N]; K], adds: [[u32; 2]; K]) {
    #[inline(always)]
    fn first(slot: &mut u32, last: &mut u32, add: u32) {
        *last = (*slot ^ (*last ^ (*last >> 30)).wrapping_mul(1_664_525)).wrapping_add(add);
        *slot = *last;
    }
    #[inline(always)]
    fn second(slot: &mut u32, last: &mut u32, at: u32) {
        *last = (*slot ^ (*last ^ (*last >> 30)).wrapping_mul(1_566_083_941)).wrapping_sub(at);
        *slot = *last;
    }
    let mut lasts: [u32; K] = std::array::from_fn(|k| mts[k][0]);
    // one step of each state at index i (the index read by every state's step alike)
    let mut firsts = |i: usize, parity: usize| {
        for ((mt, last), add) in mts.iter_mut().zip(&mut lasts).zip(&adds) {
            first(&mut mt[i], last, add[parity]);
        }
    };
    // steps 0..622 at indices 1..623 in runs of four (index i is step i - 1, its addend
    // adds[(i - 1) & 1]: a run starts at an odd index), then step 623 wrapped to index 1
    for run in 0..(N - 1) / 4 {
        let i = 1 + 4 * run;
        for (at, parity) in [(i, 0), (i + 1, 1), (i + 2, 0), (i + 3, 1)] {
            firsts(at, parity);
        }
    }
    for (at, parity) in [(N - 3, 0), (N - 2, 1), (N - 1, 0), (1, (N - 1) & 1)] {
        firsts(at, parity);
    }
    let mut seconds = |i: usize| {
        for (mt, last) in mts.iter_mut().zip(&mut lasts) {
            second(&mut mt[i], last, i as u32);
        }
    };
    // steps at indices 2..623 in runs of four, then the last wrapped to index 1
    for run in 0..(N - 2) / 4 {
        let i = 2 + 4 * run;
        for at in [i, i + 1, i + 2, i + 3] {
            seconds(at);
        }
    }
    for at in [N - 2, N - 1, 1] {
        seconds(at);
    }
}

/// Python's `//` (floor division; Rust's `/` truncates toward zero).
fn floor_div(a: i128, b: i128) -> i128 {
    let q = a / b;
    if (a % b != 0) && ((a < 0) != (b < 0)) {
        q - 1
    } else {
        q
    }
}

/// The 32-bit words of a seed's absolute value, least significant first (`[0]` for zero).
pub fn key_of(seed: u64) -> Vec<u32> {
    let low = seed as u32;
    let high = (seed >> 32) as u32;
    if high == 0 {
        vec![low]
    } else {
        vec![low, high]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // Vectors printed by CPython 3.11 (`random.Random(seed)`), the reference.
    #[test]
    fn first_outputs_of_seed_0_are_cpythons() {
        let mut r = Random::new(0);
        assert_eq!(r.getrandbits(32), 3_626_764_237);
        assert_eq!(r.getrandbits(32), 1_654_615_998);
        let mut r = Random::new(0);
        assert_eq!(r.random(), 0.844_421_851_525_048_1);
        assert_eq!(r.random(), 0.757_954_402_940_302_5);
    }

    #[test]
    fn seed_42_random_is_cpythons() {
        let mut r = Random::new(42);
        assert_eq!(r.random(), 0.639_426_798_457_883_7);
        assert_eq!(r.random(), 0.025_010_755_222_666_936);
    }

    #[test]
    fn shuffle_and_randrange_follow_cpython() {
        let mut r = Random::new(1);
        let mut xs: Vec<u32> = (0..10).collect();
        r.shuffle(&mut xs);
        assert_eq!(xs, vec![6, 8, 9, 7, 5, 3, 0, 4, 1, 2]);
        let mut r = Random::new(7);
        let drawn: Vec<i64> = (0..5).map(|_| r.randrange(0, 100, 1).unwrap()).collect();
        assert_eq!(drawn, vec![41, 19, 50, 83, 6]);
    }

    #[test]
    fn a_big_seed_uses_both_words() {
        let mut r = Random::new(u64::MAX);
        assert_eq!(r.getrandbits(64), 0x3faf_f328_0596_5e7e);
    }

    #[test]
    fn a_negative_seed_is_its_absolute_value_and_wide_draws_split_words() {
        // random.Random(-5).getrandbits(40), then (33)
        let mut r = Random::new(5);
        assert_eq!(r.getrandbits(40), 281_848_216_645);
        assert_eq!(r.getrandbits(33), 3_185_950_873);
    }

    #[test]
    fn randbelow_draws_as_getrandbits_until_below() {
        // `_randbelow_with_getrandbits`, the reference the one-word path is checked against
        for n in [
            1u64,
            2,
            3,
            5,
            7,
            100,
            1 << 31,
            (1 << 32) - 1,
            1 << 32,
            (1 << 33) + 5,
        ] {
            let (mut fast, mut reference) = (Random::new(n), Random::new(n));
            let k = 64 - n.leading_zeros();
            for _ in 0..200 {
                let expected = loop {
                    let r = reference.getrandbits(k);
                    if r < n {
                        break r;
                    }
                };
                assert_eq!(fast.randbelow(n), expected, "n = {n}");
            }
            assert_eq!(fast, reference, "n = {n}");
        }
    }

    #[test]
    fn randrange_refuses_empty_and_zero_step() {
        let mut r = Random::new(3);
        assert!(r.randrange(5, 5, 1).is_err());
        assert!(r.randrange(0, 5, 0).is_err());
        assert!(
            r.randrange(0, 0, -2).is_err(),
            "Python: (0 - 2 + 1) // -2 == 0"
        );
        let drawn: Vec<i64> = (0..6).map(|_| r.randrange(10, 0, -3).unwrap()).collect();
        assert_eq!(drawn, vec![7, 7, 4, 1, 10, 10]);
    }

    /// `init_by_array` as `_randommodule.c` writes it, index by index: the reference the
    /// seeding's runs are checked against.
    fn init_by_array(key: &[u32]) -> [u32; N] {
        let mut mt = GENRAND_19650218;
        let (mut i, mut j) = (1, 0);
        for _ in 0..N.max(key.len()) {
            mt[i] = (mt[i] ^ (mt[i - 1] ^ (mt[i - 1] >> 30)).wrapping_mul(1_664_525))
                .wrapping_add(key[j])
                .wrapping_add(j as u32);
            i += 1;
            j += 1;
            if i >= N {
                mt[0] = mt[N - 1];
                i = 1;
            }
            if j >= key.len() {
                j = 0;
            }
        }
        for _ in 0..N - 1 {
            mt[i] = (mt[i] ^ (mt[i - 1] ^ (mt[i - 1] >> 30)).wrapping_mul(1_566_083_941))
                .wrapping_sub(i as u32);
            i += 1;
            if i >= N {
                mt[0] = mt[N - 1];
                i = 1;
            }
        }
        mt[0] = 0x8000_0000;
        mt
    }

    #[test]
    fn seeding_by_runs_is_init_by_array_for_keys_shorter_and_longer_than_the_state() {
        for len in [1, 2, 3, 623, 624, 625, 1300] {
            let key: Vec<u32> = (0..len as u32)
                .map(|n| n.wrapping_mul(2_654_435_761) ^ 0x5bd1_e995)
                .collect();
            assert_eq!(
                Random::from_key(&key).mt.mt,
                init_by_array(&key),
                "key of {len}"
            );
        }
    }

    #[test]
    fn a_lazy_generator_draws_and_reads_as_one_seeded_at_once() {
        for seed in [0, 7, u64::MAX] {
            let mut eager = Random::new(seed);
            let mut lazy = Random::lazy(seed);
            assert_eq!(lazy, eager);
            assert_eq!(lazy.state(), eager.state());
            assert_eq!(lazy.clone().getrandbits(64), eager.clone().getrandbits(64));
            for _ in 0..700 {
                assert_eq!(lazy.next_u32(), eager.next_u32());
            }
            assert_eq!(lazy, eager);
        }
    }

    #[test]
    fn three_seeded_side_by_side_are_init_by_array_of_each_key() {
        // one- and two-word keys, zero among them, in every place of the three
        let seeds = [
            0,
            1,
            5,
            u64::from(u32::MAX),
            1 << 32,
            u64::MAX,
            2_654_435_761 << 7,
        ];
        for (at, &game) in seeds.iter().enumerate() {
            let (a, b) = (seeds[(at + 1) % seeds.len()], seeds[(at + 3) % seeds.len()]);
            let key = key_of(game);
            let (mut seat_a, mut seat_b) = (Random::lazy(a), Random::lazy(b));
            let mine = Random::from_key_beside(&key, [&mut seat_a, &mut seat_b]);
            assert_eq!(mine.mt.mt, init_by_array(&key), "game seed {game}");
            assert_eq!(seat_a.mt.mt, init_by_array(&key_of(a)), "seat seed {a}");
            assert_eq!(seat_b.mt.mt, init_by_array(&key_of(b)), "seat seed {b}");
            assert_eq!(seat_a.next_u32(), Random::new(a).next_u32());
        }
    }

    #[test]
    fn a_seat_seeded_already_is_left_as_it_is_beside_the_games_seeding() {
        let mut drawn = Random::new(9);
        drawn.next_u32();
        let before = drawn.state();
        let mut lazy = Random::lazy(4);
        let mine = Random::from_key_beside(&[3], [&mut drawn, &mut lazy]);
        assert_eq!(mine, Random::new(3));
        assert_eq!(drawn.state(), before);
        // the lazy one is still seeded at its first draw
        assert_eq!(lazy.index, UNSEEDED);
        // a key longer than two words seeds the game's alone
        let mut lazy_b = Random::lazy(6);
        let long = [1, 2, 3];
        let mine = Random::from_key_beside(&long, [&mut lazy, &mut lazy_b]);
        assert_eq!(mine.mt.mt, init_by_array(&long));
        assert_eq!((lazy.index, lazy_b.index), (UNSEEDED, UNSEEDED));
    }

    #[test]
    fn an_empty_key_seeds_as_zero_alone_and_beside_two_seats() {
        assert_eq!(Random::from_key(&[]), Random::new(0));
        let (mut a, mut b) = (Random::lazy(5), Random::lazy(8));
        assert_eq!(
            Random::from_key_beside(&[], [&mut a, &mut b]),
            Random::new(0)
        );
        assert_eq!((a, b), (Random::new(5), Random::new(8)));
    }

    #[test]
    fn a_generator_from_a_state_mid_block_draws_on_as_the_original() {
        // its outputs are tempered when the state is set, the original's at its twist
        let mut r = Random::new(12);
        for _ in 0..100 {
            r.next_u32();
        }
        let mut copy = Random::from_state(&r.state()).unwrap();
        for _ in 0..1300 {
            assert_eq!(copy.next_u32(), r.next_u32());
        }
    }

    /// CPython's `genrand_uint32`, its whole generation twisted at once: the reference the
    /// twist in blocks is checked against.
    fn reference_draws(seed: u64, draws: usize) -> (Vec<u32>, Vec<u32>) {
        let mut mt = init_by_array(&key_of(seed));
        let (mut index, mut out) = (N, Vec::new());
        for _ in 0..draws {
            if index >= N {
                twist_words(&mut mt, 0, N);
                index = 0;
            }
            out.push(temper(mt[index]));
            index += 1;
        }
        let mut state = mt.to_vec();
        state.push(index as u32);
        (out, state)
    }

    #[test]
    fn twisting_in_blocks_draws_and_reads_as_twisting_at_once() {
        for draws in [
            0,
            1,
            BLOCK - 1,
            BLOCK,
            300,
            N - 1,
            N,
            N + 1,
            2 * N + 5,
            3000,
        ] {
            let (expected, state) = reference_draws(4, draws);
            let mut r = Random::new(4);
            let drawn: Vec<u32> = (0..draws).map(|_| r.next_u32()).collect();
            assert_eq!(drawn, expected, "{draws} draws");
            assert_eq!(r.state(), state, "{draws} draws");
            assert_eq!(Random::from_state(&state).unwrap(), r, "{draws} draws");
            let mut copy = r.clone();
            let mut set = Random::from_state(&r.state()).unwrap();
            for _ in 0..N + 3 {
                assert_eq!(copy.next_u32(), set.next_u32(), "{draws} draws");
            }
        }
    }

    #[test]
    fn two_thousand_words_across_three_generations_are_cpythons() {
        // python3 -c 'import random; r = random.Random(seed); w = [r.getrandbits(32) for _ in
        // range(2000)]', these indices, `x = (x * 31 + v) % 2**32` over all of w, and
        // r.getstate()[1]'s first three words and last two (the index last)
        // seed, the words at the indices, the fold, the state's head and tail
        type Case = (u64, [u32; 11], u32, [u32; 3], [u32; 2]);
        let cases: [Case; 3] = [
            (
                123_456_789,
                [
                    2_754_794_679,
                    1_899_526_012,
                    934_610_898,
                    1_090_404_033,
                    467_965_408,
                    1_382_670_466,
                    2_542_043_110,
                    483_830_225,
                    3_856_586_854,
                    1_681_727_848,
                    658_511_139,
                ],
                1_512_447_397,
                [2_006_930_866, 3_231_003_378, 2_602_051_615],
                [4_150_881_384, 128],
            ),
            (
                (1 << 40) + 3,
                [
                    943_978_446,
                    261_273_136,
                    2_497_289_239,
                    1_817_000_265,
                    503_032_988,
                    1_426_647_003,
                    1_872_532_436,
                    2_640_998_919,
                    2_329_590_569,
                    2_619_660_959,
                    1_104_738_298,
                ],
                636_589_747,
                [2_054_620_281, 3_348_818_516, 3_873_168_330],
                [3_000_117_932, 128],
            ),
            (
                u64::MAX,
                [
                    93_740_670,
                    1_068_495_656,
                    3_637_181_817,
                    3_886_738_724,
                    4_095_402_513,
                    1_204_910_894,
                    2_799_746_052,
                    3_597_309_115,
                    1_341_629_042,
                    641_403_452,
                    4_117_718_281,
                ],
                3_480_981_003,
                [3_344_594_095, 3_873_600_964, 1_398_940_730],
                [1_134_242_114, 128],
            ),
        ];
        for (seed, at, hash, head, tail) in cases {
            for mut r in [Random::new(seed), Random::lazy(seed)] {
                let words: Vec<u32> = (0..2000).map(|_| r.next_u32()).collect();
                let picked =
                    [0, 1, 226, 227, 228, 622, 623, 624, 1247, 1248, 1999].map(|i| words[i]);
                assert_eq!(picked, at, "seed {seed}");
                let folded = words
                    .iter()
                    .fold(0u32, |x, &v| x.wrapping_mul(31).wrapping_add(v));
                assert_eq!(folded, hash, "seed {seed}");
                let state = r.state();
                assert_eq!(state[..3], head, "seed {seed}");
                assert_eq!(state[N - 1..], tail, "seed {seed}");
            }
        }
    }

    #[test]
    fn state_round_trips() {
        let mut r = Random::new(9);
        r.random();
        let copy = Random::from_state(&r.state()).unwrap();
        assert_eq!(copy, r);
        assert!(Random::from_state(&[0; 3]).is_err());
    }
}
