//! The game-tree search behind the `strong` and `ab4` agents.
//!
//! Positions are copied, not unmade: a [`Position`] is two bitboards, the side
//! to move, the turn count and an incrementally updated Zobrist key (32 bytes).
//! Scores are from the side to move's point of view, in hundredths of a piece;
//! a finished game scores `±(WIN - ply)` or 0, so a shorter win is preferred and
//! every score beyond [`WIN_BOUND`] is a proven result.

use std::time::{Duration, Instant};

use crate::rules::{dilate, Move, Square, State, CELLS, FULL, JUMPS, MAX_TURNS, NEIGHBOURS};

/// The score of a won game at ply 0.
pub const WIN: i32 = 30_000;
const INF: i32 = 32_000;
/// The deepest the search goes from the root.
pub const MAX_PLY: usize = 120;
/// Scores at or beyond this magnitude are proven wins or losses.
pub const WIN_BOUND: i32 = WIN - MAX_PLY as i32 - 8;

// ---------------------------------------------------------------------------
// Zobrist keys

const fn splitmix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

const fn zobrist_table() -> [[u64; CELLS]; 2] {
    let mut table = [[0; CELLS]; 2];
    let mut side = 0;
    while side < 2 {
        let mut cell = 0;
        while cell < CELLS {
            table[side][cell] = splitmix((side * CELLS + cell) as u64 * 0x1_0001 + 77);
            cell += 1;
        }
        side += 1;
    }
    table
}

static ZOBRIST: [[u64; CELLS]; 2] = zobrist_table();
const SIDE_KEY: u64 = splitmix(0xA7A7_0001);

/// A flip of a piece from one side to the other changes the key by this.
const fn flip_table() -> [u64; CELLS] {
    let table = zobrist_table();
    let mut flips = [0; CELLS];
    let mut cell = 0;
    while cell < CELLS {
        flips[cell] = table[0][cell] ^ table[1][cell];
        cell += 1;
    }
    flips
}

static FLIP: [u64; CELLS] = flip_table();

// ---------------------------------------------------------------------------
// Positions and moves

/// A move in the search: 6 bits of target, 6 bits of source (63 for a
/// division); a pass has both fields 63; 0 (a jump from cell 0 to itself,
/// never legal) means no move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Hash)]
pub struct SearchMove(u16);

const DIVISION_SOURCE: u16 = 63;

impl SearchMove {
    pub const NONE: SearchMove = SearchMove(0);
    pub const PASS: SearchMove = SearchMove(0xFFF);

    fn division(to: usize) -> SearchMove {
        SearchMove(to as u16 | DIVISION_SOURCE << 6)
    }

    fn jump(from: usize, to: usize) -> SearchMove {
        SearchMove(to as u16 | (from as u16) << 6)
    }

    fn to(self) -> usize {
        usize::from(self.0 & 63)
    }

    fn from(self) -> usize {
        usize::from(self.0 >> 6)
    }

    fn is_division(self) -> bool {
        self.0 >> 6 == DIVISION_SOURCE && self != SearchMove::PASS
    }

    /// The rules' move.
    #[must_use]
    pub fn to_move(self) -> Move {
        let square = |i: usize| Square::from_index(i).expect("a search move names cells 0..49");
        if self == SearchMove::PASS {
            Move::Pass
        } else if self.is_division() {
            Move::Division { to: square(self.to()) }
        } else {
            Move::Jump { from: square(self.from()), to: square(self.to()) }
        }
    }

    #[must_use]
    pub fn from_move(mv: Move) -> SearchMove {
        match mv {
            Move::Pass => SearchMove::PASS,
            Move::Division { to } => SearchMove::division(to.index()),
            Move::Jump { from, to } => SearchMove::jump(from.index(), to.index()),
        }
    }
}

/// A position as the search sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Position {
    pieces: [u64; 2],
    stm: usize,
    turns: u16,
    key: u64,
}

impl Position {
    #[must_use]
    pub fn from_state(state: &State) -> Position {
        let pieces =
            [state.pieces(versus_core::Side::First), state.pieces(versus_core::Side::Second)];
        let stm = state.side_to_move().index();
        let mut key = if stm == 1 { SIDE_KEY } else { 0 };
        for (side, &bits) in pieces.iter().enumerate() {
            let mut rest = bits;
            while rest != 0 {
                key ^= ZOBRIST[side][rest.trailing_zeros() as usize];
                rest &= rest - 1;
            }
        }
        Position { pieces, stm, turns: state.turns(), key }
    }

    #[inline(always)]
    fn own(&self) -> u64 {
        self.pieces[self.stm]
    }

    #[inline(always)]
    fn opp(&self) -> u64 {
        self.pieces[self.stm ^ 1]
    }

    #[inline(always)]
    fn empty(&self) -> u64 {
        FULL & !(self.pieces[0] | self.pieces[1])
    }

    /// Empty cells left.
    #[must_use]
    pub fn empties(&self) -> u32 {
        self.empty().count_ones()
    }

    /// The key of the transposition table: near the turn cap the turn count
    /// changes the game's value, so it is part of the key there.
    #[inline(always)]
    fn tt_key(&self) -> u64 {
        if usize::from(self.turns) + MAX_PLY >= usize::from(MAX_TURNS) {
            self.key ^ splitmix(u64::from(self.turns) + 0x5151)
        } else {
            self.key
        }
    }

    /// The position after `mv`, which must be legal.
    #[inline(always)]
    #[must_use]
    pub fn play(&self, mv: SearchMove) -> Position {
        let me = self.stm;
        let them = me ^ 1;
        let mut next = *self;
        next.stm = them;
        next.turns += 1;
        next.key ^= SIDE_KEY;
        if mv == SearchMove::PASS {
            return next;
        }
        let to = mv.to();
        let captured = NEIGHBOURS[to] & self.pieces[them];
        next.pieces[me] |= (1 << to) | captured;
        next.pieces[them] ^= captured;
        next.key ^= ZOBRIST[me][to];
        if !mv.is_division() {
            let from = mv.from();
            next.pieces[me] ^= 1 << from;
            next.key ^= ZOBRIST[me][from];
        }
        let mut rest = captured;
        while rest != 0 {
            next.key ^= FLIP[rest.trailing_zeros() as usize];
            rest &= rest - 1;
        }
        next
    }

    /// The score of a finished game for the side to move, `None` if it goes on.
    #[inline(always)]
    fn final_score(&self, ply: usize) -> Option<i32> {
        let own = self.own();
        let opp = self.opp();
        let win = WIN - ply as i32;
        if own == 0 {
            Some(-win)
        } else if opp == 0 {
            Some(win)
        } else if own | opp == FULL || self.turns >= MAX_TURNS {
            Some(match own.count_ones().cmp(&opp.count_ones()) {
                std::cmp::Ordering::Greater => win,
                std::cmp::Ordering::Less => -win,
                std::cmp::Ordering::Equal => 0,
            })
        } else {
            None
        }
    }

    /// Whether `mv` (not a pass) is a legal move here; guards against key collisions.
    #[inline(always)]
    fn is_legal(&self, mv: SearchMove) -> bool {
        if mv == SearchMove::PASS {
            return false;
        }
        let to = mv.to();
        if to >= CELLS || self.empty() & (1 << to) == 0 {
            return false;
        }
        if mv.is_division() {
            NEIGHBOURS[to] & self.own() != 0
        } else {
            let from = mv.from();
            from < CELLS && self.own() & (1 << from) != 0 && JUMPS[from] & (1 << to) != 0
        }
    }

    /// Whether the side to move has a move other than a pass.
    #[inline(always)]
    fn can_move(&self) -> bool {
        dilate(dilate(self.own())) & self.empty() != 0
    }
}

/// Moves of one node with their ordering scores.
struct MoveList {
    moves: [SearchMove; 512],
    scores: [i32; 512],
    len: usize,
}

impl MoveList {
    fn new() -> MoveList {
        MoveList { moves: [SearchMove::NONE; 512], scores: [0; 512], len: 0 }
    }

    #[inline(always)]
    fn push(&mut self, mv: SearchMove, score: i32) {
        self.moves[self.len] = mv;
        self.scores[self.len] = score;
        self.len += 1;
    }

    /// Moves the best-scored move from `from..` to `from` and returns it.
    #[inline(always)]
    fn pick(&mut self, from: usize) -> SearchMove {
        let mut best = from;
        for i in from + 1..self.len {
            if self.scores[i] > self.scores[best] {
                best = i;
            }
        }
        self.moves.swap(from, best);
        self.scores.swap(from, best);
        self.moves[from]
    }
}

/// The change in own minus opponent pieces that `mv` makes, times 2 for a
/// capture, plus 1 for a division.
#[inline(always)]
fn gain(pos: &Position, mv: SearchMove) -> i32 {
    let captures = (NEIGHBOURS[mv.to()] & pos.opp()).count_ones() as i32;
    2 * captures + i32::from(mv.is_division())
}

/// Divisions, then jumps, each with `score(mv)`; nothing when the side to move
/// has no move (the caller passes).
#[inline(always)]
fn generate(pos: &Position, list: &mut MoveList, mut score: impl FnMut(SearchMove) -> i32) {
    let own = pos.own();
    let empty = pos.empty();
    let mut targets = dilate(own) & empty;
    while targets != 0 {
        let mv = SearchMove::division(targets.trailing_zeros() as usize);
        targets &= targets - 1;
        list.push(mv, score(mv));
    }
    let mut sources = own;
    while sources != 0 {
        let from = sources.trailing_zeros() as usize;
        sources &= sources - 1;
        let mut targets = JUMPS[from] & empty;
        while targets != 0 {
            let mv = SearchMove::jump(from, targets.trailing_zeros() as usize);
            targets &= targets - 1;
            list.push(mv, score(mv));
        }
    }
}

/// Every move with its ordering score: twice the material gain, less a
/// quarter per own piece a jump leaves exposed around its source, with the
/// history score (`history[from << 6 | to]`, when given) breaking ties.
#[inline(always)]
fn generate_scored(pos: &Position, list: &mut MoveList, history: &[i32]) {
    let own = pos.own();
    let opp = pos.opp();
    let empty = pos.empty();
    let reachable = dilate(dilate(own)) & empty;
    let mut captures = [0i32; CELLS];
    let mut rest = reachable;
    while rest != 0 {
        let to = rest.trailing_zeros() as usize;
        rest &= rest - 1;
        captures[to] = (NEIGHBOURS[to] & opp).count_ones() as i32;
    }
    let history_of = |mv: SearchMove| history.get(mv.0 as usize).copied().unwrap_or(0);
    let mut targets = dilate(own) & empty;
    while targets != 0 {
        let to = targets.trailing_zeros() as usize;
        targets &= targets - 1;
        let mv = SearchMove::division(to);
        list.push(mv, (captures[to] * 8 + 4) * 2 * HISTORY_MAX + history_of(mv));
    }
    let mut sources = own;
    while sources != 0 {
        let from = sources.trailing_zeros() as usize;
        sources &= sources - 1;
        let mut targets = JUMPS[from] & empty;
        if targets == 0 {
            continue;
        }
        let exposed = (NEIGHBOURS[from] & own).count_ones() as i32;
        while targets != 0 {
            let to = targets.trailing_zeros() as usize;
            targets &= targets - 1;
            let mv = SearchMove::jump(from, to);
            list.push(mv, (captures[to] * 8 - exposed) * 2 * HISTORY_MAX + history_of(mv));
        }
    }
}

// ---------------------------------------------------------------------------
// Evaluation

/// The weights of the evaluation, in hundredths of a piece per unit of each
/// term (own minus opponent, side to move's view). Each term has an opening
/// and an ending weight, blended by the share of empty cells (45 at the start).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Weights {
    /// Pieces.
    pub material: [i32; 2],
    /// Pieces with no empty neighbour (a piece can only be captured through an
    /// empty neighbour).
    pub safe: [i32; 2],
    /// Empty cells next to a piece (division targets).
    pub mobility: [i32; 2],
    /// Being the side to move.
    pub tempo: i32,
}

impl Weights {
    /// Pieces only.
    pub const MATERIAL: Weights =
        Weights { material: [100, 100], safe: [0, 0], mobility: [0, 0], tempo: 0 };
    /// Fitted to self-play results by `examples/tune_eval.rs` (600 games at
    /// 20,000 nodes a move), scaled so that a piece is worth 100 halfway.
    pub const TUNED: Weights =
        Weights { material: [19, 181], safe: [12, 305], mobility: [17, 50], tempo: 485 };
}

/// The evaluation's terms for the side to move (own minus opponent), in the
/// order of [`Weights`]' fields.
#[must_use]
pub fn features(pos: &Position) -> [i32; 3] {
    let own = pos.own();
    let opp = pos.opp();
    let empty = pos.empty();
    let near_empty = dilate(empty);
    let count = |b: u64| b.count_ones() as i32;
    [
        count(own) - count(opp),
        count(own & !near_empty) - count(opp & !near_empty),
        count(dilate(own) & empty) - count(dilate(opp) & empty),
    ]
}

/// Empty cells at the start: the evaluation's opening weights apply there.
const OPENING_EMPTIES: i32 = 45;

/// The hand-written evaluation of `pos` for the side to move, in hundredths
/// of a piece.
#[inline(always)]
#[must_use]
pub fn evaluate(pos: &Position, w: &Weights) -> i32 {
    if w.safe == [0, 0] && w.mobility == [0, 0] && w.material[0] == w.material[1] {
        return w.material[0] * (pos.own().count_ones() as i32 - pos.opp().count_ones() as i32)
            + w.tempo;
    }
    let [material, safe, mobility] = features(pos);
    let opening = (pos.empties() as i32).min(OPENING_EMPTIES);
    let ending = OPENING_EMPTIES - opening;
    let blend = |weights: [i32; 2], term: i32| term * (weights[0] * opening + weights[1] * ending);
    (blend(w.material, material) + blend(w.safe, safe) + blend(w.mobility, mobility))
        / OPENING_EMPTIES
        + w.tempo
}

// ---------------------------------------------------------------------------
// The reference searcher: fixed depth, material only

/// Plain alpha-beta to `depth` plies with material as the evaluation and
/// moves ordered by immediate gain: the `ab4` reference level.
#[must_use]
pub fn fixed_depth_best(state: &State, depth: u32) -> (Move, i32) {
    let pos = Position::from_state(state);
    let mut best = (SearchMove::PASS, -INF);
    let mut list = MoveList::new();
    generate(&pos, &mut list, |mv| gain(&pos, mv));
    if list.len == 0 {
        return (Move::Pass, 0);
    }
    let mut alpha = -INF;
    for i in 0..list.len {
        let mv = list.pick(i);
        let score = -fixed_depth(&pos.play(mv), depth as i32 - 1, -INF, -alpha, 1);
        if score > best.1 {
            best = (mv, score);
            alpha = alpha.max(score);
        }
    }
    (best.0.to_move(), best.1)
}

fn fixed_depth(pos: &Position, depth: i32, mut alpha: i32, beta: i32, ply: usize) -> i32 {
    if let Some(score) = pos.final_score(ply) {
        return score;
    }
    if depth <= 0 {
        return evaluate(pos, &Weights::MATERIAL);
    }
    if !pos.can_move() {
        return -fixed_depth(&pos.play(SearchMove::PASS), depth - 1, -beta, -alpha, ply + 1);
    }
    let mut list = MoveList::new();
    generate(pos, &mut list, |mv| gain(pos, mv));
    let mut best = -INF;
    for i in 0..list.len {
        let mv = list.pick(i);
        let score = -fixed_depth(&pos.play(mv), depth - 1, -beta, -alpha, ply + 1);
        if score > best {
            best = score;
            if score > alpha {
                alpha = score;
                if alpha >= beta {
                    break;
                }
            }
        }
    }
    best
}

// ---------------------------------------------------------------------------
// The main searcher

/// Which techniques the searcher uses; each can be switched off to measure it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Config {
    pub weights: Weights,
    pub transposition_table: bool,
    pub history: bool,
    pub aspiration: bool,
    pub reverse_futility: bool,
    pub null_move: bool,
    pub late_move_reductions: bool,
    pub late_move_pruning: bool,
    /// Two killer moves per ply, tried after the captures of their size.
    pub killers: bool,
    /// Internal iterative reduction: one ply less where the table has no move.
    pub iir: bool,
    /// Futility pruning at depth <= 3: moves whose material gain cannot lift
    /// the static evaluation plus this margin per ply above alpha are skipped
    /// (0: off).
    pub futility_margin: i32,
    /// Reverse futility pruning's margin per ply.
    pub rfp_margin: i32,
    /// The deepest reverse futility pruning applies.
    pub rfp_depth: i32,
    /// Late move reductions: `base/100 + ln(depth) ln(index) * 100 / divisor`.
    pub lmr_base: i32,
    pub lmr_divisor: i32,
    /// The learned evaluation ([`crate::nnue`]) instead of [`Weights`].
    pub nnue: bool,
    /// Multi-cut: at a non-PV node of depth >= 6 whose static evaluation is
    /// at least beta, the first 6 moves are searched 3 plies shallower; 3
    /// of them at or above beta cut the node off.
    pub multicut: bool,
    /// Singular extensions: at depth >= 6, a table move with a lower bound
    /// (or exact score) from at least depth - 3 is searched one ply deeper
    /// when every other move, searched to half the depth, stays below its
    /// score less `singular_margin` per ply.
    pub singular: bool,
    /// Singular extensions' margin per ply (hundredths of a piece).
    pub singular_margin: i32,
    /// With singular extensions: when the other moves' search reaches its
    /// bound and that bound is at least beta, the node is cut off there
    /// (several moves beat beta: the multi-cut of today's engines).
    pub singular_multicut: bool,
    /// Empty cells at the root at or below which the search drops every
    /// unproven pruning, so that its proven results are exact.
    pub exact_endgame_empties: u32,
    /// Megabytes of transposition table.
    pub table_mb: usize,
}

impl Config {
    /// The `strong` agent's settings.
    pub const STRONG: Config = Config {
        weights: Weights::TUNED,
        transposition_table: true,
        history: true,
        aspiration: true,
        reverse_futility: true,
        // An SPRT at 1 s a game showed no gain (300 games, -11.6 ± 41.1 Elo).
        null_move: false,
        late_move_reductions: true,
        late_move_pruning: true,
        killers: true,
        iir: true,
        // Off: margin 100 won an SPRT at 1 s a game (+54.2 ± 33.3 Elo, H1 in
        // 388 games), but at 10 s it scored 37/40 against strong-v1 where
        // the same 40 seeds gave 40/40 without it; on (100) only after a
        // 10 s test says so.
        futility_margin: 0,
        rfp_margin: 120,
        rfp_depth: 3,
        lmr_base: 50,
        lmr_divisor: 200,
        nnue: true,
        multicut: false,
        singular: false,
        singular_margin: 3,
        singular_multicut: false,
        exact_endgame_empties: 6,
        table_mb: 32,
    };
}

/// When the search must stop.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// No new iteration starts after this much time.
    pub soft: Duration,
    /// The search stops, wherever it is, at this time.
    pub hard: Duration,
    /// The deepest iteration.
    pub depth: u32,
    /// Stop after this many nodes (counted across iterations).
    pub nodes: u64,
}

impl Limits {
    /// Depth only.
    #[must_use]
    pub fn depth(depth: u32) -> Limits {
        Limits { soft: Duration::MAX, hard: Duration::MAX, depth, nodes: u64::MAX }
    }

    /// Time only.
    #[must_use]
    pub fn time(soft: Duration, hard: Duration) -> Limits {
        Limits { soft, hard, depth: MAX_PLY as u32 - 8, nodes: u64::MAX }
    }
}

/// What a search found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchResult {
    pub best: Move,
    pub score: i32,
    /// The last completed iteration.
    pub depth: u32,
    pub nodes: u64,
    pub elapsed: Duration,
}

#[derive(Clone, Copy, Debug, Default)]
struct TtEntry {
    key: u64,
    mv: SearchMove,
    score: i16,
    depth: i8,
    bound: Bound,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Bound {
    #[default]
    Empty,
    Upper,
    Lower,
    Exact,
}

/// Mate scores are stored relative to the node, not the root.
fn to_tt(score: i32, ply: usize) -> i16 {
    let adjusted = if score >= WIN_BOUND {
        score + ply as i32
    } else if score <= -WIN_BOUND {
        score - ply as i32
    } else {
        score
    };
    adjusted as i16
}

fn from_tt(score: i16, ply: usize) -> i32 {
    let score = i32::from(score);
    if score >= WIN_BOUND {
        score - ply as i32
    } else if score <= -WIN_BOUND {
        score + ply as i32
    } else {
        score
    }
}

const HISTORY_MAX: i32 = 16_384;

/// Multi-cut: the least depth, the moves tried, the reduction of their
/// searches, and the cut-offs among them that cut the node.
const MULTICUT_DEPTH: i32 = 6;
const MULTICUT_MOVES: usize = 6;
const MULTICUT_REDUCTION: i32 = 3;
const MULTICUT_CUTS: usize = 3;
/// Singular extensions: the least depth.
const SINGULAR_DEPTH: i32 = 6;

/// An iterative-deepening principal-variation searcher with its tables.
pub struct Searcher {
    config: Config,
    table: Vec<TtEntry>,
    history: Vec<i32>,
    reductions: [[u8; 64]; 64],
    killers: [[SearchMove; 2]; MAX_PLY + 2],
    /// The move a singular-extension search at each ply leaves out (NONE:
    /// none).
    excluded: [SearchMove; MAX_PLY + 2],
    /// The depth of the current iteration (extensions stop at twice it).
    root_depth: i32,
    /// The learned evaluation, when used: the network, the pieces of the
    /// node at each ply of the current line, and its accumulators, computed
    /// lazily (`acc_valid[ply]`) from the nearest valid ancestor.
    net: Option<&'static crate::nnue::Network>,
    line: Vec<[u64; 2]>,
    acc: Vec<crate::nnue::Accumulator>,
    acc_valid: Vec<bool>,
    nodes: u64,
    start: Instant,
    limits: Limits,
    stopped: bool,
    exact: bool,
    root_best: SearchMove,
}

impl std::fmt::Debug for Searcher {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Searcher")
            .field("config", &self.config)
            .field("table_entries", &self.table.len())
            .field("nodes", &self.nodes)
            .finish_non_exhaustive()
    }
}

impl Searcher {
    #[must_use]
    pub fn new(config: Config) -> Searcher {
        let entries = if config.transposition_table {
            (config.table_mb << 20) / std::mem::size_of::<TtEntry>()
        } else {
            1
        };
        let entries = entries.next_power_of_two() / if entries.is_power_of_two() { 1 } else { 2 };
        let mut reductions = [[0; 64]; 64];
        for (depth, row) in reductions.iter_mut().enumerate().skip(1) {
            for (index, r) in row.iter_mut().enumerate().skip(1) {
                let value = f64::from(config.lmr_base) / 100.0
                    + (depth as f64).ln() * (index as f64).ln() * 100.0
                        / f64::from(config.lmr_divisor.max(1));
                *r = value.max(0.0) as u8;
            }
        }
        // Written once here (not left to the allocator's lazily zeroed pages)
        // so that no page fault lands in a timed move.
        let mut table = Vec::with_capacity(entries.max(1));
        table.resize(entries.max(1), TtEntry::default());
        table.iter_mut().for_each(|e| *e = TtEntry { depth: -1, ..TtEntry::default() });
        Searcher {
            config,
            table,
            history: vec![0; 2 * 64 * 64],
            reductions,
            killers: [[SearchMove::NONE; 2]; MAX_PLY + 2],
            excluded: [SearchMove::NONE; MAX_PLY + 2],
            root_depth: 0,
            net: config.nnue.then(crate::nnue::embedded),
            line: vec![[0; 2]; MAX_PLY + 2],
            acc: vec![crate::nnue::Accumulator::default(); MAX_PLY + 2],
            acc_valid: vec![false; MAX_PLY + 2],
            nodes: 0,
            start: Instant::now(),
            limits: Limits::depth(1),
            stopped: false,
            exact: false,
            root_best: SearchMove::NONE,
        }
    }

    #[must_use]
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// Forgets everything learned (a new game).
    pub fn clear(&mut self) {
        self.table.fill(TtEntry::default());
        self.history.fill(0);
        self.killers = [[SearchMove::NONE; 2]; MAX_PLY + 2];
    }

    /// The best move in `state` (which must not be over) within `limits`.
    pub fn search(&mut self, state: &State, limits: Limits) -> SearchResult {
        self.start = Instant::now();
        self.limits = limits;
        self.nodes = 0;
        self.stopped = false;
        let pos = Position::from_state(state);
        self.exact = pos.empties() <= self.config.exact_endgame_empties;
        for h in &mut self.history {
            *h /= 2;
        }
        let mut list = MoveList::new();
        generate(&pos, &mut list, |_| 0);
        if list.len <= 1 || state.is_over() {
            let best = if list.len == 1 { list.moves[0] } else { SearchMove::PASS };
            return SearchResult {
                best: best.to_move(),
                score: 0,
                depth: 0,
                nodes: 0,
                elapsed: self.start.elapsed(),
            };
        }
        let mut best = list.moves[0];
        let mut score = 0;
        let mut completed = 0;
        for depth in 1..=limits.depth.min(MAX_PLY as u32 - 8) {
            self.root_best = SearchMove::NONE;
            self.root_depth = depth as i32;
            let result = self.aspiration(&pos, depth as i32, score);
            if self.root_best != SearchMove::NONE {
                // A move proven better than the previous best, even in an
                // unfinished iteration, is the better choice.
                best = self.root_best;
            }
            if self.stopped {
                break;
            }
            score = result;
            completed = depth;
            if self.start.elapsed() >= limits.soft || score.abs() >= WIN_BOUND {
                break;
            }
        }
        SearchResult {
            best: best.to_move(),
            score,
            depth: completed,
            nodes: self.nodes,
            elapsed: self.start.elapsed(),
        }
    }

    fn aspiration(&mut self, pos: &Position, depth: i32, previous: i32) -> i32 {
        if !self.config.aspiration || depth < 5 || previous.abs() >= WIN_BOUND {
            return self.negamax(pos, depth, -INF, INF, 0, false);
        }
        let mut window = 40;
        let (mut alpha, mut beta) = (previous - window, previous + window);
        loop {
            let score = self.negamax(pos, depth, alpha, beta, 0, false);
            if self.stopped {
                return score;
            }
            if score <= alpha {
                alpha = (score - window).max(-INF);
            } else if score >= beta {
                beta = (score + window).min(INF);
            } else {
                return score;
            }
            window *= 2;
            if window > 1000 {
                alpha = -INF;
                beta = INF;
            }
        }
    }

    fn reward(&mut self, stm: usize, mv: SearchMove, bonus: i32) {
        let h = &mut self.history[(stm << 12) | (mv.from() << 6) | mv.to()];
        *h += bonus - *h * bonus.abs() / HISTORY_MAX;
    }

    /// The static evaluation of `pos`, the node at `ply` of the current line.
    #[inline(always)]
    fn evaluate_at(&mut self, pos: &Position, ply: usize) -> i32 {
        let Some(net) = self.net else {
            return evaluate(pos, &self.config.weights);
        };
        let mut from = ply;
        while from > 0 && !self.acc_valid[from] {
            from -= 1;
        }
        if !self.acc_valid[from] {
            self.acc[from] = net.refresh(self.line[from]);
            self.acc_valid[from] = true;
        }
        for p in from + 1..=ply {
            self.acc[p] = net.update(&self.acc[p - 1], self.line[p - 1], self.line[p]);
            self.acc_valid[p] = true;
        }
        // In the unit tests, every lazily updated accumulator is checked
        // against one computed afresh from the node's own pieces.
        #[cfg(test)]
        assert_eq!(self.acc[ply], net.refresh(pos.pieces), "ply {ply}");
        net.evaluate(&self.acc[ply], pos.stm).clamp(-WIN_BOUND + 1, WIN_BOUND - 1)
    }

    fn out_of_time(&self) -> bool {
        self.nodes >= self.limits.nodes || self.start.elapsed() >= self.limits.hard
    }

    /// Multi-cut: whether [`MULTICUT_CUTS`] of the first [`MULTICUT_MOVES`]
    /// moves (the table's first) reach `beta` in a search
    /// [`MULTICUT_REDUCTION`] plies shallower. Kept out of `negamax` so that
    /// its move list is not on every node's stack frame.
    #[inline(never)]
    fn multicut(
        &mut self,
        pos: &Position,
        depth: i32,
        beta: i32,
        ply: usize,
        tt_move: SearchMove,
    ) -> bool {
        let mut list = MoveList::new();
        let stm = pos.stm;
        let history = if self.config.history { &self.history[stm << 12..] } else { &[][..] };
        generate_scored(pos, &mut list, history);
        for j in 0..list.len {
            if list.moves[j] == tt_move {
                list.scores[j] = i32::MAX;
            }
        }
        let mut cuts = 0;
        for j in 0..list.len.min(MULTICUT_MOVES) {
            let mv = list.pick(j);
            let score = -self.negamax(
                &pos.play(mv),
                depth - 1 - MULTICUT_REDUCTION,
                -beta,
                -beta + 1,
                ply + 1,
                true,
            );
            if self.stopped {
                return false;
            }
            if score >= beta {
                cuts += 1;
                if cuts >= MULTICUT_CUTS {
                    return true;
                }
            }
        }
        false
    }

    #[allow(clippy::too_many_lines)]
    fn negamax(
        &mut self,
        pos: &Position,
        mut depth: i32,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        null_ok: bool,
    ) -> i32 {
        // Every node counts and may stop the search, leaves and finished games
        // too: near the end of a game most nodes are one or the other.
        self.nodes += 1;
        if self.nodes & 255 == 0 && self.out_of_time() {
            self.stopped = true;
        }
        if self.stopped {
            return 0;
        }
        if let Some(score) = pos.final_score(ply) {
            return score;
        }
        // This node is now the line's node at `ply`; its accumulators (and
        // its descendants') are computed when first needed.
        self.line[ply] = pos.pieces;
        self.acc_valid[ply] = false;
        if depth <= 0 || ply >= MAX_PLY {
            return self.evaluate_at(pos, ply);
        }
        let pv = beta - alpha > 1;
        // Set while a singular-extension search looks at every move but this
        // one: the table neither cuts such a search off nor stores its result.
        let excluded = self.excluded[ply];
        let key = pos.tt_key();
        let slot = (key as usize) & (self.table.len() - 1);
        let mut tt_move = SearchMove::NONE;
        let mut tt_hit = None;
        if self.config.transposition_table && excluded == SearchMove::NONE {
            let entry = self.table[slot];
            if entry.key == key && entry.bound != Bound::Empty {
                tt_move = entry.mv;
                let score = from_tt(entry.score, ply);
                tt_hit = Some((score, i32::from(entry.depth), entry.bound));
                if !pv
                    && i32::from(entry.depth) >= depth
                    && match entry.bound {
                        Bound::Exact => true,
                        Bound::Lower => score >= beta,
                        Bound::Upper => score <= alpha,
                        Bound::Empty => false,
                    }
                {
                    return score;
                }
            }
        }
        if self.config.iir
            && excluded == SearchMove::NONE
            && depth >= 4
            && !(tt_move != SearchMove::NONE && pos.is_legal(tt_move))
        {
            depth -= 1;
        }
        if !pos.can_move() {
            // A forced pass costs a turn but no depth beyond it.
            return -self.negamax(
                &pos.play(SearchMove::PASS),
                depth - 1,
                -beta,
                -alpha,
                ply + 1,
                false,
            );
        }
        let pruning = !pv && !self.exact && beta.abs() < WIN_BOUND;
        let eval = self.evaluate_at(pos, ply);
        if pruning
            && excluded == SearchMove::NONE
            && self.config.reverse_futility
            && depth <= self.config.rfp_depth
            && eval - self.config.rfp_margin * depth >= beta
        {
            return eval;
        }
        // Below this, a move must gain material to matter (futility pruning).
        let futility_floor = if pruning && self.config.futility_margin > 0 && depth <= 3 {
            alpha - eval - self.config.futility_margin * depth
        } else {
            i32::MIN
        };
        if pruning
            && excluded == SearchMove::NONE
            && self.config.null_move
            && null_ok
            && depth >= 3
            && eval >= beta
        {
            let reduction = 2 + depth / 4;
            let score = -self.negamax(
                &pos.play(SearchMove::PASS),
                depth - 1 - reduction,
                -beta,
                -beta + 1,
                ply + 1,
                false,
            );
            if self.stopped {
                return 0;
            }
            if score >= beta {
                return if score >= WIN_BOUND { beta } else { score };
            }
        }

        let stm = pos.stm;
        let use_history = self.config.history;
        let tt_move_legal = tt_move != SearchMove::NONE && pos.is_legal(tt_move);
        if pruning
            && self.config.multicut
            && excluded == SearchMove::NONE
            && depth >= MULTICUT_DEPTH
            && eval >= beta
            && self.multicut(
                pos,
                depth,
                beta,
                ply,
                if tt_move_legal { tt_move } else { SearchMove::NONE },
            )
        {
            return beta;
        }
        if self.stopped {
            return 0;
        }
        let mut list = MoveList::new();
        let mut generated = false;
        let mut next = 0;

        let original_alpha = alpha;
        let mut best = -INF;
        let mut best_move = SearchMove::NONE;
        for i in 0.. {
            // The table's move first: it often cuts off before any generation.
            let mv = if i == 0 && tt_move_legal {
                tt_move
            } else {
                if !generated {
                    let history = if use_history { &self.history[stm << 12..] } else { &[][..] };
                    generate_scored(pos, &mut list, history);
                    generated = true;
                    if self.config.killers {
                        let killers = self.killers[ply];
                        for j in 0..list.len {
                            if list.moves[j] == killers[0] {
                                list.scores[j] += 6 * HISTORY_MAX;
                            } else if list.moves[j] == killers[1] {
                                list.scores[j] += 5 * HISTORY_MAX;
                            }
                        }
                    }
                }
                let mut mv = SearchMove::NONE;
                while next < list.len {
                    let candidate = list.pick(next);
                    next += 1;
                    if !(tt_move_legal && candidate == tt_move) && candidate != excluded {
                        mv = candidate;
                        break;
                    }
                }
                if mv == SearchMove::NONE {
                    break;
                }
                mv
            };
            if pruning
                && self.config.late_move_pruning
                && depth <= 4
                && i >= 4 + 3 * (depth * depth) as usize
                && best > -WIN_BOUND
            {
                break;
            }
            if i > 0 && futility_floor != i32::MIN && best > -WIN_BOUND {
                // A piece is worth about 100; the gain counts 2 per capture.
                if 50 * gain(pos, mv) <= futility_floor {
                    continue;
                }
            }
            let child = pos.play(mv);
            let mut score;
            if i == 0 {
                let mut extension = 0;
                if let Some((tt_score, tt_depth, tt_bound)) = tt_hit {
                    if self.config.singular
                        && tt_move_legal
                        && ply > 0
                        && depth >= SINGULAR_DEPTH
                        && ply < 2 * self.root_depth as usize
                        && tt_depth >= depth - 3
                        && tt_bound != Bound::Upper
                        && tt_score.abs() < WIN_BOUND
                    {
                        let singular_beta = tt_score - self.config.singular_margin * depth;
                        self.excluded[ply] = tt_move;
                        let others = self.negamax(
                            pos,
                            (depth - 1) / 2,
                            singular_beta - 1,
                            singular_beta,
                            ply,
                            false,
                        );
                        self.excluded[ply] = SearchMove::NONE;
                        if self.stopped {
                            return 0;
                        }
                        if others < singular_beta {
                            extension = 1;
                        } else if self.config.singular_multicut && !pv && singular_beta >= beta {
                            return singular_beta;
                        }
                    }
                }
                score = -self.negamax(&child, depth - 1 + extension, -beta, -alpha, ply + 1, true);
            } else {
                let mut reduction = 0;
                if self.config.late_move_reductions && !self.exact && depth >= 3 && i >= 3 {
                    reduction = i32::from(self.reductions[depth.min(63) as usize][i.min(63)]);
                    if pv {
                        reduction -= 1;
                    }
                    if gain(pos, mv) >= 5 {
                        reduction -= 1;
                    }
                    reduction = reduction.clamp(0, depth - 2);
                }
                score =
                    -self.negamax(&child, depth - 1 - reduction, -alpha - 1, -alpha, ply + 1, true);
                if score > alpha && reduction > 0 {
                    score = -self.negamax(&child, depth - 1, -alpha - 1, -alpha, ply + 1, true);
                }
                if score > alpha && score < beta {
                    score = -self.negamax(&child, depth - 1, -beta, -alpha, ply + 1, true);
                }
            }
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                best_move = mv;
                if score > alpha {
                    alpha = score;
                    if ply == 0 {
                        self.root_best = mv;
                    }
                    if alpha >= beta {
                        if self.config.killers && self.killers[ply][0] != mv {
                            self.killers[ply][1] = self.killers[ply][0];
                            self.killers[ply][0] = mv;
                        }
                        if use_history {
                            let bonus = (depth * depth).min(400);
                            self.reward(stm, mv, bonus);
                            if tt_move_legal && mv != tt_move {
                                self.reward(stm, tt_move, -bonus);
                            }
                            for j in 0..next.saturating_sub(1) {
                                let earlier = list.moves[j];
                                if earlier != tt_move {
                                    self.reward(stm, earlier, -bonus);
                                }
                            }
                        }
                        break;
                    }
                }
            }
        }

        if self.config.transposition_table && excluded == SearchMove::NONE {
            let bound = if best >= beta {
                Bound::Lower
            } else if alpha > original_alpha {
                Bound::Exact
            } else {
                Bound::Upper
            };
            self.table[slot] = TtEntry {
                key,
                mv: best_move,
                score: to_tt(best, ply),
                depth: depth.min(127) as i8,
                bound,
            };
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Full minimax over the game's rules with the searcher's scoring.
    fn minimax(pos: &Position, ply: usize) -> i32 {
        if let Some(score) = pos.final_score(ply) {
            return score;
        }
        if !pos.can_move() {
            return -minimax(&pos.play(SearchMove::PASS), ply + 1);
        }
        let mut list = MoveList::new();
        generate(pos, &mut list, |_| 0);
        (0..list.len).map(|i| -minimax(&pos.play(list.moves[i]), ply + 1)).max().unwrap()
    }

    #[test]
    fn incremental_keys_match_fresh_ones() {
        let mut state = State::start();
        let mut rng = versus_core::GameRng::new(4);
        while !state.is_over() {
            let moves = state.legal_moves();
            let mv = moves[rng.below(moves.len() as u64) as usize];
            let before = Position::from_state(&state);
            state.play(mv).unwrap();
            let after = before.play(SearchMove::from_move(mv));
            assert_eq!(after, Position::from_state(&state), "{state}");
            assert_eq!(SearchMove::from_move(mv).to_move(), mv);
        }
    }

    #[test]
    fn the_network_searches_with_exact_accumulators() {
        // evaluate_at checks each accumulator against a fresh one (cfg(test)).
        searches_with_exact_accumulators(Config { table_mb: 1, nnue: true, ..Config::STRONG });
    }

    #[test]
    fn multicut_and_singular_searches_keep_exact_accumulators() {
        // Both search a node's moves twice (singular: the node itself again at
        // the same ply, one move left out).
        searches_with_exact_accumulators(Config {
            table_mb: 1,
            nnue: true,
            multicut: true,
            singular: true,
            singular_multicut: true,
            ..Config::STRONG
        });
    }

    fn searches_with_exact_accumulators(config: Config) {
        let mut searcher = Searcher::new(config);
        let mut state = State::start();
        let mut rng = versus_core::GameRng::new(21);
        for turn in 0..40 {
            if state.is_over() {
                break;
            }
            let mv = if turn % 3 == 0 {
                let moves = state.legal_moves();
                moves[rng.below(moves.len() as u64) as usize]
            } else {
                searcher.search(&state, Limits { nodes: 20_000, ..Limits::depth(100) }).best
            };
            state.play(mv).unwrap();
        }
    }

    #[test]
    fn the_search_proves_exactly_what_minimax_finds() {
        // Positions a few turns before the cap: the whole game tree is small.
        let mut rng = versus_core::GameRng::new(11);
        let mut checked = 0;
        // Singular extensions stay on in the exact mode (they only search
        // more); multi-cut is off there like every unproven pruning.
        let exact = Config {
            table_mb: 1,
            exact_endgame_empties: 49,
            multicut: true,
            singular: true,
            ..Config::STRONG
        };
        let mut searcher = Searcher::new(exact);
        while checked < 12 {
            let mut state = State::start();
            let plies = 20 + rng.below(30);
            for _ in 0..plies {
                if state.is_over() {
                    break;
                }
                let moves = state.legal_moves();
                state.play(moves[rng.below(moves.len() as u64) as usize]).unwrap();
            }
            let left = 3;
            let text = state.to_string();
            let board = text.split(' ').take(2).collect::<Vec<_>>().join(" ");
            let late: State = format!("{board} {}", MAX_TURNS - left).parse().unwrap();
            if late.is_over() {
                continue;
            }
            let exact = minimax(&Position::from_state(&late), 0);
            searcher.clear();
            let found = searcher.search(&late, Limits::depth(u32::from(left)));
            if found.depth == 0 {
                continue; // a single legal move: nothing searched
            }
            assert_eq!(found.score, exact, "{late}");
            let after = Position::from_state(&late).play(SearchMove::from_move(found.best));
            assert_eq!(-minimax(&after, 1), exact, "{late}: {}", found.best);
            checked += 1;
        }
    }

    #[test]
    fn the_endgame_search_solves_nearly_full_boards() {
        // Random play until at most 3 cells are empty, then a cap 4 turns
        // away so that brute force stays small; the default configuration
        // must switch to its exact mode on its own there.
        let mut rng = versus_core::GameRng::new(5);
        let mut searcher = Searcher::new(Config { table_mb: 1, ..Config::STRONG });
        let mut checked = 0;
        while checked < 10 {
            let mut state = State::start();
            while !state.is_over() && Position::from_state(&state).empties() > 3 {
                let moves = state.legal_moves();
                state.play(moves[rng.below(moves.len() as u64) as usize]).unwrap();
            }
            let text = state.to_string();
            let board = text.split(' ').take(2).collect::<Vec<_>>().join(" ");
            let late: State = format!("{board} {}", MAX_TURNS - 4).parse().unwrap();
            if late.is_over() {
                continue;
            }
            let exact = minimax(&Position::from_state(&late), 0);
            searcher.clear();
            let found = searcher.search(&late, Limits::depth(4));
            if found.depth == 0 {
                continue;
            }
            let after = Position::from_state(&late).play(SearchMove::from_move(found.best));
            assert_eq!(-minimax(&after, 1), exact, "{late}: {}", found.best);
            checked += 1;
        }
    }

    #[test]
    fn the_reference_level_takes_a_free_win() {
        // O to move can capture the last X pieces.
        let state: State =
            "O.X..../XX...../......./......./......./......./....... O".parse().unwrap();
        let (mv, score) = fixed_depth_best(&state, 4);
        assert_eq!(score, WIN - 1);
        assert_eq!(mv.to_string(), "12");
    }
}
