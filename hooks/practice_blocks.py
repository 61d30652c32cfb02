"""The GRPO-in-practice chapter's tables: `<!-- grpo:block kl-estimators -->`, `loss-aggregation`, `clip-higher`.

They take no example: their inputs are the tables of grpo_examples/practice_examples.toml. Each one is
followed by its "How these numbers were computed" note.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import grpo_examples as gx
from grpo_examples.kl_estimators import Estimator
from grpo_examples.loss_aggregation import TRL_READ, VERL_READ
from hooks.blocks import BlockError
from hooks.markdown_text import escape_markdown
from hooks.numbers import decimal

INPUTS = "`grpo_examples/practice_examples.toml`"


def _no_examples(examples: Sequence[gx.Example], block: str) -> None:
    if examples:
        raise BlockError(f"block {block!r} takes no example (its inputs are in {INPUTS}), got {len(examples)}")


def _table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    return "\n".join(lines + ["| " + " | ".join(row) + " |" for row in rows])


def _note(calls: Sequence[str], inputs: str) -> str:
    return "\n".join(
        [
            '??? abstract "How these numbers were computed"',
            "    Computed when the book was built, by:",
            "",
            *[f"    - `{call}`" for call in calls],
            "",
            f"    {inputs}",
        ]
    )


def kl_estimators(examples: Sequence[gx.Example]) -> str:
    """Each candidate token's k1, k2, k3; their means and spreads under pi_theta; a Monte-Carlo average; the KL."""
    _no_examples(examples, "kl-estimators")
    kl = gx.load_practice_examples().kl
    log_r = gx.log_ratio(kl.pi_theta, kl.pi_ref)
    ratios = gx.reference_ratio(kl.pi_theta, kl.pi_ref)
    names = ("k1", "k2", "k3")
    rows = []
    for token, theta, ref, r, x in zip(kl.tokens, kl.pi_theta, kl.pi_ref, ratios, log_r, strict=True):
        estimates = [decimal(float(gx.ESTIMATORS[n](x))).prose(signed=n == "k1") for n in names]
        cells = [decimal(theta).prose(), decimal(ref).prose(), decimal(float(r)).prose()]
        rows.append([f"“{escape_markdown(token)}”", *cells, *estimates])

    def summary(label: str, function: Callable[[Estimator], float]) -> list[str]:
        return [label, "", "", "", *(decimal(function(gx.ESTIMATORS[n])).prose() for n in names)]

    rows.append(summary("**mean under π<sub>θ</sub>**", lambda k: gx.expected_estimate(k, kl.pi_theta, kl.pi_ref)))
    rows.append(summary("std under π<sub>θ</sub>", lambda k: gx.estimate_std(k, kl.pi_theta, kl.pi_ref)))
    rows.append(
        summary(
            f"mean of {kl.samples} samples",
            lambda k: gx.monte_carlo_estimate(k, kl.pi_theta, kl.pi_ref, kl.samples, kl.seed),
        )
    )
    header = [
        "token x",
        "π<sub>θ</sub>(x)",
        "π<sub>ref</sub>(x)",
        "r = π<sub>ref</sub> / π<sub>θ</sub>",
        "k1",
        "k2",
        "k3",
    ]
    exact = decimal(gx.exact_kl(kl.pi_theta, kl.pi_ref))
    after = (
        "The exact divergence the estimators estimate: D<sub>KL</sub>(π<sub>θ</sub> ‖ π<sub>ref</sub>) "
        f"{'= ' if exact.exact else ''}{exact.prose()}."
    )
    calls = [
        "grpo_examples.log_ratio(pi_theta, pi_ref), then grpo_examples.k1, k2 and k3 of it",
        "grpo_examples.expected_estimate(k, pi_theta, pi_ref) and grpo_examples.estimate_std(k, pi_theta, pi_ref)",
        f"grpo_examples.monte_carlo_estimate(k, pi_theta, pi_ref, {kl.samples}, seed={kl.seed})",
        "grpo_examples.exact_kl(pi_theta, pi_ref)",
    ]
    inputs = f"The tokens and both distributions are `[kl]` in {INPUTS}, after “{escape_markdown(kl.context)}”."
    return _table(header, rows) + "\n\n" + after + "\n\n" + _note(calls, inputs)


def loss_aggregation(examples: Sequence[gx.Example]) -> str:
    """How each aggregation weighs a token of the short and of the long response, and each response whole."""
    _no_examples(examples, "loss-aggregation")
    loss = gx.load_practice_examples().loss
    advantages = gx.advantages(loss.rewards)
    responses = [
        f"o{'₁₂'[i]} ({'right' if r == gx.OUTCOMES['correct'] else 'wrong'}, {n} tokens)"
        for i, (r, n) in enumerate(zip(loss.rewards, loss.lengths, strict=True))
    ]
    if len(responses) != 2:
        raise BlockError(f"block 'loss-aggregation' shows two responses; [loss] in {INPUTS} has {len(responses)}")
    normalisers = {"per-sequence": "1 / (G · \\|oᵢ\\|)", "token-level": "1 / Σⱼ \\|oⱼ\\|", "constant": "1 / (G · L)"}
    rows = []
    for key, aggregation in gx.AGGREGATIONS.items():
        weights = aggregation.weights(loss.lengths, loss.max_length)
        per_token = gx.token_coefficients(advantages, weights)
        whole = gx.response_coefficients(advantages, weights, loss.lengths)
        rows.append(
            [
                f"{aggregation.name} ({escape_markdown(aggregation.paper.split(',')[0])})",
                normalisers[key],
                *(decimal(float(c)).prose(signed=True) for c in per_token),
                *(decimal(float(c)).prose(signed=True) for c in whole),
            ]
        )
    header = [
        "aggregation",
        "weight wᵢ of a token",
        *(f"a token of {r}" for r in responses),
        *(f"all of o{'₁₂'[i]}" for i in range(2)),
    ]
    intro = (
        f"G = {len(loss.lengths)} responses; GRPO advantages "
        + ", ".join(f"A{'₁₂'[i]} = {decimal(float(a)).prose(signed=True)}" for i, a in enumerate(advantages))
        + f"; Dr. GRPO's constant L = {loss.max_length} tokens. Each cell is what multiplies "
        "∇ log π<sub>θ</sub> of a token (or the sum over a response) at ρ = 1: Aᵢ wᵢ."
    )
    trainers = "\n".join(
        f"- {a.name}: {escape_markdown(a.paper)}; "
        + ", ".join(
            f"{escape_markdown(trainer)} `{setting}`" + (f" ({escape_markdown(remark)})" if remark else "")
            for trainer, setting, remark in a.settings
        )
        + "."
        for a in gx.AGGREGATIONS.values()
    )
    calls = [
        "grpo_examples.advantages(rewards)",
        "grpo_examples.AGGREGATIONS[key].weights(lengths, L)",
        "grpo_examples.token_coefficients(advantages, weights)",
        "grpo_examples.response_coefficients(advantages, weights, lengths)",
    ]
    inputs = (
        f"The lengths, rewards and L are `[loss]` in {INPUTS}. The trainer settings were read in "
        f"{escape_markdown(TRL_READ)} and {escape_markdown(VERL_READ)}."
    )
    return intro + "\n\n" + _table(header, rows) + "\n\n" + trainers + "\n\n" + _note(calls, inputs)


def clip_higher(examples: Sequence[gx.Example]) -> str:
    """The highest probability a token with a positive advantage can reach before the upper clip stops it."""
    _no_examples(examples, "clip-higher")
    clip = gx.load_practice_examples().clip

    def ceiling(p: float, eps: float) -> str:
        value = gx.probability_ceiling(p, eps)
        return "1.0 (the clip never binds)" if value == 1.0 else decimal(value).prose()

    rows = [
        [decimal(p).prose(), ceiling(p, gx.SYMMETRIC_EPS), ceiling(p, gx.DAPO_EPS_HIGH)]
        for p in sorted(clip.probabilities)
    ]
    header = [
        "π<sub>θold</sub>(token)",
        f"highest π<sub>θ</sub>, clip at 1 + ε (ε = {decimal(gx.SYMMETRIC_EPS).prose()})",
        f"highest π<sub>θ</sub>, clip-higher (ε<sub>high</sub> = {decimal(gx.DAPO_EPS_HIGH).prose()})",
    ]
    calls = [
        "grpo_examples.probability_ceiling(pi_old, SYMMETRIC_EPS)",
        "grpo_examples.probability_ceiling(pi_old, DAPO_EPS_HIGH)",
    ]
    inputs = (
        f"The probabilities are `[clip]` in {INPUTS} (DAPO's own illustration); ε and ε_high are "
        "`grpo_examples.SYMMETRIC_EPS` and `DAPO_EPS_HIGH`."
    )
    return _table(header, rows) + "\n\n" + _note(calls, inputs)


PRACTICE_BLOCKS: dict[str, Callable[[Sequence[gx.Example]], str]] = {
    "kl-estimators": kl_estimators,
    "loss-aggregation": loss_aggregation,
    "clip-higher": clip_higher,
}
