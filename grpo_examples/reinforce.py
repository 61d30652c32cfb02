"""REINFORCE on one prompt with K candidate responses (a bandit), computed exactly by summing over them.

The policy is a softmax over one logit per candidate, pi_theta(o | q) = softmax(theta)_o. With r(o) the
reward of candidate o, the objective and its gradient are

    J(theta) = sum_o pi(o) r(o)                                              (expected reward)
    grad J   = sum_o pi(o) r(o) grad log pi(o) = E_o[ r(o) grad log pi(o) ]  (score-function identity)
    grad log pi(o) = onehot(o) - pi                                          (for a softmax)

REINFORCE (Williams 1992) estimates grad J from one sampled o as  g_b(o) = (r(o) - b) grad log pi(o).
For any constant b its mean is grad J, because E[grad log pi] = sum_o grad pi(o) = grad 1 = 0; its
variance, the mean squared distance E ||g_b - grad J||^2, depends on b:

    Var(b) = Var(0) - 2 b E[r ||grad log pi||^2] + b^2 E[||grad log pi||^2]

a quadratic in b, smallest at b* = E[r ||grad log pi||^2] / E[||grad log pi||^2] (Greensmith et al. 2004).
Every expectation here is an exact sum over the K candidates: no sampling.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

Vector = NDArray[np.float64]


def expected_reward(policy: Vector, rewards: Vector) -> float:
    """J(theta) = sum_o pi(o) r(o)."""
    return float(policy @ rewards)


def score(policy: Vector) -> NDArray[np.float64]:
    """Row o is grad_theta log pi(o) = onehot(o) - pi: the score of candidate o, one entry per logit."""
    rows: NDArray[np.float64] = np.eye(policy.size) - policy[None, :]
    return rows


def true_gradient(policy: Vector, rewards: Vector) -> Vector:
    """grad J = sum_o pi(o) r(o) grad log pi(o); for a softmax, entry c is pi(c) (r(c) - J)."""
    gradient: Vector = policy @ (rewards[:, None] * score(policy))
    return gradient


def estimates(policy: Vector, rewards: Vector, baseline: float) -> NDArray[np.float64]:
    """Row o is the one-sample REINFORCE estimate g_b(o) = (r(o) - b) grad log pi(o), had o been sampled."""
    rows: NDArray[np.float64] = (rewards - baseline)[:, None] * score(policy)
    return rows


def estimator_mean(policy: Vector, rewards: Vector, baseline: float) -> Vector:
    """E[g_b] = sum_o pi(o) g_b(o): equal to grad J for every constant b."""
    mean: Vector = policy @ estimates(policy, rewards, baseline)
    return mean


def squared_misses(policy: Vector, rewards: Vector, baseline: float) -> Vector:
    """||g_b(o) - grad J||^2 for each candidate o: how far that one sample's estimate lands from the truth."""
    misses: Vector = np.sum((estimates(policy, rewards, baseline) - true_gradient(policy, rewards)) ** 2, axis=1)
    return misses


def estimator_variance(policy: Vector, rewards: Vector, baseline: float) -> float:
    """Var(b) = E ||g_b - grad J||^2 = sum_o pi(o) ||g_b(o) - grad J||^2, summed over the logits."""
    return float(policy @ squared_misses(policy, rewards, baseline))


def group_variance(policy: Vector, rewards: Vector, baseline: float, group_size: int) -> float:
    """Var(b) / G: the variance of the average of G independent one-sample estimates."""
    return estimator_variance(policy, rewards, baseline) / group_size


def score_weight(policy: Vector) -> float:
    """E[||grad log pi||^2] = sum_o pi(o) ||onehot(o) - pi||^2 (= 1 - sum_o pi(o)^2 for a softmax)."""
    return float(policy @ np.sum(score(policy) ** 2, axis=1))


def reward_score_weight(policy: Vector, rewards: Vector) -> float:
    """E[r ||grad log pi||^2] = sum_o pi(o) r(o) ||onehot(o) - pi||^2."""
    return float(policy @ (rewards * np.sum(score(policy) ** 2, axis=1)))


def optimal_baseline(policy: Vector, rewards: Vector) -> float:
    """b* = E[r ||grad log pi||^2] / E[||grad log pi||^2]: the constant baseline of least variance.

    It is an average of the rewards, weighted by how far each candidate's sample moves the logits.
    """
    return reward_score_weight(policy, rewards) / score_weight(policy)


def gradient_squared_norm(policy: Vector, rewards: Vector) -> float:
    """||grad J||^2: the size of what the estimates try to find, to set their variance against."""
    return float(np.sum(true_gradient(policy, rewards) ** 2))


def variance_reduction(policy: Vector, rewards: Vector, baseline: float) -> float:
    """Var(0) / Var(b): how many times smaller the variance is with the baseline b than without one."""
    return estimator_variance(policy, rewards, 0.0) / estimator_variance(policy, rewards, baseline)
