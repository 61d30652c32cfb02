"""The training-run chapter's computation: `grpo_examples.chapter('run')`, on grpo_examples/data/run.toml.

GRPO, a learned critic and plain REINFORCE trained side by side on the toy task from the same start and the
same samples (grpo_examples/training.py), the same settings repeated over seeds (run_statistics.py), and
everything the chapter reads off them: when each reaches the threshold, how many groups teach nothing, the
first update worked through.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Annotated

import numpy as np

from grpo_examples.quantities import SIGN, Rounded, Undefined
from grpo_examples.run_statistics import nonzero_advantage_histogram, seed_sweep, stuck_questions, zero_advantage_share
from grpo_examples.training import (
    METHODS,
    TrainingConfig,
    initial_logits,
    softmax,
    training_run,
)
from grpo_examples.verifier import verify
from grpo_examples.worked import GroupWorking, work_group

Settings = TrainingConfig  # run.toml holds exactly the run's settings

SWEEP_SEEDS = 20  # seeds 0..19: enough to see whether the chosen run is typical; trained as one batch per method
# Histogram bins a quarter of a unit wide and centred on multiples of 0.25, so that REINFORCE's integer
# advantages sit in the middle of their bars; the range [-3, 3] holds every advantage of the run.
ADVANTAGE_BIN = 0.25
LATE_STEPS = 10  # where the share of all-equal groups has levelled off: one step is noise, ten are a plateau
ADVANTAGE_RANGE = 3.0

Reward = Annotated[float, Rounded(2)]  # a run's mean reward: the third decimal is noise from the seed


@dataclass(frozen=True)
class Sweep:
    """One method over the seeds 0..SWEEP_SEEDS - 1, every other setting unchanged."""

    reached: int
    """In how many seeds the method reached the threshold within the run."""
    first: int
    """In how many seeds it reached the threshold strictly before both other methods."""
    median: Annotated[float, Rounded(1)] | Undefined
    """The median number of steps to the threshold, a seed that never reached it counting as slowest."""


@dataclass(frozen=True)
class Method:
    """What one method did in the run."""

    key: str
    """grpo, critic or reinforce."""
    mean_reward: tuple[float, ...]
    """The expected reward of the policy, averaged over the questions, before the first step and after each."""
    start_reward: Reward
    """The mean reward before the first step."""
    final_reward: Reward
    """The mean reward after the last step."""
    steps_to_threshold: int | Undefined
    """The first step after which the mean reward is at least the threshold."""
    all_equal_share: tuple[float, ...]
    """Per step, the share of the step's groups whose rewards were all equal (%)."""
    all_equal_first: int
    """How many of the first step's groups (one per question) had all-equal rewards."""
    all_equal_last: int
    """How many of the last step's groups did."""
    all_equal_first_percent: int
    """The first step's share of all-equal groups, in whole percent."""
    all_equal_last_percent: int
    """The last step's, in whole percent."""
    all_equal_percent: int
    """The share of all-equal groups over the whole run, in whole percent."""
    all_equal_late_percent: int
    """The share of all-equal groups over the run's last LATE_STEPS steps, in whole percent: the plateau the last
    step's count is one noisy sample of."""
    zero_share: int
    """The share of the run's advantages that are exactly 0, in whole percent."""
    stuck: int
    """Questions whose final policy puts 99 % on responses that are not the best one."""
    histogram: tuple[float, ...]
    """The share (%) of the run's non-zero advantages in each bin of Run.histogram_edges."""
    sweep: Sweep
    """The method over every seed of the sweep."""


@dataclass(frozen=True)
class Candidate:
    """One candidate response to the first question, as the checker scores it and the start policy weighs it."""

    number: int
    """c, counted from 1."""
    text: str
    """The candidate response."""
    accuracy: float
    """The accuracy reward the checker gives it."""
    format: float
    """The format reward the checker gives it."""
    reward: float
    """r(c) = accuracy reward + format reward."""
    probability: Reward
    """pi_0(c | q) = softmax(theta_0[q])_c, the starting policy."""


@dataclass(frozen=True)
class ToyQuestion:
    """The toy task's first question and its menu of candidate responses."""

    question: str
    """The first question q."""
    answer: str
    """Its reference answer."""
    candidates: tuple[Candidate, ...]
    """Its menu of candidate responses."""
    start_expected_reward: Reward
    """sum_c pi_0(c | q) r(c): the question's expected reward at the start."""
    right_with_reasoning: Reward
    """pi_0 of the first candidate, the right answer with its reasoning."""


@dataclass(frozen=True)
class Sample:
    """Response i of the first sampled group: the candidate drawn, its reward and each method's advantage."""

    i: int
    """i, counted from 1."""
    candidate: int
    """The candidate's number (from 1)."""
    reward: float
    """r_i."""
    advantage: Mapping[str, Annotated[float, Rounded(2), SIGN]]
    """A_i under each method."""


@dataclass(frozen=True)
class Change:
    """What each method's first update adds to one logit of the first question: eta x gradient."""

    candidate: int
    """c, counted from 1."""
    reward: float
    """r(c)."""
    probability: Reward
    """pi_0(c | q)."""
    delta: Mapping[str, Annotated[float, Rounded(2), SIGN]]
    """eta x the gradient's entry for c, under each method."""


@dataclass(frozen=True)
class FirstStep:
    """The first update on the first question, step by step (every method draws this same group)."""

    question: str
    """The first question."""
    G: int
    """The group size."""
    samples: tuple[Sample, ...]
    """The group every method draws first."""
    working: GroupWorking
    """GRPO's statistics for the group."""
    learning_rate: float
    """eta: the step size."""
    changes: tuple[Change, ...]
    """What each method's update adds to each logit."""


@dataclass(frozen=True)
class RunClaims:
    """What the chapter's prose says of the run, each true or false."""

    grpo_reaches_threshold_first: bool
    """GRPO reaches the threshold in fewer steps than either other method."""
    grpo_first_in_most_seeds: bool
    """GRPO reaches the threshold first in more than half the seeds."""
    critic_median_beats_reinforce: bool
    """The learned critic's median steps to the threshold is below REINFORCE's."""
    grpo_all_equal_rises: bool
    """GRPO's share of all-equal groups is higher at the last step than at the first."""


@dataclass(frozen=True)
class Run:
    """The training-run chapter."""

    seed: int
    """Seeds the starting policy and every sample."""
    steps: int
    """Policy updates per method."""
    G: int
    """Responses sampled per question at each step."""
    learning_rate: float
    """eta: the step size of every policy update."""
    critic_learning_rate: float
    """The step size of the learned baseline V_phi(q)."""
    prior_scale: float
    """The starting logits are prior_scale x N(0, 1)."""
    threshold: float
    """The mean reward whose first crossing the chapter reports."""
    questions: int
    """How many questions the toy task has."""
    candidates: int
    """Candidate responses per question."""
    max_reward: float
    """The highest reward: a right answer with its reasoning."""
    start_reward: Reward
    """The mean reward of the starting policy (the same for every method)."""
    advantages_per_method: int
    """steps x questions x G: how many advantages each method computes in the run."""
    methods: Mapping[str, Method]
    """grpo, critic and reinforce."""
    late_steps: int
    """How many of the last steps the plateau of all-equal groups is averaged over."""
    sweep_seeds: int
    """How many seeds the run is repeated with."""
    sweep_last_seed: int
    """The last seed of the sweep (they start at 0)."""
    histogram_bin: float
    """The width of the advantage histogram's bins."""
    histogram_range: float
    """Every advantage of the run lies within ± this."""
    histogram_edges: tuple[float, ...]
    """Their edges, centred on multiples of the width."""
    toy_question: ToyQuestion
    """The toy task's first question."""
    first_step: FirstStep
    """The first update, worked through."""
    claims: RunClaims
    """What the chapter's prose says of the run."""


def _never(value: int | float | None) -> float:
    return float("inf") if value is None else float(value)


def build(settings: Settings) -> Run:
    """Train the three methods (cached on the settings), sweep the seeds, and read the chapter's numbers off."""
    run = training_run(settings)
    sweep = seed_sweep(settings, SWEEP_SEEDS)
    task = run.task
    questions = len(task.questions)
    half = ADVANTAGE_BIN / 2
    edges = np.arange(-ADVANTAGE_RANGE - half, ADVANTAGE_RANGE + half + ADVANTAGE_BIN / 4, ADVANTAGE_BIN)
    methods = {}
    for m in METHODS:
        trace = run.traces[m]
        if np.any(np.abs(trace.advantages) > ADVANTAGE_RANGE):
            raise ValueError(f"an advantage of {m} falls outside the histogram's range ±{ADVANTAGE_RANGE:g}")
        step = trace.steps_to(settings.threshold)
        median = sweep.median_steps(m)
        methods[m] = Method(
            key=m,
            mean_reward=tuple(trace.mean_reward.tolist()),
            start_reward=float(trace.mean_reward[0]),
            final_reward=float(trace.mean_reward[-1]),
            steps_to_threshold=step
            if step is not None
            else Undefined(f"{m} never reaches the threshold {settings.threshold:g} in this run: rewrite the sentence"),
            all_equal_share=tuple((100 * trace.all_equal).tolist()),
            all_equal_first=round(float(trace.all_equal[0]) * questions),
            all_equal_last=round(float(trace.all_equal[-1]) * questions),
            all_equal_first_percent=round(100 * float(trace.all_equal[0])),
            all_equal_last_percent=round(100 * float(trace.all_equal[-1])),
            all_equal_percent=round(100 * float(trace.all_equal.mean())),
            all_equal_late_percent=round(100 * float(trace.all_equal[-LATE_STEPS:].mean())),
            zero_share=round(zero_advantage_share(trace)),
            stuck=stuck_questions(trace, task),
            histogram=tuple(nonzero_advantage_histogram(trace, edges).tolist()),
            sweep=Sweep(
                sweep.reached(m),
                sweep.first(m),
                median if median is not None else Undefined(f"{m} reaches the threshold in fewer than half the seeds"),
            ),
        )
    policy = softmax(initial_logits(settings, task.shape))
    first = policy[0]
    candidates = []
    for c, text in enumerate(task.responses[0]):
        verdict = verify(text, task.references[0])
        candidates.append(
            Candidate(c + 1, text, verdict.accuracy, verdict.format, float(task.rewards[0, c]), float(first[c]))
        )
    samples = run.traces["grpo"].samples[0, 0]  # every method draws this same first group (same start, same seed)
    rewards = task.rewards[0, samples]
    advantage = {m: run.traces[m].advantages[0, 0] for m in METHODS}
    working = work_group(rewards.tolist())
    # policy_gradient's entry for c, regrouped as the chapter reads it: eta/G (the sum of c's own A_i - pi(c | q)
    # sum_i A_i). GRPO's sum_i A_i = sum_i (r_i - mu) / sigma is 0, summed here from the exact deviations: the
    # rounded A_i add up to about 1e-17, which would move the logit of a candidate nobody sampled.
    advantage_sum = {m: float(np.sum(advantage[m])) for m in METHODS}
    deviations = sum((o.count * o.deviation for o in working.outcomes), Fraction(0))  # sum_i (r_i - mu): 0
    advantage_sum["grpo"] = float(deviations / working.std) if working.std else 0.0
    deltas = {
        m: settings.learning_rate
        * (np.bincount(samples, weights=advantage[m], minlength=task.shape[1]) - first * advantage_sum[m])
        / settings.group_size
        for m in METHODS
    }
    steps_or_never = {m: _never(run.traces[m].steps_to(settings.threshold)) for m in METHODS}
    medians = {m: _never(sweep.median_steps(m)) for m in METHODS}
    grpo_equal = run.traces["grpo"].all_equal
    return Run(
        seed=settings.seed,
        steps=settings.steps,
        G=settings.group_size,
        learning_rate=settings.learning_rate,
        critic_learning_rate=settings.critic_learning_rate,
        prior_scale=settings.prior_scale,
        threshold=settings.threshold,
        questions=questions,
        candidates=task.shape[1],
        max_reward=float(task.rewards.max()),
        start_reward=float(run.traces["grpo"].mean_reward[0]),
        advantages_per_method=settings.steps * questions * settings.group_size,
        methods=methods,
        late_steps=min(LATE_STEPS, settings.steps),
        sweep_seeds=SWEEP_SEEDS,
        sweep_last_seed=SWEEP_SEEDS - 1,
        histogram_bin=ADVANTAGE_BIN,
        histogram_range=ADVANTAGE_RANGE,
        histogram_edges=tuple(edges.tolist()),
        toy_question=ToyQuestion(
            task.questions[0],
            task.references[0],
            tuple(candidates),
            float(np.sum(first * task.rewards[0])),
            float(first[0]),
        ),
        first_step=FirstStep(
            question=task.questions[0],
            G=settings.group_size,
            samples=tuple(
                Sample(i + 1, int(c) + 1, float(r), {m: float(advantage[m][i]) for m in METHODS})
                for i, (c, r) in enumerate(zip(samples, rewards, strict=True))
            ),
            working=working,
            learning_rate=settings.learning_rate,
            changes=tuple(
                Change(c + 1, float(task.rewards[0, c]), float(first[c]), {m: float(deltas[m][c]) for m in METHODS})
                for c in range(task.shape[1])
            ),
        ),
        claims=RunClaims(
            grpo_reaches_threshold_first=steps_or_never["grpo"]
            < min(steps_or_never["critic"], steps_or_never["reinforce"]),
            grpo_first_in_most_seeds=2 * sweep.first("grpo") > SWEEP_SEEDS,
            critic_median_beats_reinforce=medians["critic"] < medians["reinforce"],
            grpo_all_equal_rises=bool(grpo_equal[-1] > grpo_equal[0]),
        ),
    )
