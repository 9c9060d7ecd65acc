//! Domineering (8x8, cell values) starter bot -- Rust 2021, std only.
//!
//! What it does: keeps its own copy of the board, and on every TURN places
//! the domino whose two cells are worth the most right now (one-ply greedy,
//! ties broken at random). It passes only when it has no placement left,
//! because a pass gives the opponent a free turn.
//!
//! Build: rustc --edition 2021 -O -o bot bot.rs
//! Run:   ./bot   (it talks to the judge on stdin/stdout; debug goes to stderr)
//!
//! Protocol summary (see GAMES.md section 2), coordinates 1-based, x = row:
//!   judge: 8 lines of 8 values, then READY FIRST|SECOND   -> bot: OK
//!   judge: TURN my_time opp_time                        -> bot: MOVE x y
//!   judge: OPP x y time   (the opponent's move, -1 -1 = pass)
//!   judge: FINISH         -> exit without output
//! FIRST places horizontal dominoes (x,y)+(x,y+1), SECOND vertical ones
//! (x,y)+(x+1,y); (x,y) is always the top-left cell of the domino.

// data.bin: a data file sent with the source (e.g. weights) is in the
// working folder at run time only (`versus match GAME src:bot.rs?data=FILE`),
// so read it with std::fs, not include_bytes! (which runs at compile time):
//   if let Ok(data) = std::fs::read("data.bin") {
//       eprintln!("data.bin: {} bytes", data.len());
//   }

use std::io::{self, BufRead, Write};
use std::time::{SystemTime, UNIX_EPOCH};

const N: usize = 8;

/// A tiny xorshift generator, since std has no random numbers.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }
}

struct Board {
    value: [[i32; N]; N],     // value[x][y], 0-based here, 1-based on the wire
    covered: [[bool; N]; N],  // true once any domino lies on the cell
}

impl Board {
    /// The second cell of a domino anchored at (x,y): right if horizontal, below if vertical.
    fn other_cell(x: usize, y: usize, vertical: bool) -> (usize, usize) {
        if vertical { (x + 1, y) } else { (x, y + 1) }
    }

    fn can_place(&self, x: usize, y: usize, vertical: bool) -> bool {
        let (x2, y2) = Self::other_cell(x, y, vertical);
        if x2 >= N || y2 >= N {
            return false;
        }
        !self.covered[x][y] && !self.covered[x2][y2]
    }

    fn place(&mut self, x: usize, y: usize, vertical: bool) {
        let (x2, y2) = Self::other_cell(x, y, vertical);
        self.covered[x][y] = true;
        self.covered[x2][y2] = true;
    }

    // CHANGE HERE: the evaluation of a placement. Greedy takes the points it
    // earns; a stronger bot would also count the placements it removes from
    // the opponent (a vertical domino blocks up to two horizontal ones) or
    // search a few plies ahead.
    fn score_move(&self, x: usize, y: usize, vertical: bool) -> i32 {
        let (x2, y2) = Self::other_cell(x, y, vertical);
        self.value[x][y] + self.value[x2][y2]
    }

    // CHANGE HERE: the move choice. Returns None when there is no placement
    // (the caller then passes). Ties are broken uniformly at random by counting
    // the equally good moves seen so far (reservoir sampling).
    fn choose_move(&self, vertical: bool, rng: &mut Rng) -> Option<(usize, usize)> {
        let mut chosen = None;
        let (mut best, mut ties) = (-1, 0);
        for x in 0..N {
            for y in 0..N {
                if !self.can_place(x, y, vertical) {
                    continue;
                }
                let s = self.score_move(x, y, vertical);
                if s > best {
                    best = s;
                    ties = 1;
                    chosen = Some((x, y));
                } else if s == best {
                    ties += 1;
                    if rng.below(ties) == 0 {
                        chosen = Some((x, y));
                    }
                }
            }
        }
        chosen
    }
}

fn main() {
    let nanos = SystemTime::now().duration_since(UNIX_EPOCH).map_or(1, |d| d.as_nanos() as u64);
    let mut rng = Rng(nanos | 1); // xorshift must not start at 0
    let mut board = Board { value: [[0; N]; N], covered: [[false; N]; N] };
    let mut i_am_vertical = false;

    let stdin = io::stdin();
    let mut lines = stdin.lock().lines();
    let stdout = io::stdout();
    let mut out = stdout.lock();

    // The 8 value lines come before READY.
    for x in 0..N {
        let Some(Ok(line)) = lines.next() else { return };
        for (y, word) in line.split_whitespace().take(N).enumerate() {
            board.value[x][y] = word.parse().unwrap_or(0);
        }
    }

    for line in lines {
        let Ok(line) = line else { break };
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some(&cmd) = words.first() else { continue };
        let num = |i: usize| words.get(i).and_then(|w| w.parse::<i64>().ok()).unwrap_or(-1);

        match cmd {
            "READY" => {
                // The second player places the vertical dominoes.
                i_am_vertical = words.get(1) == Some(&"SECOND");
                writeln!(out, "OK").unwrap();
                out.flush().unwrap();
            }
            "TURN" => {
                // CHANGE HERE: time use. my_time is what is left of the whole
                // game's budget (ms); greedy needs almost none of it.
                let (_my_time, _opp_time) = (num(1), num(2));
                match board.choose_move(i_am_vertical, &mut rng) {
                    Some((x, y)) => {
                        board.place(x, y, i_am_vertical);
                        writeln!(out, "MOVE {} {}", x + 1, y + 1).unwrap();
                    }
                    None => writeln!(out, "MOVE -1 -1").unwrap(),
                }
                out.flush().unwrap();
            }
            "OPP" => {
                let (x, y, _used) = (num(1), num(2), num(3));
                // The opponent's dominoes lie the other way round.
                if x != -1 {
                    board.place(x as usize - 1, y as usize - 1, !i_am_vertical);
                }
            }
            "FINISH" => break,
            _ => eprintln!("unknown line: {line}"),
        }
    }
}
