"""The asymmetric clipped surrogate (grpo_examples/ppo.py's epsilon_high) and DAPO's clip-higher, by hand, and
DAPO's dynamic sampling."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import grpo_examples as gx


def test_dapo_settings_are_the_papers() -> None:
    # DAPO (arXiv 2503.14476): eps_low = 0.2, eps_high = 0.28; PPO's symmetric eps = 0.2.
    assert (gx.DAPO_EPS_LOW, gx.DAPO_EPS_HIGH, gx.SYMMETRIC_EPS) == (0.2, 0.28, 0.2)


def test_a_ratio_of_1_25_with_a_positive_advantage_by_hand() -> None:
    # A = +0.5, rho = 1.25. Symmetric: clip(1.25, 0.8, 1.2) = 1.2, min(0.625, 0.6) = 0.6: the clipped term, no gradient.
    assert float(gx.clipped_ratio(1.25, 0.2)) == pytest.approx(1.2)
    assert float(gx.clipped_surrogate(1.25, 0.5, 0.2)) == pytest.approx(0.6)
    assert gx.clip_binds(1.25, 0.5, 0.2) and float(gx.surrogate_gradient(1.25, 0.5, 0.2)) == 0.0
    # Clip-higher: clip(1.25, 0.8, 1.28) = 1.25, min(0.625, 0.625) = 0.625: inside the range, the gradient flows.
    assert float(gx.clipped_ratio(1.25, 0.2, 0.28)) == pytest.approx(1.25)
    assert float(gx.clipped_surrogate(1.25, 0.5, 0.2, 0.28)) == pytest.approx(0.625)
    assert not gx.clip_binds(1.25, 0.5, 0.2, 0.28) and float(gx.surrogate_gradient(1.25, 0.5, 0.2, 0.28)) == 0.5


def test_the_lower_bound_still_binds_for_a_negative_advantage() -> None:
    # A = -1, rho = 0.7: clip(0.7, 0.8, 1.28) = 0.8; min(-0.7, -0.8) = -0.8, the clipped term: no gradient.
    assert float(gx.clipped_surrogate(0.7, -1.0, 0.2, 0.28)) == pytest.approx(-0.8)
    assert gx.clip_binds(0.7, -1.0, 0.2, 0.28)
    # The same ratio with a positive advantage is not clipped from below: min(0.7, 0.8) = 0.7.
    assert not gx.clip_binds(0.7, 1.0, 0.2, 0.28)


def test_dapos_illustration_of_the_ceiling() -> None:
    # pi_old = 0.01: 0.01 x 1.2 = 0.012, 0.01 x 1.28 = 0.0128. pi_old = 0.9: 0.9 x 1.2 = 1.08 > 1, so no cap.
    assert gx.probability_ceiling(0.01, 0.2) == pytest.approx(0.012)
    assert gx.probability_ceiling(0.01, 0.28) == pytest.approx(0.0128)
    assert gx.probability_ceiling(0.9, 0.2) == 1.0


# No deadline on this file's property tests: each example takes well under a millisecond, and a machine busy
# with the other layers' builds can stall one for longer than Hypothesis's 200 ms, which says nothing
# about the math.
@settings(deadline=None)
@given(st.floats(0, 5), st.floats(-3, 3), st.floats(0.01, 0.9), st.floats(0.01, 1))
def test_the_asymmetric_surrogate_never_exceeds_the_unclipped_term(
    ratio: float, advantage: float, low: float, high: float
) -> None:
    value = float(gx.clipped_surrogate(ratio, advantage, low, high))
    unclipped = float(gx.unclipped_term(ratio, advantage))
    assert value <= unclipped + 1e-12
    assert value == min(unclipped, float(gx.clipped_term(ratio, advantage, low, high)))


def test_bad_clip_ranges_are_refused() -> None:
    with pytest.raises(ValueError, match=r"must lie in \(0, 1\)"):
        gx.clip_range(1.0, 0.2)
    with pytest.raises(ValueError, match="epsilon_high must be positive"):
        gx.clip_range(0.2, 0.0)
    with pytest.raises(ValueError, match=r"\(0, 1\]"):
        gx.probability_ceiling(0.0, 0.2)


def test_dynamic_sampling_keeps_the_groups_that_hold_both_outcomes() -> None:
    # DAPO keeps 0 < correct < G: [1, 1, 1, 1, 0] and [1, 0, 0, 0, 0] are kept; [1, 1, 1, 1] and [0, 0] are not.
    groups = {"easy": [1, 1, 1, 1, 0], "hard": [1, 0, 0, 0, 0], "solved": [1, 1, 1, 1], "none": [0, 0]}
    assert gx.kept_groups(groups) == ["easy", "hard"]
    # A group of equal rewards strictly between 0 and 1 teaches nothing either (OpenRLHF issue 1270).
    assert not gx.dynamic_sampling_keeps([0.5, 0.5, 0.5])
    assert gx.dynamic_sampling_keeps([0.5, 0.25])


def test_the_books_solved_group_is_the_one_dropped() -> None:
    # groups.toml: four right answers to "What is 12 + 30?", written four ways, all scored 1 by the verifier.
    assert gx.group("solved").rewards == (Fraction(1),) * 4
    groups = {name: [float(r) for r in gx.group(name).rewards] for name in gx.group_names()}
    assert [name for name in groups if name not in gx.kept_groups(groups)] == ["solved"]
    assert [name for name in gx.group_names() if not gx.group(name).kept] == ["solved"]
