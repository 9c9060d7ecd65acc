//! The judge's randomness: a portable, documented generator.
//!
//! Every random choice a referee makes (Domineering cell values, Connexion bag
//! orders, Betris block pairs and tie-breaks) comes from [`GameRng`], so the
//! same `u64` seed gives the same game on every machine and in every version
//! that keeps the same `rules_version`.
//!
//! The generator is SplitMix64 (Steele, Lea and Flood, "Fast splittable
//! pseudorandom number generators", OOPSLA 2014): a 64-bit state advanced by
//! the constant `0x9E3779B97F4A7C15`, each output the state passed through the
//! MurmurHash3-style finaliser with multipliers `0xBF58476D1CE4E5B9` and
//! `0x94D049BB133111EB`. A referee that needs independent sequences (Betris's
//! block pairs must not shift when a tie-break is drawn) opens one *stream*
//! per purpose: stream `k` of seed `s` starts from state `mix(s ^ mix(k))`.
//! Bounded integers use rejection sampling so they are exactly uniform.

/// SplitMix64: see the module documentation for the exact definition.
#[derive(Clone, Debug)]
pub struct GameRng {
    state: u64,
}

const GOLDEN_GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;

fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl GameRng {
    /// The generator whose state starts at `seed`.
    #[must_use]
    pub fn new(seed: u64) -> Self {
        GameRng { state: seed }
    }

    /// Stream `stream` of `seed`: independent of the seed's other streams.
    #[must_use]
    pub fn stream(seed: u64, stream: u64) -> Self {
        GameRng { state: mix(seed ^ mix(stream)) }
    }

    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(GOLDEN_GAMMA);
        mix(self.state)
    }

    /// A uniform integer in `0..n`. Panics if `n == 0`.
    ///
    /// Draws are taken from `next_u64` until one falls below the largest
    /// multiple of `n` that fits in `u64`, then reduced modulo `n`.
    pub fn below(&mut self, n: u64) -> u64 {
        assert!(n > 0, "below(0) has no value to return");
        let zone = u64::MAX - (u64::MAX % n + 1) % n;
        loop {
            let x = self.next_u64();
            if x <= zone {
                return x % n;
            }
        }
    }

    /// A fair coin.
    pub fn coin(&mut self) -> bool {
        self.next_u64() >> 63 == 1
    }

    /// Fisher–Yates, from the last element down: element `i` is swapped with
    /// element `below(i + 1)`.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i as u64 + 1) as usize;
            items.swap(i, j);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splitmix64_reference_values() {
        // First outputs of SplitMix64 from state 1234567, as published with
        // the reference implementation (Vigna's splitmix64.c test vector).
        let mut rng = GameRng::new(1_234_567);
        let expected = [
            6_457_827_717_110_365_317,
            3_203_168_211_198_807_973,
            9_817_491_932_198_370_423,
            4_593_380_528_125_082_431,
            16_408_922_859_458_223_821,
        ];
        for value in expected {
            assert_eq!(rng.next_u64(), value);
        }
    }

    #[test]
    fn below_is_in_range_and_covers_it() {
        let mut rng = GameRng::new(7);
        let mut seen = [0u32; 5];
        for _ in 0..5000 {
            seen[rng.below(5) as usize] += 1;
        }
        assert!(seen.iter().all(|&c| c > 800), "{seen:?}");
        assert_eq!(GameRng::new(3).below(1), 0);
    }

    #[test]
    fn streams_differ_and_repeat() {
        let a: Vec<u64> = (0..4).map(|_| GameRng::stream(9, 0).next_u64()).collect();
        assert!(a.windows(2).all(|w| w[0] == w[1]));
        assert_ne!(GameRng::stream(9, 0).next_u64(), GameRng::stream(9, 1).next_u64());
    }

    #[test]
    fn shuffle_is_a_permutation() {
        let mut items: Vec<u32> = (0..32).collect();
        GameRng::new(42).shuffle(&mut items);
        let mut sorted = items.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..32).collect::<Vec<_>>());
        assert_ne!(items, sorted);
    }
}
