//! A Domineering game read back from its record's lines alone, without the
//! referee (see [`versus_core::rebuild`]): the cell values from the 8 lines
//! sent to the first player, then every `MOVE` reply as written on the wire,
//! applied with the rules' [`State`]. Viewers are tested against it.

use versus_core::rebuild::{clocks_after, faulty_replies, numbers_after};
use versus_core::{BySide, Moments, RebuildError, RecordLine, Side};

use crate::rules::{Move, State, Values};

/// The game at one moment of the record.
#[derive(Clone, Debug)]
pub struct Moment {
    pub state: State,
    /// The cell values as the lines sent to the first player give them,
    /// row 1 first.
    pub values: [[u8; 8]; 8],
    /// The dominoes placed, in order: the side and the 1-based (row,
    /// column) of the covered cell with the smaller row and column.
    pub dominoes: Vec<(Side, i64, i64)>,
    /// Each side's clock in ms, where a later request states it.
    pub clocks: BySide<Option<u64>>,
}

/// `my_time` of a `TURN` line.
fn my_time(line: &str) -> Option<u64> {
    numbers_after(line, "TURN")?.first().and_then(|&ms| u64::try_from(ms).ok())
}

/// The values the first 8 lines sent to the first player give, row 1 first.
fn values(lines: &[RecordLine]) -> Result<[[u8; 8]; 8], RebuildError> {
    let mut rows = [[0u8; 8]; 8];
    let mut sent = lines.iter().enumerate().filter_map(|(index, l)| match l {
        RecordLine::Send { side: Side::First, line } => Some((index, line)),
        _ => None,
    });
    for row in &mut rows {
        let (index, line) = sent.next().ok_or_else(|| RebuildError::new(0, "no values", ""))?;
        let values: Vec<u8> =
            line.split_ascii_whitespace().filter_map(|word| word.parse().ok()).collect();
        *row = values
            .try_into()
            .map_err(|_| RebuildError::new(index, "a line of 8 values expected", line))?;
    }
    Ok(rows)
}

/// Every moment of the game `lines` record (header first).
pub fn rebuild(lines: &[RecordLine]) -> Result<Moments<Moment>, RebuildError> {
    let faulty = faulty_replies(lines);
    let values = values(lines)?;
    let state = State::new(
        Values::from_rows(values)
            .ok_or_else(|| RebuildError::new(0, "a cell value out of range", ""))?,
    );
    let mut now =
        Moment { state, values, dominoes: Vec::new(), clocks: clocks_after(lines, 0, my_time) };
    let mut moments = Moments::new(now.clone());
    for (index, record_line) in lines.iter().enumerate() {
        let Some((side, _)) = record_line.reply() else {
            continue;
        };
        if let RecordLine::Recv { line, .. } = record_line {
            let error = |reason: &str| RebuildError::new(index, reason, line);
            if faulty[side] != Some(index) && line.trim() != "OK" {
                if now.state.side_to_move() != side {
                    return Err(error("a move out of turn"));
                }
                let Some(&[x, y]) = numbers_after(line, "MOVE").as_deref() else {
                    return Err(error("not a move"));
                };
                let mv = Move::from_coords(x, y).ok_or_else(|| error("a cell off the board"))?;
                now.state.play(mv).map_err(|_| error("an illegal move not faulted"))?;
                if mv != Move::Pass {
                    now.dominoes.push((side, x, y));
                }
            }
        }
        now.clocks = clocks_after(lines, index, my_time);
        moments.push(index, now.clone());
    }
    Ok(moments)
}
