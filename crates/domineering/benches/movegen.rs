//! Move generation speed over positions from random play, in positions per
//! second (divan's `item/s`): `cargo bench -p versus-domineering --bench movegen`.

use divan::counter::ItemsCount;
use divan::{black_box, Bencher};
use versus_core::{GameRng, Side};
use versus_domineering::agents::{choose, Policy};
use versus_domineering::rules::{Move, State, Values};

fn main() {
    divan::main();
}

const POSITIONS: usize = 4096;

/// Positions at every stage of the game: random placements, no passes.
fn positions() -> Vec<State> {
    let mut rng = GameRng::new(2024);
    (0..POSITIONS)
        .map(|_| {
            let mut state = State::new(Values::random(&mut rng));
            let plies = rng.below(40);
            for _ in 0..plies {
                match choose(Policy::Random, &state, &mut rng) {
                    Move::Pass => break,
                    mv => state.play_unchecked(mv),
                }
            }
            state
        })
        .collect()
}

/// The number of placements of the side to move (the bitboard mask and a popcount).
#[divan::bench]
fn placement_count(bencher: Bencher) {
    let states = positions();
    bencher.counter(ItemsCount::new(states.len())).bench(|| {
        black_box(&states).iter().map(|s| s.placements(s.side_to_move()).count_ones()).sum::<u32>()
    });
}

/// Both sides' placement masks and the game-over test.
#[divan::bench]
fn both_masks_and_over(bencher: Bencher) {
    let states = positions();
    bencher.counter(ItemsCount::new(states.len())).bench(|| {
        black_box(&states)
            .iter()
            .map(|s| {
                let over = u32::from(s.is_over());
                (s.placements(Side::First) ^ s.placements(Side::Second)).count_ones() + over
            })
            .sum::<u32>()
    });
}

/// The full `legal_moves` list (a `Vec` per position).
#[divan::bench]
fn legal_moves_vec(bencher: Bencher) {
    let states = positions();
    bencher
        .counter(ItemsCount::new(states.len()))
        .bench(|| black_box(&states).iter().map(|s| s.legal_moves().len()).sum::<usize>());
}

/// Placements bucketed by value (what a greedy or ordering search needs).
#[divan::bench]
fn placements_by_value(bencher: Bencher) {
    let states = positions();
    bencher.counter(ItemsCount::new(states.len())).bench(|| {
        black_box(&states)
            .iter()
            .map(|s| s.placements_by_value(s.side_to_move())[6].count_ones())
            .sum::<u32>()
    });
}

/// Whole games of uniform random placements, passing only when stuck.
#[divan::bench]
fn random_playout(bencher: Bencher) {
    let start = State::new(Values::random(&mut GameRng::new(1)));
    let mut rng = GameRng::new(7);
    bencher.counter(ItemsCount::new(1usize)).bench_local(|| {
        let mut state = start;
        while !state.is_over() {
            state.play_unchecked(choose(Policy::Random, &state, &mut rng));
        }
        state.half_points(Side::First)
    });
}
