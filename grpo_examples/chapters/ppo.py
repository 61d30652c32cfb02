"""The PPO chapter's computation: `grpo_examples.chapter('ppo')`, on grpo_examples/data/ppo.toml.

cases['positive-above']   one token: rho from its two probabilities, both terms of the min, the gradient
plot                      the clipped objective against the ratio, for the plot's advantages
gae                       one response, token by token: TD errors and advantages at lambda, 0 and 1
memory                    what training the critic keeps in memory
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Annotated

import numpy as np

from grpo_examples.critic_memory import MemoryPart, bytes_per_parameter, total_bytes, training_memory
from grpo_examples.data import SAID, Between, name_of, repeated
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
from grpo_examples.quantities import Signed, Undefined

# ---------------------------------------------------------------- the data file's schema


# A case's name is a word of the chapter's paths: ppo.cases.positive-above.ratio.
CaseName = Annotated[str, name_of("a case's name")]


@dataclass(frozen=True)
class CaseData:
    """One token: its name in the chapter, its advantage, and the probability each policy gives it."""

    name: CaseName
    advantage: float
    p_old: float
    p_new: float

    def __post_init__(self) -> None:
        if not (0 < self.p_old <= 1 and 0 < self.p_new <= 1):
            raise ValueError(f"case {self.name!r} needs probabilities p_old and p_new in (0, 1]")


@dataclass(frozen=True)
class PlotData:
    """The plot of the clipped objective: one curve per advantage, for ratios from 0 to ratio_max."""

    advantages: tuple[float, ...]
    ratio_max: Annotated[float, Between(0.5, 100)]

    def __post_init__(self) -> None:
        if len(self.advantages) != 2 or not (self.advantages[0] > 0 > self.advantages[1]):
            raise ValueError("advantages: the plot draws two curves, a positive advantage then a negative one")


@dataclass(frozen=True)
class GaeData:
    """One response: its tokens, the reward after each, the critic's values V(s_0)..V(s_T), gamma, lambda."""

    gamma: Annotated[float, Between(0, 1)]
    lam: Annotated[float, Between(0, 1)]
    tokens: tuple[Annotated[str, SAID], ...]
    rewards: tuple[float, ...]
    values: tuple[float, ...]

    def __post_init__(self) -> None:
        if not self.tokens or not len(self.tokens) == len(self.rewards) == len(self.values) - 1:
            raise ValueError("needs one reward per token, and one value more than there are tokens")


@dataclass(frozen=True)
class PartData:
    """One thing kept per trained parameter, and its size."""

    name: Annotated[str, SAID]
    bytes: Annotated[int, Between(1, 64)]


@dataclass(frozen=True)
class MemoryData:
    """A policy and its critic: their parameter counts, and the bytes kept per trained parameter."""

    policy_parameters: Annotated[int, Between(1, 10**13)]
    critic_parameters: Annotated[int, Between(1, 10**13)]
    parts: tuple[PartData, ...]


@dataclass(frozen=True)
class Settings:
    """Everything in ppo.toml."""

    epsilon: float
    cases: tuple[CaseData, ...]
    plot: PlotData
    gae: GaeData
    memory: MemoryData

    def __post_init__(self) -> None:
        if not 0 < self.epsilon < 1:
            raise ValueError(f"epsilon: the clip range must lie in (0, 1), got {self.epsilon}")
        if twice := repeated([case.name for case in self.cases]):
            first, second = twice
            name = self.cases[second - 1].name
            raise ValueError(f"cases[{second}].name: {name!r} is also the name of cases[{first}]: rename one")


# ---------------------------------------------------------------- the model


@dataclass(frozen=True)
class ClipRange:
    """[1 - epsilon, 1 + epsilon], where the ratio may move before the clip binds."""

    low: float
    """1 - epsilon."""
    high: float
    """1 + epsilon."""


@dataclass(frozen=True)
class WorkedClip:
    """One token worked through at clip range epsilon."""

    name: str
    """The case's name in ppo.toml."""
    advantage: Signed
    """A: the token's advantage."""
    p_old: float
    """pi_theta_old(o_t): the probability the sampling policy gave the token."""
    p_new: float
    """pi_theta(o_t): the probability the policy in training gives it now."""
    epsilon: float
    """The clip range it is worked at."""
    low: float
    """1 - epsilon: the clip range's lower end."""
    high: float
    """1 + epsilon: its upper end."""
    ratio: float
    """rho = pi_theta / pi_theta_old = exp(log p_new - log p_old)."""
    unclipped: float
    """rho A."""
    clipped: float
    """clip(rho, 1 - eps, 1 + eps) A."""
    objective: float
    """L^CLIP = min(rho A, clip(rho, 1 - eps, 1 + eps) A)."""
    gradient: Signed
    """dL/drho: A where the clip does not bind, 0 where it binds."""
    binds: bool
    """The clip binds: the min takes the clipped term, and the gradient is 0."""
    position: str
    """'below', 'inside' or 'above' the clip range (its ends count as inside)."""

    @property
    def free(self) -> bool:
        """The clip does not bind: the gradient is A."""
        return not self.binds

    @property
    def inside(self) -> bool:
        """The ratio lies inside the clip range."""
        return self.position == "inside"

    @property
    def above(self) -> bool:
        """The ratio lies above 1 + eps."""
        return self.position == "above"

    @property
    def below(self) -> bool:
        """The ratio lies below 1 - eps."""
        return self.position == "below"

    @property
    def unclipped_kept(self) -> bool:
        """The ratio is outside the range, yet the min keeps the unclipped term: it moved the wrong way."""
        return self.position != "inside" and self.objective == self.unclipped


def work_clip_case(case: CaseData, epsilon: float) -> WorkedClip:
    """rho = exp(log p_new - log p_old), then rho A, clip(rho, 1 - eps, 1 + eps) A, their min and dL/drho."""
    ratio = float(probability_ratio(math.log(case.p_new), math.log(case.p_old)))
    a = case.advantage
    low, high = clip_range(epsilon)
    return WorkedClip(
        name=case.name,
        advantage=a,
        p_old=case.p_old,
        p_new=case.p_new,
        epsilon=epsilon,
        low=low,
        high=high,
        ratio=ratio,
        unclipped=float(unclipped_term(ratio, a)),
        clipped=float(clipped_term(ratio, a, epsilon)),
        objective=float(clipped_surrogate(ratio, a, epsilon)),
        gradient=float(surrogate_gradient(ratio, a, epsilon)),
        binds=bool(clip_binds(ratio, a, epsilon)),
        position="below" if ratio < low else "above" if ratio > high else "inside",
    )


@dataclass(frozen=True)
class ClipCurve:
    """L^CLIP and rho A along the plot's ratios, for one advantage, and where L runs flat."""

    advantage: Signed
    """A: the curve's advantage."""
    objective: tuple[float, ...]
    """L^CLIP at each of the plot's ratios."""
    unclipped: tuple[float, ...]
    """rho A at each of the plot's ratios."""
    flat_at: float
    """The value L keeps where the clip binds: clip(ratio_max) A for A > 0, clip(0) A for A < 0."""


@dataclass(frozen=True)
class ClipPlot:
    """The clipped objective against the ratio rho, from 0 to ratio_max, with 1 - eps and 1 + eps among the
    ratios so that each corner of the curve is drawn."""

    epsilon: float
    """The clip range."""
    clip: ClipRange
    """[1 - epsilon, 1 + epsilon], shaded on the plot."""
    ratio_max: float
    """The largest ratio drawn."""
    ratios: tuple[float, ...]
    """The ratios the curves are computed at."""
    curves: tuple[ClipCurve, ...]
    """One curve per advantage of the data file's [plot]."""
    lowest: float
    """The least value of rho A over the plot (the floor of the axis)."""
    highest: float
    """The greatest value of rho A over the plot."""


PLOT_POINTS = 201


def clip_plot(plot: PlotData, epsilon: float) -> ClipPlot:
    """Each curve on 201 evenly spaced ratios and the ends of the clip range."""
    low, high = clip_range(epsilon)
    ratios = sorted({*np.linspace(0.0, plot.ratio_max, PLOT_POINTS).tolist(), low, high})
    curves = []
    for advantage in plot.advantages:
        flat = float(clipped_term(plot.ratio_max if advantage > 0 else 0.0, advantage, epsilon))
        curves.append(
            ClipCurve(
                advantage,
                tuple(clipped_surrogate(ratios, advantage, epsilon).tolist()),
                tuple(unclipped_term(ratios, advantage).tolist()),
                flat,
            )
        )
    unclipped = [y for curve in curves for y in curve.unclipped]
    return ClipPlot(
        epsilon, ClipRange(low, high), plot.ratio_max, tuple(ratios), tuple(curves), min(unclipped), max(unclipped)
    )


@dataclass(frozen=True)
class GaeToken:
    """Token t of the response (numbered from 1), and every step of GAE on it."""

    t: int
    """The token's number, from 1."""
    token: str
    """The token's text."""
    gamma: float
    """The discount gamma."""
    lam: float
    """GAE's lambda."""
    reward: float
    """r_t: the reward after the token."""
    value: float
    """V(s_t): the critic's prediction before the token."""
    next_value: float
    """V(s_{t+1}): its prediction after the token (0 after the last: the response is over)."""
    delta: Signed
    """delta_t = r_t + gamma V(s_{t+1}) - V(s_t): what the token changed, in the critic's eyes (A_t at lambda = 0)."""
    advantage: Signed
    """A_t = delta_t + gamma lambda A_{t+1}: GAE at the response's lambda."""
    next_advantage: float | Undefined
    """A_{t+1}, which A_t is built on; not defined for the last token."""
    monte_carlo: Signed
    """G_t - V(s_t): the reward still to come minus the critic's prediction (A_t at lambda = 1)."""

    @property
    def raises(self) -> bool:
        """The token raised the critic's estimate: delta_t > 0."""
        return self.delta > 0

    @property
    def lowers(self) -> bool:
        """The token lowered the critic's estimate: delta_t < 0."""
        return self.delta < 0


@dataclass(frozen=True)
class Gae:
    """GAE on one response whose tokens the chapter numbers from 1."""

    gamma: float
    """The discount gamma (1: no discount within a response)."""
    lam: float
    """GAE's lambda."""
    T: int
    """The number of tokens in the response."""
    reward: float
    """The reward after the last token: the verifier's."""
    final_value: float
    """V(s_T) = 0: after the last token the response is over."""
    tokens: Mapping[int, GaeToken]
    """Each token, by its number from 1."""
    reward_only_at_the_end: bool
    """The only non-zero reward is the last token's."""
    first_token_below_monte_carlo: bool
    """The first token's GAE advantage is smaller than its Monte Carlo one: the critic's doubt counts against it."""


def work_gae(data: GaeData) -> Gae:
    """delta_t, A_t at lambda and G_t - V(s_t) (lambda = 1), token by token."""
    deltas = td_errors(data.rewards, data.values, data.gamma).tolist()
    advantages = gae_advantages(data.rewards, data.values, data.gamma, data.lam).tolist()
    returns = (discounted_returns(data.rewards, data.gamma) - np.asarray(data.values[:-1])).tolist()
    last = len(data.tokens) - 1
    tokens = {
        i + 1: GaeToken(
            t=i + 1,
            token=token,
            gamma=data.gamma,
            lam=data.lam,
            reward=data.rewards[i],
            value=data.values[i],
            next_value=data.values[i + 1],
            delta=deltas[i],
            advantage=advantages[i],
            next_advantage=advantages[i + 1] if i < last else Undefined("the last token has no token after it"),
            monte_carlo=returns[i],
        )
        for i, token in enumerate(data.tokens)
    }
    return Gae(
        gamma=data.gamma,
        lam=data.lam,
        T=len(data.tokens),
        reward=data.rewards[-1],
        final_value=data.values[-1],
        tokens=tokens,
        reward_only_at_the_end=data.rewards[-1] != 0 and not any(data.rewards[:-1]),
        first_token_below_monte_carlo=advantages[0] < returns[0],
    )


def _in_units(size: int, unit: int) -> int | Fraction:
    """size / unit, exactly: 7 for 7,000,000,000 in billions, 0.5 as the fraction 1/2."""
    return size // unit if size % unit == 0 else Fraction(size, unit)


@dataclass(frozen=True)
class Memory:
    """What training a critic of the policy's size keeps in memory (mixed precision, Adam; ZeRO's count)."""

    policy_billions: int | Fraction
    """The policy's parameters, in billions."""
    critic_billions: int | Fraction
    """The critic's parameters, in billions."""
    parts: tuple[MemoryPart, ...]
    """What is kept per parameter, part by part, with its total for the critic."""
    bytes_per_parameter: int
    """What is kept per trained parameter, all parts together: 16 for mixed-precision Adam."""
    part_gb: tuple[int | Fraction, ...]
    """Each part for the whole critic, in GB (10^9 bytes)."""
    critic_gb: int | Fraction
    """The critic's training memory before any activation, in GB."""
    critic_weights_gb: int | Fraction
    """The critic's 16-bit weights alone, in GB."""
    critic_as_large_as_policy: bool
    """The critic needs as much training memory as the policy: they have as many parameters."""


def memory_of(data: MemoryData) -> Memory:
    """parameters x bytes per parameter, part by part, for the critic; compared with the policy's."""
    sizes = {part.name: part.bytes for part in data.parts}
    critic, policy = training_memory(data.critic_parameters, sizes), training_memory(data.policy_parameters, sizes)
    return Memory(
        policy_billions=_in_units(data.policy_parameters, 10**9),
        critic_billions=_in_units(data.critic_parameters, 10**9),
        parts=tuple(critic),
        bytes_per_parameter=bytes_per_parameter(critic),
        part_gb=tuple(_in_units(part.total_bytes, 10**9) for part in critic),
        critic_gb=_in_units(total_bytes(critic), 10**9),
        critic_weights_gb=_in_units(critic[0].total_bytes, 10**9),
        critic_as_large_as_policy=total_bytes(critic) == total_bytes(policy),
    )


@dataclass(frozen=True)
class PPO:
    """The PPO chapter: the clip on worked tokens, its plot, GAE on one response, and the critic's memory."""

    epsilon: float
    """The clip range epsilon."""
    clip: ClipRange
    """The clip range [1 - epsilon, 1 + epsilon]."""
    cases: Mapping[str, WorkedClip]
    """One token per case of ppo.toml, worked through, by the case's name."""
    plot: ClipPlot
    """The clipped objective against the ratio."""
    gae: Gae
    """GAE on one response, token by token."""
    memory: Memory
    """What training the critic keeps in memory."""


def build(settings: Settings) -> PPO:
    """Every number of the chapter, from its settings."""
    low, high = clip_range(settings.epsilon)
    return PPO(
        epsilon=settings.epsilon,
        clip=ClipRange(low, high),
        cases={case.name: work_clip_case(case, settings.epsilon) for case in settings.cases},
        plot=clip_plot(settings.plot, settings.epsilon),
        gae=work_gae(settings.gae),
        memory=memory_of(settings.memory),
    )


@dataclass(frozen=True)
class ClipPoint:
    """The clip at one (rho, A, eps), as numpy computes it: what a widget's port is checked against."""

    ratio: float
    advantage: float
    epsilon: float
    unclipped: float
    clipped: float
    objective: float
    gradient: float
    binds: bool


def clip_check_points(
    ratio_range: tuple[float, float], advantages: tuple[float, ...], epsilons: tuple[float, ...]
) -> tuple[ClipPoint, ...]:
    """The clip on a grid of 26 ratios over ratio_range, each advantage and each epsilon, with, for each epsilon,
    the two ends of its clip range exactly and the floats on either side of each end (where a port that
    compares in another order would disagree)."""
    low, high = ratio_range
    points = []
    for epsilon in sorted(set(epsilons)):
        ends = clip_range(epsilon)
        near = [float(np.nextafter(end, direction)) for end in ends for direction in (-np.inf, np.inf)]
        ratios = np.array(sorted({*np.linspace(low, high, 26).tolist(), *ends, *near, 1.0}))
        for advantage in sorted(set(advantages)):
            columns = zip(  # each function once over all the ratios: the same float64 operations, point by point
                ratios.tolist(),
                unclipped_term(ratios, advantage).tolist(),
                clipped_term(ratios, advantage, epsilon).tolist(),
                clipped_surrogate(ratios, advantage, epsilon).tolist(),
                surrogate_gradient(ratios, advantage, epsilon).tolist(),
                clip_binds(ratios, advantage, epsilon).tolist(),
                strict=True,
            )
            points += [ClipPoint(ratio, advantage, epsilon, *values) for ratio, *values in columns]
    return tuple(points)
