"""The named quantities a chapter can print: `<example>.<quantity>`, e.g. `easy.advantage.wrong`.

Each entry only picks a value out of what grpo_examples computed; none of them does arithmetic.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

import grpo_examples as gx
from hooks.numbers import MAX_DECIMALS, rewards_list

Number = Fraction | float | int


class QuantityError(Exception):
    """A quantity this example does not have (say, the wrong answer of a group with none)."""


@dataclass(frozen=True)
class Quantity:
    """A value, the grpo_examples call it came from (shown to readers who check it), and how it is shown:
    with a sign, and with at most `places` decimals (hooks/numbers.py)."""

    value: Number | str
    source: str
    signed: bool = False
    places: int = MAX_DECIMALS


def named_example(name: str, user: str) -> gx.Example:
    """The example a chapter's computation is built on; QuantityError, naming who needs it, if it is gone."""
    examples = gx.load_examples()
    if name not in examples:
        raise QuantityError(
            f"{user} uses the example [{name}] of grpo_examples/examples.toml, which does not exist "
            f"(examples: {', '.join(examples)}): restore it, or change {user}"
        )
    return examples[name]


def _working(example: gx.Example) -> tuple[gx.GroupWorking, str]:
    return gx.work_group(example.rewards), f"grpo_examples.work_group({rewards_list(example.rewards)})"


def _outcome(example: gx.Example, name: str) -> tuple[gx.Outcome, str]:
    working, source = _working(example)
    found = working.outcome(gx.OUTCOMES[name])
    if found is None:
        raise QuantityError(f"no response in {example.name} is {name} (rewards {rewards_list(example.rewards)})")
    return found, f"{source}.outcome({gx.OUTCOMES[name]:g})"


def _count(name: str) -> Callable[[gx.Example], Quantity]:
    def count(example: gx.Example) -> Quantity:
        working, source = _working(example)
        found = working.outcome(gx.OUTCOMES[name])
        return Quantity(found.count if found else 0, f"{source}.outcome({gx.OUTCOMES[name]:g}).count")

    return count


def _statistic(field: str) -> Callable[[gx.Example], Quantity]:
    def statistic(example: gx.Example) -> Quantity:
        working, source = _working(example)
        return Quantity(getattr(working, field), f"{source}.{field}")

    return statistic


def _per_outcome(field: str, name: str) -> Callable[[gx.Example], Quantity]:
    def per_outcome(example: gx.Example) -> Quantity:
        found, source = _outcome(example, name)
        return Quantity(getattr(found, field), f"{source}.{field}", signed=True)

    return per_outcome


def _convention_advantage(convention: gx.Convention, name: str) -> Callable[[gx.Example], Quantity]:
    def advantage(example: gx.Example) -> Quantity:
        found, _ = _outcome(example, name)
        index = example.rewards.index(float(found.reward))
        value = float(convention.advantages(example.rewards)[index])
        call = f"grpo_examples.{convention.key.upper()}.advantages({rewards_list(example.rewards)})[{index}]"
        return Quantity(value, call, signed=True)

    return advantage


def _sample_std(example: gx.Example) -> Quantity:
    rewards = example.rewards
    return Quantity(gx.group_std(rewards, ddof=1), f"grpo_examples.group_std({rewards_list(rewards)}, ddof=1)")


def _rare_to_common(example: gx.Example) -> Quantity:
    working, source = _working(example)
    try:
        return Quantity(working.rare_to_common(), f"{source}.rare_to_common()")
    except ValueError as error:
        raise QuantityError(f"{example.name}: {error}") from None


def _text(field: str) -> Callable[[gx.Example], Quantity]:
    def text(example: gx.Example) -> Quantity:
        return Quantity(str(getattr(example, field)), f"grpo_examples/examples.toml [{example.name}] {field}")

    return text


QUANTITIES: dict[str, Callable[[gx.Example], Quantity]] = {
    "G": lambda example: Quantity(len(example.rewards), f"len({rewards_list(example.rewards)})"),
    "mean": _statistic("mean"),
    "variance": _statistic("variance"),
    "std": _statistic("std"),
    "std.sample": _sample_std,
    "rare-to-common": _rare_to_common,
    "question": _text("question"),
    "answer": _text("reference"),
    "title": _text("title"),
}
for _name in gx.OUTCOMES:
    QUANTITIES[f"count.{_name}"] = _count(_name)
    QUANTITIES[f"deviation.{_name}"] = _per_outcome("deviation", _name)
    QUANTITIES[f"advantage.{_name}"] = _per_outcome("advantage", _name)
    for _convention in gx.CONVENTIONS.values():
        QUANTITIES[f"advantage.{_name}.{_convention.key}"] = _convention_advantage(_convention, _name)
