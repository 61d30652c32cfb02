"""Hostile and broken chapter text: the build succeeds or stops with the page and the line, never anything else.

Hypothesis writes chapters out of the pieces an author types (prose, placeholders valid and mangled, inline and
display math, code, HTML) and runs each through the page hook and the Markdown of the real build
(tests/chapter_pipeline.py). Whatever it writes, the hook either returns a page whose HTML holds no
placeholder and no unrendered formula, or raises the build's error naming docs/fuzz.md and a line of it.
(Real `mkdocs build`s of hostile pages, and a browser reading them, are tests/site's and tests/browser's.)
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from pymdownx.snippets import SnippetMissingError  # type: ignore[import-untyped]

from hooks import checks
from hooks.engine import guide
from hooks.engine.book import formula_layout
from hooks.engine.placeholders import KINDS, PlaceholderError, parse
from hooks.engine.tree import Subject, walk
from tests.chapter_pipeline import PluginError, book_with, error_line, markdown_converter, page_html, swap_book

BOOK = checks.book()
SUBJECTS = list(BOOK.subjects)
NODES = [named for subject in BOOK.subjects.values() for named in walk(subject)]
# A formula's path: each node a layout draws, a whole mapping (easy.advantage: it must say to name an entry) too.
FORMULA_PATHS = [n.path for n in NODES if formula_layout(BOOK, n.owner, n.field) is not None]
VALUE_PATHS = [n.path for n in NODES if not dataclasses.is_dataclass(n.value)]
CLAIM_PATHS = [n.path for n in NODES if isinstance(n.value, bool)]
MODEL_PATHS = SUBJECTS + [n.path for n in NODES if dataclasses.is_dataclass(n.value)]

# Placeholders an author could write, right...
_good_placeholder = st.one_of(
    st.sampled_from(VALUE_PATHS).map(lambda path: f"<!-- grpo:value {path} -->"),
    st.sampled_from(VALUE_PATHS).map(lambda path: f"<!-- grpo:value {path} as=words -->"),
    st.sampled_from(FORMULA_PATHS).map(lambda path: f"<!-- grpo:formula {path} -->"),
    st.sampled_from(FORMULA_PATHS).map(lambda path: f"<!-- grpo:formula {path} display -->"),
    st.tuples(st.sampled_from([*BOOK.blocks, *guide.BLOCKS]), st.lists(st.sampled_from(MODEL_PATHS), max_size=3)).map(
        lambda b: f"<!-- grpo:block {b[0]} {' '.join(b[1])} -->"
    ),
    st.sampled_from(CLAIM_PATHS).map(lambda path: f"<!-- grpo:check {path} -->"),
    st.tuples(st.sampled_from(list(BOOK.widgets)), st.lists(st.sampled_from(MODEL_PATHS), max_size=2)).map(
        lambda w: f"<!-- grpo:widget {w[0]} {' '.join(w[1])} -->"
    ),
)


# ...and wrong: a character dropped, doubled or swapped in, anywhere.
@st.composite
def _mangled(draw: st.DrawFn) -> str:
    text: str = draw(_good_placeholder)
    at = draw(st.integers(0, len(text) - 1))
    edit = draw(st.sampled_from(["drop", "double", "swap"]))
    swapped: str = draw(st.sampled_from(list("<>-!`$ .=:\"'&{}\\|")))
    if edit == "drop":
        return text[:at] + text[at + 1 :]
    if edit == "double":
        return text[:at] + text[at] + text[at:]
    return text[:at] + swapped + text[at + 1 :]


_words = st.text(alphabet="abcdefghij klmnopqrstuvwxyz,;.!?()'\"", max_size=30)
_markup = st.sampled_from(
    [
        "<!--", "-->", "grpo:", "<!-- grpo:", "<!--grpo:value easy.mean-->", "<!-- Grpo:value easy.mean -->",
        "`", "``", "$`", "`$", "$`x^{a}`$", "$`\\frac{a}{b}`$", "$`\\frac{a}{`$", "$`\\unknowncommand`$",
        "$``a`b``$", "$", "\\", "{", "}", "|", "| a | b |", "*", "_", "[^n]", "[link](#nowhere)",
        "<script>alert(1)</script>", '<img src=x onerror="alert(1)">', "&amp;", "&", "<", ">", "<div>", "</div>",
        "{{ config.site_name }}", "{% raw %}", "    ", "\t", "# ", "## ", "- ", "> ", "!!! note", "???+ note",
        "<!-- literal: a reason -->",
    ]
)  # fmt: skip
_fence = st.sampled_from(["```", "```math", "```python", "~~~", "````"])
_line = st.lists(st.one_of(_words, _markup, _good_placeholder, _mangled()), max_size=6).map("".join)
_tex = st.sampled_from(["x^2", "\\frac{a}{b}", "\\mu = \\sigma", "\\frac{a}{", "\\unknowncommand", "a_{i,t}", ""])
# A fenced block as authors write it (opened, some lines, closed), and a fence on its own (left open).
_block = st.tuples(_fence, st.lists(st.one_of(_line, _tex), max_size=3)).map(
    lambda b: "\n".join([b[0], *b[1], b[0].rstrip("mathpyon")])
)
_chapter = st.lists(st.one_of(_line, _line, _block, _fence, st.just("")), min_size=1, max_size=14).map("\n".join)

# What must never reach a reader: a placeholder, a formula's delimiters, markdown-katex's markers.
_LEFT_OVER = re.compile(r"<!--\s*grpo|\$`|`\$|```math|tmp_(?:inline|block)_md_katex", re.IGNORECASE)
_NOT_PROSE = re.compile(
    r"<(code|pre|script)\b.*?</\1>|<annotation\b.*?</annotation>|<!--\s*literal:.*?-->", re.DOTALL | re.IGNORECASE
)


def _check(text: str) -> None:
    """The property: a page whose HTML holds nothing left over, or the build's located error."""
    try:
        html = page_html(text)
    except PluginError as error:
        line = error_line(error)
        assert 1 <= line <= text.count("\n") + 1, f"line {line} is not in the page: {error}"
        return
    prose = _NOT_PROSE.sub(" ", html)
    left = _LEFT_OVER.search(prose)
    assert left is None, f"left in the HTML: {prose[max(0, left.start() - 80) : left.end() + 80]!r}"
    values = re.findall(r'<span class="grpo-value"[^>]*>(.*?)</span>', html)
    assert not any(re.search(r"\b(nan|inf)\b", v, re.IGNORECASE) for v in values), values


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_chapter)
@example("The mean is <!-- grpo:value easy.mean -->.\n\n<!-- grpo:formula easy.std display -->")
@example("```math\n<!-- grpo:value easy.mean -->\n```")
@example("A formula $`\\frac{a}{`$ that KaTeX rejects.")
@example("<!-- grpo:value easy.mean")
@example("Ends in an inline formula with no closing dollar: $`x`")  # markdown-katex's IndexError
@example("```math\n\\frac{a}{b}")  # a math block never closed: raw TeX on the page
@example("Half a formula: x^{a}`$ here.")
@example("`$<!-- grpo:formula easy.rewards -->")  # a stray `$ that looked like inline code around "$$"
@example("<!-- GRPO:value easy.mean -->")  # a misspelt placeholder must not vanish as a comment
@example("<!-- grpoo:value easy.mean -->")
def test_any_chapter_builds_or_stops_with_its_page_and_line(text: str) -> None:
    _check(text)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=80))
def test_the_parser_accepts_or_refuses_any_text_with_a_reason(body: str) -> None:
    try:
        placeholder = parse(f"<!-- grpo:{body} -->")
    except PlaceholderError as error:
        assert str(error)
        return
    assert placeholder.kind and " " not in placeholder.kind


@settings(max_examples=200, deadline=None)
@given(
    st.sampled_from(list(KINDS)),
    st.text(alphabet=st.characters(codec="utf-8", exclude_categories=["Cs"]), min_size=1, max_size=40).filter(
        lambda s: any(c in s for c in "<>\"'&`/(")
    ),
)
def test_a_placeholder_cannot_carry_markup_or_code_into_the_page(kind: str, argument: str) -> None:
    # No path, kind or layout name holds < > " ' & ` / or (: any argument that does is refused, never echoed or run.
    argument = argument.replace("-->", "").replace("\n", " ")
    with pytest.raises(PluginError) as refused:
        page_html(f"Text <!-- grpo:{kind} {argument} --> more.")
    assert error_line(refused.value) == 1


_ATTEMPTS = [
    "__class__",
    "easy.__class__",
    "easy.__dict__",
    "easy.mean.__class__.__init__",
    "easy.outcome",  # a method: never called
    "__import__('os').system('touch${IFS}/tmp/grpo-book-pwned')",
    "eval(\"open('/tmp/grpo-book-pwned','w')\")",
    "os.system",
    "grpo_examples.group",
    "run.__globals__",
    "easy.responses",
    "{{7*7}}",
]


@pytest.mark.parametrize("name", _ATTEMPTS)
@pytest.mark.parametrize("kind", ["value", "formula", "block", "check", "widget"])
def test_only_paths_resolve_nothing_is_evaluated(kind: str, name: str) -> None:
    marker = Path("/tmp/grpo-book-pwned")
    marker.unlink(missing_ok=True)
    source = (
        f"<!-- grpo:{kind} {name} -->" if kind in ("value", "formula", "check") else f"<!-- grpo:{kind} {name} easy -->"
    )
    with pytest.raises(PluginError) as refused:
        page_html(source)
    assert error_line(refused.value) == 1
    assert "49" not in str(refused.value)
    assert not marker.exists()


@dataclass(frozen=True)
class _Hostile:
    """A model whose text comes from a data file an attacker wrote."""

    text: str


def test_a_values_text_and_its_provenance_are_escaped(monkeypatch: pytest.MonkeyPatch) -> None:
    # A value's text and the expression shown in its tooltip may come from data (a group's name is part of its
    # expression): neither may close the attribute or open a tag.
    hostile = Subject(
        "hostile",
        lambda: _Hostile('<img src=x onerror="alert(1)">'),
        'f(x="1") onmouseover="alert(1)" <b>',
        "hostile.toml",
    )
    swap_book(monkeypatch, book_with({"hostile": hostile}))
    html = page_html("Says <!-- grpo:value hostile.text --> here.")
    span = re.search(r'<span class="grpo-value" title="([^"]*)">(.*?)</span>', html)
    assert span is not None, html
    title, shown = span.groups()
    assert "&quot;" in title and "<" not in title and "onmouseover=" in title  # kept, as text inside the value
    assert "&lt;img" in shown
    assert "<img" not in html and "<b>" not in html


def test_a_snippet_cannot_pull_in_a_file_from_outside_the_book() -> None:
    # pymdownx.snippets (restrict_base_path) refuses a path outside the project, in the Markdown the build uses.
    with pytest.raises(SnippetMissingError, match="/etc/passwd"):
        markdown_converter().convert('--8<-- "/etc/passwd"\n')
