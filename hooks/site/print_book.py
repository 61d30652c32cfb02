"""The whole book on one page (print/), made at build time from the nav: to print, or to save as PDF.

MkDocs turns every page's Markdown into HTML before it writes any page, so when the print page is
written (on_page_context) every chapter's HTML is ready. This module joins them in the order of the
nav, so that a new chapter joins by itself. Each chapter goes in a <section> of its own, its headings one
level down under the book's title; its ids get the chapter's name in front (two chapters' "#sources"
stay apart); links between chapters become links within the page; and the addresses of images and
other files are rewritten for the print page's own place in the site. Widgets stay as the tables computed
with the book, which is what prints: the page does not load their scripts (every widget of the book on one
page would be more script than a page may carry, for figures nobody uses on paper).

Every chapter after the first is written inside a <template>, in a section marked aria-busy, and
docs/assets/javascripts/whole-book.js moves it into the page, 150 elements per frame, once the page
has loaded, and all at once before printing or a jump into a later chapter. The whole book laid out in one
go is 25,000 elements, more than a phone lays out without blocking for seconds (benchmarks/rationale.md,
"The whole book on one page"); this way the first screen comes as fast as a chapter's, and the rest follows
without a long task. Without JavaScript the page shows its first chapter and says where the others are.

The book is 1.3 MB of HTML (14 MB in the benchmark's book of ten times the chapters), and every build writes it
anew. Given to MkDocs as the page's content, it was copied four times before it was written (joined, rendered
into Material's template, by MkDocs' `output.strip()`, encoded), 28 MB each time at 10x (a string with KaTeX's
characters takes two bytes a character): 0.09 s of a chapter's 0.37 s rebuild under `make serve` at 10x. So the
template renders the page's heading and a stand-in for the rest, each chapter's section is encoded once (and kept
while its chapter is unchanged), and on_post_build writes the page again, the sections written one after another
at the stand-in: the same bytes MkDocs would have written.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Sequence
from functools import lru_cache
from html import escape
from urllib.parse import urljoin, urlsplit

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File, InclusionLevel
from mkdocs.structure.nav import Link, Navigation, Section
from mkdocs.structure.pages import Page

PRINT_SOURCE = "print.md"
PRINT_PATH = "/print/"
# The book as files a reader keeps, which `make build` writes into the site (scripts/books); the footer links both
# (overrides/partials/copyright.html), and a chapter may.
BOOK_FILES = PDF_NAME, EPUB_NAME = "book.pdf", "book.epub"
_STUB = """---
title: The whole book
description: Every page of the book on one page, in the order of the site, to print or to save as a PDF.
search:
  exclude: true
hide:
  - navigation
  - toc
---

# The whole book
"""
SCRIPT = "assets/javascripts/whole-book.js"  # fills in the chapters held in <template>s
NOSCRIPT = (
    "Without JavaScript this page shows only its first chapter: the others are filled in by a script once the "
    "page has loaded. Each chapter's own page shows it whole."
)
NOTE = (
    "Every page of the book, in the order of the site. To keep a copy, print this page or save it as a PDF "
    "(your browser's Print, then Save as PDF). Interactive figures show here as the tables computed with the "
    "book; their chapters hold them live."
)

# An opening tag with its attributes (quoted values may hold '>'), a heading's closing tag, one attribute.
_OPENING_TAG = re.compile(
    r"""<([a-zA-Z][a-zA-Z0-9:-]*)((?:\s+[^\s"'>/=]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'>]+))?)*)\s*(/?)>"""
)
_CLOSING_HEADING = re.compile(r"</h([1-5])>")
_HEADING = re.compile(r"h[1-5]")
_ATTRIBUTE = re.compile(
    r"""(\s)(id|for|popovertarget|aria-labelledby|aria-describedby|aria-controls|href|src|xlink:href)=("[^"]*"|'[^']*')"""
)
_ID_LISTS = {"aria-labelledby", "aria-describedby", "aria-controls"}
_WIDGET_SCRIPT = re.compile(r'\sdata-widget-script="[^"]*"')  # what the loader reads (hooks/engine/widget.py)


def print_file(config: MkDocsConfig) -> File:
    """The print page's file: a stub whose content on_page_context replaces with the book."""
    return File.generated(config, PRINT_SOURCE, content=_STUB, inclusion=InclusionLevel.NOT_IN_NAV)


def is_print_page(page: Page) -> bool:
    return bool(page.file.src_uri == PRINT_SOURCE)


# What the template renders in place of the book; a comment, so that a page written without it is still HTML.
STAND_IN = "<!-- grpo: the whole book is put here once the page is written -->"


class PrintPageError(Exception):
    """The theme did not render the print page's content, so the book has nowhere to go."""


def page_content(book_title: str) -> str:
    """What Material's template renders as the print page's content: its heading (a page without an <h1> would get
    one from the template) and the stand-in for the rest of the book."""
    return f'<h1 id="the-whole-book">{escape(book_title)}</h1>\n{STAND_IN}'


def whole_book(nav: Navigation) -> list[bytes]:
    """The HTML of every page of the nav, in order, as one page at PRINT_PATH: what follows its heading, as UTF-8
    in pieces (the chapters' sections, each as kept), which write() puts in the page without joining them."""
    chapters = [page for page in nav.pages if page.content is not None and not is_print_page(page)]
    names = {_site_path(page.url): _chapter_name(page.url) for page in chapters}
    all_names = tuple(names.items())
    head = [
        f'<p class="grpo-book-note">{NOTE}</p>',
        '<nav class="grpo-book-contents" aria-labelledby="contents">',
        '<h2 id="contents">Contents</h2>',
        _contents(nav.items, names),
        "</nav>",
        f'<noscript><p class="grpo-book-note">{NOSCRIPT}</p></noscript>',
    ]
    script = f'<script src="{posixpath.relpath(SCRIPT, PRINT_PATH.strip("/"))}"></script>'
    sections = (
        _section(page.content or "", page.title, page.url, all_names, index > 0) for index, page in enumerate(chapters)
    )
    pieces = [_utf8("\n".join(head))]
    for section in sections:
        pieces += [b"\n", section]
    return [*pieces, b"\n", _utf8(script)]


def write(output: str, book: list[bytes], path: str) -> None:
    """Write the print page, which MkDocs has written with the stand-in: the template's output, with the book at
    the stand-in. The bytes are those MkDocs writes for a page (mkdocs 1.6.1, `commands/build.py` `_build_page`:
    UTF-8, `xmlcharrefreplace`)."""
    before, stand_in, after = output.partition(STAND_IN)
    if not stand_in:
        raise PrintPageError(
            f"{path}: the whole-book page came out of the theme without its content ({STAND_IN}); "
            "a template in overrides/ must render page.content, as Material's partials/content.html does"
        )
    with open(path, "wb") as file:
        file.writelines([_utf8(before), *book, _utf8(after)])


def _utf8(text: str) -> bytes:
    return text.encode("utf-8", errors="xmlcharrefreplace")


def _site_path(url: str) -> str:
    """A page's address from the site's root: 'grpo/' as '/grpo/', the home page as '/'."""
    path = "/" + url.lstrip("/")
    return path[: -len("index.html")] if path.endswith("/index.html") else path


def _chapter_name(url: str) -> str:
    """The prefix of a chapter's ids on the print page: 'guide/widgets/' as 'guide-widgets'."""
    return _site_path(url).strip("/").replace("/", "-").removesuffix(".html") or "home"


def _contents(items: Sequence[object], names: dict[str, str]) -> str:
    """The nav as a nested list of links to the chapters' sections."""
    entries = []
    for item in items:
        if isinstance(item, Section):
            entries.append(f"<li>{escape(item.title)}{_contents(item.children, names)}</li>")
        elif isinstance(item, Page) and _site_path(item.url) in names:
            name = names[_site_path(item.url)]
            entries.append(f'<li><a href="#{name}">{escape(item.title or name)}</a></li>')
        elif not isinstance(item, (Link, Page)):
            raise TypeError(f"unexpected nav item {item!r}")
    return "<ul>" + "".join(entries) + "</ul>"


@lru_cache(maxsize=1024)  # under `make serve`, a save rewrites this page; each chapter it did not change is as it was
def _section(
    page_content: str, title: str | None, url: str, all_names: tuple[tuple[str, str], ...], deferred: bool
) -> bytes:
    """A chapter's section; a deferred one holds its HTML in a <template> for whole-book.js to fill in."""
    names = dict(all_names)
    name, base = names[_site_path(url)], _site_path(url)
    content = _WIDGET_SCRIPT.sub("", page_content)  # the static tables only: see the docstring
    if "<h1" not in content:  # Material adds a page's title itself when its Markdown has none
        content = f'<h1 id="{name}-title">{escape(title or name)}</h1>\n{content}'
    body = _OPENING_TAG.sub(lambda tag: _opening_tag(tag, name, base, names), content)
    body = _CLOSING_HEADING.sub(lambda tag: f"</h{int(tag.group(1)) + 1}>", body)
    if deferred:  # data-filled-later: what overrides/partials/a11y-script.html looks for, after Material
        opening = f'<section class="grpo-book-chapter" id="{name}" aria-busy="true" data-filled-later>'
        return _utf8(f"{opening}<template>\n{body}\n</template></section>")
    return _utf8(f'<section class="grpo-book-chapter" id="{name}">\n{body}\n</section>')


def _opening_tag(tag: re.Match[str], name: str, base: str, names: dict[str, str]) -> str:
    element, attributes, slash = tag.group(1), tag.group(2), tag.group(3)
    if _HEADING.fullmatch(element):
        element = f"h{int(element[1]) + 1}"
    elif not _ATTRIBUTE.search(attributes):
        return f"<{element}{attributes}{slash}>"  # most tags (KaTeX's spans) have nothing to rewrite

    def attribute(match: re.Match[str]) -> str:
        space, key, quoted = match.groups()
        value = quoted[1:-1]
        if key in ("id", "for", "popovertarget"):
            value = f"{name}--{value}"
        elif key in _ID_LISTS:
            value = " ".join(f"{name}--{part}" for part in value.split())
        else:
            value = _address(value, name, base, names)
        return f"{space}{key}={quoted[0]}{value}{quoted[0]}"

    return f"<{element}{_ATTRIBUTE.sub(attribute, attributes)}{slash}>"


def _address(url: str, name: str, base: str, names: dict[str, str]) -> str:
    """A link or a file's address as seen from the print page; links to a chapter stay within the page."""
    if url.startswith("#"):
        return f"#{name}--{url[1:]}" if len(url) > 1 else url
    parts = urlsplit(url)
    if parts.scheme or parts.netloc or url.startswith("/"):
        return url  # another site, a data: URL, or an address from the root: the same from every page
    target = _site_path(urlsplit(urljoin("http://book" + base, parts.path)).path)
    if target in names:
        return f"#{names[target]}--{parts.fragment}" if parts.fragment else f"#{names[target]}"
    relative = posixpath.relpath(target, PRINT_PATH)
    relative += "/" if target.endswith("/") and not relative.endswith("/") else ""
    return relative + (f"?{parts.query}" if parts.query else "") + (f"#{parts.fragment}" if parts.fragment else "")
