//! The integration tests of Bacteria War.

use std::path::Path;
use std::time::Duration;

use proptest::prelude::*;
use serde_json::json;
use versus_bacteria::protocol::{AgentLine, JudgeLine, WireMove};
use versus_bacteria::rebuild::rebuild;
use versus_bacteria::referee::{EXPECTED_MOVE, ILLEGAL_MOVE};
use versus_bacteria::{perft, perft_divide, Move, Square, State, GAME};
use versus_core::conformance::{
    assert_keeps_its_clock, check_game, check_views, compare_frames, play_builtin, play_timed,
    same, same_clocks,
};
use versus_core::transcript::Transcript;
use versus_core::{
    Action, BySide, Fault, Game, GameConfig, GameResult, GameRng, Reply, Side, TimeControl,
};

// ---------------------------------------------------------------------------
// Perft

/// Every line of `tests/data/perft.txt`: perft of each listed depth.
#[test]
fn perft_matches_the_test_vectors() {
    let data = include_str!("data/perft.txt");
    let mut checked = 0;
    for line in data.lines().filter(|l| !l.trim().is_empty() && !l.starts_with('#')) {
        let fields: Vec<&str> = line.split_whitespace().collect();
        let [name, board, side, counts @ ..] = &fields[..] else {
            panic!("bad line {line:?}");
        };
        let state: State = format!("{board} {side}").parse().expect(name);
        for (depth, expected) in (1..).zip(counts) {
            let expected: u64 = expected.parse().expect(name);
            assert_eq!(perft(&state, depth), expected, "{name} depth {depth}");
            checked += 1;
        }
    }
    assert_eq!(checked, 38);
}

#[test]
fn perft_divide_adds_up_and_follows_the_move_list() {
    let state: State = "..X..X./.....X./..O.XXX/X.OX..X/X...OOO/X.....O/.X..... O".parse().unwrap();
    let divided = perft_divide(&state, 3);
    let moves: Vec<Move> = divided.iter().map(|&(mv, _)| mv).collect();
    assert_eq!(moves, state.legal_moves());
    assert_eq!(divided.iter().map(|&(_, n)| n).sum::<u64>(), perft(&state, 3));
}

#[test]
fn perft_stops_at_the_turn_cap() {
    let fresh: State =
        "O.....X/......./......./......./......./......./X.....O O 397".parse().unwrap();
    assert_eq!(perft(&fresh, 3), 6460);
    assert_eq!(perft(&fresh, 4), 0);
    let capped: State =
        "O.....X/......./......./......./......./......./X.....O O 400".parse().unwrap();
    assert_eq!(perft(&capped, 0), 1);
    assert_eq!(perft(&capped, 1), 0);
    assert!(capped.legal_moves().is_empty());
}

// ---------------------------------------------------------------------------
// Rules

/// Random positions reached by random play (with passes and finished games).
fn random_positions(count: usize) -> Vec<State> {
    let mut rng = GameRng::new(99);
    let mut positions = Vec::new();
    while positions.len() < count {
        let mut state = State::start();
        while !state.is_over() && positions.len() < count {
            positions.push(state);
            let moves = state.legal_moves();
            let mv = moves[rng.below(moves.len() as u64) as usize];
            state.play(mv).unwrap();
        }
        positions.push(state);
    }
    positions.push("OXXX.../XXXX.../XXXX.../XXXX.../......./......./....... O".parse().unwrap());
    positions.push("O.....O/......./......./......./......./......./O.....O X".parse().unwrap());
    positions
}

/// Every division, every (from, to) pair as a jump, and the pass.
fn candidate_moves() -> Vec<Move> {
    let mut moves: Vec<Move> = Square::all().map(|to| Move::Division { to }).collect();
    for from in Square::all() {
        moves.extend(Square::all().map(|to| Move::Jump { from, to }));
    }
    moves.push(Move::Pass);
    moves
}

#[test]
fn play_rejects_exactly_what_legal_moves_omit() {
    let candidates = candidate_moves();
    let positions = random_positions(300);
    let mut passes = 0;
    for state in &positions {
        let legal = state.legal_moves();
        passes += usize::from(legal == [Move::Pass]);
        for &mv in &candidates {
            let mut after = *state;
            let played = after.play(mv);
            assert_eq!(played.is_ok(), legal.contains(&mv), "{mv} in {state}");
            if played.is_err() {
                assert_eq!(after, *state, "a rejected move changed the state");
            } else {
                assert_eq!(after.turns(), state.turns() + 1);
                assert_eq!(after.side_to_move(), state.side_to_move().opponent());
            }
        }
        assert_eq!(state.is_over(), legal.is_empty(), "{state}");
    }
    assert!(passes >= 1, "no forced pass among the positions");
}

#[test]
fn wire_moves_are_legal_exactly_when_their_move_is() {
    for state in random_positions(100) {
        let own = state.pieces(state.side_to_move());
        let legal = state.legal_moves();
        for from in Square::all() {
            for to in Square::all() {
                let expected = own & from.bit() != 0
                    && match from.distance(to) {
                        1 => legal.contains(&Move::Division { to }),
                        2 => legal.contains(&Move::Jump { from, to }),
                        _ => false,
                    };
                assert_eq!(
                    state.move_between(from, to).is_ok(),
                    expected,
                    "{from}->{to} in {state}"
                );
            }
        }
    }
}

#[test]
fn positions_round_trip_through_text() {
    for state in random_positions(200) {
        assert_eq!(state.to_string().parse::<State>(), Ok(state));
    }
}

#[test]
fn the_game_ends_only_by_its_three_conditions() {
    let no_x: State = "O....../......./......./......./......./......./....... X".parse().unwrap();
    assert_eq!(no_x.result(), Some(GameResult::FirstWins));
    let full: State = "XOOOOOO/OOOOOOO/OOOOOOO/OOOOOOO/OOOOOOO/OOOOOOO/OOOOOOX O".parse().unwrap();
    assert_eq!(full.result(), Some(GameResult::FirstWins));
    let capped: State =
        "XX...../......./......./......./......./......./.....OO X 400".parse().unwrap();
    assert_eq!(capped.result(), Some(GameResult::Draw));
    let before_cap: State =
        "XX...../......./......./......./......./......./.....OO X 399".parse().unwrap();
    assert_eq!(before_cap.result(), None);
    // A side that cannot move passes; the game goes on.
    let walled: State =
        "OXXX.../XXXX.../XXXX.../XXXX.../......./......./....... O".parse().unwrap();
    assert!(!walled.is_over() && !walled.can_move());
    assert_eq!(walled.legal_moves(), [Move::Pass]);
}

// ---------------------------------------------------------------------------
// Referee

fn config(input: Option<&str>) -> GameConfig {
    GameConfig { seed: 0, time: TimeControl::CONTEST, input: input.map(str::to_owned) }
}

#[test]
fn transcripts_replay_through_the_referee() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/transcripts");
    let mut names = Vec::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let text = std::fs::read_to_string(&path).unwrap();
        let transcript =
            Transcript::parse(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let input = text.lines().find_map(|l| l.strip_prefix("# input: ")).map(str::trim);
        let mut referee = GAME.referee(&config(input)).unwrap();
        let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            transcript.check(referee.as_mut())
        }))
        .unwrap_or_else(|_| panic!("{} does not replay", path.display()));
        // After the end the referee keeps giving the same outcome.
        assert_eq!(referee.next(), Action::Over(outcome));
        names.push(path.file_name().unwrap().to_string_lossy().into_owned());
    }
    assert!(names.len() >= 10, "{names:?}");
}

/// Plays `replies` (to the requests in order) from `input`; returns the outcome.
fn run_referee(input: Option<&str>, replies: &[&str]) -> versus_core::Outcome {
    let mut referee = GAME.referee(&config(input)).unwrap();
    let mut replies = replies.iter();
    loop {
        match referee.next() {
            Action::Tell(_) => {}
            Action::Ask(requests) => {
                for request in requests {
                    let text = if request.line.starts_with("READY") {
                        "OK"
                    } else {
                        replies.next().expect("more requests than replies")
                    };
                    let reply =
                        Reply::Line { text: text.to_owned(), elapsed: Duration::from_millis(1) };
                    referee.answer(request.side, reply);
                }
            }
            Action::Over(outcome) => return outcome,
        }
    }
}

fn reason(outcome: &versus_core::Outcome, side: Side) -> String {
    match &outcome.faults[side] {
        Some(Fault::Runtime { reason, .. }) => reason.clone(),
        other => panic!("expected an RE, found {other:?}"),
    }
}

#[test]
fn runtime_errors_say_why() {
    let cases = [
        ("MOVE 1 1 2", "MOVE takes 4 fields, found 3"),
        ("MOVE 1 1 2 x", "not an integer: \"x\""),
        ("MOVE 0 1 2 2", "coordinate 0 is off the board (expected 1..7, or -1 -1 -1 -1 to pass)"),
        ("MOVE -1 -1 2 2", "a pass is -1 -1 -1 -1, found -1 -1 2 2"),
        ("move 1 1 2 2", "unknown command \"move\""),
        ("", "empty line"),
        ("OK", EXPECTED_MOVE),
        ("MOVE 1 1 4 4", ILLEGAL_MOVE),
        ("MOVE 1 7 2 6", ILLEGAL_MOVE),
        ("MOVE 1 1 1 1", ILLEGAL_MOVE),
        ("MOVE -1 -1 -1 -1", ILLEGAL_MOVE),
    ];
    for (line, expected) in cases {
        let outcome = run_referee(None, &[line]);
        assert_eq!(reason(&outcome, Side::First), expected, "{line:?}");
        assert_eq!(outcome.result, GameResult::SecondWins);
        assert_eq!(outcome.scores, BySide::new(2.0, 2.0));
    }
    // The second player's fault, after a legal first move.
    let outcome = run_referee(None, &["MOVE 1 1 2 2", "MOVE 7 1 7 4"]);
    assert_eq!(outcome.result, GameResult::FirstWins);
    assert_eq!(outcome.scores, BySide::new(3.0, 2.0));
}

#[test]
fn a_division_may_name_any_own_neighbour() {
    // O on (1,1) and (1,3): a division onto (1,2) may name either.
    for source in ["1 1", "1 3"] {
        let outcome = run_referee(
            Some("O.O..../......./......./......./......./......./......X O 399"),
            &[&format!("MOVE {source} 1 2")],
        );
        assert_eq!(outcome.faults, BySide::default());
        assert_eq!(outcome.scores, BySide::new(3.0, 1.0));
    }
}

#[test]
fn bad_inputs_are_config_errors() {
    for input in [
        "",
        "O.....X/......./......./......./......./......./X.....O",
        "O.....X/......./......./......./......./......./X.....O O 401",
        "O.....X/......./......./......./......./......./X.....O O x",
        "O.....X/......./......./......./......./X.....O O",
        "O.....X/......./......./......./......./......./X....OO- O",
        "O.....X/......./......./......./......./......./X.....O O 3 4",
    ] {
        assert!(GAME.referee(&config(Some(input))).is_err(), "{input:?}");
    }
    assert!(GAME
        .referee(&config(Some(" O.....X/......./......./......./......./......./X.....O X 12\n")))
        .is_ok());
}

// ---------------------------------------------------------------------------
// Agents and the shared suite

#[test]
fn registry_entry() {
    assert_eq!(GAME.name(), "bacteria-war");
    assert_eq!(GAME.title(), "Bacteria War");
    assert_eq!(GAME.rules_version(), "1");
    assert_eq!(GAME.agent_names(), ["random", "greedy", "ab4", "strong", "strong-v1"]);
    assert!(GAME.agent("strong-v1", 1).is_some());
    assert!(GAME.agent("random", 1).is_some());
    assert!(GAME.agent("greedy", 1).is_some());
    assert!(GAME.agent("perfect", 1).is_none());
}

#[test]
fn conformance() {
    check_game(&GAME, 20);
}

/// Every frame a viewer shows is the position the record's `MOVE` lines
/// make, as the rules' own notation writes it (rows top first, `O` the
/// first player), with the rules' piece counts as the scores.
#[test]
fn every_frame_shows_the_position_the_record_plays() {
    let frames = check_views(&GAME, &["random", "greedy"], 0..8, &|lines, frames| {
        let moments = rebuild(lines).map_err(|e| e.to_string())?;
        compare_frames(frames, &moments, |truth, view| {
            let notation = truth.state.to_string();
            let rows: Vec<&str> = notation.split(' ').next().unwrap_or("").split('/').collect();
            same("board", &view["board"], json!(rows))?;
            same("scores", &view["scores"], json!(truth.state.counts()))?;
            same("side to move", &view["to_move"], json!(truth.state.side_to_move()))?;
            same("turns played", &view["turns"], json!(truth.state.turns()))?;
            same_clocks(view, truth.clocks)
        })
    });
    assert!(frames > 8 * 4 * 20, "only {frames} frames");
}

#[test]
fn greedy_beats_random() {
    let mut greedy_points = 0.0;
    for seed in 0..10 {
        let config = versus_core::conformance::config(seed);
        let greedy_side = if seed % 2 == 0 { Side::First } else { Side::Second };
        let mut seats = BySide::new(("random", seed), ("random", seed + 100));
        seats[greedy_side] = ("greedy", seed);
        let (outcome, _) = play_builtin(&GAME, &config, seats);
        assert_eq!(outcome.faults, BySide::default(), "seed {seed}");
        greedy_points += outcome.result.points(greedy_side);
    }
    assert!(greedy_points >= 9.0, "greedy scored {greedy_points} of 10");
}

// ---------------------------------------------------------------------------
// Protocol properties

fn square() -> impl Strategy<Value = Square> {
    (0usize..49).prop_map(|i| Square::from_index(i).unwrap())
}

fn wire_move() -> impl Strategy<Value = WireMove> {
    prop_oneof![
        Just(WireMove::Pass),
        (square(), square()).prop_map(|(from, to)| WireMove::Cells { from, to }),
    ]
}

fn judge_line() -> impl Strategy<Value = JudgeLine> {
    prop_oneof![
        prop_oneof![Just(Side::First), Just(Side::Second)].prop_map(JudgeLine::Ready),
        (any::<u64>(), any::<u64>())
            .prop_map(|(my_time, opp_time)| JudgeLine::Turn { my_time, opp_time }),
        (wire_move(), any::<u64>()).prop_map(|(mv, time)| JudgeLine::Opp { mv, time }),
        Just(JudgeLine::Finish),
    ]
}

fn agent_line() -> impl Strategy<Value = AgentLine> {
    prop_oneof![Just(AgentLine::Ok), wire_move().prop_map(AgentLine::Move)]
}

proptest! {
    #[test]
    fn judge_lines_round_trip(line in judge_line()) {
        prop_assert_eq!(line.to_string().parse::<JudgeLine>(), Ok(line));
    }

    #[test]
    fn agent_lines_round_trip(line in agent_line()) {
        prop_assert_eq!(line.to_string().parse::<AgentLine>(), Ok(line));
    }

    #[test]
    fn parsers_never_panic(text in "\\PC*") {
        let _ = text.parse::<JudgeLine>();
        let _ = text.parse::<AgentLine>();
        let _ = text.parse::<State>();
        let _ = text.parse::<Move>();
    }

    #[test]
    fn near_miss_lines_never_panic(
        command in prop_oneof![Just("MOVE"), Just("OPP"), Just("TURN"), Just("READY")],
        args in proptest::collection::vec("-?[0-9]{1,25}|[A-Z]{1,6}", 0..7),
    ) {
        let line = format!("{command} {}", args.join(" "));
        let _ = line.parse::<JudgeLine>();
        let _ = line.parse::<AgentLine>();
    }
}

// ---------------------------------------------------------------------------
// Searching agents

#[test]
fn searching_agents_finish_games_without_faults() {
    for (seed, (first, second)) in
        [("strong", "random"), ("greedy", "strong"), ("ab4", "greedy"), ("random", "ab4")]
            .into_iter()
            .enumerate()
    {
        let outcome = play_timed(&GAME, first, second, seed as u64, 2_000);
        assert_eq!(outcome.faults, BySide::new(None, None), "{first} vs {second}");
        let searcher =
            if first == "random" || first == "greedy" { Side::Second } else { Side::First };
        assert_eq!(outcome.result.winner(), Some(searcher), "{first} vs {second}: {outcome:?}");
    }
}

/// A small clock, but not so small that a loaded CI machine's scheduling
/// stalls (hundreds of ms were seen on a shared 2-core box) decide the test.
#[test]
fn strong_keeps_within_a_small_clock() {
    assert_keeps_its_clock(&GAME, "strong", "ab4", "greedy", 0..3, 1_000);
}

#[test]
fn strong_speaks_the_protocol_on_stdio() {
    let input =
        "READY SECOND\nOPP 1 1 2 2 5\nTURN 9995 10000\nOPP 2 2 3 3 4\nTURN 9990 9991\nFINISH\n";
    let mut agent = GAME.agent("strong", 7).unwrap();
    let mut output = Vec::new();
    versus_core::run_stdio(agent.as_mut(), input.as_bytes(), &mut output).unwrap();
    let replies: Vec<String> =
        String::from_utf8(output).unwrap().lines().map(String::from).collect();
    assert_eq!(replies.len(), 3, "{replies:?}");
    assert_eq!(replies[0], "OK");
    // Follow the game and check each reply is a legal move there.
    let mut state = State::start();
    let cells = |line: &str| -> Vec<u8> {
        line.split_whitespace().skip(1).take(4).map(|f| f.parse().unwrap()).collect()
    };
    let opponent = ["OPP 1 1 2 2 5", "OPP 2 2 3 3 4"];
    for (opp, reply) in opponent.iter().zip(&replies[1..]) {
        let c = cells(opp);
        let sq = |r, c| Square::new(r, c).unwrap();
        state.play(state.move_between(sq(c[0], c[1]), sq(c[2], c[3])).unwrap()).unwrap();
        assert!(reply.starts_with("MOVE "), "{reply}");
        let c: Vec<u8> = reply.split_whitespace().skip(1).map(|f| f.parse().unwrap()).collect();
        let mv = state.move_between(sq(c[0], c[1]), sq(c[2], c[3])).expect(reply);
        state.play(mv).unwrap();
    }
}
