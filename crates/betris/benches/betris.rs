//! Speed of the rules and the built-in agents (`cargo bench -p versus-betris`).

use divan::{black_box, Bencher};
use versus_betris::rules::{Block, Board, Params, Placement, State};
use versus_betris::GAME;
use versus_core::conformance::{config, play_builtin};
use versus_core::{BySide, Game, Side};

fn main() {
    divan::main();
}

/// A board with about half of its cells filled, in scattered blocks.
fn half_full() -> Board {
    "##..#../##..#../....###/##...../##..##./....##./#......".parse().expect("a valid board")
}

#[divan::bench(args = [Block::I1, Block::L4, Block::P5, Block::X5])]
fn placements_on_half_full_board(block: Block) -> usize {
    black_box(half_full()).placements(block).count()
}

#[divan::bench]
fn placements_of_all_blocks_on_empty_board() -> usize {
    let empty = black_box(Board::empty(7));
    Block::ALL.iter().map(|&b| empty.placements(b).count()).sum()
}

#[divan::bench]
fn score_points(bencher: Bencher) {
    let board = half_full();
    bencher.bench(|| black_box(board).points());
}

#[divan::bench]
fn check_placement(bencher: Bencher) {
    let state = State::new(Params::LARGE);
    let placement = Placement { cells: vec![(4, 3), (3, 4), (4, 4), (4, 5), (5, 4)] };
    bencher.bench(|| state.check_placement(Side::First, Block::X5, black_box(&placement)).is_ok());
}

/// One greedy decision pair: a bet on two 5-cell blocks, then a placement.
#[divan::bench(args = ["greedy", "random"])]
fn agent_round(bencher: Bencher, name: &str) {
    bencher
        .with_inputs(|| {
            let mut agent = GAME.agent(name, 1).expect("a built-in agent");
            agent.respond("READY").expect("READY");
            agent
        })
        .bench_local_values(|mut agent| {
            agent.respond("PHASE1 P5 Y5 10000 10000").expect("PHASE1");
            agent.respond("PHASE2 P5 24 24 9999 9999").expect("PHASE2")
        });
}

/// A whole game, greedy against greedy, through the referee.
#[divan::bench]
fn whole_game_greedy_vs_greedy() -> f64 {
    let (outcome, _) = play_builtin(&GAME, &config(7), BySide::new(("greedy", 1), ("greedy", 2)));
    outcome.scores.first
}
