//! The Betris crate against GAMES.md section 4: block data, transcripts,
//! the auction, every RE reason, the end conditions and the generic suite.

use std::collections::HashSet;
use std::fs;
use std::path::Path;
use std::time::Duration;

use proptest::prelude::*;
use serde_json::{json, Value};
use versus_betris::protocol::{parse_bet, parse_place, AgentLine, JudgeLine, Phase1, Phase2};
use versus_betris::rebuild::{rebuild, Moment};
use versus_betris::referee::{BLOCKS_STREAM, TIES_STREAM};
use versus_betris::rules::{Bet, Block, BlockSet, Board, Offer, Params, Placement, State};
use versus_betris::{BetrisGame, GAME};
use versus_core::conformance::{self, compare_frames, play_builtin, same, same_clocks};
use versus_core::transcript::Transcript;
use versus_core::{
    run_stdio, Action, BySide, ConfigError, Fault, Game, GameConfig, GameResult, GameRng, Outcome,
    RecordLine, Referee, Reply, Side, TimeControl,
};

const SMALL: Params = Params {
    size: 3,
    chips: 3,
    rounds: 4,
    max_bet: 2,
    blocks: BlockSet::of(&[Block::I1, Block::I2, Block::I3, Block::L3]),
};

const MEDIUM: Params = Params {
    size: 5,
    chips: 12,
    rounds: 8,
    max_bet: 3,
    blocks: BlockSet::of(&[
        Block::I1,
        Block::I2,
        Block::I3,
        Block::L3,
        Block::I4,
        Block::L4,
        Block::S4,
        Block::T4,
        Block::O4,
    ]),
};

static SMALL_GAME: BetrisGame = BetrisGame::new("betris-small-test", "Betris 3x3 (test)", SMALL);
static MEDIUM_GAME: BetrisGame = BetrisGame::new("betris-medium-test", "Betris 5x5 (test)", MEDIUM);

fn data_dir() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/tests"))
}

// ---------------------------------------------------------------- blocks

#[test]
fn blocks_match_the_reference_data() {
    let text = fs::read_to_string(data_dir().join("data/betris_blocks.txt")).unwrap();
    let mut seen = Vec::new();
    let mut total_orientations = 0;
    for line in text.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()) {
        let words: Vec<&str> = line.split_whitespace().collect();
        let [name, cells, orientations, placements] = words[..] else {
            panic!("bad data line {line:?}");
        };
        let block: Block = name.parse().unwrap();
        assert_eq!(block.size(), cells.parse::<usize>().unwrap(), "{name} cells");
        assert_eq!(
            block.orientations().len(),
            orientations.parse::<usize>().unwrap(),
            "{name} orientations"
        );
        let empty = Board::empty(7);
        assert_eq!(
            empty.placements(block).count(),
            placements.parse::<usize>().unwrap(),
            "{name} placements on an empty 7x7 board"
        );
        total_orientations += block.orientations().len();
        seen.push(block);
    }
    assert_eq!(seen, Block::ALL, "the data lists every block, in order");
    assert_eq!(total_orientations, 91);
    let footer = text.lines().last().unwrap();
    assert_eq!(footer, "# total orientations 91");
}

#[test]
fn orientations_are_distinct_normalised_and_closed() {
    for block in Block::ALL {
        let shapes = block.orientations();
        let masks: HashSet<u64> = shapes.iter().map(|s| s.mask).collect();
        assert_eq!(masks.len(), shapes.len(), "{block}: duplicates");
        for shape in shapes {
            assert_eq!(shape.mask.count_ones() as usize, block.size());
            // Touches the top row and the left column.
            assert_ne!(shape.mask & 0xFF, 0, "{block}");
            assert_ne!(shape.mask & 0x0101_0101_0101_0101, 0, "{block}");
            // A quarter turn of any orientation is one of them again.
            let cells = Placement::from_mask(shape.mask).cells;
            let turned = Placement { cells: cells.iter().map(|&(x, y)| (y, 6 - x)).collect() };
            let state = State::new(Params::LARGE);
            assert!(
                state.check_placement(Side::First, block, &turned).is_ok(),
                "{block}: turned {turned} is not recognised"
            );
        }
    }
}

// ---------------------------------------------------------------- rules

/// A position reached by `moves` random placements of random blocks on both
/// boards, chips untouched.
fn random_position(rng: &mut GameRng, moves: u64, params: Params) -> State {
    let mut state = State::new(params);
    for _ in 0..moves {
        for side in Side::BOTH {
            let block = Block::ALL[rng.below(21) as usize];
            let legal = state.legal_moves(side, block);
            let pick = &legal[rng.below(legal.len() as u64) as usize];
            state.play(side, block, pick).unwrap();
        }
        state.end_round();
    }
    state
}

/// Every translation (also off the board) of every orientation of every
/// block, some shuffled cell lists and the pass: a superset of the legal moves.
fn candidates(rng: &mut GameRng, block: Block, size: i64) -> Vec<Placement> {
    let mut all = vec![Placement::PASS];
    for other in Block::ALL {
        for shape in other.orientations() {
            let cells = Placement::from_mask(shape.mask).cells;
            for dx in -2..=size {
                for dy in -2..=size {
                    let mut moved: Vec<(i64, i64)> =
                        cells.iter().map(|&(x, y)| (x + dx, y + dy)).collect();
                    rng.shuffle(&mut moved);
                    all.push(Placement { cells: moved });
                }
            }
        }
    }
    for _ in 0..200 {
        let cells =
            (0..block.size()).map(|_| (rng.below(5) as i64 + 1, rng.below(5) as i64 + 1)).collect();
        all.push(Placement { cells });
    }
    all
}

fn sorted(placement: &Placement) -> Vec<(i64, i64)> {
    let mut cells = placement.cells.clone();
    cells.sort_unstable();
    cells
}

#[test]
fn play_rejects_exactly_what_legal_moves_omits() {
    let mut rng = GameRng::new(2024);
    let mut legal_seen = 0;
    for position in 0..60 {
        let state = random_position(&mut rng, position % 10, Params::LARGE);
        let side = if position % 2 == 0 { Side::First } else { Side::Second };
        let block = Block::ALL[rng.below(21) as usize];
        let legal: HashSet<Vec<(i64, i64)>> =
            state.legal_moves(side, block).iter().map(sorted).collect();
        let mut accepted = HashSet::new();
        for candidate in candidates(&mut rng, block, 7) {
            let mut after = state.clone();
            let result = after.play(side, block, &candidate);
            assert_eq!(
                result.is_ok(),
                legal.contains(&sorted(&candidate)),
                "{block} {candidate} on\n{state}\n{result:?}"
            );
            if result.is_ok() {
                accepted.insert(sorted(&candidate));
                let before = state.board(side).filled_count();
                let gained = candidate.cells.len() as u32;
                assert_eq!(after.board(side).filled_count(), before + gained);
                assert_eq!(after.board(side.opponent()), state.board(side.opponent()));
            } else {
                assert_eq!(after, state, "a rejected move changed the state");
            }
        }
        assert_eq!(accepted, legal, "every legal move is among the candidates");
        legal_seen += legal.len();
    }
    assert!(legal_seen > 1000, "the positions are not all blocked");
}

#[test]
fn score_counts_cells_square_and_half_chips() {
    let mut state = State::new(Params::LARGE);
    assert_eq!(state.scores(), BySide::new(12.0, 12.0));
    // The statement's example: 42 cells, a 5x5 square, 3 chips.
    let text = "size=7 chips=24 rounds=12 max_bet=5 blocks=all\nround 12\n\
                first 3 #######/#######/#######/#######/#######/......./#######\n\
                second 0 #....../......./......./......./......./......./.......";
    state = text.parse().unwrap();
    assert_eq!(state.scores(), BySide::new(68.5, 2.0));
    assert_eq!(state.score_halves(Side::First), 137);
}

// ---------------------------------------------------------------- transcripts

fn transcript_game(text: &str) -> (BetrisGame, GameConfig) {
    let mut params = Params::LARGE;
    let mut seed = 0;
    let mut offers = Vec::new();
    for line in text.lines() {
        if let Some(directive) = line.strip_prefix("#! ") {
            let (key, value) = directive.split_once(' ').unwrap();
            match key {
                "params" => params = value.parse().unwrap(),
                "seed" => seed = value.parse().unwrap(),
                "offer" => offers.push(value),
                _ => panic!("unknown directive {line:?}"),
            }
        }
    }
    let game = BetrisGame::new("betris-transcript", "Betris (transcript)", params);
    let config = GameConfig {
        seed,
        time: TimeControl::CONTEST,
        input: (!offers.is_empty()).then(|| offers.join("\n")),
    };
    (game, config)
}

#[test]
fn transcripts_replay() {
    let mut names = Vec::new();
    let mut entries: Vec<_> =
        fs::read_dir(data_dir().join("transcripts")).unwrap().map(|e| e.unwrap().path()).collect();
    entries.sort();
    for path in entries {
        let text = fs::read_to_string(&path).unwrap();
        let transcript = Transcript::parse(&text).unwrap_or_else(|e| panic!("{path:?}: {e}"));
        let (game, config) = transcript_game(&text);
        let mut referee = game.referee(&config).unwrap();
        transcript.check(referee.as_mut());
        names.push(path.file_stem().unwrap().to_string_lossy().into_owned());
    }
    for expected in [
        "small_complete_game",
        "large_opening_re",
        "tle_no_reply",
        "tle_late_by_half_ms",
        "both_fault_draw",
        "ready_invalid",
    ] {
        assert!(names.iter().any(|n| n == expected), "missing {expected}");
    }
}

#[test]
fn transcript_faults_carry_their_reasons() {
    let text = fs::read_to_string(data_dir().join("transcripts/large_opening_re.txt")).unwrap();
    let (game, config) = transcript_game(&text);
    let outcome = Transcript::parse(&text).unwrap().check(game.referee(&config).unwrap().as_mut());
    assert_eq!(
        outcome.faults.first,
        Some(Fault::runtime("cell (1, 2) is already filled", "PLACE 4 1 1 1 2 2 1 2 2"))
    );
    let text = fs::read_to_string(data_dir().join("transcripts/both_fault_draw.txt")).unwrap();
    let (game, config) = transcript_game(&text);
    let outcome = Transcript::parse(&text).unwrap().check(game.referee(&config).unwrap().as_mut());
    assert_eq!(
        outcome.faults,
        BySide::new(
            Some(Fault::runtime("block V5 is not offered (the offer is T5 and U5)", "BET V5 1")),
            Some(Fault::runtime("bet 6 is over the limit of 5", "BET U5 6")),
        )
    );
}

// ---------------------------------------------------------------- scripted games

/// The lines the judge said to each side, in order, and the outcome.
struct Played {
    said: BySide<Vec<String>>,
    outcome: Outcome,
}

/// Plays `referee` with each side replying the lines of its script in order
/// (1.5 ms each); a side whose script is used up times out.
fn scripted(referee: &mut dyn Referee, scripts: BySide<&[&str]>) -> Played {
    let mut said: BySide<Vec<String>> = BySide::default();
    let mut used = BySide::new(0, 0);
    for _ in 0..10_000 {
        match referee.next() {
            Action::Tell(lines) => {
                for (side, line) in lines {
                    said[side].push(line);
                }
            }
            Action::Ask(requests) => {
                for request in &requests {
                    said[request.side].push(request.line.clone());
                }
                for request in requests {
                    let side = request.side;
                    let reply = match scripts[side].get(used[side]) {
                        Some(text) => Reply::Line {
                            text: (*text).to_owned(),
                            elapsed: Duration::from_micros(1500),
                        },
                        None => Reply::Timeout,
                    };
                    used[side] += 1;
                    referee.answer(side, reply);
                }
            }
            Action::Over(outcome) => {
                // Over is stable.
                assert_eq!(referee.next(), Action::Over(outcome.clone()));
                return Played { said, outcome };
            }
        }
    }
    panic!("the game does not end");
}

fn listed(game: &BetrisGame, seed: u64, offers: &[&str]) -> Box<dyn Referee> {
    let rounds = game.params().rounds as usize;
    let input: Vec<&str> = offers.iter().copied().cycle().take(rounds).collect();
    game.referee(&GameConfig { seed, time: TimeControl::CONTEST, input: Some(input.join("\n")) })
        .unwrap()
}

fn phase2_of(played: &Played, side: Side) -> Vec<Phase2> {
    played.said[side]
        .iter()
        .filter_map(|l| match l.parse() {
            Ok(JudgeLine::Phase2(p)) => Some(p),
            _ => None,
        })
        .collect()
}

#[test]
fn auction_different_blocks_both_succeed_and_pay() {
    let mut referee = listed(&GAME, 0, &["X5 I5"]);
    let played = scripted(
        referee.as_mut(),
        BySide::new(&["OK", "BET X5 3", "PLACE 0"][..], &["OK", "BET I5 2", "PLACE 0"][..]),
    );
    let first = phase2_of(&played, Side::First)[0];
    let second = phase2_of(&played, Side::Second)[0];
    assert_eq!((first.block, first.my_chips, first.opp_chips), (Block::X5, 21, 22));
    assert_eq!((second.block, second.my_chips, second.opp_chips), (Block::I5, 22, 21));
}

#[test]
fn auction_same_block_higher_bet_wins_and_only_the_winner_pays() {
    for (first_bet, second_bet, first_gets, chips) in [
        ("BET X5 1", "BET X5 4", Block::I5, (24, 20)),
        ("BET I5 5", "BET I5 0", Block::I5, (19, 24)),
        ("BET I5 0", "BET I5 1", Block::X5, (24, 23)),
    ] {
        let mut referee = listed(&GAME, 0, &["X5 I5"]);
        let played = scripted(
            referee.as_mut(),
            BySide::new(&["OK", first_bet, "PLACE 0"][..], &["OK", second_bet, "PLACE 0"][..]),
        );
        let first = phase2_of(&played, Side::First)[0];
        let second = phase2_of(&played, Side::Second)[0];
        let offer = Offer { a: Block::X5, b: Block::I5 };
        assert_eq!(first.block, first_gets, "{first_bet} / {second_bet}");
        assert_eq!(second.block, offer.other(first_gets));
        assert_eq!((first.my_chips, second.my_chips), chips);
        assert_eq!((first.opp_chips, second.opp_chips), (chips.1, chips.0));
    }
}

#[test]
fn auction_ties_follow_the_ties_stream() {
    let mut wins = BySide::new(0, 0);
    for seed in 0..24 {
        let mut referee = listed(&GAME, seed, &["X5 I5"]);
        let script = &["OK", "BET X5 2", "PLACE 0", "BET X5 2", "PLACE 0"][..];
        let played = scripted(referee.as_mut(), BySide::new(script, script));
        let mut coins = GameRng::stream(seed, TIES_STREAM);
        let firsts = phase2_of(&played, Side::First);
        let seconds = phase2_of(&played, Side::Second);
        let mut chips = BySide::new(24, 24);
        for round in 0..2 {
            let winner = if coins.coin() { Side::First } else { Side::Second };
            wins[winner] += 1;
            chips[winner] -= 2;
            let (won, lost) = match winner {
                Side::First => (firsts[round], seconds[round]),
                Side::Second => (seconds[round], firsts[round]),
            };
            assert_eq!(won.block, Block::X5, "seed {seed} round {round}");
            assert_eq!(lost.block, Block::I5, "seed {seed} round {round}");
            assert_eq!(firsts[round].my_chips, chips.first, "seed {seed}");
            assert_eq!(seconds[round].my_chips, chips.second, "seed {seed}");
        }
    }
    assert!(wins.first > 10 && wins.second > 10, "{wins:?}");
}

/// The offers told to the first player.
fn offers_of(lines: &[RecordLine]) -> Vec<Offer> {
    lines
        .iter()
        .filter_map(|l| match l {
            RecordLine::Send { side: Side::First, line } => match line.parse() {
                Ok(JudgeLine::Phase1(Phase1 { offer, .. })) => Some(offer),
                _ => None,
            },
            _ => None,
        })
        .collect()
}

#[test]
fn offers_are_drawn_as_documented() {
    for seed in 0..6 {
        let config = conformance::config(seed);
        let (_, lines) = play_builtin(&GAME, &config, BySide::new(("greedy", 1), ("random", 2)));
        // An independent reading of the documentation: a = below(21) over
        // the statement's order, b = below(20) over the others.
        let mut rng = GameRng::stream(seed, BLOCKS_STREAM);
        let expected: Vec<Offer> = (0..12)
            .map(|_| {
                let mut blocks = Block::ALL.to_vec();
                let a = blocks.remove(rng.below(21) as usize);
                let b = blocks[rng.below(20) as usize];
                Offer { a, b }
            })
            .collect();
        assert_eq!(offers_of(&lines), expected, "seed {seed}");
        // Other agents, other seats, same offers.
        let (_, swapped) = play_builtin(&GAME, &config, BySide::new(("random", 5), ("greedy", 6)));
        assert_eq!(offers_of(&swapped), expected, "seed {seed}");
    }
}

// ---------------------------------------------------------------- RE reasons

fn first_fault(game: &BetrisGame, offers: &[&str], first: &[&str], second: &[&str]) -> Played {
    let mut referee = listed(game, 0, offers);
    let played = scripted(referee.as_mut(), BySide::new(first, second));
    assert_eq!(played.outcome.result, GameResult::SecondWins, "{:?}", played.outcome);
    assert_eq!(played.outcome.faults.second, None);
    assert_eq!(played.said.first.last().map(String::as_str), Some("FINISH"));
    played
}

#[test]
fn every_bet_re_reason() {
    let cases = [
        ("", "empty line"),
        ("   ", "empty line"),
        ("PLACE 0", "expected BET, found `PLACE`"),
        ("bet X5 1", "expected BET, found `bet`"),
        ("BET", "a bet is a block and a number of chips, found 0 fields"),
        ("BET X5", "a bet is a block and a number of chips, found 1 fields"),
        ("BET X5 1 1", "a bet is a block and a number of chips, found 3 fields"),
        ("BET Q7 1", "`Q7` is not a block name"),
        ("BET x5 1", "`x5` is not a block name"),
        ("BET X5 -1", "bet `-1` is not a whole number of chips"),
        ("BET X5 1.5", "bet `1.5` is not a whole number of chips"),
        ("BET L3 0", "block L3 is not offered (the offer is X5 and I5)"),
        ("BET X5 6", "bet 6 is over the limit of 5"),
        ("BET I5 99999999999", "bet `99999999999` is not a whole number of chips"),
    ];
    for (line, reason) in cases {
        let played = first_fault(&GAME, &["X5 I5"], &["OK", line], &["OK", "BET I5 0"]);
        assert_eq!(played.outcome.faults.first, Some(Fault::runtime(reason, line)), "{line:?}");
        assert_eq!(played.outcome.scores, BySide::new(12.0, 12.0));
    }
    // Over the chips left: four rounds of 5 leave 4.
    let mut script = vec!["OK"];
    script.extend(["BET X5 5", "PLACE 0"].repeat(4));
    script.push("BET X5 5");
    let second = ["OK"].into_iter().chain(["BET I5 0", "PLACE 0"].repeat(5)).collect::<Vec<_>>();
    let played = first_fault(&GAME, &["X5 I5"], &script, &second);
    assert_eq!(
        played.outcome.faults.first,
        Some(Fault::runtime("bet 5 is more than the 4 chips left", "BET X5 5"))
    );
    // The fault came in round 5: four rounds of chips are paid.
    assert_eq!(played.outcome.scores, BySide::new(2.0, 12.0));
}

#[test]
fn every_place_re_reason() {
    let x5 = "PLACE 5 4 3 3 4 4 4 4 5 5 4";
    let cases = [
        ("", "empty line"),
        ("BET X5 0", "expected PLACE, found `BET`"),
        ("PASS", "expected PLACE, found `PASS`"),
        ("PLACE", "missing cell count"),
        ("PLACE x", "cell count `x` is not a whole number"),
        ("PLACE -1", "cell count `-1` is not a whole number"),
        ("PLACE 5 1 2 2 1", "5 cells need 10 coordinates, found 4"),
        ("PLACE 0 1 1", "0 cells need 0 coordinates, found 2"),
        ("PLACE 1 a 1", "coordinate `a` is not an integer"),
        ("PLACE 3 1 1 1 2 1 3", "block X5 has 5 cells, the placement gives 3"),
        ("PLACE 5 0 2 1 1 1 2 1 3 2 2", "cell (0, 2) is off the 7x7 board"),
        ("PLACE 5 1 2 2 1 2 2 2 3 3 8", "cell (3, 8) is off the 7x7 board"),
        ("PLACE 5 -1 2 2 1 2 2 2 3 3 2", "cell (-1, 2) is off the 7x7 board"),
        ("PLACE 5 1 2 2 1 2 2 1 2 3 2", "cell (1, 2) is given twice"),
        (
            "PLACE 5 1 1 1 2 1 3 1 4 1 5",
            "the cells do not form block X5 in any rotation or reflection",
        ),
        (
            "PLACE 5 1 2 2 1 2 2 2 3 3 3",
            "the cells do not form block X5 in any rotation or reflection",
        ),
    ];
    // Round 1 places an X5 at the centre; round 2's reply is the case.
    for (line, reason) in cases {
        let played = first_fault(
            &GAME,
            &["X5 I5"],
            &["OK", "BET X5 0", x5, "BET X5 0", line],
            &["OK", "BET I5 0", "PLACE 0", "BET I5 0", "PLACE 0"],
        );
        assert_eq!(played.outcome.faults.first, Some(Fault::runtime(reason, line)), "{line:?}");
        // Round 1's X5 counts (5 cells, square 1), round 2's nothing.
        assert_eq!(played.outcome.scores, BySide::new(18.0, 12.0));
    }
    let overlap = "PLACE 5 4 4 3 4 4 3 4 5 5 4";
    let played = first_fault(
        &GAME,
        &["X5 I5"],
        &["OK", "BET X5 0", x5, "BET X5 0", overlap],
        &["OK", "BET I5 0", "PLACE 0", "BET I5 0", "PLACE 0"],
    );
    assert_eq!(
        played.outcome.faults.first,
        Some(Fault::runtime("cell (4, 4) is already filled", overlap))
    );
}

#[test]
fn both_sides_faulting_together_is_a_draw() {
    let mut referee = listed(&GAME, 3, &["L5 N5"]);
    let played = scripted(
        referee.as_mut(),
        BySide::new(&["OK", "BET L5 1", "PLACE 2 1 1 1 2"][..], &["OK", "BET L5 1"][..]),
    );
    assert_eq!(played.outcome.result, GameResult::Draw);
    assert!(matches!(played.outcome.faults.first, Some(Fault::Runtime { .. })));
    assert_eq!(played.outcome.faults.second, Some(Fault::TimeLimit));
    // The tie's winner paid one chip.
    let total = played.outcome.scores.first + played.outcome.scores.second;
    assert_eq!(total, 23.5);
    // Both faulting at READY is a draw too.
    let mut referee = GAME.referee(&GameConfig::seeded(1)).unwrap();
    let played = scripted(referee.as_mut(), BySide::new(&["READY"][..], &[][..]));
    assert_eq!(played.outcome.result, GameResult::Draw);
    assert_eq!(
        played.outcome.faults,
        BySide::new(Some(Fault::runtime(versus_core::INVALID_READY, "READY")), Some(Fault::Stall))
    );
}

#[test]
fn a_crash_ends_the_game_against_the_crasher() {
    let mut referee = listed(&GAME, 0, &["I1 I2"]);
    assert!(matches!(referee.next(), Action::Ask(_)));
    for side in Side::BOTH {
        referee.answer(side, Reply::Line { text: "OK".into(), elapsed: Duration::ZERO });
    }
    assert!(matches!(referee.next(), Action::Ask(r) if r.len() == 2));
    let crash = Fault::Crash { detail: "exit status 3".into() };
    referee.answer(Side::First, Reply::Gone(crash.clone()));
    referee.answer(Side::Second, Reply::Line { text: "BET I1 0".into(), elapsed: Duration::ZERO });
    assert_eq!(
        referee.next(),
        Action::Tell(vec![(Side::First, "FINISH".into()), (Side::Second, "FINISH".into())])
    );
    let Action::Over(outcome) = referee.next() else {
        panic!("the game goes on after a crash");
    };
    assert_eq!(outcome.result, GameResult::SecondWins);
    assert_eq!(outcome.faults.first, Some(crash));
}

// ---------------------------------------------------------------- the end

/// Checks that a clean game has exactly `rounds` rounds, then FINISH, and
/// that its scores follow from the placements and chips said on the wire.
fn check_full_game(game: &BetrisGame, seed: u64, agents: BySide<(&str, u64)>) -> Outcome {
    check_game_with(game, &conformance::config(seed), agents)
}

/// [`check_full_game`] with the given config.
fn check_game_with(game: &BetrisGame, config: &GameConfig, agents: BySide<(&str, u64)>) -> Outcome {
    let params = *game.params();
    let (outcome, lines) = play_builtin(game, config, agents);
    assert_eq!(outcome.faults, BySide::default(), "{}", game.name());
    let mut state = State::new(params);
    let mut chips = BySide::new(params.chips, params.chips);
    for side in Side::BOTH {
        let said: Vec<&str> = lines
            .iter()
            .filter_map(|l| match l {
                RecordLine::Send { side: s, line } if *s == side => Some(line.as_str()),
                _ => None,
            })
            .collect();
        let replies: Vec<&str> = lines
            .iter()
            .filter_map(|l| match l {
                RecordLine::Recv { side: s, line, .. } if *s == side => Some(line.as_str()),
                _ => None,
            })
            .collect();
        let count = |prefix: &str| said.iter().filter(|l| l.starts_with(prefix)).count();
        let rounds = params.rounds as usize;
        assert_eq!(count("PHASE1"), rounds, "{}", game.name());
        assert_eq!(count("PHASE2"), rounds);
        assert_eq!(count("OPP"), rounds);
        assert_eq!(said.last(), Some(&"FINISH"));
        assert!(said[said.len() - 2].starts_with("OPP"), "FINISH follows the last round");
        assert_eq!(replies.len(), 1 + 2 * rounds);
        let mut blocks = Vec::new();
        for line in &said {
            if let Ok(JudgeLine::Phase2(p)) = line.parse() {
                blocks.push(p.block);
                chips[side] = p.my_chips;
            }
        }
        for (block, reply) in blocks.iter().zip(replies.iter().filter(|r| r.starts_with("PLACE"))) {
            state.play(side, *block, &parse_place(reply).unwrap()).unwrap();
        }
    }
    let score = |side: Side| f64::from(state.board(side).points()) + f64::from(chips[side]) / 2.0;
    assert_eq!(outcome.scores, BySide::from_fn(score), "{}", game.name());
    assert_eq!(outcome, Outcome::from_scores(outcome.scores));
    outcome
}

#[test]
fn the_game_ends_after_exactly_the_rounds() {
    for seed in 0..4 {
        for game in [&GAME, &SMALL_GAME, &MEDIUM_GAME] {
            check_full_game(game, seed, BySide::new(("greedy", seed), ("random", seed + 9)));
            check_full_game(game, seed, BySide::new(("random", seed), ("greedy", seed + 9)));
        }
    }
}

#[test]
fn other_variants_pass_the_generic_suite() {
    conformance::check_game(&SMALL_GAME, 4);
    conformance::check_game(&MEDIUM_GAME, 4);
    // A 3x3 board: no 4- or 5-cell block ever fits a full row, and the
    // largest square is at most 3x3.
    let outcome = check_full_game(&SMALL_GAME, 1, BySide::new(("greedy", 1), ("greedy", 2)));
    assert!(outcome.scores.first <= 9.0 + 9.0 + 1.5);
}

#[test]
fn conformance_suite() {
    conformance::check_game(&GAME, 50);
}

#[test]
fn greedy_beats_random() {
    let mut points = 0.0;
    let games = 20;
    for seed in 0..games {
        let outcome = check_full_game(&GAME, seed, BySide::new(("greedy", seed), ("random", seed)));
        points += outcome.result.points(Side::First);
    }
    assert!(points >= 15.0, "greedy scored {points} of {games}");
}

// ---------------------------------------------------------------- views

/// Where `view` (a frame of the viewer) differs from `truth` (the game
/// rebuilt from the record's wire lines), if anywhere.
fn compare_view(params: &Params, truth: &Moment, view: &Value) -> Result<(), String> {
    let size = usize::from(params.size);
    for side in Side::BOTH {
        // The board as the placements on the wire fill it, 1-based.
        let mut rows = vec![vec!['.'; size]; size];
        for piece in &truth.pieces[side] {
            for &(x, y) in &piece.cells {
                rows[x as usize - 1][y as usize - 1] = '#';
            }
        }
        let expected: Vec<String> = rows.into_iter().map(String::from_iter).collect();
        let shown: Vec<String> = serde_json::from_value(view["boards"][side.to_string()].clone())
            .map_err(|e| format!("no boards.{side}: {e}"))?;
        if shown != expected {
            return Err(format!(
                "{side}'s board shows\n{}\nbut the record's placements fill\n{}",
                shown.join("\n"),
                expected.join("\n")
            ));
        }
        let filled: usize = truth.pieces[side].iter().map(|p| p.cells.len()).sum();
        assert_eq!(truth.state.board(side).filled_count() as usize, filled, "the rebuild itself");
    }
    let state = &truth.state;
    same("scores", &view["scores"], json!(state.scores()))?;
    same("chips", &view["chips"], json!(BySide::from_fn(|side| state.chips(side))))?;
    same("rounds played", &view["round"], json!(state.round()))?;
    same_clocks(view, truth.clocks)?;
    let pieces = BySide::from_fn(|side| {
        truth.pieces[side]
            .iter()
            .map(|piece| {
                let mut cells = piece.cells.clone();
                cells.sort_unstable();
                json!({ "block": piece.block.name(), "cells": cells })
            })
            .collect::<Vec<_>>()
    });
    let mut shown_pieces = view["pieces"].clone();
    for side in ["first", "second"] {
        for piece in shown_pieces[side].as_array_mut().into_iter().flatten() {
            let mut cells: Vec<(i64, i64)> =
                serde_json::from_value(piece["cells"].clone()).unwrap_or_default();
            cells.sort_unstable();
            piece["cells"] = json!(cells);
        }
    }
    same("pieces", &shown_pieces, json!(pieces))?;
    let auction = truth.auction.as_ref().map(|a| {
        let bets = a.bets.map(|b| b.map(|b| json!({ "block": b.block.name(), "chips": b.chips })));
        let awards =
            a.awards.map(|w| w.map(|w| json!({ "block": w.block.name(), "paid": w.paid })));
        json!({
            "round": a.round,
            "offer": [a.offer.a.name(), a.offer.b.name()],
            "bets": bets,
            "awards": awards,
            "tie_winner": a.tie_winner,
        })
    });
    same("auction", &view["auction"], json!(auction))
}

/// Checks the frames of games of `game` and returns how many there were
/// and how many of them showed a tie settled by the coin.
fn check_views_of(game: &BetrisGame, seeds: std::ops::Range<u64>) -> (usize, usize) {
    let params = *game.params();
    let coin_tosses = std::cell::Cell::new(0);
    let frames = conformance::check_views(game, &["random", "greedy"], seeds, &|lines, frames| {
        let moments = rebuild(params, lines).map_err(|e| e.to_string())?;
        compare_frames(frames, &moments, |truth, view| {
            if truth.auction.as_ref().is_some_and(|a| a.tie_winner.is_some()) {
                coin_tosses.set(coin_tosses.get() + 1);
            }
            compare_view(&params, truth, view)
        })
    });
    (frames, coin_tosses.get())
}

#[test]
fn every_frame_shows_the_boards_and_auction_the_record_plays() {
    // Four whole games a seed, each shown at its start, after READY, after
    // the bets and the placements of each of 12 rounds, and at its end.
    let (frames, coin_tosses) = check_views_of(&GAME, 0..12);
    assert!(frames >= 12 * 4 * 27, "only {frames} frames");
    assert!(coin_tosses > 0, "no tie was settled by the coin");
    check_views_of(&SMALL_GAME, 0..6);
    check_views_of(&MEDIUM_GAME, 0..6);
}

// ---------------------------------------------------------------- config

#[test]
fn registry_entry() {
    assert_eq!(GAME.name(), "betris-large");
    assert_eq!(GAME.title(), "Betris (Large)");
    assert_eq!(GAME.rules_version(), "1");
    assert_eq!(GAME.agent_names(), ["random", "greedy", "fair", "strong", "strong-v1"]);
    assert!(GAME.agent("minimax", 0).is_none());
    assert_eq!(*GAME.params(), Params::LARGE);
}

#[test]
fn explicit_input_is_checked() {
    let config = |input: &str| GameConfig {
        seed: 0,
        time: TimeControl::CONTEST,
        input: Some(input.to_owned()),
    };
    let error = |game: &BetrisGame, input: &str| match game.referee(&config(input)) {
        Ok(_) => panic!("{input:?} was accepted"),
        Err(ConfigError(message)) => message,
    };
    let twelve = ["L3 X5"; 12].join("\n");
    assert!(GAME.referee(&config(&twelve)).is_ok());
    assert_eq!(error(&GAME, "L3 X5"), "expected 12 lines of two blocks (one per round), found 1");
    let bad = |line: &str| format!("{line}\n{}", ["L3 X5"; 11].join("\n"));
    assert_eq!(error(&GAME, &bad("L3 Q5")), "line 1: `Q5` is not a block name");
    assert_eq!(error(&GAME, &bad("L3 L3")), "line 1: the two blocks are both L3");
    assert_eq!(error(&GAME, &bad("L3")), "line 1: expected two block names, found \"L3\"");
    let small = ["I1 I2"; 4].join("\n");
    assert!(SMALL_GAME.referee(&config(&small)).is_ok());
    assert_eq!(
        error(&SMALL_GAME, &small.replace("I1 I2\nI1", "X5 I2\nI1")),
        "line 1: block X5 is not in this game's set"
    );
    let broken = BetrisGame::new("broken", "Broken", Params { size: 9, ..Params::LARGE });
    assert!(broken.referee(&GameConfig::seeded(0)).is_err());
}

// ---------------------------------------------------------------- agents

#[test]
fn greedy_takes_the_better_block_and_places_it_best() {
    let mut agent = GAME.agent("greedy", 5).unwrap();
    assert_eq!(agent.respond("READY").unwrap().as_deref(), Some("OK"));
    let reply = agent.respond("PHASE1 I1 O4 10000 10000").unwrap().unwrap();
    assert_eq!(reply, "BET O4 0");
    let reply = agent.respond("PHASE2 O4 24 24 9999 9999").unwrap().unwrap();
    let placement = parse_place(&reply).unwrap();
    let state = State::new(Params::LARGE);
    assert!(state.check_placement(Side::First, Block::O4, &placement).is_ok());
    assert_eq!(agent.respond("OPP 0").unwrap(), None);
    // A V5 around the O4 makes a 3x3 square (18 points); an I2 next to it
    // makes at most 10.
    let reply = agent.respond("PHASE1 I2 V5 9998 9998").unwrap().unwrap();
    assert_eq!(reply, "BET V5 0");
    let reply = agent.respond("PHASE2 V5 24 24 9997 9997").unwrap().unwrap();
    let mut state = state;
    state.play(Side::First, Block::O4, &placement).unwrap();
    state.play(Side::First, Block::V5, &parse_place(&reply).unwrap()).unwrap();
    assert_eq!(state.board(Side::First).largest_square(), 3, "{reply}");
    assert_eq!(agent.respond("FINISH").unwrap(), None);
    assert!(agent.respond("HELLO").is_err());
}

#[test]
fn random_bets_within_its_chips() {
    let mut agent = SMALL_GAME.agent("random", 3).unwrap();
    agent.respond("READY").unwrap();
    for _ in 0..50 {
        let bet = parse_bet(&agent.respond("PHASE1 I1 I2 100 100").unwrap().unwrap()).unwrap();
        assert!(bet.chips <= 1);
        // The judge says it has one chip left.
        let reply = agent.respond("PHASE2 I1 1 0 100 100").unwrap().unwrap();
        assert!(reply.starts_with("PLACE"));
    }
}

#[test]
fn fair_bets_the_difference_in_points() {
    let mut agent = GAME.agent("fair", 5).unwrap();
    agent.respond("READY").unwrap();
    // On the empty board an O4 is worth 4 + 4 points and an I1 1 + 1; the
    // difference, 6, is over the limit of 5.
    assert_eq!(agent.respond("PHASE1 I1 O4 10000 10000").unwrap().unwrap(), "BET O4 5");
    let reply = agent.respond("PHASE2 O4 19 24 9999 9999").unwrap().unwrap();
    let mut state = State::new(Params::LARGE);
    state.play(Side::First, Block::O4, &parse_place(&reply).unwrap()).unwrap();
    assert_eq!(state.board(Side::First).largest_square(), 2);
    agent.respond("OPP 0").unwrap();
    // An I2 next to the O4 adds 2 cells, an I1 1: one chip.
    assert_eq!(agent.respond("PHASE1 I1 I2 9998 9998").unwrap().unwrap(), "BET I2 1");
    // With no chips left it bets none.
    agent.respond("PHASE2 I2 0 24 9997 9997").unwrap();
    agent.respond("OPP 0").unwrap();
    assert_eq!(agent.respond("PHASE1 I1 X5 9996 9996").unwrap().unwrap(), "BET X5 0");
}

/// A clock of `game_ms` per game and seed `seed`.
fn clock(seed: u64, game_ms: u64) -> GameConfig {
    GameConfig { seed, time: TimeControl::new(game_ms, 3_000), input: None }
}

#[test]
fn new_agents_play_clean_games() {
    let pairs = [
        ("strong", "random"),
        ("greedy", "strong"),
        ("strong", "fair"),
        ("fair", "random"),
        ("greedy", "fair"),
    ];
    for (seed, (first, second)) in (0..).zip(pairs) {
        check_game_with(&GAME, &clock(seed, 300), BySide::new((first, seed), (second, seed + 1)));
    }
    for game in [&SMALL_GAME, &MEDIUM_GAME] {
        for seed in 0..2 {
            let agents = BySide::new(("strong", seed), ("fair", seed + 1));
            check_game_with(game, &clock(seed, 300), agents);
            check_game_with(game, &clock(seed, 300), agents.swap());
        }
    }
}

#[test]
fn strong_stays_within_a_tiny_clock() {
    // Real elapsed time this time, not the suite's steady 1 ms a reply.
    for seed in 0..3 {
        let (first, second) =
            if seed % 2 == 0 { ("strong", "greedy") } else { ("greedy", "strong") };
        let outcome = versus_core::conformance::play_timed(&GAME, first, second, seed, 300);
        assert_eq!(outcome.faults, BySide::default(), "seed {seed}");
    }
}

#[test]
fn strong_answers_on_stdio() {
    let mut agent = GAME.agent("strong", 9).unwrap();
    let input = "READY\nPHASE1 P5 I1 10000 10000\nPHASE2 P5 22 24 9000 9000\nOPP 1 4 4\n\
                 PHASE1 X5 I3 8000 8000\nPHASE2 I3 22 20 7000 7000\nOPP 0\nFINISH\nREADY\n";
    let mut output = Vec::new();
    run_stdio(agent.as_mut(), input.as_bytes(), &mut output).unwrap();
    let output = String::from_utf8(output).unwrap();
    let lines: Vec<&str> = output.lines().collect();
    assert_eq!(lines.len(), 5, "{output}");
    assert_eq!(lines[0], "OK");
    let mut state = State::new(Params::LARGE);
    let offers = [Offer { a: Block::P5, b: Block::I1 }, Offer { a: Block::X5, b: Block::I3 }];
    let chips = [24, 22];
    for (round, block) in [Block::P5, Block::I3].into_iter().enumerate() {
        let bet = parse_bet(lines[1 + 2 * round]).unwrap();
        assert!(offers[round].contains(bet.block) && bet.chips <= 5.min(chips[round]), "{output}");
        let placement = parse_place(lines[2 + 2 * round]).unwrap();
        state.play(Side::First, block, &placement).unwrap();
    }
    assert_eq!(state.board(Side::First).filled_count(), 8, "it never passes here: {output}");
}

// ---------------------------------------------------------------- proptest

fn block_strategy() -> impl Strategy<Value = Block> {
    (0..21usize).prop_map(|i| Block::ALL[i])
}

fn placement_strategy() -> impl Strategy<Value = Placement> {
    prop::collection::vec((any::<i64>(), any::<i64>()), 0..6).prop_map(|cells| Placement { cells })
}

fn judge_line_strategy() -> impl Strategy<Value = JudgeLine> {
    prop_oneof![
        Just(JudgeLine::Ready),
        Just(JudgeLine::Finish),
        (block_strategy(), block_strategy(), any::<u64>(), any::<u64>()).prop_map(
            |(a, b, my_time, opp_time)| JudgeLine::Phase1(Phase1 {
                offer: Offer { a, b },
                my_time,
                opp_time
            })
        ),
        (block_strategy(), any::<u32>(), any::<u32>(), any::<u64>(), any::<u64>()).prop_map(
            |(block, my_chips, opp_chips, my_time, opp_time)| {
                JudgeLine::Phase2(Phase2 { block, my_chips, opp_chips, my_time, opp_time })
            }
        ),
        placement_strategy().prop_map(JudgeLine::Opp),
    ]
}

fn agent_line_strategy() -> impl Strategy<Value = AgentLine> {
    prop_oneof![
        Just(AgentLine::Ok),
        (block_strategy(), any::<u32>())
            .prop_map(|(block, chips)| AgentLine::Bet(Bet { block, chips })),
        placement_strategy().prop_map(AgentLine::Place),
    ]
}

proptest! {
    #[test]
    fn judge_lines_round_trip(line in judge_line_strategy()) {
        prop_assert_eq!(line.to_string().parse::<JudgeLine>(), Ok(line));
    }

    #[test]
    fn agent_lines_round_trip(line in agent_line_strategy()) {
        let text = line.to_string();
        prop_assert_eq!(text.parse::<AgentLine>(), Ok(line.clone()));
        match line {
            AgentLine::Bet(bet) => prop_assert_eq!(parse_bet(&text), Ok(bet)),
            AgentLine::Place(placement) => prop_assert_eq!(parse_place(&text), Ok(placement)),
            AgentLine::Ok => {}
        }
    }

    #[test]
    fn parsers_never_panic(text in ".{0,80}") {
        let _ = text.parse::<JudgeLine>();
        let _ = text.parse::<AgentLine>();
        let _ = parse_bet(&text);
        let _ = parse_place(&text);
        let _ = text.parse::<State>();
        let _ = text.parse::<Board>();
        let _ = text.parse::<Params>();
    }

    #[test]
    fn near_miss_lines_never_panic(
        command in prop::sample::select(vec!["BET", "PLACE", "PHASE1", "PHASE2", "OPP", "OK", "READY"]),
        tail in "[ 0-9A-Z\\-]{0,40}",
    ) {
        let line = format!("{command} {tail}");
        let _ = line.parse::<JudgeLine>();
        let _ = line.parse::<AgentLine>();
        if let Ok(placement) = parse_place(&line) {
            let state = State::new(Params::LARGE);
            let _ = state.check_placement(Side::First, Block::P5, &placement);
        }
    }
}
