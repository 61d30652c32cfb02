"""Generalized advantage estimation (Schulman et al. 2015, arXiv:1506.02438, section 3), for one response.

A response of T tokens is a trajectory: state s_t is the prompt and the tokens before o_t, the action
is o_t, and r_t is the reward after it (for an LLM often 0 everywhere but the last token). The critic
V_phi predicts, from each state, the reward still to come. values holds V(s_0) .. V(s_T): T + 1 numbers,
the last one the value after the final token (0 when the response has ended).

    delta_t = r_t + gamma V(s_{t+1}) - V(s_t)                 the TD error: what token t changed
    A_t     = sum_{l >= 0} (gamma lambda)^l delta_{t+l}       = delta_t + gamma lambda A_{t+1}

lambda = 0 gives A_t = delta_t (trust the critic one step ahead); lambda = 1 gives the discounted
return minus V(s_t) (trust only the rewards).
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike, NDArray

Array = NDArray[np.float64]


def _trajectory(rewards: ArrayLike, values: ArrayLike) -> tuple[Array, Array]:
    r, v = np.asarray(rewards, dtype=np.float64), np.asarray(values, dtype=np.float64)
    if r.ndim != 1 or v.shape != (r.size + 1,):
        raise ValueError(
            f"a trajectory of {r.size} rewards needs {r.size + 1} values V(s_0)..V(s_T), got shape {v.shape}"
        )
    return r, v


def td_errors(rewards: ArrayLike, values: ArrayLike, gamma: float) -> Array:
    """delta_t = r_t + gamma V(s_{t+1}) - V(s_t), for t = 0 .. T-1."""
    r, v = _trajectory(rewards, values)
    deltas: Array = r + gamma * v[1:] - v[:-1]
    return deltas


def gae_advantages(rewards: ArrayLike, values: ArrayLike, gamma: float, lam: float) -> Array:
    """A_t = sum_{l=0}^{T-1-t} (gamma lambda)^l delta_{t+l}, by the recursion A_t = delta_t + gamma lambda A_{t+1}
    from the last token back (A_T = 0), as trainers compute it."""
    deltas = td_errors(rewards, values, gamma)
    advantages = np.zeros_like(deltas)
    following = 0.0
    for t in reversed(range(deltas.size)):
        following = float(deltas[t]) + gamma * lam * following
        advantages[t] = following
    return advantages


def discounted_returns(rewards: ArrayLike, gamma: float) -> Array:
    """G_t = sum_{l=0}^{T-1-t} gamma^l r_{t+l}: the reward still to come after state s_t."""
    r = np.asarray(rewards, dtype=np.float64)
    returns = np.zeros_like(r)
    following = 0.0
    for t in reversed(range(r.size)):
        following = float(r[t]) + gamma * following
        returns[t] = following
    return returns
