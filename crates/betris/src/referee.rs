//! The Betris judge as a sans-IO state machine.
//!
//! Conversation: `READY` to both at once (answered `OK`); then for each
//! round, `PHASE1` to both at once (answered `BET`), `PHASE2` to both at once
//! (answered `PLACE`), and `OPP` to both; after the last round, or as soon as
//! a reply faults, `FINISH` to both.
//!
//! Randomness, from [`GameRng`] streams of the game's seed:
//! - stream [`BLOCKS_STREAM`] draws each round's offer: `a` is the
//!   `below(n)`-th block of the set (n blocks, in the statement's order), then
//!   `b` is the `below(n - 1)`-th of the set without `a`. Unless the config
//!   lists the offers explicitly, this is the only use of the stream, so the
//!   offers of a seed never depend on how the players play.
//! - stream [`TIES_STREAM`] gives one `coin()` per auction tie (same block,
//!   same bet): `true` means the first player wins it. The coin is bound to
//!   the seat, so two games with the same seed and the agents swapped give
//!   each agent the other's luck.
//!
//! When a fault ends the game, the faulty round is not completed: chips paid
//! in its auction stay paid, but no placement of that round is made. The
//! scores reported are those of the boards and chips at that point.

use std::time::Duration;

use versus_core::{
    ready_reply, timed_reply, Action, BySide, Clock, Fault, GameRng, Outcome, Referee, Reply,
    Request, Rounding, Side, TimeControl,
};

use crate::protocol::{parse_bet, parse_place, JudgeLine, Phase1, Phase2};
use crate::rules::{resolve_auction, Award, Bet, Block, BlockSet, Offer, Params, Placement, State};

/// The [`GameRng::stream`] of the offers.
pub const BLOCKS_STREAM: u64 = 0;
/// The [`GameRng::stream`] of the auction tie-breaks.
pub const TIES_STREAM: u64 = 1;

/// Draws one offer from `blocks` (see the module documentation).
pub fn draw_offer(blocks: BlockSet, rng: &mut GameRng) -> Offer {
    let pick = |set: BlockSet, rng: &mut GameRng| {
        let n = rng.below(set.len() as u64) as usize;
        set.nth(n).expect("an index below the set's size")
    };
    let a = pick(blocks, rng);
    let b = pick(blocks.without(a), rng);
    Offer { a, b }
}

/// Where the offers come from.
#[derive(Debug)]
enum Offers {
    Drawn { blocks: BlockSet, rng: GameRng },
    Listed(std::vec::IntoIter<Offer>),
}

impl Offers {
    fn next(&mut self) -> Offer {
        match self {
            Offers::Drawn { blocks, rng } => draw_offer(*blocks, rng),
            Offers::Listed(offers) => offers.next().expect("one listed offer per round"),
        }
    }
}

/// Each side's answer to the current request, once given.
type Replies<T> = BySide<Option<Result<T, Fault>>>;

#[derive(Debug)]
enum Stage {
    Start,
    Ready(Replies<()>),
    Betting {
        offer: Offer,
        bets: Replies<Bet>,
    },
    /// The auction is settled and paid; `PHASE2` is due.
    Awarded(BySide<Award>),
    Placing {
        awards: BySide<Award>,
        places: Replies<(Placement, u64)>,
    },
    /// The round's placements are made; its `OPP` lines are due.
    Placed(BySide<Placement>),
    /// The round's `OPP` lines are said.
    RoundOver,
    /// `FINISH` is due.
    Ending(Outcome),
    Over(Outcome),
}

/// A round's auction as far as it has gone, for viewers.
#[derive(Clone, Copy, Debug)]
struct Auction {
    /// From 1.
    round: u32,
    offer: Offer,
    bets: BySide<Option<Bet>>,
    awards: Option<BySide<Award>>,
    /// The side the coin gave a tie to.
    tie_winner: Option<Side>,
}

/// The referee of one game.
#[derive(Debug)]
pub struct BetrisReferee {
    state: State,
    clocks: BySide<Clock>,
    ready_limit: Duration,
    offers: Offers,
    ties: GameRng,
    stage: Stage,
    /// The round being played or the last one played.
    auction: Option<Auction>,
    /// Each side's placed blocks and their cells, in order.
    pieces: BySide<Vec<(Block, u64)>>,
}

impl BetrisReferee {
    /// A game of `params` (valid, see [`Params::validate`]) with the offers
    /// drawn from `seed`.
    #[must_use]
    pub fn new(params: Params, seed: u64, time: TimeControl) -> Self {
        let offers =
            Offers::Drawn { blocks: params.blocks, rng: GameRng::stream(seed, BLOCKS_STREAM) };
        Self::with_offers(params, seed, time, offers)
    }

    /// A game of `params` with one given offer per round (each of two
    /// different blocks of the set, checked by the caller).
    #[must_use]
    pub fn with_listed_offers(
        params: Params,
        seed: u64,
        time: TimeControl,
        offers: Vec<Offer>,
    ) -> Self {
        assert_eq!(offers.len(), params.rounds as usize, "one offer per round");
        Self::with_offers(params, seed, time, Offers::Listed(offers.into_iter()))
    }

    fn with_offers(params: Params, seed: u64, time: TimeControl, offers: Offers) -> Self {
        let clock = Clock::new(time.game_ms, Rounding::Up);
        BetrisReferee {
            state: State::new(params),
            clocks: BySide::new(clock, clock),
            ready_limit: time.ready_limit(),
            offers,
            ties: GameRng::stream(seed, TIES_STREAM),
            stage: Stage::Start,
            auction: None,
            pieces: BySide::default(),
        }
    }

    /// The rules state as it stands.
    #[must_use]
    pub fn state(&self) -> &State {
        &self.state
    }

    fn ask_both(
        &self,
        line: impl Fn(Side) -> JudgeLine,
        limit: impl Fn(Side) -> Duration,
    ) -> Action {
        Action::Ask(
            Side::BOTH
                .iter()
                .map(|&side| Request { side, line: line(side).to_string(), limit: limit(side) })
                .collect(),
        )
    }

    fn time(&self, side: Side) -> (u64, u64) {
        (self.clocks[side].remaining_ms(), self.clocks[side.opponent()].remaining_ms())
    }

    /// Ends the game against the faulty sides, if any; else the replies.
    fn settle<T>(&mut self, replies: Replies<T>) -> Option<BySide<T>> {
        let replies = replies.map(|reply| {
            // The judge must answer every request; a missing answer is a dead
            // conversation, not a reason to panic.
            reply.unwrap_or_else(|| {
                Err(Fault::Crash { detail: "no reply was passed to the referee".into() })
            })
        });
        match replies {
            BySide { first: Ok(first), second: Ok(second) } => Some(BySide::new(first, second)),
            BySide { first, second } => {
                let faults = BySide::new(first.err(), second.err());
                self.stage = Stage::Ending(Outcome::from_faults(faults, self.state.scores()));
                None
            }
        }
    }

    fn start_round(&mut self) -> Action {
        if self.state.is_over() {
            self.stage = Stage::Ending(Outcome::from_scores(self.state.scores()));
            return self.next();
        }
        let offer = self.offers.next();
        self.stage = Stage::Betting { offer, bets: BySide::default() };
        self.auction = Some(Auction {
            round: self.state.round() + 1,
            offer,
            bets: BySide::default(),
            awards: None,
            tie_winner: None,
        });
        self.ask_both(
            |side| {
                let (my_time, opp_time) = self.time(side);
                JudgeLine::Phase1(Phase1 { offer, my_time, opp_time })
            },
            |side| self.clocks[side].limit(),
        )
    }

    fn bet_reply(&mut self, side: Side, offer: Offer, reply: Reply) -> Result<Bet, Fault> {
        let (line, _) = timed_reply(&mut self.clocks[side], reply)?;
        let bet = parse_bet(&line).map_err(|e| Fault::runtime(e.to_string(), &line))?;
        self.state.check_bet(side, offer, bet).map_err(|e| Fault::runtime(e.to_string(), &line))?;
        Ok(bet)
    }

    fn place_reply(
        &mut self,
        side: Side,
        award: Award,
        reply: Reply,
    ) -> Result<(Placement, u64), Fault> {
        let (line, _) = timed_reply(&mut self.clocks[side], reply)?;
        let placement = parse_place(&line).map_err(|e| Fault::runtime(e.to_string(), &line))?;
        let mask = self
            .state
            .check_placement(side, award.block, &placement)
            .map_err(|e| Fault::runtime(e.to_string(), &line))?;
        Ok((placement, mask))
    }

    /// Settles and pays the auction as soon as both bets are in, so that
    /// the moment after the bets shows who got which block for how much.
    fn settle_bets(&mut self, offer: Offer, bets: Replies<Bet>) {
        let Some(bets) = self.settle(bets) else {
            return;
        };
        let ties = &mut self.ties;
        let mut tie_winner = None;
        let awards = resolve_auction(offer, bets, || {
            let first = ties.coin();
            tie_winner = Some(if first { Side::First } else { Side::Second });
            first
        });
        if let Some(auction) = self.auction.as_mut() {
            auction.awards = Some(awards);
            auction.tie_winner = tie_winner;
        }
        self.state.pay(awards);
        self.stage = Stage::Awarded(awards);
    }

    /// Makes both placements as soon as both are in, so that the moment
    /// after them shows them.
    fn settle_places(&mut self, awards: BySide<Award>, places: Replies<(Placement, u64)>) {
        let Some(places) = self.settle(places) else {
            return;
        };
        for side in Side::BOTH {
            let mask = places[side].1;
            self.state.play_unchecked(side, mask);
            if mask != 0 {
                self.pieces[side].push((awards[side].block, mask));
            }
        }
        self.state.end_round();
        self.stage = Stage::Placed(places.map(|(placement, _)| placement));
    }
}

impl Referee for BetrisReferee {
    fn next(&mut self) -> Action {
        match std::mem::replace(&mut self.stage, Stage::Start) {
            Stage::Start => {
                self.stage = Stage::Ready(BySide::default());
                self.ask_both(|_| JudgeLine::Ready, |_| self.ready_limit)
            }
            Stage::Ready(replies) => match self.settle(replies) {
                Some(_) => self.start_round(),
                None => self.next(),
            },
            // Asked again before every reply came: the missing ones are faults.
            Stage::Betting { offer, bets } => {
                self.settle_bets(offer, bets);
                self.next()
            }
            Stage::Placing { awards, places } => {
                self.settle_places(awards, places);
                self.next()
            }
            Stage::Awarded(awards) => {
                self.stage = Stage::Placing { awards, places: BySide::default() };
                self.ask_both(
                    |side| {
                        let (my_time, opp_time) = self.time(side);
                        JudgeLine::Phase2(Phase2 {
                            block: awards[side].block,
                            my_chips: self.state.chips(side),
                            opp_chips: self.state.chips(side.opponent()),
                            my_time,
                            opp_time,
                        })
                    },
                    |side| self.clocks[side].limit(),
                )
            }
            Stage::Placed(places) => {
                self.stage = Stage::RoundOver;
                Action::Tell(
                    Side::BOTH
                        .iter()
                        .map(|&side| {
                            let seen = places[side.opponent()].clone();
                            (side, JudgeLine::Opp(seen).to_string())
                        })
                        .collect(),
                )
            }
            Stage::RoundOver => self.start_round(),
            Stage::Ending(outcome) => {
                self.stage = Stage::Over(outcome);
                Action::Tell(
                    Side::BOTH.iter().map(|&side| (side, JudgeLine::Finish.to_string())).collect(),
                )
            }
            Stage::Over(outcome) => {
                let action = Action::Over(outcome.clone());
                self.stage = Stage::Over(outcome);
                action
            }
        }
    }

    /// `boards`: each side's rows, top first, `#` filled and `.` empty;
    /// `pieces`: each side's placed blocks in order, with their cells as
    /// 1-based `[row, column]` pairs as on the wire; `auction`: the round
    /// being played or the last one (its number from 1, the offer, the
    /// bets given, the awards once both are in, and the side a tie went to
    /// on the judge's coin), or null before the first; `shapes`: the cells
    /// of the offered blocks, each in one orientation; `round`: rounds
    /// completed, of `rounds`.
    fn view(&self) -> serde_json::Value {
        use serde_json::json;
        let size = self.state.params().size;
        // `Board::is_filled` counts rows and columns from 0.
        let rows = |side: Side| {
            let board = self.state.board(side);
            (0..size)
                .map(|r| (0..size).map(|c| if board.is_filled(r, c) { '#' } else { '.' }).collect())
                .collect::<Vec<String>>()
        };
        let pieces = BySide::from_fn(|side| {
            self.pieces[side]
                .iter()
                .map(|&(block, mask)| {
                    let cells: Vec<[i64; 2]> =
                        Placement::from_mask(mask).cells.iter().map(|&(x, y)| [x, y]).collect();
                    json!({ "block": block.name(), "cells": cells })
                })
                .collect::<Vec<_>>()
        });
        let auction = self.auction.map(|a| {
            let bet = |b: Bet| json!({ "block": b.block.name(), "chips": b.chips });
            let award = |w: Award| json!({ "block": w.block.name(), "paid": w.paid });
            json!({
                "round": a.round,
                "offer": [a.offer.a.name(), a.offer.b.name()],
                "bets": a.bets.map(|b| b.map(bet)),
                "awards": a.awards.map(|w| w.map(award)),
                "tie_winner": a.tie_winner,
            })
        });
        // How the offered blocks look, for a person who does not know the
        // names: the cells of each one's first orientation.
        let shapes: serde_json::Map<String, serde_json::Value> = self
            .auction
            .iter()
            .flat_map(|a| [a.offer.a, a.offer.b])
            .map(|block| {
                let mask = block.orientations().first().map_or(0, |shape| shape.mask);
                let cells: Vec<[i64; 2]> =
                    Placement::from_mask(mask).cells.iter().map(|&(x, y)| [x, y]).collect();
                (block.name().to_owned(), json!(cells))
            })
            .collect();
        json!({
            "size": size,
            "rounds": self.state.params().rounds,
            "boards": BySide::from_fn(rows),
            "pieces": pieces,
            "chips": BySide::from_fn(|side| self.state.chips(side)),
            "round": self.state.round(),
            "auction": auction,
            "shapes": shapes,
            "scores": self.state.scores(),
            "clocks": self.clocks.as_ref().map(|c| c.remaining_ms()),
        })
    }

    fn answer(&mut self, side: Side, reply: Reply) {
        match std::mem::replace(&mut self.stage, Stage::Start) {
            Stage::Ready(mut replies) => {
                replies[side] = Some(ready_reply(reply, self.ready_limit));
                self.stage = Stage::Ready(replies);
            }
            Stage::Betting { offer, mut bets } => {
                let bet = self.bet_reply(side, offer, reply);
                if let (Ok(bet), Some(auction)) = (&bet, self.auction.as_mut()) {
                    auction.bets[side] = Some(*bet);
                }
                bets[side] = Some(bet);
                if bets.first.is_some() && bets.second.is_some() {
                    self.settle_bets(offer, bets);
                } else {
                    self.stage = Stage::Betting { offer, bets };
                }
            }
            Stage::Placing { awards, mut places } => {
                places[side] = Some(self.place_reply(side, awards[side], reply));
                if places.first.is_some() && places.second.is_some() {
                    self.settle_places(awards, places);
                } else {
                    self.stage = Stage::Placing { awards, places };
                }
            }
            // Nothing was asked: there is nothing to answer.
            other => self.stage = other,
        }
    }
}
