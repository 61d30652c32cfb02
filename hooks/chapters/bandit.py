"""How the policy-gradient chapter draws its bandit: the formulas filled in, the menu and estimate tables, the
variance curve and the simulation's histograms. Every number is a field of grpo_examples.chapter('bandit').
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import grpo_examples as gx
from hooks.engine.contract import (
    NBSP,
    Blocks,
    Formulas,
    Markdown,
    decimal,
    join,
    md,
    prose,
    relation,
    short,
    short_tex,
    svg,
    table,
    tex_term,
)

# ---------------------------------------------------------------- formulas: the general form, then the numbers


def _weighted_sum(
    weights: Sequence[float], values: Sequence[float], result: float, write: Callable[[float], str] = tex_term
) -> str:
    """'0.3 \\times 2 + 0.4 \\times 1 + ... = 1.2': each weight times its value, and the sum they make."""
    terms = " + ".join(f"{tex_term(w)} \\times {write(v)}" for w, v in zip(weights, values, strict=True))
    shown = decimal(result)
    return f"{terms} {relation(*(decimal(x) for x in (*weights, *values)), shown)} {shown.tex()}"


def _two_lines(left: str, general: str, filled: str, relation_: str = "=", centred: bool = False) -> str:
    """The general form on one line, the numbers that fill it on the next: short enough for a page column.

    Aligned on the '=' by default; centred when the left side is too wide to leave room for the numbers.
    """
    if centred:
        return rf"\begin{{gathered}}{left} = {general} \\ {{}}{relation_} {filled}\end{{gathered}}"
    return rf"\begin{{aligned}}{left} &= {general} \\ &{relation_} {filled}\end{{aligned}}"


def _probabilities(bandit: gx.Bandit) -> list[float]:
    return [c.probability for c in bandit.candidates.values()]


def expected_reward_tex(bandit: gx.Bandit) -> str:
    """J(theta) = sum_c pi(c) r(c) = 0.3 x 2 + ... = 1.2."""
    rewards = [float(c.reward) for c in bandit.candidates.values()]
    filled = _weighted_sum(_probabilities(bandit), rewards, bandit.expected_reward, write=short_tex)
    return _two_lines(r"J(\theta)", r"\sum_c \pi_\theta(c \mid q)\, r(c)", filled)


def gradient_tex(bandit: gx.Bandit) -> str:
    """Each entry of grad J, pi(c) (r(c) - J), on a line of its own."""
    expected = decimal(bandit.expected_reward)
    lines = []
    for c, candidate in bandit.candidates.items():
        shown = decimal(candidate.gradient)
        relation_ = relation(decimal(candidate.probability), decimal(float(candidate.reward)), expected, shown)
        lines.append(
            rf"\frac{{\partial J}}{{\partial \theta_{c}}} &= \pi_\theta({c} \mid q)\,\big(r({c}) - J\big) "
            rf"= {tex_term(candidate.probability)} \times ({short_tex(candidate.reward)} - {expected.tex()}) "
            rf"{relation_} {shown.tex(signed=True)}"
        )
    return r"\begin{aligned}" + r" \\[10pt] ".join(lines) + r"\end{aligned}"


def score_mean_tex(bandit: gx.Bandit) -> str:
    """E[d log pi(c) / d theta_best] = sum_c pi(c) (1[c = best] - pi(best)) = 0, for the best candidate's logit."""
    filled = _weighted_sum(_probabilities(bandit), list(bandit.score_column), bandit.score_mean)
    best = bandit.best.number
    left = rf"\mathbb{{E}}_c\big[\partial \log \pi_\theta(c \mid q) / \partial \theta_{best}\big]"
    general = rf"\sum_c \pi_\theta(c \mid q)\,\big(\mathbf{{1}}[c = {best}] - \pi_\theta({best} \mid q)\big)"
    return _two_lines(left, general, filled, centred=True)


VARIANCE_ARGUMENT = {"none": "0", "expected": "J", "optimal": "b^*"}  # the baseline as the left side names it


def variance_tex(baseline: gx.Baseline) -> str:
    """Var = sum_c pi(c) ||g_b(c) - grad J||^2 = 0.3 x 2.0 + ... = 1.14, for one named baseline."""
    filled = _weighted_sum(baseline.probabilities, baseline.squared_misses, baseline.variance)
    return _two_lines(
        rf"\operatorname{{Var}}({VARIANCE_ARGUMENT[baseline.name]})",
        r"\sum_c \pi_\theta(c \mid q)\,\big\lVert \hat{g}(c) - \nabla_\theta J \big\rVert^2",
        filled,
    )


def quadratic_tex(bandit: gx.Bandit) -> str:
    """Var(b) = Var(0) - 2 b E[r ||s||^2] + b^2 E[||s||^2], with the bandit's three numbers."""
    at_zero, cross, square = (
        decimal(x) for x in (bandit.quadratic.at_zero, bandit.quadratic.cross, bandit.quadratic.square)
    )
    general = (
        r"\operatorname{Var}(0) - 2b\,\mathbb{E}\big[r \lVert \nabla_\theta \log \pi_\theta \rVert^2\big] "
        r"+ b^2\,\mathbb{E}\big[\lVert \nabla_\theta \log \pi_\theta \rVert^2\big]"
    )
    filled = f"{at_zero.tex()} - 2 \\times {cross.tex()}\\, b + {square.tex()}\\, b^2"
    return _two_lines(r"\operatorname{Var}(b)", general, filled, relation(at_zero, cross, square))


def optimal_baseline_tex(bandit: gx.Bandit) -> str:
    """b* = E[r ||s||^2] / E[||s||^2] = 0.8 / 0.7 = 1.1429."""
    cross, square = decimal(bandit.quadratic.cross), decimal(bandit.quadratic.square)
    best = decimal(bandit.optimal_baseline)
    return (
        r"b^* = \frac{\mathbb{E}\big[r \lVert \nabla_\theta \log \pi_\theta \rVert^2\big]}"
        r"{\mathbb{E}\big[\lVert \nabla_\theta \log \pi_\theta \rVert^2\big]} "
        rf"{relation(cross, square)} \frac{{{cross.tex()}}}{{{square.tex()}}} {best.relation} {best.tex()}"
    )


FORMULAS: Formulas = {
    (gx.Bandit, "expected_reward"): expected_reward_tex,
    (gx.Bandit, "gradient"): gradient_tex,
    (gx.Bandit, "score_mean"): score_mean_tex,
    (gx.Baseline, "variance"): variance_tex,
    (gx.Bandit, "quadratic"): quadratic_tex,
    (gx.Bandit, "optimal_baseline"): optimal_baseline_tex,
}

# ---------------------------------------------------------------- blocks

BASELINE_LABELS = {"none": "no baseline, b = 0", "expected": "b = J", "leave-one-out": "leave-one-out (RLOO)"}


def _vector(values: Sequence[float]) -> Markdown:
    """(+0.7, −0.4, −0.2, −0.1): one signed entry per logit, kept on one line in a table cell."""
    entries = join(", ", (prose(float(v), signed=True) for v in values))
    return md('<span class="grpo-vector">({})</span>', entries)


def _equals(value: float) -> str:
    """'= 0.228', or '≈ 0.2257' for a rounded value: what follows a name in a label (a no-break space after
    the '=', as after the '≈')."""
    shown = decimal(value)
    return (f"={NBSP}" if shown.exact else "") + shown.prose()


def bandit_menu(bandit: gx.Bandit) -> Markdown:
    """The prompt, its candidate responses, the checker's rewards and the policy's probabilities."""
    rows = [
        [str(c), x.text, short(x.accuracy), short(x.format), short(x.reward), prose(x.probability)]
        for c, x in bandit.candidates.items()
    ]
    header = [
        Markdown("$`c`$"),
        "candidate response",
        "accuracy",
        "format",
        Markdown("reward $`r(c)`$"),
        Markdown(r"$`\pi_\theta(c \mid q)`$"),
    ]
    intro = md("**{}** (reference answer: {})", bandit.question, bandit.answer)
    return join("\n\n", [intro, table(header, rows)])


def _estimates_table(baseline: gx.Baseline) -> Markdown:
    """One baseline's table: each candidate's weight r(c) − b, its one-sample estimate and squared miss, then
    the π-weighted averages (the true gradient and the variance)."""
    rows: list[list[str]] = [
        [
            str(c + 1),
            prose(baseline.probabilities[c]),
            short(baseline.weights[c]) if baseline.name == "none" else prose(baseline.weights[c], signed=True),
            _vector(baseline.estimates[c]),
            prose(baseline.squared_misses[c]),
        ]
        for c in range(len(baseline.probabilities))
    ]
    rows.append([Markdown("**average**"), "", "", _vector(baseline.mean), md("**{}**", prose(baseline.variance))])
    header = [
        Markdown("$`c`$"),
        Markdown(r"$`\pi_\theta(c \mid q)`$"),
        Markdown("weight $`r(c) - b`$"),
        Markdown(r"estimate $`\hat{g}(c)`$"),
        Markdown(r"squared miss $`\lVert \hat{g}(c) - \nabla_\theta J \rVert^2`$"),
    ]
    return table(header, rows)


def bandit_estimates(bandit: gx.Bandit) -> Markdown:
    """The one-sample estimate each candidate gives, without a baseline and with b = J, side by side in two
    tables; their π-weighted averages are the true gradient (both) and the two variances."""
    expected = decimal(bandit.baselines["expected"].b)
    parts = [
        Markdown("**Without a baseline** ($`b = 0`$): the weight is the reward."),
        _estimates_table(bandit.baselines["none"]),
        # TeX of a number the book formatted: no data text reaches TeX
        Markdown(f"**With the expected reward as the baseline** ($`b = J {expected.relation} {expected.tex()}`$):"),
        _estimates_table(bandit.baselines["expected"]),
        md(
            "Each row is what one sample would say if the policy drew candidate $`c`$: the estimate, its weight "
            "times the score of $`c`$, and its squared distance from the true gradient {}. The last row of each "
            "table averages the column with the weights $`\\pi_\\theta(c \\mid q)`$: both estimates average to "
            "the true gradient, and the squared misses average to each estimate's variance.",
            _vector(bandit.gradient),
        ),
    ]
    return join("\n\n", parts)


def variance_curve(bandit: gx.Bandit) -> Markdown:
    """Var(b) for constant baselines from 0 to the largest reward: a parabola, with b = 0 and b = J marked."""
    curve = bandit.variance_curve
    top = float(bandit.max_reward)
    at = {name: bandit.baselines[name].variance for name in ("none", "expected")}
    expected, optimal = bandit.baselines["expected"].b, bandit.optimal_baseline
    least = bandit.baselines["optimal"].variance
    highest = max(curve.variances)
    y_ticks = svg.ticks(0, highest, 4)
    if y_ticks[-1] < highest:  # the axis ends on a tick above the curve's highest point
        y_ticks.append(y_ticks[-1] + (y_ticks[1] - y_ticks[0]))
    chart = svg.line_chart(
        "bandit-variance",
        "Variance of the one-sample REINFORCE estimate, for each constant baseline b",
        f"Line chart of a parabola. Without a baseline the variance is {prose(at['none'])}; at b = J = "
        f"{prose(expected)} it is {prose(at['expected'])}; its minimum, {prose(least)}, is at "
        f"b* = {prose(optimal)}.",
        svg.Axis("baseline b (reward)", 0, top, svg.ticks(0, top, 4)),
        svg.Axis("variance Var(b) (reward²)", 0, y_ticks[-1], y_ticks),
        [svg.Series("Var(b), summed over the logits", list(curve.baselines), list(curve.variances), 1)],
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
    return svg.figure(chart, caption)


def simulation_histogram(bandit: gx.Bandit) -> Markdown:
    """The simulated groups' estimates of the best candidate's gradient entry, without and with b = J."""
    best = bandit.best
    names = ("none", "expected")
    edges = list(bandit.histogram_edges)
    panels = [
        svg.Panel(BASELINE_LABELS[n], edges, list(bandit.simulation[n].shares), style)
        for n, style in zip(names, (3, 1), strict=True)
    ]
    spreads = "; ".join(
        f"{BASELINE_LABELS[n]}: from {prose(bandit.simulation[n].lowest)} to {prose(bandit.simulation[n].highest)}"
        for n in names
    )
    exact = best.gradient
    chart = svg.histogram_stack(
        "bandit-simulation",
        f"Estimates of the gradient for candidate {best.number}'s logit, from {bandit.batches} simulated groups",
        f"Two histograms, both centred on the true value {prose(exact, signed=True)}. {spreads}.",
        svg.Axis(f"estimate of ∂J/∂θ{best.number} (reward)", edges[0], edges[-1], svg.ticks(edges[0], edges[-1], 5)),
        "share of groups (%)",
        panels,
        marker=(exact, f"true {prose(exact, signed=True)}"),
    )
    caption = (
        f"Each of {bandit.batches} groups of G = {bandit.G} samples gives one estimate of how much to "
        f"raise candidate {best.number}'s logit (the entry for that logit of the averaged estimate); the bars count "
        f"them in bins {short(bandit.histogram_bin)} wide. Both sets of estimates use the same samples and centre on "
        "the dashed line, the true gradient; subtracting the baseline narrows them. Each panel is scaled to its own "
        "tallest bar."
    )
    return svg.figure(chart, caption)


def simulation_table(bandit: gx.Bandit) -> Markdown:
    """Simulated against exact: the mean of the best logit's entry and the variance of a group's estimate."""
    best = bandit.best
    rows: list[list[str]] = []
    for name in ("none", "expected", "leave-one-out"):
        simulated = bandit.simulation[name]
        exact = bandit.baselines.get(name)  # leave-one-out is not a constant: the exact sums do not apply to it
        rows.append(
            [
                BASELINE_LABELS[name],
                prose(simulated.mean_best, signed=True),
                prose(best.gradient, signed=True) if exact else "—",
                prose(simulated.variance),
                prose(exact.group_variance) if exact else "—",
                f"{simulated.not_raising} %",
            ]
        )
    header = [
        "baseline",
        md("mean estimate of $`\\partial J / \\partial \\theta_{}`$, simulated", best.number),
        "exact",
        f"variance of a group's estimate, summed over the {bandit.K} logits, simulated",
        Markdown("exact, $`\\operatorname{Var}(b) / G`$"),
        f"groups that would not raise candidate {best.number}",
    ]
    after = Markdown(  # numbers and the hooks' own words only
        f"{bandit.batches} groups of "
        f"G = {bandit.G}, drawn with seed {bandit.seed}. The mean columns are the entry for candidate {best.number} "
        f"alone; the variance columns add up the variances of all {bandit.K} entries of the gradient, as "
        "$`\\operatorname{Var}(b)`$ does. The exact columns are the sums over the candidates above; the variance "
        "of an average of G independent samples is the one-sample variance divided by G. The leave-one-out "
        "baseline depends on the other samples of the group, so those sums do not apply to it: the simulation is "
        "how this page measures it."
    )
    return join("\n\n", [table(header, rows), after])


BLOCKS: Blocks = {
    "bandit-menu": bandit_menu,
    "bandit-estimates": bandit_estimates,
    "bandit-variance-curve": variance_curve,
    "bandit-simulation": simulation_histogram,
    "bandit-simulation-table": simulation_table,
}
