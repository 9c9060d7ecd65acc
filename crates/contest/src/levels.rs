//! The built-in levels a contest places submissions against and anchors its
//! ratings to, and each game's statement in brief.
//!
//! The anchors' ratings (logistic Elo, `random` = 0) come from a league of
//! the four levels among themselves (`versus league GAME builtin:random
//! builtin:greedy builtin:MID builtin:strong --games 20 --time-ms 1000`,
//! 120 games; the README has the figures); they are fixed so that a
//! participant's rating means the same from the first game to the last.

use versus_core::Game;

/// A built-in level: its agent's name and its fixed rating.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Level {
    pub name: &'static str,
    pub elo: f64,
}

/// The levels of `game`, weakest first as measured: random, greedy and the
/// middle level (in Betris `fair` is below `greedy`), strong. The first is
/// the gate.
#[must_use]
pub fn levels(game: &dyn Game) -> &'static [Level] {
    match game.name() {
        "bacteria-war" => &[
            Level { name: "random", elo: 0.0 },
            Level { name: "greedy", elo: 530.0 },
            Level { name: "ab4", elo: 1010.0 },
            // The network `strong` of issue 16 sweeps the lower levels, so
            // its anchor is the old strong's 1273 (now `strong-v1`) plus
            // its measured lead at the same 1 s clock: +529 over 300 games
            // (README, Strength: Bacteria War).
            Level { name: "strong", elo: 1802.0 },
        ],
        "domineering" => &[
            Level { name: "random", elo: 0.0 },
            Level { name: "greedy", elo: 571.0 },
            Level { name: "ab4", elo: 773.0 },
            Level { name: "strong", elo: 1344.0 },
        ],
        "connexion" => &[
            Level { name: "random", elo: 0.0 },
            Level { name: "greedy", elo: 531.0 },
            Level { name: "minimax3", elo: 990.0 },
            Level { name: "strong", elo: 1391.0 },
        ],
        _ => &[
            Level { name: "random", elo: 0.0 },
            // `fair` (greedy's placements, bets by points) measured below
            // `greedy` (56.7% to 40.8% in the league): the order is measured.
            Level { name: "fair", elo: 421.0 },
            Level { name: "greedy", elo: 565.0 },
            Level { name: "strong", elo: 1157.0 },
        ],
    }
}

/// The level named `name`, if `game` has it.
#[must_use]
pub fn level(game: &dyn Game, name: &str) -> Option<Level> {
    levels(game).iter().copied().find(|l| l.name == name)
}

/// The statement of `game` in a few lines (the whole one is in GAMES.md).
#[must_use]
pub fn summary(game: &dyn Game) -> &'static str {
    match game.name() {
        "bacteria-war" => {
            "Ataxx on a 7×7 board (ALPHANO). A move copies one of your pieces to an empty cell \
             next to it, or jumps it to an empty cell two away; every opponent piece around \
             the cell it lands on becomes yours. You pass only when you have no move. The game \
             ends when a side has no pieces, the board is full or 400 turns are played; more \
             pieces wins. 10 s per player for the whole game."
        }
        "domineering" => {
            "Domineering on an 8×8 board of cell values 0–3 (ALPHANO). The first player places \
             horizontal dominoes, the second vertical ones, each earning the values of the two \
             cells it covers; the second starts with 2.5 points. Either may pass; the game ends \
             on two passes in a row or when nobody can place. The higher total wins. 10 s per \
             player for the whole game."
        }
        "connexion" => {
            "Connexion (NYPC Code Battle). 64 triangular cells; each player places one of the \
             five visible tiles (4 colours × 4 patterns) from its bag per turn, 64 turns in all. \
             The first player scores groups of touching tiles of the same pattern, the second \
             of the same colour, each group its size squared. The higher score wins. 10 s per \
             player for the whole game."
        }
        _ => {
            "Betris, large (ALPHANO). Each player fills its own 7×7 board over 12 rounds: the \
             judge offers two of the 21 polyominoes of size 1–5, both players bet 0–5 of their \
             24 chips on one, and the higher bet gets it (the other gets the other block). \
             Score: filled cells + the area of the largest filled square + 0.5 per chip left. \
             10 s per player for the whole game."
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_game_has_four_levels_that_exist_weakest_first_with_random_at_zero() {
        for game in versus_games::all() {
            let levels = levels(game);
            assert_eq!(levels.len(), 4, "{}", game.name());
            assert_eq!(levels[0], Level { name: "random", elo: 0.0 });
            assert_eq!(levels[3].name, "strong");
            for pair in levels.windows(2) {
                assert!(pair[0].elo < pair[1].elo, "{}: {pair:?}", game.name());
            }
            for level in levels {
                assert!(game.agent(level.name, 1).is_some(), "{} {}", game.name(), level.name);
            }
            assert!(!summary(game).is_empty());
        }
    }
}
