"""Formulas filled in with a group's numbers, as TeX: `<example>.<formula>`, e.g. `easy.advantage.wrong`.

Each builder writes the general form once and then the numbers that fill it; a step whose number
is rounded is joined with '\\approx', never '='.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

import grpo_examples as gx
from hooks.numbers import Decimal, decimal, reward_tex, rewards_list


class FormulaError(Exception):
    """A formula this group cannot fill in (an outcome no response has)."""


def _relation(*shown: Decimal) -> str:
    return "=" if all(number.exact for number in shown) else r"\approx"


def mean_tex(working: gx.GroupWorking) -> str:
    """mu = (r_1 + ... + r_G) / G = total / G = mean."""
    terms = "+".join(reward_tex(r) for r in working.rewards)
    mean = decimal(working.mean)
    steps = [rf"\mu = \frac{{{terms}}}{{{working.size}}}"]
    if working.total.denominator == 1:  # 0/1 rewards: show the count over G, as 4/5
        steps.append(rf"\frac{{{working.total.numerator}}}{{{working.size}}}")
    return " = ".join(steps) + f" {mean.relation} {mean.tex()}"


def variance_tex(working: gx.GroupWorking) -> str:
    """sigma^2 = p(1 - p) for a Bernoulli group, else (1/G) sum_i (r_i - mu)^2."""
    mu, variance = decimal(working.mean), decimal(working.variance)
    if working.is_binary:
        q = decimal(1 - working.mean)
        return rf"\sigma^2 = p(1-p) {_relation(mu, q)} {mu.tex()} \times {q.tex()} {variance.relation} {variance.tex()}"
    squares = "+".join(f"({reward_tex(r)}-{mu.tex()})^2" for r in working.rewards)
    return (
        rf"\sigma^2 = \frac{{1}}{{G}}\sum_{{i=1}}^{{G}} (r_i-\mu)^2 {_relation(mu)} "
        rf"\frac{{{squares}}}{{{working.size}}} {variance.relation} {variance.tex()}"
    )


def std_tex(working: gx.GroupWorking) -> str:
    """sigma = sqrt(sigma^2)."""
    variance, std = decimal(working.variance), decimal(working.std)
    return rf"\sigma = \sqrt{{{variance.tex()}}} {_relation(variance, std)} {std.tex()}"


def advantage_tex(working: gx.GroupWorking, outcome: str) -> str:
    """A = (r - mu) / sigma = deviation / sigma = A, for the responses with this outcome."""
    label = rf"A_{{\text{{{outcome}}}}}"
    if working.all_equal:
        return rf"{label} = 0 \quad (\sigma = 0\text{{: every reward is the same}})"
    found = working.outcome(gx.OUTCOMES[outcome])
    if found is None:
        raise FormulaError(f"no response is {outcome} in rewards {rewards_list(working.rewards)}")
    mu, std = decimal(working.mean), decimal(working.std)
    deviation, advantage = decimal(found.deviation), decimal(found.advantage)
    return (
        rf"{label} = \frac{{r - \mu}}{{\sigma}} {_relation(mu, std)} "
        rf"\frac{{{reward_tex(found.reward)} - {mu.tex()}}}{{{std.tex()}}} {_relation(deviation, std)} "
        rf"\frac{{{deviation.tex(signed=False)}}}{{{std.tex()}}} {advantage.relation} {advantage.tex(signed=True)}"
    )


def rewards_tex(working: gx.GroupWorking) -> str:
    """(r_1, ..., r_G) = (1, 1, 1, 1, 0)."""
    return r"(r_1, \dots, r_G) = (" + ", ".join(reward_tex(r) for r in working.rewards) + ")"


FORMULAS: dict[str, Callable[[gx.GroupWorking], str]] = {
    "rewards": rewards_tex,
    "mean": mean_tex,
    "variance": variance_tex,
    "std": std_tex,
}
for _name in gx.OUTCOMES:
    FORMULAS[f"advantage.{_name}"] = partial(advantage_tex, outcome=_name)
