"""PPO's clipped surrogate objective for one token (Schulman et al. 2017, arXiv:1707.06347, eq. 7).

    rho_t   = pi_theta(o_t | q, o_<t) / pi_theta_old(o_t | q, o_<t) = exp(log pi_theta - log pi_theta_old)
    L^CLIP  = min(rho_t A_t, clip(rho_t, 1 - eps, 1 + eps) A_t)

Every clip function also takes an upper range of its own, epsilon_high, for the asymmetric clip of
DAPO's clip-higher (arXiv 2503.14476): clip(rho, 1 - eps_low, 1 + eps_high). Left out, it is epsilon.

pi_theta_old is the policy that sampled the token (not the frozen reference pi_ref of a KL term).
Every function takes numpy arrays (or floats) and broadcasts, as a trainer applies them to every
token of a batch at once. The objective is maximised; a trainer minimises its negative.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike, NDArray

Array = NDArray[np.float64]


def probability_ratio(logp: ArrayLike, logp_old: ArrayLike) -> Array:
    """rho = pi_theta / pi_theta_old = exp(log pi_theta - log pi_theta_old), from log-probabilities as
    trainers keep them (a ratio of two small probabilities is exact enough in log space)."""
    ratio: Array = np.exp(np.asarray(logp, dtype=np.float64) - np.asarray(logp_old, dtype=np.float64))
    return ratio


def clip_range(epsilon: float, epsilon_high: float | None = None) -> tuple[float, float]:
    """[1 - eps, 1 + eps_high], the interval the ratio is clipped to (eps_high = eps unless given);
    eps must lie in (0, 1) and eps_high be positive."""
    high = epsilon if epsilon_high is None else epsilon_high
    if not 0 < epsilon < 1:
        raise ValueError(f"the clip range epsilon must lie in (0, 1), got {epsilon}")
    if not high > 0:
        raise ValueError(f"the upper clip range epsilon_high must be positive, got {high}")
    return 1.0 - epsilon, 1.0 + high


def clipped_ratio(ratio: ArrayLike, epsilon: float, epsilon_high: float | None = None) -> Array:
    """clip(rho, 1 - eps, 1 + eps_high): the ratio held inside the clip range."""
    low, high = clip_range(epsilon, epsilon_high)
    clipped: Array = np.clip(np.asarray(ratio, dtype=np.float64), low, high)
    return clipped


def unclipped_term(ratio: ArrayLike, advantage: ArrayLike) -> Array:
    """rho A: the surrogate objective before clipping (the paper's L^CPI)."""
    term: Array = np.asarray(ratio, dtype=np.float64) * np.asarray(advantage, dtype=np.float64)
    return term


def clipped_term(ratio: ArrayLike, advantage: ArrayLike, epsilon: float, epsilon_high: float | None = None) -> Array:
    """clip(rho, 1 - eps, 1 + eps_high) A: the same term with the ratio held inside the clip range."""
    term: Array = clipped_ratio(ratio, epsilon, epsilon_high) * np.asarray(advantage, dtype=np.float64)
    return term


def clipped_surrogate(
    ratio: ArrayLike, advantage: ArrayLike, epsilon: float, epsilon_high: float | None = None
) -> Array:
    """L^CLIP = min(rho A, clip(rho, 1 - eps, 1 + eps_high) A): never above rho A (a pessimistic bound)."""
    surrogate: Array = np.minimum(
        unclipped_term(ratio, advantage), clipped_term(ratio, advantage, epsilon, epsilon_high)
    )
    return surrogate


def clip_binds(
    ratio: ArrayLike, advantage: ArrayLike, epsilon: float, epsilon_high: float | None = None
) -> NDArray[np.bool_]:
    """Where the min takes the clipped term, which no longer depends on rho:

        A > 0 and rho > 1 + eps_high    (the token is already more likely by more than the range allows)
        A < 0 and rho < 1 - eps         (already less likely by more than the range allows)

    A ratio outside the range on the other side (A > 0, rho < 1 - eps) has moved the wrong way; the
    min keeps the unclipped term there, and the gradient pulls it back. At the range's ends exactly the
    two terms are equal and the clip does not bind.
    """
    low, high = clip_range(epsilon, epsilon_high)
    rho, a = np.asarray(ratio, dtype=np.float64), np.asarray(advantage, dtype=np.float64)
    binds: NDArray[np.bool_] = ((a > 0) & (rho > high)) | ((a < 0) & (rho < low))
    return binds


def surrogate_gradient(
    ratio: ArrayLike, advantage: ArrayLike, epsilon: float, epsilon_high: float | None = None
) -> Array:
    """dL^CLIP / drho = A where the clip does not bind, 0 where it binds.

    The gradient with respect to the policy's parameters is this times d rho / d theta
    = rho grad log pi_theta, so a token whose clip binds contributes nothing to the update. At
    the range's ends the objective has a corner; this takes the derivative from inside the range.
    """
    a = np.asarray(advantage, dtype=np.float64)
    gradient: Array = np.where(clip_binds(ratio, a, epsilon, epsilon_high), 0.0, a)
    return gradient
