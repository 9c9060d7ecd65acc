// Bacteria War starter bot (versus game `bacteria-war`: Ataxx on 7x7).
//
// Strategy: one-ply greedy. Of all legal moves it plays one that leaves it
// with the most pieces; on equal gain a division beats a leap (a leap leaves
// a hole behind), and the remaining ties are broken at random. It passes only
// when it has no legal move, because a pass is illegal while a move exists.
//
// Build: rustc --edition 2021 -O -o bot bot.rs
// Run:   ./bot     (the judge talks to it on stdin/stdout)
// Try:   versus-h match bacteria-war ./bot builtin:greedy --seed 1
//
// Protocol (coordinates are row then column, 1..7):
//   READY FIRST|SECOND     -> OK
//   TURN my_time opp_time  -> MOVE x1 y1 x2 y2   (MOVE -1 -1 -1 -1 passes)
//   OPP x1 y1 x2 y2 time      the opponent's move: update the board
//   FINISH                    exit 0 without printing anything
// Only protocol lines may go to stdout; print debug output to stderr.
//
// The places meant to be changed are marked CHANGE HERE.
// data.bin: a data file sent with the source (e.g. weights) is in the
// working folder at run time only (`versus match GAME src:bot.rs?data=FILE`),
// so read it with std::fs, not include_bytes! (which runs at compile time):
//   if let Ok(data) = std::fs::read("data.bin") {
//       eprintln!("data.bin: {} bytes", data.len());
//   }

use std::io::{self, BufRead, Write};
use std::time::{SystemTime, UNIX_EPOCH};

const N: i32 = 7;
const EMPTY: i32 = 0;
const ME: i32 = 1;
const OPP: i32 = 2;
const PASS: [i32; 4] = [-1, -1, -1, -1];

/// board[r][c] for r, c in 1..N; row and column 0 are unused so that the
/// indices match the wire coordinates.
type Board = [[i32; N as usize + 1]; N as usize + 1];

/// A small xorshift generator, since std has no random numbers.
struct Rng(u64);
impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }
}

fn inside(r: i32, c: i32) -> bool {
    (1..=N).contains(&r) && (1..=N).contains(&c)
}

fn dist(r1: i32, c1: i32, r2: i32, c2: i32) -> i32 {
    (r1 - r2).abs().max((c1 - c2).abs())
}

/// How many pieces of `who`'s opponent a piece landing on (r, c) would take.
fn captures(board: &Board, who: i32, r: i32, c: i32) -> i32 {
    let mut n = 0;
    for dr in -1..=1 {
        for dc in -1..=1 {
            if inside(r + dr, c + dc) && board[(r + dr) as usize][(c + dc) as usize] == 3 - who {
                n += 1;
            }
        }
    }
    n
}

/// Plays a move for `who` (ME or OPP) on our board; a pass changes nothing.
fn apply_move(board: &mut Board, who: i32, [r1, c1, r2, c2]: [i32; 4]) {
    if r1 == -1 {
        return;
    }
    if dist(r1, c1, r2, c2) == 2 {
        board[r1 as usize][c1 as usize] = EMPTY; // a leap moves
    }
    board[r2 as usize][c2 as usize] = who;
    for dr in -1..=1 {
        for dc in -1..=1 {
            let (r, c) = (r2 + dr, c2 + dc);
            if inside(r, c) && board[r as usize][c as usize] == 3 - who {
                board[r as usize][c as usize] = who;
            }
        }
    }
}

/// Our move, or a pass if there is none.
fn choose_move(board: &Board, rng: &mut Rng) -> [i32; 4] {
    let (mut chosen, mut best, mut ties) = (PASS, -1, 0);
    for r2 in 1..=N {
        for c2 in 1..=N {
            if board[r2 as usize][c2 as usize] != EMPTY {
                continue;
            }
            // Every own neighbour gives the same division, so count it once
            // per target; otherwise crowded targets would win ties more often.
            let mut division_seen = false;
            for r1 in r2 - 2..=r2 + 2 {
                for c1 in c2 - 2..=c2 + 2 {
                    if !inside(r1, c1) || board[r1 as usize][c1 as usize] != ME {
                        continue;
                    }
                    let division = dist(r1, c1, r2, c2) == 1;
                    if division && division_seen {
                        continue;
                    }
                    division_seen |= division;
                    // CHANGE HERE: the evaluation. Pieces gained (new piece +
                    // captures), doubled so a division wins ties with a leap.
                    let gain = division as i32 + captures(board, ME, r2, c2);
                    let score = 2 * gain + division as i32;
                    if score > best {
                        best = score;
                        ties = 0;
                    }
                    // Reservoir sampling: each of the k best is kept with chance 1/k.
                    if score == best {
                        ties += 1;
                        if rng.below(ties) == 0 {
                            chosen = [r1, c1, r2, c2];
                        }
                    }
                }
            }
        }
    }
    chosen
}

fn main() {
    // CHANGE HERE: a fixed seed makes games reproducible while debugging.
    let nanos = SystemTime::now().duration_since(UNIX_EPOCH).map_or(1, |d| d.as_nanos() as u64);
    let mut rng = Rng(nanos | 1); // xorshift must not start at 0
    let mut board: Board = [[EMPTY; N as usize + 1]; N as usize + 1];
    let stdin = io::stdin();
    let mut out = io::stdout().lock();
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some(&cmd) = words.first() else { continue };
        let num = |i: usize| words.get(i).and_then(|w| w.parse::<i32>().ok()).unwrap_or(0);
        match cmd {
            "READY" => {
                let first = words.get(1) == Some(&"FIRST");
                board = [[EMPTY; N as usize + 1]; N as usize + 1];
                // The first player (O) starts on (1,1) and (7,7), the second (X) on (1,7) and (7,1).
                let (o, x) = if first { (ME, OPP) } else { (OPP, ME) };
                let n = N as usize;
                (board[1][1], board[n][n], board[1][n], board[n][1]) = (o, o, x, x);
                writeln!(out, "OK").unwrap();
                out.flush().unwrap();
            }
            "TURN" => {
                let (_my_time, _opp_time) = (num(1), num(2));
                // CHANGE HERE: time use. my_time is what is left of the 10 s for the
                // whole game; greedy needs microseconds, a search could use
                // about my_time / 30 per move.
                let mv = choose_move(&board, &mut rng);
                apply_move(&mut board, ME, mv);
                writeln!(out, "MOVE {} {} {} {}", mv[0], mv[1], mv[2], mv[3]).unwrap();
                out.flush().unwrap();
            }
            "OPP" => apply_move(&mut board, OPP, [num(1), num(2), num(3), num(4)]),
            "FINISH" => return,
            _ => eprintln!("unknown line: {line}"),
        }
    }
}
