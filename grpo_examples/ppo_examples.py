"""The PPO chapter's worked numbers: its settings (ppo_examples.toml) and each case worked through.

work_clip_case(case, eps)   one token: rho from its two probabilities, both terms, the min, the gradient
work_gae(example)           one response: every TD error and advantage, at lambda and at lambda = 0, 1
widget_check_points(...)    where the clip widget's script must agree with numpy, boundaries included
"""

from __future__ import annotations

import math
import tomllib
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np

from grpo_examples.critic_memory import MemoryPart, training_memory
from grpo_examples.gae import discounted_returns, gae_advantages, td_errors
from grpo_examples.ppo import (
    clip_binds,
    clip_range,
    clipped_surrogate,
    clipped_term,
    probability_ratio,
    surrogate_gradient,
    unclipped_term,
)

SETTINGS_FILE = Path(__file__).with_name("ppo_examples.toml")


@dataclass(frozen=True)
class ClipCase:
    """One token: its name in the chapter, its advantage, and the probability each policy gives it."""

    name: str
    advantage: float
    p_old: float
    p_new: float


@dataclass(frozen=True)
class WorkedClip:
    """A ClipCase worked through at clip range epsilon."""

    case: ClipCase
    epsilon: float
    ratio: float
    unclipped: float
    clipped: float
    objective: float
    gradient: float
    binds: bool

    @property
    def advantage(self) -> float:
        return self.case.advantage

    @property
    def position(self) -> str:
        """'below', 'inside' or 'above' the clip range [1 - eps, 1 + eps] (its ends count as inside)."""
        low, high = clip_range(self.epsilon)
        return "below" if self.ratio < low else "above" if self.ratio > high else "inside"


@dataclass(frozen=True)
class GaeExample:
    """One response: its tokens, the reward after each, the critic's values V(s_0)..V(s_T), gamma, lambda."""

    tokens: tuple[str, ...]
    rewards: tuple[float, ...]
    values: tuple[float, ...]
    gamma: float
    lam: float


@dataclass(frozen=True)
class WorkedGae:
    """Every step of GAE on a GaeExample, with the two extremes of lambda beside it."""

    example: GaeExample
    deltas: tuple[float, ...]  # delta_t, which is also A_t at lambda = 0
    advantages: tuple[float, ...]  # A_t at the example's lambda
    returns_minus_values: tuple[float, ...]  # G_t - V(s_t), which is A_t at lambda = 1


@dataclass(frozen=True)
class MemoryExample:
    """A policy and its critic: their parameter counts, and the bytes kept per trained parameter."""

    policy_parameters: int
    critic_parameters: int
    bytes_per_parameter: dict[str, int]

    def critic(self) -> list[MemoryPart]:
        return training_memory(self.critic_parameters, self.bytes_per_parameter)

    def policy(self) -> list[MemoryPart]:
        return training_memory(self.policy_parameters, self.bytes_per_parameter)


@dataclass(frozen=True)
class WidgetSettings:
    """Where the clip widget's controls start and their ranges and steps."""

    advantage: float
    advantage_range: tuple[float, float]
    advantage_step: float
    epsilon_range: tuple[float, float]
    epsilon_step: float
    ratio: float
    ratio_range: tuple[float, float]
    ratio_step: float


@dataclass(frozen=True)
class PPOExamples:
    """Everything in ppo_examples.toml."""

    epsilon: float
    cases: tuple[ClipCase, ...]
    plot_advantages: tuple[float, ...]
    plot_ratio_max: float
    gae: GaeExample
    memory: MemoryExample
    widget: WidgetSettings

    def case(self, name: str) -> ClipCase:
        found = [case for case in self.cases if case.name == name]
        if not found:
            raise KeyError(f"no case {name!r} in ppo_examples.toml (cases: {', '.join(c.name for c in self.cases)})")
        return found[0]


def _pair(values: list[float]) -> tuple[float, float]:
    low, high = values
    return float(low), float(high)


@cache
def load_ppo_examples(path: Path = SETTINGS_FILE) -> PPOExamples:
    """The chapter's settings; a case, a trajectory or a range that does not make sense is an error that says why."""
    with path.open("rb") as handle:
        table = tomllib.load(handle)
    epsilon = float(table["epsilon"])
    clip_range(epsilon)  # raises on an epsilon outside (0, 1)
    cases = tuple(
        ClipCase(c["name"], float(c["advantage"]), float(c["p_old"]), float(c["p_new"])) for c in table["cases"]
    )
    for case in cases:
        if not (0 < case.p_old <= 1 and 0 < case.p_new <= 1):
            raise ValueError(f"{path.name}: case {case.name!r} needs probabilities in (0, 1]")
    if len({case.name for case in cases}) != len(cases):
        raise ValueError(f"{path.name}: two cases share a name")
    gae = table["gae"]
    example = GaeExample(
        tuple(gae["tokens"]),
        tuple(map(float, gae["rewards"])),
        tuple(map(float, gae["values"])),
        gae["gamma"],
        gae["lam"],
    )
    if not len(example.tokens) == len(example.rewards) == len(example.values) - 1:
        raise ValueError(f"{path.name}: [gae] needs one reward per token and one value more than tokens")
    memory = table["memory"]
    widget = table["widget"]
    return PPOExamples(
        epsilon=epsilon,
        cases=cases,
        plot_advantages=tuple(map(float, table["plot"]["advantages"])),
        plot_ratio_max=float(table["plot"]["ratio_max"]),
        gae=example,
        memory=MemoryExample(
            int(memory["policy_parameters"]),
            int(memory["critic_parameters"]),
            {part["name"]: int(part["bytes"]) for part in memory["parts"]},
        ),
        widget=WidgetSettings(
            advantage=float(widget["advantage"]),
            advantage_range=_pair(widget["advantage_range"]),
            advantage_step=float(widget["advantage_step"]),
            epsilon_range=_pair(widget["epsilon_range"]),
            epsilon_step=float(widget["epsilon_step"]),
            ratio=float(widget["ratio"]),
            ratio_range=_pair(widget["ratio_range"]),
            ratio_step=float(widget["ratio_step"]),
        ),
    )


def work_clip_case(case: ClipCase, epsilon: float) -> WorkedClip:
    """rho = exp(log p_new - log p_old), then rho A, clip(rho, 1 - eps, 1 + eps) A, their min and dL/drho."""
    ratio = float(probability_ratio(math.log(case.p_new), math.log(case.p_old)))
    a = case.advantage
    return WorkedClip(
        case=case,
        epsilon=epsilon,
        ratio=ratio,
        unclipped=float(unclipped_term(ratio, a)),
        clipped=float(clipped_term(ratio, a, epsilon)),
        objective=float(clipped_surrogate(ratio, a, epsilon)),
        gradient=float(surrogate_gradient(ratio, a, epsilon)),
        binds=bool(clip_binds(ratio, a, epsilon)),
    )


def work_gae(example: GaeExample) -> WorkedGae:
    """delta_t, A_t at the example's lambda, and G_t - V(s_t) (lambda = 1), token by token."""
    deltas = td_errors(example.rewards, example.values, example.gamma)
    advantages = gae_advantages(example.rewards, example.values, example.gamma, example.lam)
    returns = discounted_returns(example.rewards, example.gamma) - np.asarray(example.values[:-1])
    return WorkedGae(example, tuple(deltas.tolist()), tuple(advantages.tolist()), tuple(returns.tolist()))


def plot_ratios(ratio_max: float, epsilon: float, points: int = 201) -> list[float]:
    """Ratios from 0 to ratio_max for a plot, with 1 - eps and 1 + eps among them so each corner is drawn."""
    return sorted({*np.linspace(0.0, ratio_max, points).tolist(), *clip_range(epsilon)})


def widget_check_points(settings: PPOExamples) -> list[tuple[float, float, float]]:
    """(rho, A, eps) where the widget's port must agree with numpy: a grid over its ranges, and for each
    eps the two ends of the clip range exactly, and the floats on either side of each end."""
    low, high = settings.widget.ratio_range
    epsilons = sorted({settings.epsilon, *settings.widget.epsilon_range})
    advantages = sorted({*settings.plot_advantages, 0.0, *settings.widget.advantage_range})
    points = []
    for epsilon in epsilons:
        ends = clip_range(epsilon)
        near = [float(np.nextafter(end, direction)) for end in ends for direction in (-np.inf, np.inf)]
        ratios = sorted({*np.linspace(low, high, 26).tolist(), *ends, *near, 1.0})
        points += [(ratio, advantage, epsilon) for advantage in advantages for ratio in ratios]
    return points
