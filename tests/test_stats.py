"""The statistics of balance reports, against values computed by hand or published."""
from __future__ import annotations

import math

import pytest

from engine.analysis.stats import detectable, histogram, quartiles, summary, wilson


@pytest.mark.parametrize("k, n, low, high", [
    (8, 10, 0.4902, 0.9433),    # the textbook example (Wilson 1927; Newcombe 1998, method 3)
    (0, 10, 0.0, 0.2775),       # no success: the interval still has width
    (10, 10, 0.7225, 1.0),
    (50, 100, 0.4038, 0.5962),
    (1, 1000, 0.0002, 0.0056),
])
def test_wilson_interval_matches_known_values(k, n, low, high):
    lo, hi = wilson(k, n)
    assert lo == pytest.approx(low, abs=5e-5) and hi == pytest.approx(high, abs=5e-5)


def test_wilson_takes_shared_wins_and_no_trials():
    lo, hi = wilson(2.5, 10)
    assert lo < 0.25 < hi
    assert wilson(0, 0) == (0.0, 1.0)


def test_summary_mean_sd_range():
    s = summary([2, 4, 4, 4, 5, 5, 7, 9])
    assert (s.n, s.mean, s.low, s.high) == (8, 5.0, 2, 9)
    assert s.sd == pytest.approx(math.sqrt(32 / 7))
    assert s.half_width == pytest.approx(1.959964 * math.sqrt(32 / 7) / math.sqrt(8), rel=1e-6)
    assert math.isnan(summary([]).mean)
    assert summary([3]).sd == 0.0


def test_a_paired_difference_is_detectable_only_beyond_its_interval():
    assert detectable(summary([1.0, 1.0, 1.0, 0.0] * 50))       # mean 0.75, tight
    assert not detectable(summary([1.0, -1.0] * 50))            # mean 0
    assert not detectable(summary([0.5]))                       # one pair says nothing


def test_quartiles_interpolate_between_values():
    assert quartiles([40, 45, 50, 60, 70]) == (45, 50, 60)
    assert quartiles([1, 2, 3, 4]) == (1.75, 2.5, 3.25)    # as numpy.percentile's default
    assert quartiles([7]) == (7, 7, 7)


def test_histogram_bins_are_whole_numbers_of_equal_width():
    assert histogram([3, 3, 4, 7]) == [(3, 3, 2), (4, 4, 1), (5, 5, 0), (6, 6, 0), (7, 7, 1)]
    bins = histogram(list(range(100, 250)), bins=20)        # 150 values: bins of 8
    assert bins[0] == (100, 107, 8) and bins[-1] == (244, 251, 6) and len(bins) == 19
    assert sum(n for _, _, n in bins) == 150 and histogram([]) == []
