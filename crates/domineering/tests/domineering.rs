//! The referee, rules, protocol and agents of Domineering, against GAMES.md
//! section 2.

use std::fs;
use std::path::{Path, PathBuf};
use std::time::Duration;

use proptest::prelude::*;
use serde_json::{json, Value};
use versus_core::conformance::{
    assert_keeps_its_clock, check_game, check_views, compare_frames, play_timed, same, same_clocks,
};
use versus_core::transcript::Transcript;
use versus_core::{
    Action, BySide, Fault, Game, GameConfig, GameResult, GameRng, Outcome, Reply, Request, Side,
    TimeControl,
};
use versus_domineering::protocol::{AgentLine, JudgeLine};
use versus_domineering::rebuild::rebuild;
use versus_domineering::referee::parse_input;
use versus_domineering::rules::{Cell, Move, State, Values};
use versus_domineering::GAME;

fn crate_file(relative: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(relative)
}

fn read(relative: &str) -> String {
    let path = crate_file(relative);
    fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn board_config() -> GameConfig {
    GameConfig { seed: 0, time: TimeControl::CONTEST, input: Some(read("tests/data/board.txt")) }
}

fn input_config(input: &str) -> GameConfig {
    GameConfig { seed: 0, time: TimeControl::CONTEST, input: Some(input.to_owned()) }
}

// ---------------------------------------------------------------- transcripts

fn check_transcript(name: &str, config: &GameConfig) -> Outcome {
    let transcript = Transcript::parse(&read(&format!("tests/transcripts/{name}.txt")))
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    let mut referee = GAME.referee(config).unwrap();
    transcript.check(referee.as_mut())
}

fn runtime_reason(outcome: &Outcome, side: Side) -> (String, String) {
    match &outcome.faults[side] {
        Some(Fault::Runtime { reason, line }) => (reason.clone(), line.clone()),
        other => panic!("expected an RE of {side}, found {other:?}"),
    }
}

#[test]
fn transcript_short_game_with_rounding() {
    check_transcript("short_game", &board_config());
}

#[test]
fn transcript_seeded_values_and_passes() {
    check_transcript("seeded_passes", &GameConfig::seeded(1));
}

#[test]
fn transcript_tle_at_the_exact_deadline() {
    check_transcript("tle_exact_deadline", &board_config());
}

#[test]
fn transcript_tle_without_reply() {
    check_transcript("tle_timeout", &board_config());
}

#[test]
fn transcript_re_occupied() {
    let outcome = check_transcript("re_occupied", &board_config());
    assert_eq!(
        runtime_reason(&outcome, Side::Second),
        ("cell 1 2 is already covered".into(), "MOVE 1 2".into())
    );
}

#[test]
fn transcript_re_off_board() {
    let outcome = check_transcript("re_off_board", &board_config());
    assert_eq!(
        runtime_reason(&outcome, Side::First).0,
        "the horizontal domino at 3 8 leaves the board"
    );
}

#[test]
fn transcript_re_parse() {
    let outcome = check_transcript("re_parse", &board_config());
    assert_eq!(
        runtime_reason(&outcome, Side::First),
        ("MOVE takes 2 arguments, found 1".into(), "MOVE 2".into())
    );
}

#[test]
fn transcript_ready_both_fail() {
    let outcome = check_transcript("ready_both_fail", &board_config());
    assert_eq!(outcome.faults.second, Some(Fault::Stall));
}

// ---------------------------------------------------------------- suite

/// Kept small: the suite compares the judge's lines of two runs, and those
/// carry charged milliseconds, which change when the OS preempts an
/// in-process agent for over 1 ms (seen about once in 1,500 games here).
#[test]
fn conformance_suite() {
    check_game(&GAME, 300);
}

/// Every frame a viewer shows is the board the record's value lines and
/// `MOVE` lines make: the first player's dominoes cover (x, y) and
/// (x, y + 1), the second's (x, y) and (x + 1, y), 1-based as on the wire;
/// the scores are the rules' for that board.
#[test]
fn every_frame_shows_the_board_the_record_plays() {
    let frames = check_views(&GAME, &["random", "greedy"], 0..16, &|lines, frames| {
        let moments = rebuild(lines).map_err(|e| e.to_string())?;
        compare_frames(frames, &moments, |truth, view| {
            let mut cells = [['.'; 8]; 8];
            let mut dominoes = Vec::new();
            for &(side, x, y) in &truth.dominoes {
                let (x, y) = (x as usize - 1, y as usize - 1);
                let (mark, x2, y2) = match side {
                    Side::First => ('h', x, y + 1),
                    Side::Second => ('v', x + 1, y),
                };
                cells[x][y] = mark;
                cells[x2][y2] = mark;
                dominoes.push(json!({ "x": x + 1, "y": y + 1, "side": side }));
            }
            let rows: Vec<String> = cells.iter().map(String::from_iter).collect();
            same("cells", &view["cells"], json!(rows))?;
            let key = |d: &Value| (d["x"].as_u64(), d["y"].as_u64(), d["side"].to_string());
            let mut shown = view["dominoes"].as_array().cloned().unwrap_or_default();
            shown.sort_by_key(key);
            dominoes.sort_by_key(key);
            same("dominoes", &json!(shown), json!(dominoes))?;
            same("values", &view["values"], json!(truth.values))?;
            same("scores", &view["scores"], json!(truth.state.scores()))?;
            same("side to move", &view["to_move"], json!(truth.state.side_to_move()))?;
            same_clocks(view, truth.clocks)
        })
    });
    assert!(frames > 16 * 4 * 20, "only {frames} frames");
}

#[test]
fn registry_entry() {
    assert_eq!(GAME.name(), "domineering");
    assert_eq!(GAME.title(), "Domineering");
    assert_eq!(GAME.agent_names(), ["random", "greedy", "ab4", "strong", "strong-v1", "ref-ab"]);
    assert!(GAME.agent("greedy", 1).is_some());
    assert!(GAME.agent("minimax", 1).is_none());
    let error = GAME.referee(&input_config("0 0 0\n")).err().expect("a bad input is refused");
    assert_eq!(error.0, "line 1: a value line takes 8 arguments, found 3");
    let error = GAME.referee(&input_config(&"1 1 1 1 1 1 1 1\n".repeat(7))).err().unwrap();
    assert_eq!(error.0, "line 8: missing (8 lines of values are needed)");
    let mut rows = "1 1 1 1 1 1 1 1\n".repeat(8);
    rows.replace_range(32..33, "x");
    let error = GAME.referee(&input_config(&rows)).err().unwrap();
    assert_eq!(error.0, "line 3: a cell value is not an integer: \"x\"");
}

#[test]
fn greedy_beats_random_mostly() {
    let mut greedy_points = 0.0;
    for seed in 0..20 {
        for greedy in Side::BOTH {
            let seats = BySide::from_fn(|side| {
                let name = if side == greedy { "greedy" } else { "random" };
                (name, seed * 2 + side.index() as u64)
            });
            let config = versus_core::conformance::config(seed);
            let (outcome, _) = versus_core::conformance::play_builtin(&GAME, &config, seats);
            assert!(outcome.faults.first.is_none() && outcome.faults.second.is_none());
            greedy_points += outcome.result.points(greedy);
        }
    }
    assert!(greedy_points >= 30.0, "greedy scored {greedy_points} of 40");
}

// ---------------------------------------------------------------- end conditions

/// Where a scripted run stopped.
#[derive(Debug)]
enum Stop {
    Over(Outcome),
    /// The script ran out while this side was asked.
    Asked(Request),
}

/// Runs a referee, answering READY with `OK` and each TURN with the next
/// scripted line (1 ms after the request). Returns every line written.
fn drive(config: &GameConfig, script: &[&str]) -> (Vec<(Side, String)>, Stop) {
    let mut referee = GAME.referee(config).unwrap();
    let mut script = script.iter();
    let mut written = Vec::new();
    let reply =
        |text: &str| Reply::Line { text: text.to_owned(), elapsed: Duration::from_micros(500) };
    loop {
        match referee.next() {
            Action::Tell(lines) => written.extend(lines),
            Action::Ask(requests) => {
                written.extend(requests.iter().map(|r| (r.side, r.line.clone())));
                if requests[0].line.starts_with("READY") {
                    for request in &requests {
                        referee.answer(request.side, reply("OK"));
                    }
                    continue;
                }
                assert_eq!(requests.len(), 1, "{requests:?}");
                let Some(text) = script.next() else {
                    let request = requests.into_iter().next().unwrap();
                    return (written, Stop::Asked(request));
                };
                referee.answer(requests[0].side, reply(text));
            }
            Action::Over(outcome) => {
                assert!(script.next().is_none(), "the game ended before the script");
                // `next` keeps saying the same thing.
                assert_eq!(referee.next(), Action::Over(outcome.clone()));
                return (written, Stop::Over(outcome));
            }
        }
    }
}

fn over(stop: Stop) -> Outcome {
    match stop {
        Stop::Over(outcome) => outcome,
        Stop::Asked(request) => panic!("the game goes on: {request:?}"),
    }
}

fn asked(stop: Stop) -> Request {
    match stop {
        Stop::Asked(request) => request,
        Stop::Over(outcome) => panic!("the game ended: {outcome:?}"),
    }
}

fn tail(written: &[(Side, String)], n: usize) -> Vec<String> {
    written[written.len() - n..].iter().map(|(side, line)| format!("{side} {line}")).collect()
}

const PASS: &str = "MOVE -1 -1";

#[test]
fn two_passes_at_the_start_end_the_game() {
    let (written, stop) = drive(&board_config(), &[PASS, PASS]);
    let outcome = over(stop);
    assert_eq!(outcome, Outcome::from_scores(BySide::new(0.0, 2.5)));
    assert_eq!(tail(&written, 3), ["first OPP -1 -1 1", "first FINISH", "second FINISH"]);
}

#[test]
fn a_single_pass_does_not_end_the_game() {
    let request = asked(drive(&board_config(), &[PASS]).1);
    assert_eq!(request.side, Side::Second);
    // Passes separated by a placement are not consecutive.
    let script = [PASS, "MOVE 1 1", PASS];
    let request = asked(drive(&board_config(), &script).1);
    assert_eq!(request.side, Side::Second);
    let script = [PASS, "MOVE 1 1", PASS, PASS];
    let outcome = over(drive(&board_config(), &script).1);
    // (1,1) + (2,1) = 3 + 0 for the second player.
    assert_eq!(outcome.scores, BySide::new(0.0, 5.5));
}

/// Columns 1 and 8 filled by the second player's dominoes, rows in between
/// by the first player's, leaving no two empty cells side by side: after the
/// last of these moves nobody can place.
fn filling_script() -> Vec<String> {
    let verticals: Vec<(u8, u8)> =
        [1, 8].into_iter().flat_map(|y| [1, 3, 5, 7].map(|x| (x, y))).collect();
    let horizontals: Vec<(u8, u8)> = (1..=8)
        .flat_map(|x| if x % 2 == 1 { [(x, 3), (x, 6)] } else { [(x, 2), (x, 5)] })
        .collect();
    let mut script = Vec::new();
    for (index, (x, y)) in horizontals.iter().enumerate() {
        script.push(format!("MOVE {x} {y}"));
        if index + 1 < horizontals.len() {
            let (x, y) = verticals.get(index).copied().unwrap_or((0, 0));
            script.push(if x == 0 { PASS.into() } else { format!("MOVE {x} {y}") });
        }
    }
    script
}

#[test]
fn no_placement_left_ends_the_game_without_passes() {
    let ones = input_config(&"1 1 1 1 1 1 1 1\n".repeat(8));
    let script = filling_script();
    let script: Vec<&str> = script.iter().map(String::as_str).collect();
    let (last, before) = script.split_last().unwrap();
    // One move earlier the first player still has its last placement.
    assert_eq!(asked(drive(&ones, before).1).side, Side::First);
    let (written, stop) = drive(&ones, &script);
    let outcome = over(stop);
    assert!(last.starts_with("MOVE 8"), "{last}");
    assert_eq!(tail(&written, 3), ["second OPP 8 5 1", "first FINISH", "second FINISH"]);
    // 16 horizontal and 8 vertical dominoes of two 1-cells each.
    assert_eq!(outcome, Outcome::from_scores(BySide::new(32.0, 18.5)));
}

#[test]
fn the_komi_decides_equal_placement_points() {
    let zeros = input_config(&"0 0 0 0 0 0 0 0\n".repeat(8));
    let script = ["MOVE 1 1", "MOVE 1 3", "MOVE 2 4", "MOVE 3 3", PASS, PASS];
    let outcome = over(drive(&zeros, &script).1);
    assert_eq!(outcome.result, GameResult::SecondWins);
    assert_eq!(outcome.scores, BySide::new(0.0, 2.5));
}

#[test]
fn scores_match_a_hand_computed_game() {
    // On tests/data/board.txt:
    // first  (4,5)+(4,6) = 3+3, (6,1)+(6,2) = 3+3, (8,1)+(8,2) = 2+0  -> 14
    // second (5,3)+(6,3) = 3+0, (4,7)+(5,7) = 3+3, (1,8)+(2,8) = 3+1  -> 13 + 2.5
    let script =
        ["MOVE 4 5", "MOVE 5 3", "MOVE 6 1", "MOVE 4 7", "MOVE 8 1", "MOVE 1 8", PASS, PASS];
    let outcome = over(drive(&board_config(), &script).1);
    assert_eq!(outcome.scores, BySide::new(14.0, 15.5));
    assert_eq!(outcome.result, GameResult::SecondWins);
}

#[test]
fn a_side_without_placements_is_still_asked() {
    // The first player fills every row as `hh.hh.hh` while the second passes;
    // then the second places, and the first, with no placement, is asked.
    let mut script = Vec::new();
    for x in 1..=8 {
        for y in [1, 4, 7] {
            script.push(format!("MOVE {x} {y}"));
            script.push(PASS.to_owned());
        }
    }
    script.pop();
    script.push("MOVE 1 3".into());
    let script: Vec<&str> = script.iter().map(String::as_str).collect();
    let (_, stop) = drive(&board_config(), &script);
    let request = asked(stop);
    assert_eq!(request.side, Side::First);
    assert!(request.line.starts_with("TURN "));
    // A placement there is an RE ...
    let mut occupied = script.clone();
    occupied.push("MOVE 3 3");
    let outcome = over(drive(&board_config(), &occupied).1);
    let Some(Fault::Runtime { reason, .. }) = &outcome.faults.first else {
        panic!("{outcome:?}");
    };
    assert_eq!(reason, "cell 3 4 is already covered");
    // ... and a pass goes on with the second player.
    let mut passing = script.clone();
    passing.push(PASS);
    assert_eq!(asked(drive(&board_config(), &passing).1).side, Side::Second);
}

#[test]
fn an_unasked_or_repeated_reply_changes_nothing() {
    let mut referee = GAME.referee(&board_config()).unwrap();
    let ok = || Reply::Line { text: "OK".into(), elapsed: Duration::from_millis(1) };
    assert!(matches!(referee.next(), Action::Tell(lines) if lines.len() == 16));
    assert!(matches!(referee.next(), Action::Ask(requests) if requests.len() == 2));
    referee.answer(Side::First, ok());
    referee.answer(Side::First, Reply::Timeout);
    referee.answer(Side::Second, ok());
    let Action::Ask(requests) = referee.next() else {
        panic!("the first player is asked");
    };
    assert_eq!(requests[0].line, "TURN 10000 10000");
    referee.answer(Side::Second, Reply::Timeout);
    assert!(matches!(referee.next(), Action::Ask(requests) if requests[0].side == Side::First));
}

// ---------------------------------------------------------------- rules

/// Positions reached by random play with few passes, finished ones included.
fn random_positions(seed: u64, count: usize) -> Vec<State> {
    let mut rng = GameRng::new(seed);
    (0..count)
        .map(|_| {
            let mut state = State::new(Values::random(&mut rng));
            let plies = rng.below(60);
            for _ in 0..plies {
                let moves = state.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let mv = moves[rng.below(moves.len() as u64) as usize];
                if mv != Move::Pass || rng.below(10) == 0 {
                    state.play(mv).unwrap();
                }
            }
            state
        })
        .collect()
}

#[test]
fn play_rejects_exactly_what_legal_moves_omits() {
    let candidates: Vec<Move> =
        (0..64).map(|i| Move::Place(Cell::new(i).unwrap())).chain([Move::Pass]).collect();
    let mut finished = 0;
    for state in random_positions(21, 3000) {
        let legal = state.legal_moves();
        finished += usize::from(state.is_over());
        for &mv in &candidates {
            let mut after = state;
            let played = after.play(mv).is_ok();
            assert_eq!(played, legal.contains(&mv), "{mv} in {state}");
            if !played {
                assert_eq!(after, state, "a rejected move changed the state");
            }
        }
    }
    assert!(finished > 10, "only {finished} finished positions");
}

#[test]
fn placement_counts_from_the_data_file() {
    let data = read("tests/data/placements.txt");
    let mut checked = 0;
    for line in data.lines() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (counts, state) = line.split_once('|').expect("counts | state");
        let counts: Vec<&str> = counts.split_whitespace().collect();
        let state: State = state.trim().parse().unwrap_or_else(|e| panic!("{line}: {e}"));
        let first: u32 = counts[0].parse().unwrap();
        let second: u32 = counts[1].parse().unwrap();
        assert_eq!(state.placements(Side::First).count_ones(), first, "{line}");
        assert_eq!(state.placements(Side::Second).count_ones(), second, "{line}");
        assert_eq!(state.is_over(), counts[2] == "over", "{line}");
        checked += 1;
    }
    assert!(checked >= 5);
}

// ---------------------------------------------------------------- protocol

fn any_move() -> impl Strategy<Value = Move> {
    prop_oneof![Just(Move::Pass), (0u8..64).prop_map(|i| Move::Place(Cell::new(i).unwrap())),]
}

fn any_side() -> impl Strategy<Value = Side> {
    prop_oneof![Just(Side::First), Just(Side::Second)]
}

fn any_judge_line() -> impl Strategy<Value = JudgeLine> {
    prop_oneof![
        proptest::array::uniform8(0u8..=3).prop_map(JudgeLine::Values),
        any_side().prop_map(JudgeLine::Ready),
        (any::<u64>(), any::<u64>()).prop_map(|(my_time, opp_time)| JudgeLine::Turn {
            my_time: my_time % 1_000_000_000_000_000_000,
            opp_time: opp_time % 1_000_000_000_000_000_000,
        }),
        (any_move(), 0u64..1_000_000_000).prop_map(|(mv, time)| JudgeLine::Opp { mv, time }),
        Just(JudgeLine::Finish),
    ]
}

fn any_agent_line() -> impl Strategy<Value = AgentLine> {
    prop_oneof![Just(AgentLine::Ok), any_move().prop_map(AgentLine::Move)]
}

proptest! {
    #[test]
    fn judge_lines_round_trip(line in any_judge_line()) {
        prop_assert_eq!(line.to_string().parse::<JudgeLine>(), Ok(line));
    }

    #[test]
    fn agent_lines_round_trip(line in any_agent_line()) {
        prop_assert_eq!(line.to_string().parse::<AgentLine>(), Ok(line));
    }

    #[test]
    fn moves_round_trip(mv in any_move()) {
        prop_assert_eq!(mv.to_string().parse::<Move>(), Ok(mv));
    }

    #[test]
    fn parsers_never_panic(text in any::<String>()) {
        let _ = text.parse::<JudgeLine>();
        let _ = text.parse::<AgentLine>();
        let _ = text.parse::<Move>();
        let _ = text.parse::<State>();
        let _ = text.parse::<Values>();
        let _ = parse_input(&text);
    }

    #[test]
    fn protocol_shaped_text_never_panics(
        command in prop_oneof![
            Just("MOVE"), Just("OK"), Just("READY"), Just("TURN"), Just("OPP"), Just("FINISH")
        ],
        args in proptest::collection::vec("-?[0-9]{0,25}|[A-Z]{1,7}", 0..10),
    ) {
        let line = format!("{command} {}", args.join(" "));
        let _ = line.parse::<JudgeLine>();
        let _ = line.parse::<AgentLine>();
        let _ = args.join(" ").parse::<JudgeLine>();
        let _ = parse_input(&args.join("\n"));
    }
}

// ---------------------------------------------------------------- searching agents

#[test]
fn searching_agents_finish_games_without_faults() {
    let pairings =
        [("strong", "random"), ("greedy", "strong"), ("ab4", "random"), ("greedy", "ab4")];
    for (seed, (first, second)) in pairings.into_iter().enumerate() {
        let outcome = play_timed(&GAME, first, second, seed as u64, 1_000);
        assert_eq!(outcome.faults, BySide::new(None, None), "{first} vs {second}");
        if first == "strong" || second == "strong" {
            let strong = if first == "strong" { Side::First } else { Side::Second };
            assert_eq!(outcome.result.winner(), Some(strong), "{first} vs {second}: {outcome:?}");
        }
    }
}

/// A small clock, but not so small that a loaded CI machine's scheduling
/// stalls decide the test.
#[test]
fn strong_keeps_within_a_small_clock() {
    assert_keeps_its_clock(&GAME, "strong", "ab4", "ab4", 0..3, 1_000);
}

#[test]
fn strong_speaks_the_protocol_on_stdio() {
    let values = "1 2 3 0 1 2 3 0\n".repeat(8);
    let input = format!(
        "{values}READY SECOND\nOPP 4 4 3\nTURN 9000 9997\nOPP 1 1 2\nTURN 8000 9995\nFINISH\n"
    );
    let mut agent = GAME.agent("strong", 7).unwrap();
    let mut output = Vec::new();
    versus_core::run_stdio(agent.as_mut(), input.as_bytes(), &mut output).unwrap();
    let replies: Vec<String> =
        String::from_utf8(output).unwrap().lines().map(String::from).collect();
    assert_eq!(replies.len(), 3, "{replies:?}");
    assert_eq!(replies[0], "OK");
    // Follow the game: each reply is a legal move where it is given.
    let mut state = State::new(parse_input(&values).map_err(|e| e.to_string()).unwrap());
    for (opp, reply) in ["4 4", "1 1"].iter().zip(&replies[1..]) {
        state.play(opp.parse().unwrap()).unwrap();
        let AgentLine::Move(mv) = reply.parse::<AgentLine>().unwrap() else {
            panic!("{reply} is not a move");
        };
        state.play(mv).unwrap_or_else(|e| panic!("{reply}: {e}"));
    }
}
