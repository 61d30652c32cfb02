"""The PPO chapter's blocks: the clip's worked cases, its plot, GAE on one response, the critic's memory.

`<!-- grpo:block ppo-cases -->` and friends take no example: their numbers come from
grpo_examples/ppo_examples.toml, worked by grpo_examples.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from fractions import Fraction
from html import escape

import grpo_examples as gx
from grpo_examples.ppo_examples import WorkedClip, plot_ratios
from hooks import svg
from hooks.blocks import BlockError
from hooks.markdown_text import escape_markdown
from hooks.numbers import billions, count_words, decimal, gigabytes

SETTINGS = "grpo_examples/ppo_examples.toml"


def _no_examples(examples: Sequence[gx.Example], block: str) -> None:
    if examples:
        raise BlockError(f"block {block!r} shows the PPO chapter's own cases and takes no example, got {len(examples)}")


def _note(calls: Sequence[str], settings: str = f"`{SETTINGS}`") -> str:
    lines = [
        '??? abstract "How these numbers were computed"',
        f"    Computed when the book was built, from the settings in {settings}, by:",
        "",
        *[f"    - `{call}`" for call in calls],
    ]
    return "\n".join(lines)


def _table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    return "\n".join(lines + ["| " + " | ".join(row) + " |" for row in rows])


def _number(value: float, signed: bool = False) -> str:
    return decimal(value).prose(signed=signed)


def worked_cases() -> list[WorkedClip]:
    chapter = gx.load_ppo_examples()
    return [gx.work_clip_case(case, chapter.epsilon) for case in chapter.cases]


def _token(token: str) -> str:
    """A token in a table cell: in code, so that TeX and Markdown stay literal; its spaces trimmed."""
    return "`" + token.strip().replace("`", "'").replace("|", "\\|") + "`"


def _verdict(case: WorkedClip) -> str:
    if case.binds:
        return "**binds**"
    if case.position == "inside":
        return "does not bind"
    return "unclipped term kept"


def cases_table(examples: Sequence[gx.Example] = ()) -> str:
    """Each case: A, rho from its two probabilities, where rho lies, both terms, their min, the clip, the gradient."""
    _no_examples(examples, "ppo-cases")
    chapter = gx.load_ppo_examples()
    low, high = gx.clip_range(chapter.epsilon)
    rows = [
        [
            _number(case.advantage, signed=True),
            f"{_number(case.ratio)}, {case.position}",
            _number(case.unclipped),
            _number(case.clipped),
            f"**{_number(case.objective)}**",
            _verdict(case),
            _number(case.gradient, signed=True),
        ]
        for case in worked_cases()
    ]
    header = ["A", "ρ", "ρA", "clip(ρ)·A", "L = min", "the clip", "∂L/∂ρ"]
    intro = (
        f"With ε = {_number(chapter.epsilon)}, the clip range is [{_number(low)}, {_number(high)}]; "
        "clip(ρ) is short for clip(ρ, 1 − ε, 1 + ε). Each ρ is the quotient of the two probabilities its case sets "
        f"in `{SETTINGS}`."
    )
    calls = [
        "grpo_examples.work_clip_case(case, epsilon) for each [[cases]] entry: "
        "probability_ratio, unclipped_term, clipped_term, clipped_surrogate, clip_binds, surrogate_gradient"
    ]
    return intro + "\n\n" + _table(header, rows) + "\n\n" + _note(calls)


def clip_plot(examples: Sequence[gx.Example]) -> str:
    """L^CLIP against rho for a positive and a negative advantage, with rho A dotted and the clip range shaded."""
    _no_examples(examples, "ppo-clip-plot")
    chapter = gx.load_ppo_examples()
    low, high = gx.clip_range(chapter.epsilon)
    ratios = plot_ratios(chapter.plot_ratio_max, chapter.epsilon)
    series, unclipped_x, unclipped_y = [], [], []
    for style, advantage in enumerate(chapter.plot_advantages[:2], start=1):
        objective = gx.clipped_surrogate(ratios, advantage, chapter.epsilon).tolist()
        series.append(svg.Series(f"L, A = {_number(advantage, signed=True)}", ratios, objective, style))
        unclipped_x += [*ratios, math.nan]
        unclipped_y += [*gx.unclipped_term(ratios, advantage).tolist(), math.nan]
    series.append(svg.Series("ρA, unclipped", unclipped_x, unclipped_y, 3))
    values = [y for y in unclipped_y if not math.isnan(y)]
    bottom, top = math.floor(min(values)), math.ceil(max(values))
    summary = "; ".join(
        _curve_words(advantage, chapter.epsilon, chapter.plot_ratio_max) for advantage in chapter.plot_advantages[:2]
    )
    chart = svg.line_chart(
        "ppo-clip",
        "The clipped objective against the probability ratio",
        f"Line chart over ratios from 0 to {chapter.plot_ratio_max:g}, "
        f"clip range {low:g} to {high:g} shaded. {summary}.",
        svg.Axis("probability ratio ρ (unitless)", 0, chapter.plot_ratio_max, svg.ticks(0, chapter.plot_ratio_max, 4)),
        svg.Axis("objective L (units of A)", bottom, top, svg.ticks(bottom, top, 6)),
        series,
        band=(low, high, f"[1 − ε, 1 + ε], ε = {chapter.epsilon:g}"),
    )
    caption = (
        "The clipped objective L = min(ρA, clip(ρ, 1 − ε, 1 + ε)·A) for one token, against the ratio ρ, "
        "beside the unclipped ρA (dotted). Where L runs flat the clip binds and the gradient is 0; "
        "everywhere else L follows ρA, so it is never above it."
    )
    calls = [
        "grpo_examples.clipped_surrogate(ratios, advantage, epsilon)",
        "grpo_examples.unclipped_term(ratios, advantage)",
    ]
    return svg.figure(chart, escape(caption)) + "\n\n" + _note(calls)


def _curve_words(advantage: float, epsilon: float, ratio_max: float) -> str:
    """What the curve does, in words, for the plot's description (alt text)."""
    low, high = gx.clip_range(epsilon)
    if advantage > 0:
        flat = float(gx.clipped_term(ratio_max, advantage, epsilon))
        return f"for A = {advantage:g}, L rises with ρ up to ρ = {high:g} and is flat at {flat:g} beyond it"
    flat = float(gx.clipped_term(0.0, advantage, epsilon))
    return f"for A = {advantage:g}, L is flat at {flat:g} below ρ = {low:g} and falls with ρ above it"


def gae_table(examples: Sequence[gx.Example]) -> str:
    """Each token of the response: its reward, the critic's value before it, delta_t, and A_t at three lambdas."""
    _no_examples(examples, "ppo-gae")
    worked = gx.work_gae(gx.load_ppo_examples().gae)
    example = worked.example
    rows = [
        [
            str(t + 1),
            _token(token),
            _number(example.rewards[t]),
            _number(example.values[t]),
            _number(worked.deltas[t], signed=True),
            _number(worked.advantages[t], signed=True),
            _number(worked.returns_minus_values[t], signed=True),
        ]
        for t, token in enumerate(example.tokens)
    ]
    lam = _number(example.lam)
    header = ["t", "token oₜ", "rₜ", "V(sₜ)", "δₜ (λ = 0)", f"Âₜ (λ = {lam})", "Âₜ (λ = 1)"]
    after = (
        f"γ = {_number(example.gamma)}, λ = {lam}; after the last token V = "
        f"{_number(example.values[-1])} (the response is over). The λ = 1 column is the return minus V(sₜ)."
    )
    calls = [
        "grpo_examples.td_errors(rewards, values, gamma)",
        "grpo_examples.gae_advantages(rewards, values, gamma, lam)",
        "grpo_examples.discounted_returns(rewards, gamma) - values[:-1]",
    ]
    return _table(header, rows) + "\n\n" + after + "\n\n" + _note(calls)


def memory_table(examples: Sequence[gx.Example]) -> str:
    """What training the critic keeps per parameter, and in total, for the settings' parameter count."""
    _no_examples(examples, "ppo-critic-memory")
    memory = gx.load_ppo_examples().memory
    parts = memory.critic()
    rows = [
        [escape_markdown(p.name), str(p.bytes_per_parameter), f"{_shown(gigabytes(p.total_bytes))} GB"] for p in parts
    ]
    total = _shown(gigabytes(gx.total_bytes(parts)))
    rows.append(["**total**", f"**{gx.bytes_per_parameter(parts)}**", f"**{total} GB**"])
    count = _shown(billions(memory.critic_parameters))
    header = ["kept per parameter", "bytes", f"for {count} billion parameters"]
    after = (
        f"{count_words(len(parts)).capitalize()} things per parameter; GB is 10⁹ bytes. "
        "Activations, which grow with batch size and response length, come on top."
    )
    calls = [
        "grpo_examples.training_memory(critic_parameters, bytes_per_parameter)",
        "grpo_examples.total_bytes(parts)",
    ]
    return _table(header, rows) + "\n\n" + after + "\n\n" + _note(calls)


def _shown(value: int | Fraction) -> str:
    """A size as prose writes it: 112, or 0.5 when it is not whole."""
    return str(value) if isinstance(value, int) else decimal(value).prose()


PPO_BLOCKS: dict[str, Callable[[Sequence[gx.Example]], str]] = {
    "ppo-cases": cases_table,
    "ppo-clip-plot": clip_plot,
    "ppo-gae": gae_table,
    "ppo-critic-memory": memory_table,
}
