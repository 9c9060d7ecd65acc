//! The searching levels `strong` and the reference level `ab4` (played by
//! [`crate::agents::BuiltinAgent`]), with the time management that turns the
//! protocol's clock into search limits.

use std::time::Duration;

use versus_core::{GameRng, Param};

use crate::rules::{Move, State, MAX_TURNS};
use crate::search::{fixed_depth_best, Config, Limits, Position, Searcher, Weights};

/// How a searching agent picks its move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    /// Iterative deepening under the clock with the given settings.
    Strong(Config, TimeRules),
    /// Alpha-beta to a fixed depth, material only.
    FixedDepth(u32),
}

/// How `strong` shares its clock among its moves (see [`move_limits_with`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeRules {
    /// No new iteration starts after this share of a move's time, in per cent.
    pub soft_percent: u32,
    /// The search stops outright at this many move times, in tenths (or at a
    /// fifth of the usable clock, whichever is less).
    pub hard_tenths: u32,
    /// The own moves still expected per empty cell, in per cent ...
    pub moves_per_empty_percent: u32,
    /// ... plus this many.
    pub moves_extra: u32,
}

impl TimeRules {
    /// `strong`'s rules.
    pub const STRONG: TimeRules = TimeRules {
        soft_percent: 60,
        hard_tenths: 30,
        moves_per_empty_percent: 60,
        moves_extra: 4,
    };
}

/// The search limits for one move with `my_time_ms` left on the clock, by
/// `strong`'s rules ([`TimeRules::STRONG`]).
///
/// The game is expected to last about `0.6 * empties + 4` more own moves
/// (divisions fill the board, jumps and captures stretch it), at most the turns
/// left before the cap. Each reply is charged at least 1 ms and rounded up, so
/// a millisecond per possible remaining move is never spent, plus a reserve
/// for the pipe and the scheduler (5 ms and a twentieth of the clock). No new
/// iteration starts after 0.6 of the share `usable / expected`; the search
/// stops outright at three shares or a fifth of the usable clock.
#[must_use]
pub fn move_limits(my_time_ms: u64, state: &State) -> Limits {
    move_limits_with(my_time_ms, state, &TimeRules::STRONG)
}

/// The search limits for one move under `rules` (see [`move_limits`], whose
/// constants are [`TimeRules::STRONG`]'s).
#[must_use]
pub fn move_limits_with(my_time_ms: u64, state: &State, rules: &TimeRules) -> Limits {
    let own_moves_cap = u64::from(MAX_TURNS.saturating_sub(state.turns()) + 1) / 2;
    // Never within 100 ms of the clock's end (issue 16), whatever the clock.
    let reserve = (5 + own_moves_cap + my_time_ms / 20).max(100 + own_moves_cap);
    let usable = my_time_ms.saturating_sub(reserve);
    let empties = u64::from(Position::from_state(state).empties());
    let expected_moves = (empties * u64::from(rules.moves_per_empty_percent) / 100
        + u64::from(rules.moves_extra))
    .min(own_moves_cap)
    .max(1);
    let target = usable / expected_moves;
    let hard = (target * u64::from(rules.hard_tenths) / 10).min(usable / 5).saturating_sub(1);
    Limits::time(
        Duration::from_millis(target) * rules.soft_percent / 100,
        Duration::from_millis(hard),
    )
}

/// The tunable parameters of `strong` (`builtin:strong?tempo=400&...`): its
/// evaluation weights, each an opening and an ending value in hundredths of
/// a piece ([`Weights`]), its time rules ([`TimeRules`]) and its search
/// techniques ([`Config`]; switches are 0 or 1), so that each can be measured
/// by an SPRT of one build against itself.
pub const STRONG_PARAMS: [Param; 23] = {
    const fn p(name: &'static str, default: i32, max: i32, about: &'static str) -> Param {
        Param { name, default: default as f64, min: 0.0, max: max as f64, integer: true, about }
    }
    const fn flag(name: &'static str, on: bool, about: &'static str) -> Param {
        Param { name, default: on as i32 as f64, min: 0.0, max: 1.0, integer: true, about }
    }
    let w = Weights::TUNED;
    let t = TimeRules::STRONG;
    let c = Config::STRONG;
    [
        p("material_open", w.material[0], 400, "a piece, at the start (1/100 piece)"),
        p("material_end", w.material[1], 400, "a piece, at the end"),
        p("safe_open", w.safe[0], 600, "a piece with no empty neighbour, at the start"),
        p("safe_end", w.safe[1], 600, "a piece with no empty neighbour, at the end"),
        p("mobility_open", w.mobility[0], 300, "an empty cell next to own pieces, at the start"),
        p("mobility_end", w.mobility[1], 300, "an empty cell next to own pieces, at the end"),
        p("tempo", w.tempo, 1000, "being the side to move"),
        Param {
            min: 10.0,
            ..p(
                "soft_percent",
                t.soft_percent as i32,
                100,
                "no new iteration after this % of a move's time",
            )
        },
        Param {
            min: 10.0,
            ..p("hard_tenths", t.hard_tenths as i32, 60, "stop at this many move times (tenths)")
        },
        Param {
            min: 20.0,
            ..p(
                "moves_per_empty_percent",
                t.moves_per_empty_percent as i32,
                120,
                "own moves expected per empty cell (%)",
            )
        },
        p("moves_extra", t.moves_extra as i32, 20, "... plus this many"),
        flag("killers", c.killers, "two killer moves per ply"),
        flag("iir", c.iir, "one ply less where the table has no move"),
        p("futility_margin", c.futility_margin, 1000, "futility pruning margin per ply (0: off)"),
        p("rfp_margin", c.rfp_margin, 1000, "reverse futility pruning margin per ply"),
        p("rfp_depth", c.rfp_depth, 10, "reverse futility pruning up to this depth"),
        p("lmr_base", c.lmr_base, 300, "late move reductions: constant (1/100 ply)"),
        Param {
            min: 50.0,
            ..p("lmr_divisor", c.lmr_divisor, 600, "late move reductions: ln d ln i * 100 / this")
        },
        flag("nnue", c.nnue, "the learned evaluation instead of the weights"),
        flag("multicut", c.multicut, "multi-cut: 3 of the first 6 moves cut, 3 plies shallower"),
        flag("singular", c.singular, "singular extensions of the table's move"),
        p("singular_margin", c.singular_margin, 100, "singular extensions' margin per ply"),
        flag(
            "singular_multicut",
            c.singular_multicut,
            "with singular: cut where the other moves reach beta too",
        ),
    ]
};

/// The `strong` level with its parameters set to `values` (one per
/// [`STRONG_PARAMS`], in order, whole and in range).
#[must_use]
pub fn strong_level(values: &[f64]) -> Level {
    // In range and whole (checked by the caller), so the casts are exact.
    let v = |i: usize| values[i] as i32;
    let u = |i: usize| values[i] as u32;
    let weights =
        Weights { material: [v(0), v(1)], safe: [v(2), v(3)], mobility: [v(4), v(5)], tempo: v(6) };
    let time = TimeRules {
        soft_percent: u(7),
        hard_tenths: u(8),
        moves_per_empty_percent: u(9),
        moves_extra: u(10),
    };
    let config = Config {
        weights,
        killers: v(11) != 0,
        iir: v(12) != 0,
        futility_margin: v(13),
        rfp_margin: v(14),
        rfp_depth: v(15),
        lmr_base: v(16),
        lmr_divisor: v(17),
        nnue: v(18) != 0,
        multicut: v(19) != 0,
        singular: v(20) != 0,
        singular_margin: v(21),
        singular_multicut: v(22) != 0,
        ..Config::STRONG
    };
    Level::Strong(config, time)
}

/// Makes the tables of a searching level ready for a new game: allocated
/// once, cleared for each later game.
pub(crate) fn prepare(level: Level, searcher: &mut Option<Box<Searcher>>) {
    if let Level::Strong(config, _) = level {
        match searcher {
            Some(searcher) => searcher.clear(),
            None => *searcher = Some(Box::new(Searcher::new(config))),
        }
    }
}

/// The move a searching level plays among the legal `moves` of `state`. The
/// first two turns play a division drawn from `rng` (any is sound; it varies
/// games between equal opponents).
pub(crate) fn choose(
    level: Level,
    searcher: &mut Option<Box<Searcher>>,
    rng: &mut GameRng,
    state: &State,
    moves: Vec<Move>,
    my_time_ms: u64,
) -> Move {
    if moves.len() == 1 {
        return moves[0];
    }
    match level {
        Level::FixedDepth(depth) => fixed_depth_best(state, depth).0,
        Level::Strong(config, time) => {
            if state.turns() < 2 {
                let divisions: Vec<Move> =
                    moves.into_iter().filter(|m| matches!(m, Move::Division { .. })).collect();
                return divisions[rng.below(divisions.len() as u64) as usize];
            }
            let searcher = searcher.get_or_insert_with(|| Box::new(Searcher::new(config)));
            searcher.search(state, move_limits_with(my_time_ms, state, &time)).best
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::GAME;

    #[test]
    fn the_declared_defaults_are_strongs_constants() {
        let defaults: Vec<f64> = STRONG_PARAMS.iter().map(|p| p.default).collect();
        // Weights::TUNED and TimeRules::STRONG, written out.
        assert_eq!(
            defaults[..11],
            [19.0, 181.0, 12.0, 305.0, 17.0, 50.0, 485.0, 60.0, 30.0, 60.0, 4.0]
        );
        let c = Config::STRONG;
        let flag = |b: bool| f64::from(u8::from(b));
        assert_eq!(
            defaults[11..],
            [
                flag(c.killers),
                flag(c.iir),
                f64::from(c.futility_margin),
                f64::from(c.rfp_margin),
                f64::from(c.rfp_depth),
                f64::from(c.lmr_base),
                f64::from(c.lmr_divisor),
                flag(c.nnue),
                flag(c.multicut),
                flag(c.singular),
                f64::from(c.singular_margin),
                flag(c.singular_multicut)
            ]
        );
        for param in STRONG_PARAMS {
            assert!(param.integer && param.min <= param.default && param.default <= param.max);
        }
    }

    #[test]
    fn each_value_sets_its_own_field() {
        let mut values: Vec<f64> = (1..=11).map(f64::from).collect();
        values.extend([1.0, 0.0, 13.0, 14.0, 15.0, 16.0, 17.0, 1.0, 1.0, 0.0, 22.0, 1.0]);
        let weights = Weights { material: [1, 2], safe: [3, 4], mobility: [5, 6], tempo: 7 };
        let time = TimeRules {
            soft_percent: 8,
            hard_tenths: 9,
            moves_per_empty_percent: 10,
            moves_extra: 11,
        };
        let config = Config {
            weights,
            killers: true,
            iir: false,
            futility_margin: 13,
            rfp_margin: 14,
            rfp_depth: 15,
            lmr_base: 16,
            lmr_divisor: 17,
            nnue: true,
            multicut: true,
            singular: false,
            singular_margin: 22,
            singular_multicut: true,
            ..Config::STRONG
        };
        assert_eq!(strong_level(&values), Level::Strong(config, time));
    }

    #[test]
    fn time_rules_give_the_hand_computed_limits() {
        let start = State::start();
        // 10 s at the start: 200 own moves at most, reserve 5 + 200 + 500,
        // usable 9,295 ms, 45 empty cells.
        // Strong's rules: 45 * 0.6 + 4 = 31 moves, 299 ms each; soft 0.6 of
        // that, hard 3 times less 1 ms.
        let limits = move_limits(10_000, &start);
        assert_eq!(limits.soft, Duration::from_micros(179_400));
        assert_eq!(limits.hard, Duration::from_millis(896));
        // 45 + 5 = 50 moves, 185 ms each; soft half of that, hard twice less 1 ms.
        let rules = TimeRules {
            soft_percent: 50,
            hard_tenths: 20,
            moves_per_empty_percent: 100,
            moves_extra: 5,
        };
        let limits = move_limits_with(10_000, &start, &rules);
        assert_eq!(limits.soft, Duration::from_micros(92_500));
        assert_eq!(limits.hard, Duration::from_millis(369));
    }

    #[test]
    fn a_spec_sets_strongs_parameters_or_says_what_is_wrong() {
        let mut agent = versus_core::builtin_agent(&GAME, "strong?tempo=300&hard_tenths=20", 1)
            .expect("valid settings");
        assert_eq!(agent.respond("READY FIRST").unwrap().as_deref(), Some("OK"));
        assert!(agent.respond("TURN 1000 1000").unwrap().unwrap().starts_with("MOVE "));
        let error = |spec| versus_core::builtin_agent(&GAME, spec, 1).err().unwrap().to_string();
        assert_eq!(
            error("strong?tempo=1001"),
            "parameter \"tempo\" of \"strong\" is 1001, outside its range [0, 1000]"
        );
        assert!(error("strong?speed=1")
            .starts_with("built-in agent \"strong\" has no parameter \"speed\""));
        assert_eq!(
            error("greedy?tempo=1"),
            "built-in agent \"greedy\" has no parameter \"tempo\" (it has none)"
        );
        assert!(error("stronger").starts_with("bacteria-war has no built-in agent \"stronger\""));
    }
}
