"""The group-relative advantage of GRPO (DeepSeekMath, arXiv 2402.03300, section 4.1.2).

A_i = (r_i - mean(r_1..r_G)) / std(r_1..r_G)

The paper leaves the std convention open; trainers differ (see ``conventions.py``), so every
function here takes the convention as an argument instead of hiding it.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

Rewards = Sequence[float] | NDArray[np.float64]

# Rewards count as "all equal" when their range is at most this fraction of their largest magnitude.
# Exact equality decides 0/1 rewards; for real-valued rewards the tolerance keeps round-off (a group
# equal in all but the last bit) from being blown up into unit-sized advantages. The browser widget
# reads this same constant from the page.
EQUAL_REWARDS_RTOL = 1e-9


def as_rewards(rewards: Rewards) -> NDArray[np.float64]:
    """The rewards r_1..r_G of one group as a float vector; a group holds at least one response."""
    r = np.asarray(rewards, dtype=np.float64)
    if r.ndim != 1 or r.size == 0:
        raise ValueError(f"a group is a non-empty list of rewards, got shape {r.shape}")
    if not np.all(np.isfinite(r)):
        raise ValueError(f"rewards must be finite numbers, got {r.tolist()}")
    return r


def group_mean(rewards: Rewards) -> float:
    """mu = (1/G) sum_i r_i, the group's own baseline."""
    return float(np.mean(as_rewards(rewards)))


def group_std(rewards: Rewards, ddof: int = 0) -> float:
    """sigma = sqrt( (1/(G - ddof)) sum_i (r_i - mu)^2 ).

    ddof=0 is the population std (divide by G), the book's convention; ddof=1 is the sample std
    (divide by G-1), what verl (torch.std) and TRL (its nanstd) compute. The sample std of one reward is undefined.
    """
    r = as_rewards(rewards)
    if r.size - ddof <= 0:
        raise ValueError(f"the std with ddof={ddof} needs more than {ddof} reward(s), got {r.size}")
    return float(np.std(r, ddof=ddof))


def rewards_all_equal(rewards: Rewards) -> bool:
    """True when max(r) - min(r) <= EQUAL_REWARDS_RTOL * max_i |r_i| (exact equality for 0/1 rewards)."""
    r = as_rewards(rewards)
    return bool(np.ptp(r) <= EQUAL_REWARDS_RTOL * np.max(np.abs(r)))


def deviations(rewards: Rewards) -> NDArray[np.float64]:
    """r_i - mu: each reward against the group mean, before any scaling."""
    r = as_rewards(rewards)
    centred: NDArray[np.float64] = r - r.mean()
    return centred


def advantages(rewards: Rewards, ddof: int = 0, eps: float = 0.0) -> NDArray[np.float64]:
    """A_i = (r_i - mu) / (sigma + eps), the same advantage for every token of response i.

    ddof picks the std (0: population, the book's; 1: sample, as TRL and verl) and eps is the
    constant some trainers add to the denominator (TRL 1e-4, verl 1e-6; the paper adds none).

    A group whose rewards are all equal gets A_i = 0 for every i, never NaN: every response is
    exactly as good as its group, so the prompt carries no learning signal. Without an epsilon the
    formula would be 0/0; with one, trainers get 0 too, and returning exact zeros here keeps
    round-off in the mean from turning into tiny spurious advantages.
    """
    r = as_rewards(rewards)
    if rewards_all_equal(r):
        return np.zeros_like(r)
    scaled: NDArray[np.float64] = deviations(r) / (group_std(r, ddof) + eps)
    return scaled
