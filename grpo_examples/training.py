"""Three policy-gradient methods trained side by side on the toy task, seeded and deterministic.

Each step samples a group of G responses o_1..o_G for every question q from pi_theta(. | q), scores
them with the checker, turns rewards into advantages, and takes one gradient step on

    J(theta) = (1/G) sum_i A_i log pi_theta(o_i | q),   grad_theta[q] = (1/G) sum_i A_i (onehot(o_i) - pi_theta(. | q))

The three methods differ only in A_i:
    grpo       A_i = (r_i - mean(r)) / std(r)         (the group is the baseline; 0 if all rewards are equal)
    reinforce  A_i = r_i                              (no baseline)
    critic     A_i = r_i - V_phi(q)                   (a learned baseline, trained on (r_i - V_phi(q))^2)

One update per sampled batch means pi_theta = pi_theta_old when the gradient is taken: the PPO/GRPO
ratio is 1 and the clip never binds, so GRPO here is its advantage fed to a plain policy gradient.
There is no KL term (beta = 0).

Every function below works on arrays with leading axes too: train_seeds runs many seeds as one batch (one
array operation per step for all of them, not a Python loop per seed), each seed with its own start and its
own sampling stream, so each seed's trace is the one train gives it alone (tested).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import cache
from typing import Annotated

import numpy as np
from numpy.typing import NDArray

from grpo_examples.advantages import EQUAL_REWARDS_RTOL
from grpo_examples.data import Between
from grpo_examples.toy_task import ToyTask, toy_task

METHODS = ("grpo", "critic", "reinforce")


@dataclass(frozen=True)
class TrainingConfig:
    """The run's settings (grpo_examples/data/run.toml); frozen, so a run can be cached on them.

    The bounds keep a build's time bounded: the chapter trains every method on 21 seeds.
    """

    seed: Annotated[int, Between(0, 2**32 - 1)]
    steps: Annotated[int, Between(1, 1000)]
    group_size: Annotated[int, Between(2, 64)]
    learning_rate: Annotated[float, Between(0, 100)]
    critic_learning_rate: Annotated[float, Between(0, 100)]
    prior_scale: Annotated[float, Between(0, 10)]
    threshold: float


@dataclass(frozen=True)
class Trace:
    """What one method did, step by step."""

    method: str
    mean_reward: NDArray[np.float64]  # (steps + 1,): expected reward of pi_theta, averaged over questions
    all_equal: NDArray[np.float64]  # (steps,): fraction of the step's groups whose G rewards were all equal
    samples: NDArray[np.int64]  # (steps, questions, G): the candidate index of every sampled response o_i
    advantages: NDArray[np.float64]  # (steps, questions, G): every A_i the method computed
    final_policy: NDArray[np.float64]  # (questions, candidates): pi_theta after the last step

    def steps_to(self, threshold: float) -> int | None:
        """The first step after which the mean reward is at least threshold; None if it never gets there."""
        reached = np.flatnonzero(self.mean_reward >= threshold)
        return int(reached[0]) if reached.size else None


def softmax(logits: NDArray[np.float64]) -> NDArray[np.float64]:
    """pi_theta(c | q) = exp(theta[q, c]) / sum_c' exp(theta[q, c']), row by row."""
    shifted = np.exp(logits - logits.max(axis=-1, keepdims=True))
    probabilities: NDArray[np.float64] = shifted / shifted.sum(axis=-1, keepdims=True)
    return probabilities


def expected_reward(logits: NDArray[np.float64], rewards: NDArray[np.float64]) -> float:
    """(1/Q) sum_q sum_c pi_theta(c | q) r[q, c]: the mean reward the policy would get, exactly."""
    return float(policy_reward(softmax(logits), rewards))


def policy_reward(policy: NDArray[np.float64], rewards: NDArray[np.float64]) -> NDArray[np.float64]:
    """expected_reward for a policy already computed (one per policy of a batch, on leading axes):
    (1/Q) sum_q sum_c pi_theta(c | q) r[q, c]."""
    mean: NDArray[np.float64] = (policy * rewards).sum(axis=-1).mean(axis=-1)
    return mean


def sample_groups(policy: NDArray[np.float64], uniforms: NDArray[np.float64]) -> NDArray[np.int64]:
    """o_i ~ pi_theta(. | q) for every u_i in uniforms (..., Q, G), drawn from U[0, 1): the first candidate
    whose cumulative probability reaches u_i (the CDF inverted)."""
    cdf = np.cumsum(policy, axis=-1)[..., None, :]
    picks: NDArray[np.int64] = np.minimum((cdf < uniforms[..., None]).sum(axis=-1), policy.shape[-1] - 1)
    return picks


def policy_gradient(
    policy: NDArray[np.float64], samples: NDArray[np.int64], advantage: NDArray[np.float64]
) -> NDArray[np.float64]:
    """grad_theta[q] = (1/G) sum_i A_i (onehot(o_i) - pi_theta(. | q)), for every question at once."""
    onehot = np.eye(policy.shape[-1])[samples]  # (..., Q, G, C)
    gradient: NDArray[np.float64] = np.mean(advantage[..., None] * (onehot - policy[..., None, :]), axis=-2)
    return gradient


def groups_all_equal(rewards: NDArray[np.float64]) -> NDArray[np.bool_]:
    """rewards_all_equal for every group (last axis) at once: max - min <= EQUAL_REWARDS_RTOL * max |r|."""
    spread = rewards.max(axis=-1) - rewards.min(axis=-1)
    equal: NDArray[np.bool_] = spread <= EQUAL_REWARDS_RTOL * np.abs(rewards).max(axis=-1)
    return equal


def group_advantages(rewards: NDArray[np.float64]) -> NDArray[np.float64]:
    """GRPO's A_i = (r_i - mu) / sigma for every group (last axis) at once, population std, 0 for an all-equal group.

    The same numbers as advantages() row by row (tested), without a Python loop over thousands of groups.
    """
    equal = groups_all_equal(rewards)[..., None]
    sigma = np.where(equal, 1.0, rewards.std(axis=-1, keepdims=True))
    scaled: NDArray[np.float64] = np.where(equal, 0.0, (rewards - rewards.mean(axis=-1, keepdims=True)) / sigma)
    return scaled


def initial_logits(config: TrainingConfig, shape: tuple[int, int]) -> NDArray[np.float64]:
    """theta_0 = prior_scale × N(0, 1): the same starting policy for every method."""
    return config.prior_scale * np.random.default_rng(config.seed).standard_normal(shape)


def train(method: str, config: TrainingConfig, task: ToyTask) -> Trace:
    """Run one method for config.steps updates from the shared starting policy."""
    (trace,) = train_seeds(method, config, task, (config.seed,))
    return trace


def train_seeds(method: str, config: TrainingConfig, task: ToyTask, seeds: Sequence[int]) -> tuple[Trace, ...]:
    """train for every seed in seeds (the rest of config unchanged), all at once: arrays (seeds, Q, ...)."""
    if method not in METHODS:
        raise ValueError(f"unknown method {method!r} (known: {', '.join(METHODS)})")
    questions, _ = task.shape
    batch, steps, group_size = len(seeds), config.steps, config.group_size
    logits = np.stack([initial_logits(replace(config, seed=seed), task.shape) for seed in seeds])  # (seeds, Q, C)
    value = np.zeros((batch, questions))  # V_phi(q), the critic's prediction of the reward, starts knowing nothing
    rngs = [np.random.default_rng([seed, 1]) for seed in seeds]  # a seed's sampling stream, the same for every method
    policy = softmax(logits)
    mean_reward, all_equal = np.empty((batch, steps + 1)), np.empty((batch, steps))
    drawn = np.empty((batch, steps, questions, group_size), np.int64)
    history = np.empty((batch, steps, questions, group_size))
    mean_reward[:, 0] = policy_reward(policy, task.rewards)
    for step in range(steps):
        samples = sample_groups(policy, np.stack([rng.random((questions, group_size)) for rng in rngs]))
        rewards = task.rewards[np.arange(questions)[:, None], samples]  # r_i of every sampled o_i: (seeds, Q, G)
        if method == "grpo":
            advantage = group_advantages(rewards)
        elif method == "critic":
            advantage = rewards - value[..., None]
            value += config.critic_learning_rate * advantage.mean(axis=-1)  # a gradient step on (r - V)^2 / 2
        else:
            advantage = rewards
        logits = logits + config.learning_rate * policy_gradient(policy, samples, advantage)
        policy = softmax(logits)  # pi_theta after the step: its reward now, and the next step's sampler
        mean_reward[:, step + 1] = policy_reward(policy, task.rewards)
        all_equal[:, step] = groups_all_equal(rewards).mean(axis=-1)
        drawn[:, step], history[:, step] = samples, advantage
    return tuple(Trace(method, mean_reward[k], all_equal[k], drawn[k], history[k], policy[k]) for k in range(batch))


@dataclass(frozen=True)
class TrainingRun:
    """The three methods trained on the same task from the same start."""

    config: TrainingConfig
    task: ToyTask
    traces: dict[str, Trace]


@cache
def training_run(config: TrainingConfig) -> TrainingRun:
    """Every method trained on config; cached on the settings, so a rebuild that changes nothing reruns nothing."""
    task = toy_task()
    return TrainingRun(config, task, {method: train(method, config, task) for method in METHODS})
