//! What the web tests share.

// Each test binary uses a part of it.
#![allow(dead_code)]

use versus_core::{BySide, GameConfig, Moments, RecordLine, Side, TimeControl};
use versus_judge::{run_game, AgentSpec, Limits};

/// The record of a game between `greedy` (first) and `random` (second).
pub fn played(game: &str, seed: u64) -> Vec<RecordLine> {
    let game = versus_games::find(game).unwrap();
    let config = GameConfig { seed, time: TimeControl::CONTEST, input: None };
    let agents = BySide::new(
        AgentSpec::Builtin { name: "greedy".into(), seed: 1 },
        AgentSpec::Builtin { name: "random".into(), seed: 2 },
    );
    let mut lines = Vec::new();
    run_game(game, &config, &agents, &Limits::default(), &mut |l| lines.push(l)).unwrap();
    lines
}

/// What the page must show of a game at one moment, taken from the game
/// rebuilt from its record's lines by the game's `rebuild` module, never
/// from a referee's view: the view is what is under test.
#[derive(Clone, Debug)]
pub struct Truth {
    /// What the cell drawn at each of [`probes`]' points must hold, in
    /// their order (the value of its `data-` attribute).
    pub cells: Vec<String>,
    pub scores: BySide<f64>,
    /// Betris: each side's pieces, each as its sorted `x y` cells joined by
    /// commas, sorted.
    pub pieces: BySide<Vec<String>>,
    /// Betris: what the round's auction panel must say.
    pub auction: Vec<String>,
}

/// The 64 Connexion cell names of GAMES.md: column a-f, row 1-6, sign,
/// without the 8 that do not exist.
pub fn connexion_cells() -> Vec<String> {
    let missing = ["a1-", "a4-", "c3+", "c6+", "d1-", "d4-", "f3+", "f6+"];
    let mut names = Vec::new();
    for column in ['a', 'b', 'c', 'd', 'e', 'f'] {
        for row in 1..=6 {
            for sign in ['-', '+'] {
                names.push(format!("{column}{row}{sign}"));
            }
        }
    }
    names.retain(|name| !missing.contains(&name.as_str()));
    names
}

/// Where on the page each cell of [`Truth::cells`] lies: the board (0, or
/// 1 for Betris's second player) and the point inside the board's cells as
/// fractions of their width and height.
pub fn probes(game: &str) -> Vec<(usize, f64, f64)> {
    let square = |board: usize, n: u32| {
        let n = f64::from(n);
        (1..=n as u32).flat_map(move |row| {
            (1..=n as u32)
                .map(move |col| (board, (f64::from(col) - 0.5) / n, (f64::from(row) - 0.5) / n))
        })
    };
    match game {
        "bacteria-war" => square(0, 7).collect(),
        "domineering" => square(0, 8).collect(),
        "betris-large" => square(0, 7).chain(square(1, 7)).collect(),
        // Column across, row down; in each square `-` is the upper-left
        // triangle and `+` the lower-right, which makes c5- touch c5+, b5+
        // and c4+ as GAMES.md says. A point a third of the way in lies
        // inside the one triangle.
        "connexion" => connexion_cells()
            .iter()
            .map(|name| {
                let bytes = name.as_bytes();
                let column = f64::from(bytes[0] - b'a');
                let row = f64::from(bytes[1] - b'1');
                let inside = if bytes[2] == b'-' { 1.0 / 3.0 } else { 2.0 / 3.0 };
                (0, (column + inside) / 6.0, (row + inside) / 6.0)
            })
            .collect(),
        _ => unreachable!("{game}"),
    }
}

/// What the page must show at every moment of the record `lines` of `game`.
pub fn truth(game: &str, lines: &[RecordLine]) -> Moments<Truth> {
    let plain = |cells: Vec<String>, scores: BySide<f64>| Truth {
        cells,
        scores,
        pieces: BySide::default(),
        auction: Vec::new(),
    };
    match game {
        "bacteria-war" => versus_bacteria::rebuild::rebuild(lines).unwrap().map(|m| {
            // The rules' notation: rows top first, `O` the first player.
            let notation = m.state.to_string();
            let board = notation.split(' ').next().unwrap().replace('/', "");
            plain(board.chars().map(String::from).collect(), m.state.counts().map(f64::from))
        }),
        "domineering" => versus_domineering::rebuild::rebuild(lines).unwrap().map(|m| {
            let mut cells = vec![vec!["."; 8]; 8];
            for &(side, x, y) in &m.dominoes {
                let (x, y) = (x as usize - 1, y as usize - 1);
                let (mark, x2, y2) = match side {
                    Side::First => ("h", x, y + 1),
                    Side::Second => ("v", x + 1, y),
                };
                cells[x][y] = mark;
                cells[x2][y2] = mark;
            }
            plain(cells.concat().into_iter().map(String::from).collect(), m.state.scores())
        }),
        "connexion" => versus_connexion::rebuild::rebuild(lines).unwrap().map(|m| {
            let placed: std::collections::HashMap<&str, &str> =
                m.placed.iter().map(|(c, t)| (c.as_str(), t.as_str())).collect();
            let cells = connexion_cells()
                .iter()
                .map(|name| placed.get(name.as_str()).copied().unwrap_or("").to_owned())
                .collect();
            let scores = versus_connexion::rules::scores_from_scratch(m.state.board().cells());
            plain(cells, scores.map(f64::from))
        }),
        "betris-large" => {
            let params = *versus_betris::GAME.params();
            versus_betris::rebuild::rebuild(params, lines).unwrap().map(|m| {
                let size = usize::from(params.size);
                let mut cells = Vec::new();
                for side in Side::BOTH {
                    let mut board = vec![vec!["0"; size]; size];
                    for piece in &m.pieces[side] {
                        for &(x, y) in &piece.cells {
                            board[x as usize - 1][y as usize - 1] = "1";
                        }
                    }
                    cells.extend(board.concat().into_iter().map(String::from));
                }
                let pieces = m.pieces.as_ref().map(|pieces| {
                    let mut shown: Vec<String> = pieces
                        .iter()
                        .map(|p| {
                            let mut cells: Vec<String> =
                                p.cells.iter().map(|(x, y)| format!("{x} {y}")).collect();
                            cells.sort();
                            cells.join(",")
                        })
                        .collect();
                    shown.sort();
                    shown
                });
                let mut auction = Vec::new();
                if let Some(a) = &m.auction {
                    auction.push(format!("Round {}", a.round));
                    auction.extend([a.offer.a.name().to_owned(), a.offer.b.name().to_owned()]);
                    for side in Side::BOTH {
                        if let Some(bet) = a.bets[side] {
                            auction.push(format!("{side} bets {} on {}", bet.chips, bet.block));
                        }
                        if let Some(awards) = a.awards {
                            auction.push(format!("{side} gets {}", awards[side].block));
                        }
                    }
                    if let Some(winner) = a.tie_winner {
                        auction.push(format!("coin chose {winner}"));
                    }
                }
                Truth { cells, scores: m.state.scores(), pieces, auction }
            })
        }
        _ => unreachable!("{game}"),
    }
}

/// What the page would draw at [`probes`]' points if it drew `view` right:
/// the view's cells in the order of [`Truth::cells`].
pub fn drawn_from_view(game: &str, view: &serde_json::Value) -> Vec<String> {
    let rows = |v: &serde_json::Value| -> Vec<String> {
        v.as_array()
            .unwrap()
            .iter()
            .flat_map(|row| row.as_str().unwrap().chars().map(String::from).collect::<Vec<_>>())
            .collect()
    };
    match game {
        "bacteria-war" => rows(&view["board"]),
        "domineering" => rows(&view["cells"]),
        "connexion" => {
            let tiles: std::collections::HashMap<&str, &str> = view["cells"]
                .as_array()
                .unwrap()
                .iter()
                .map(|c| (c["name"].as_str().unwrap(), c["tile"].as_str().unwrap_or("")))
                .collect();
            connexion_cells().iter().map(|n| tiles.get(n.as_str()).unwrap().to_string()).collect()
        }
        "betris-large" => {
            let mut cells = rows(&view["boards"]["first"]);
            cells.extend(rows(&view["boards"]["second"]));
            cells.into_iter().map(|c| if c == "#" { "1" } else { "0" }.to_owned()).collect()
        }
        _ => unreachable!("{game}"),
    }
}
