//! What the web tests share.

use versus_core::{BySide, GameConfig, RecordLine, TimeControl};
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
