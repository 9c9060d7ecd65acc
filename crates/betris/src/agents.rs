//! Built-in Betris agents. They read the judge's lines with the protocol
//! module and follow both boards with the rules.

use versus_core::{AgentError, GameRng, ProtocolAgent};

use crate::protocol::{AgentLine, JudgeLine};
use crate::rules::{Bet, Block, Board, Offer, Params, Placement};

/// What an agent knows of the game: both boards, both players' chips, the
/// rounds played and its own clock.
#[derive(Clone, Debug)]
pub(crate) struct Tracker {
    pub(crate) params: Params,
    pub(crate) mine: Board,
    pub(crate) theirs: Board,
    pub(crate) chips: u32,
    pub(crate) their_chips: u32,
    /// Rounds whose placements are made (the current round's index).
    pub(crate) round: u32,
    /// The time left on this agent's clock, in ms, as the last request said.
    pub(crate) my_time: u64,
}

impl Tracker {
    fn new(params: Params) -> Self {
        Tracker {
            params,
            mine: Board::empty(params.size),
            theirs: Board::empty(params.size),
            chips: params.chips,
            their_chips: params.chips,
            round: 0,
            my_time: 0,
        }
    }

    /// The rounds still to place after the current one.
    pub(crate) fn rounds_after(&self) -> u32 {
        self.params.rounds.saturating_sub(self.round + 1)
    }
}

/// A strategy: what to bet on an offer and where to put a block.
pub(crate) trait Strategy {
    fn bet(&mut self, tracker: &Tracker, offer: Offer) -> Bet;
    /// The cells to fill, or `None` to pass.
    fn place(&mut self, tracker: &Tracker, block: Block) -> Option<u64>;
}

/// Runs a strategy over the protocol.
#[derive(Debug)]
struct Player<S> {
    tracker: Tracker,
    strategy: S,
}

impl<S: Strategy + Send> ProtocolAgent for Player<S> {
    fn respond(&mut self, line: &str) -> Result<Option<String>, AgentError> {
        let parsed: JudgeLine =
            line.parse().map_err(|e| AgentError::new(format!("{e}: {line:?}")))?;
        let reply = match parsed {
            JudgeLine::Ready => AgentLine::Ok,
            JudgeLine::Phase1(phase) => {
                self.tracker.my_time = phase.my_time;
                AgentLine::Bet(self.strategy.bet(&self.tracker, phase.offer))
            }
            JudgeLine::Phase2(phase) => {
                self.tracker.chips = phase.my_chips;
                self.tracker.their_chips = phase.opp_chips;
                self.tracker.my_time = phase.my_time;
                let mask = self.strategy.place(&self.tracker, phase.block);
                let mask = mask.unwrap_or(0);
                self.tracker.mine = self.tracker.mine.with(mask);
                AgentLine::Place(Placement::from_mask(mask))
            }
            JudgeLine::Opp(placement) => {
                let mask = self
                    .tracker
                    .theirs
                    .cells_mask(&placement)
                    .map_err(|e| AgentError::new(format!("{e}: {line:?}")))?;
                self.tracker.theirs = self.tracker.theirs.with(mask);
                self.tracker.round += 1;
                return Ok(None);
            }
            JudgeLine::Finish => return Ok(None),
        };
        Ok(Some(reply.to_string()))
    }
}

/// Uniform choices: either block, any affordable bet, any placement (a pass
/// only when there is none).
#[derive(Debug)]
struct Random {
    rng: GameRng,
}

impl Strategy for Random {
    fn bet(&mut self, tracker: &Tracker, offer: Offer) -> Bet {
        let block = if self.rng.coin() { offer.a } else { offer.b };
        let most = tracker.params.max_bet.min(tracker.chips);
        let chips = self.rng.below(u64::from(most) + 1) as u32;
        Bet { block, chips }
    }

    fn place(&mut self, tracker: &Tracker, block: Block) -> Option<u64> {
        let masks: Vec<u64> = tracker.mine.placements(block).collect();
        if masks.is_empty() {
            return None;
        }
        Some(masks[self.rng.below(masks.len() as u64) as usize])
    }
}

/// Bets nothing on the block whose best placement leaves the better board,
/// and makes that placement; ties are broken at random.
#[derive(Debug)]
struct Greedy {
    rng: GameRng,
}

impl Greedy {
    /// The best placement of `block` and the board points after it (the
    /// current points and `None` when it cannot be placed). Among equal
    /// placements each is chosen with the same probability.
    fn best(&mut self, board: &Board, block: Block) -> (u32, Option<u64>) {
        let mut best = (board.points(), None);
        let mut ties = 0;
        for mask in board.placements(block) {
            let points = board.with(mask).points();
            if best.1.is_none() || points > best.0 {
                best = (points, Some(mask));
                ties = 1;
            } else if points == best.0 {
                ties += 1;
                if self.rng.below(ties) == 0 {
                    best.1 = Some(mask);
                }
            }
        }
        best
    }
}

impl Strategy for Greedy {
    fn bet(&mut self, tracker: &Tracker, offer: Offer) -> Bet {
        let (a, _) = self.best(&tracker.mine, offer.a);
        let (b, _) = self.best(&tracker.mine, offer.b);
        let block = match a.cmp(&b) {
            std::cmp::Ordering::Greater => offer.a,
            std::cmp::Ordering::Less => offer.b,
            std::cmp::Ordering::Equal if self.rng.coin() => offer.a,
            std::cmp::Ordering::Equal => offer.b,
        };
        Bet { block, chips: 0 }
    }

    fn place(&mut self, tracker: &Tracker, block: Block) -> Option<u64> {
        self.best(&tracker.mine, block).1
    }
}

/// Greedy's placements; bets on the block whose best placement leaves the
/// better board as many chips as the two boards differ in points (within the
/// bet limit and its chips), so a chip (half a point at the end) is paid only
/// for a gain of at least a point.
#[derive(Debug)]
struct Fair {
    greedy: Greedy,
}

impl Strategy for Fair {
    fn bet(&mut self, tracker: &Tracker, offer: Offer) -> Bet {
        let (a, _) = self.greedy.best(&tracker.mine, offer.a);
        let (b, _) = self.greedy.best(&tracker.mine, offer.b);
        let block = match a.cmp(&b) {
            std::cmp::Ordering::Greater => offer.a,
            std::cmp::Ordering::Less => offer.b,
            std::cmp::Ordering::Equal if self.greedy.rng.coin() => offer.a,
            std::cmp::Ordering::Equal => offer.b,
        };
        let chips = a.abs_diff(b).min(tracker.params.max_bet).min(tracker.chips);
        Bet { block, chips }
    }

    fn place(&mut self, tracker: &Tracker, block: Block) -> Option<u64> {
        self.greedy.best(&tracker.mine, block).1
    }
}

/// A protocol agent for a game of `params` playing `strategy`.
pub(crate) fn player<S: Strategy + Send + 'static>(
    params: Params,
    strategy: S,
) -> Box<dyn ProtocolAgent> {
    Box::new(Player { tracker: Tracker::new(params), strategy })
}

/// The `random` agent for a game of `params`.
#[must_use]
pub fn random(params: Params, seed: u64) -> Box<dyn ProtocolAgent> {
    player(params, Random { rng: GameRng::new(seed) })
}

/// The `greedy` agent for a game of `params`.
#[must_use]
pub fn greedy(params: Params, seed: u64) -> Box<dyn ProtocolAgent> {
    player(params, Greedy { rng: GameRng::new(seed) })
}

/// The `fair` agent for a game of `params`.
#[must_use]
pub fn fair(params: Params, seed: u64) -> Box<dyn ProtocolAgent> {
    player(params, Fair { greedy: Greedy { rng: GameRng::new(seed) } })
}
