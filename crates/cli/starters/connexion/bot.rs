// Connexion starter bot (Rust 2021, std only).
//
// What it does: one-ply greedy. For every tile in hand and every empty cell
// it computes how much its OWN score would grow (first player: groups of the
// same pattern; second player: groups of the same colour; score = sum of the
// squared group sizes) and plays the best, breaking ties at random.
//
// Build: rustc --edition 2021 -O -o bot bot.rs
// Test:  versus-h match connexion ./bot builtin:greedy --seed 1
//
// Protocol (one line in, at most one line out, always flushed):
//   READY FIRST|SECOND -> OK
//   INIT A1..A5 B1..B5    own five tiles, then the opponent's five
//   TIME t_mine t_opp  -> PUT <cell> <tile>   e.g. PUT a1+ R1
//   GET T                 the tile we drew (X0: the bag was empty)
//   OPP p T1 T2 t         the opponent put T1 on p, drew T2, used t ms
//   FINISH                exit without printing anything
// Debug output must go to stderr (eprintln!): stdout belongs to the judge.
//
// The places to change are marked CHANGE HERE.
// data.bin: a data file sent with the source (e.g. weights) is in the
// working folder at run time only (`versus match GAME src:bot.rs?data=FILE`),
// so read it with std::fs, not include_bytes! (which runs at compile time):
//   if let Ok(data) = std::fs::read("data.bin") {
//       eprintln!("data.bin: {} bytes", data.len());
//   }

use std::io::{self, BufRead, Write};

// Cell index = column*12 + row*2 + sign (0 for '-', 1 for '+'); 72 slots.
const MISSING: [&str; 8] = ["a1-", "a4-", "c3+", "c6+", "d1-", "d4-", "f3+", "f6+"];

fn cell_name(i: usize) -> String {
    let column = (b'a' + (i / 12) as u8) as char;
    let row = (b'1' + ((i / 2) % 6) as u8) as char;
    format!("{column}{row}{}", if i % 2 == 1 { '+' } else { '-' })
}

fn cell_index(name: &str) -> usize {
    let b = name.as_bytes();
    (b[0] - b'a') as usize * 12 + (b[1] - b'1') as usize * 2 + usize::from(b[2] == b'+')
}

/// xorshift64, the same generator in all five starters, so they play alike.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

struct Bot {
    exists: [bool; 72],
    neighbours: Vec<Vec<usize>>,
    board: Vec<Option<String>>, // tile ("R1") or None
    hand: Vec<String>,          // our visible tiles
    opp_hand: Vec<String>,      // the opponent's (not used by the greedy rule)
    me: usize,                  // which char of a tile our groups share: 1 = pattern, 0 = colour
    rng: Rng,
}

impl Bot {
    fn new() -> Bot {
        let mut exists = [true; 72];
        for (i, e) in exists.iter_mut().enumerate() {
            *e = !MISSING.contains(&cell_name(i).as_str());
        }
        let mut neighbours = vec![Vec::new(); 72];
        for (i, list) in neighbours.iter_mut().enumerate() {
            let (c, r, plus) = ((i / 12) as i32, ((i / 2) % 6) as i32, i % 2 == 1);
            // A '-' cell touches the '+' of its own square and the '+' cells
            // to the left and above; a '+' cell is the mirror image (right, below).
            let d = if plus { 1 } else { -1 };
            for (nc, nr) in [(c, r), (c + d, r), (c, r + d)] {
                if (0..6).contains(&nc) && (0..6).contains(&nr) {
                    let j = (nc * 12 + nr * 2) as usize + usize::from(!plus);
                    if exists[j] {
                        list.push(j);
                    }
                }
            }
        }
        Bot {
            exists,
            neighbours,
            board: vec![None; 72],
            hand: Vec::new(),
            opp_hand: Vec::new(),
            me: 1,
            rng: Rng(20250101), // fixed seed: a game can be replayed exactly
        }
    }

    /// The attribute character at `attr` of the tile on cell `j`, if any.
    fn key_at(&self, j: usize, attr: usize) -> Option<u8> {
        self.board[j].as_ref().map(|t| t.as_bytes()[attr])
    }

    /// Size of the group of tiles with tile[attr] == key around `start`.
    fn group_size(&self, start: usize, key: u8, attr: usize, seen: &mut [bool; 72]) -> i32 {
        let mut stack = vec![start];
        seen[start] = true;
        let mut size = 0;
        while let Some(i) = stack.pop() {
            size += 1;
            for &j in &self.neighbours[i] {
                if !seen[j] && self.key_at(j, attr) == Some(key) {
                    seen[j] = true;
                    stack.push(j);
                }
            }
        }
        size
    }

    /// How much the score grouping by tile[attr] grows if `tile` goes on `cell`.
    fn gain(&self, cell: usize, tile: &str, attr: usize) -> i32 {
        let key = tile.as_bytes()[attr];
        let mut seen = [false; 72];
        let (mut merged, mut squares) = (1, 0);
        for &j in &self.neighbours[cell] {
            if !seen[j] && self.key_at(j, attr) == Some(key) {
                let s = self.group_size(j, key, attr, &mut seen);
                merged += s; // the new tile merges all those groups into one
                squares += s * s;
            }
        }
        merged * merged - squares
    }

    fn choose_move(&mut self) -> (usize, String) {
        let mut best = -1;
        let mut best_moves: Vec<(usize, String)> = Vec::new();
        for (t, tile) in self.hand.iter().enumerate() {
            if self.hand[..t].contains(tile) {
                continue; // a second copy of a tile adds nothing
            }
            for cell in 0..72 {
                if !self.exists[cell] || self.board[cell].is_some() {
                    continue;
                }
                // CHANGE HERE: the evaluation. E.g. also subtract what the
                // opponent would gain from the same tile: self.gain(cell, tile, 1 - self.me).
                let value = self.gain(cell, tile, self.me);
                if value > best {
                    best = value;
                    best_moves.clear();
                }
                if value == best {
                    best_moves.push((cell, tile.clone()));
                }
            }
        }
        let pick = self.rng.below(best_moves.len());
        best_moves.swap_remove(pick)
    }
}

fn remove_tile(tiles: &mut Vec<String>, tile: &str) {
    // remove, not swap_remove: the hand keeps the order the tiles came in
    if let Some(i) = tiles.iter().position(|t| t == tile) {
        tiles.remove(i);
    }
}

fn main() {
    let mut bot = Bot::new();
    let stdin = io::stdin();
    let mut out = io::stdout().lock();
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some(&cmd) = words.first() else { continue };
        match cmd {
            "READY" => {
                bot.me = if words[1] == "FIRST" { 1 } else { 0 };
                writeln!(out, "OK").unwrap();
                out.flush().unwrap();
            }
            "INIT" => {
                bot.hand = words[1..6].iter().map(|s| s.to_string()).collect();
                bot.opp_hand = words[6..11].iter().map(|s| s.to_string()).collect();
            }
            "TIME" => {
                // CHANGE HERE: time use. words[1] is the ms left for the whole
                // game; a deeper search should budget it over our turns.
                let (cell, tile) = bot.choose_move();
                remove_tile(&mut bot.hand, &tile);
                writeln!(out, "PUT {} {}", cell_name(cell), tile).unwrap();
                out.flush().unwrap();
                bot.board[cell] = Some(tile);
            }
            "GET" => {
                if words[1] != "X0" {
                    bot.hand.push(words[1].to_string());
                }
            }
            "OPP" => {
                bot.board[cell_index(words[1])] = Some(words[2].to_string());
                remove_tile(&mut bot.opp_hand, words[2]);
                if words[3] != "X0" {
                    bot.opp_hand.push(words[3].to_string());
                }
            }
            "FINISH" => return,
            _ => eprintln!("unknown line: {line}"),
        }
    }
}
