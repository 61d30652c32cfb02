"""The named quantities a chapter can print: `<example>.<quantity>`, e.g. `easy.advantage.wrong`.

Each entry only picks a value out of what grpo_examples computed; none of them does arithmetic.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

import grpo_examples as gx

Number = Fraction | float | int
Outcome = {"correct": 1, "wrong": 0}


class QuantityError(Exception):
    """A name that is not a quantity, or a quantity this example does not have."""


@dataclass(frozen=True)
class Quantity:
    """A value and the grpo_examples call it came from (shown to readers who check it)."""

    value: Number | str
    source: str
    signed: bool = False


def _working(example: gx.Example) -> tuple[gx.GroupWorking, str]:
    return gx.work_group(example.rewards), f"grpo_examples.work_group({_rewards(example)})"


def _rewards(example: gx.Example) -> str:
    return "[" + ", ".join(f"{r:g}" for r in example.rewards) + "]"


def _outcome(example: gx.Example, name: str) -> gx.Outcome:
    working, _ = _working(example)
    try:
        return working.outcome(Outcome[name])
    except KeyError:
        raise QuantityError(f"no response in {example.name} is {name} (rewards {_rewards(example)})") from None


def _count(name: str) -> Callable[[gx.Example], Quantity]:
    def count(example: gx.Example) -> Quantity:
        working, source = _working(example)
        found = [o.count for o in working.outcomes if o.reward == Outcome[name]]
        return Quantity(found[0] if found else 0, f"{source}.outcome({Outcome[name]}).count")

    return count


def _statistic(field: str) -> Callable[[gx.Example], Quantity]:
    def statistic(example: gx.Example) -> Quantity:
        working, source = _working(example)
        return Quantity(getattr(working, field), f"{source}.{field}")

    return statistic


def _per_outcome(field: str, name: str) -> Callable[[gx.Example], Quantity]:
    def per_outcome(example: gx.Example) -> Quantity:
        _, source = _working(example)
        return Quantity(getattr(_outcome(example, name), field), f"{source}.outcome({Outcome[name]}).{field}", True)

    return per_outcome


def _convention_advantage(convention: gx.Convention, name: str) -> Callable[[gx.Example], Quantity]:
    def advantage(example: gx.Example) -> Quantity:
        index = example.rewards.index(float(_outcome(example, name).reward))
        value = float(convention.advantages(example.rewards)[index])
        return Quantity(value, f"grpo_examples.{convention.key.upper()}.advantages({_rewards(example)})[{index}]", True)

    return advantage


def _sample_std(example: gx.Example) -> Quantity:
    return Quantity(gx.group_std(example.rewards, ddof=1), f"grpo_examples.group_std({_rewards(example)}, ddof=1)")


def _rare_to_common(example: gx.Example) -> Quantity:
    working, source = _working(example)
    try:
        return Quantity(working.rare_to_common(), f"{source}.rare_to_common()")
    except ValueError as error:
        raise QuantityError(f"{example.name}: {error}") from None


def _text(field: str) -> Callable[[gx.Example], Quantity]:
    return lambda example: Quantity(
        str(getattr(example, field)), f"grpo_examples/examples.toml [{example.name}] {field}"
    )


QUANTITIES: dict[str, Callable[[gx.Example], Quantity]] = {
    "G": lambda example: Quantity(len(example.rewards), f"len({_rewards(example)})"),
    "count.correct": _count("correct"),
    "count.wrong": _count("wrong"),
    "mean": _statistic("mean"),
    "variance": _statistic("variance"),
    "std": _statistic("std"),
    "std.sample": _sample_std,
    "rare-to-common": _rare_to_common,
    "question": _text("question"),
    "answer": _text("reference"),
    "title": _text("title"),
}
for _name in Outcome:
    QUANTITIES[f"deviation.{_name}"] = _per_outcome("deviation", _name)
    QUANTITIES[f"advantage.{_name}"] = _per_outcome("advantage", _name)
    for _convention in gx.CONVENTIONS.values():
        QUANTITIES[f"advantage.{_name}.{_convention.key}"] = _convention_advantage(_convention, _name)
