"""The GRPO-in-practice chapter's computation: `grpo_examples.chapter('practice')`, on
grpo_examples/data/practice.toml and the book's groups (grpo_examples/data/groups.toml).

    kl        Schulman's three estimators of the KL term on a next-token distribution
    loss      how each loss aggregation weighs a short and a long response
    clip      the symmetric clip against DAPO's clip-higher, on one token of a correct response
    dynamic   which of the book's groups DAPO's dynamic sampling keeps
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Annotated

import numpy as np

from grpo_examples.advantage_variants import dr_grpo_advantages, std_scale
from grpo_examples.advantages import advantages
from grpo_examples.clip_higher import DAPO_EPS_HIGH, DAPO_EPS_LOW, SYMMETRIC_EPS, capped_below, probability_ceiling
from grpo_examples.conventions import TRL, VERL
from grpo_examples.data import SAID, Between, repeated
from grpo_examples.dynamic_sampling import dynamic_sampling_keeps, kept_groups
from grpo_examples.float32 import float32_advantages, float32_mean
from grpo_examples.group import group, group_names, groups_file_error
from grpo_examples.kl_estimators import (
    ESTIMATORS,
    estimate_std,
    exact_kl,
    expected_estimate,
    k3_loss_gradient,
    kl_ref_theta_gradient,
    kl_theta_ref_gradient,
    log_ratio,
    monte_carlo_estimate,
    ratio_from_log,
    reference_ratio,
)
from grpo_examples.loss_aggregation import AGGREGATIONS, response_coefficients, token_coefficients, token_weight_ratio
from grpo_examples.ppo import clip_binds, clipped_ratio, clipped_surrogate, clipped_term, unclipped_term
from grpo_examples.quantities import RatioExact, Signed, Undefined
from grpo_examples.verifier import OUTCOMES

# ---------------------------------------------------------------- the data file's schema


@dataclass(frozen=True)
class KlData:
    """Two next-token distributions over the same candidates: pi_theta (in training) and pi_ref (frozen)."""

    context: Annotated[str, SAID]
    tokens: tuple[Annotated[str, SAID], ...]
    pi_theta: tuple[float, ...]
    pi_ref: tuple[float, ...]
    samples: Annotated[int, Between(1, 1_000_000)]
    seed: Annotated[int, Between(0, 2**32 - 1)]

    def __post_init__(self) -> None:
        if not self.tokens or not len(self.tokens) == len(self.pi_theta) == len(self.pi_ref):
            raise ValueError("needs one pi_theta and one pi_ref per token")
        if twice := repeated(self.tokens):
            first, second = twice
            raise ValueError(
                f"tokens: {self.tokens[first - 1]!r} is token {first} and token {second}: write each candidate once"
            )
        for name, distribution in (("pi_theta", self.pi_theta), ("pi_ref", self.pi_ref)):
            if min(distribution) <= 0 or max(distribution) > 1 or abs(sum(distribution) - 1) > 1e-9:
                raise ValueError(f"{name}: a distribution over the tokens, each in (0, 1] and adding up to 1")


@dataclass(frozen=True)
class LossData:
    """Two responses of one group that differ in length: |o_i| and r_i, and Dr. GRPO's constant L."""

    lengths: tuple[Annotated[int, Between(1, 100_000)], ...]
    rewards: tuple[float, ...]
    max_length: Annotated[int, Between(1, 100_000)]

    def __post_init__(self) -> None:
        if len(self.lengths) != 2 or len(self.rewards) != 2 or sorted(self.rewards) != [0, 1]:
            raise ValueError("needs two responses: one right (reward 1) and one wrong (reward 0), with a length each")
        if max(self.lengths) > self.max_length:
            raise ValueError(
                f"max_length: Dr. GRPO's constant L must be at least the longest response, {max(self.lengths)}"
            )


@dataclass(frozen=True)
class ClipData:
    """A ratio rho that an update has reached, and token probabilities under pi_theta_old."""

    ratio: Annotated[float, Between(0, 100)]
    probabilities: tuple[float, ...]

    def __post_init__(self) -> None:
        if not self.probabilities or not all(0 < p <= 1 for p in self.probabilities):
            raise ValueError("probabilities: each token's probability, in (0, 1]")


@dataclass(frozen=True)
class RoundoffData:
    """G equal rewards of one value that float32 cannot hold exactly."""

    reward: float
    G: Annotated[int, Between(2, 64)]


@dataclass(frozen=True)
class Settings:
    """Everything in practice.toml."""

    kl: KlData
    loss: LossData
    clip: ClipData
    roundoff: RoundoffData


# ---------------------------------------------------------------- the KL term


@dataclass(frozen=True)
class KlToken:
    """One candidate token x: both probabilities, the ratio and the three estimates of the KL it gives."""

    token: str
    """The token's text."""
    pi_theta: float
    """pi_theta(x): the probability the policy in training gives the token."""
    pi_ref: float
    """pi_ref(x): the probability the frozen reference gives it."""
    ratio: float
    """r = pi_ref(x) / pi_theta(x)."""
    log_ratio: Signed
    """log r = log pi_ref(x) - log pi_theta(x)."""
    k1: Signed
    """k1 = -log r: unbiased, and negative whenever pi_ref(x) > pi_theta(x)."""
    k2: float
    """k2 = (log r)^2 / 2: never negative, but biased."""
    k3: float
    """k3 = (r - 1) - log r: unbiased and never negative."""


def kl_tokens(data: KlData) -> tuple[KlToken, ...]:
    """The estimators on every token, computed on the whole distribution at once, as a trainer does."""
    x = log_ratio(data.pi_theta, data.pi_ref)
    ratios = reference_ratio(data.pi_theta, data.pi_ref).tolist()
    k1, k2, k3 = (ESTIMATORS[name](x).tolist() for name in ("k1", "k2", "k3"))
    return tuple(
        KlToken(token, data.pi_theta[i], data.pi_ref[i], ratios[i], float(x[i]), k1[i], k2[i], k3[i])
        for i, token in enumerate(data.tokens)
    )


@dataclass(frozen=True)
class Kl:
    """The KL term's estimators on a distribution over a few candidate tokens."""

    context: str
    """The text before the token."""
    count: int
    """How many candidate tokens the distributions cover."""
    tokens: tuple[KlToken, ...]
    """Every candidate token."""
    worked: KlToken
    """The first token, which the page works out."""
    negative: KlToken | Undefined
    """The first token whose k1 is negative (the reference finds it likelier than the policy does)."""
    negative_count: int
    """How many tokens have a negative k1."""
    exact: float
    """D_KL(pi_theta || pi_ref) = sum_x pi_theta(x) log(pi_theta(x) / pi_ref(x))."""
    mean: Mapping[str, float]
    """E_{x ~ pi_theta}[k(x)] for k1, k2 and k3: what each estimator gives on average."""
    std: Mapping[str, float]
    """sqrt(E[k^2] - E[k]^2) under pi_theta for each: how far one token's estimate strays."""
    monte_carlo: Mapping[str, float]
    """The mean of each estimator over `samples` tokens drawn from pi_theta."""
    k3_gradient: tuple[Signed, ...]
    """E_{x ~ pi_theta}[grad k3(x)], one entry per token's logit: the gradient a loss that adds k3 of the sampled
    token gets on average."""
    kl_ref_theta_gradient: tuple[Signed, ...]
    """grad D_KL(pi_ref || pi_theta) = -sum_x pi_ref(x) grad log pi_theta(x): the KL with its arguments swapped."""
    kl_theta_ref_gradient: tuple[Signed, ...]
    """grad D_KL(pi_theta || pi_ref): the gradient of the divergence k3 estimates."""
    worked_k3_gradient: Signed
    """The first token's entry of k3_gradient: how the loss moves that token's logit."""
    worked_kl_theta_ref_gradient: Signed
    """The first token's entry of kl_theta_ref_gradient."""
    samples: int
    """How many tokens the Monte-Carlo average draws."""
    seed: int
    """The seed of that draw."""
    pi_theta: tuple[float, ...]
    """pi_theta of every token."""
    pi_ref: tuple[float, ...]
    """pi_ref of every token."""


def _close(a: float, b: float) -> bool:
    return abs(a - b) <= 1e-12 * max(1.0, abs(b))


def kl_of(data: KlData) -> Kl:
    tokens = kl_tokens(data)
    negative = [token for token in tokens if token.k1 < 0]
    k3_gradient = k3_loss_gradient(data.pi_theta, data.pi_ref)
    theta_ref = kl_theta_ref_gradient(data.pi_theta, data.pi_ref)
    return Kl(
        context=data.context,
        count=len(tokens),
        tokens=tokens,
        worked=tokens[0],
        negative=negative[0]
        if negative
        else Undefined("no token has a negative k1: rewrite the sentence that shows one"),
        negative_count=len(negative),
        exact=exact_kl(data.pi_theta, data.pi_ref),
        mean={name: expected_estimate(k, data.pi_theta, data.pi_ref) for name, k in ESTIMATORS.items()},
        std={name: estimate_std(k, data.pi_theta, data.pi_ref) for name, k in ESTIMATORS.items()},
        monte_carlo={
            name: monte_carlo_estimate(k, data.pi_theta, data.pi_ref, data.samples, data.seed)
            for name, k in ESTIMATORS.items()
        },
        k3_gradient=tuple(k3_gradient.tolist()),
        kl_ref_theta_gradient=tuple(kl_ref_theta_gradient(data.pi_theta, data.pi_ref).tolist()),
        kl_theta_ref_gradient=tuple(theta_ref.tolist()),
        worked_k3_gradient=float(k3_gradient[0]),
        worked_kl_theta_ref_gradient=float(theta_ref[0]),
        samples=data.samples,
        seed=data.seed,
        pi_theta=data.pi_theta,
        pi_ref=data.pi_ref,
    )


@dataclass(frozen=True)
class KlPoint:
    """The three estimators at one log ratio (every estimator depends on a token only through it)."""

    log_ratio: Signed
    """log r."""
    ratio: float
    """r = exp(log r)."""
    k1: Signed
    """-log r."""
    k2: float
    """(log r)^2 / 2."""
    k3: float
    """(r - 1) - log r."""


def kl_points(log_ratios: tuple[float, ...]) -> tuple[KlPoint, ...]:
    """k1, k2, k3 and r = exp(log r) at each log ratio: a table along a drawing's axis."""
    return tuple(
        KlPoint(x, float(ratio_from_log(x)), *(float(ESTIMATORS[name](x)) for name in ("k1", "k2", "k3")))
        for x in log_ratios
    )


def kl_check_points(probabilities: tuple[float, ...]) -> tuple[tuple[float, ...], ...]:
    """[pi_theta, pi_ref, log r, k1, k2, k3] for every pair of the probabilities: what a widget's port is
    checked against."""
    rows = []
    for theta in probabilities:
        for ref in probabilities:
            x = float(log_ratio(theta, ref))
            rows.append((theta, ref, x, *(float(ESTIMATORS[name](x)) for name in ("k1", "k2", "k3"))))
    return tuple(rows)


# ---------------------------------------------------------------- the loss aggregation


@dataclass(frozen=True)
class LossResponse:
    """One response of the loss example."""

    number: int
    """i, counted from 1."""
    right: bool
    """The response is correct (reward 1)."""
    length: int
    """|o_i|, in tokens."""
    advantage: Signed
    """A_i: GRPO's advantage (population std)."""


@dataclass(frozen=True)
class LossAggregation:
    """One way to normalise the sum over the tokens, on the loss example."""

    key: str
    """per-sequence, token-level or constant."""
    name: str
    """Its name in words."""
    paper: str
    """The paper that proposed it, and where."""
    settings: tuple[tuple[str, str, str], ...]
    """(trainer, setting, remark): how each trainer selects it."""
    weights: tuple[float, ...]
    """w_i for each response."""
    per_token: Mapping[str, Signed]
    """A_i w_i for the right and the wrong response: what multiplies grad log pi of one of its tokens."""
    whole: Mapping[str, Signed]
    """|o_i| A_i w_i: the same, summed over the response's tokens."""


@dataclass(frozen=True)
class Loss:
    """Two responses of one group, of different lengths, under each aggregation."""

    G: int
    """The group size."""
    max_length: int
    """Dr. GRPO's constant L: the generation budget."""
    responses: tuple[LossResponse, ...]
    """Each response of the example."""
    length: Mapping[str, int]
    """|o_i| of the correct and of the wrong response."""
    advantage: Mapping[str, Signed]
    """A_i of the correct and of the wrong response."""
    aggregations: Mapping[str, LossAggregation]
    """per-sequence, token-level and constant."""
    per_sequence_ratio: RatioExact
    """How many times as hard per-sequence aggregation pushes a token of the correct response as one of the wrong."""


def loss_of(data: LossData) -> Loss:
    grpo = advantages(data.rewards).tolist()
    index = {o: data.rewards.index(r) for o, r in OUTCOMES.items()}
    aggregations = {}
    for key, aggregation in AGGREGATIONS.items():
        weights = aggregation.weights(data.lengths, data.max_length)
        per_token = token_coefficients(grpo, weights).tolist()
        whole = response_coefficients(grpo, weights, data.lengths).tolist()
        aggregations[key] = LossAggregation(
            key,
            aggregation.name,
            aggregation.paper,
            aggregation.settings,
            tuple(weights.tolist()),
            {o: per_token[i] for o, i in index.items()},
            {o: whole[i] for o, i in index.items()},
        )
    per_sequence = AGGREGATIONS["per-sequence"].weights(data.lengths, data.max_length)
    return Loss(
        G=len(data.lengths),
        max_length=data.max_length,
        responses=tuple(
            LossResponse(i + 1, r == OUTCOMES["correct"], n, a)
            for i, (r, n, a) in enumerate(zip(data.rewards, data.lengths, grpo, strict=True))
        ),
        length={o: data.lengths[i] for o, i in index.items()},
        advantage={o: grpo[i] for o, i in index.items()},
        aggregations=aggregations,
        # as a fraction, so that a whole ratio prints as words: "four times"
        per_sequence_ratio=Fraction(
            token_weight_ratio(per_sequence, index["correct"], index["wrong"])
        ).limit_denominator(1000),
    )


# ---------------------------------------------------------------- the clip


@dataclass(frozen=True)
class Clipped:
    """The clip example's token under one clip range [1 - eps_low, 1 + eps_high]."""

    eps_low: float
    """The lower clip range."""
    eps_high: float
    """The upper clip range."""
    ratio: float
    """rho, the token's ratio."""
    advantage: Signed
    """A: the advantage of a correct response of the easy group, which the token is part of."""
    clipped_ratio: float
    """clip(rho, 1 - eps_low, 1 + eps_high)."""
    unclipped: float
    """rho A."""
    clipped: float
    """clip(rho, ...) A."""
    value: float
    """min(rho A, clip(rho, ...) A): the token's clipped objective."""
    binds: bool
    """The clip binds: the token's gradient is 0."""

    @property
    def symmetric(self) -> bool:
        """eps_low = eps_high."""
        return self.eps_low == self.eps_high


def clipped_of(ratio: float, advantage: float, eps_low: float, eps_high: float) -> Clipped:
    return Clipped(
        eps_low,
        eps_high,
        ratio,
        advantage,
        float(clipped_ratio(ratio, eps_low, eps_high)),
        float(unclipped_term(ratio, advantage)),
        float(clipped_term(ratio, advantage, eps_low, eps_high)),
        float(clipped_surrogate(ratio, advantage, eps_low, eps_high)),
        bool(clip_binds(ratio, advantage, eps_low, eps_high)),
    )


@dataclass(frozen=True)
class Ceiling:
    """The highest probability a token with A > 0 can reach in one batch before the upper clip stops it."""

    pi_old: float
    """pi_theta_old of the token."""
    symmetric: float
    """min(1, pi_old (1 + eps))."""
    higher: float
    """min(1, pi_old (1 + eps_high))."""


@dataclass(frozen=True)
class ClipPractice:
    """The symmetric clip against clip-higher."""

    eps: float
    """The symmetric clip range of PPO and of TRL's and verl's defaults."""
    eps_low: float
    """DAPO's lower clip range."""
    eps_high: float
    """DAPO's upper clip range."""
    ratio: float
    """The ratio an update has brought the example token to."""
    symmetric: Clipped
    """The token under the symmetric clip [1 - eps, 1 + eps]."""
    higher: Clipped
    """The token under clip-higher [1 - eps_low, 1 + eps_high]."""
    unlikely: float
    """The least likely token's probability under pi_theta_old."""
    ceiling: Mapping[str, float]
    """The unlikely token's ceiling under the symmetric clip and under clip-higher."""
    capped_below: Mapping[str, float]
    """1 / (1 + eps) under the symmetric clip and under clip-higher: every token with pi_theta_old below it has a
    ceiling below 1."""
    ceilings: tuple[Ceiling, ...]
    """Every probability of the example, from the least likely."""


def clip_of(data: ClipData) -> ClipPractice:
    easy = group("easy")
    if "correct" not in easy.advantage:
        raise groups_file_error(
            "easy: the practice chapter's clip example takes the advantage of a correct response of this group, "
            "and none of its responses is correct: give it one (or its reference answer back)"
        )
    advantage = float(easy.advantage["correct"])
    unlikely = min(data.probabilities)
    return ClipPractice(
        eps=SYMMETRIC_EPS,
        eps_low=DAPO_EPS_LOW,
        eps_high=DAPO_EPS_HIGH,
        ratio=data.ratio,
        symmetric=clipped_of(data.ratio, advantage, SYMMETRIC_EPS, SYMMETRIC_EPS),
        higher=clipped_of(data.ratio, advantage, DAPO_EPS_LOW, DAPO_EPS_HIGH),
        unlikely=unlikely,
        ceiling={
            "symmetric": probability_ceiling(unlikely, SYMMETRIC_EPS),
            "higher": probability_ceiling(unlikely, DAPO_EPS_HIGH),
        },
        capped_below={"symmetric": capped_below(SYMMETRIC_EPS), "higher": capped_below(DAPO_EPS_HIGH)},
        ceilings=tuple(
            Ceiling(p, probability_ceiling(p, SYMMETRIC_EPS), probability_ceiling(p, DAPO_EPS_HIGH))
            for p in sorted(data.probabilities)
        ),
    )


# ---------------------------------------------------------------- round-off


@dataclass(frozen=True)
class Roundoff:
    """An all-equal group of rewards that are not 0 or 1, its advantages computed in float32 as trainers do."""

    reward: float
    """The reward every response of the group earns (from practice.toml)."""
    G: int
    """How many responses the group holds."""
    exact_advantage: Signed
    """The advantage in exact arithmetic: 0, as for every all-equal group."""
    mean: float
    """mu in float32, the G rewards added one after the other: not the reward itself."""
    deviation: Signed
    """r - mu in float32: the round-off left over."""
    advantage: Mapping[str, Signed]
    """A in float32 under verl's convention (sample std + 1e-6) and TRL's (sample std + 1e-4)."""


def roundoff_of(data: RoundoffData) -> Roundoff:
    rewards = [data.reward] * data.G
    verl = float32_advantages(rewards, VERL.ddof, VERL.eps)
    return Roundoff(
        reward=data.reward,
        G=data.G,
        exact_advantage=float(advantages(rewards)[0]),
        mean=float32_mean(rewards),
        deviation=float(np.float32(data.reward) - np.float32(float32_mean(rewards))),
        advantage={
            "verl": float(verl[0]),
            "trl": float(float32_advantages(rewards, TRL.ddof, TRL.eps)[0]),
        },
    )


# ---------------------------------------------------------------- the chapter


@dataclass(frozen=True)
class Dynamic:
    """DAPO's dynamic sampling on the book's groups."""

    groups: int
    """How many named groups the book has."""
    kept: int
    """How many of them dynamic sampling keeps (their rewards are not all equal)."""


@dataclass(frozen=True)
class PracticeClaims:
    """What the chapter's prose says, each true or false."""

    solved_is_all_right: bool
    """Every response of the solved group is correct."""
    difficulty_bias: bool
    """GRPO weighs the easy and the hard group (1/sigma) more than the evenly split one."""
    dropping_std_shrinks: bool
    """Without the division by the std, every kept group's largest advantage is smaller."""
    per_sequence_favours_short_right: bool
    """The right response is the shorter, and per-sequence aggregation weighs its tokens more than the wrong's."""
    token_level_is_even: bool
    """Token-level aggregation gives every token the same weight."""
    k1_goes_negative: bool
    """Some token's k1 is negative."""
    k3_never_negative: bool
    """No token's k3 is negative."""
    k1_and_k3_unbiased: bool
    """k1 and k3 average to the exact KL under pi_theta."""
    k2_falls_short: bool
    """k2 averages to less than the exact KL."""
    k3_spreads_less: bool
    """k3's std under pi_theta is smaller than k1's."""
    roundoff_is_left_over: bool
    """In float32, the all-equal group's advantage under verl's convention is not 0."""
    k3_gradient_is_kl_ref_theta: bool
    """In the loss, k3's average gradient is the gradient of D_KL(pi_ref || pi_theta), entry by entry."""
    k3_gradient_is_not_kl_theta_ref: bool
    """... and not the gradient of D_KL(pi_theta || pi_ref), the divergence k3 estimates."""
    symmetric_clip_stops: bool
    """The symmetric clip binds on the example token."""
    clip_higher_lets_through: bool
    """Clip-higher does not bind on it."""
    likely_token_uncapped: bool
    """The likely token is more likely than 1 / (1 + eps), so its ceiling is 1; clip-higher still caps the unlikely
    one below 1."""


@dataclass(frozen=True)
class Practice:
    """The GRPO-in-practice chapter."""

    kl: Kl
    """The KL term's estimators."""
    loss: Loss
    """The loss aggregations."""
    clip: ClipPractice
    """The symmetric clip and clip-higher."""
    dynamic: Dynamic
    """Dynamic sampling on the book's groups."""
    roundoff: Roundoff
    """An all-equal group of 0.7s, in float32."""
    claims: PracticeClaims
    """What the chapter's prose says."""


def build(settings: Settings) -> Practice:
    """Every number of the chapter, from its settings and the book's groups."""
    kl, loss, clip = kl_of(settings.kl), loss_of(settings.loss), clip_of(settings.clip)
    roundoff = roundoff_of(settings.roundoff)
    groups = {name: group(name) for name in group_names()}
    rewards = {name: [float(r) for r in g.rewards] for name, g in groups.items()}
    if gone := sorted({"solved", "split", "easy", "hard"} - set(rewards)):  # the groups the claims below read
        missing = f"the top level: the practice chapter reads the group [{gone[0]}], which is gone: restore it"
        raise groups_file_error(missing)
    kept = [r for r in rewards.values() if dynamic_sampling_keeps(r)]
    short_right = loss.length["correct"] < loss.length["wrong"]
    per_sequence = loss.aggregations["per-sequence"].weights
    right, wrong = (next(i for i, r in enumerate(loss.responses) if r.right is want) for want in (True, False))
    token_level = loss.aggregations["token-level"].weights
    return Practice(
        kl=kl,
        loss=loss,
        clip=clip,
        dynamic=Dynamic(len(rewards), len(kept_groups(rewards))),
        roundoff=roundoff,
        claims=PracticeClaims(
            solved_is_all_right=set(rewards["solved"]) == {OUTCOMES["correct"]},
            difficulty_bias=all(std_scale(rewards[n]) > std_scale(rewards["split"]) for n in ("easy", "hard")),
            dropping_std_shrinks=all(
                np.max(np.abs(dr_grpo_advantages(r))) < np.max(np.abs(advantages(r))) for r in kept
            ),
            per_sequence_favours_short_right=short_right and per_sequence[wrong] < per_sequence[right],
            token_level_is_even=all(w == token_level[0] for w in token_level),
            k1_goes_negative=kl.negative_count > 0,
            k3_never_negative=all(token.k3 >= 0 for token in kl.tokens),
            k1_and_k3_unbiased=all(_close(kl.mean[name], kl.exact) for name in ("k1", "k3")),
            k2_falls_short=kl.mean["k2"] < kl.exact,
            k3_spreads_less=kl.std["k3"] < kl.std["k1"],
            roundoff_is_left_over=roundoff.advantage["verl"] != 0,
            k3_gradient_is_kl_ref_theta=all(
                _close(a, b) for a, b in zip(kl.k3_gradient, kl.kl_ref_theta_gradient, strict=True)
            ),
            k3_gradient_is_not_kl_theta_ref=not all(
                _close(a, b) for a, b in zip(kl.k3_gradient, kl.kl_theta_ref_gradient, strict=True)
            ),
            symmetric_clip_stops=clip.symmetric.binds,
            clip_higher_lets_through=not clip.higher.binds,
            likely_token_uncapped=(
                probability_ceiling(max(settings.clip.probabilities), SYMMETRIC_EPS) == 1.0
                and clip.ceiling["higher"] < 1.0
            ),
        ),
    )
