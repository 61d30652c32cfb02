"""The bandit's REINFORCE estimates drawn at random, seeded: what a trainer sees instead of the exact sums.

Each of `batches` draws samples a group o_1..o_G from pi_theta(. | q) and averages the one-sample estimates

    g = (1/G) sum_i (r_i - b_i) grad log pi(o_i)

under three baselines b_i:
    none            b_i = 0                                   (plain REINFORCE)
    expected        b_i = J(theta), the exact expected reward (known here, never to a real trainer)
    leave-one-out   b_i = (1/(G-1)) sum_{j != i} r_j          (RLOO: Kool et al. 2019; Ahmadian et al. 2024)

All three use the same samples, so their differences come from the baseline alone.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from grpo_examples.reinforce import expected_reward, score

BASELINES = ("none", "expected", "leave-one-out")


@dataclass(frozen=True)
class Simulation:
    """The sampled groups and every baseline's estimate for each of them."""

    samples: NDArray[np.int64]  # (batches, G): the candidate index of every sampled response o_i
    estimates: dict[str, NDArray[np.float64]]  # baseline -> (batches, K): each group's estimate g

    def mean(self, baseline: str) -> NDArray[np.float64]:
        """The average estimate over the groups: close to grad J when the estimate is unbiased."""
        mean: NDArray[np.float64] = self.estimates[baseline].mean(axis=0)
        return mean

    def variance(self, baseline: str) -> float:
        """The spread of the estimates over the groups, summed over the logits (sample variance, ddof 1)."""
        return float(self.estimates[baseline].var(axis=0, ddof=1).sum())

    def share_not_raising(self, baseline: str, logit: int) -> float:
        """The fraction of groups whose estimate would not raise this logit (entry <= 0)."""
        return float(np.mean(self.estimates[baseline][:, logit] <= 0))


def group_baselines(rewards: NDArray[np.float64], baseline: str, expected: float) -> NDArray[np.float64]:
    """b_i for every response of every group (rows), under the named baseline."""
    if baseline == "none":
        return np.zeros_like(rewards)
    if baseline == "expected":
        return np.full_like(rewards, expected)
    if baseline == "leave-one-out":
        size = rewards.shape[1]
        others: NDArray[np.float64] = (rewards.sum(axis=1, keepdims=True) - rewards) / (size - 1)
        return others
    raise ValueError(f"unknown baseline {baseline!r} (known: {', '.join(BASELINES)})")


def group_estimates(
    policy: NDArray[np.float64], rewards: NDArray[np.float64], samples: NDArray[np.int64], baseline: str
) -> NDArray[np.float64]:
    """g = (1/G) sum_i (r_i - b_i) grad log pi(o_i) for every group (row of samples) at once."""
    sampled_rewards = rewards[samples]
    weights = sampled_rewards - group_baselines(sampled_rewards, baseline, expected_reward(policy, rewards))
    estimate: NDArray[np.float64] = np.mean(weights[..., None] * score(policy)[samples], axis=1)
    return estimate


def simulate(
    policy: NDArray[np.float64], rewards: NDArray[np.float64], group_size: int, batches: int, seed: int
) -> Simulation:
    """`batches` groups of G samples from the policy, seeded."""
    rng = np.random.default_rng(seed)
    samples = rng.choice(policy.size, size=(batches, group_size), p=policy)
    return Simulation(samples, {b: group_estimates(policy, rewards, samples, b) for b in BASELINES})


def histogram(simulation: Simulation, baseline: str, logit: int, edges: NDArray[np.float64]) -> NDArray[np.float64]:
    """The share of groups (in %) whose estimate's entry for this logit falls in each bin [edges[k], edges[k+1])."""
    counts, _ = np.histogram(simulation.estimates[baseline][:, logit], bins=edges)
    shares: NDArray[np.float64] = 100 * counts / simulation.samples.shape[0]
    return shares
