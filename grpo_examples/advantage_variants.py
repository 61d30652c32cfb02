"""GRPO's advantage as the papers after it change it: without the std (Dr. GRPO), or leave-one-out (RLOO).

    Dr. GRPO (Liu et al. 2025, arXiv 2503.20783, section 3.2)   A_i = r_i - mu
    RLOO (Ahmadian et al. 2024, arXiv 2402.14740)                A_i = r_i - (1/(G-1)) sum_{j != i} r_j
    the identity between them                                  RLOO_i = G/(G-1) × Dr.GRPO_i
    GRPO against both                                          GRPO_i = (1/sigma) × Dr.GRPO_i

A group whose rewards are all equal gets exact zeros under every variant, as in advantages(): every
response is as good as its group, and round-off in a mean must not invent a learning signal.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
from numpy.typing import NDArray

from grpo_examples.advantages import Rewards, as_rewards, deviations, group_std, rewards_all_equal
from grpo_examples.quantities import Signed


def dr_grpo_advantages(rewards: Rewards) -> NDArray[np.float64]:
    """A_i = r_i - mu: GRPO's advantage without the division by the group's std (Dr. GRPO)."""
    r = as_rewards(rewards)
    if rewards_all_equal(r):
        return np.zeros_like(r)
    return deviations(r)


def leave_one_out_baselines(rewards: Rewards) -> NDArray[np.float64]:
    """b_i = (1/(G-1)) sum_{j != i} r_j: the mean reward of the other G - 1 responses of the group."""
    r = as_rewards(rewards)
    if r.size < 2:
        raise ValueError(f"a leave-one-out baseline needs at least two responses, got {r.size}")
    baselines: NDArray[np.float64] = (r.sum() - r) / (r.size - 1)
    return baselines


def rloo_advantages(rewards: Rewards) -> NDArray[np.float64]:
    """A_i = r_i - (1/(G-1)) sum_{j != i} r_j: each reward against the mean of the others (RLOO).

    The baseline b_i does not depend on r_i, which is what makes the gradient estimate unbiased.
    """
    r = as_rewards(rewards)
    baselines = leave_one_out_baselines(r)
    if rewards_all_equal(r):
        return np.zeros_like(r)
    advantages: NDArray[np.float64] = r - baselines
    return advantages


def rloo_scale(group_size: int) -> Fraction:
    """G/(G-1), exactly: RLOO_i = G/(G-1) × (r_i - mu) for every group of G >= 2 responses."""
    if group_size < 2:
        raise ValueError(f"RLOO needs a group of at least two responses, got {group_size}")
    return Fraction(group_size, group_size - 1)


def rloo_from_dr_grpo(rewards: Rewards) -> NDArray[np.float64]:
    """G/(G-1) × (r_i - mu): the right-hand side of the identity RLOO = G/(G-1) × Dr. GRPO.

    From b_i = (G mu - r_i)/(G-1):  r_i - b_i = (G r_i - G mu)/(G-1) = G/(G-1) × (r_i - mu).
    """
    r = as_rewards(rewards)
    scaled: NDArray[np.float64] = float(rloo_scale(r.size)) * dr_grpo_advantages(r)
    return scaled


def std_scale(rewards: Rewards) -> float:
    """1/sigma: GRPO's advantages are Dr. GRPO's times this one number per group (population std).

    It is the weight GRPO gives a whole group relative to Dr. GRPO: largest where sigma is smallest, in
    groups that are nearly all right or nearly all wrong (Dr. GRPO's question-level difficulty bias).
    """
    r = as_rewards(rewards)
    if rewards_all_equal(r):
        raise ValueError(f"the rewards {r.tolist()} are all equal: sigma is 0 and 1/sigma is undefined")
    return 1.0 / group_std(r)


def sample_std_factor(group_size: int) -> float:
    """sqrt((G-1)/G): an advantage divided by the sample std sigma_s is this times the one divided by sigma.

    sigma_s = sqrt(G/(G-1)) sigma, so (r_i - mu)/sigma_s = sqrt((G-1)/G) (r_i - mu)/sigma (no epsilon).
    """
    if group_size < 2:
        raise ValueError(f"the sample std needs at least two rewards, got {group_size}")
    return math.sqrt((group_size - 1) / group_size)


@dataclass(frozen=True)
class LeaveOneOut:
    """RLOO's advantage of one response, every term of it: r_i, the others, their mean b_i, and r_i - b_i;
    beside it the identity's terms, G/(G-1) and r_i - mu."""

    reward: float
    """r_i."""
    others: tuple[float, ...]
    """r_j for every j != i."""
    baseline: float
    """b_i = (1/(G-1)) sum_{j != i} r_j: the mean reward of the others."""
    advantage: Signed
    """A_i = r_i - b_i: RLOO's advantage."""
    scale: Fraction
    """G/(G-1)."""
    deviation: Signed
    """r_i - mu: Dr. GRPO's advantage."""
    from_dr_grpo: Signed
    """G/(G-1) × (r_i - mu): the same advantage as RLOO's, computed from Dr. GRPO's."""


def leave_one_out(rewards: Rewards, index: int) -> LeaveOneOut:
    """The working of RLOO's A_i for response `index` (0-based) of the group."""
    r = as_rewards(rewards)
    if not 0 <= index < r.size:
        raise IndexError(f"no response {index} in a group of {r.size}")
    return LeaveOneOut(
        reward=float(r[index]),
        others=tuple(float(x) for x in np.delete(r, index)),
        baseline=float(leave_one_out_baselines(r)[index]),
        advantage=float(rloo_advantages(r)[index]),
        scale=rloo_scale(r.size),
        deviation=float(dr_grpo_advantages(r)[index]),
        from_dr_grpo=float(rloo_from_dr_grpo(r)[index]),
    )
