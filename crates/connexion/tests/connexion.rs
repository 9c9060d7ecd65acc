//! The Connexion crate's integration tests: board data, scoring, rules,
//! protocol, referee (transcripts and end conditions), agents and the log.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::Path;
use std::time::Duration;

use proptest::prelude::*;
use serde_json::{json, Value};
use versus_connexion::agents::{self, Clock, GreedyPolicy, Policy};
use versus_connexion::log::testing_tool_log;
use versus_connexion::protocol::{parse_put, AgentLine, JudgeLine};
use versus_connexion::rebuild::rebuild;
use versus_connexion::referee::{parse_input, ConnexionReferee};
use versus_connexion::rules::{scores_from_scratch, Board, Cell, Move, State, Tile, CELLS};
use versus_connexion::GAME;
use versus_core::conformance::{
    assert_keeps_its_clock, compare_frames, play_timed, same, same_clocks,
};
use versus_core::transcript::Transcript;
use versus_core::{
    play, Action, BySide, Fault, Game, GameConfig, GameRng, LocalEndpoint, ProtocolAgent,
    RecordLine, Referee, Reply, Side, TimeControl,
};

fn data(path: &str) -> String {
    let full = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests").join(path);
    fs::read_to_string(&full).unwrap_or_else(|e| panic!("{}: {e}", full.display()))
}

fn cell(name: &str) -> Cell {
    name.parse().unwrap()
}

fn tile(name: &str) -> Tile {
    name.parse().unwrap()
}

/// A random game position after `turns` random moves.
fn random_state(rng: &mut GameRng, turns: usize) -> State {
    let orders = BySide::from_fn(|_| {
        let mut order: [Tile; 32] = std::array::from_fn(|i| Tile::ALL[i % 16]);
        rng.shuffle(&mut order);
        order
    });
    let mut state = State::new(orders);
    for _ in 0..turns {
        let moves = state.legal_moves();
        let mv = moves[rng.below(moves.len() as u64) as usize];
        state.play(mv).unwrap();
    }
    state
}

// ---------------------------------------------------------------- board data

#[test]
fn board_matches_the_test_vectors() {
    let text = data("data/connexion_board.txt");
    let mut listed = BTreeMap::new();
    let mut summary = None;
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("# cells ") {
            summary = Some(rest.to_owned());
            continue;
        }
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let mut words = line.split_whitespace();
        let at = cell(words.next().unwrap());
        let around: BTreeSet<Cell> = words.map(cell).collect();
        assert!(listed.insert(at, around).is_none(), "{at} listed twice");
    }
    assert_eq!(listed.len(), CELLS);
    let mut by_degree = BTreeMap::new();
    let mut pairs = BTreeSet::new();
    for at in Cell::all() {
        let ours: BTreeSet<Cell> = at.neighbours().collect();
        assert_eq!(ours, listed[&at], "neighbours of {at}");
        let mask = ours.iter().fold(0, |m, c| m | c.bit());
        assert_eq!(at.neighbour_mask(), mask, "mask of {at}");
        *by_degree.entry(ours.len()).or_insert(0) += 1;
        for other in ours {
            pairs.insert((at.min(other), at.max(other)));
        }
    }
    let ours = format!(
        "64; by degree: {{2: {}, 3: {}}}; edges {}",
        by_degree[&2],
        by_degree[&3],
        pairs.len()
    );
    assert_eq!(Some(ours), summary);
    assert_eq!((by_degree[&2], by_degree[&3], pairs.len()), (32, 32, 80));
}

// ------------------------------------------------------------------- scoring

#[test]
fn statement_scoring_example() {
    let placed = [
        ("a4+", "G2"),
        ("a5-", "G1"),
        ("b4-", "B2"),
        ("b4+", "Y2"),
        ("b5-", "Y4"),
        ("b5+", "R4"),
        ("b6-", "B4"),
        ("c4+", "R3"),
        ("c5-", "R2"),
        ("c5+", "Y2"),
    ];
    let mut board = Board::new();
    for (c, t) in placed {
        board.place(cell(c), tile(t));
    }
    assert_eq!(board.scores(), BySide::new(24, 20));
    assert_eq!(scores_from_scratch(board.cells()), BySide::new(24, 20));
}

#[test]
fn incremental_scores_agree_with_scratch_over_random_games() {
    let mut rng = GameRng::new(2024);
    for _ in 0..500 {
        let mut state = random_state(&mut rng, 0);
        let mut boards = vec![state.board().clone()];
        while let Some(_side) = state.side_to_move() {
            let moves = state.legal_moves();
            let mv = moves[rng.below(moves.len() as u64) as usize];
            let before = state.scores();
            let gain = state.board().score_gain(mv.cell, mv.tile);
            state.play(mv).unwrap();
            let after = state.scores();
            assert_eq!(after, scores_from_scratch(state.board().cells()));
            assert_eq!(after.first, before.first + gain.first);
            assert_eq!(after.second, before.second + gain.second);
            boards.push(state.board().clone());
        }
        // Undo in a random order: every intermediate board scores exactly.
        let mut board = state.board().clone();
        let mut cells: Vec<Cell> = Cell::all().collect();
        rng.shuffle(&mut cells);
        for at in cells {
            board.remove(at).unwrap();
            assert_eq!(board.scores(), scores_from_scratch(board.cells()));
        }
        assert_eq!(&board, &boards[0]);
    }
}

// --------------------------------------------------------------------- rules

#[test]
fn play_rejects_exactly_what_legal_moves_omits() {
    let mut rng = GameRng::new(7);
    for game in 0..300 {
        let state = random_state(&mut rng, (game * 13) % 65);
        let legal: BTreeSet<(Cell, Tile)> =
            state.legal_moves().into_iter().map(|m| (m.cell, m.tile)).collect();
        assert_eq!(legal.len(), state.legal_moves().len(), "legal moves are distinct");
        for at in Cell::all() {
            for &t in &Tile::ALL {
                let mut copy = state.clone();
                let result = copy.play(Move { cell: at, tile: t });
                assert_eq!(result.is_ok(), legal.contains(&(at, t)), "{at} {t}");
                if result.is_err() {
                    assert_eq!(copy, state, "a rejected move changed the state");
                }
            }
        }
    }
}

#[test]
fn state_text_round_trips() {
    let mut rng = GameRng::new(99);
    for turns in 0..=64 {
        let state = random_state(&mut rng, turns);
        let text = state.to_string();
        assert_eq!(text.parse::<State>(), Ok(state.clone()), "{text}");
    }
    let start = random_state(&mut rng, 0).to_string();
    assert!(start.starts_with(&".".repeat(128)));
    // One tile too many of a kind is caught.
    let broken = start.replacen("..", "R1", 1);
    assert!(broken.parse::<State>().is_err());
}

#[test]
fn hands_and_bags_through_a_game() {
    let mut rng = GameRng::new(3);
    let mut state = random_state(&mut rng, 0);
    let mut draws = BySide::new(0, 0);
    let mut empty_draws = BySide::new(0, 0);
    while let Some(side) = state.side_to_move() {
        let expected_next = state.bag(side).remaining().first().copied();
        let mv = state.legal_moves()[0];
        let drawn = state.play(mv).unwrap();
        assert_eq!(drawn, expected_next);
        match drawn {
            Some(t) => {
                draws[side] += 1;
                assert_eq!(state.hand(side).tiles().last(), Some(&t));
            }
            None => empty_draws[side] += 1,
        }
    }
    assert_eq!(draws, BySide::new(27, 27));
    assert_eq!(empty_draws, BySide::new(5, 5));
    assert_eq!(state.board().count(), 64);
    assert!(state.legal_moves().is_empty());
    assert!(state.hand(Side::First).tiles().is_empty());
}

// ------------------------------------------------------------------ protocol

fn any_tile() -> impl Strategy<Value = Tile> {
    (0..16usize).prop_map(|i| Tile::ALL[i])
}

fn any_cell() -> impl Strategy<Value = Cell> {
    (0..CELLS).prop_map(|i| Cell::new(i).unwrap())
}

fn any_move() -> impl Strategy<Value = Move> {
    (any_cell(), any_tile()).prop_map(|(cell, tile)| Move { cell, tile })
}

fn any_judge_line() -> impl Strategy<Value = JudgeLine> {
    prop_oneof![
        prop_oneof![Just(Side::First), Just(Side::Second)].prop_map(JudgeLine::Ready),
        (proptest::array::uniform5(any_tile()), proptest::array::uniform5(any_tile()))
            .prop_map(|(own, opponent)| JudgeLine::Init { own, opponent }),
        (any::<u64>(), any::<u64>())
            .prop_map(|(mine, opponent)| JudgeLine::Time { mine, opponent }),
        proptest::option::of(any_tile()).prop_map(JudgeLine::Get),
        (any_move(), proptest::option::of(any_tile()), any::<u64>())
            .prop_map(|(put, drawn, ms)| JudgeLine::Opp { put, drawn, ms }),
        Just(JudgeLine::Finish),
    ]
}

proptest! {
    #[test]
    fn judge_lines_round_trip(line in any_judge_line()) {
        prop_assert_eq!(line.to_string().parse::<JudgeLine>(), Ok(line));
    }

    #[test]
    fn agent_lines_round_trip(mv in any_move()) {
        for line in [AgentLine::Ok, AgentLine::Put(mv)] {
            prop_assert_eq!(line.to_string().parse::<AgentLine>(), Ok(line));
        }
        prop_assert_eq!(mv.to_string().parse::<Move>(), Ok(mv));
    }

    #[test]
    fn parsers_never_panic(text in "\\PC{0,40}") {
        let _ = text.parse::<JudgeLine>();
        let _ = text.parse::<AgentLine>();
        let _ = parse_put(&text);
        let _ = text.parse::<Cell>();
        let _ = text.parse::<Tile>();
        let _ = text.parse::<Move>();
        let _ = text.parse::<State>();
        let _ = parse_input(&text);
    }

    #[test]
    fn near_miss_lines_never_panic(
        words in proptest::collection::vec(
            prop_oneof!["PUT|OPP|GET|TIME|INIT|READY|OK|FINISH", "[a-g][0-7][-+]", "[RGBYX][0-5]", "[0-9]{1,21}"],
            0..12,
        )
    ) {
        let text = words.join(" ");
        let _ = text.parse::<JudgeLine>();
        let _ = parse_put(&text);
        let _ = parse_input(&text);
    }
}

// --------------------------------------------------------------- transcripts

/// The config of a transcript: the contest clock and the input its
/// `# input first:` and `# input second:` comments give.
fn transcript_config(text: &str) -> GameConfig {
    let input: Vec<&str> = ["# input first: ", "# input second: "]
        .iter()
        .map(|prefix| {
            text.lines()
                .find_map(|l| l.strip_prefix(prefix))
                .expect("the transcript gives both bags")
        })
        .collect();
    GameConfig { seed: 0, time: TimeControl::CONTEST, input: Some(input.join("\n")) }
}

fn check_transcript(name: &str) -> (Transcript, versus_core::Outcome) {
    let text = data(&format!("transcripts/{name}"));
    let transcript = Transcript::parse(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
    let mut referee = ConnexionReferee::new(&transcript_config(&text)).unwrap();
    let outcome = transcript.check(&mut referee);
    (transcript, outcome)
}

#[test]
fn transcripts_replay() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/transcripts");
    let mut names: Vec<String> =
        fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
    names.sort();
    assert_eq!(names.len(), 7, "{names:?}");
    for name in names {
        check_transcript(&name);
    }
}

#[test]
fn transcript_reasons() {
    let reason = |name: &str| match check_transcript(name).1.faults {
        BySide { first: Some(Fault::Runtime { reason, .. }), .. }
        | BySide { second: Some(Fault::Runtime { reason, .. }), .. } => reason,
        other => panic!("{name}: {other:?}"),
    };
    assert_eq!(reason("statement_example.txt"), "NOT EMPTY");
    assert_eq!(reason("put_parse.txt"), "PUT PARSE FAILED");
    assert_eq!(reason("ready_invalid.txt"), "INVALID READY MESSAGE");
}

// ------------------------------------------------------------------- referee

/// Drives a referee by hand: answers each TIME with `reply(turn, state)`.
struct Scripted {
    referee: ConnexionReferee,
    told: Vec<(Side, String)>,
}

impl Scripted {
    fn new(config: &GameConfig) -> Self {
        let mut referee = ConnexionReferee::new(config).unwrap();
        let Action::Ask(ready) = referee.next() else { panic!("READY first") };
        for request in ready {
            referee.answer(request.side, ok_reply("OK"));
        }
        Scripted { referee, told: Vec::new() }
    }

    /// Runs until the next TIME request, which it returns, or the outcome.
    fn until_asked(&mut self) -> Result<Side, versus_core::Outcome> {
        loop {
            match self.referee.next() {
                Action::Tell(lines) => self.told.extend(lines),
                Action::Ask(requests) => {
                    assert_eq!(requests.len(), 1);
                    assert!(requests[0].line.starts_with("TIME "));
                    return Ok(requests[0].side);
                }
                Action::Over(outcome) => return Err(outcome),
            }
        }
    }
}

fn ok_reply(text: &str) -> Reply {
    Reply::Line { text: text.into(), elapsed: Duration::from_micros(300) }
}

/// The faulty reply to give in a position.
type FaultyReply = fn(&State) -> String;

#[test]
fn every_runtime_reason() {
    let config = GameConfig::seeded(11);
    let cases: [(&str, FaultyReply); 5] = [
        ("PUT PARSE FAILED", |_| "PUT a1+R1".into()),
        ("CELL PARSE FAILED", |s| format!("PUT c3+ {}", s.hand(Side::First).tiles()[0])),
        ("TILE PARSE FAILED", |_| "PUT a1+ X0".into()),
        ("NO TILE", |s| {
            let missing =
                Tile::ALL.into_iter().find(|t| !s.hand(Side::First).contains(*t)).unwrap();
            format!("PUT a1+ {missing}")
        }),
        ("NOT EMPTY", |s| {
            let held = s.hand(Side::First).tiles()[0];
            let taken = Cell::in_mask(s.board().occupied()).next().unwrap();
            format!("PUT {taken} {held}")
        }),
    ];
    for (expected, line_for) in cases {
        let mut game = Scripted::new(&config);
        // Two good turns, then the faulty reply on the first player's second turn.
        for _ in 0..2 {
            let side = game.until_asked().unwrap();
            let mv = game.referee.state().legal_moves()[0];
            game.referee.answer(side, ok_reply(&format!("PUT {mv}")));
        }
        assert_eq!(game.until_asked(), Ok(Side::First));
        let line = line_for(game.referee.state());
        let scores = game.referee.state().scores().map(f64::from);
        game.told.clear();
        game.referee.answer(Side::First, ok_reply(&line));
        let outcome = game.until_asked().unwrap_err();
        assert_eq!(outcome.faults.first, Some(Fault::runtime(expected, line.clone())));
        assert_eq!(outcome.result, versus_core::GameResult::SecondWins);
        assert_eq!(outcome.scores, scores, "scores are kept on a fault");
        assert_eq!(
            game.told,
            [(Side::First, "FINISH".to_owned()), (Side::Second, "FINISH".to_owned())],
            "{expected}: the game ends at once"
        );
    }
}

#[test]
fn game_ends_after_exactly_64_placements_with_a_full_board() {
    let config = GameConfig::seeded(5);
    let mut referee = ConnexionReferee::new(&config).unwrap();
    let mut endpoints = BySide::new(
        LocalEndpoint::new(Box::new(agents::greedy())),
        LocalEndpoint::new(Box::new(agents::random(8))),
    );
    let mut record = Vec::new();
    let outcome =
        play(&mut referee, BySide::new(&mut endpoints.first, &mut endpoints.second), &mut |line| {
            record.push(line)
        });
    assert!(referee.state().is_over());
    assert_eq!(referee.state().board().count(), 64);
    assert_eq!(referee.state().board().empty(), 0);
    let sent: Vec<(Side, &str)> = record
        .iter()
        .filter_map(|l| match l {
            RecordLine::Send { side, line } => Some((*side, line.as_str())),
            _ => None,
        })
        .collect();
    let times = sent.iter().filter(|(_, l)| l.starts_with("TIME")).count();
    let opps = sent.iter().filter(|(_, l)| l.starts_with("OPP")).count();
    assert_eq!((times, opps), (64, 64));
    // The 64th OPP is followed by FINISH to both and nothing else.
    let last_opp = sent.iter().rposition(|(_, l)| l.starts_with("OPP")).unwrap();
    assert_eq!(sent[last_opp + 1..], [(Side::First, "FINISH"), (Side::Second, "FINISH")]);
    let expected = referee.state().scores().map(f64::from);
    assert_eq!(outcome.scores, expected);
    assert_eq!(expected.map(|s| s as u32), scores_from_scratch(referee.state().board().cells()));
    assert!(outcome.faults.first.is_none() && outcome.faults.second.is_none());
}

#[test]
fn get_says_x0_once_a_bag_is_empty() {
    let (_, record) = versus_core::conformance::play_builtin(
        &GAME,
        &GameConfig::seeded(21),
        BySide::new(("random", 1), ("greedy", 0)),
    );
    for side in Side::BOTH {
        let gets: Vec<&str> = record
            .iter()
            .filter_map(|l| match l {
                RecordLine::Send { side: s, line } if *s == side => line.strip_prefix("GET "),
                _ => None,
            })
            .collect();
        assert_eq!(gets.len(), 32);
        assert!(gets[..27].iter().all(|&g| g != "X0"), "{side}: {gets:?}");
        assert!(gets[27..].iter().all(|&g| g == "X0"), "{side}: {gets:?}");
    }
}

#[test]
fn a_fault_ends_the_game_at_once() {
    let mut game = Scripted::new(&GameConfig::seeded(4));
    let side = game.until_asked().unwrap();
    let mv = game.referee.state().legal_moves()[0];
    game.referee.answer(side, ok_reply(&format!("PUT {mv}")));
    assert_eq!(game.until_asked(), Ok(Side::Second));
    game.told.clear();
    game.referee.answer(Side::Second, Reply::Timeout);
    let outcome = game.until_asked().unwrap_err();
    assert_eq!(outcome.faults.second, Some(Fault::TimeLimit));
    assert_eq!(outcome.scores, BySide::new(1.0, 1.0));
    assert_eq!(game.told.len(), 2, "only FINISH to both: {:?}", game.told);
    assert_eq!(game.referee.next(), Action::Over(outcome));
}

#[test]
fn bad_inputs_are_config_errors() {
    for input in ["", "R1 R2", "R1\nR2\nR3"] {
        let config = GameConfig { input: Some(input.into()), ..GameConfig::seeded(0) };
        assert!(versus_core::Game::referee(&GAME, &config).is_err(), "{input:?}");
    }
}

#[test]
fn conformance() {
    versus_core::conformance::check_game(&GAME, 200);
}

/// The 64 cell names of GAMES.md: column a-f, row 1-6, sign, without the 8
/// that do not exist.
fn cell_names() -> Vec<String> {
    let missing = ["a1-", "a4-", "c3+", "c6+", "d1-", "d4-", "f3+", "f6+"];
    let mut names = Vec::new();
    for column in ['a', 'b', 'c', 'd', 'e', 'f'] {
        for row in 1..=6 {
            for sign in ['-', '+'] {
                names.push(format!("{column}{row}{sign}"));
            }
        }
    }
    names.retain(|name| !missing.contains(&name.as_str()));
    names
}

/// Every frame a viewer shows holds exactly the tiles the record's `PUT`
/// lines placed, on the cells they named; the hands are the `INIT` tiles
/// less those placed plus those the `GET` lines gave; the scores are the
/// rules' (counted from scratch) for that board.
#[test]
fn every_frame_shows_the_board_the_record_plays() {
    let names = cell_names();
    assert_eq!(names.len(), CELLS);
    let frames = versus_core::conformance::check_views(
        &GAME,
        &["random", "greedy"],
        0..10,
        &|lines, frames| {
            let moments = rebuild(lines).map_err(|e| e.to_string())?;
            compare_frames(frames, &moments, |truth, view| {
                let placed: BTreeMap<&str, &str> =
                    truth.placed.iter().map(|(c, t)| (c.as_str(), t.as_str())).collect();
                let expected: BTreeMap<&str, Option<&str>> =
                    names.iter().map(|n| (n.as_str(), placed.get(n.as_str()).copied())).collect();
                let shown: BTreeMap<&str, Option<&str>> = view["cells"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .map(|c| (c["name"].as_str().unwrap_or("?"), c["tile"].as_str()))
                    .collect();
                same("cells", &json!(shown), json!(expected))?;
                let state = &truth.state;
                let hands = BySide::from_fn(|side| {
                    let mut tiles: Vec<String> =
                        state.hand(side).tiles().iter().map(Tile::to_string).collect();
                    tiles.sort();
                    tiles
                });
                let mut shown_hands = view["hands"].clone();
                for side in ["first", "second"] {
                    if let Some(tiles) = shown_hands[side].as_array_mut() {
                        tiles.sort_by_key(Value::to_string);
                    }
                }
                same("hands", &shown_hands, json!(hands))?;
                same("bags", &view["bags"], json!(BySide::from_fn(|s| state.bag(s).len())))?;
                same("scores", &view["scores"], json!(scores_from_scratch(state.board().cells())))?;
                same("turn", &view["turn"], json!(state.turn()))?;
                same("side to move", &view["to_move"], json!(state.side_to_move()))?;
                same_clocks(view, truth.clocks)
            })
        },
    );
    assert!(frames > 10 * 4 * 64, "only {frames} frames");
}

// -------------------------------------------------------------------- agents

/// The greedy rule written out plainly: try every (hand tile, cell) in order,
/// score the board after the move from scratch, keep the first maximum.
fn greedy_by_brute_force(state: &State, side: Side) -> Move {
    let mut best: Option<(u32, Move)> = None;
    for &t in state.hand(side).tiles() {
        for at in Cell::all() {
            if state.board().get(at).is_some() {
                continue;
            }
            let mut cells = *state.board().cells();
            cells[at.index()] = Some(t);
            let score = scores_from_scratch(&cells)[side];
            if best.is_none() || score > best.unwrap().0 {
                best = Some((score, Move { cell: at, tile: t }));
            }
        }
    }
    best.unwrap().1
}

#[test]
fn greedy_follows_its_rule() {
    let mut rng = GameRng::new(17);
    for game in 0..200 {
        let state = random_state(&mut rng, game % 64);
        let side = state.side_to_move().unwrap();
        assert_eq!(
            GreedyPolicy.choose(&state, side, Clock::starting_now(10_000)),
            greedy_by_brute_force(&state, side),
            "{state}"
        );
    }
    // On an empty board every move scores 1: the first hand tile on a1+.
    let state = random_state(&mut rng, 0);
    let first_tile = state.hand(Side::First).tiles()[0];
    assert_eq!(
        GreedyPolicy.choose(&state, Side::First, Clock::starting_now(10_000)),
        Move { cell: cell("a1+"), tile: first_tile }
    );
}

#[test]
fn greedy_beats_random() {
    let mut greedy_points = 0.0;
    for seed in 0..20 {
        for greedy_side in Side::BOTH {
            let mut seats = BySide::new(("random", seed + 100), ("random", seed + 100));
            seats[greedy_side] = ("greedy", 0);
            let (outcome, _) = versus_core::conformance::play_builtin(
                &GAME,
                &versus_core::conformance::config(seed),
                seats,
            );
            assert!(outcome.faults.first.is_none() && outcome.faults.second.is_none());
            greedy_points += outcome.result.points(greedy_side);
        }
    }
    assert!(greedy_points >= 36.0, "greedy scored {greedy_points} of 40");
}

#[test]
fn agents_reject_nonsense() {
    let mut agent = agents::greedy();
    assert!(agent.respond("TIME 1 1").is_err());
    assert_eq!(agent.respond("READY SECOND"), Ok(Some("OK".into())));
    assert!(agent.respond("INIT R1 R1 R1 R2 R3 G1 G2 G3 G4 B1").is_err());
    let mut agent = agents::random(1);
    assert_eq!(agent.respond("READY FIRST"), Ok(Some("OK".into())));
    agent.respond("INIT R1 R2 R3 R4 G1 G2 G3 G4 B1 B2").unwrap();
    assert!(agent.respond("OPP a1+ G2 X0 3").is_err(), "out of turn");
    let reply = agent.respond("TIME 10000 10000").unwrap().unwrap();
    let mv = parse_put(&reply).unwrap();
    assert!(["R1", "R2", "R3", "R4", "G1"].contains(&mv.tile.to_string().as_str()));
    assert!(agent.respond("GET X0").is_err(), "the bag is not empty");
}

// ----------------------------------------------------------------------- log

#[test]
fn log_of_a_short_game() {
    let (transcript, outcome) = check_transcript("timeout.txt");
    let mut record = transcript.lines.clone();
    let debug = RecordLine::Debug { side: Side::Second, line: "thinking...".into() };
    let at = record.iter().position(|l| matches!(l, RecordLine::Timeout { .. })).unwrap();
    record.insert(at, debug);
    record.push(RecordLine::Footer { outcome });
    let log = testing_tool_log(BySide::new("./a.out", "python3 bot.py"), &record).unwrap();
    let expected = "\
[FIRST \"COMMAND: ./a.out\"]
[SECOND \"COMMAND: python3 bot.py\"]
[RESULT \"1-0\"]
INIT G2 B2 Y4 B4 R2 G1 Y2 R4 R3 Y2
FIRST c3- R2 R1 5
# Debug SECOND: thinking...
FINISH
SCOREFIRST 1
SCORESECOND 1
ABORT SECOND TLE
";
    assert_eq!(log, expected);
}

#[test]
fn log_of_a_complete_game() {
    let (transcript, outcome) = check_transcript("full_game.txt");
    let mut record = transcript.lines.clone();
    record.push(RecordLine::Footer { outcome });
    let log = testing_tool_log(BySide::new("a", "b"), &record).unwrap();
    let lines: Vec<&str> = log.lines().collect();
    assert_eq!(lines.len(), 3 + 1 + 64 + 3);
    assert_eq!(lines[4], "FIRST b1+ R3 R4 0");
    assert!(lines[67].starts_with("SECOND ") && lines[67].contains(" X0 "));
    assert_eq!(lines[68..], ["FINISH", "SCOREFIRST 158", "SCORESECOND 128"]);
    assert_eq!(lines[2], "[RESULT \"1-0\"]");
    assert!(testing_tool_log(BySide::new("a", "b"), &transcript.lines).is_err());
}

// ------------------------------------------------------ reference and strong

#[test]
fn new_agents_play_whole_games_without_faults() {
    for (name, game_ms) in [("margin", 1_000), ("minimax3", 1_000), ("strong", 600)] {
        for (seed, opponent) in [(1, "random"), (2, "greedy")] {
            let outcome = play_timed(&GAME, name, opponent, seed, game_ms);
            assert_eq!(outcome.faults.first, None, "{name} first vs {opponent}");
            let outcome = play_timed(&GAME, opponent, name, seed, game_ms);
            assert_eq!(outcome.faults.second, None, "{name} second vs {opponent}");
        }
    }
}

#[test]
fn strong_keeps_within_a_tiny_clock() {
    assert_keeps_its_clock(&GAME, "strong", "minimax3", "greedy", 0..2, 1_000);
}

#[test]
fn strong_speaks_the_protocol_on_stdio() {
    let input = "READY SECOND\nINIT R1 R2 R3 R4 G1 Y1 Y2 Y3 Y4 B1\nOPP a1+ Y1 B2 7\n\
                 TIME 10000 9993\nGET G3\nOPP b2- B2 G4 5\nTIME 9950 9988\nGET R1\nFINISH\n";
    let mut agent = GAME.agent("strong", 3).unwrap();
    let mut output = Vec::new();
    versus_core::run_stdio(agent.as_mut(), input.as_bytes(), &mut output).unwrap();
    let replies: Vec<String> =
        String::from_utf8(output).unwrap().lines().map(String::from).collect();
    assert_eq!(replies.len(), 3, "{replies:?}");
    assert_eq!(replies[0], "OK");
    // Replay the game as the agent saw it: each PUT must be legal there.
    let hands = BySide::new(
        ["Y1", "Y2", "Y3", "Y4", "B1"].map(tile),
        ["R1", "R2", "R3", "R4", "G1"].map(tile),
    );
    let mut state = State::from_hands(hands).unwrap();
    let opp = |text: &str| text.parse::<Move>().unwrap();
    state.play_drawing(opp("a1+ Y1"), Some(tile("B2"))).unwrap();
    state.play_drawing(parse_put(&replies[1]).unwrap(), Some(tile("G3"))).unwrap();
    // The transcript's b2- must have been left free for it to be valid.
    state.play_drawing(opp("b2- B2"), Some(tile("G4"))).unwrap();
    state.play_drawing(parse_put(&replies[2]).unwrap(), Some(tile("R1"))).unwrap();
}
