"""The author's guide's own blocks, drawn by the engine from the engine: they stay true as the book changes.

    <!-- grpo:block drift-guard-example -->   a line with a typed number, and the drift guard's message on it
    <!-- grpo:block names easy -->            every path of a subject's model, what it is, and its value now
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from fractions import Fraction
from grpo_examples import Undefined
from hooks.engine import drift_guard
from hooks.engine.book import Book, formula_layout
from hooks.engine.markdown import code, escape_markdown, table
from hooks.engine.numbers import MAX_DECIMALS, decimal
from hooks.engine.tree import describe, walk


class GuideError(ValueError):
    """A guide block given what it cannot draw."""


EXAMPLE_PAGE, EXAMPLE_LINE = "docs/example.md", 12
EXAMPLE = "The baseline is 0.8 for the group above."


def guard_message(book: Book, text: str, page: str = EXAMPLE_PAGE, line: int = EXAMPLE_LINE) -> str:
    """The guard's message for text as line `line` of `page`; GuideError if the guard lets it pass."""
    try:
        drift_guard.guard(book, text, page, first_line=line)
    except drift_guard.DriftError as error:
        return str(error)
    raise GuideError(f"the drift guard accepts {text!r}: choose an example with a typed number")


def drift_guard_example(book: Book, *paths: str) -> str:
    """The example line, in a Markdown fence, and the guard's message about it, in a text fence."""
    if paths:
        raise GuideError(f"block 'drift-guard-example' takes no path, got {len(paths)}")
    return "\n".join(
        [
            f"Line {EXAMPLE_LINE} of a page that reads",
            "",
            "```markdown",
            EXAMPLE,
            "```",
            "",
            "stops the build with",
            "",
            "```text",
            guard_message(book, EXAMPLE),
            "```",
        ]
    )


def _value(value: object) -> str:
    if isinstance(value, Undefined):
        return "not defined: " + escape_markdown(value.reason)
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float | Fraction):
        return decimal(value, MAX_DECIMALS).prose()
    text = str(value)
    return escape_markdown(text if len(text) <= 40 else text[:39] + "…")


def names(book: Book, *paths: str) -> str:
    """Every path a placeholder can name in one subject's model: what it is (its docstring) and its value."""
    if len(paths) != 1 or paths[0] not in book.subjects:
        raise GuideError(f"block 'names' takes one of {', '.join(book.subjects)}, got {' '.join(paths) or 'nothing'}")
    rows = []
    for named in walk(book.subjects[paths[0]]):
        leaf = not (dataclasses.is_dataclass(named.value) or isinstance(named.value, Mapping))
        formula = formula_layout(book, named.owner, named.field) is not None and leaf
        if not leaf and not formula:
            continue
        kind = "claim" if isinstance(named.value, bool) else "formula, value" if formula else "value"
        said = "" if named.keys else describe(named.owner, named.field)
        rows.append([code(named.path), kind, escape_markdown(said), _value(named.value)])
    return table(["path", "placeholders", "what it is", "now"], rows)


BLOCKS: dict[str, Callable[..., str]] = {"drift-guard-example": drift_guard_example, "names": names}
