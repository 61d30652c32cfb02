"""What the chapter reads off a training run: thresholds over seeds, stuck questions, advantage histograms."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np
from numpy.typing import NDArray

from grpo_examples.toy_task import ToyTask, toy_task
from grpo_examples.training import METHODS, Trace, TrainingConfig, train_seeds


def stuck_questions(trace: Trace, task: ToyTask, mass: float = 0.99) -> int:
    """Questions whose final policy puts at least `mass` on responses that are not the best one.

    If those responses all earn the same reward, nearly every group of such a question is all equal,
    so GRPO's advantages, and with them its gradient, are exactly 0: the question stays stuck.
    """
    below_best = task.rewards < task.rewards.max(axis=1, keepdims=True)
    return int(np.sum(np.sum(trace.final_policy * below_best, axis=1) >= mass))


def nonzero_advantage_histogram(trace: Trace, edges: NDArray[np.float64]) -> NDArray[np.float64]:
    """The share (in %) of the run's non-zero advantages A_i that fall in each bin [edges[k], edges[k+1]).

    Zeros are left out because they move nothing, and in GRPO they would dwarf every other bin;
    zero_advantage_share says how many there were.
    """
    nonzero = trace.advantages[trace.advantages != 0]
    counts, _ = np.histogram(nonzero, bins=edges)
    shares: NDArray[np.float64] = 100.0 * counts / max(nonzero.size, 1)
    return shares


def zero_advantage_share(trace: Trace) -> float:
    """The share (in %) of all the run's advantages that are exactly 0: they move nothing."""
    return float(100.0 * np.mean(trace.advantages == 0))


@dataclass(frozen=True)
class SeedSweep:
    """The same run repeated with seeds 0..n-1: how many steps each method needed to reach the threshold."""

    seeds: int
    steps_to_threshold: dict[str, tuple[int | None, ...]]

    def reached(self, method: str) -> int:
        """In how many of the seeds the method reached the threshold within the run."""
        return sum(step is not None for step in self.steps_to_threshold[method])

    def median_steps(self, method: str) -> float | None:
        """The median number of steps to the threshold, a seed that never reached it counting as infinitely many;
        None when fewer than half the seeds reached it."""
        steps = sorted(np.inf if s is None else s for s in self.steps_to_threshold[method])
        median = float(np.median(steps))
        return None if np.isinf(median) else median

    def first(self, method: str) -> int:
        """In how many seeds this method reached the threshold strictly before both others."""
        wins = 0
        for index in range(self.seeds):
            mine, *others = (
                np.inf if (s := self.steps_to_threshold[m][index]) is None else s
                for m in (method, *(m for m in METHODS if m != method))
            )
            wins += bool(mine < min(others))
        return wins


@cache
def seed_sweep(config: TrainingConfig, seeds: int) -> SeedSweep:
    """training_run with seeds 0..seeds-1 and the rest of config unchanged (cached on both), each method's seeds
    trained as one batch."""
    task = toy_task()
    return SeedSweep(
        seeds,
        {m: tuple(t.steps_to(config.threshold) for t in train_seeds(m, config, task, range(seeds))) for m in METHODS},
    )
