//! A Connexion game from the public testing tool's log, so that its games
//! can be watched here.
//!
//! The log has no bag orders, but it has everything that was drawn: the
//! `INIT` line (both opening hands) and the tile drawn after every turn. The
//! draw orders are rebuilt from those (the tiles never drawn, if the game
//! stopped early, follow in a fixed order), and the game is played again
//! through the referee with each side replying what the log says it played,
//! taking the time the log charged. A side's `ABORT` becomes its fault after
//! its last logged move: a time-out for `TLE`, otherwise the logged reason
//! (the offending line itself is not in the log).

use std::collections::VecDeque;
use std::time::Duration;

use versus_connexion::rules::Tile;
use versus_core::{
    play, BySide, Endpoint, Fault, GameConfig, Header, RecordLine, Reply, Side, TimeControl,
};

/// Whether `text` looks like a testing-tool log.
#[must_use]
pub fn is_log(text: &str) -> bool {
    text.trim_start().starts_with("[FIRST \"COMMAND:")
}

/// The side a log line names.
fn side(word: &str) -> Option<Side> {
    match word {
        "FIRST" => Some(Side::First),
        "SECOND" => Some(Side::Second),
        _ => None,
    }
}

/// What one side did, as the log tells it.
#[derive(Debug, Default)]
struct Script {
    command: String,
    opening: Vec<Tile>,
    drawn: Vec<Tile>,
    moves: VecDeque<(String, u64)>,
    abort: Option<String>,
    debug: Vec<String>,
}

/// Replays a testing-tool log into a record; the error names the bad line.
pub fn record_from_log(text: &str) -> Result<Vec<RecordLine>, String> {
    let mut scripts: BySide<Script> = BySide::default();
    for (index, line) in text.lines().enumerate() {
        let number = index + 1;
        let bad = |what: &str| format!("log line {number}: {what}: {line:?}");
        let line = line.trim_end();
        if line.is_empty() {
            continue;
        }
        if let Some(rest) = line.strip_prefix("# Debug ") {
            let (who, message) =
                rest.split_once(": ").ok_or_else(|| bad("a debug line without a side"))?;
            scripts[side(who).ok_or_else(|| bad("unknown side"))?].debug.push(message.to_owned());
            continue;
        }
        if let Some(rest) = line.strip_prefix('[') {
            let (who, value) =
                rest.split_once(' ').ok_or_else(|| bad("a header line without a value"))?;
            if let Some(who) = side(who) {
                let command = value
                    .trim_end_matches(']')
                    .trim_matches('"')
                    .strip_prefix("COMMAND: ")
                    .ok_or_else(|| bad("a player line without COMMAND"))?;
                scripts[who].command = command.to_owned();
            }
            continue;
        }
        let words: Vec<&str> = line.split_whitespace().collect();
        let tile = |word: &str| word.parse::<Tile>().map_err(|_| bad("not a tile"));
        match words[..] {
            ["INIT", ..] if words.len() == 11 => {
                for (i, word) in words[1..].iter().enumerate() {
                    let who = if i < 5 { Side::First } else { Side::Second };
                    scripts[who].opening.push(tile(word)?);
                }
            }
            ["FINISH"] => {}
            [score, _] if score.starts_with("SCORE") => {}
            ["ABORT", who, ..] => {
                let reason = words[2..].join(" ");
                scripts[side(who).ok_or_else(|| bad("unknown side"))?].abort = Some(reason);
            }
            [who, cell, placed, drawn, ms] => {
                let who = side(who).ok_or_else(|| bad("not a line of the log"))?;
                tile(placed)?;
                if drawn != "X0" {
                    scripts[who].drawn.push(tile(drawn)?);
                }
                let ms = ms.parse::<u64>().map_err(|_| bad("not a time in ms"))?;
                scripts[who].moves.push_back((format!("PUT {cell} {placed}"), ms));
            }
            _ => return Err(bad("not a line of the log")),
        }
    }
    for side in Side::BOTH {
        if scripts[side].opening.len() != 5 {
            return Err("the log has no INIT line with both players' five tiles".into());
        }
    }
    let orders = scripts.as_ref().map(|s| draw_order(s).join(" "));
    let config = GameConfig {
        seed: 0,
        time: TimeControl::CONTEST,
        input: Some(format!("{}\n{}\n", orders.first, orders.second)),
    };
    let game = &versus_connexion::GAME;
    let mut referee = versus_core::Game::referee(game, &config).map_err(|e| e.to_string())?;
    let agents = scripts.as_ref().map(|s| s.command.clone());
    let mut lines = vec![RecordLine::Header(Header {
        game: "connexion".into(),
        rules_version: versus_core::Game::rules_version(game).into(),
        config,
        agents,
    })];
    let mut endpoints = scripts.map(Scripted::new);
    play(referee.as_mut(), BySide::new(&mut endpoints.first, &mut endpoints.second), &mut |line| {
        lines.push(line)
    });
    Ok(lines)
}

/// The bag order: the opening five, the logged draws, then what was never drawn.
fn draw_order(script: &Script) -> Vec<String> {
    let mut order: Vec<Tile> = script.opening.iter().chain(&script.drawn).copied().collect();
    let mut left = [2u8; 16];
    for tile in &order {
        left[tile.index()] = left[tile.index()].saturating_sub(1);
    }
    for colour in ["R", "G", "B", "Y"] {
        for pattern in 1..=4 {
            let tile: Tile = format!("{colour}{pattern}").parse().expect("a tile name");
            for _ in 0..left[tile.index()] {
                order.push(tile);
            }
        }
    }
    order.iter().map(ToString::to_string).collect()
}

/// A side that says what the log says it said.
struct Scripted {
    replies: VecDeque<Reply>,
    debug: Vec<String>,
}

impl Scripted {
    fn new(script: Script) -> Scripted {
        let mut replies =
            VecDeque::from([Reply::Line { text: "OK".into(), elapsed: Duration::ZERO }]);
        for (text, ms) in script.moves {
            replies.push_back(Reply::Line { text, elapsed: Duration::from_millis(ms) });
        }
        if let Some(reason) = script.abort {
            replies.push_back(if reason == "TLE" {
                Reply::Timeout
            } else {
                Reply::Gone(Fault::runtime(reason, "(the offending line is not in the log)"))
            });
        }
        Scripted { replies, debug: script.debug }
    }
}

impl Endpoint for Scripted {
    fn send(&mut self, _line: &str) {}

    fn receive(&mut self, _limit: Duration) -> Reply {
        self.replies.pop_front().unwrap_or(Reply::Timeout)
    }

    fn debug_lines(&mut self) -> Vec<String> {
        std::mem::take(&mut self.debug)
    }
}
