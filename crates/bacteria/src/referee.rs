//! The Bacteria War referee, as GAMES.md section 1 describes the judge.
//!
//! `READY FIRST`/`READY SECOND` go to both players at once. Then, until the
//! game is over, the side to move gets `TURN my_time opp_time` and answers
//! `MOVE x1 y1 x2 y2`; once the move is accepted the other side is told
//! `OPP x1 y1 x2 y2 time` with the mover's coordinates as given and the ms
//! charged (also after the move that ends the game). Then `FINISH` to both.
//!
//! The referee draws no random numbers: the game is decided by the start
//! position (the standard one, or `config.input`) and the replies alone.

use std::collections::VecDeque;
use std::time::Duration;

use versus_core::{
    ready_reply, timed_reply, Action, BySide, Clock, Fault, Outcome, Referee, Reply, Request,
    Rounding, Side, TimeControl,
};

use crate::protocol::{AgentLine, JudgeLine, WireMove};
use crate::rules::{Move, State};

/// The RE reason for a well-formed move the rules do not allow.
pub const ILLEGAL_MOVE: &str = "illegal move";
/// The RE reason for a reply to `TURN` that is a valid line but not a move.
pub const EXPECTED_MOVE: &str = "expected MOVE";

#[derive(Debug)]
enum Phase {
    /// Nothing said yet.
    Start,
    /// `READY` sent to both; the answers so far.
    Ready(BySide<Option<Result<(), Fault>>>),
    /// The next request is a `TURN` (or the game is over).
    Play,
    /// `TURN` sent to this side.
    Turn(Side),
    Over(Outcome),
}

/// The referee of one game.
#[derive(Debug)]
pub struct BacteriaReferee {
    state: State,
    clocks: BySide<Clock>,
    ready_limit: Duration,
    phase: Phase,
    /// Lines to tell before the phase goes on.
    told: VecDeque<Action>,
}

impl BacteriaReferee {
    /// A game from `start` with the clocks of `time` (rounded up, as ALPHANO does).
    #[must_use]
    pub fn new(start: State, time: TimeControl) -> Self {
        BacteriaReferee {
            state: start,
            clocks: BySide::from_fn(|_| Clock::new(time.game_ms, Rounding::Up)),
            ready_limit: time.ready_limit(),
            phase: Phase::Start,
            told: VecDeque::new(),
        }
    }

    /// The position now.
    #[must_use]
    pub fn state(&self) -> &State {
        &self.state
    }

    fn scores(&self) -> BySide<f64> {
        self.state.counts().map(f64::from)
    }

    fn finish(&mut self, outcome: Outcome) {
        self.told.push_back(Action::Tell(
            Side::BOTH.into_iter().map(|side| (side, JudgeLine::Finish.to_string())).collect(),
        ));
        self.phase = Phase::Over(outcome);
    }

    fn forfeit(&mut self, side: Side, fault: Fault) {
        let outcome = Outcome::forfeit(side, fault, self.scores());
        self.finish(outcome);
    }

    /// The move `text` makes for the side to move, as played and as written,
    /// or why it makes none.
    fn checked_move(&self, text: &str) -> Result<(Move, WireMove), Fault> {
        let wire = match text.parse::<AgentLine>() {
            Ok(AgentLine::Move(wire)) => wire,
            Ok(AgentLine::Ok) => return Err(Fault::runtime(EXPECTED_MOVE, text)),
            Err(error) => return Err(Fault::runtime(error.to_string(), text)),
        };
        let mv = match wire {
            WireMove::Pass => Ok(Move::Pass),
            WireMove::Cells { from, to } => self.state.move_between(from, to),
        };
        mv.ok()
            .filter(|&mv| self.state.is_legal(mv))
            .map(|mv| (mv, wire))
            .ok_or_else(|| Fault::runtime(ILLEGAL_MOVE, text))
    }

    fn answer_turn(&mut self, mover: Side, reply: Reply) {
        let (text, charged) = match timed_reply(&mut self.clocks[mover], reply) {
            Ok(line) => line,
            Err(fault) => return self.forfeit(mover, fault),
        };
        let (mv, wire) = match self.checked_move(&text) {
            Ok(checked) => checked,
            Err(fault) => return self.forfeit(mover, fault),
        };
        self.state.play_unchecked(mv);
        let opp = JudgeLine::Opp { mv: wire, time: charged };
        self.told.push_back(Action::Tell(vec![(mover.opponent(), opp.to_string())]));
        self.phase = Phase::Play;
    }
}

impl Referee for BacteriaReferee {
    fn next(&mut self) -> Action {
        if let Some(action) = self.told.pop_front() {
            return action;
        }
        match &self.phase {
            Phase::Start => {
                self.phase = Phase::Ready(BySide::default());
                Action::Ask(
                    Side::BOTH
                        .into_iter()
                        .map(|side| Request {
                            side,
                            line: JudgeLine::Ready(side).to_string(),
                            limit: self.ready_limit,
                        })
                        .collect(),
                )
            }
            Phase::Play if self.state.is_over() => {
                let outcome = Outcome::from_scores(self.scores());
                self.finish(outcome);
                self.next()
            }
            Phase::Play => {
                let mover = self.state.side_to_move();
                self.phase = Phase::Turn(mover);
                let turn = JudgeLine::Turn {
                    my_time: self.clocks[mover].remaining_ms(),
                    opp_time: self.clocks[mover.opponent()].remaining_ms(),
                };
                Action::Ask(vec![Request {
                    side: mover,
                    line: turn.to_string(),
                    limit: self.clocks[mover].limit(),
                }])
            }
            Phase::Over(outcome) => Action::Over(outcome.clone()),
            Phase::Ready(_) | Phase::Turn(_) => {
                panic!("Referee::next called before every asked side was answered")
            }
        }
    }

    fn view(&self) -> serde_json::Value {
        use crate::rules::Square;
        let board: Vec<String> = (1..=7)
            .map(|row| {
                (1..=7)
                    .map(|col| match Square::new(row, col).and_then(|s| self.state.piece_at(s)) {
                        Some(Side::First) => 'O',
                        Some(Side::Second) => 'X',
                        None => '.',
                    })
                    .collect()
            })
            .collect();
        serde_json::json!({
            "board": board,
            "to_move": self.state.side_to_move(),
            "turns": self.state.turns(),
            "scores": self.state.counts(),
            "clocks": self.clocks.as_ref().map(|c| c.remaining_ms()),
        })
    }

    fn answer(&mut self, side: Side, reply: Reply) {
        match &mut self.phase {
            Phase::Ready(answers) => {
                answers[side] = Some(ready_reply(reply, self.ready_limit));
                let (Some(first), Some(second)) = (&answers.first, &answers.second) else {
                    return;
                };
                let faults = BySide::new(first.clone().err(), second.clone().err());
                if faults.first.is_none() && faults.second.is_none() {
                    self.phase = Phase::Play;
                } else {
                    let outcome = Outcome::from_faults(faults, self.scores());
                    self.finish(outcome);
                }
            }
            Phase::Turn(mover) if *mover == side => {
                let mover = *mover;
                self.answer_turn(mover, reply);
            }
            // A reply nobody asked for changes nothing.
            _ => {}
        }
    }
}
