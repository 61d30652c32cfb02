"""The whole book as one PDF, printed by headless Chromium from the built site's whole-book page (print/).

The page is the one a reader prints (hooks/site/print_book.py, docs/assets/stylesheets/print.css): KaTeX's
formulas, the plots as SVG, the widgets as their computed tables, the print wording. For the file this module
adds, in the page before printing, what a browser's Print cannot: a title page, running headers (each chapter
on a named page whose top margin box holds its title, CSS paged media that Chromium 131+ lays out), page
numbers, and a contents with page numbers. Chromium knows a heading's page only once it has printed, so the
book is printed twice: the first print's outline says on which page each chapter starts, the numbers go into
the contents, and the second print is the book (a third only if writing the numbers moved a chapter).

Chromium writes the clock's time into the PDF's creation and modification dates: both are set to the
sources' date (pypdf), so that two builds of one commit are byte-identical.
"""

from __future__ import annotations

import io
import re
from dataclasses import dataclass
from datetime import UTC, datetime

from playwright.sync_api import Page
from pypdf import PdfReader
from pypdf.generic import Destination

from scripts.page_ready import FILLED_IN

MAX_PRINTS = 3


@dataclass(frozen=True)
class TitlePage:
    title: str
    subtitle: str
    version: str  # "commit 51e0859"
    date: str  # "4 December 2026"
    licence: str


class PdfError(RuntimeError):
    """The printed book is not what the contents says: what went wrong, for the build's message."""


# Runs in the page: the title page, the named pages and their running headers, the page numbers. Text goes in
# as textContent and into CSS strings through CSS.escape (an escaped identifier is a valid string body).
_PREPARE = """
({title, subtitle, version, date, licence}) => {
  document.title = title;  // the PDF's own title (Chromium writes the page's)
  const typeset = document.querySelector(".md-content__inner");
  for (const old of typeset.querySelectorAll(":scope > h1, :scope > .grpo-book-note, :scope > noscript"))
    old.remove();
  const cover = document.createElement("header");
  cover.className = "grpo-pdf-cover";
  for (const [tag, cls, text] of [["p", "grpo-pdf-title", title], ["p", "grpo-pdf-subtitle", subtitle],
                                  ["p", "grpo-pdf-version", `${version}, ${date}`],
                                  ["p", "grpo-pdf-licence", licence]]) {
    const line = document.createElement(tag);
    line.className = cls;
    line.textContent = text;
    cover.append(line);
  }
  typeset.prepend(cover);
  const rules = [];
  for (const link of document.querySelectorAll(".grpo-book-contents a[href^='#']")) {
    const section = document.getElementById(link.getAttribute("href").slice(1));
    const name = "chapter-" + section.id;
    section.style.page = name;
    rules.push(`@page ${name} { @top-center { content: "${CSS.escape(link.textContent)}"; } }`);
  }
  const style = document.createElement("style");
  style.textContent = rules.join("\\n");
  document.head.append(style);
}
"""

_PAGE_NUMBERS = """
(numbers) => {
  const links = document.querySelectorAll(".grpo-book-contents a[href^='#']");
  links.forEach((link, index) => {
    let number = link.parentNode.querySelector(":scope > .grpo-pdf-page");
    if (number === null) {
      number = document.createElement("span");
      number.className = "grpo-pdf-page";
      link.after(number);
    }
    number.textContent = String(numbers[index]);
  });
  return links.length;
}
"""

STYLE = """
@page { size: A4; margin: 20mm 18mm 18mm;
  @top-center { font: 9pt sans-serif; color: #555; }
  @bottom-center { content: counter(page); font: 9pt sans-serif; color: #555; } }
@page :first { @top-center { content: none; } @bottom-center { content: none; } }
.grpo-pdf-cover { display: flex; flex-direction: column; justify-content: center;
  min-height: 230mm; text-align: center; }
.grpo-pdf-title { font-size: 2.6rem; font-weight: 700; margin: 0 0 1rem; }
.grpo-pdf-subtitle { font-size: 1.1rem; max-width: 32em; margin: 0 auto 3rem; }
.grpo-pdf-version, .grpo-pdf-licence { font-size: 0.8rem; color: #555; margin: 0.2rem; }
.grpo-book-contents { break-before: page; }
.grpo-book-contents li { display: flow-root; }
.grpo-pdf-page { float: right; }
"""


def print_book(page: Page, print_url: str, title_page: TitlePage) -> bytes:
    """The whole book as a PDF (not yet with fixed dates): see the module's docstring."""
    page.goto(print_url, wait_until="load")
    page.wait_for_function(FILLED_IN)
    page.add_style_tag(content=STYLE)
    page.evaluate(_PREPARE, title_page.__dict__)
    page.evaluate("document.fonts.ready")
    numbers: list[int] = []
    for _ in range(MAX_PRINTS):
        pdf = page.pdf(prefer_css_page_size=True, print_background=True, outline=True, tagged=True)
        found = chapter_pages(pdf)
        written = page.evaluate(_PAGE_NUMBERS, found)
        if written != len(found):
            raise PdfError(f"the contents links {written} chapters, the PDF's outline has {len(found)}")
        if found == numbers:
            return pdf
        numbers = found
    raise PdfError(f"the chapters' pages did not settle after {MAX_PRINTS} prints: {numbers}")


def chapter_pages(pdf: bytes) -> list[int]:
    """The page (from 1) on which each chapter starts: the outline's top-level entries after the contents."""
    reader = PdfReader(io.BytesIO(pdf))
    entries = [item for item in reader.outline if isinstance(item, Destination)]
    pages = [reader.get_destination_page_number(item) for item in entries if item.title != "Contents"]
    if None in pages:
        raise PdfError("an entry of the PDF's outline points at no page")
    return [page + 1 for page in pages if page is not None]


_DATE = re.compile(rb"/(CreationDate|ModDate) \(D:\d{14}[-+]\d\d'\d\d'\)")  # the time zone's 7 characters
_NODE_ID = re.compile(rb"\(node(\d{8})\)")


def reproducible(pdf: bytes, epoch: int) -> bytes:
    """The PDF with what differs from one print to the next made the sources': the dates, and the ids of
    the structure tree's elements (Chromium's DOM node numbers, which count every node the browser made before).

    Each is rewritten in place with a string of the same length, so the cross-reference table's offsets stay
    true: the dates become the sources' (seconds since 1970, UTC), the ids their rank (node00000001, ...),
    which keeps their order, and so the order of the ID tree that names them.
    """
    stamp = datetime.fromtimestamp(epoch, UTC).strftime("%Y%m%d%H%M%S").encode()
    dates = _DATE.findall(pdf)
    if sorted(dates) != [b"CreationDate", b"ModDate"]:
        raise PdfError(f"Chromium's PDF carries its dates in an unexpected form: {dates}")
    pdf = _DATE.sub(lambda date: b"/" + date.group(1) + b" (D:" + stamp + b"+00'00')", pdf)
    ranks = {node: b"%08d" % rank for rank, node in enumerate(sorted(set(_NODE_ID.findall(pdf)), key=int), start=1)}
    return _NODE_ID.sub(lambda node: b"(node" + ranks[node.group(1)] + b")", pdf)
