"""The whole-book page (print/) cut into one XHTML body per chapter, for the EPUB.

The whole-book page already holds every chapter as it prints (hooks/site/print_book.py): its ids kept apart by
chapter, links between chapters made links within the page, widgets as their computed tables. An EPUB is XML and
runs no script, so this parser writes each chapter's section again as XHTML: every element closed, names in SVG's
own case, text and attributes escaped by html.escape (XML's five characters), and without what is only for a browser
on screen: scripts, the widgets' JSON, KaTeX's HTML copy of each formula and the label that stands for it (its
MathML stays: EPUB readers show MathML and read it aloud), the popovers behind computed values (a value stays as
text), permalinks and the words that speak of a widget's controls (class grpo-interactive; the words for the tables
stay). Headings go back up a level (a chapter's title is its file's h1), and each link is made to point at the
chapter file that holds its target, or at the site for a file that is not in the book. An image of the site goes
into the book (each chapter lists those it shows, book_image names them): EPUB readers load nothing from a site.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from html import escape, unescape
from html.parser import HTMLParser
from pathlib import PurePosixPath
from urllib.parse import unquote, urljoin, urlsplit

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
# HTMLParser reports names in lower case; SVG's are case-sensitive. The raw tag text keeps them (see _names).
_SKIPPED_ELEMENTS = {"script", "noscript", "style"}
_SKIPPED_CLASSES = {"katex-html", "headerlink", "grpo-interactive", "grpo-widget__data", "grpo-sr-only"}
_DROPPED_ATTRIBUTES = {"popover", "popovertarget", "aria-busy", "data-filled-later", "data-search-exclude"}
_ATTRIBUTE_NAME = re.compile(r"""([^\s"'>/=]+)(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'>]+))?""")
_HEADING = re.compile(r"h([1-6])")
_WRITTEN, _UNWRITTEN, _SKIPPED, _CHAPTER = "written", "unwritten", "skipped", "chapter"  # an open element's fate
MATHML = "http://www.w3.org/1998/Math/MathML"
SVG = "http://www.w3.org/2000/svg"


@dataclass
class Heading:
    level: int  # 1 for the chapter's title
    id: str
    text: str


@dataclass
class Chapter:
    """One chapter of the book as an XHTML body, with what the package document must say about it."""

    name: str  # the print page's id of its section: 'grpo', 'guide-widgets'
    body: list[str] = field(default_factory=list)
    headings: list[Heading] = field(default_factory=list)
    ids: set[str] = field(default_factory=set)
    has_math: bool = False
    has_svg: bool = False
    images: set[str] = field(default_factory=set)  # the site's images it shows, by their path in the site

    @property
    def file(self) -> str:
        return f"{self.name}.xhtml"


@dataclass
class ContentsEntry:
    """An entry of the book's contents: a chapter (by its section's id) or a part of the nav holding some."""

    title: str
    name: str | None
    children: list[ContentsEntry] = field(default_factory=list)


class MarkupError(ValueError):
    """The whole-book page is not as this parser expects it (a bug in the site, not a reader's mistake)."""


class _BookParser(HTMLParser):
    """Reads the whole-book page's <article>: its contents (nav) and its chapters' sections."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.chapters: list[Chapter] = []
        self.contents: list[ContentsEntry] = []
        self._open: list[tuple[str, str, str]] = []  # each open element: its tag, its name as written, its fate
        self._skipping = 0  # how many elements left out (with all they hold) are open
        self._chapter: Chapter | None = None
        self._contents_stack: list[list[ContentsEntry]] | None = None
        self._heading: Heading | None = None
        self._link_text: list[str] | None = None

    # Contents: <nav class="grpo-book-contents"><ul><li><a href="#name">Title</a></li><li>Part<ul>…</ul></li>
    def _contents_start(self, tag: str, attributes: dict[str, str | None]) -> None:
        assert self._contents_stack is not None
        if tag == "ul":
            parent = self._contents_stack[-1]
            self._contents_stack.append(parent[-1].children if parent else self.contents)
        elif tag == "li":
            self._contents_stack[-1].append(ContentsEntry("", None))
        elif tag == "a":
            self._contents_stack[-1][-1].name = (attributes.get("href") or "#").removeprefix("#")

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._start(tag, attrs, closed=tag in VOID)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._start(tag, attrs, closed=True)

    def _start(self, tag: str, attrs: list[tuple[str, str | None]], *, closed: bool) -> None:
        attributes = dict(attrs)
        classes = set((attributes.get("class") or "").split())
        if tag == "nav" and "grpo-book-contents" in classes:
            self._contents_stack = [[]]
        elif self._contents_stack is not None:
            self._contents_start(tag, attributes)
        if tag == "section" and "grpo-book-chapter" in classes:
            self._chapter = Chapter(attributes.get("id") or "")
            self.chapters.append(self._chapter)
            self._open.append((tag, tag, _CHAPTER))
            return
        if self._chapter is None or self._skipping or tag == "template":
            if not closed:
                self._open.append((tag, tag, _UNWRITTEN))
            return
        if tag in _SKIPPED_ELEMENTS or classes & _SKIPPED_CLASSES or "popover" in attributes:
            if not closed:
                self._skipping += 1
                self._open.append((tag, tag, _SKIPPED))
            return
        name, written = self._element(tag, attributes)
        self._chapter.has_math |= name == "math"
        self._chapter.has_svg |= name == "svg"
        names = _names(self.get_starttag_text() or "")
        text = "".join(f' {names.get(key, key)}="{escape(value or "", quote=True)}"' for key, value in written.items())
        self._chapter.body.append(f"<{name}{text}{' /' if closed else ''}>")
        if not closed:
            self._open.append((tag, name, _WRITTEN))

    def _element(self, tag: str, attributes: dict[str, str | None]) -> tuple[str, dict[str, str | None]]:
        """The element's name and attributes as the EPUB has them."""
        assert self._chapter is not None
        written = {key: value for key, value in attributes.items() if key not in _DROPPED_ATTRIBUTES}
        if "id" in written:
            self._chapter.ids.add(written["id"] or "")
        heading = _HEADING.fullmatch(tag)
        if heading:
            tag = f"h{max(1, int(heading.group(1)) - 1)}"
            if int(tag[1]) <= 2 and written.get("id"):
                self._heading = Heading(int(tag[1]), written["id"] or "", "")
        if tag == "button":  # a computed value: its popover is gone, the number stays
            tag = "span"
            written.pop("type", None)
        if tag == "a" and written.get("href"):
            written["href"] = "\0" + (written["href"] or "")  # resolved once every chapter's ids are known
        if tag == "img" and written.get("src"):
            written["src"] = "\0" + (written["src"] or "")  # and an image once the site's address is
        if tag == "math":
            written["xmlns"] = MATHML
        if "katex" in (written.get("class") or "").split():  # the site hides the formula for a label; here it
            written.pop("aria-hidden", None)  # is MathML, which reading systems read aloud themselves
        if tag == "details":  # notes on how numbers were computed are open, as in print: no click on paper
            written["open"] = "open"
        if tag == "svg":
            written["xmlns"] = SVG
        return tag, written

    def handle_endtag(self, tag: str) -> None:
        if self._contents_stack is not None:
            if tag == "ul":
                self._contents_stack.pop()
            elif tag == "nav":
                self._contents_stack = None
        if tag in VOID:
            return
        if not self._open:
            raise MarkupError(f"</{tag}> closes nothing")
        opened, name, kind = self._open.pop()
        if opened != tag:
            raise MarkupError(f"</{tag}> closes <{opened}>")
        if kind == _SKIPPED:
            self._skipping -= 1
        elif kind == _CHAPTER:
            self._chapter = None
        elif kind == _WRITTEN and self._chapter is not None:
            self._chapter.body.append(f"</{name}>")
            if self._heading is not None and _HEADING.fullmatch(name):
                self._chapter.headings.append(self._heading)
                self._heading = None

    def handle_data(self, data: str) -> None:
        if self._contents_stack is not None and len(self._contents_stack) > 1:
            entry = self._contents_stack[-1][-1]
            entry.title = " ".join((entry.title + data).split())
        if self._chapter is None or self._skipping:
            return
        self._chapter.body.append(escape(data, quote=False))
        if self._heading is not None:
            self._heading.text = " ".join((self._heading.text + data).split())


def _names(raw_tag: str) -> dict[str, str]:
    """The attribute names of a tag as written (viewBox, not viewbox), by their lower-case form."""
    after_name = raw_tag[1:].split(None, 1)[1] if " " in raw_tag else ""
    return {match.group(1).lower(): match.group(1) for match in _ATTRIBUTE_NAME.finditer(after_name)}


def read_book(print_html: str, print_url: str) -> tuple[list[Chapter], list[ContentsEntry]]:
    """The chapters of the whole-book page, with links resolved, and its contents."""
    start, end = print_html.find("<article"), print_html.rfind("</article>")
    if start < 0 or end < start:
        raise MarkupError("the whole-book page has no <article>")
    parser = _BookParser()
    parser.feed(print_html[start : end + len("</article>")])
    parser.close()
    if not parser.chapters or not parser.contents:
        raise MarkupError("the whole-book page holds no chapter or no contents")
    where = {identifier: chapter.file for chapter in parser.chapters for identifier in chapter.ids}
    where.update({chapter.name: chapter.file for chapter in parser.chapters})
    unheld: list[str] = []  # each link to an id no chapter holds, to report all at once
    for chapter in parser.chapters:
        chapter.body = [_resolve(part, where, print_url, chapter, unheld) for part in chapter.body]
    if unheld:
        raise MarkupError("\n".join(unheld))
    return parser.chapters, parser.contents


_MARKED_LINK = re.compile(r'(href|src)="\0([^"]*)"')


def _resolve(part: str, where: dict[str, str], print_url: str, chapter: Chapter, unheld: list[str]) -> str:
    site = urljoin(print_url, "../")  # the whole-book page is print/ of the site

    def link(match: re.Match[str]) -> str:
        address = match.group(2)  # escaped, as written in the tag; '#' and '&' survive escaping as they were
        if match.group(1) == "src":
            image = urljoin(print_url, unescape(address))
            parts = urlsplit(image)
            if not image.startswith(site) or parts.query or parts.fragment:
                return f'src="{address}"'  # not a file of the site (a data: address)
            path = unquote(image.removeprefix(site))
            chapter.images.add(path)
            return f'src="{book_image(path)}"'  # the chapters lie at the book's root
        if address.startswith("#") and address[1:] in where:
            file = where[address[1:]]
            target = address[1:]
            return f'href="{file}"' if file == f"{target}.xhtml" else f'href="{file}#{target}"'
        if address.startswith("#"):  # the build checks Markdown's links to ids (hooks/site/anchors.py), not raw HTML's
            page, _, place = address[1:].partition("--")  # the whole-book page's id: the page's name, '--', its id
            unheld.append(
                f"the chapter {chapter.name!r} links to #{place or page} of the page {page!r}, which holds no such "
                "id: correct the id after '#' in its raw HTML link, or write the link in Markdown, [...](page.md#id), "
                "which the build checks"
            )
            return match.group(0)
        return f'href="{urljoin(print_url, address)}"'

    return _MARKED_LINK.sub(link, part) if "\0" in part else part


def book_image(path: str) -> str:
    """The name in the EPUB of the site's image at path: letters and digits only, which any reader takes as they
    are (epubcheck warns of a space), and one name for each path."""
    digest = hashlib.sha256(path.encode("utf-8")).hexdigest()[:16]
    return f"images/{digest}{PurePosixPath(path).suffix.lower()}"
