"""What a chapter's presentation (hooks/chapters/) may use of the engine, and all it may: this module.

A presentation module draws its chapter's model and computes nothing of it. It offers up to three tables,
which the engine dispatches on:

    FORMULAS = {(gx.Group, "mean"): mean_tex}       # <!-- grpo:formula easy.mean -->: mean_tex(the group)
    BLOCKS = {"worked-example": worked_example}      # <!-- grpo:block worked-example easy -->
    WIDGETS = {"group": group_widget}                # <!-- grpo:widget group easy hard -->

A formula is keyed by the dataclass that owns a field and the field's name, and called with that dataclass
and the keys the path takes after the field (`easy.advantage.wrong` calls it with the group and "wrong").
A block or a widget is called with the nodes its placeholder's paths name, typed in its signature (the
engine checks them, and names the types in its messages). Each returns Markdown (a Widget for a widget);
the engine adds the note that says how the numbers were computed.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from hooks.engine import svg
from hooks.engine.markdown import Markdown, code, join, math_block, md, table
from hooks.engine.numbers import (
    MAX_DECIMALS,
    MINUS,
    NBSP,
    Decimal,
    count_words,
    decimal,
    prose,
    short,
    short_tex,
    times_words,
)
from hooks.engine.widget import Widget

Formulas = Mapping[tuple[type, str], Callable[..., str]]  # TeX, of numbers only: no data text reaches TeX
Blocks = Mapping[str, Callable[..., Markdown]]
Widgets = Mapping[str, Callable[..., Widget]]


class LayoutError(Exception):
    """A layout that cannot draw what it was given (a formula for an outcome no response has): the message
    says what, and the engine puts the page and line in front of it."""


def relation(*shown: Decimal) -> str:
    """The TeX relation between steps: '=' when every number in them is exact, '\\approx' when one is rounded."""
    return "=" if all(number.exact for number in shown) else r"\approx"


def tex_term(value: float) -> str:
    """A number inside a sum or a product: in parentheses when negative, so that '× (-1.0)' reads right."""
    shown = decimal(value)
    return f"({shown.tex()})" if shown.negative else shown.tex()


__all__ = [
    "MAX_DECIMALS",
    "MINUS",
    "NBSP",
    "Blocks",
    "Decimal",
    "Formulas",
    "LayoutError",
    "Markdown",
    "Widget",
    "Widgets",
    "code",
    "count_words",
    "decimal",
    "join",
    "math_block",
    "md",
    "prose",
    "relation",
    "short",
    "short_tex",
    "svg",
    "table",
    "tex_term",
    "times_words",
]
