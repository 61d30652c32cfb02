"""The author's guide's own blocks, drawn by the engine from the engine: they stay true as the book changes.

<!-- grpo:block drift-guard-example -->   a line with a typed number, and the drift guard's message on it
<!-- grpo:block names easy -->            every path of a subject's model, what it is, and its value now
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import is_dataclass
from fractions import Fraction

from grpo_examples import Undefined
from hooks.engine import drift_guard
from hooks.engine.book import Book, formula_layout, keys_taken
from hooks.engine.contract import LayoutError
from hooks.engine.markdown import Markdown, code, code_block, join, md, table
from hooks.engine.numbers import MAX_DECIMALS, decimal
from hooks.engine.tree import Meaning, Named, describe, walk


class GuideError(ValueError):
    """A guide block given what it cannot draw."""


EXAMPLE_PAGE, EXAMPLE_LINE = "docs/example.md", 12
NO_PLACEHOLDER = "none (name an entry)"  # a collection's row: no placeholder takes the collection itself
EXAMPLE = "The baseline is 0.8 for the group above."


def guard_message(book: Book, text: str, page: str = EXAMPLE_PAGE, line: int = EXAMPLE_LINE) -> str:
    """The guard's message for text as line `line` of `page`; GuideError if the guard lets it pass."""
    try:
        drift_guard.guard(book, text, page, first_line=line)
    except drift_guard.DriftError as error:
        return str(error)
    raise GuideError(f"the drift guard accepts {text!r}: choose an example with a typed number")


def drift_guard_example(book: Book, *paths: str) -> Markdown:
    """The example line, in a Markdown fence, and the guard's message about it, in a text fence."""
    if paths:
        raise GuideError(f"block 'drift-guard-example' takes no path, got {len(paths)}")
    return join(
        "\n\n",
        [
            md("Line {} of a page that reads", EXAMPLE_LINE),
            code_block(EXAMPLE, "markdown"),
            Markdown("stops the build with"),
            code_block(guard_message(book, EXAMPLE), "text"),
        ],
    )


def _value(value: object, meaning: Meaning) -> str:
    if isinstance(value, Undefined):
        return "not defined: " + value.reason
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float | Fraction):
        return decimal(value, meaning.places or MAX_DECIMALS).prose(signed=meaning.signed)
    text = str(value)
    return (text if len(text) <= 40 else text[:39] + "…") if isinstance(value, str) else "(several)"


def _has_formula(book: Book, named: Named) -> bool:
    """Whether <!-- grpo:formula path --> works for this node: a layout draws it, and draws this one."""
    layout = formula_layout(book, named.owner, named.field)
    if layout is None or isinstance(named.value, Mapping) or keys_taken(layout) != len(named.keys):
        return False
    try:
        layout(named.owner, *named.keys)
    except LayoutError:
        return False
    return True


def _is_collection(value: object) -> bool:
    """A mapping of models (ppo.cases, bandit.candidates): its entries share their paths, listed once."""
    return isinstance(value, Mapping) and bool(value) and all(is_dataclass(v) for v in value.values())


def names(book: Book, *paths: str) -> Markdown:
    """Every path a placeholder can name in one subject's model: what kind of placeholder takes it, what it is
    (the field's docstring, on the first of the paths one field holds; the others point to it) and its value now.
    The entries of a collection share their paths: they are listed once, with <key> for the entry and the value
    of the first."""
    if len(paths) != 1 or paths[0] not in book.subjects:
        raise GuideError(f"block 'names' takes one of {', '.join(book.subjects)}, got {' '.join(paths) or 'nothing'}")
    rows: list[list[str]] = []
    seen: set[str] = set()
    collections: list[str] = []  # the paths of the collections met so far
    first_row: dict[tuple[type, str], str] = {}  # each field's first path: where it is described
    for named in walk(book.subjects[paths[0]]):
        value, path = named.value, named.path
        for prefix in sorted(collections, key=len, reverse=True):
            if path.startswith(prefix + "."):
                rest = path[len(prefix) + 1 :].partition(".")[2]
                path = f"{prefix}.<key>" + (f".{rest}" if rest else "")
                break
        collection = value if isinstance(value, Mapping) and _is_collection(value) else None
        if collection is not None:
            collections.append(named.path)  # its entries' paths are written with <key>, this one's included
        if path in seen:  # another entry of a collection, listed with the first's: nothing to draw
            continue
        field = (type(named.owner), named.field)
        first = first_row.get(field)
        said = describe(named.owner, named.field) if first is None else md("As for {}.", code(first))
        if collection is not None:
            keys = ", ".join(str(k) for k in collection)
            row = [code(path), NO_PLACEHOLDER, said, f"keys: {keys}"]
        else:
            formula = _has_formula(book, named)
            if isinstance(value, bool):
                kind = "check"
            elif isinstance(value, int | float | Fraction | str | Undefined):
                kind = "value, formula" if formula else "value"
            elif formula:
                kind = "formula"
            else:
                continue  # a model or a mapping of values: its own paths are listed
            row = [code(path), kind, said, _value(value, named.meaning)]
        seen.add(path)
        first_row.setdefault(field, path)
        rows.append(row)
    return table(["path", "placeholder", "what it is", "its value now (the first entry's)"], rows)


BLOCKS: dict[str, Callable[..., Markdown]] = {"drift-guard-example": drift_guard_example, "names": names}
