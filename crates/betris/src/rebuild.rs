//! A Betris game read back from its record's lines alone, without the
//! referee (see [`versus_core::rebuild`]): the offer from `PHASE1`, the bets
//! from `BET`, the block each side got and its chips after payment from
//! `PHASE2`, the placements from `PLACE`, applied with the rules' [`State`].
//! Viewers are tested against it.
//!
//! A fault ends the game at the faulty reply (the record's footer names the
//! side), and the referee's documented decision applies: the round of the
//! fault is not completed, so no placement of that round is made.

use versus_core::rebuild::{clocks_after, faulty_replies, numbers_after};
use versus_core::{BySide, Moments, RebuildError, RecordLine, Side};

use crate::rules::{resolve_auction, Award, Bet, Block, Offer, Params, Placement, State};

/// A block on a board and the cells it covers, 1-based (row, column) as
/// the `PLACE` line gave them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Piece {
    pub block: Block,
    pub cells: Vec<(i64, i64)>,
}

/// A round's auction, as far as the record has told it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Auction {
    /// The round's number, from 1.
    pub round: u32,
    pub offer: Offer,
    /// Each side's bet once given (a faulty reply gives none).
    pub bets: BySide<Option<Bet>>,
    /// Who got which block for how many chips, once both bets are in.
    pub awards: Option<BySide<Award>>,
    /// Who won a tie (same block, same bet) on the judge's coin.
    pub tie_winner: Option<Side>,
}

/// The game at one moment of the record.
#[derive(Clone, Debug)]
pub struct Moment {
    pub state: State,
    /// Each side's pieces, in the order they were placed.
    pub pieces: BySide<Vec<Piece>>,
    /// The round being played, or the last one played.
    pub auction: Option<Auction>,
    /// Each side's clock in ms, where a later request states it.
    pub clocks: BySide<Option<u64>>,
}

/// `my_time` of a `PHASE1` or `PHASE2` line.
fn my_time(line: &str) -> Option<u64> {
    let words: Vec<&str> = line.split_ascii_whitespace().collect();
    match words[..] {
        ["PHASE1", _, _, time, _] | ["PHASE2", _, _, _, time, _] => time.parse().ok(),
        _ => None,
    }
}

/// The block and the chips after payment that the first `PHASE2` line to
/// each side after record line `index` states.
fn phase2_after(lines: &[RecordLine], index: usize) -> BySide<Option<(Block, u32)>> {
    BySide::from_fn(|side: Side| {
        lines.iter().skip(index + 1).find_map(|l| match l {
            RecordLine::Send { side: s, line } if *s == side => {
                let words: Vec<&str> = line.split_ascii_whitespace().collect();
                match words[..] {
                    ["PHASE2", block, chips, ..] => {
                        Some((block.parse().ok()?, chips.parse().ok()?))
                    }
                    _ => None,
                }
            }
            _ => None,
        })
    })
}

/// Every moment of the game `lines` record, played with `params`.
pub fn rebuild(params: Params, lines: &[RecordLine]) -> Result<Moments<Moment>, RebuildError> {
    let faulty = faulty_replies(lines);
    let mut now = Moment {
        state: State::new(params),
        pieces: BySide::default(),
        auction: None,
        clocks: clocks_after(lines, 0, my_time),
    };
    let mut moments = Moments::new(now.clone());
    let mut placements: BySide<Option<Placement>> = BySide::default();
    for (index, record_line) in lines.iter().enumerate() {
        let error = |reason: &str, line: &str| RebuildError::new(index, reason, line);
        match record_line {
            RecordLine::Send { side: Side::First, line } if line.starts_with("PHASE1") => {
                let words: Vec<&str> = line.split_ascii_whitespace().collect();
                let (Some(a), Some(b)) = (words.get(1), words.get(2)) else {
                    return Err(error("a PHASE1 line names two blocks", line));
                };
                let offer = Offer {
                    a: a.parse().map_err(|_| error("unknown block", line))?,
                    b: b.parse().map_err(|_| error("unknown block", line))?,
                };
                now.auction = Some(Auction {
                    round: now.state.round() + 1,
                    offer,
                    bets: BySide::default(),
                    awards: None,
                    tie_winner: None,
                });
                placements = BySide::default();
            }
            RecordLine::Recv { side, line, .. } if faulty[*side] != Some(index) => {
                let side = *side;
                let words: Vec<&str> = line.split_ascii_whitespace().collect();
                match words.first().copied() {
                    Some("OK") => {}
                    Some("BET") => {
                        let Some(auction) = now.auction.as_mut() else {
                            return Err(error("a bet before any offer", line));
                        };
                        let [_, block, chips] = words[..] else {
                            return Err(error("a bet is a block and chips", line));
                        };
                        let bet = Bet {
                            block: block.parse().map_err(|_| error("unknown block", line))?,
                            chips: chips.parse().map_err(|_| error("bad chips", line))?,
                        };
                        now.state.check_bet(side, auction.offer, bet).map_err(|e| {
                            error(&format!("an illegal bet not faulted: {e}"), line)
                        })?;
                        auction.bets[side] = Some(bet);
                        if let BySide { first: Some(first), second: Some(second) } = auction.bets {
                            let bets = BySide::new(first, second);
                            let told = phase2_after(lines, index);
                            let (Some(told_first), Some(told_second)) = (told.first, told.second)
                            else {
                                return Err(error(
                                    "both bets are legal but no PHASE2 follows",
                                    line,
                                ));
                            };
                            // Only a tie calls the coin, and PHASE2 says who got its choice.
                            let awards = resolve_auction(auction.offer, bets, || {
                                told_first.0 == bets.first.block
                            });
                            now.state.pay(awards);
                            for (side, (block, chips)) in
                                [(Side::First, told_first), (Side::Second, told_second)]
                            {
                                if awards[side].block != block || now.state.chips(side) != chips {
                                    return Err(error(
                                        &format!("PHASE2 to {side} disagrees with the auction"),
                                        line,
                                    ));
                                }
                            }
                            let tie = first.block == second.block && first.chips == second.chips;
                            auction.tie_winner = tie.then(|| {
                                if awards.first.block == first.block {
                                    Side::First
                                } else {
                                    Side::Second
                                }
                            });
                            auction.awards = Some(awards);
                        }
                    }
                    Some("PLACE") => {
                        let numbers = numbers_after(line, "PLACE")
                            .ok_or_else(|| error("a placement is numbers", line))?;
                        let count = usize::try_from(numbers.first().copied().unwrap_or(-1))
                            .map_err(|_| error("no cell count", line))?;
                        if numbers.len() != 1 + 2 * count {
                            return Err(error("the cell count does not match the cells", line));
                        }
                        let cells = numbers[1..].chunks_exact(2).map(|p| (p[0], p[1])).collect();
                        placements[side] = Some(Placement { cells });
                        if let BySide { first: Some(first), second: Some(second) } = &placements {
                            let Some(awards) = now.auction.as_ref().and_then(|a| a.awards) else {
                                return Err(error("a placement before the auction", line));
                            };
                            for (side, placement) in [(Side::First, first), (Side::Second, second)]
                            {
                                let block = awards[side].block;
                                now.state.play(side, block, placement).map_err(|e| {
                                    error(&format!("an illegal placement not faulted: {e}"), line)
                                })?;
                                if !placement.is_pass() {
                                    now.pieces[side]
                                        .push(Piece { block, cells: placement.cells.clone() });
                                }
                            }
                            now.state.end_round();
                            placements = BySide::default();
                        }
                    }
                    _ => return Err(error("not a Betris reply", line)),
                }
                now.clocks = clocks_after(lines, index, my_time);
                moments.push(index, now.clone());
            }
            // A faulty reply, a time-out or a dead conversation changes no
            // board; it ends the game.
            other if other.reply().is_some() => {
                now.clocks = clocks_after(lines, index, my_time);
                moments.push(index, now.clone());
            }
            _ => {}
        }
    }
    Ok(moments)
}
