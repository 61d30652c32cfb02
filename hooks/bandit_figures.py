"""The policy-gradient chapter's blocks: the bandit's tables and plots, from grpo_examples/bandit.toml.

`<!-- grpo:block bandit-estimates -->` and friends take no example: the bandit is the one in the settings
file. Each block ends with its "How these numbers were computed" note.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from html import escape

import numpy as np
from numpy.typing import NDArray

import grpo_examples as gx
from grpo_examples import reinforce
from grpo_examples.bandit_simulation import histogram
from hooks import svg
from hooks.bandit_values import baseline_value, current_bandit, current_simulation
from hooks.blocks import BlockError
from hooks.markdown_text import escape_markdown
from hooks.numbers import decimal

HISTOGRAM_BIN = 0.05  # reward per logit unit: fine enough to show the spread of a group's estimate
CURVE_POINTS = 81  # baselines at which the variance curve is drawn, from 0 to the largest reward
BASELINE_LABELS = {"none": "no baseline, b = 0", "expected": "b = J", "leave-one-out": "leave-one-out (RLOO)"}


def _no_examples(examples: Sequence[gx.Example], block: str) -> None:
    if examples:
        raise BlockError(f"block {block!r} shows the bandit and takes no example, got {len(examples)}")


def _note(calls: Sequence[str], what: str = "these numbers were") -> str:
    lines = [
        f'??? abstract "How {what} computed"',
        "    Computed when the book was built, on the settings in `grpo_examples/bandit.toml` "
        "(`bandit = load_bandit()`), by:",
        "",
        *[f"    - `{call}`" for call in calls],
    ]
    return "\n".join(lines)


def _table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    return "\n".join(lines + ["| " + " | ".join(row) + " |" for row in rows])


def _number(value: float, signed: bool = False) -> str:
    return decimal(value).prose(signed=signed)


def _vector(values: Sequence[float] | NDArray[np.float64]) -> str:
    """(+0.7, −0.4, −0.2, −0.1): one signed entry per logit, kept on one line in a table cell."""
    entries = ", ".join(_number(float(v), signed=True) for v in values)
    return f'<span class="grpo-vector">({entries})</span>'


def _equals(value: float) -> str:
    """'= 0.228', or '≈ 0.2257' for a rounded value: what follows a name in a label."""
    shown = decimal(value)
    return ("= " if shown.exact else "") + shown.prose()


def bandit_menu(examples: Sequence[gx.Example]) -> str:
    """The prompt, its candidate responses, the checker's rewards and the policy's probabilities."""
    _no_examples(examples, "bandit-menu")
    bandit = current_bandit()
    rows = [
        [
            str(c),
            escape_markdown(text),
            f"{accuracy:g}",
            f"{form:g}",
            f"{accuracy + form:g}",
            _number(probability),
        ]
        for c, (text, accuracy, form, probability) in enumerate(
            zip(bandit.texts, bandit.accuracy, bandit.format, bandit.probabilities, strict=True), start=1
        )
    ]
    header = ["$`c`$", "candidate response", "accuracy", "format", "reward $`r(c)`$", r"$`\pi_\theta(c \mid q)`$"]
    intro = f"**{escape_markdown(bandit.question)}** (reference answer: {escape_markdown(bandit.reference)})"
    calls = ["grpo_examples.verify(text, answer) for each candidate: accuracy, format", "bandit.probabilities"]
    return intro + "\n\n" + _table(header, rows) + "\n\n" + _note(calls)


def _estimates_table(name: str) -> str:
    """One baseline's table: each candidate's weight r(c) − b, its one-sample estimate and squared miss, then
    the π-weighted averages (the true gradient and the variance)."""
    bandit = current_bandit()
    policy, rewards, b = bandit.policy, bandit.rewards, baseline_value(name)
    estimates = reinforce.estimates(policy, rewards, b)
    misses = reinforce.squared_misses(policy, rewards, b)
    rows = [
        [
            str(c + 1),
            _number(float(policy[c])),
            f"{rewards[c]:g}" if name == "none" else _number(float(rewards[c] - b), signed=True),
            _vector(estimates[c]),
            _number(float(misses[c])),
        ]
        for c in range(policy.size)
    ]
    rows.append(
        [
            "**average**",
            "",
            "",
            _vector(reinforce.estimator_mean(policy, rewards, b)),
            "**" + _number(reinforce.estimator_variance(policy, rewards, b)) + "**",
        ]
    )
    header = [
        "$`c`$",
        r"$`\pi_\theta(c \mid q)`$",
        "weight $`r(c) - b`$",
        r"estimate $`\hat{g}(c)`$",
        r"squared miss $`\lVert \hat{g}(c) - \nabla_\theta J \rVert^2`$",
    ]
    return _table(header, rows)


def bandit_estimates(examples: Sequence[gx.Example]) -> str:
    """The one-sample estimate each candidate gives, without a baseline and with b = J, side by side in two
    tables; their π-weighted averages are the true gradient (both) and the two variances."""
    _no_examples(examples, "bandit-estimates")
    bandit = current_bandit()
    expected = decimal(baseline_value("expected"))
    gradient = _vector(reinforce.true_gradient(bandit.policy, bandit.rewards))
    parts = [
        "**Without a baseline** ($`b = 0`$): the weight is the reward.",
        _estimates_table("none"),
        f"**With the expected reward as the baseline** ($`b = J {expected.relation} {expected.tex()}`$):",
        _estimates_table("expected"),
        "Each row is what one sample would say if the policy drew candidate $`c`$: the estimate, its weight "
        "times the score of $`c`$, and its squared distance from the true gradient "
        f"{gradient}. The last row of each table averages the column with the weights "
        "$`\\pi_\\theta(c \\mid q)`$: both estimates average to the true gradient, and the squared misses "
        "average to each estimate's variance.",
        _note(
            [
                "grpo_examples.reinforce.estimates(bandit.policy, bandit.rewards, b), for b = 0 and b = J",
                "grpo_examples.reinforce.squared_misses(bandit.policy, bandit.rewards, b)",
                "grpo_examples.reinforce.estimator_mean(...) and estimator_variance(...)",
            ]
        ),
    ]
    return "\n\n".join(parts)


def variance_curve(examples: Sequence[gx.Example]) -> str:
    """Var(b) for constant baselines from 0 to the largest reward: a parabola, with b = 0 and b = J marked."""
    _no_examples(examples, "bandit-variance-curve")
    bandit = current_bandit()
    policy, rewards = bandit.policy, bandit.rewards
    top = float(rewards.max())
    baselines = np.linspace(0.0, top, CURVE_POINTS).tolist()
    variances = [reinforce.estimator_variance(policy, rewards, b) for b in baselines]
    expected, optimal = baseline_value("expected"), baseline_value("optimal")
    at = {name: reinforce.estimator_variance(policy, rewards, baseline_value(name)) for name in ("none", "expected")}
    least = reinforce.estimator_variance(policy, rewards, optimal)
    y_ticks = svg.ticks(0, max(variances), 4)
    if y_ticks[-1] < max(variances):  # the axis ends on a tick above the curve's highest point
        y_ticks.append(y_ticks[-1] + (y_ticks[1] - y_ticks[0]))
    y_top = y_ticks[-1]
    chart = svg.line_chart(
        "bandit-variance",
        "Variance of the one-sample REINFORCE estimate, for each constant baseline b",
        f"Line chart of a parabola. Without a baseline the variance is {_number(at['none'])}; at b = J = "
        f"{_number(expected)} it is {_number(at['expected'])}; its minimum, {_number(least)}, is at "
        f"b* = {_number(optimal)}.",
        svg.Axis("baseline b (reward)", 0, top, svg.ticks(0, top, 4)),
        svg.Axis("variance Var(b) (reward²)", 0, y_top, y_ticks),
        [svg.Series("Var(b), summed over the logits", baselines, variances, 1)],
        reference=(least, f"least {_equals(least)}, at b* {_equals(optimal)}"),
        marks=[
            svg.Mark(0.0, at["none"], f"no baseline: Var {_equals(at['none'])}", 2),
            svg.Mark(expected, at["expected"], f"b = J: Var {_equals(at['expected'])}", 2),
        ],
    )
    caption = (
        "The variance of the estimate (r − b) ∇log π, computed exactly for every constant baseline b from 0 to the "
        "largest reward. It is a parabola: subtracting the expected reward J lands close to its lowest point, "
        "and any b leaves the average estimate unchanged."
    )
    calls = [
        f"grpo_examples.reinforce.estimator_variance(bandit.policy, bandit.rewards, b) for {CURVE_POINTS} values "
        f"of b from 0 to {top:g}",
        "grpo_examples.reinforce.optimal_baseline(bandit.policy, bandit.rewards)",
    ]
    return svg.figure(chart, escape(caption)) + "\n\n" + _note(calls, "this was")


def simulation_histogram(examples: Sequence[gx.Example]) -> str:
    """The simulated groups' estimates of the best candidate's gradient entry, without and with b = J."""
    _no_examples(examples, "bandit-simulation")
    bandit, simulation = current_bandit(), current_simulation()
    best = bandit.best
    names = ("none", "expected")
    values = np.concatenate([simulation.estimates[n][:, best] for n in names])
    low = math.floor(float(values.min()) / HISTOGRAM_BIN) * HISTOGRAM_BIN
    high = (math.floor(float(values.max()) / HISTOGRAM_BIN) + 1) * HISTOGRAM_BIN
    edges = np.linspace(low, high, round((high - low) / HISTOGRAM_BIN) + 1)
    exact = float(reinforce.true_gradient(bandit.policy, bandit.rewards)[best])
    panels = [
        svg.Panel(BASELINE_LABELS[n], edges.tolist(), histogram(simulation, n, best, edges).tolist(), style)
        for n, style in zip(names, (3, 1), strict=True)
    ]
    spreads = "; ".join(
        f"{BASELINE_LABELS[n]}: from {_number(float(simulation.estimates[n][:, best].min()))} to "
        f"{_number(float(simulation.estimates[n][:, best].max()))}"
        for n in names
    )
    chart = svg.histogram_stack(
        "bandit-simulation",
        f"Estimates of the gradient for candidate {best + 1}'s logit, from {bandit.batches} simulated groups",
        f"Two histograms, both centred on the true value {_number(exact, signed=True)}. {spreads}.",
        svg.Axis(f"estimate of ∂J/∂θ{best + 1} (reward)", low, high, svg.ticks(low, high, 5)),
        "share of groups (%)",
        panels,
        marker=(exact, f"true {_number(exact, signed=True)}"),
    )
    caption = (
        f"Each of {bandit.batches} groups of G = {bandit.group_size} samples gives one estimate of how much to "
        f"raise candidate {best + 1}'s logit (the entry for that logit of the averaged estimate); the bars count "
        f"them in bins {HISTOGRAM_BIN:g} wide. Both sets of estimates use the same samples and centre on the "
        "dashed line, the true gradient; subtracting the baseline narrows them. Each panel is scaled to its own "
        "tallest bar."
    )
    calls = [
        "grpo_examples.bandit_simulation.simulate(bandit) (seeded by bandit.seed)",
        f"grpo_examples.bandit_simulation.histogram(simulation, baseline, bandit.best, bins {HISTOGRAM_BIN:g} wide)",
        "grpo_examples.reinforce.true_gradient(bandit.policy, bandit.rewards)[bandit.best]",
    ]
    return svg.figure(chart, escape(caption)) + "\n\n" + _note(calls, "this was")


def simulation_table(examples: Sequence[gx.Example]) -> str:
    """Simulated against exact: the mean of the best logit's entry and the variance of a group's estimate."""
    _no_examples(examples, "bandit-simulation-table")
    bandit, simulation = current_bandit(), current_simulation()
    policy, rewards, best = bandit.policy, bandit.rewards, bandit.best
    exact_mean = float(reinforce.true_gradient(policy, rewards)[best])
    rows = []
    for name in ("none", "expected", "leave-one-out"):
        constant = name != "leave-one-out"
        exact_variance = (
            _number(reinforce.group_variance(policy, rewards, baseline_value(name), bandit.group_size))
            if constant
            else "—"
        )
        rows.append(
            [
                BASELINE_LABELS[name],
                _number(float(simulation.mean(name)[best]), signed=True),
                _number(exact_mean, signed=True) if constant else "—",
                _number(simulation.variance(name)),
                exact_variance,
                f"{round(100 * simulation.share_not_raising(name, best))} %",
            ]
        )
    header = [
        "baseline",
        f"mean estimate of $`\\partial J / \\partial \\theta_{best + 1}`$, simulated",
        "exact",
        "variance of a group's estimate, simulated",
        "exact, $`\\operatorname{Var}(b) / G`$",
        f"groups that would not raise candidate {best + 1}",
    ]
    after = (
        f"{bandit.batches} groups of "
        f"G = {bandit.group_size}, drawn with seed {bandit.seed}. The exact columns are the sums over the "
        "candidates above; the variance of an average of G independent samples is the one-sample variance "
        "divided by G. The leave-one-out baseline depends on the other samples of the group, so those sums do "
        "not apply to it: the simulation is how this page measures it."
    )
    calls = [
        "grpo_examples.bandit_simulation.simulate(bandit).mean(b), .variance(b), .share_not_raising(b, bandit.best)",
        "grpo_examples.reinforce.true_gradient(bandit.policy, bandit.rewards)[bandit.best]",
        "grpo_examples.reinforce.group_variance(bandit.policy, bandit.rewards, b, bandit.group_size)",
    ]
    return _table(header, rows) + "\n\n" + after + "\n\n" + _note(calls)


BANDIT_BLOCKS: dict[str, Callable[[Sequence[gx.Example]], str]] = {
    "bandit-menu": bandit_menu,
    "bandit-estimates": bandit_estimates,
    "bandit-variance-curve": variance_curve,
    "bandit-simulation": simulation_histogram,
    "bandit-simulation-table": simulation_table,
}
