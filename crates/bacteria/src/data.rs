//! Training data for the learned evaluation: self-play positions with their
//! search score and the game's final result (`examples/datagen.rs` writes
//! them, `examples/train.rs` reads them).
//!
//! # The file format
//!
//! A file is a sequence of 24-byte records with no header, all fields
//! little-endian:
//!
//! | bytes | field |
//! |---|---|
//! | 0..8 | `u64`: the first player's (`O`) pieces, bit `row * 7 + col` (0-based) |
//! | 8..16 | `u64`: the second player's (`X`) pieces |
//! | 16..18 | `u16`: turns played (passes included) |
//! | 18..20 | `i16`: the search score for the side to move, hundredths of a piece (±30,000 and beyond ±29,870: a proven result) |
//! | 20 | `u8`: the side to move, 0 first, 1 second |
//! | 21 | `i8`: the game's result for the side to move: 1 won, 0 draw, -1 lost |
//! | 22..24 | zero |

use versus_core::{BySide, GameRng, Side};

use crate::rules::State;
use crate::search::{Limits, Searcher};

/// One training position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sample {
    /// Pieces of the first and the second player.
    pub pieces: [u64; 2],
    pub turns: u16,
    /// The search score, side to move's view.
    pub score: i16,
    /// 0 first player, 1 second.
    pub stm: u8,
    /// The final result, side to move's view: 1, 0 or -1.
    pub result: i8,
}

/// Bytes per record.
pub const RECORD: usize = 24;

impl Sample {
    #[must_use]
    pub fn to_bytes(&self) -> [u8; RECORD] {
        let mut out = [0; RECORD];
        out[0..8].copy_from_slice(&self.pieces[0].to_le_bytes());
        out[8..16].copy_from_slice(&self.pieces[1].to_le_bytes());
        out[16..18].copy_from_slice(&self.turns.to_le_bytes());
        out[18..20].copy_from_slice(&self.score.to_le_bytes());
        out[20] = self.stm;
        out[21] = self.result.to_le_bytes()[0];
        out
    }

    /// The record at the start of `bytes`, `None` if it is short or invalid.
    #[must_use]
    pub fn from_bytes(bytes: &[u8]) -> Option<Sample> {
        let bytes = bytes.get(..RECORD)?;
        let u64_at = |i: usize| u64::from_le_bytes(bytes[i..i + 8].try_into().expect("8 bytes"));
        let sample = Sample {
            pieces: [u64_at(0), u64_at(8)],
            turns: u16::from_le_bytes([bytes[16], bytes[17]]),
            score: i16::from_le_bytes([bytes[18], bytes[19]]),
            stm: bytes[20],
            result: i8::from_le_bytes([bytes[21]]),
        };
        let valid = sample.stm <= 1
            && (-1..=1).contains(&sample.result)
            && sample.state().is_some()
            && bytes[22..24] == [0, 0];
        valid.then_some(sample)
    }

    /// The position.
    #[must_use]
    pub fn state(&self) -> Option<State> {
        let side = if self.stm == 0 { Side::First } else { Side::Second };
        State::from_parts(BySide::new(self.pieces[0], self.pieces[1]), side, self.turns).ok()
    }
}

/// Every record of `bytes` (a whole file), or the index of the first bad one.
pub fn parse_all(bytes: &[u8]) -> Result<Vec<Sample>, usize> {
    if !bytes.len().is_multiple_of(RECORD) {
        return Err(bytes.len() / RECORD);
    }
    bytes.chunks_exact(RECORD).enumerate().map(|(i, r)| Sample::from_bytes(r).ok_or(i)).collect()
}

/// How self-play games are made.
#[derive(Clone, Copy, Debug)]
pub struct SelfPlay {
    /// Nodes per searched move.
    pub nodes: u64,
    /// Uniformly random moves at the start, between these two counts
    /// (inclusive); their positions are not recorded.
    pub random_plies: (u32, u32),
}

/// One self-play game from `seed`: its searched positions, labelled with the
/// final result.
pub fn self_play_game(searcher: &mut Searcher, settings: &SelfPlay, seed: u64) -> Vec<Sample> {
    let mut rng = GameRng::new(seed);
    let (low, high) = settings.random_plies;
    let random = low + rng.below(u64::from(high - low) + 1) as u32;
    let mut state = State::start();
    for _ in 0..random {
        if state.is_over() {
            break;
        }
        let moves = state.legal_moves();
        state.play_unchecked(moves[rng.below(moves.len() as u64) as usize]);
    }
    searcher.clear();
    let mut positions = Vec::new();
    while !state.is_over() {
        let moves = state.legal_moves();
        let mv = if moves.len() == 1 {
            moves[0]
        } else {
            let found =
                searcher.search(&state, Limits { nodes: settings.nodes, ..Limits::depth(100) });
            positions.push((state, found.score.clamp(-32_000, 32_000) as i16));
            found.best
        };
        state.play_unchecked(mv);
    }
    let counts = state.counts();
    let first_result =
        i8::from(counts.first > counts.second) - i8::from(counts.first < counts.second);
    positions
        .into_iter()
        .map(|(s, score)| {
            let stm = s.side_to_move().index() as u8;
            Sample {
                pieces: [s.pieces(Side::First), s.pieces(Side::Second)],
                turns: s.turns(),
                score,
                stm,
                result: if stm == 0 { first_result } else { -first_result },
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::Config;

    #[test]
    fn a_hand_written_record_reads_back() {
        // O on (0,0) and (6,6), X on (0,6); 3 turns; score -250; X to move; X lost.
        let mut bytes = vec![];
        bytes.extend_from_slice(&[1, 0, 0, 0, 0, 0, 1, 0]); // bits 0 and 48
        bytes.extend_from_slice(&[64, 0, 0, 0, 0, 0, 0, 0]); // bit 6
        bytes.extend_from_slice(&[3, 0]);
        bytes.extend_from_slice(&[0x06, 0xFF]); // -250
        bytes.extend_from_slice(&[1, 0xFF, 0, 0]);
        let samples = parse_all(&bytes).unwrap();
        let expected =
            Sample { pieces: [1 | 1 << 48, 1 << 6], turns: 3, score: -250, stm: 1, result: -1 };
        assert_eq!(samples, vec![expected]);
        assert_eq!(expected.to_bytes().to_vec(), bytes);
        assert_eq!(
            expected.state().unwrap().to_string(),
            "O.....X/......./......./......./......./......./......O X 3"
        );
        bytes[20] = 2;
        assert_eq!(parse_all(&bytes), Err(0), "side to move 2");
        assert_eq!(parse_all(&bytes[..23]), Err(0), "short");
    }

    #[test]
    fn self_play_labels_each_side_with_its_own_result() {
        let mut searcher = Searcher::new(Config { table_mb: 1, ..Config::STRONG });
        let settings = SelfPlay { nodes: 300, random_plies: (2, 4) };
        let samples = self_play_game(&mut searcher, &settings, 9);
        assert!(samples.len() > 10);
        for pair in samples.windows(2) {
            if pair[0].stm != pair[1].stm {
                assert_eq!(pair[0].result, -pair[1].result);
            }
        }
        for s in &samples {
            assert_eq!(Sample::from_bytes(&s.to_bytes()), Some(*s));
        }
    }
}
