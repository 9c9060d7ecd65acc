//! A Bacteria War game read back from its record's lines alone, without the
//! referee (see [`versus_core::rebuild`]): the start position from the
//! header, then every `MOVE` reply as written on the wire, applied with the
//! rules' [`State`]. Viewers are tested against it.

use versus_core::rebuild::{clocks_after, faulty_replies, numbers_after};
use versus_core::{Moments, RebuildError, RecordLine};

use crate::rules::{Move, Square, State};

/// The game at one moment of the record.
#[derive(Clone, Debug)]
pub struct Moment {
    pub state: State,
    /// Each side's clock in ms, where a later request states it.
    pub clocks: versus_core::BySide<Option<u64>>,
}

/// `my_time` of a `TURN` line.
fn my_time(line: &str) -> Option<u64> {
    numbers_after(line, "TURN")?.first().and_then(|&ms| u64::try_from(ms).ok())
}

/// The square at 1-based wire coordinates.
fn square(row: i64, col: i64) -> Option<Square> {
    Square::new(u8::try_from(row).ok()?, u8::try_from(col).ok()?)
}

/// Every moment of the game `lines` record (header first).
pub fn rebuild(lines: &[RecordLine]) -> Result<Moments<Moment>, RebuildError> {
    let start = match lines.first() {
        Some(RecordLine::Header(header)) => match &header.config.input {
            Some(text) => text
                .trim()
                .parse()
                .map_err(|e| RebuildError::new(0, format!("start position: {e}"), text))?,
            None => State::start(),
        },
        _ => return Err(RebuildError::new(0, "no header", "")),
    };
    let faulty = faulty_replies(lines);
    let mut state = start;
    let mut moments = Moments::new(Moment { state, clocks: clocks_after(lines, 0, my_time) });
    for (index, record_line) in lines.iter().enumerate() {
        let Some((side, _)) = record_line.reply() else {
            continue;
        };
        if let RecordLine::Recv { line, .. } = record_line {
            let error = |reason: &str| RebuildError::new(index, reason, line);
            if faulty[side] != Some(index) && line.trim() != "OK" {
                if state.side_to_move() != side {
                    return Err(error("a move out of turn"));
                }
                let mv = match numbers_after(line, "MOVE").as_deref() {
                    Some([-1, -1, -1, -1]) => Move::Pass,
                    Some(&[x1, y1, x2, y2]) => {
                        let (Some(from), Some(to)) = (square(x1, y1), square(x2, y2)) else {
                            return Err(error("a cell off the board"));
                        };
                        state.move_between(from, to).map_err(|_| error("an illegal move"))?
                    }
                    _ => return Err(error("not a move")),
                };
                state.play(mv).map_err(|_| error("an illegal move not faulted"))?;
            }
        }
        moments.push(index, Moment { state, clocks: clocks_after(lines, index, my_time) });
    }
    Ok(moments)
}
