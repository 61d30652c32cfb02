"""The GRPO-in-practice chapter's namespace: `<!-- grpo:value practice.kl.k3 -->`, `grpo:check practice <claim>`.

Its inputs are grpo_examples/practice_examples.toml (the KL, loss and clip examples) and the book's groups
in grpo_examples/examples.toml. Each value picks a number out of what grpo_examples computed; numbers.py
formats it; a formula writes its general form, then the numbers that fill it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
from numpy.typing import NDArray

import grpo_examples as gx
from grpo_examples.practice_examples import ClipExample, KlExample, LossExample
from hooks.kl_widget import kl_widget
from hooks.namespaces import Namespace
from hooks.numbers import decimal
from hooks.quantities import Quantity, QuantityError, named_example

INPUTS = "grpo_examples/practice_examples.toml"
USER = "the GRPO-in-practice chapter (hooks/practice_values.py)"
KL_CALL = "grpo_examples.load_practice_examples().kl"


def _kl() -> KlExample:
    return gx.load_practice_examples().kl


def _log_ratios() -> NDArray[np.float64]:
    kl = _kl()
    return gx.log_ratio(kl.pi_theta, kl.pi_ref)


def _negative_token() -> int:
    """The first token whose k1 is negative (the reference finds it likelier than the policy does)."""
    negative = np.flatnonzero(gx.k1(_log_ratios()) < 0)
    if negative.size == 0:
        raise QuantityError(f"no token of [kl] in {INPUTS} has a negative k1: rewrite the sentence that shows one")
    return int(negative[0])


def _estimate(name: str, token: Callable[[], int], signed: bool = False) -> Callable[[], Quantity]:
    def value() -> Quantity:
        index = token()
        estimate = float(gx.ESTIMATORS[name](_log_ratios())[index])
        call = f"grpo_examples.{name}(grpo_examples.log_ratio(kl.pi_theta, kl.pi_ref))[{index}]"
        return Quantity(estimate, call, signed=signed)

    return value


def _over_distribution(function: str, name: str) -> Callable[[], Quantity]:
    def value() -> Quantity:
        kl = _kl()
        call = getattr(gx, function)
        return Quantity(
            call(gx.ESTIMATORS[name], kl.pi_theta, kl.pi_ref),
            f"grpo_examples.{function}(grpo_examples.{name}, kl.pi_theta, kl.pi_ref)",
        )

    return value


def _monte_carlo(name: str) -> Callable[[], Quantity]:
    def value() -> Quantity:
        kl = _kl()
        estimate = gx.monte_carlo_estimate(gx.ESTIMATORS[name], kl.pi_theta, kl.pi_ref, kl.samples, kl.seed)
        call = (
            f"grpo_examples.monte_carlo_estimate(grpo_examples.{name}, kl.pi_theta, kl.pi_ref, {kl.samples}, {kl.seed})"
        )
        return Quantity(estimate, call)

    return value


def _first() -> int:
    return 0


KL_VALUES: dict[str, Callable[[], Quantity]] = {
    "kl.context": lambda: Quantity(_kl().context, f"{INPUTS}: [kl] context"),
    "kl.token": lambda: Quantity(_kl().tokens[0], f"{INPUTS}: [kl] tokens[0]"),
    "kl.tokens": lambda: Quantity(len(_kl().tokens), f"{INPUTS}: [kl] tokens"),
    "kl.pi-theta": lambda: Quantity(_kl().pi_theta[0], f"{INPUTS}: [kl] pi_theta[0]"),
    "kl.pi-ref": lambda: Quantity(_kl().pi_ref[0], f"{INPUTS}: [kl] pi_ref[0]"),
    "kl.ratio": lambda: Quantity(
        float(gx.reference_ratio(_kl().pi_theta[0], _kl().pi_ref[0])),
        "grpo_examples.reference_ratio(kl.pi_theta[0], kl.pi_ref[0])",
    ),
    "kl.log-ratio": lambda: Quantity(
        float(_log_ratios()[0]), "grpo_examples.log_ratio(kl.pi_theta, kl.pi_ref)[0]", signed=True
    ),
    "kl.k1": _estimate("k1", _first, signed=True),
    "kl.k2": _estimate("k2", _first),
    "kl.k3": _estimate("k3", _first),
    "kl.negative.token": lambda: Quantity(_kl().tokens[_negative_token()], f"{INPUTS}: the first token with k1 < 0"),
    "kl.negative.k1": _estimate("k1", _negative_token, signed=True),
    "kl.negative.k3": _estimate("k3", _negative_token),
    "kl.negative.count": lambda: Quantity(
        int(np.count_nonzero(gx.k1(_log_ratios()) < 0)), "tokens whose grpo_examples.k1(...) is below 0"
    ),
    "kl.exact": lambda: Quantity(
        gx.exact_kl(_kl().pi_theta, _kl().pi_ref), "grpo_examples.exact_kl(kl.pi_theta, kl.pi_ref)"
    ),
    "kl.samples": lambda: Quantity(_kl().samples, f"{INPUTS}: [kl] samples"),
    "kl.seed": lambda: Quantity(_kl().seed, f"{INPUTS}: [kl] seed"),
}
for _name in gx.ESTIMATORS:
    KL_VALUES[f"kl.mean.{_name}"] = _over_distribution("expected_estimate", _name)
    KL_VALUES[f"kl.std.{_name}"] = _over_distribution("estimate_std", _name)
    KL_VALUES[f"kl.mc.{_name}"] = _monte_carlo(_name)


def _loss() -> LossExample:
    return gx.load_practice_examples().loss


def _loss_index(outcome: str) -> int:
    rewards = list(_loss().rewards)
    if gx.OUTCOMES[outcome] not in rewards:
        raise QuantityError(f"no response of [loss] in {INPUTS} is {outcome}")
    return rewards.index(gx.OUTCOMES[outcome])


def _weights(key: str) -> NDArray[np.float64]:
    loss = _loss()
    return gx.AGGREGATIONS[key].weights(loss.lengths, loss.max_length)


def _coefficient(key: str, outcome: str, whole: bool) -> Callable[[], Quantity]:
    def value() -> Quantity:
        loss, index = _loss(), _loss_index(outcome)
        advantages = gx.advantages(loss.rewards)
        if whole:
            found = gx.response_coefficients(advantages, _weights(key), loss.lengths)
            call = "grpo_examples.response_coefficients"
        else:
            found = gx.token_coefficients(advantages, _weights(key))
            call = "grpo_examples.token_coefficients"
        return Quantity(
            float(found[index]), f"{call}(advantages, AGGREGATIONS[{key!r}].weights(...))[{index}]", signed=True
        )

    return value


LOSS_VALUES: dict[str, Callable[[], Quantity]] = {
    "loss.max-length": lambda: Quantity(_loss().max_length, f"{INPUTS}: [loss] max_length"),
    "loss.per-sequence.ratio": lambda: Quantity(
        # as a fraction, so that a whole ratio prints as words: "four times"
        Fraction(
            gx.token_weight_ratio(_weights("per-sequence"), _loss_index("correct"), _loss_index("wrong"))
        ).limit_denominator(1000),
        "grpo_examples.token_weight_ratio(grpo_examples.per_sequence_weights(lengths), correct, wrong)",
    ),
}


def _length(outcome: str) -> Callable[[], Quantity]:
    return lambda: Quantity(_loss().lengths[_loss_index(outcome)], f"{INPUTS}: [loss] lengths")


def _loss_advantage(outcome: str) -> Callable[[], Quantity]:
    return lambda: Quantity(
        float(gx.advantages(_loss().rewards)[_loss_index(outcome)]),
        "grpo_examples.advantages(loss.rewards)",
        signed=True,
    )


for _outcome in gx.OUTCOMES:
    LOSS_VALUES[f"loss.length.{_outcome}"] = _length(_outcome)
    LOSS_VALUES[f"loss.advantage.{_outcome}"] = _loss_advantage(_outcome)
    for _key in gx.AGGREGATIONS:
        LOSS_VALUES[f"loss.{_key}.{_outcome}"] = _coefficient(_key, _outcome, whole=False)
        LOSS_VALUES[f"loss.{_key}.total.{_outcome}"] = _coefficient(_key, _outcome, whole=True)


def _clip() -> ClipExample:
    return gx.load_practice_examples().clip


def _easy_correct_advantage() -> float:
    """The advantage of a correct response of the easy group: the token of the clip example is in one."""
    rewards = named_example("easy", USER).rewards
    return float(gx.advantages(rewards)[rewards.index(gx.OUTCOMES["correct"])])


@dataclass(frozen=True)
class _Clipped:
    """The clip example's token under one clip range: clip(rho, ...), rho A, clip(rho, ...) A and their min."""

    ratio: float
    unclipped: float
    clipped: float
    value: float


def _surrogate(eps_low: float, eps_high: float) -> _Clipped:
    ratio, advantage = _clip().ratio, _easy_correct_advantage()
    return _Clipped(
        float(gx.clipped_ratio(ratio, eps_low, eps_high)),
        float(gx.unclipped_term(ratio, advantage)),
        float(gx.clipped_term(ratio, advantage, eps_low, eps_high)),
        float(gx.clipped_surrogate(ratio, advantage, eps_low, eps_high)),
    )


CLIP_VALUES: dict[str, Callable[[], Quantity]] = {
    "clip.eps": lambda: Quantity(gx.SYMMETRIC_EPS, "grpo_examples.SYMMETRIC_EPS"),
    "clip.eps-low": lambda: Quantity(gx.DAPO_EPS_LOW, "grpo_examples.DAPO_EPS_LOW"),
    "clip.eps-high": lambda: Quantity(gx.DAPO_EPS_HIGH, "grpo_examples.DAPO_EPS_HIGH"),
    "clip.ratio": lambda: Quantity(_clip().ratio, f"{INPUTS}: [clip] ratio"),
    "clip.symmetric": lambda: Quantity(
        _surrogate(gx.SYMMETRIC_EPS, gx.SYMMETRIC_EPS).value,
        "grpo_examples.clipped_surrogate(ratio, A, SYMMETRIC_EPS)",
    ),
    "clip.higher": lambda: Quantity(
        _surrogate(gx.DAPO_EPS_LOW, gx.DAPO_EPS_HIGH).value,
        "grpo_examples.clipped_surrogate(ratio, A, DAPO_EPS_LOW, DAPO_EPS_HIGH)",
    ),
    "clip.unlikely": lambda: Quantity(min(_clip().probabilities), f"{INPUTS}: [clip] probabilities"),
    "clip.ceiling.symmetric": lambda: Quantity(
        gx.probability_ceiling(min(_clip().probabilities), gx.SYMMETRIC_EPS),
        "grpo_examples.probability_ceiling(unlikely, SYMMETRIC_EPS)",
    ),
    "clip.ceiling.higher": lambda: Quantity(
        gx.probability_ceiling(min(_clip().probabilities), gx.DAPO_EPS_HIGH),
        "grpo_examples.probability_ceiling(unlikely, DAPO_EPS_HIGH)",
    ),
}


def _book_groups() -> dict[str, list[float]]:
    return {name: example.rewards for name, example in gx.load_examples().items()}


DYNAMIC_VALUES: dict[str, Callable[[], Quantity]] = {
    "dynamic.groups": lambda: Quantity(len(_book_groups()), "grpo_examples.load_examples()"),
    "dynamic.kept": lambda: Quantity(len(gx.kept_groups(_book_groups())), "grpo_examples.kept_groups(book groups)"),
}


def _tex_probability(value: float) -> str:
    return decimal(value).tex()


def _relation(*values: float) -> str:
    return "=" if all(decimal(v).exact for v in values) else r"\approx"


def k3_tex() -> str:
    """k3 = pi_ref/pi_theta - log(pi_ref/pi_theta) - 1, filled in for the worked token (two lines)."""
    kl = _kl()
    theta, ref = kl.pi_theta[0], kl.pi_ref[0]
    r, log_r = float(gx.reference_ratio(theta, ref)), float(_log_ratios()[0])
    k3 = float(gx.k3(log_r))
    return (
        r"\begin{aligned} k_3 &= \frac{\pi_{\text{ref}}}{\pi_\theta} - \log\frac{\pi_{\text{ref}}}{\pi_\theta} - 1 "
        r"\\ &= "
        rf"\frac{{{_tex_probability(ref)}}}{{{_tex_probability(theta)}}} - "
        rf"\log\frac{{{_tex_probability(ref)}}}{{{_tex_probability(theta)}}} - 1 \\ &{_relation(r, log_r)} "
        rf"{decimal(r).tex()} - ({decimal(log_r).tex()}) - 1 {_relation(k3)} {decimal(k3).tex()} \end{{aligned}}"
    )


def _lines(terms: list[str], per_line: int = 2) -> str:
    """Terms joined with '+', a line break after every `per_line` of them (for an aligned display)."""
    rows = [" + ".join(terms[i : i + per_line]) for i in range(0, len(terms), per_line)]
    return r" \\ &\quad + ".join(rows)


def exact_kl_tex() -> str:
    """D_KL = sum_x pi_theta(x) log(pi_theta(x)/pi_ref(x)), term by term, two terms a line."""
    kl = _kl()
    terms = [
        rf"{_tex_probability(p)}\log\frac{{{_tex_probability(p)}}}{{{_tex_probability(q)}}}"
        for p, q in zip(kl.pi_theta, kl.pi_ref, strict=True)
    ]
    total = gx.exact_kl(kl.pi_theta, kl.pi_ref)
    return (
        r"\begin{aligned} D_{\text{KL}}(\pi_\theta \,\Vert\, \pi_{\text{ref}}) &= \sum_x \pi_\theta(x) "
        rf"\log\frac{{\pi_\theta(x)}}{{\pi_{{\text{{ref}}}}(x)}} \\ &= {_lines(terms)} \\ "
        rf"&{_relation(total)} {decimal(total).tex()} \end{{aligned}}"
    )


def mean_k3_tex() -> str:
    """E_{x ~ pi_theta}[k3] = sum_x pi_theta(x) k3(x), term by term, two terms a line."""
    kl = _kl()
    estimates = gx.k3(_log_ratios())
    terms = [
        rf"{_tex_probability(p)} \times {decimal(float(k)).tex()}" for p, k in zip(kl.pi_theta, estimates, strict=True)
    ]
    mean = gx.expected_estimate(gx.k3, kl.pi_theta, kl.pi_ref)
    return (
        rf"\begin{{aligned}} \mathbb{{E}}_{{x \sim \pi_\theta}}[k_3] &= \sum_x \pi_\theta(x)\, k_3(x) \\ "
        rf"&{_relation(*map(float, estimates))} {_lines(terms)} \\ "
        rf"&{_relation(mean)} {decimal(mean).tex()} \end{{aligned}}"
    )


def clip_tex(eps_low: str, eps_high: str, values: tuple[float, float]) -> str:
    """min(rho A, clip(rho, 1 - eps_low, 1 + eps_high) A), filled in with the clip example's token (two lines)."""
    s = _surrogate(*values)
    ratio, advantage = decimal(_clip().ratio).tex(), decimal(_easy_correct_advantage()).tex()
    return (
        rf"\begin{{aligned}} &\min\big(\rho A,\ \operatorname{{clip}}(\rho, 1-{eps_low}, 1+{eps_high})\, A\big) \\ "
        rf"&\quad = \min({ratio} \times {advantage},\ {decimal(s.ratio).tex()} \times {advantage}) "
        rf"{_relation(s.unclipped, s.clipped)} \min({decimal(s.unclipped).tex()},\ {decimal(s.clipped).tex()}) "
        rf"{_relation(s.value)} {decimal(s.value).tex()} \end{{aligned}}"
    )


FORMULAS: dict[str, Callable[[], str]] = {
    "kl.k3": k3_tex,
    "kl.exact": exact_kl_tex,
    "kl.mean.k3": mean_k3_tex,
    "clip.symmetric": lambda: clip_tex(r"\epsilon", r"\epsilon", (gx.SYMMETRIC_EPS, gx.SYMMETRIC_EPS)),
    "clip.higher": lambda: clip_tex(
        r"\epsilon_{\text{low}}", r"\epsilon_{\text{high}}", (gx.DAPO_EPS_LOW, gx.DAPO_EPS_HIGH)
    ),
}


def _close(a: float, b: float) -> bool:
    return abs(a - b) <= 1e-12 * max(1.0, abs(b))


def _unbiased() -> bool:
    kl = _kl()
    exact = gx.exact_kl(kl.pi_theta, kl.pi_ref)
    return all(_close(gx.expected_estimate(gx.ESTIMATORS[n], kl.pi_theta, kl.pi_ref), exact) for n in ("k1", "k3"))


def _std(name: str) -> float:
    return gx.estimate_std(gx.ESTIMATORS[name], _kl().pi_theta, _kl().pi_ref)


def _dropping_std_shrinks() -> bool:
    groups = [r for r in _book_groups().values() if gx.dynamic_sampling_keeps(r)]
    return all(np.max(np.abs(gx.dr_grpo_advantages(r))) < np.max(np.abs(gx.advantages(r))) for r in groups)


def _difficulty_bias() -> bool:
    split = gx.std_scale(named_example("split", USER).rewards)
    return all(gx.std_scale(named_example(name, USER).rewards) > split for name in ("easy", "hard"))


def _per_sequence_favours_short_right() -> bool:
    loss = _loss()
    short_right = loss.lengths[_loss_index("correct")] < loss.lengths[_loss_index("wrong")]
    weights = _weights("per-sequence")
    return short_right and weights[_loss_index("wrong")] < weights[_loss_index("correct")]


def _token_level_is_even() -> bool:
    weights = _weights("token-level")
    return bool(np.all(weights == weights[0]))


# Claims the prose makes: `<!-- grpo:check practice <claim> -->` prints nothing, and fails the build if
# the numbers say otherwise.
CLAIMS: dict[str, Callable[[], bool]] = {
    "solved-is-all-right": lambda: set(named_example("solved", USER).rewards) == {gx.OUTCOMES["correct"]},
    "k1-goes-negative": lambda: bool(np.any(gx.k1(_log_ratios()) < 0)),
    "k3-never-negative": lambda: bool(np.all(gx.k3(_log_ratios()) >= 0)),
    "k1-and-k3-unbiased": _unbiased,
    "k2-falls-short": lambda: (
        gx.expected_estimate(gx.k2, _kl().pi_theta, _kl().pi_ref) < gx.exact_kl(_kl().pi_theta, _kl().pi_ref)
    ),
    "k3-spreads-less": lambda: _std("k3") < _std("k1"),
    "dropping-std-shrinks": _dropping_std_shrinks,
    "difficulty-bias": _difficulty_bias,
    "per-sequence-favours-short-right": _per_sequence_favours_short_right,
    "token-level-is-even": _token_level_is_even,
    "symmetric-clip-stops": lambda: bool(
        gx.clip_binds(_clip().ratio, _easy_correct_advantage(), gx.SYMMETRIC_EPS, gx.SYMMETRIC_EPS)
    ),
    "clip-higher-lets-through": lambda: (
        not gx.clip_binds(_clip().ratio, _easy_correct_advantage(), gx.DAPO_EPS_LOW, gx.DAPO_EPS_HIGH)
    ),
    "ceiling-binds-unlikely-only": lambda: (
        gx.probability_ceiling(max(_clip().probabilities), gx.SYMMETRIC_EPS) == 1.0
        and gx.probability_ceiling(min(_clip().probabilities), gx.DAPO_EPS_HIGH) < 1.0
    ),
}

PRACTICE = Namespace(
    "practice",
    "the GRPO-in-practice examples",
    "hooks/practice_values.py",
    {**KL_VALUES, **LOSS_VALUES, **CLIP_VALUES, **DYNAMIC_VALUES},
    formulas=FORMULAS,
    claims=CLAIMS,
    widgets={"kl": kl_widget},
)
