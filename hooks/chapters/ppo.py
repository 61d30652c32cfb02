"""How the PPO chapter is drawn: its worked clip cases, the plot of the objective, GAE's table, the critic's
memory, the formulas filled in, and the interactive clip. Every number is a field of grpo_examples.chapter('ppo').
"""

from __future__ import annotations

from dataclasses import dataclass

import grpo_examples as gx
from hooks.engine.contract import (
    MAX_DECIMALS,
    Blocks,
    Formulas,
    Markdown,
    Widget,
    Widgets,
    code,
    count_words,
    decimal,
    join,
    md,
    prose,
    relation,
    short,
    svg,
    table,
    tex_term,
)

# ---------------------------------------------------------------- formulas


def ratio_tex(case: gx.WorkedClip) -> str:
    """rho = pi_theta / pi_theta_old = p_new / p_old = rho."""
    new, old, ratio = decimal(case.p_new), decimal(case.p_old), decimal(case.ratio)
    return (
        r"\rho = \frac{\pi_\theta(o_t)}{\pi_{\theta_{\text{old}}}(o_t)} "
        rf"{relation(new, old)} \frac{{{new.tex()}}}{{{old.tex()}}} {ratio.relation} {ratio.tex()}"
    )


def clip_tex(case: gx.WorkedClip) -> str:
    """L = min(rho A, clip(rho, 1 - eps, 1 + eps) A) = min(1.5 x 2.0, clip(1.5, 0.8, 1.2) x 2.0) = min(3.0, 2.4),
    one step per line (a displayed formula: on a phone the three steps would not fit on one)."""
    low, high = decimal(case.low), decimal(case.high)
    ratio, advantage = decimal(case.ratio), decimal(case.advantage)
    unclipped, clipped, objective = decimal(case.unclipped), decimal(case.clipped), decimal(case.objective)
    a = tex_term(case.advantage)
    return (
        r"\begin{aligned} L^{\text{CLIP}} "
        r"&= \min\bigl(\rho A,\ \operatorname{clip}(\rho, 1-\epsilon, 1+\epsilon)\, A\bigr) "
        rf"\\ &{relation(ratio, advantage, low, high)} \min\bigl({ratio.tex()} \times {a},\ "
        rf"\operatorname{{clip}}({ratio.tex()}, {low.tex()}, {high.tex()}) \times {a}\bigr) "
        rf"\\ &{relation(unclipped, clipped)} \min({unclipped.tex()},\ {clipped.tex()}) "
        rf"{objective.relation} {objective.tex()} \end{{aligned}}"
    )


def gradient_tex(case: gx.WorkedClip) -> str:
    """dL/drho = 0 where the clip binds (and why), else = A = its value."""
    low, high = decimal(case.low).tex(), decimal(case.high).tex()
    ratio = decimal(case.ratio)
    head = r"\frac{\partial L^{\text{CLIP}}}{\partial \rho}"
    if case.binds:
        side = rf"{ratio.tex()} > 1+\epsilon = {high}" if case.above else rf"{ratio.tex()} < 1-\epsilon = {low}"
        sign = "A > 0" if case.above else "A < 0"  # the clip binds above the range for A > 0, below it for A < 0
        # the reason in rows of its own, each short enough for a phone's line
        why = rf"\text{{the clip binds:}} \\ \rho {ratio.relation} {side},\quad {sign}"
        return rf"\begin{{gathered}} {head} = 0 \\ {why} \end{{gathered}}"
    gradient = decimal(case.gradient)
    return rf"{head} = A {gradient.relation} {gradient.tex(signed=True)}"


def delta_tex(token: gx.GaeToken) -> str:
    """delta_t = r_t + gamma V(s_{t+1}) - V(s_t) = ... = delta."""
    t = token.t
    reward, gamma = decimal(token.reward), decimal(token.gamma)
    following, current, delta = decimal(token.next_value), decimal(token.value), decimal(token.delta)
    return (
        rf"\delta_{{{t}}} = r_{{{t}}} + \gamma V(s_{{{t + 1}}}) - V(s_{{{t}}}) "
        rf"{relation(reward, gamma, following, current)} "
        rf"{reward.tex()} + {gamma.tex()} \times {following.tex()} - {current.tex()} {delta.relation} {delta.tex()}"
    )


def gae_advantage_tex(token: gx.GaeToken) -> str:
    """A_t = delta_t + gamma lambda A_{t+1} = ... (the last token: A_T = delta_T)."""
    t = token.t
    delta, advantage = decimal(token.delta), decimal(token.advantage)
    if isinstance(token.next_advantage, gx.Undefined):
        return rf"\hat{{A}}_{{{t}}} = \delta_{{{t}}} {advantage.relation} {advantage.tex()}"
    gamma, lam, following = decimal(token.gamma), decimal(token.lam), decimal(token.next_advantage)
    return (
        rf"\hat{{A}}_{{{t}}} = \delta_{{{t}}} + \gamma\lambda\, \hat{{A}}_{{{t + 1}}} "
        rf"{relation(delta, gamma, lam, following)} "
        rf"{tex_term(token.delta)} + {gamma.tex()} \times {lam.tex()} \times {tex_term(token.next_advantage)} "
        rf"{advantage.relation} {advantage.tex()}"
    )


FORMULAS: Formulas = {
    (gx.WorkedClip, "ratio"): ratio_tex,
    (gx.WorkedClip, "objective"): clip_tex,
    (gx.WorkedClip, "gradient"): gradient_tex,
    (gx.GaeToken, "delta"): delta_tex,
    (gx.GaeToken, "advantage"): gae_advantage_tex,
}

# ---------------------------------------------------------------- blocks


def _verdict(case: gx.WorkedClip) -> str:
    if case.binds:
        return Markdown("**binds**")
    if case.inside:
        return "does not bind"
    return "unclipped term kept"


def cases_table(ppo: gx.PPO) -> Markdown:
    """Each case: A, rho from its two probabilities, where rho lies, both terms, their min, the clip, the gradient."""
    rows = [
        [
            prose(case.advantage, signed=True),
            md("{}, {}", prose(case.ratio), case.position),
            prose(case.unclipped),
            prose(case.clipped),
            md("**{}**", prose(case.objective)),
            _verdict(case),
            prose(case.gradient, signed=True),
        ]
        for case in ppo.cases.values()
    ]
    header = ["A", "ρ", "ρA", "clip(ρ)·A", "L = min", "the clip", "∂L/∂ρ"]
    intro = md(
        "With ε = {}, the clip range is [{}, {}]; clip(ρ) is short for clip(ρ, 1 − ε, 1 + ε). "
        "Each ρ is the quotient of the two probabilities its case sets.",
        prose(ppo.epsilon),
        prose(ppo.clip.low),
        prose(ppo.clip.high),
    )
    return join("\n\n", [intro, table(header, rows)])


def _curve_words(curve: gx.ClipCurve, plot: gx.ClipPlot) -> str:
    """What the curve does, in words, for the plot's description (alt text)."""
    if curve.advantage > 0:
        return (
            f"for A = {prose(curve.advantage, signed=True)}, L rises with ρ up to ρ = {prose(plot.clip.high)} "
            f"and is flat at {prose(curve.flat_at)} beyond it"
        )
    return (
        f"for A = {prose(curve.advantage, signed=True)}, L is flat at {prose(curve.flat_at)} below "
        f"ρ = {prose(plot.clip.low)} "
        "and falls with ρ above it"
    )


def clip_plot(plot: gx.ClipPlot) -> Markdown:
    """L^CLIP against rho for a positive and a negative advantage, with rho A dotted and the clip range shaded."""
    ratios = list(plot.ratios)
    series, unclipped_x, unclipped_y = [], [], []
    for style, curve in enumerate(plot.curves, start=1):
        series.append(svg.Series(f"L, A = {prose(curve.advantage, signed=True)}", ratios, list(curve.objective), style))
        unclipped_x += [*ratios, svg.GAP]
        unclipped_y += [*curve.unclipped, svg.GAP]
    series.append(svg.Series("ρA, unclipped", unclipped_x, unclipped_y, 3))
    bottom, top = svg.whole_range(plot.lowest, plot.highest)
    summary = "; ".join(_curve_words(curve, plot) for curve in plot.curves)
    chart = svg.line_chart(
        "ppo-clip",
        "The clipped objective against the probability ratio",
        f"Line chart over ratios from 0 to {short(plot.ratio_max)}, "
        f"clip range {prose(plot.clip.low)} to {prose(plot.clip.high)} shaded. {summary}.",
        svg.Axis("probability ratio ρ (unitless)", 0, plot.ratio_max, svg.ticks(0, plot.ratio_max, 4)),
        svg.Axis("objective L (units of A)", bottom, top, svg.ticks(bottom, top, 6)),
        series,
        band=(plot.clip.low, plot.clip.high, f"[1 − ε, 1 + ε], ε = {prose(plot.epsilon)}"),
    )
    caption = (
        "The clipped objective L = min(ρA, clip(ρ, 1 − ε, 1 + ε)·A) for one token, against the ratio ρ, "
        "beside the unclipped ρA (dotted). Where L runs flat the clip binds and the gradient is 0; "
        "everywhere else L follows ρA, so it is never above it."
    )
    return svg.figure(chart, caption)


def _token(token: str) -> str:
    """A token in a table cell: in code, so that TeX and Markdown stay literal; its spaces trimmed."""
    return code(token.strip())


def gae_table(gae: gx.Gae) -> Markdown:
    """Each token of the response: its reward, the critic's value before it, delta_t, and A_t at three lambdas."""
    rows = [
        [
            str(token.t),
            _token(token.token),
            prose(token.reward),
            prose(token.value),
            prose(token.delta, signed=True),
            prose(token.advantage, signed=True),
            prose(token.monte_carlo, signed=True),
        ]
        for token in gae.tokens.values()
    ]
    lam = prose(gae.lam)
    header = ["t", "token oₜ", "rₜ", "V(sₜ)", "δₜ (λ = 0)", f"Âₜ (λ = {lam})", "Âₜ (λ = 1)"]
    after = md(
        "γ = {}, λ = {}; after the last token V = {} (the response is over). "
        "The λ = 1 column is the return minus V(sₜ).",
        prose(gae.gamma),
        lam,
        prose(gae.final_value),
    )
    return join("\n\n", [table(header, rows), after])


def memory_table(memory: gx.Memory) -> Markdown:
    """What training the critic keeps per parameter, and in total, for the settings' parameter count."""
    rows = [
        [part.name, str(part.bytes_per_parameter), md("{} GB", short(gb))]
        for part, gb in zip(memory.parts, memory.part_gb, strict=True)
    ]
    rows.append(
        [Markdown("**total**"), md("**{}**", memory.bytes_per_parameter), md("**{} GB**", short(memory.critic_gb))]
    )
    count = short(memory.critic_billions)
    header = ["kept per parameter", "bytes", f"for {count} billion parameters"]
    after = md(
        "{} things per parameter; GB is 10⁹ bytes. "
        "Activations, which grow with batch size and response length, come on top.",
        count_words(len(memory.parts)).capitalize(),
    )
    return join("\n\n", [table(header, rows), after])


BLOCKS: Blocks = {
    "ppo-cases": cases_table,
    "ppo-clip-plot": clip_plot,
    "ppo-gae": gae_table,
    "ppo-critic-memory": memory_table,
}

# ---------------------------------------------------------------- the interactive clip


@dataclass(frozen=True)
class Control:
    """Where one of the clip widget's controls starts, how far it goes, and its step."""

    value: float
    low: float
    high: float
    step: float

    def data(self, value: float | None = None) -> dict[str, object]:
        return {"value": self.value if value is None else value, "range": [self.low, self.high], "step": self.step}


# The controls; the clip range starts at the chapter's epsilon. numpy's results are checked on a grid over them.
ADVANTAGE = Control(2.0, -3.0, 3.0, 0.1)
EPSILON = Control(0.2, 0.05, 0.5, 0.01)
RATIO = Control(1.5, 0.0, 2.5, 0.01)

CAPTION = Markdown(
    "**The clip, to poke.** Set the token's advantage A, the clip range ε and the ratio ρ (with the sliders or "
    "by typing a value); the readout shows both terms of the min, which one wins, whether the clip binds, and the "
    "gradient that reaches the policy. Your browser recomputes every number."
)
STATIC_CAPTION = Markdown(
    "**The clip, case by case.** For each worked token: its advantage A and ratio ρ, both terms of the min, which "
    "one wins, whether the clip binds, and the gradient that reaches the policy, as grpo_examples computed them "
    "when the book was built."
)


def clip_widget(ppo: gx.PPO) -> Widget:
    """The interactive clip: `<!-- grpo:widget clip ppo -->` (docs/assets/javascripts/clip-widget.js draws it)."""
    advantages = (*(curve.advantage for curve in ppo.plot.curves), 0.0, ADVANTAGE.low, ADVANTAGE.high)
    points = gx.clip_check_points((RATIO.low, RATIO.high), advantages, (ppo.epsilon, EPSILON.low, EPSILON.high))
    data = {
        "advantage": ADVANTAGE.data(),
        "epsilon": EPSILON.data(ppo.epsilon),
        "ratio": RATIO.data(),
        "max_decimals": MAX_DECIMALS,
        "numpy_points": [
            [p.ratio, p.advantage, p.epsilon, p.unclipped, p.clipped, p.objective, p.gradient, p.binds] for p in points
        ],
    }
    return Widget("clip", cases_table(ppo), data, CAPTION, STATIC_CAPTION)


WIDGETS: Widgets = {"clip": clip_widget}
