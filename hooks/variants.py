"""GRPO's advantage as trainers and later papers compute it, for one group: `easy.advantage.wrong.rloo`.

The quantities (`advantage.<outcome>.dr-grpo`, `.rloo`, `.openrlhf`, `rloo-scale`, `std-scale`,
`sample-std-factor`), the formulas (`advantage.<outcome>.rloo`, `rloo-identity.<outcome>`) and the
block `advantage-variants`, which sets every variant side by side over the groups it is given. Each
entry picks values out of grpo_examples and formats them with hooks/numbers.py.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial

import numpy as np
from numpy.typing import NDArray

import grpo_examples as gx
from hooks.blocks import BlockError
from hooks.formulas import FormulaError
from hooks.markdown_text import escape_markdown
from hooks.numbers import decimal, rewards_list
from hooks.quantities import Quantity, QuantityError


def _index(rewards: Sequence[float], outcome: str, group: str) -> int:
    """The position of the first response with this outcome; QuantityError if the group has none."""
    reward = gx.OUTCOMES[outcome]
    if reward not in rewards:
        raise QuantityError(f"no response in {group} is {outcome} (rewards {rewards_list(rewards)})")
    return list(rewards).index(reward)


def _advantage(
    function: Callable[[list[float]], NDArray[np.float64]], call: str, outcome: str
) -> Callable[[gx.Example], Quantity]:
    def advantage(example: gx.Example) -> Quantity:
        index = _index(example.rewards, outcome, example.name)
        value = float(function(example.rewards)[index])
        return Quantity(value, f"grpo_examples.{call}({rewards_list(example.rewards)})[{index}]", signed=True)

    return advantage


def _std_scale(example: gx.Example) -> Quantity:
    try:
        value = gx.std_scale(example.rewards)
    except ValueError as error:
        raise QuantityError(f"{example.name}: {error}") from None
    return Quantity(value, f"grpo_examples.std_scale({rewards_list(example.rewards)})")


VARIANT_QUANTITIES: dict[str, Callable[[gx.Example], Quantity]] = {
    "rloo-scale": lambda e: Quantity(gx.rloo_scale(len(e.rewards)), f"grpo_examples.rloo_scale({len(e.rewards)})"),
    "std-scale": _std_scale,
    "sample-std-factor": lambda e: Quantity(
        gx.sample_std_factor(len(e.rewards)), f"grpo_examples.sample_std_factor({len(e.rewards)})"
    ),
}
for _outcome in gx.OUTCOMES:
    VARIANT_QUANTITIES[f"advantage.{_outcome}.dr-grpo"] = _advantage(
        gx.dr_grpo_advantages, "dr_grpo_advantages", _outcome
    )
    VARIANT_QUANTITIES[f"advantage.{_outcome}.rloo"] = _advantage(gx.rloo_advantages, "rloo_advantages", _outcome)
    VARIANT_QUANTITIES[f"advantage.{_outcome}.openrlhf"] = _advantage(
        gx.OPENRLHF.advantages, "OPENRLHF.advantages", _outcome
    )


def _leave_one_out(working: gx.GroupWorking, outcome: str) -> gx.LeaveOneOut:
    rewards = [float(r) for r in working.rewards]
    try:
        return gx.leave_one_out(rewards, _index(rewards, outcome, rewards_list(rewards)))
    except QuantityError as error:
        raise FormulaError(str(error)) from None


def _label(outcome: str) -> str:
    return rf"A_{{\text{{{outcome}}}}}"


def _reward(value: float) -> str:
    """A reward as a formula writes it: 1 and 0 as integers, other values as the book's decimals."""
    return f"{value:g}" if value == int(value) else decimal(value).tex()


def rloo_tex(working: gx.GroupWorking, outcome: str) -> str:
    """A = r_i - (1/(G-1)) sum_{j != i} r_j = r - (sum of the others)/(G-1) = r - b = A."""
    loo = _leave_one_out(working, outcome)
    baseline, advantage = decimal(loo.baseline), decimal(loo.advantage)
    others = "+".join(_reward(r) for r in loo.others)
    return (
        rf"{_label(outcome)} = r_i - \frac{{1}}{{G-1}}\sum_{{j \ne i}} r_j = "
        rf"{_reward(loo.reward)} - \frac{{{others}}}{{{len(loo.others)}}} {baseline.relation} "
        rf"{_reward(loo.reward)} - {baseline.tex()} {advantage.relation} {advantage.tex(signed=True)}"
    )


def rloo_identity_tex(working: gx.GroupWorking, outcome: str) -> str:
    """A = G/(G-1) (r_i - mu) = (G/(G-1)) x deviation = A: the same advantage, from Dr. GRPO's."""
    loo = _leave_one_out(working, outcome)
    deviation, advantage = decimal(loo.deviation), decimal(loo.advantage)
    relation = "=" if deviation.exact and advantage.exact else r"\approx"
    return (
        rf"{_label(outcome)} = \frac{{G}}{{G-1}}\,(r_i - \mu) = "
        rf"\frac{{{loo.scale.numerator}}}{{{loo.scale.denominator}}} \times ({deviation.tex(signed=True)}) "
        rf"{relation} {advantage.tex(signed=True)}"
    )


VARIANT_FORMULAS: dict[str, Callable[[gx.GroupWorking], str]] = {}
for _outcome in gx.OUTCOMES:
    VARIANT_FORMULAS[f"advantage.{_outcome}.rloo"] = partial(rloo_tex, outcome=_outcome)
    VARIANT_FORMULAS[f"rloo-identity.{_outcome}"] = partial(rloo_identity_tex, outcome=_outcome)


@dataclass(frozen=True)
class Variant:
    """One row of the side-by-side table: who computes it, the formula in words, and the call behind it."""

    label: str
    formula: str
    call: str
    advantages: Callable[[list[float]], NDArray[np.float64]]


def _convention(convention: gx.Convention, label: str, formula: str) -> Variant:
    return Variant(label, formula, f"{convention.key.upper()}.advantages", convention.advantages)


NBSP = "\u00a0"

VARIANTS = (
    _convention(gx.POPULATION, "GRPO, this book", "(r − μ) / σ"),
    _convention(gx.TRL, "TRL", "(r − μ) / (σₛ + 10⁻⁴)"),
    _convention(gx.VERL, "verl", "(r − μ) / (σₛ + 10⁻⁶)"),
    _convention(gx.OPENRLHF, "OpenRLHF", "(r − μ) / (σₛ + 10⁻⁹)"),
    Variant("Dr. GRPO", "r − μ", "dr_grpo_advantages", gx.dr_grpo_advantages),
    Variant("RLOO", "r − mean of the others", "rloo_advantages", gx.rloo_advantages),
)


def _cell(rewards: list[float], advantages: NDArray[np.float64]) -> str:
    """✓ the advantage of a correct response, ✗ of a wrong one, one per line; — where the group has none."""
    lines = []
    for mark, outcome in (("✓", "correct"), ("✗", "wrong")):
        reward = gx.OUTCOMES[outcome]
        shown = decimal(float(advantages[rewards.index(reward)])).prose(signed=True) if reward in rewards else "—"
        lines.append(f"{mark} {shown}".replace(" ", NBSP))  # one line each: a sign never parts from its number
    return "<br>".join(lines)


def _who(label: str, formula: str) -> str:
    """A row's name in bold, and under it the formula on one line."""
    return f"**{escape_markdown(label)}**<br>{formula.replace(' ', NBSP)}"


def advantage_variants(examples: Sequence[gx.Example]) -> str:
    """Every variant's advantages (rows) on every named group (columns), and which groups DAPO keeps."""
    if not examples:
        raise BlockError("block 'advantage-variants' needs one or more examples, e.g. easy hard")
    for example in examples:
        if set(example.rewards) - set(gx.OUTCOMES.values()):
            raise BlockError(f"block 'advantage-variants' shows 0/1 rewards; {example.name} has {example.rewards}")
    header = [
        "who computes it, and how",
        *(f"{e.name} ({e.rewards.count(1.0)} of {len(e.rewards)} right)" for e in examples),
    ]
    rows = [
        [_who(v.label, v.formula), *(_cell(e.rewards, v.advantages(e.rewards)) for e in examples)] for v in VARIANTS
    ]
    rows.append(
        [
            _who("DAPO's dynamic sampling", "keep if 0 < right < G"),
            *("kept" if gx.dynamic_sampling_keeps(e.rewards) else "**dropped**" for e in examples),
        ]
    )
    table = "\n".join(
        ["| " + " | ".join(header) + " |", "|" + "---|" * len(header), *("| " + " | ".join(r) + " |" for r in rows)]
    )
    calls = [f"grpo_examples.{v.call}(rewards)" for v in VARIANTS] + ["grpo_examples.dynamic_sampling_keeps(rewards)"]
    note = "\n".join(
        [
            '??? abstract "How these numbers were computed"',
            "    Computed when the book was built, for the rewards of each group, by:",
            "",
            *[f"    - `{call}`" for call in calls],
            "",
            "    ✓ is the advantage of a correct response, ✗ of a wrong one. The rewards come from the responses in "
            f"`grpo_examples/examples.toml` ({', '.join(f'`[{e.name}]`' for e in examples)}), scored by "
            "`grpo_examples.accuracy_reward`.",
        ]
    )
    return table + "\n\n" + note


VARIANT_BLOCKS: dict[str, Callable[[Sequence[gx.Example]], str]] = {"advantage-variants": advantage_variants}
