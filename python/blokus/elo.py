"""Score, Elo and the sequential probability ratio test (SPRT) for matches.

A match's samples are the mean scores, in [0, 1], of one engine over *rounds*: the games that
share an opening, one per seating (two for two engines: the pentanomial view of paired games,
which counts the pair as one observation, so that the strength of the opening does not pass for
the strength of an engine). Draws count half; in games of three or four players an engine's
score is its place (1 alone first, 0 alone last, ties sharing), as in Pentobi's ``twogtp``.

The interval is the normal approximation over those samples (at a score of 0 or 1, where that
interval would be a point, the exact binomial bound); Elo is the logistic one,
``-400 log10(1/score - 1)``, its interval the image of the score's. The SPRT is the generalized
test on the same samples in the normal approximation: with score ``s0``, ``s1`` expected at
``elo0``, ``elo1``, the log-likelihood ratio is ``n (s1 - s0) (2 mean - s0 - s1) / (2 var)``,
between the bounds ``log(beta / (1 - alpha))`` and ``log((1 - beta) / alpha)``.

>>> round(elo(0.75), 1), round(expected_score(0.0), 3)
(190.8, 0.5)
>>> e = estimate([1, 0.5, 1, 0, 1, 0.5])
>>> round(e.score, 3), e.n
(0.667, 6)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

#: The two-sided 95% quantile of the normal distribution.
Z95 = 1.959963984540054


def expected_score(elo_difference: float) -> float:
    """The score expected at an Elo difference (logistic).

    >>> round(expected_score(0), 3), round(expected_score(100), 3)
    (0.5, 0.64)
    """
    return 1.0 / (1.0 + math.pow(10.0, -elo_difference / 400.0))


def elo(score: float) -> float:
    """The Elo difference of a score (``-inf`` at 0, ``inf`` at 1).

    >>> round(elo(0.64), 1), elo(0.5) == 0, elo(1.0)
    (100.0, True, inf)
    """
    if score <= 0:
        return -math.inf
    if score >= 1:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)


@dataclass(frozen=True)
class Estimate:
    """A score with its 95% interval, and the Elo difference they mean.

    >>> e = estimate([1, 0.5, 1, 0, 1, 1, 0.5, 1])
    >>> round(e.score, 4), round(e.low, 3), round(e.high, 3), e.n
    (0.75, 0.488, 1.0, 8)
    """

    score: float
    low: float
    high: float
    n: int

    @property
    def elo(self) -> float:
        """The Elo difference the score means."""
        return elo(self.score)

    @property
    def elo_low(self) -> float:
        """The Elo difference at the low end of the interval."""
        return elo(self.low)

    @property
    def elo_high(self) -> float:
        """The Elo difference at the high end of the interval."""
        return elo(self.high)


def _mean_var(samples: Sequence[float]) -> tuple[float, float]:
    n = len(samples)
    mean = sum(samples) / n
    return mean, sum((x - mean) ** 2 for x in samples) / n


def estimate(samples: Sequence[float], z: float = Z95) -> Estimate:
    """The mean of ``samples`` with its interval (normal approximation, clamped to [0, 1]).

    >>> e = estimate([0.5, 1.0, 0.0, 0.5])
    >>> e.score, e.n, e.low < 0.5 < e.high
    (0.5, 4, True)
    """
    n = len(samples)
    if n == 0:
        return Estimate(math.nan, math.nan, math.nan, 0)
    mean, var = _mean_var(samples)
    if mean in (0.0, 1.0):
        # Every sample the same extreme: the normal approximation's interval would be the
        # point itself. The exact binomial (Clopper-Pearson) bound holds instead: after n
        # wins in n, the score is at least 0.025^(1/n) at the 95% level.
        bound = (1 - _confidence(z)) ** (1 / n)
        return Estimate(mean, bound, 1.0, n) if mean == 1.0 else Estimate(mean, 0.0, 1 - bound, n)
    half = z * math.sqrt(var / (n - 1)) if n > 1 else math.inf
    return Estimate(mean, max(0.0, mean - half), min(1.0, mean + half), n)


def _confidence(z: float) -> float:
    """The two-sided confidence of ``z`` standard deviations: 0.975 at :data:`Z95`, the share
    of outcomes below the upper end."""
    return 0.5 * (1 + math.erf(z / math.sqrt(2)))


@dataclass(frozen=True)
class Sprt:
    """The state of an SPRT: the log-likelihood ratio, its bounds and the decision so far.

    >>> t = sprt([1.0] * 30, elo0=0, elo1=50)
    >>> t.elo0, t.elo1, round(t.lower, 3), round(t.upper, 3), t.llr > t.upper
    (0, 50, -2.944, 2.944, True)
    """

    llr: float
    lower: float
    upper: float
    elo0: float
    elo1: float

    @property
    def decision(self) -> str | None:
        """``"H1"`` (at least ``elo1`` better: accepted), ``"H0"`` (at most ``elo0``), or
        ``None`` while undecided."""
        if self.llr >= self.upper:
            return "H1"
        if self.llr <= self.lower:
            return "H0"
        return None


def sprt(samples: Sequence[float], elo0: float, elo1: float, alpha: float = 0.05, beta: float = 0.05) -> Sprt:
    """The SPRT of ``elo0`` against ``elo1`` over ``samples``.

    The variance is estimated with one even game added (half a win and half a loss), so that a
    few identical results cannot end the test.

    >>> t = sprt([1.0] * 40, 0, 50)
    >>> t.decision, round(t.llr, 2) > t.upper
    ('H1', True)
    >>> sprt([0.5, 1.0], 0, 50).decision is None
    True
    """
    if not (0 < alpha < 1 and 0 < beta < 1):
        raise ValueError(f"alpha and beta are probabilities between 0 and 1, not {alpha}, {beta}")
    if not elo0 < elo1:
        raise ValueError(f"the SPRT needs elo0 < elo1, not {elo0} and {elo1}")
    lower, upper = math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)
    n = len(samples)
    if n == 0:
        return Sprt(0.0, lower, upper, elo0, elo1)
    mean, _ = _mean_var(samples)
    prior = [0.0, 1.0]
    weights = [0.5, 0.5]
    total = n + sum(weights)
    pooled = (sum(samples) + sum(w * x for w, x in zip(weights, prior))) / total
    var = (sum((x - pooled) ** 2 for x in samples) + sum(w * (x - pooled) ** 2 for w, x in zip(weights, prior))) / total
    s0, s1 = expected_score(elo0), expected_score(elo1)
    llr = n * (s1 - s0) * (2 * mean - s0 - s1) / (2 * var)
    return Sprt(llr, lower, upper, elo0, elo1)


def format_elo(value: float) -> str:
    """An Elo difference for people: ``+12.3``, ``-inf``.

    >>> format_elo(12.34), format_elo(-5), format_elo(float("-inf"))
    ('+12.3', '-5.0', '-inf')
    """
    if math.isinf(value):
        return "+inf" if value > 0 else "-inf"
    if math.isnan(value):
        return "n/a"
    return f"{value:+.1f}"


__all__ = ["Z95", "Estimate", "Sprt", "elo", "estimate", "expected_score", "format_elo", "sprt"]
