"""pass@k from n samples of which c are correct (Chen et al. 2021,
arXiv:2107.03374, section 2.1): grpo_examples.chapter('sampling')."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Annotated

from grpo_examples.data import Between


@dataclass(frozen=True)
class Settings:
    """Everything in grpo_examples/data/sampling.toml."""

    n: Annotated[int, Between(1, 10_000)]
    c: int
    k: int

    def __post_init__(self) -> None:
        if not 0 <= self.c <= self.n or not 1 <= self.k <= self.n:
            raise ValueError("needs 0 <= c <= n and 1 <= k <= n")


@dataclass(frozen=True)
class Sampling:
    """The chapter's one example."""

    n: int
    """How many responses were sampled."""
    c: int
    """How many of them are correct."""
    k: int
    """How many a reader draws from them."""
    pass_at_k: float
    """pass@k = 1 - C(n - c, k) / C(n, k): the chance that one at least
    of k responses drawn is correct."""


def build(settings: Settings) -> Sampling:
    """pass@k: one minus the share of k-subsets with no correct response."""
    n, c, k = settings.n, settings.c, settings.k
    return Sampling(n, c, k, 1 - math.comb(n - c, k) / math.comb(n, k))
