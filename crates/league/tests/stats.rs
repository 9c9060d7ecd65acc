//! Reference values for the league statistics.
//!
//! The expected numbers were computed with a short independent Python script
//! written from the formulas in `stats.rs`'s module notes (cells with zero
//! count get 10⁻³; `μ = Σ pᵢaᵢ`, `σ² = Σ pᵢ(aᵢ − μ)²`; the constrained MLEs by
//! bisection on the secular equation, the t-value one by fixed-point
//! iteration). The script's LLRs agree with the "Raw Statistics" page that
//! fishtest-style servers publish for a test (see `published_llr_example`).

use proptest::prelude::*;
use versus_core::{GameResult, Side};
use versus_league::stats::{
    elo_from_score, llr, llr_approx, logistic_elo, normalized_elo, ratings, score_from_elo,
    BradleyTerry, EloModel, Estimate, HeadToHead, Pentanomial, Rating, Sample, Sprt, SprtStatus,
    Trinomial, Wdl, NELO_PER_T,
};

/// A typical fishtest short-time-control result.
const STC: Pentanomial = Pentanomial([461, 5331, 12143, 5381, 433]);
const SMALL: Pentanomial = Pentanomial([3, 12, 20, 15, 6]);
const TRI: Trinomial = Trinomial { losses: 120, draws: 300, wins: 180 };

fn close(actual: f64, expected: f64, tolerance: f64) {
    assert!(
        (actual - expected).abs() <= tolerance,
        "{actual} is not within {tolerance} of {expected}"
    );
}

fn close_estimate(actual: Estimate, expected: (f64, f64, f64), tolerance: f64) {
    close(actual.value, expected.0, tolerance);
    close(actual.low, expected.1, tolerance);
    close(actual.high, expected.2, tolerance);
}

#[test]
fn pair_and_game_counts() {
    let mut pairs = Pentanomial::default();
    pairs.add_pair(Wdl::Win, Wdl::Loss);
    pairs.add_pair(Wdl::Draw, Wdl::Draw);
    pairs.add_pair(Wdl::Win, Wdl::Draw);
    pairs.add_pair(Wdl::Win, Wdl::Win);
    assert_eq!(pairs, Pentanomial([0, 0, 2, 1, 1]));
    assert_eq!(pairs.pairs(), 4);
    assert_eq!(pairs.games(), 8);
    assert_eq!(pairs.score(), 5.5);
    assert_eq!(pairs.mean_score(), Some(5.5 / 8.0));
    assert_eq!(pairs.reversed(), Pentanomial([1, 1, 2, 0, 0]));
    assert_eq!(pairs + pairs, Pentanomial([0, 0, 4, 2, 2]));

    let mut games = Trinomial::default();
    for result in [Wdl::Win, Wdl::Draw, Wdl::Loss, Wdl::Win] {
        games.add(result);
    }
    assert_eq!(games, Trinomial::new(1, 1, 2));
    assert_eq!(games.games(), 4);
    assert_eq!(games.score(), 2.5);
    assert_eq!(games.reversed(), Trinomial::new(2, 1, 1));
    assert_eq!(Trinomial::default().mean_score(), None);
    assert_eq!(Pentanomial::default().mean_score(), None);

    assert_eq!(Wdl::for_side(GameResult::FirstWins, Side::First), Wdl::Win);
    assert_eq!(Wdl::for_side(GameResult::FirstWins, Side::Second), Wdl::Loss);
    assert_eq!(Wdl::for_side(GameResult::Draw, Side::Second), Wdl::Draw);
    assert_eq!(TRI.games_per_sample(), 1);
    assert_eq!(STC.games_per_sample(), 2);
}

#[test]
fn elo_and_score_are_inverse() {
    close(score_from_elo(0.0), 0.5, 1e-15);
    // 1/(1 + 10^(−1/2)) = 0.759746926647958
    close(score_from_elo(200.0), 0.759_746_926_647_958, 1e-12);
    close(elo_from_score(0.759_746_926_647_958), 200.0, 1e-9);
    assert_eq!(elo_from_score(1.0), f64::INFINITY);
    assert_eq!(elo_from_score(0.0), f64::NEG_INFINITY);
    close(NELO_PER_T, 347.435_585_522_601_5, 1e-10);
}

#[test]
fn logistic_elo_of_known_samples() {
    // μ = Σ pᵢ·i/4, σ² = Σ pᵢ(i/4 − μ)², se = σ/√pairs,
    // elo(μ), elo(μ ∓ 1.959964·se) with elo(s) = −400·log10(1/s − 1).
    close_estimate(
        logistic_elo(&STC),
        (-0.043_888_448_444_620_85, -1.757_595_419_554_445_6, 1.669_816_387_125_059),
        1e-9,
    );
    close_estimate(
        logistic_elo(&SMALL),
        (27.979_258_244_511_14, -19.803_874_535_198_133, 76.849_563_735_926_58),
        1e-9,
    );
    // Games: values 0, ½, 1; se = σ/√games.
    close_estimate(
        logistic_elo(&TRI),
        (34.860_070_287_560_08, 15.293_339_986_852_331, 54.649_942_567_227_036),
        1e-9,
    );
}

#[test]
fn normalized_elo_of_known_samples() {
    // nElo = 800/ln10 · (μ − ½)/(√2·σ_pair); interval from
    // Var(t̂) = (1 − t·m₃/σ³ + t²(m₄/σ⁴ − 1)/4)/pairs, t = (μ − ½)/σ_pair.
    close_estimate(
        normalized_elo(&STC),
        (-0.080_020_671_110_754_38, -3.204_543_465_728_849, 3.044_502_123_507_340_4),
        1e-9,
    );
    close_estimate(
        normalized_elo(&SMALL),
        (37.660_073_926_229_956, -27.172_420_595_431_266, 102.492_568_447_891_17),
        1e-9,
    );
    close_estimate(
        normalized_elo(&TRI),
        (49.633_655_074_657_4, 21.484_114_754_215_79, 77.783_195_395_099),
        1e-9,
    );
}

#[test]
fn llr_of_known_samples() {
    // n · Σ pᵢ ln(q₁ᵢ/q₀ᵢ), q the constrained MLEs (see the module notes).
    close(llr(&STC, 0.0, 2.0, EloModel::Logistic), -2.731_017_942_908_671, 1e-8);
    close(llr(&STC, 0.0, 2.0, EloModel::Normalized), -0.849_908_418_527_660_1, 1e-8);
    close(llr(&SMALL, 0.0, 2.0, EloModel::Logistic), 0.089_439_127_122_776_12, 1e-9);
    close(llr(&SMALL, 0.0, 2.0, EloModel::Normalized), 0.067_450_790_635_477_53, 1e-9);
    close(llr(&TRI, 0.0, 2.0, EloModel::Logistic), 0.671_269_434_720_860_2, 1e-9);
    close(llr(&TRI, 0.0, 2.0, EloModel::Normalized), 0.478_559_471_071_617_84, 1e-9);
}

#[test]
fn llr_approximation_agrees_within_a_few_percent() {
    // Logistic: n(s₁ − s₀)(2μ − s₀ − s₁)/(2σ²); normalized:
    // games/2 · ln((1 + (t − t₀)²)/(1 + (t − t₁)²)), per-game t-values.
    let reference = [
        (STC, EloModel::Logistic, -2.730_897_181_564_733),
        (STC, EloModel::Normalized, -0.849_925_766_737_146_9),
        (SMALL, EloModel::Logistic, 0.090_890_266_775_409_53),
        (SMALL, EloModel::Normalized, 0.067_279_178_952_133_02),
    ];
    for (sample, model, expected) in reference {
        let approx = llr_approx(&sample, 0.0, 2.0, model);
        close(approx, expected, 1e-9);
        let exact = llr(&sample, 0.0, 2.0, model);
        assert!(
            ((exact - approx) / exact).abs() < 0.03,
            "{sample:?} {model:?}: exact {exact}, approx {approx}"
        );
    }
    close(llr_approx(&TRI, 0.0, 2.0, EloModel::Logistic), 0.684_577_774_747_721_7, 1e-9);
}

/// A published "Raw Statistics" page of a fishtest-style server (montytest,
/// test 69d3c8dc7c5b3724e29d2712) lists for the pentanomial [13, 37, 50, 25, 3]
/// a normalized LLR of −0.54912 for nElo 0 v 4 (logistic bounds 0 v 2.716, LLR
/// −0.53772), an Elo of −43.6578 and a normalized Elo of −63.97.
#[test]
fn published_llr_example() {
    let sample = Pentanomial([13, 37, 50, 25, 3]);
    close(llr(&sample, 0.0, 4.0, EloModel::Normalized), -0.54912, 1e-5);
    // The page rounds the logistic bound to 2.716, which moves the LLR by ~1e-5.
    close(llr(&sample, 0.0, 2.716, EloModel::Logistic), -0.53772, 1e-4);
    close(logistic_elo(&sample).value, -43.6578, 1e-4);
    close(normalized_elo(&sample).value, -63.97, 5e-3);
}

#[test]
fn sprt_bounds() {
    let sprt = Sprt::new(0.0, 2.0, 0.05, 0.05, EloModel::Normalized);
    let (lower, upper) = sprt.bounds();
    // ln(0.05/0.95) = −2.9444389791664403
    close(lower, -2.944_438_979_166_440_3, 1e-12);
    close(upper, 2.944_438_979_166_440_3, 1e-12);
    close(sprt.llr(&STC), llr(&STC, 0.0, 2.0, EloModel::Normalized), 0.0);
    let (lower, upper) = Sprt::new(0.0, 5.0, 0.05, 0.1, EloModel::Logistic).bounds();
    close(lower, (0.1f64 / 0.95).ln(), 1e-15);
    close(upper, 18f64.ln(), 1e-15);
}

fn scaled(base: [u64; 5], factor: u64) -> Pentanomial {
    Pentanomial(base.map(|count| count * factor))
}

/// The smallest multiple of `base` at which the test stops, and how.
fn stopping_point(sprt: &Sprt, base: [u64; 5]) -> (u64, SprtStatus) {
    for factor in 1..10_000 {
        let status = sprt.status(&scaled(base, factor));
        if status != SprtStatus::Continue {
            return (factor, status);
        }
    }
    panic!("{sprt:?} never stopped on multiples of {base:?}");
}

#[test]
fn sprt_accepts_the_right_hypothesis_as_the_sample_grows() {
    // About +35 Elo: clearly better than elo1 = 10.
    let better = [5, 20, 40, 25, 10];
    let worse = Pentanomial(better).reversed().0;
    for model in [EloModel::Logistic, EloModel::Normalized] {
        let sprt = Sprt::new(0.0, 10.0, 0.05, 0.05, model);
        assert_eq!(sprt.status(&Pentanomial(better)), SprtStatus::Continue);
        assert_eq!(sprt.status(&Pentanomial::default()), SprtStatus::Continue);
        let (factor, status) = stopping_point(&sprt, better);
        assert_eq!(status, SprtStatus::AcceptH1, "{model:?}");
        assert!(factor > 1);
        // Once accepted, more of the same keeps it accepted.
        assert_eq!(sprt.status(&scaled(better, factor * 3)), SprtStatus::AcceptH1);
        let (factor, status) = stopping_point(&sprt, worse);
        assert_eq!(status, SprtStatus::AcceptH0, "{model:?}");
        assert!(factor > 1);
    }
}

#[test]
fn degenerate_samples_give_no_nan() {
    let all_wins = Pentanomial([0, 0, 0, 0, 50]);
    let all_draws = Pentanomial([0, 0, 50, 0, 0]);
    let empty = Pentanomial::default();
    for sample in [all_wins, all_draws, all_wins.reversed(), Pentanomial([1, 0, 0, 0, 0])] {
        for estimate in [logistic_elo(&sample), normalized_elo(&sample)] {
            assert!(!estimate.value.is_nan(), "{sample:?}: {estimate:?}");
            assert!(estimate.low <= estimate.value && estimate.value <= estimate.high);
        }
        for model in [EloModel::Logistic, EloModel::Normalized] {
            assert!(llr(&sample, 0.0, 5.0, model).is_finite(), "{sample:?}");
            assert!(llr_approx(&sample, 0.0, 5.0, model).is_finite());
        }
    }
    assert!(logistic_elo(&all_wins).value > 1000.0);
    close(logistic_elo(&all_draws).value, 0.0, 1e-9);
    let unknown = logistic_elo(&empty);
    assert_eq!((unknown.value, unknown.low, unknown.high), (0.0, f64::NEG_INFINITY, f64::INFINITY));
    assert_eq!(normalized_elo(&empty), unknown);
    assert_eq!(llr(&empty, 0.0, 5.0, EloModel::Logistic), 0.0);

    // Far from both hypotheses the LLR grows only slowly: 50 winning pairs
    // are not enough to accept nElo 5 over 0, 500 are. (Reference script;
    // the normalized MLEs come from the uniform starting point here.)
    let sprt = Sprt::new(0.0, 5.0, 0.05, 0.05, EloModel::Normalized);
    close(sprt.llr(&all_wins), 1.007_194_623_778_010_5, 1e-7);
    assert_eq!(sprt.status(&all_wins), SprtStatus::Continue);
    let many_wins = Pentanomial([0, 0, 0, 0, 500]);
    close(sprt.llr(&many_wins), 10.071_860_481_673_822, 1e-6);
    close(sprt.llr(&many_wins.reversed()), -10.278_924_289_997_786, 1e-6);
    close(llr(&many_wins, 0.0, 5.0, EloModel::Logistic), 7.143_832_221_830_232, 1e-7);
    assert_eq!(sprt.status(&many_wins), SprtStatus::AcceptH1);
    assert_eq!(sprt.status(&many_wins.reversed()), SprtStatus::AcceptH0);
    // 2120.4 Elo: the 10⁻³ pseudo-counts of the empty cells keep it finite.
    close(logistic_elo(&many_wins).value, 2_120.412_519_418_657, 1e-6);
    assert_eq!(logistic_elo(&many_wins).high, f64::INFINITY);
}

/// SplitMix64, enough for deterministic simulated leagues.
struct Rng(u64);

impl Rng {
    fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// A round robin with `games` games per pair of agents of the given true
/// strengths; draws take a quarter of the weaker side's expected score from
/// each side, so the expected score stays `score_from_elo(difference)`.
fn simulate(truth: &[f64], games: u64, rng: &mut Rng) -> Vec<HeadToHead> {
    let mut results = Vec::new();
    for i in 0..truth.len() {
        for j in i + 1..truth.len() {
            let p = score_from_elo(truth[i] - truth[j]);
            let half_draw = 0.25 * p.min(1.0 - p);
            let mut record = Trinomial::default();
            for _ in 0..games {
                let u = rng.unit();
                record.add(if u < p - half_draw {
                    Wdl::Win
                } else if u < p + half_draw {
                    Wdl::Draw
                } else {
                    Wdl::Loss
                });
            }
            results.push(HeadToHead { agent: i, opponent: j, record });
        }
    }
    results
}

fn width(rating: &Rating) -> f64 {
    rating.high - rating.low
}

#[test]
fn bradley_terry_recovers_simulated_strengths() {
    let truth = [-200.0, -50.0, 0.0, 100.0, 250.0];
    let mean = truth.iter().sum::<f64>() / truth.len() as f64;
    let results = simulate(&truth, 2000, &mut Rng(7));
    let fitted = ratings(truth.len(), &results);
    close(fitted.iter().map(|r| r.elo).sum::<f64>(), 0.0, 1e-9);
    for pair in fitted.windows(2) {
        assert!(pair[0].elo < pair[1].elo, "{fitted:?}");
    }
    for (rating, true_elo) in fitted.iter().zip(truth) {
        let centred = true_elo - mean;
        close(rating.elo, centred, 25.0);
        assert!(rating.low < rating.elo && rating.elo < rating.high);
        // 8000 games per agent: about ±8 Elo.
        assert!(width(rating) > 8.0 && width(rating) < 25.0, "{rating:?}");
    }
}

#[test]
fn two_agents_match_the_closed_form() {
    // A scored 75 of 100 against B. Without a prior the MLE difference is
    // elo(0.75) = 190.848501887865, so ±95.4242509439325 about the mean; the
    // difference has variance 1/(n·s(1−s)) in natural units, half of it for
    // each agent's distance from the mean: 1.959964·√(1/(100·0.1875))/2·400/ln10
    // = 39.31531520877775.
    let results = [HeadToHead { agent: 0, opponent: 1, record: Trinomial::new(20, 10, 70) }];
    let fit = BradleyTerry { prior_draws: 0.0, ..BradleyTerry::default() }.fit(2, &results);
    close(fit[0].elo, 95.424_250_943_932_5, 1e-3);
    close(fit[1].elo, -95.424_250_943_932_5, 1e-3);
    close(fit[0].high - fit[0].elo, 39.315_315_208_777_75, 1e-3);
    close(fit[1].elo - fit[1].low, 39.315_315_208_777_75, 1e-3);
    // The default prior (two virtual draws each) pulls them in a little.
    let shrunk = ratings(2, &results);
    assert!(shrunk[0].elo < fit[0].elo && shrunk[0].elo > 85.0);
}

#[test]
fn intervals_shrink_with_more_games() {
    let truth = [-100.0, 0.0, 50.0, 120.0];
    let results = simulate(&truth, 200, &mut Rng(11));
    let many: Vec<HeadToHead> = results
        .iter()
        .map(|h2h| HeadToHead {
            record: Trinomial::new(
                h2h.record.losses * 4,
                h2h.record.draws * 4,
                h2h.record.wins * 4,
            ),
            ..*h2h
        })
        .collect();
    let few = ratings(truth.len(), &results);
    let more = ratings(truth.len(), &many);
    for (few, more) in few.iter().zip(&more) {
        let ratio = width(more) / width(few);
        // Four times the games: half the width, give or take the prior.
        assert!(ratio > 0.45 && ratio < 0.55, "{few:?} {more:?}");
    }

    // An agent that played fewer games has the widest interval.
    let mut uneven = simulate(&truth, 200, &mut Rng(12));
    uneven.retain(|h2h| h2h.opponent != 3);
    uneven.extend(simulate(&[0.0, 120.0], 10, &mut Rng(13)).iter().map(|h2h| HeadToHead {
        agent: 1,
        opponent: 3,
        record: h2h.record,
    }));
    let fit = ratings(truth.len(), &uneven);
    for other in &fit[..3] {
        assert!(width(&fit[3]) > 2.0 * width(other), "{fit:?}");
    }
}

#[test]
fn symmetric_leagues_give_equal_ratings() {
    // A cycle: 0 beats 1, 1 beats 2, 2 beats 0, equally often.
    let record = Trinomial::new(10, 5, 30);
    let cycle: Vec<HeadToHead> = [(0, 1), (1, 2), (2, 0)]
        .into_iter()
        .map(|(agent, opponent)| HeadToHead { agent, opponent, record })
        .collect();
    let fit = ratings(3, &cycle);
    for rating in &fit {
        close(rating.elo, 0.0, 1e-9);
        close(width(rating), width(&fit[0]), 1e-9);
    }
    // Two equal pairs, 0 v 1 and 2 v 3, with the same score.
    let pairs = [
        HeadToHead { agent: 0, opponent: 1, record: Trinomial::new(4, 2, 14) },
        HeadToHead { agent: 3, opponent: 2, record: Trinomial::new(14, 2, 4) },
    ];
    let fit = ratings(4, &pairs);
    close(fit[0].elo, fit[2].elo, 1e-9);
    close(fit[1].elo, fit[3].elo, 1e-9);
    close(fit[0].elo, -fit[1].elo, 1e-9);
}

#[test]
fn an_agent_that_won_everything_stays_finite() {
    let results = [
        HeadToHead { agent: 0, opponent: 1, record: Trinomial::new(0, 0, 40) },
        HeadToHead { agent: 0, opponent: 2, record: Trinomial::new(0, 0, 40) },
        HeadToHead { agent: 1, opponent: 2, record: Trinomial::new(15, 10, 15) },
    ];
    for prior_draws in [2.0, 1e-3, 0.0] {
        let fit = BradleyTerry { prior_draws, ..BradleyTerry::default() }.fit(3, &results);
        for rating in &fit {
            assert!(
                rating.elo.is_finite() && rating.low.is_finite() && rating.high.is_finite(),
                "prior {prior_draws}: {fit:?}"
            );
        }
        assert!(fit[0].elo > fit[1].elo + 300.0, "prior {prior_draws}: {fit:?}");
        close(fit[1].elo, fit[2].elo, 1e-6);
    }
}

#[test]
fn leagues_without_games() {
    assert!(ratings(0, &[]).is_empty());
    let fit = ratings(3, &[]);
    for rating in fit {
        close(rating.elo, 0.0, 1e-12);
        assert!(rating.low.is_finite() && rating.low < 0.0);
    }
    // Games against oneself count for nothing.
    let selfish = [HeadToHead { agent: 1, opponent: 1, record: Trinomial::new(0, 0, 9) }];
    assert_eq!(ratings(2, &selfish), ratings(2, &[]));
}

fn counts() -> impl Strategy<Value = u64> {
    prop_oneof![Just(0u64), 0..5u64, 0..100_000u64, Just(1_000_000_000u64)]
}

proptest! {
    #[test]
    fn pentanomial_statistics_never_give_nan(
        cells in proptest::array::uniform5(counts()),
        elo0 in -50.0..50.0f64,
        width in 0.1..50.0f64,
    ) {
        let sample = Pentanomial(cells);
        for estimate in [logistic_elo(&sample), normalized_elo(&sample)] {
            prop_assert!(!estimate.value.is_nan() && !estimate.low.is_nan() && !estimate.high.is_nan());
            prop_assert!(estimate.low <= estimate.value && estimate.value <= estimate.high);
        }
        for model in [EloModel::Logistic, EloModel::Normalized] {
            let value = llr(&sample, elo0, elo0 + width, model);
            prop_assert!(value.is_finite(), "{:?} {:?} {}", sample, model, value);
            prop_assert!(!llr_approx(&sample, elo0, elo0 + width, model).is_nan());
            // Swapping the hypotheses negates the ratio.
            let swapped = llr(&sample, elo0 + width, elo0, model);
            prop_assert!((value + swapped).abs() <= 1e-6 * value.abs().max(1.0));
        }
    }

    #[test]
    fn trinomial_statistics_never_give_nan(
        losses in counts(),
        draws in counts(),
        wins in counts(),
        elo0 in -400.0..400.0f64,
        elo1 in -400.0..400.0f64,
    ) {
        let sample = Trinomial::new(losses, draws, wins);
        for estimate in [logistic_elo(&sample), normalized_elo(&sample)] {
            prop_assert!(!estimate.value.is_nan() && !estimate.low.is_nan() && !estimate.high.is_nan());
        }
        for model in [EloModel::Logistic, EloModel::Normalized] {
            let value = llr(&sample, elo0, elo1, model);
            prop_assert!(value.is_finite(), "{:?} {:?} {}", sample, model, value);
        }
    }

    #[test]
    fn ratings_are_finite_and_centred(
        entries in proptest::collection::vec(
            (0..5usize, 0..5usize, 0..30u64, 0..30u64, 0..30u64),
            0..20,
        ),
    ) {
        let results: Vec<HeadToHead> = entries
            .iter()
            .map(|&(agent, opponent, losses, draws, wins)| HeadToHead {
                agent,
                opponent,
                record: Trinomial::new(losses, draws, wins),
            })
            .collect();
        let fit = ratings(5, &results);
        prop_assert_eq!(fit.len(), 5);
        prop_assert!(fit.iter().map(|r| r.elo).sum::<f64>().abs() < 1e-6);
        for rating in &fit {
            prop_assert!(rating.elo.is_finite() && rating.low.is_finite() && rating.high.is_finite());
            prop_assert!(rating.low <= rating.elo && rating.elo <= rating.high);
        }
    }
}
