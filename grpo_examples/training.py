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
"""

from __future__ import annotations

from dataclasses import dataclass
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
    return policy_reward(softmax(logits), rewards)


def policy_reward(policy: NDArray[np.float64], rewards: NDArray[np.float64]) -> float:
    """expected_reward for a policy already computed: (1/Q) sum_q sum_c pi_theta(c | q) r[q, c]."""
    return float((policy * rewards).sum(axis=-1).mean())


def sample_groups(policy: NDArray[np.float64], group_size: int, rng: np.random.Generator) -> NDArray[np.int64]:
    """G candidate indices per question, drawn from pi_theta(. | q) by inverting its CDF."""
    uniforms = rng.random((policy.shape[0], group_size, 1))
    cdf = np.cumsum(policy, axis=-1)[:, None, :]
    picks: NDArray[np.int64] = np.minimum((cdf < uniforms).sum(axis=-1), policy.shape[1] - 1)
    return picks


def policy_gradient(
    policy: NDArray[np.float64], samples: NDArray[np.int64], advantage: NDArray[np.float64]
) -> NDArray[np.float64]:
    """grad_theta[q] = (1/G) sum_i A_i (onehot(o_i) - pi_theta(. | q)), for every question at once."""
    onehot = np.eye(policy.shape[1])[samples]  # (Q, G, C)
    gradient: NDArray[np.float64] = np.mean(advantage[..., None] * (onehot - policy[:, None, :]), axis=1)
    return gradient


def groups_all_equal(rewards: NDArray[np.float64]) -> NDArray[np.bool_]:
    """rewards_all_equal for every group (row) at once: max - min <= EQUAL_REWARDS_RTOL * max |r|."""
    spread = rewards.max(axis=1) - rewards.min(axis=1)
    equal: NDArray[np.bool_] = spread <= EQUAL_REWARDS_RTOL * np.abs(rewards).max(axis=1)
    return equal


def group_advantages(rewards: NDArray[np.float64]) -> NDArray[np.float64]:
    """GRPO's A_i = (r_i - mu) / sigma for every group (row) at once, population std, 0 for an all-equal group.

    The same numbers as advantages() row by row (tested), without a Python loop over thousands of groups.
    """
    equal = groups_all_equal(rewards)[:, None]
    sigma = np.where(equal, 1.0, rewards.std(axis=1, keepdims=True))
    scaled: NDArray[np.float64] = np.where(equal, 0.0, (rewards - rewards.mean(axis=1, keepdims=True)) / sigma)
    return scaled


def initial_logits(config: TrainingConfig, shape: tuple[int, int]) -> NDArray[np.float64]:
    """theta_0 = prior_scale × N(0, 1): the same starting policy for every method."""
    return config.prior_scale * np.random.default_rng(config.seed).standard_normal(shape)


def train(method: str, config: TrainingConfig, task: ToyTask) -> Trace:
    """Run one method for config.steps updates from the shared starting policy."""
    if method not in METHODS:
        raise ValueError(f"unknown method {method!r} (known: {', '.join(METHODS)})")
    questions, _ = task.shape
    logits = initial_logits(config, task.shape)
    value = np.zeros(questions)  # V_phi(q), the critic's prediction of the reward, starts knowing nothing
    rng = np.random.default_rng([config.seed, 1])  # the same sampling stream for every method
    policy = softmax(logits)
    mean_reward, all_equal, drawn, history = [policy_reward(policy, task.rewards)], [], [], []
    for _ in range(config.steps):
        samples = sample_groups(policy, config.group_size, rng)
        rewards = np.take_along_axis(task.rewards, samples, axis=1)
        equal_groups = groups_all_equal(rewards)
        if method == "grpo":
            advantage = group_advantages(rewards)
        elif method == "critic":
            advantage = rewards - value[:, None]
            value += config.critic_learning_rate * advantage.mean(axis=1)  # a gradient step on (r - V)^2 / 2
        else:
            advantage = rewards
        logits = logits + config.learning_rate * policy_gradient(policy, samples, advantage)
        policy = softmax(logits)  # pi_theta after the step: its reward now, and the next step's sampler
        mean_reward.append(policy_reward(policy, task.rewards))
        all_equal.append(float(equal_groups.mean()))
        drawn.append(samples)
        history.append(advantage)
    return Trace(method, np.array(mean_reward), np.array(all_equal), np.array(drawn), np.array(history), policy)


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
