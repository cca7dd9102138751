"""The statistics of balance reports: shares with Wilson intervals, means with their spread,
and paired differences for comparing two variants played on the same seeds.

Plain Python on purpose: the formulas are short, and the core install stays light.
"""
from __future__ import annotations

import math
import statistics
from dataclasses import dataclass

Z95 = 1.959963984540054  # the two-sided 95% quantile of the normal distribution


# The two-sided 95% quantiles of Student's t for 1 to 30 degrees of freedom; the normal's beyond.
# A card that comes up in a few games (analysis/cards.py) is judged on a few pairs, where the normal's interval is
# too narrow: two equal differences would read as detectable.
T95 = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145,
       2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048,
       2.045, 2.042)


def t95(n: int) -> float:
    """The multiplier of the standard error for a 95% interval of the mean of `n` values."""
    return T95[n - 2] if 2 <= n <= len(T95) + 1 else Z95



def wilson(successes: float, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a share (95% by default): unlike share ± z·se it stays
    within 0..1 and behaves for shares near 0 or 1 and for few trials. A shared win counts
    as its fraction, so `successes` may be fractional."""
    if trials <= 0:
        return 0.0, 1.0
    p = successes / trials
    z2 = z * z
    centre = (p + z2 / (2 * trials)) / (1 + z2 / trials)
    half = z / (1 + z2 / trials) * math.sqrt(max(0.0, p * (1 - p) / trials + z2 / (4 * trials * trials)))
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass(frozen=True)
class Summary:
    """Mean, sample standard deviation, minimum and maximum of some numbers."""

    n: int
    mean: float
    sd: float
    low: float
    high: float

    @property
    def half_width(self) -> float:
        """Half the 95% interval of the mean (normal approximation)."""
        return Z95 * self.sd / math.sqrt(self.n) if self.n > 1 else math.inf


def summary(values: list[float]) -> Summary:
    n = len(values)
    if n == 0:
        return Summary(0, math.nan, math.nan, math.nan, math.nan)
    mean = math.fsum(values) / n
    sd = math.sqrt(math.fsum((v - mean) ** 2 for v in values) / (n - 1)) if n > 1 else 0.0
    return Summary(n, mean, sd, min(values), max(values))


def detectable(diff: Summary) -> bool:
    """Whether a paired difference is told apart from no difference at 95%."""
    return diff.n > 1 and abs(diff.mean) > diff.half_width


def quartiles(values: list[float]) -> tuple[float, float, float]:
    """First quartile, median and third quartile, interpolated between the values (the
    "inclusive" method of the statistics module, as numpy's default and spreadsheets do)."""
    if len(values) < 2:
        return (values[0],) * 3 if values else (math.nan,) * 3
    q1, median, q3 = statistics.quantiles(values, n=4, method="inclusive")
    return q1, median, q3


def histogram(values: list[int], bins: int = 20) -> list[tuple[int, int, int]]:
    """Counts of whole numbers in at most `bins` bins of equal width, as (first, last, count)
    with first and last included: a game length of 57 decisions falls in exactly one bin."""
    if not values:
        return []
    low, high = min(values), max(values)
    width = max(1, math.ceil((high - low + 1) / bins))
    counts = [0] * ((high - low) // width + 1)
    for v in values:
        counts[(v - low) // width] += 1
    return [(low + i * width, low + (i + 1) * width - 1, n) for i, n in enumerate(counts)]
