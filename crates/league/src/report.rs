//! What a run shows: the SPRT's progress and verdict, a league's ratings,
//! crosstable, time use and faults, as text, CSV and JSON.

use std::fmt::Write;

use serde::Serialize;

use crate::runner::Standing;
use crate::stats::{
    logistic_elo, normalized_elo, ratings, EloModel, Estimate, Pentanomial, Sprt, SprtStatus,
    Trinomial,
};

/// One agent's line of a league table.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LeagueRow {
    pub name: String,
    /// Bradley–Terry Elo relative to the league's mean, with its 95% interval.
    pub elo: f64,
    pub elo_low: f64,
    pub elo_high: f64,
    pub games: u64,
    /// Points per game, in percent.
    pub score_pct: f64,
    pub tle: u64,
    pub re: u64,
    pub crash: u64,
    /// Every other verdict (stall, flood, memory, processes).
    pub other_faults: u64,
    pub mean_move_ms: f64,
    pub max_move_ms: f64,
}

/// The league table, strongest first.
#[must_use]
pub fn league_rows(standing: &Standing) -> Vec<LeagueRow> {
    let n = standing.names.len();
    let rated = ratings(n, &standing.head_to_head());
    let mut rows: Vec<LeagueRow> = (0..n)
        .map(|i| {
            let tally = &standing.tallies[i];
            let record = standing.results[i].iter().fold(Trinomial::default(), |sum, t| sum + *t);
            let fault = |code: &str| tally.faults.get(code).copied().unwrap_or(0);
            let all_faults: u64 = tally.faults.values().sum();
            LeagueRow {
                name: standing.names[i].clone(),
                elo: rated[i].elo,
                elo_low: rated[i].low,
                elo_high: rated[i].high,
                games: tally.games,
                score_pct: record.mean_score().map_or(f64::NAN, |s| 100.0 * s),
                tle: fault("TLE"),
                re: fault("RE"),
                crash: fault("CRASH"),
                other_faults: all_faults - fault("TLE") - fault("RE") - fault("CRASH"),
                mean_move_ms: if tally.moves == 0 {
                    0.0
                } else {
                    tally.move_time_us as f64 / tally.moves as f64 / 1000.0
                },
                max_move_ms: tally.max_move_us as f64 / 1000.0,
            }
        })
        .collect();
    rows.sort_by(|a, b| b.elo.total_cmp(&a.elo));
    rows
}

/// The ratings table and the crosstable (each cell: the row agent's points
/// against the column agent, of its games).
#[must_use]
pub fn league_table(standing: &Standing) -> String {
    let rows = league_rows(standing);
    let width = standing.names.iter().map(String::len).max().unwrap_or(4).max(5);
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{:>4}  {:<width$}  {:>7}  {:>15}  {:>6}  {:>6}  {:>4} {:>4} {:>5} {:>5}  {:>9}  {:>9}",
        "rank",
        "agent",
        "elo",
        "95%",
        "games",
        "score",
        "TLE",
        "RE",
        "CRASH",
        "other",
        "ms/move",
        "max ms"
    );
    for (rank, row) in rows.iter().enumerate() {
        let _ = writeln!(
            out,
            "{:>4}  {:<width$}  {:>7.1}  {:>15}  {:>6}  {:>5.1}%  {:>4} {:>4} {:>5} {:>5}  {:>9.3}  {:>9.1}",
            rank + 1,
            row.name,
            row.elo,
            format!("[{:.0}, {:.0}]", row.elo_low, row.elo_high),
            row.games,
            row.score_pct,
            row.tle,
            row.re,
            row.crash,
            row.other_faults,
            row.mean_move_ms,
            row.max_move_ms,
        );
    }
    let order: Vec<usize> = rows
        .iter()
        .map(|r| standing.names.iter().position(|n| *n == r.name).unwrap_or(0))
        .collect();
    let _ = writeln!(out);
    let cell = 11;
    let _ = write!(out, "{:<width$}", "crosstable");
    for &j in &order {
        let _ = write!(out, "  {:>cell$}", truncate(&standing.names[j], cell));
    }
    let _ = writeln!(out);
    for &i in &order {
        let _ = write!(out, "{:<width$}", standing.names[i]);
        for &j in &order {
            let record = standing.results[i][j];
            let text = if i == j {
                "-".to_owned()
            } else if record.games() == 0 {
                ".".to_owned()
            } else {
                format!("{}/{}", record.score(), record.games())
            };
            let _ = write!(out, "  {text:>cell$}");
        }
        let _ = writeln!(out);
    }
    if standing.flagged > 0 {
        let _ = writeln!(
            out,
            "\n{} games replayed because the judge itself was late",
            standing.flagged
        );
    }
    out
}

/// What the harness measured: its own largest lag, the machine's load, and
/// the games replayed because of the harness.
#[must_use]
pub fn harness_line(standing: &Standing) -> String {
    format!(
        "harness: judge lag up to {:.1} ms, machine load {:.2} on average, {} games replayed for the harness",
        standing.max_judge_lag_us as f64 / 1000.0,
        standing.mean_load(),
        standing.flagged
    )
}

fn truncate(text: &str, width: usize) -> &str {
    match text.char_indices().nth(width) {
        Some((at, _)) => &text[..at],
        None => text,
    }
}

/// The league table as CSV, with a header line.
#[must_use]
pub fn league_csv(standing: &Standing) -> String {
    let mut out = String::from(
        "rank,agent,elo,elo_low,elo_high,games,score_pct,tle,re,crash,other_faults,mean_move_ms,max_move_ms\n",
    );
    for (rank, row) in league_rows(standing).iter().enumerate() {
        let _ = writeln!(
            out,
            "{},{},{:.2},{:.2},{:.2},{},{:.2},{},{},{},{},{:.3},{:.3}",
            rank + 1,
            csv_field(&row.name),
            row.elo,
            row.elo_low,
            row.elo_high,
            row.games,
            row.score_pct,
            row.tle,
            row.re,
            row.crash,
            row.other_faults,
            row.mean_move_ms,
            row.max_move_ms
        );
    }
    out
}

fn csv_field(text: &str) -> String {
    if text.contains([',', '"', '\n']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_owned()
    }
}

/// The league as JSON: the table and the crosstable.
#[must_use]
pub fn league_json(standing: &Standing) -> serde_json::Value {
    serde_json::json!({
        "ratings": league_rows(standing),
        "crosstable": standing.results,
        "agents": standing.names,
        "games": standing.games(),
        "flagged": standing.flagged,
        "max_judge_lag_us": standing.max_judge_lag_us,
        "mean_load": standing.mean_load(),
    })
}

/// An SPRT's state: the estimates and the LLR against its bounds.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SprtReport {
    pub games: u64,
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    pub pentanomial: [u64; 5],
    pub elo: Estimate,
    pub nelo: Estimate,
    pub llr: f64,
    pub lower: f64,
    pub upper: f64,
    pub status: SprtStatus,
}

/// The SPRT's state from the test's (entrant 0's) view.
#[must_use]
pub fn sprt_report(standing: &Standing, sprt: &Sprt) -> SprtReport {
    let record = standing.results.first().and_then(|r| r.get(1)).copied().unwrap_or_default();
    let pentanomial: &Pentanomial = &standing.pentanomial;
    let (lower, upper) = sprt.bounds();
    SprtReport {
        games: record.games(),
        wins: record.wins,
        draws: record.draws,
        losses: record.losses,
        pentanomial: pentanomial.0,
        elo: logistic_elo(pentanomial),
        nelo: normalized_elo(pentanomial),
        llr: sprt.llr(pentanomial),
        lower,
        upper,
        status: sprt.status(pentanomial),
    }
}

fn plus_minus(estimate: &Estimate) -> String {
    let half = (estimate.high - estimate.low) / 2.0;
    if half.is_finite() {
        format!("{:+.1} ± {:.1}", estimate.value, half)
    } else {
        format!("{:+.1} ± ∞", estimate.value)
    }
}

/// One line of progress.
#[must_use]
pub fn sprt_line(report: &SprtReport, sprt: &Sprt) -> String {
    let p = report.pentanomial;
    let elo = match sprt.model {
        EloModel::Logistic => format!("Elo {}", plus_minus(&report.elo)),
        EloModel::Normalized => format!("nElo {}", plus_minus(&report.nelo)),
    };
    format!(
        "games {} W {} D {} L {}  penta [{}, {}, {}, {}, {}]  {elo}  LLR {:.2} [{:.2}, {:.2}]",
        report.games,
        report.wins,
        report.draws,
        report.losses,
        p[0],
        p[1],
        p[2],
        p[3],
        p[4],
        report.llr,
        report.lower,
        report.upper
    )
}

/// The final summary of an SPRT.
#[must_use]
pub fn sprt_summary(report: &SprtReport, sprt: &Sprt, names: &[String], harness: &str) -> String {
    let model = match sprt.model {
        EloModel::Logistic => "logistic",
        EloModel::Normalized => "normalized",
    };
    let verdict = match report.status {
        SprtStatus::AcceptH1 => "H1 accepted: the test is stronger",
        SprtStatus::AcceptH0 => "H0 accepted: the test is not stronger",
        SprtStatus::Continue => "no decision yet",
    };
    let test = names.first().map_or("test", String::as_str);
    let base = names.get(1).map_or("base", String::as_str);
    format!(
        "SPRT {test} vs {base}: elo0 {} elo1 {} ({model}), alpha {} beta {}\n{}\nElo {} (logistic), nElo {}\n{}\n{verdict}\n",
        sprt.elo0,
        sprt.elo1,
        sprt.alpha,
        sprt.beta,
        sprt_line(report, sprt),
        plus_minus(&report.elo),
        plus_minus(&report.nelo),
        harness,
    )
}
