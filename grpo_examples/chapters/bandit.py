"""The policy-gradient chapter's bandit: `grpo_examples.chapter('bandit')`, on grpo_examples/data/bandit.toml.

One prompt q, K candidate responses, a policy over them: pi_theta(. | q) is a softmax over K logits, so every
expectation is a sum of K terms and REINFORCE can be computed exactly (grpo_examples/reinforce.py), then
simulated (grpo_examples/bandit_simulation.py). The reward stays real: the checker scores each text,
accuracy reward plus format reward. Candidates are numbered from 1, as the page numbers them.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Annotated

import numpy as np

from grpo_examples import reinforce
from grpo_examples.bandit_simulation import BASELINES as SIMULATED
from grpo_examples.bandit_simulation import histogram, simulate
from grpo_examples.data import SAID, Between
from grpo_examples.quantities import Ratio, Signed, Undefined
from grpo_examples.verifier import accuracy_reward, format_reward

# Var(J) is exactly 0 when every g_J(o) equals grad J (both candidates earn the same reward; a fair coin between
# two rewards). Computed, it is round-off instead (about 1e-33 where numpy's dot products use AVX-512): below
# this fraction of Var(0) it counts as 0, and Var(0) / Var(J) has no value.
ZERO_VARIANCE_RTOL = 1e-12

EXACT = ("none", "expected", "optimal")  # the constant baselines: b = 0, b = J, b = b*
CURVE_POINTS = 81  # baselines at which Var(b) is computed for its plot, from 0 to the largest reward
HISTOGRAM_BIN = 0.05  # reward per logit unit: fine enough to show the spread of a group's estimate
SIMULATION_TOLERANCE = 0.1  # "the simulation agrees": each simulated variance within 10 % of the exact one

# ---------------------------------------------------------------- the data file's schema


@dataclass(frozen=True)
class CandidateData:
    """One candidate response and the probability the policy gives it."""

    text: str
    probability: float


@dataclass(frozen=True)
class Settings:
    """Everything in bandit.toml."""

    question: Annotated[str, SAID]
    answer: Annotated[str, SAID]
    seed: Annotated[int, Between(0, 2**32 - 1)]
    group_size: Annotated[int, Between(2, 64)]
    batches: Annotated[int, Between(2, 100_000)]
    candidates: tuple[CandidateData, ...]

    def __post_init__(self) -> None:
        if not 2 <= len(self.candidates) <= 8:
            raise ValueError(f"candidates: a bandit has 2 to 8 candidates, got {len(self.candidates)}")
        probabilities = [c.probability for c in self.candidates]
        if min(probabilities) <= 0 or not math.isclose(sum(probabilities), 1.0, abs_tol=1e-9):
            raise ValueError(f"candidates: the probabilities must be positive and add up to 1, got {probabilities}")


# ---------------------------------------------------------------- the model


@dataclass(frozen=True)
class Candidate:
    """Candidate c: its text, how the checker scores it, how likely the policy is to pick it, its gradient."""

    number: int
    """c, counted from 1."""
    text: str
    """The candidate response."""
    probability: float
    """pi_theta(c | q)."""
    accuracy: float
    """The accuracy reward the checker gives it."""
    format: float
    """The format reward the checker gives it."""
    reward: int | float
    """r(c) = accuracy reward + format reward (0, 1 or 2)."""
    gradient: Signed
    """dJ/dtheta_c = pi(c) (r(c) - J): how the true gradient moves this candidate's logit."""
    own: Mapping[str, Signed]
    """The entry for its own logit of the one-sample estimate (r(c) - b) grad log pi(c), under the baselines
    none (b = 0) and expected (b = J): how hard drawing it pushes it."""
    below_average: bool
    """r(c) < J: the true gradient lowers this candidate's logit."""
    earns_something: bool
    """r(c) > 0: without a baseline, drawing it raises its logit."""


@dataclass(frozen=True)
class Baseline:
    """REINFORCE's one-sample estimate with one constant baseline b, candidate by candidate, and its variance."""

    name: str
    """none (b = 0), expected (b = J) or optimal (b = b*)."""
    b: float
    """The baseline's value."""
    probabilities: tuple[float, ...]
    """pi_theta(c | q) for each candidate: the weights of every average below."""
    weights: tuple[Signed, ...]
    """r(c) - b for each candidate."""
    estimates: tuple[tuple[float, ...], ...]
    """Row c: the estimate g_b(c) = (r(c) - b) grad log pi(c), had c been drawn."""
    squared_misses: tuple[float, ...]
    """||g_b(c) - grad J||^2 for each candidate."""
    mean: tuple[float, ...]
    """E[g_b] = sum_c pi(c) g_b(c): the true gradient, whatever b."""
    variance: float
    """Var(b) = sum_c pi(c) ||g_b(c) - grad J||^2, summed over the logits."""
    group_variance: float
    """Var(b) / G: the variance of the average of a group's G independent estimates."""


@dataclass(frozen=True)
class Quadratic:
    """Var(b) = Var(0) - 2 b E[r ||s||^2] + b^2 E[||s||^2], with s = grad log pi."""

    at_zero: float
    """Var(0)."""
    cross: float
    """E[r ||grad log pi||^2]."""
    square: float
    """E[||grad log pi||^2]."""


@dataclass(frozen=True)
class VarianceCurve:
    """Var(b) for constant baselines b evenly spaced from 0 to the largest reward."""

    baselines: tuple[float, ...]
    """The baselines b."""
    variances: tuple[float, ...]
    """Var(b) at each."""


@dataclass(frozen=True)
class Simulated:
    """One baseline over the simulated groups."""

    name: str
    """none, expected or leave-one-out."""
    mean_best: Signed
    """The average over the groups of the estimate's entry for the best candidate's logit."""
    variance: float
    """The sample variance of a group's estimate over the groups, summed over the logits."""
    not_raising: int
    """The share of groups whose estimate would not raise the best candidate's logit, in whole percent."""
    lowest: float
    """The lowest of the groups' estimates for the best candidate's logit."""
    highest: float
    """The highest."""
    shares: tuple[float, ...]
    """The share of groups (%) whose estimate for the best candidate's logit falls in each bin of the histogram
    (whose bins span the estimates of none and expected, the two it draws)."""


@dataclass(frozen=True)
class BanditClaims:
    """What the chapter's prose says of the bandit, each true or false."""

    baseline_reduces_variance: bool
    """b = J gives a smaller variance than no baseline."""
    expected_gets_most_of_the_reduction: bool
    """b = J achieves at least nine tenths of the reduction that the best constant baseline b* achieves."""
    only_best_above_average: bool
    """The true gradient raises the best candidate's logit and lowers every other one."""
    best_is_unique: bool
    """Only one candidate earns the highest reward."""
    simulation_agrees: bool
    """The simulated variance of a group's estimate is within 10 % of Var(b) / G, for b = 0 and b = J."""
    baseline_raises_best_more_often: bool
    """With b = J, fewer groups fail to raise the best candidate's logit than without a baseline."""
    leave_one_out_close_to_expected: bool
    """The simulated leave-one-out variance lies between b = J's and no baseline's, nearer to b = J's."""


@dataclass(frozen=True)
class Bandit:
    """The policy-gradient chapter: the bandit, REINFORCE on it computed exactly, and simulated."""

    question: str
    """The prompt q."""
    answer: str
    """Its reference answer."""
    seed: int
    """The seed of the simulation's samples."""
    G: int
    """Samples averaged into one gradient estimate in the simulation."""
    batches: int
    """How many such estimates the simulation draws."""
    K: int
    """How many candidate responses the policy chooses among."""
    candidates: Mapping[int, Candidate]
    """Each candidate, by its number from 1."""
    best: Candidate
    """The first candidate with the highest reward."""
    max_reward: int | float
    """The highest reward a candidate earns."""
    expected_reward: float
    """J(theta) = sum_c pi(c) r(c)."""
    gradient: tuple[Signed, ...]
    """grad J, entry c = pi(c) (r(c) - J)."""
    gradient_norm_squared: float
    """||grad J||^2: the size of what the estimates try to find, to set their variance against."""
    score_column: tuple[float, ...]
    """d log pi(c) / d theta_best = 1[c = best] - pi(best), for each c: the best logit's entry of each score."""
    score_mean: float
    """E_c[d log pi(c) / d theta_best] = sum_c pi(c) (1[c = best] - pi(best)) = 0: a score averages to zero."""
    baselines: Mapping[str, Baseline]
    """The constant baselines none (b = 0), expected (b = J) and optimal (b = b*)."""
    quadratic: Quadratic
    """Var(b) as a quadratic in b: its three coefficients."""
    optimal_baseline: float
    """b* = E[r ||s||^2] / E[||s||^2]: the constant baseline of least variance."""
    harmful_above: float
    """2 b*: Var(b) is a parabola symmetric about b*, so every constant baseline above this one gives a larger variance
    than no baseline at all."""
    reduction: Ratio | Undefined
    """Var(0) / Var(J): how many times smaller the variance is with b = J than without a baseline."""
    variance_curve: VarianceCurve
    """Var(b) for baselines from 0 to the largest reward, for the plot."""
    simulation: Mapping[str, Simulated]
    """Each baseline over the simulated groups: none, expected and leave-one-out (RLOO)."""
    histogram_bin: float
    """The width of the bins of the simulation's histograms."""
    histogram_edges: tuple[float, ...]
    """The bins' edges, around every estimate of the best logit's entry under none and expected."""
    claims: BanditClaims
    """What the chapter's prose says of the bandit."""


def _whole(reward: float) -> int | float:
    """A reward as the checker gives it, 0, 1 or 2, as the whole number it is."""
    return int(reward) if float(reward).is_integer() else float(reward)


def build(settings: Settings) -> Bandit:
    """Every number of the chapter, from its settings."""
    texts = [c.text for c in settings.candidates]
    policy = np.array([c.probability for c in settings.candidates])
    accuracy = [accuracy_reward(text, settings.answer) for text in texts]
    formats = [format_reward(text) for text in texts]
    rewards = np.array(accuracy) + np.array(formats)
    best = int(np.argmax(rewards))
    expected = reinforce.expected_reward(policy, rewards)
    optimal = reinforce.optimal_baseline(policy, rewards)
    constants = {"none": 0.0, "expected": expected, "optimal": optimal}
    gradient = reinforce.true_gradient(policy, rewards)
    baselines = {
        name: Baseline(
            name=name,
            b=b,
            probabilities=tuple(policy.tolist()),
            weights=tuple((rewards - b).tolist()),
            estimates=tuple(tuple(row) for row in reinforce.estimates(policy, rewards, b).tolist()),
            squared_misses=tuple(reinforce.squared_misses(policy, rewards, b).tolist()),
            mean=tuple(reinforce.estimator_mean(policy, rewards, b).tolist()),
            variance=reinforce.estimator_variance(policy, rewards, b),
            group_variance=reinforce.group_variance(policy, rewards, b, settings.group_size),
        )
        for name, b in constants.items()
    }
    candidates = {
        c + 1: Candidate(
            number=c + 1,
            text=texts[c],
            probability=float(policy[c]),
            accuracy=accuracy[c],
            format=formats[c],
            reward=_whole(float(rewards[c])),
            gradient=float(gradient[c]),
            own={name: baselines[name].estimates[c][c] for name in ("none", "expected")},
            below_average=float(rewards[c]) < expected,
            earns_something=float(rewards[c]) > 0,
        )
        for c in range(policy.size)
    }
    simulation = simulate(policy, rewards, settings.group_size, settings.batches, settings.seed)
    entries = np.concatenate([simulation.estimates[name][:, best] for name in ("none", "expected")])
    low = math.floor(float(entries.min()) / HISTOGRAM_BIN) * HISTOGRAM_BIN
    high = (math.floor(float(entries.max()) / HISTOGRAM_BIN) + 1) * HISTOGRAM_BIN
    edges = np.linspace(low, high, round((high - low) / HISTOGRAM_BIN) + 1)
    simulated = {
        name: Simulated(
            name=name,
            mean_best=float(simulation.mean(name)[best]),
            variance=simulation.variance(name),
            not_raising=round(100 * simulation.share_not_raising(name, best)),
            lowest=float(simulation.estimates[name][:, best].min()),
            highest=float(simulation.estimates[name][:, best].max()),
            shares=tuple(histogram(simulation, name, best, edges).tolist()),
        )
        for name in SIMULATED
    }
    variances = {name: baseline.variance for name, baseline in baselines.items()}
    curve = np.linspace(0.0, float(rewards.max()), CURVE_POINTS).tolist()
    column = reinforce.score(policy)[:, best]
    share = {name: simulation.share_not_raising(name, best) for name in SIMULATED}
    loo = {name: simulated[name].variance for name in SIMULATED}
    return Bandit(
        question=settings.question,
        answer=settings.answer,
        seed=settings.seed,
        G=settings.group_size,
        batches=settings.batches,
        K=len(texts),
        candidates=candidates,
        best=candidates[best + 1],
        max_reward=_whole(float(rewards.max())),
        expected_reward=expected,
        gradient=tuple(gradient.tolist()),
        gradient_norm_squared=reinforce.gradient_squared_norm(policy, rewards),
        score_column=tuple(column.tolist()),
        score_mean=float(policy @ column),
        baselines=baselines,
        quadratic=Quadratic(
            variances["none"], reinforce.reward_score_weight(policy, rewards), reinforce.score_weight(policy)
        ),
        optimal_baseline=optimal,
        harmful_above=2 * optimal,
        reduction=reinforce.variance_reduction(policy, rewards, expected)
        if variances["expected"] > ZERO_VARIANCE_RTOL * variances["none"]
        else Undefined("every candidate earns the same reward: with b = J the variance is 0"),
        variance_curve=VarianceCurve(
            tuple(curve), tuple(reinforce.estimator_variance(policy, rewards, b) for b in curve)
        ),
        simulation=simulated,
        histogram_bin=HISTOGRAM_BIN,
        histogram_edges=tuple(edges.tolist()),
        claims=BanditClaims(
            baseline_reduces_variance=variances["expected"] < variances["none"],
            expected_gets_most_of_the_reduction=(
                variances["none"] - variances["expected"] >= 0.9 * (variances["none"] - variances["optimal"])
            ),
            only_best_above_average=bool(gradient[best] > 0 and (np.delete(gradient, best) < 0).all()),
            best_is_unique=int((rewards == rewards.max()).sum()) == 1,
            simulation_agrees=all(
                abs(simulated[name].variance - baselines[name].group_variance)
                <= SIMULATION_TOLERANCE * baselines[name].group_variance
                for name in ("none", "expected")
            ),
            baseline_raises_best_more_often=share["expected"] < share["none"],
            leave_one_out_close_to_expected=(
                loo["expected"] < loo["leave-one-out"] < loo["none"]
                and loo["leave-one-out"] - loo["expected"] < loo["none"] - loo["leave-one-out"]
            ),
        ),
    )
