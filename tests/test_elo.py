"""Score intervals, Elo and the SPRT (``blokus.elo``)."""

from __future__ import annotations

import math

import pytest

from blokus.elo import Z95, elo, estimate, expected_score, format_elo, sprt


def test_elo_and_expected_score_are_inverse() -> None:
    assert elo(0.5) == 0 and elo(0) == -math.inf and elo(1) == math.inf
    for d in (-400, -35.5, 0.0, 12.0, 191.0, 800):
        assert elo(expected_score(d)) == pytest.approx(d)
    assert expected_score(400) == pytest.approx(10 / 11), "400 points: ten to one"


def test_estimate_is_the_normal_interval_of_the_mean() -> None:
    samples = [1.0, 0.0, 1.0, 0.5, 1.0, 0.5, 0.0, 1.0]
    e = estimate(samples)
    mean = sum(samples) / 8
    sd = math.sqrt(sum((x - mean) ** 2 for x in samples) / 7)
    assert e.score == mean and e.n == 8
    assert (e.low, e.high) == pytest.approx((mean - Z95 * sd / math.sqrt(8), mean + Z95 * sd / math.sqrt(8)))
    assert e.elo == pytest.approx(elo(mean)) and e.elo_low < e.elo < e.elo_high


def test_estimate_edges() -> None:
    assert estimate([]).n == 0 and math.isnan(estimate([]).score)
    one = estimate([0.5])
    assert (one.low, one.high) == (0.0, 1.0), "one sample says nothing of the spread"
    one_won = estimate([1.0])
    assert one_won.low == pytest.approx(0.025) and math.isfinite(one_won.elo_low)
    # Every round won: the exact binomial bound, the lowest score under which ten wins in ten
    # happen 2.5% of the time; its Elo is a finite lower bound.
    all_won = estimate([1.0] * 10)
    assert (all_won.high, all_won.elo) == (1.0, math.inf)
    assert all_won.low == pytest.approx(0.025 ** (1 / 10)) and all_won.low**10 == pytest.approx(0.025)
    assert math.isfinite(all_won.elo_low) and all_won.elo_low > 0
    all_lost = estimate([0.0] * 10)
    assert (all_lost.low, all_lost.high) == pytest.approx((0.0, 1 - 0.025 ** (1 / 10)))
    assert math.isfinite(all_lost.elo_high) and all_lost.elo_high == pytest.approx(-all_won.elo_low)
    clamped = estimate([1.0, 1.0, 1.0, 0.0])
    assert clamped.high == 1.0 and clamped.low > 0


def test_sprt_decides_both_ways_and_waits_when_unclear() -> None:
    good = sprt([1.0, 0.5, 1.0, 1.0, 0.5] * 8, 0, 50)
    assert good.decision == "H1" and good.llr >= good.upper
    bad = sprt([0.0, 0.5, 0.5, 0.0, 1.0] * 12, 0, 50)
    assert bad.decision == "H0" and bad.llr <= bad.lower
    even = sprt([1.0, 0.0] * 5, 0, 50)
    assert even.decision is None and even.lower < even.llr < even.upper
    assert (good.lower, good.upper) == pytest.approx((math.log(0.05 / 0.95), math.log(0.95 / 0.05)))


def test_sprt_log_likelihood_ratio() -> None:
    samples = [1.0, 0.5, 0.0, 1.0, 1.0, 0.5]
    t = sprt(samples, -10, 20, alpha=0.1, beta=0.2)
    s0, s1 = expected_score(-10), expected_score(20)
    mean = sum(samples) / 6
    pooled = (sum(samples) + 0.5) / 7
    var = (sum((x - pooled) ** 2 for x in samples) + 0.5 * pooled**2 + 0.5 * (1 - pooled) ** 2) / 7
    assert t.llr == pytest.approx(6 * (s1 - s0) * (2 * mean - s0 - s1) / (2 * var))
    assert (t.lower, t.upper) == pytest.approx((math.log(0.2 / 0.9), math.log(0.8 / 0.1)))


def test_few_identical_results_do_not_end_an_sprt() -> None:
    assert sprt([1.0, 1.0], 0, 50).decision is None
    assert sprt([], 0, 50).llr == 0


def test_sprt_bad_bounds() -> None:
    with pytest.raises(ValueError, match="elo0 < elo1"):
        sprt([1.0], 5, 5)
    with pytest.raises(ValueError, match="probabilities"):
        sprt([1.0], 0, 5, alpha=0)


def test_format_elo() -> None:
    assert [format_elo(x) for x in (12.34, -5.0, math.inf, -math.inf, math.nan)] == [
        "+12.3",
        "-5.0",
        "+inf",
        "-inf",
        "n/a",
    ]
