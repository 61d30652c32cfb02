"""GRPO's advantage as a trainer computes it in float32: the round-off that exact arithmetic hides.

    mu = (1/G) sum_i r_i,   sigma = sqrt((1/(G - ddof)) sum_i (r_i - mu)^2),   A_i = (r_i - mu) / (sigma + eps)

each sum taken in float32, one reward after the other, in the group's order, as a trainer's kernel may add them.
A group of equal 0s or 1s stays exact: their sum divided by G is the reward again. For equal rewards that float32
cannot hold exactly (0.7), the sum of G of them divided by G need not be the reward again: r_i - mu is a few
units in the last place, sigma is as small, and an epsilon of 1e-6 does not swamp their quotient, so an all-equal
group gets advantages that are not 0.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from grpo_examples.advantages import Rewards


def _sum_in_order(values: NDArray[np.float32]) -> np.float32:
    """sum_i v_i in float32, added one after the other (numpy's own sum pairs them up, which rounds otherwise)."""
    total: np.float32 = np.cumsum(values, dtype=np.float32)[-1]
    return total


def float32_mean(rewards: Rewards) -> float:
    """mu in float32, summed in order."""
    r = np.asarray(rewards, dtype=np.float32)
    return float(_sum_in_order(r) / np.float32(r.size))


def float32_advantages(rewards: Rewards, ddof: int, eps: float) -> NDArray[np.float32]:
    """A_i = (r_i - mu) / (sigma_ddof + eps), every step in float32 and every sum in order."""
    r = np.asarray(rewards, dtype=np.float32)
    if r.size - ddof <= 0:
        raise ValueError(f"the std with ddof={ddof} needs more than {ddof} reward(s), got {r.size}")
    mean = _sum_in_order(r) / np.float32(r.size)
    deviations = r - mean
    std = np.sqrt(_sum_in_order(deviations * deviations) / np.float32(r.size - ddof))
    advantages: NDArray[np.float32] = deviations / (std + np.float32(eps))
    return advantages
