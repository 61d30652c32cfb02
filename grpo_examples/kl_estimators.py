"""Schulman's one-sample estimators of KL(pi_theta || pi_ref), and the exact KL they estimate.

Schulman, "Approximating KL Divergence" (2020, http://joschu.net/blog/kl-approx.html). For a token x
sampled from pi_theta, with the log ratio  x_log = log r,  r = pi_ref(x) / pi_theta(x):

    k1 = -log r                    unbiased; negative whenever pi_ref(x) > pi_theta(x)
    k2 = (log r)^2 / 2             never negative, but biased
    k3 = (r - 1) - log r           unbiased and never negative (r - 1 >= log r): DeepSeekMath's eq. 4,
                                   the per-token KL of TRL and verl's 'low_var_kl'

    D_KL(pi_theta || pi_ref) = sum_x pi_theta(x) log(pi_theta(x) / pi_ref(x))

k1 and k3 are unbiased because their means under pi_theta are exactly the KL: E[r] = sum_x pi_ref(x) = 1.
Each estimator depends on the token only through its log ratio, so they are written as functions of it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
from numpy.typing import ArrayLike, NDArray

Estimator = Callable[[ArrayLike], NDArray[np.float64]]


def _probabilities(p: ArrayLike, what: str) -> NDArray[np.float64]:
    values = np.asarray(p, dtype=np.float64)
    if not np.all((values > 0) & (values <= 1)):
        raise ValueError(f"{what} must be probabilities in (0, 1], got {values.tolist()}")
    return values


def log_ratio(pi_theta: ArrayLike, pi_ref: ArrayLike) -> NDArray[np.float64]:
    """log r = log pi_ref(x) - log pi_theta(x), as trainers compute it from the two log-probabilities."""
    ratio: NDArray[np.float64] = np.log(_probabilities(pi_ref, "pi_ref")) - np.log(_probabilities(pi_theta, "pi_theta"))
    return ratio


def reference_ratio(pi_theta: ArrayLike, pi_ref: ArrayLike) -> NDArray[np.float64]:
    """r = pi_ref(x) / pi_theta(x): above 1 where the reference finds the token likelier than the policy does."""
    r: NDArray[np.float64] = _probabilities(pi_ref, "pi_ref") / _probabilities(pi_theta, "pi_theta")
    return r


def ratio_from_log(log_r: ArrayLike) -> NDArray[np.float64]:
    """r = exp(log r): the ratio a log ratio stands for."""
    r: NDArray[np.float64] = np.exp(np.asarray(log_r, dtype=np.float64))
    return r


def k1(log_r: ArrayLike) -> NDArray[np.float64]:
    """k1 = -log r."""
    estimate: NDArray[np.float64] = -np.asarray(log_r, dtype=np.float64)
    return estimate


def k2(log_r: ArrayLike) -> NDArray[np.float64]:
    """k2 = (log r)^2 / 2."""
    estimate: NDArray[np.float64] = 0.5 * np.square(np.asarray(log_r, dtype=np.float64))
    return estimate


def k3(log_r: ArrayLike) -> NDArray[np.float64]:
    """k3 = (r - 1) - log r, computed as expm1(log r) - log r so that it stays accurate near r = 1."""
    x = np.asarray(log_r, dtype=np.float64)
    estimate: NDArray[np.float64] = np.expm1(x) - x
    return estimate


ESTIMATORS: dict[str, Estimator] = {"k1": k1, "k2": k2, "k3": k3}


def _distribution(p: Sequence[float] | NDArray[np.float64], what: str) -> NDArray[np.float64]:
    values = _probabilities(p, what)
    if values.ndim != 1 or abs(values.sum() - 1.0) > 1e-9:
        raise ValueError(f"{what} must be a distribution over the tokens (summing to 1), got {values.tolist()}")
    return values


def exact_kl(pi_theta: Sequence[float] | NDArray[np.float64], pi_ref: Sequence[float] | NDArray[np.float64]) -> float:
    """D_KL(pi_theta || pi_ref) = sum_x pi_theta(x) log(pi_theta(x) / pi_ref(x)), over every token x."""
    p, q = _distribution(pi_theta, "pi_theta"), _distribution(pi_ref, "pi_ref")
    return float(np.sum(p * (np.log(p) - np.log(q))))


def expected_estimate(
    estimator: Estimator, pi_theta: Sequence[float] | NDArray[np.float64], pi_ref: Sequence[float] | NDArray[np.float64]
) -> float:
    """E_{x ~ pi_theta}[k(x)] = sum_x pi_theta(x) k(log r(x)): what the estimator gives on average, exactly."""
    p, q = _distribution(pi_theta, "pi_theta"), _distribution(pi_ref, "pi_ref")
    return float(np.sum(p * estimator(log_ratio(p, q))))


def estimate_std(
    estimator: Estimator, pi_theta: Sequence[float] | NDArray[np.float64], pi_ref: Sequence[float] | NDArray[np.float64]
) -> float:
    """sqrt(E[k^2] - E[k]^2) under x ~ pi_theta: how far one token's estimate strays from its mean, exactly.

    An average over N sampled tokens strays by this over sqrt(N): the smaller, the fewer tokens are needed.
    """
    p, q = _distribution(pi_theta, "pi_theta"), _distribution(pi_ref, "pi_ref")
    values = estimator(log_ratio(p, q))
    mean = np.sum(p * values)
    return float(np.sqrt(np.sum(p * np.square(values - mean))))


def monte_carlo_estimate(
    estimator: Estimator,
    pi_theta: Sequence[float] | NDArray[np.float64],
    pi_ref: Sequence[float] | NDArray[np.float64],
    samples: int,
    seed: int,
) -> float:
    """(1/N) sum_n k(x_n) with x_1..x_N drawn from pi_theta: what a trainer's average over N sampled tokens gives."""
    p, q = _distribution(pi_theta, "pi_theta"), _distribution(pi_ref, "pi_ref")
    if samples < 1:
        raise ValueError(f"a Monte-Carlo estimate needs at least one sample, got {samples}")
    tokens = np.random.default_rng(seed).choice(p.size, size=samples, p=p)
    return float(np.mean(estimator(log_ratio(p, q))[tokens]))


# What the loss's gradient is, once an estimate is differentiated inside it. For a softmax over one logit per
# token, grad_theta log pi_theta(x) = onehot(x) - pi_theta (the score of x); gradients below are vectors over
# the logits, and expectations exact sums over the tokens (the sampled x is not differentiated, as in a loss).


def _score(p: NDArray[np.float64]) -> NDArray[np.float64]:
    """Row x is grad_theta log pi_theta(x) = onehot(x) - pi_theta."""
    rows: NDArray[np.float64] = np.eye(p.size) - p[None, :]
    return rows


def k3_loss_gradient(
    pi_theta: Sequence[float] | NDArray[np.float64], pi_ref: Sequence[float] | NDArray[np.float64]
) -> NDArray[np.float64]:
    """E_{x ~ pi_theta}[grad_theta k3(x)] = sum_x pi_theta(x) (1 - r(x)) grad log pi_theta(x), r = pi_ref/pi_theta:
    the gradient a loss that adds k3 of each sampled token gets, on average (k3's derivative in pi_theta is
    (1 - r) grad log pi_theta)."""
    p, q = _distribution(pi_theta, "pi_theta"), _distribution(pi_ref, "pi_ref")
    gradient: NDArray[np.float64] = (p * (1 - q / p)) @ _score(p)
    return gradient


def kl_ref_theta_gradient(
    pi_theta: Sequence[float] | NDArray[np.float64], pi_ref: Sequence[float] | NDArray[np.float64]
) -> NDArray[np.float64]:
    """grad_theta D_KL(pi_ref || pi_theta) = -sum_x pi_ref(x) grad log pi_theta(x)."""
    p, q = _distribution(pi_theta, "pi_theta"), _distribution(pi_ref, "pi_ref")
    gradient: NDArray[np.float64] = -(q @ _score(p))
    return gradient


def kl_theta_ref_gradient(
    pi_theta: Sequence[float] | NDArray[np.float64], pi_ref: Sequence[float] | NDArray[np.float64]
) -> NDArray[np.float64]:
    """grad_theta D_KL(pi_theta || pi_ref) = sum_x pi_theta(x) log(pi_theta(x) / pi_ref(x)) grad log pi_theta(x)
    (the other term, sum_x pi_theta(x) grad log pi_theta(x), is the gradient of sum_x pi_theta(x) = 1: zero)."""
    p, q = _distribution(pi_theta, "pi_theta"), _distribution(pi_ref, "pi_ref")
    gradient: NDArray[np.float64] = (p * (np.log(p) - np.log(q))) @ _score(p)
    return gradient
