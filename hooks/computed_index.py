"""Every number a placeholder can print, so the drift guard can say which placeholder a typed number is.

The index walks the registries (QUANTITIES and FORMULAS over every named example, then every chapter
namespace's values and formulas) once per version
of the code: it is cached in this module, which hooks/entry.py re-imports when grpo_examples or the
hooks change, and it is built only when a page has a typed number to explain.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from functools import cache

import grpo_examples as gx
from hooks.formulas import FormulaError
from hooks.quantities import QuantityError
from hooks.registry import FORMULAS, NAMESPACES, QUANTITIES

_TEX_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")
ROUND_OFF = Fraction(1, 10**12)  # a float computed to be 0.8 is the 0.8 typed (as hooks/numbers.py decides)


@dataclass(frozen=True)
class Computed:
    """One number a placeholder prints: the placeholder, what the number is, and its exact value."""

    placeholder: str
    what: str
    value: Fraction
    in_formula: bool


@cache
def computed_values() -> tuple[Computed, ...]:
    """Every numeric quantity of every example, then every number in every filled-in formula."""
    values: list[Computed] = []
    formulas: list[Computed] = []
    for example in gx.load_examples().values():
        for name, quantity_of in QUANTITIES.items():
            try:
                value = quantity_of(example).value
            except (QuantityError, FormulaError):
                continue
            if not isinstance(value, str):
                what = f"{example.title}'s {name}"
                values.append(Computed(f"<!-- grpo:value {example.name}.{name} -->", what, Fraction(value), False))
        working = gx.work_group(example.rewards)
        for name, formula_of in FORMULAS.items():
            try:
                tex = formula_of(working)
            except (QuantityError, FormulaError):
                continue
            what = f"a number in {example.title}'s {name} formula"
            placeholder = f"<!-- grpo:formula {example.name}.{name} -->"
            formulas.extend(_formula_numbers(tex, placeholder, what))
    for namespace in NAMESPACES.values():
        for name, value_of in namespace.values.items():
            try:
                value = value_of().value
            except (QuantityError, FormulaError):
                continue
            if not isinstance(value, str):
                what = f"{namespace.about}'s {name}"
                values.append(Computed(f"<!-- grpo:value {namespace.name}.{name} -->", what, Fraction(value), False))
        for name, tex_of in namespace.formulas.items():
            try:
                tex = tex_of()
            except (QuantityError, FormulaError):
                continue
            placeholder = f"<!-- grpo:formula {namespace.name}.{name} -->"
            formulas.extend(_formula_numbers(tex, placeholder, f"a number in {namespace.about}'s {name} formula"))
    return tuple(values + formulas)


def _formula_numbers(tex: str, placeholder: str, what: str) -> list[Computed]:
    """The numbers a filled-in formula shows, but 0 and 1, which are everywhere."""
    numbers = {Fraction(n) for n in _TEX_NUMBER.findall(tex)} - {Fraction(0), Fraction(1)}
    return [Computed(placeholder, what, number, True) for number in sorted(numbers)]


def matches(value: Fraction, places: int | None, in_math: bool) -> list[Computed]:
    """The computed numbers that value is, as written (rounded to `places` decimals, if given).

    Same sign first, then the same magnitude; in a formula, the formulas first.
    """
    tolerance = Fraction(1, 2 * 10**places) if places is not None else ROUND_OFF

    def near(computed: Computed, target: Fraction) -> bool:
        return abs(computed.value - target) <= max(tolerance, ROUND_OFF * abs(target))

    ranked = sorted(computed_values(), key=lambda c: (c.in_formula != in_math, abs(abs(c.value) - abs(value))))
    same = [c for c in ranked if near(c, value)]
    opposite = [c for c in ranked if value != 0 and near(c, -value) and c not in same]
    first: dict[str, Computed] = {}
    for computed in same + opposite:
        first.setdefault(computed.placeholder, computed)
    return list(first.values())
