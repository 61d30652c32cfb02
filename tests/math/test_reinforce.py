"""REINFORCE on a bandit, computed exactly: the expected reward, its gradient, the estimates and their variance."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from numpy.typing import NDArray

from grpo_examples import reinforce

# Two candidates, a coin: pi = (0.5, 0.5), rewards (1, 0).
COIN = np.array([0.5, 0.5]), np.array([1.0, 0.0])
# The chapter's bandit (grpo_examples/data/bandit.toml): pi = (0.3, 0.4, 0.2, 0.1), rewards (2, 1, 1, 0).
CHAPTER = np.array([0.3, 0.4, 0.2, 0.1]), np.array([2.0, 1.0, 1.0, 0.0])


def test_coin_by_hand() -> None:
    policy, rewards = COIN
    # J = 0.5 x 1 + 0.5 x 0 = 0.5. Scores: onehot - pi = (0.5, -0.5) for c = 1, (-0.5, 0.5) for c = 2.
    assert reinforce.expected_reward(policy, rewards) == 0.5
    np.testing.assert_allclose(reinforce.score(policy), [[0.5, -0.5], [-0.5, 0.5]])
    # grad J = pi (r - J) = (0.5 x 0.5, 0.5 x -0.5) = (0.25, -0.25).
    np.testing.assert_allclose(reinforce.true_gradient(policy, rewards), [0.25, -0.25])
    # Without a baseline: g(1) = 1 x (0.5, -0.5), g(2) = 0; misses |(0.25, -0.25)|^2 = 0.125 each;
    # variance 0.5 x 0.125 + 0.5 x 0.125 = 0.125.
    np.testing.assert_allclose(reinforce.estimates(policy, rewards, 0.0), [[0.5, -0.5], [0.0, 0.0]])
    np.testing.assert_allclose(reinforce.squared_misses(policy, rewards, 0.0), [0.125, 0.125])
    assert reinforce.estimator_variance(policy, rewards, 0.0) == pytest.approx(0.125)
    # With b = J = 0.5: g(1) = 0.5 x (0.5, -0.5) = (0.25, -0.25) = grad J, g(2) = -0.5 x (-0.5, 0.5) = grad J too:
    # every sample gives the true gradient, variance 0.
    np.testing.assert_allclose(reinforce.estimates(policy, rewards, 0.5), [[0.25, -0.25], [0.25, -0.25]])
    assert reinforce.estimator_variance(policy, rewards, 0.5) == pytest.approx(0.0, abs=1e-15)


def test_chapter_bandit_by_hand() -> None:
    policy, rewards = CHAPTER
    # J = 0.3 x 2 + 0.4 x 1 + 0.2 x 1 + 0.1 x 0 = 1.2; grad J = pi (r - J) = (0.24, -0.08, -0.04, -0.12).
    assert reinforce.expected_reward(policy, rewards) == pytest.approx(1.2)
    np.testing.assert_allclose(reinforce.true_gradient(policy, rewards), [0.24, -0.08, -0.04, -0.12])
    # ||grad J||^2 = 0.0576 + 0.0064 + 0.0016 + 0.0144 = 0.08.
    assert reinforce.gradient_squared_norm(policy, rewards) == pytest.approx(0.08)
    # b = 0, candidate 1: g = 2 x (0.7, -0.4, -0.2, -0.1) = (1.4, -0.8, -0.4, -0.2); minus grad J:
    # (1.16, -0.72, -0.36, -0.08), squared 1.3456 + 0.5184 + 0.1296 + 0.0064 = 2.0. Likewise 0.78, 1.1 and
    # (candidate 4, g = 0) 0.08; variance 0.3 x 2 + 0.4 x 0.78 + 0.2 x 1.1 + 0.1 x 0.08 = 1.14.
    np.testing.assert_allclose(reinforce.squared_misses(policy, rewards, 0.0), [2.0, 0.78, 1.1, 0.08])
    assert reinforce.estimator_variance(policy, rewards, 0.0) == pytest.approx(1.14)
    # b = 1.2: weights (0.8, -0.2, -0.2, -1.2); candidate 4: -1.2 x (-0.3, -0.4, -0.2, 0.9) = (0.36, 0.48, 0.24,
    # -1.08), minus grad J (0.12, 0.56, 0.28, -0.96), squared 1.328. Misses (0.176, 0.06, 0.092, 1.328);
    # variance 0.0528 + 0.024 + 0.0184 + 0.1328 = 0.228, five times smaller.
    np.testing.assert_allclose(reinforce.estimates(policy, rewards, 1.2)[3], [0.36, 0.48, 0.24, -1.08])
    np.testing.assert_allclose(reinforce.squared_misses(policy, rewards, 1.2), [0.176, 0.06, 0.092, 1.328])
    assert reinforce.estimator_variance(policy, rewards, 1.2) == pytest.approx(0.228)
    assert reinforce.variance_reduction(policy, rewards, 1.2) == pytest.approx(5.0)
    # ||score||^2 = 1 - 2 pi(c) + sum pi^2 = 1.3 - 2 pi(c) = (0.7, 0.5, 0.9, 1.1); E[...] = 0.7 (= 1 - 0.3);
    # E[r ||score||^2] = 0.3 x 2 x 0.7 + 0.4 x 0.5 + 0.2 x 0.9 = 0.8; b* = 0.8 / 0.7 = 8/7;
    # Var(b*) = Var(0) - 0.8^2 / 0.7 = 1.14 - 0.914285... = 0.225714...
    assert reinforce.score_weight(policy) == pytest.approx(0.7)
    assert reinforce.reward_score_weight(policy, rewards) == pytest.approx(0.8)
    assert reinforce.optimal_baseline(policy, rewards) == pytest.approx(8 / 7)
    assert reinforce.estimator_variance(policy, rewards, 8 / 7) == pytest.approx(1.14 - 0.64 / 0.7)
    # A group of G = 8 averages 8 independent estimates: variance 1.14 / 8 = 0.1425.
    assert reinforce.group_variance(policy, rewards, 0.0, 8) == pytest.approx(0.1425)


# A bandit: 2 to 6 candidates, probabilities bounded away from 0 and normalised, rewards in [-3, 3].
policies = arrays(np.float64, st.integers(2, 6), elements=st.floats(0.05, 1.0)).map(lambda w: w / w.sum())


@st.composite
def bandits(draw: st.DrawFn) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    policy = draw(policies)
    rewards = draw(arrays(np.float64, policy.size, elements=st.floats(-3.0, 3.0)))
    return policy, rewards


baselines = st.floats(-5.0, 5.0)


# No deadline on this file's property tests: each example takes well under a millisecond, and a machine busy
# with the other layers' builds can stall one for longer than Hypothesis's 200 ms, which says nothing
# about the math.
@settings(deadline=None)
@given(policies)
def test_the_score_averages_to_zero(policy: NDArray[np.float64]) -> None:
    np.testing.assert_allclose(policy @ reinforce.score(policy), 0.0, atol=1e-12)


@settings(deadline=None)
@given(bandits(), baselines)
def test_any_constant_baseline_leaves_the_mean_unchanged(
    bandit: tuple[NDArray[np.float64], NDArray[np.float64]], baseline: float
) -> None:
    policy, rewards = bandit
    np.testing.assert_allclose(
        reinforce.estimator_mean(policy, rewards, baseline), reinforce.true_gradient(policy, rewards), atol=1e-12
    )


@settings(deadline=None)
@given(bandits())
def test_the_gradient_is_the_derivative_of_the_expected_reward(
    bandit: tuple[NDArray[np.float64], NDArray[np.float64]],
) -> None:
    """Central differences of J(softmax(theta)) at theta = log pi agree with the score-function gradient."""
    policy, rewards = bandit
    logits, step = np.log(policy), 1e-6
    numeric = []
    for c in range(policy.size):
        shift = np.eye(policy.size)[c] * step
        up, down = np.exp(logits + shift), np.exp(logits - shift)
        numeric.append((up / up.sum() @ rewards - down / down.sum() @ rewards) / (2 * step))
    np.testing.assert_allclose(reinforce.true_gradient(policy, rewards), numeric, atol=1e-7)


@settings(deadline=None)
@given(bandits(), baselines)
def test_the_variance_is_a_quadratic_in_b_smallest_at_b_star(
    bandit: tuple[NDArray[np.float64], NDArray[np.float64]], baseline: float
) -> None:
    """Var(b) = Var(b*) + E[||score||^2] (b - b*)^2: a parabola whose lowest point is b*."""
    policy, rewards = bandit
    best = reinforce.optimal_baseline(policy, rewards)
    expected = (
        reinforce.estimator_variance(policy, rewards, best) + reinforce.score_weight(policy) * (baseline - best) ** 2
    )
    assert reinforce.estimator_variance(policy, rewards, baseline) == pytest.approx(expected, rel=1e-9, abs=1e-12)
    assert (
        reinforce.estimator_variance(policy, rewards, best)
        <= reinforce.estimator_variance(policy, rewards, baseline) + 1e-12
    )


@settings(deadline=None)
@given(bandits(), baselines)
def test_the_variance_is_the_spread_of_the_estimates(
    bandit: tuple[NDArray[np.float64], NDArray[np.float64]], baseline: float
) -> None:
    """Var = E||g||^2 - ||E g||^2, the usual identity, with E g = grad J."""
    policy, rewards = bandit
    second_moment = policy @ np.sum(reinforce.estimates(policy, rewards, baseline) ** 2, axis=1)
    expected = second_moment - reinforce.gradient_squared_norm(policy, rewards)
    assert reinforce.estimator_variance(policy, rewards, baseline) == pytest.approx(expected, abs=1e-9)


@settings(deadline=None)
@given(policies, st.floats(-3.0, 3.0))
def test_equal_rewards_give_no_gradient_and_b_equal_to_them_no_variance(
    policy: NDArray[np.float64], reward: float
) -> None:
    rewards = np.full(policy.size, reward)
    np.testing.assert_allclose(reinforce.true_gradient(policy, rewards), 0.0, atol=1e-12)
    assert reinforce.optimal_baseline(policy, rewards) == pytest.approx(reward)
    assert reinforce.estimator_variance(policy, rewards, reward) == pytest.approx(0.0, abs=1e-12)
