//! The clock options shared by `play`, `league` and `sprt`.

use clap::{Args, ValueEnum};
use versus_core::{ClockMode, TimeControl};

/// The rules of a judging environment.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Env {
    /// NYPC Code Battle: the CPU clock (all threads' CPU time), `WTLE` on a
    /// separate real-time budget, exit status 0 required after `FINISH`.
    Nypc,
    /// The ALPHANO pages: the wall clock.
    Alphano,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ClockArg {
    Wall,
    Cpu,
}

impl ClockArg {
    pub fn mode(self) -> ClockMode {
        match self {
            ClockArg::Wall => ClockMode::Wall,
            ClockArg::Cpu => ClockMode::Cpu,
        }
    }
}

#[derive(Args, Clone, Debug)]
pub struct ClockArgs {
    /// What the clock measures: real time (`wall`, the ALPHANO rule) or the
    /// CPU time of the player's processes, all threads summed (`cpu`, NYPC's
    /// rule). Recorded in each game's header.
    #[arg(long, value_enum)]
    pub clock: Option<ClockArg>,
    /// Under the CPU clock, each player's real-time budget for the game, in
    /// ms, whose end is `WTLE` (default: game + READY time + 5 s).
    #[arg(long, value_name = "MS")]
    pub wall_ms: Option<u64>,
    /// A judging environment's rules: `nypc` is `--clock cpu`, `alphano` is
    /// `--clock wall` (an explicit `--clock` wins).
    #[arg(long, value_enum)]
    pub env: Option<Env>,
}

impl ClockArgs {
    /// The time control of `game_ms` and `ready_ms` under these options.
    pub fn time(&self, game_ms: u64, ready_ms: u64) -> Result<TimeControl, String> {
        let clock = match (self.clock, self.env) {
            (Some(ClockArg::Cpu), _) | (None, Some(Env::Nypc)) => ClockMode::Cpu,
            (Some(ClockArg::Wall), _) | (None, Some(Env::Alphano) | None) => ClockMode::Wall,
        };
        if self.wall_ms.is_some() && clock == ClockMode::Wall {
            return Err(
                "--wall-ms is the CPU clock's real-time budget: it needs --clock cpu".into()
            );
        }
        if self.wall_ms == Some(0) {
            return Err("--wall-ms must be positive".into());
        }
        Ok(TimeControl { clock, wall_ms: self.wall_ms, ..TimeControl::new(game_ms, ready_ms) })
    }
}
