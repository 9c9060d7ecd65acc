//! A Connexion game read back from its record's lines alone, without the
//! referee (see [`versus_core::rebuild`]): both hands from the `INIT` line
//! sent to the first player, then every `PUT` reply as written on the wire
//! with the tile the mover drew from the `GET` line that follows it, applied
//! with the rules' [`State`]. Viewers are tested against it.

use versus_core::rebuild::{clocks_after, faulty_replies, numbers_after};
use versus_core::{BySide, Moments, RebuildError, RecordLine, Side};

use crate::rules::{Cell, Move, State, Tile, HAND_SIZE};

/// The game at one moment of the record.
#[derive(Clone, Debug)]
pub struct Moment {
    pub state: State,
    /// The tiles placed, in order: the cell and the tile as the `PUT` line
    /// named them.
    pub placed: Vec<(String, String)>,
    /// Each side's clock in ms, where a later request states it.
    pub clocks: BySide<Option<u64>>,
}

/// `t_mine` of a `TIME` line.
fn my_time(line: &str) -> Option<u64> {
    numbers_after(line, "TIME")?.first().and_then(|&ms| u64::try_from(ms).ok())
}

/// The hands of the `INIT` line to the first player: its five, then the
/// second player's; and that line's index.
fn hands(lines: &[RecordLine]) -> Result<(usize, BySide<[Tile; HAND_SIZE]>), RebuildError> {
    let (index, line) = lines
        .iter()
        .enumerate()
        .find_map(|(index, l)| match l {
            RecordLine::Send { side: Side::First, line } if line.starts_with("INIT") => {
                Some((index, line))
            }
            _ => None,
        })
        .ok_or_else(|| RebuildError::new(0, "no INIT line", ""))?;
    let error = || RebuildError::new(index, "INIT names ten tiles", line);
    let tiles: Vec<Tile> = line
        .split_ascii_whitespace()
        .skip(1)
        .map(|word| word.parse().map_err(|_| error()))
        .collect::<Result<_, _>>()?;
    let hand = |from: usize| -> Result<[Tile; HAND_SIZE], RebuildError> {
        tiles.get(from..from + HAND_SIZE).and_then(|t| t.try_into().ok()).ok_or_else(error)
    };
    Ok((index, BySide::new(hand(0)?, hand(HAND_SIZE)?)))
}

/// The tile the `GET` line to `side` after record line `index` names
/// (`None` for `X0`: the bag was empty).
fn drawn_after(
    lines: &[RecordLine],
    index: usize,
    side: Side,
) -> Result<Option<Tile>, RebuildError> {
    let get = lines.iter().skip(index + 1).find_map(|l| match l {
        RecordLine::Send { side: s, line } if *s == side && line.starts_with("GET") => Some(line),
        _ => None,
    });
    let error = |line: &str| RebuildError::new(index, "no GET line names the tile drawn", line);
    let get = get.ok_or_else(|| error(""))?;
    match get.split_ascii_whitespace().nth(1) {
        Some("X0") => Ok(None),
        Some(tile) => tile.parse().map(Some).map_err(|_| error(get)),
        None => Err(error(get)),
    }
}

/// Every moment of the game `lines` record (header first). Before `INIT`
/// the hands are not known yet: the start holds them already.
pub fn rebuild(lines: &[RecordLine]) -> Result<Moments<Moment>, RebuildError> {
    let faulty = faulty_replies(lines);
    let (_, hands) = hands(lines)?;
    let state = State::from_hands(hands)
        .map_err(|e| RebuildError::new(0, format!("impossible hands: {e}"), ""))?;
    let mut now = Moment { state, placed: Vec::new(), clocks: clocks_after(lines, 0, my_time) };
    let mut moments = Moments::new(now.clone());
    for (index, record_line) in lines.iter().enumerate() {
        let Some((side, _)) = record_line.reply() else {
            continue;
        };
        if let RecordLine::Recv { line, .. } = record_line {
            let error = |reason: &str| RebuildError::new(index, reason, line);
            if faulty[side] != Some(index) && line.trim() != "OK" {
                if now.state.side_to_move() != Some(side) {
                    return Err(error("a move out of turn"));
                }
                let words: Vec<&str> = line.split_ascii_whitespace().collect();
                let ["PUT", cell, tile] = words[..] else {
                    return Err(error("not a PUT line"));
                };
                let mv = Move {
                    cell: cell.parse::<Cell>().map_err(|_| error("not a cell"))?,
                    tile: tile.parse().map_err(|_| error("not a tile"))?,
                };
                let drawn = drawn_after(lines, index, side)?;
                now.state
                    .play_drawing(mv, drawn)
                    .map_err(|e| error(&format!("an illegal move not faulted: {e}")))?;
                now.placed.push((cell.to_owned(), tile.to_owned()));
            }
        }
        now.clocks = clocks_after(lines, index, my_time);
        moments.push(index, now.clone());
    }
    Ok(moments)
}
