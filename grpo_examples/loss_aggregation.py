"""How GRPO's per-token terms are summed into one loss: three normalisers, and the length bias of each.

Every aggregation is a weighted sum over the group's tokens,

    J = sum_i sum_{t=1..|o_i|} w_i l_{i,t},    l_{i,t} = min(rho_{i,t} A_i, clip(rho_{i,t}, 1-eps, 1+eps) A_i)

While rho = 1 (the first update on a freshly sampled batch) the gradient of l_{i,t} is A_i times
grad log pi_theta(o_{i,t}), so every token of response i is pushed with the coefficient A_i w_i:

    per sequence  (DeepSeekMath, arXiv 2402.03300, section 4.1)   w_i = 1 / (G |o_i|)
    token-level   (DAPO, arXiv 2503.14476)                        w_i = 1 / sum_j |o_j|
    constant      (Dr. GRPO, arXiv 2503.20783, section 3.2)       w_i = 1 / (G L),  L a fixed length

When every |o_i| equals L, the three are the same.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

Lengths = Sequence[int] | NDArray[np.int64]


def as_lengths(lengths: Lengths) -> NDArray[np.float64]:
    """|o_1|..|o_G|, the responses' lengths in tokens: positive whole numbers."""
    n = np.asarray(lengths)
    if n.ndim != 1 or n.size == 0:
        raise ValueError(f"lengths are a non-empty list, one per response, got shape {n.shape}")
    if not np.all(n == np.round(n)) or np.any(n < 1):
        raise ValueError(f"a length counts tokens: a whole number of at least 1, got {n.tolist()}")
    return n.astype(np.float64)


def per_sequence_weights(lengths: Lengths) -> NDArray[np.float64]:
    """w_i = 1 / (G |o_i|): the mean over each response's tokens, then the mean over the group."""
    n = as_lengths(lengths)
    weights: NDArray[np.float64] = 1.0 / (n.size * n)
    return weights


def token_level_weights(lengths: Lengths) -> NDArray[np.float64]:
    """w_i = 1 / sum_j |o_j|: one mean over every token of the group, whichever response it is in."""
    n = as_lengths(lengths)
    weights: NDArray[np.float64] = np.full_like(n, 1.0 / n.sum())
    return weights


def constant_weights(lengths: Lengths, max_length: int) -> NDArray[np.float64]:
    """w_i = 1 / (G L): each response's token sum over a constant L (the generation budget), then the mean."""
    n = as_lengths(lengths)
    if max_length < n.max():
        raise ValueError(f"the constant L = {max_length} is shorter than a response ({int(n.max())} tokens)")
    weights: NDArray[np.float64] = np.full_like(n, 1.0 / (n.size * max_length))
    return weights


def token_coefficients(
    advantages: Sequence[float] | NDArray[np.float64], weights: NDArray[np.float64]
) -> NDArray[np.float64]:
    """A_i w_i: what multiplies grad log pi_theta(o_{i,t}) for each token t of response i (at rho = 1)."""
    coefficients: NDArray[np.float64] = np.asarray(advantages, dtype=np.float64) * weights
    return coefficients


def response_coefficients(
    advantages: Sequence[float] | NDArray[np.float64], weights: NDArray[np.float64], lengths: Lengths
) -> NDArray[np.float64]:
    """|o_i| A_i w_i: the same, summed over the response's tokens: how hard the whole response is pushed."""
    coefficients: NDArray[np.float64] = as_lengths(lengths) * token_coefficients(advantages, weights)
    return coefficients


def token_weight_ratio(weights: NDArray[np.float64], of: int, to: int) -> float:
    """w_of / w_to: how many times as hard a token of response `of` is pushed as a token of response `to`,
    for advantages of the same size (4 means four times as hard; 1, as hard)."""
    return float(weights[of] / weights[to])


# Where the trainer settings below were read.
TRL_READ = "huggingface/trl, trl/trainer/grpo_trainer.py (_compute_loss), read at version 1.10.0.dev0"
VERL_READ = "volcengine/verl, verl/trainer/ppo/core_algos.py (agg_loss), read at commit b178a3c"


@dataclass(frozen=True)
class Aggregation:
    """One way to normalise the sum, who proposed it, and the trainer settings that select it (TRL_READ, VERL_READ)."""

    key: str
    name: str
    paper: str
    settings: tuple[tuple[str, str, str], ...]  # (trainer, setting, remark)
    weights: Callable[[Lengths, int], NDArray[np.float64]]  # (lengths, L) -> w_i


AGGREGATIONS: dict[str, Aggregation] = {
    a.key: a
    for a in (
        Aggregation(
            "per-sequence",
            "per sequence",
            "DeepSeekMath, arXiv 2402.03300, section 4.1",
            (("TRL", 'loss_type="grpo"', ""), ("verl", 'loss_agg_mode="seq-mean-token-mean"', "")),
            lambda lengths, _: per_sequence_weights(lengths),
        ),
        Aggregation(
            "token-level",
            "token-level",
            "DAPO, arXiv 2503.14476",
            (("TRL", 'loss_type="dapo"', "its default"), ("verl", 'loss_agg_mode="token-mean"', "its default")),
            lambda lengths, _: token_level_weights(lengths),
        ),
        Aggregation(
            "constant",
            "constant normaliser",
            "Dr. GRPO, arXiv 2503.20783, section 3.2",
            (
                ("TRL", 'loss_type="dr_grpo"', "L = max_completion_length"),
                (
                    "verl",
                    'loss_agg_mode="seq-mean-token-sum-norm"',
                    "which divides the sum over every token by L alone: a weight of 1/L, so a loss G times as large, "
                    "its tokens weighed alike",
                ),
            ),
            constant_weights,
        ),
    )
}
