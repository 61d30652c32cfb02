"""The switch that builds the book without rendering its math, to measure what the math costs.

    GRPO_BOOK_MATH=off mkdocs build      every formula stays as its TeX, in <code>; no KaTeX, CSS or fonts

benchmarks/ compares the book's build with this math-free build. It can never reach readers: a strict
build (`mkdocs build --strict`, `make build`, `gh-deploy --strict`, how the book is published) with
math switched off stops with an error, and any other build with it switched off says so in a warning.
Unset, or `on`, renders the math; any other value is an error, so a typo cannot switch it off.
"""

from __future__ import annotations

import logging
import os

ENVIRONMENT_VARIABLE = "GRPO_BOOK_MATH"
log = logging.getLogger("mkdocs.plugins.grpo_book")


class MathSwitchError(Exception):
    """The switch has a value it does not know, or is off in a build that publishes."""


def math_rendered(strict: bool) -> bool:
    """Whether this build renders its math: True unless GRPO_BOOK_MATH=off in a build that is not strict."""
    value = os.environ.get(ENVIRONMENT_VARIABLE, "on").strip().lower()
    if value not in {"on", "off"}:
        raise MathSwitchError(f"{ENVIRONMENT_VARIABLE}={value!r}: use `on` (the default) or `off`")
    if value == "on":
        return True
    if strict:
        raise MathSwitchError(
            f"{ENVIRONMENT_VARIABLE}=off leaves the math as TeX, for benchmarks only; "
            "a strict build is one that may be published, and it must render the math: unset the variable"
        )
    log.warning("%s=off: the math is left as TeX; this site is for measuring, not for readers", ENVIRONMENT_VARIABLE)
    return False
