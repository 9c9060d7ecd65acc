//! Where a game was lost: reads a game record (JSON lines) on stdin and, for
//! every move of the side named on the command line, compares the move played
//! with `strong`'s engine: exact values (the solver) once at most `EXACT`
//! cells are empty, a timed heuristic search before that.
//!
//! `sqlite3 db "select record from games where id = N" | cargo run --release
//! -p versus-domineering --example analyse -- second 300`

use std::io::Read;
use std::time::{Duration, Instant};

use versus_core::Side;
use versus_domineering::rules::{Move, State, Values};
use versus_domineering::search::{Engine, Features, Limits};

/// Positions with at most this many empty cells are solved exactly.
const EXACT: u32 = 34;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let side =
        if args.get(1).map(String::as_str) == Some("first") { Side::First } else { Side::Second };
    let ms: u64 = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(300);
    let mut text = String::new();
    std::io::stdin().read_to_string(&mut text).expect("stdin");
    let mut rows = Vec::new();
    let mut moves = Vec::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let value: serde_json::Value = serde_json::from_str(line).expect("a JSON line");
        let said = value["line"].as_str().unwrap_or("");
        match (value["type"].as_str(), value["side"].as_str()) {
            (Some("send"), Some("first")) if rows.len() < 8 => {
                let row: Vec<u8> = said.split_whitespace().map(|w| w.parse().unwrap()).collect();
                rows.push(<[u8; 8]>::try_from(row).expect("8 values"));
            }
            (Some("recv"), _) if said.starts_with("MOVE") => {
                let n: Vec<i64> =
                    said.split_whitespace().skip(1).map(|w| w.parse().unwrap()).collect();
                moves.push(Move::from_coords(n[0], n[1]).expect("a move"));
            }
            _ => {}
        }
    }
    let values = Values::from_rows(rows.try_into().expect("8 rows")).expect("values");
    let mut state = State::new(values);
    let mut engine = Engine::new(&values, 22, Features::default());
    println!("empty  played   value(played)  value(best)  loss  best  status");
    for mv in moves {
        if state.side_to_move() == side && !state.is_over() {
            let me = side;
            let lead = state.points(me) as i32 - state.points(me.opponent()) as i32;
            let needed = if me == Side::First { 3 - lead } else { -2 - lead };
            let empties = state.empty().count_ones();
            let value_after = |engine: &mut Engine, mv: Move| -> Option<i32> {
                let mut next = state;
                next.play_unchecked(mv);
                let gain = next.points(me) as i32 - state.points(me) as i32;
                let deadline = Instant::now() + Duration::from_secs(20);
                if empties <= EXACT {
                    engine.solve(&next, -1000, 1000, Some(deadline)).map(|v| gain - v)
                } else {
                    let start = Instant::now();
                    let until = start + Duration::from_millis(ms);
                    let limits = Limits {
                        try_solve: false,
                        solve_deadline: until,
                        soft: until,
                        hard: until,
                        max_depth: 64,
                    };
                    if next.is_over() {
                        return Some(gain);
                    }
                    engine.choose(&next, &limits).value.map(|v| gain - v)
                }
            };
            let played = value_after(&mut engine, mv);
            let (best_move, best) = if empties <= EXACT {
                let mut best: Option<(Move, i32)> = None;
                for candidate in state.legal_moves() {
                    if let Some(v) = value_after(&mut engine, candidate) {
                        if best.is_none_or(|(_, b)| v > b) {
                            best = Some((candidate, v));
                        }
                    }
                }
                best.map_or((None, None), |(m, v)| (Some(m), Some(v)))
            } else {
                let until = Instant::now() + Duration::from_millis(ms);
                let limits = Limits {
                    try_solve: false,
                    solve_deadline: until,
                    soft: until,
                    hard: until,
                    max_depth: 64,
                };
                let choice = engine.choose(&state, &limits);
                (Some(choice.mv), choice.value)
            };
            let status = match best {
                Some(b) if empties <= EXACT => {
                    let won_before = b >= needed;
                    let won_after = played.is_some_and(|p| p >= needed);
                    match (won_before, won_after) {
                        (true, false) => "WON -> LOST",
                        (true, true) => "won",
                        _ => "lost",
                    }
                }
                _ => "(heuristic)",
            };
            let show = |v: Option<i32>| v.map_or("?".to_string(), |v| v.to_string());
            let loss = match (best, played) {
                (Some(b), Some(p)) => (b - p).to_string(),
                _ => "?".into(),
            };
            println!(
                "{empties:>5}  {:<8} {:>13}  {:>11}  {loss:>4}  {:<6} {status}  (needs {needed})",
                mv.to_string(),
                show(played),
                show(best),
                best_move.map_or("?".into(), |m| m.to_string()),
            );
        }
        state.play(mv).expect("a legal move");
    }
    println!(
        "final: first {} second {} (+2.5)",
        state.points(Side::First),
        state.points(Side::Second)
    );
}
