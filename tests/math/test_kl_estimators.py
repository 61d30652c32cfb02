"""Schulman's k1, k2, k3 and the exact KL: by hand, and as properties (k3 >= 0; k1 and k3 unbiased)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.typing import NDArray

import grpo_examples as gx

# The chapter's example: after "7 × 8 =", pi_theta = (0.8, 0.1, 0.05, 0.05), pi_ref = (0.5, 0.2, 0.2, 0.1).
PI_THETA = [0.8, 0.1, 0.05, 0.05]
PI_REF = [0.5, 0.2, 0.2, 0.1]


def test_one_token_by_hand() -> None:
    # Token "56": r = 0.5 / 0.8 = 0.625, log r = ln 0.625 = -0.470004; k1 = 0.470004;
    # k2 = 0.470004^2 / 2 = 0.110452; k3 = 0.625 - 1 + 0.470004 = 0.095004.
    x = float(gx.log_ratio(0.8, 0.5))
    assert x == pytest.approx(math.log(0.625), rel=1e-15)
    assert float(gx.reference_ratio(0.8, 0.5)) == pytest.approx(0.625)
    assert float(gx.k1(x)) == pytest.approx(0.470004, abs=1e-6)
    assert float(gx.k2(x)) == pytest.approx(0.110452, abs=1e-6)
    assert float(gx.k3(x)) == pytest.approx(0.095004, abs=1e-6)
    # Token "54": r = 0.2 / 0.1 = 2: k1 = -ln 2 = -0.693147 (negative), k3 = 2 - 1 - ln 2 = 0.306853.
    y = float(gx.log_ratio(0.1, 0.2))
    assert float(gx.k1(y)) == pytest.approx(-0.693147, abs=1e-6)
    assert float(gx.k3(y)) == pytest.approx(0.306853, abs=1e-6)


def test_the_exact_kl_and_the_means_by_hand() -> None:
    # KL = 0.8 ln 1.6 + 0.1 ln 0.5 + 0.05 ln 0.25 + 0.05 ln 0.5
    #    = 0.376003 - 0.069315 - 0.069315 - 0.034657 = 0.202716.
    assert gx.exact_kl(PI_THETA, PI_REF) == pytest.approx(0.202716, abs=1e-6)
    # E[k3] = 0.8 x 0.095004 + 0.1 x 0.306853 + 0.05 x 1.613706 + 0.05 x 0.306853 = 0.202716 (the KL).
    assert gx.expected_estimate(gx.k3, PI_THETA, PI_REF) == pytest.approx(0.202716, abs=1e-6)
    assert gx.expected_estimate(gx.k1, PI_THETA, PI_REF) == pytest.approx(0.202716, abs=1e-6)
    # E[k2] = 0.8 x 0.110452 + 0.1 x 0.240227 + 0.05 x 0.960906 + 0.05 x 0.240227 = 0.172441: below the KL.
    assert gx.expected_estimate(gx.k2, PI_THETA, PI_REF) == pytest.approx(0.172441, abs=1e-6)


def test_the_spreads_by_hand() -> None:
    # k1 values 0.470004, -0.693147, -1.386294, -0.693147; E[k1^2] = 0.8 x 0.220903 + 0.1 x 0.480453
    # + 0.05 x 1.921812 + 0.05 x 0.480453 = 0.344881; var = 0.344881 - 0.202716^2 = 0.303788; std = 0.551170.
    assert gx.estimate_std(gx.k1, PI_THETA, PI_REF) == pytest.approx(0.551170, abs=1e-5)
    # k3 values 0.095004, 0.306853, 1.613706, 0.306853; E[k3^2] = 0.8 x 0.009026 + 0.1 x 0.094159
    # + 0.05 x 2.604047 + 0.05 x 0.094159 = 0.151547; var = 0.151547 - 0.041094 = 0.110453; std = 0.332345.
    assert gx.estimate_std(gx.k3, PI_THETA, PI_REF) == pytest.approx(0.332345, abs=1e-5)


def test_the_monte_carlo_mean_of_k3_is_the_kl_within_four_standard_errors() -> None:
    # 20000 tokens from pi_theta (seed 7): the standard error of the mean of k3 is 0.332345 / sqrt(20000) = 0.00235,
    # so the mean lies within 4 x 0.00235 = 0.0094 of the KL unless something is wrong.
    estimate = gx.monte_carlo_estimate(gx.k3, PI_THETA, PI_REF, 20000, seed=7)
    assert abs(estimate - 0.202716) < 4 * 0.332345 / math.sqrt(20000)


def test_k3_is_accurate_where_r_is_nearly_1() -> None:
    # log r = 1e-9: k3 = (log r)^2 / 2 + O((log r)^3) = 5e-19; the naive r - 1 - log r would give 0 or noise.
    assert float(gx.k3(1e-9)) == pytest.approx(5e-19, rel=1e-5)
    assert float(gx.k3(0.0)) == 0.0


# No deadline on this file's property tests: each example takes well under a millisecond, and a machine busy
# with the other layers' builds can stall one for longer than Hypothesis's 200 ms, which says nothing
# about the math.
@settings(deadline=None)
@given(st.floats(-30, 30, allow_nan=False))
def test_k3_is_never_negative_and_k2_neither(log_r: float) -> None:
    assert float(gx.k3(log_r)) >= 0
    assert float(gx.k2(log_r)) >= 0
    assert float(gx.k3(log_r)) == pytest.approx(float(gx.k1(log_r)) + math.expm1(log_r), abs=1e-9 * math.exp(log_r))


def _distribution(weights: list[float]) -> NDArray[np.float64]:
    w = np.asarray(weights)
    normalised: NDArray[np.float64] = w / w.sum()
    return normalised


positive = st.floats(0.01, 1.0)


@settings(deadline=None)
@given(
    st.integers(2, 8).flatmap(
        lambda n: st.tuples(st.lists(positive, min_size=n, max_size=n), st.lists(positive, min_size=n, max_size=n))
    )
)
def test_k1_and_k3_average_to_the_exact_kl(pair: tuple[list[float], list[float]]) -> None:
    p, q = _distribution(pair[0]), _distribution(pair[1])
    kl = gx.exact_kl(p, q)
    assert kl >= -1e-12
    assert gx.expected_estimate(gx.k3, p, q) == pytest.approx(kl, abs=1e-12)
    assert gx.expected_estimate(gx.k1, p, q) == pytest.approx(kl, abs=1e-12)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: gx.log_ratio(0.0, 0.5), "pi_theta must be probabilities"),
        (lambda: gx.log_ratio(0.5, 1.5), "pi_ref must be probabilities"),
        (lambda: gx.exact_kl([0.5, 0.4], [0.5, 0.5]), "summing to 1"),
        (lambda: gx.monte_carlo_estimate(gx.k3, PI_THETA, PI_REF, 0, seed=0), "at least one sample"),
    ],
)
def test_bad_inputs_are_refused_with_a_reason(call: object, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        call()  # type: ignore[operator]
