"""The book as the engine sees it: the subjects a path can start with, and the chapters' layouts.

hooks/checks.py builds one Book from grpo_examples and hooks/chapters/ and hands it to the engine; nothing
in the engine imports a chapter. A Book is compared by identity, so what is computed from it (the drift
guard's index) can be cached on it for one build.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass

from hooks.engine.contract import Blocks, Formulas, LayoutError, Widgets
from hooks.engine.tree import Found, Subject, walk


@dataclass(frozen=True, eq=False)
class Book:
    """What the wiring hands the engine."""

    subjects: Mapping[str, Subject]
    formulas: Formulas
    blocks: Blocks
    widgets: Widgets


def formula_layout(book: Book, owner: object, field: str) -> Callable[..., str] | None:
    """The layout that fills in the formula of owner's field (looked up along owner's classes), if any."""
    for klass in type(owner).__mro__:
        layout = book.formulas.get((klass, field))
        if layout is not None:
            return layout
    return None


def keys_taken(layout: Callable[..., str]) -> int:
    """How many mapping keys a formula's layout takes after the model it draws (easy.advantage.wrong: one)."""
    return len(inspect.signature(layout).parameters) - 1


def formula_paths(book: Book, owner: object, owner_path: str) -> list[str]:
    """The paths of owner's fields that have a formula, for messages: easy.mean, easy.advantage.<key>."""
    paths = []
    for (klass, field), layout in book.formulas.items():
        if isinstance(owner, klass):
            paths.append(f"{owner_path}.{field.replace('_', '-')}" + ".<key>" * keys_taken(layout))
    return sorted(set(paths))


def formula(book: Book, found: Found) -> str | None:
    """The TeX of the formula that computes what the path found; None if no layout draws it.

    LayoutError when the path names more or less than the layout draws, or the layout cannot draw this one.
    """
    layout = formula_layout(book, found.owner, found.field)
    if layout is None:
        return None
    taken = keys_taken(layout)
    if len(found.keys) < taken and isinstance(found.value, Mapping):
        entries = ", ".join(f"{found.path}.{key}" for key in found.value)
        raise LayoutError(f"its formula is drawn for one entry at a time: name one ({entries})")
    if len(found.keys) != taken:
        whole = ".".join(found.path.split(".")[: len(found.path.split(".")) - len(found.keys) + taken])
        raise LayoutError(f"its formula is drawn for {whole}: write <!-- grpo:formula {whole} -->")
    return layout(found.owner, *found.keys)


def formulas_of(book: Book, start: Subject) -> Iterator[tuple[str, str]]:
    """(path, TeX) for every formula of a subject that its layouts can fill in: for the drift guard's index."""
    for named in walk(start):
        layout = formula_layout(book, named.owner, named.field)
        if layout is None or isinstance(named.value, Mapping):
            continue
        try:
            yield named.path, layout(named.owner, *named.keys)
        except LayoutError:
            continue
