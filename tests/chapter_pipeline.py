"""A chapter's text through the book's own page hook and Markdown, without a site build.

The hook is called exactly as `mkdocs build` calls it (hooks/events.py on_page_markdown, as
scripts/check_chapters.py does), then the result goes through the Markdown extensions of mkdocs.yml with
the book's KaTeX: what `mkdocs build` puts inside <article>, in milliseconds instead of seconds, so that
property tests can feed it hundreds of chapters.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from typing import Any, cast

import markdown
from mkdocs.config import load_config
from mkdocs.exceptions import PluginError

from hooks import events
from tests.conftest import ROOT

PAGE = "docs/fuzz.md"
# "docs/fuzz.md:12: message" (a placeholder or formula, then the offending text on the next line), or
# "docs/fuzz.md:12:5: message" (the drift guard, with the column of the typed number)
ERROR = re.compile(r"\A" + re.escape(PAGE) + r":(?P<line>\d+)(?::\d+)?: (?P<message>\S.*)", re.DOTALL)


@dataclass(frozen=True)
class _File:
    src_uri: str
    abs_src_path: str
    content_string: str


@dataclass(frozen=True)
class _Page:
    file: _File


@dataclass(frozen=True)
class _Config:
    docs_dir: str
    config_file_path: str


@cache
def markdown_converter() -> markdown.Markdown:
    """Python-Markdown with mkdocs.yml's extensions and the book's KaTeX, as the build converts a page."""
    config = events.on_config(load_config(str(ROOT / "mkdocs.yml")))
    return markdown.Markdown(extensions=config.markdown_extensions, extension_configs=config.mdx_configs)


def page_markdown(text: str) -> str:
    """The hook's Markdown for a chapter whose source is text; PluginError as the build would raise it."""
    page = _Page(_File("fuzz.md", str(ROOT / PAGE), text))
    config = _Config(str(ROOT / "docs"), str(ROOT / "mkdocs.yml"))
    result: str = events.on_page_markdown(text, cast(Any, page), cast(Any, config), cast(Any, None))
    return result


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


__all__ = ["PAGE", "PluginError", "error_line", "markdown_converter", "page_html", "page_markdown"]
