"""A chapter's text through the book's own page hook and Markdown, without a site build.

The page goes through the build's own check (hooks/checks.py check_page, which on_page_markdown and
scripts/check_chapters.py call), then the result goes through the Markdown extensions of mkdocs.yml with
the book's KaTeX: what `mkdocs build` puts inside <article>, in milliseconds instead of seconds, so that
property tests can feed it hundreds of chapters.

The hook works on the Book that hooks/checks.py builds (every group, every chapter, every layout). A test
that needs a model the data files do not hold (a chapter computed on other settings, a hostile text) hands
the hook a Book with that subject added or replaced: `swap_book`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from functools import cache

import markdown
import pytest
from mkdocs.config import load_config
from mkdocs.exceptions import PluginError

from hooks import checks, events
from hooks.engine.book import Book
from hooks.engine.markdown import Markdown
from hooks.engine.report import Report
from hooks.engine.tree import Subject
from hooks.engine.widget import Widget
from tests.conftest import ROOT

PAGE = "docs/fuzz.md"
# "docs/fuzz.md:12: message" (a placeholder or formula, then the offending text on the next line), or
# "docs/fuzz.md:12:5: message" (the drift guard, with the column of the typed number)
ERROR = re.compile(r"\A" + re.escape(PAGE) + r":(?P<line>\d+)(?::\d+)?: (?P<message>\S.*)", re.DOTALL)
PROBLEM = re.compile(r"^" + re.escape(PAGE) + r":(?P<line>\d+)(?::(?P<column>\d+))?: (?P<message>.*)$", re.MULTILINE)
VALUE = re.compile(r'<span class="grpo-value" title="(?P<title>[^"]*)">(?P<shown>.*?)</span>')


@cache
def markdown_converter() -> markdown.Markdown:
    """Python-Markdown with mkdocs.yml's extensions and the book's KaTeX, as the build converts a page."""
    config = events.on_config(load_config(str(ROOT / "mkdocs.yml")))
    return markdown.Markdown(extensions=config.markdown_extensions, extension_configs=config.mdx_configs)


def page_markdown(text: str, source: str | None = None) -> str:
    """The hook's Markdown for a chapter whose source is text; PluginError as the build would raise it.

    source is the whole file when it has front matter: MkDocs hands the hook the file without it (text),
    and the hook finds the line its Markdown starts on in the file.
    """
    report = Report()
    result = checks.check_page(text, checks.Source(PAGE, text if source is None else source), ROOT, report)
    if len(report):
        raise PluginError(report.text())  # as on_env raises it
    return result.markdown


def page_html(text: str) -> str:
    """The chapter as HTML (the <article>'s content), or PluginError."""
    converter = markdown_converter()
    converter.reset()
    html: str = converter.convert(page_markdown(text))
    return html


def error_line(error: PluginError) -> int:
    """The line a build error names; AssertionError if the message does not name the page and a line."""
    match = ERROR.match(str(error))
    assert match is not None, f"not a located error: {error}"
    return int(match.group("line"))


def problems(error: PluginError) -> list[tuple[int, str]]:
    """(line, message) for every problem one build error reports, in the order it reports them."""
    return [(int(m.group("line")), m.group("message")) for m in PROBLEM.finditer(str(error))]


def refusal(text: str) -> str:
    """The build error the hook raises on the chapter text; AssertionError if it accepts the text."""
    with pytest.raises(PluginError) as caught:
        page_markdown(text)
    return str(caught.value)


def value(path_and_options: str) -> str:
    """What `<!-- grpo:value path options -->` shows in a sentence (the text of its span)."""
    return value_span(page_markdown(f"<!-- grpo:value {path_and_options} -->"))[1]


def value_span(markdown_text: str) -> tuple[str, str]:
    """The tooltip (HTML-escaped) and the shown text of the only grpo-value span of the Markdown."""
    found = VALUE.findall(markdown_text)
    assert len(found) == 1, markdown_text
    title, shown = found[0]
    return str(title), str(shown)


def formula_tex(path: str) -> str:
    """The TeX of `<!-- grpo:formula path -->`, inline, without its $`...`$."""
    text = page_markdown(f"<!-- grpo:formula {path} -->")
    assert text.startswith("$`") and text.endswith("`$"), text
    return text[2:-2]


def block(name_and_paths: str) -> str:
    """The Markdown of `<!-- grpo:block name paths -->`, with the note the engine ends it with."""
    return page_markdown(f"<!-- grpo:block {name_and_paths} -->")


def book_with(
    subjects: Mapping[str, Subject] | None = None,
    formulas: Mapping[tuple[type, str], Callable[..., str]] | None = None,
    blocks: Mapping[str, Callable[..., Markdown]] | None = None,
    widgets: Mapping[str, Callable[..., Widget]] | None = None,
) -> Book:
    """The book's own Book with these subjects and layouts added (or, for a name it has, replacing its own)."""
    real = checks.book()
    return Book(
        {**real.subjects, **(subjects or {})},
        {**real.formulas, **(formulas or {})},
        {**real.blocks, **(blocks or {})},
        {**real.widgets, **(widgets or {})},
    )


def swap_book(monkeypatch: pytest.MonkeyPatch, book: Book) -> Book:
    """Have the page hook work on this Book for the rest of the test (as if hooks/checks.py had built it)."""
    monkeypatch.setattr(checks, "book", lambda: book)
    return book


def model_subject(name: str, model: object, expression: str, data: str = "a test's own model") -> Subject:
    """A subject whose model is the given object (a chapter on other settings, a group of other rewards)."""
    return Subject(name, lambda: model, expression, data)


__all__ = [
    "PAGE",
    "PluginError",
    "block",
    "book_with",
    "error_line",
    "formula_tex",
    "markdown_converter",
    "model_subject",
    "page_html",
    "page_markdown",
    "problems",
    "refusal",
    "swap_book",
    "value",
    "value_span",
]
