"""DAPO's clip-higher (arXiv 2503.14476): a wider upper clip range, and the ceiling it moves.

    L = min( rho A, clip(rho, 1 - eps_low, 1 + eps_high) A ),    rho = pi_theta(o_t) / pi_theta_old(o_t)

PPO and GRPO clip symmetrically (eps_low = eps_high = eps). DAPO raises only the upper bound, so that a
token with a positive advantage can grow further before the clip removes its gradient: the upper bound
caps pi_theta at pi_theta_old (1 + eps_high), a cap below 1 for every token less likely than 1 / (1 + eps_high),
and tightest, in absolute terms, on the unlikely tokens, the exploratory ones.
The clipped objective itself, symmetric or not, is ppo.py's (its epsilon_high argument).
"""

from __future__ import annotations

# DAPO's settings (arXiv 2503.14476): eps_low = 0.2, eps_high = 0.28.
DAPO_EPS_LOW = 0.2
DAPO_EPS_HIGH = 0.28
# The symmetric clip range of PPO (arXiv 1707.06347) and of TRL's and verl's defaults.
SYMMETRIC_EPS = 0.2


def probability_ceiling(pi_old: float, eps_high: float) -> float:
    """min(1, pi_theta_old (1 + eps_high)): the highest probability a token with A > 0 can be pushed to
    within one batch before the upper clip stops its gradient (a probability never exceeds 1)."""
    if not 0 < pi_old <= 1:
        raise ValueError(f"a probability is in (0, 1], got {pi_old}")
    return min(1.0, pi_old * (1.0 + eps_high))


def capped_below(eps_high: float) -> float:
    """1 / (1 + eps_high): every token with pi_theta_old below this has a ceiling below 1, pi_theta_old (1 + eps_high);
    the upper clip binds on any such token its update pushes far enough, not on unlikely tokens only."""
    return 1.0 / (1.0 + eps_high)
