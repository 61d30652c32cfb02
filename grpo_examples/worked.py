"""A group worked through in exact arithmetic, so that a page can show 4/5 = 0.8 and say '=' only when a
value is exact.

mu = (1/G) sum_i r_i;  sigma^2 = (1/G) sum_i (r_i - mu)^2, which for 0/1 rewards is p(1 - p) with
p = mu (a Bernoulli group);  A_i = (r_i - mu) / sigma.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

from grpo_examples.advantages import Rewards, as_rewards, rewards_all_equal
from grpo_examples.quantities import RatioExact, SignedExact, Undefined

# Rewards such as 0.9 are floats that are not exactly 9/10; the worked group reads them as the
# nearest fraction with a denominator up to this bound, which recovers what the author wrote.
_MAX_DENOMINATOR = 10**6


@dataclass(frozen=True)
class Outcome:
    """Every response of the group that earned one reward value: r, how many, r - mu, and A."""

    reward: Fraction
    """r: the reward these responses earned."""
    count: int
    """How many responses earned it."""
    deviation: SignedExact
    """r - mu."""
    advantage: SignedExact
    """A = (r - mu) / sigma; 0 when every reward of the group is the same."""


@dataclass(frozen=True)
class GroupWorking:
    """The group statistics and advantages, each as exact as the numbers allow."""

    rewards: tuple[Fraction, ...]
    """r_1, ..., r_G, exactly."""
    G: int
    """The group size: how many responses were sampled for the prompt."""
    total: Fraction
    """sum_i r_i."""
    mean: Fraction
    """mu = (1/G) sum_i r_i: the group's own baseline."""
    variance: Fraction
    """sigma^2 = (1/G) sum_i (r_i - mu)^2 (population: divided by G)."""
    std: Fraction | float
    """sigma = sqrt(sigma^2): exact when the variance is a square of a fraction."""
    outcomes: tuple[Outcome, ...]
    """One entry per distinct reward, the highest first."""

    @property
    def is_binary(self) -> bool:
        """All rewards are 0 or 1, so the variance takes the Bernoulli form p(1 - p)."""
        return all(r in (0, 1) for r in self.rewards)

    @property
    def q(self) -> Fraction:
        """q = 1 - p = 1 - mu: in a group of 0/1 rewards, the share of responses that earned 0."""
        return 1 - self.mean

    @property
    def all_equal(self) -> bool:
        """No reward differs from the others: sigma = 0 and every advantage is 0."""
        return len(self.outcomes) == 1

    @property
    def rare_to_common(self) -> RatioExact | Undefined:
        """|A_rare| / |A_common| = |r_rare - mu| / |r_common - mu| for a group with two outcomes.

        The std cancels, so the ratio is exact, and it equals n_common / n_rare: the rarer an outcome, the
        harder it is pushed.
        """
        if len(self.outcomes) != 2:
            return Undefined(f"the ratio needs exactly two distinct rewards, and this group has {len(self.outcomes)}")
        rare, common = sorted(self.outcomes, key=lambda o: o.count)
        return abs(Fraction(rare.deviation)) / abs(Fraction(common.deviation))

    def outcome(self, reward: float) -> Outcome | None:
        """The responses that earned this reward, or None if none did."""
        wanted = Fraction(reward).limit_denominator(_MAX_DENOMINATOR)
        return next((outcome for outcome in self.outcomes if outcome.reward == wanted), None)


def exact_sqrt(value: Fraction) -> Fraction | float:
    """sqrt(a/b) as a fraction when a and b are perfect squares, else as a float."""
    num, den = math.isqrt(value.numerator), math.isqrt(value.denominator)
    if num * num == value.numerator and den * den == value.denominator:
        return Fraction(num, den)
    return math.sqrt(value)


def exact_rewards(rewards: Rewards) -> tuple[Fraction, ...]:
    """Each reward as the fraction it was written as (0.9 as 9/10, not the float nearest to it)."""
    return tuple(Fraction(float(r)).limit_denominator(_MAX_DENOMINATOR) for r in as_rewards(rewards))


def work_group(rewards: Rewards) -> GroupWorking:
    """mu, sigma^2 (population), sigma and A = (r - mu) / sigma for each distinct reward r."""
    exact = exact_rewards(rewards)
    total = sum(exact, Fraction(0))
    mean = total / len(exact)
    variance = sum(((r - mean) ** 2 for r in exact), Fraction(0)) / len(exact)
    std = exact_sqrt(variance)
    equal = rewards_all_equal([float(r) for r in exact])
    outcomes = tuple(
        Outcome(
            reward=r,
            count=exact.count(r),
            deviation=r - mean,
            advantage=Fraction(0) if equal else (r - mean) / std,
        )
        for r in sorted(set(exact), reverse=True)
    )
    return GroupWorking(exact, len(exact), total, mean, variance, std, outcomes)
