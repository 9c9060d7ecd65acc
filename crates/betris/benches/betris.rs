//! Speed of the rules and the built-in agents (`cargo bench -p versus-betris`).

use divan::{black_box, Bencher};
use versus_betris::rules::{Block, Board, Params, Placement, State};
use versus_betris::strong::eval::Weights;
use versus_betris::strong::Planner;
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

/// The value function on a half-full board, six rounds to go.
#[divan::bench]
fn value_function(bencher: Bencher) {
    let planner = Planner::new(&Params::LARGE, Weights::DEFAULT);
    let filled = half_full().filled();
    bencher.bench(|| planner.evaluator.value(black_box(filled), 6));
}

/// One lookahead (every placement of every block valued) on a half-full
/// board and on an empty one.
#[divan::bench(args = ["half-full", "empty"])]
fn lookahead(bencher: Bencher, board: &str) {
    let planner = Planner::new(&Params::LARGE, Weights::DEFAULT);
    let filled = if board == "empty" { 0 } else { half_full().filled() };
    bencher.bench(|| planner.lookahead(black_box(filled), 6));
}

/// The whole search of the first request's hardest case: every distinct
/// placement of a P5 on the empty board ranked by the lookahead.
#[divan::bench(sample_count = 10)]
fn full_search_p5_on_empty_board() -> u64 {
    let planner = Planner::new(&Params::LARGE, Weights::DEFAULT);
    let mut ranking = planner.rank(0, Block::P5, 11);
    let mut work = u64::MAX;
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    planner.improve(&mut ranking, &mut work, deadline);
    u64::MAX - work
}

/// One candidate valued by `strong`'s 64 sampled futures of 3 rounds, on a
/// half-full board with 6 rounds to go and on the empty board with 11.
#[divan::bench(args = ["half-full", "empty"], sample_count = 20)]
fn sampled_futures(bencher: Bencher, board: &str) {
    let planner = Planner::new(&Params::LARGE, Weights::DEFAULT);
    let (filled, rounds) = if board == "empty" { (0, 11) } else { (half_full().filled(), 6) };
    let mut rng = versus_core::GameRng::new(1);
    let futures = versus_betris::strong::sample_futures(&Params::LARGE, rounds, 64, &mut rng);
    let far = std::time::Instant::now() + std::time::Duration::from_secs(3600);
    bencher.bench(|| planner.rollouts(black_box(filled), rounds, &futures, 3, far));
}
