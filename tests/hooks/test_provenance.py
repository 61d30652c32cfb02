"""Every number a page shows says how it was computed, and that expression computes it.

For every `grpo:value` placeholder written in the book's pages (read from their sources, in prose only: in
code a placeholder is shown, not expanded), the path is resolved, its expression is evaluated with nothing
but the `grpo_examples` package in scope, as a reader pasting it into a Python session would, and the result
must be the value the page prints. The tooltip the page shows is that same expression.
(tests/site checks the same of the built pages.)
"""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest
from mkdocs.utils.meta import get_data

import grpo_examples
from hooks import checks
from hooks.engine import scan
from hooks.engine.placeholders import expand
from hooks.engine.tree import resolve
from tests.conftest import ROOT

VALUE = re.compile(r"<!--\s*grpo:value\s+(?P<path>\S+)(?P<options>[^>]*?)-->")


def _values(page: Path) -> list[tuple[int, str, str]]:
    """(line, path, the placeholder as written) for every grpo:value of a page's prose."""
    markdown, _ = get_data(page.read_text(encoding="utf-8"))
    found = []
    for line in scan.lines(markdown):
        if line.fence is not None:
            continue
        spans = [s for s in scan.code_spans(line.text) if not s.is_math]
        for match in VALUE.finditer(line.text):
            if not any(s.start <= match.start() < s.end for s in spans):
                found.append((line.number, match.group("path"), match.group()))
    return found


PLACEHOLDERS = [
    (page.relative_to(ROOT).as_posix(), line, path, text)
    for page in sorted((ROOT / "docs").rglob("*.md"))
    for line, path, text in _values(page)
]


def test_the_book_has_values_to_check() -> None:
    # the chapters print well over a hundred computed values; an empty list would make the test below vacuous
    assert len(PLACEHOLDERS) > 100
    assert {page for page, *_ in PLACEHOLDERS} >= {"docs/grpo.md", "docs/ppo.md", "docs/training-run.md"}


@pytest.mark.parametrize(("page", "line", "path", "text"), PLACEHOLDERS, ids=lambda x: str(x))
def test_the_expression_of_every_value_computes_it(page: str, line: int, path: str, text: str) -> None:
    found = resolve(checks.book().subjects, path)
    evaluated = eval(found.expression, {"__builtins__": {}, "grpo_examples": grpo_examples})
    assert type(evaluated) is type(found.value), f"{page}:{line}: {found.expression}"
    assert evaluated == found.value, f"{page}:{line}: {found.expression}"
    # and it is the expression the page's tooltip shows
    shown = expand(checks.book(), text).markdown
    assert f'title="Computed at build time: {html.escape(found.expression, quote=True)}"' in shown
    assert html.unescape(shown).count(found.expression) == 1
