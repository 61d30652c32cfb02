"""The clipped surrogate with separate lower and upper bounds, and DAPO's clip-higher (arXiv 2503.14476).

    l = min( rho A, clip(rho, 1 - eps_low, 1 + eps_high) A ),    rho = pi_theta(o_t) / pi_theta_old(o_t)

PPO and GRPO clip symmetrically (eps_low = eps_high = eps). DAPO raises only the upper bound, so that a
token with a positive advantage can grow further before the clip removes its gradient: the upper bound
caps pi_theta at pi_theta_old (1 + eps_high), which binds only on unlikely tokens, the exploratory ones.

(PPO's own clipped objective, with one eps, is the PPO chapter's; this file holds the asymmetric form
that clip-higher needs.)
"""

from __future__ import annotations

from dataclasses import dataclass

# DAPO's settings (arXiv 2503.14476): eps_low = 0.2, eps_high = 0.28.
DAPO_EPS_LOW = 0.2
DAPO_EPS_HIGH = 0.28
# The symmetric clip range of PPO (arXiv 1707.06347) and of TRL's and verl's defaults.
SYMMETRIC_EPS = 0.2


def _check(ratio: float, eps_low: float, eps_high: float) -> None:
    if ratio < 0:
        raise ValueError(f"a probability ratio is at least 0, got {ratio}")
    if not 0 <= eps_low < 1 or eps_high < 0:
        raise ValueError(f"the clip range needs 0 <= eps_low < 1 and eps_high >= 0, got {eps_low}, {eps_high}")


def clip(ratio: float, eps_low: float, eps_high: float) -> float:
    """clip(rho, 1 - eps_low, 1 + eps_high)."""
    _check(ratio, eps_low, eps_high)
    return min(max(ratio, 1.0 - eps_low), 1.0 + eps_high)


@dataclass(frozen=True)
class Surrogate:
    """Both terms of the min and the value it keeps: rho A, clip(rho, ...) A, and min of the two."""

    unclipped: float
    clipped_ratio: float
    clipped: float
    value: float


def clipped_surrogate(ratio: float, advantage: float, eps_low: float, eps_high: float) -> Surrogate:
    """l = min(rho A, clip(rho, 1 - eps_low, 1 + eps_high) A): one token's term of the objective, with its parts."""
    clipped_ratio = clip(ratio, eps_low, eps_high)
    unclipped, clipped = ratio * advantage, clipped_ratio * advantage
    return Surrogate(unclipped, clipped_ratio, clipped, min(unclipped, clipped))


def clip_stops_gradient(ratio: float, advantage: float, eps_low: float, eps_high: float) -> bool:
    """True when the min picks the clipped, constant term: rho > 1 + eps_high with A > 0, or
    rho < 1 - eps_low with A < 0. The token then contributes nothing to the gradient."""
    _check(ratio, eps_low, eps_high)
    return (advantage > 0 and ratio > 1.0 + eps_high) or (advantage < 0 and ratio < 1.0 - eps_low)


def probability_ceiling(pi_old: float, eps_high: float) -> float:
    """min(1, pi_theta_old (1 + eps_high)): the highest probability a token with A > 0 can be pushed to
    within one batch before the upper clip stops its gradient (a probability never exceeds 1)."""
    if not 0 < pi_old <= 1:
        raise ValueError(f"a probability is in (0, 1], got {pi_old}")
    return min(1.0, pi_old * (1.0 + eps_high))
