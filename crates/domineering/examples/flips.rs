//! Where a recorded game's result changed hands: reads a game record (JSON
//! lines) on stdin and, for every position with at most `MAX_EMPTY` empty
//! cells (argument 1, default 44), proves with `strong`'s solver (a null
//! window at the komi, at most argument 2 ms, default 5000) whether the side
//! to move wins. A move after which the winner changes is a mistake by its
//! player (the proof is exact), so this names who lost the game, and when.
//!
//! `sqlite3 db "select record from games where id = N" | cargo run --release
//! -p versus-domineering --example flips -- 44 5000 [settings] [table bits]` (settings
//! of the solver as in `builtin:strong?sort_exact=24`; a table of 2^bits
//! entries, default 22).

use std::io::Read;
use std::time::{Duration, Instant};

use versus_core::Side;
use versus_domineering::rules::{Move, State, Values};
use versus_domineering::search::{Engine, Features, STRONG_PARAMS};

/// `strong`'s features with `settings` (`NAME=VALUE&...`), read as the agent's spec is.
fn features(settings: &str) -> Features {
    let values = versus_core::params::values("strong", &STRONG_PARAMS, Some(settings))
        .unwrap_or_else(|error| panic!("{error}"));
    Features::from_params(&values)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let max_empty: u32 = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(44);
    let ms: u64 = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(5000);
    let settings = features(args.get(3).map_or("", String::as_str));
    let table_bits: u32 = args.get(4).and_then(|a| a.parse().ok()).unwrap_or(22);
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
    let mut engine = Engine::new(&values, table_bits, settings);
    let mut last: Option<Side> = None;
    for mv in moves {
        let empties = state.empty().count_ones();
        if empties <= max_empty && !state.is_over() {
            let me = state.side_to_move();
            let lead = state.points(me) as i32 - state.points(me.opponent()) as i32;
            let needed = if me == Side::First { 3 - lead } else { -2 - lead };
            let start = Instant::now();
            let deadline = start + Duration::from_millis(ms);
            let proof = engine.solve(&state, needed - 1, needed, Some(deadline));
            let took = start.elapsed().as_secs_f64() * 1e3;
            let winner = proof.map(|v| if v >= needed { me } else { me.opponent() });
            let flip = match (last, winner) {
                (Some(a), Some(b)) if a != b => "  <-- mistake by the previous mover",
                _ => "",
            };
            println!(
                "{empties:>3} empty, {me:?} to move, plays {mv:<8} winner {:<8} ({took:.0} ms){flip}",
                winner.map_or("?".to_string(), |w| format!("{w:?}"))
            );
            if winner.is_some() {
                last = winner;
            }
        }
        state.play(mv).expect("a legal move");
    }
    println!(
        "final: first {} second {} (+2.5)",
        state.points(Side::First),
        state.points(Side::Second)
    );
}
