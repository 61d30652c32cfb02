"""Write the built book as book.pdf and book.epub into the site, and check the EPUB: `make build` runs it.

    .venv/bin/python -m scripts.books site/

It reads the whole-book page that `mkdocs build` wrote (site/print/index.html), so the files carry the numbers
of that build and no other; it runs after the build, not in a hook, so that `make serve` and the tests'
many builds stay as fast as they were. Chromium prints the PDF (scripts/books/pdf.py); the EPUB is written
from the same page (scripts/books/epub.py) and checked by epubcheck while Chromium prints; epubcheck must report
nothing. A missing Chromium or epubcheck stops it with what to install (scripts/ensure_browser.py,
scripts/ensure_epubcheck.py).
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from datetime import UTC, datetime
from html import unescape
from pathlib import Path

from playwright.sync_api import sync_playwright

from hooks.site.build_date import source_epoch
from hooks.site.images import image_type
from hooks.site.print_book import EPUB_NAME, PDF_NAME
from scripts.books.epub import Metadata, write_epub
from scripts.books.pdf import PdfError, TitlePage, print_book, reproducible
from scripts.books.xhtml import Chapter, MarkupError, read_book
from scripts.ensure_browser import HOW_TO_INSTALL as NO_CHROMIUM
from scripts.ensure_browser import find_chromium
from scripts.ensure_epubcheck import HOW_TO_INSTALL as NO_EPUBCHECK
from scripts.ensure_epubcheck import find_epubcheck
from scripts.local_server import serve

ROOT = Path(__file__).resolve().parent.parent.parent
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update"]


def _first(pattern: str, html: str, what: str) -> str:
    found = re.search(pattern, html, re.DOTALL)
    if found is None:
        raise MarkupError(f"the whole-book page has no {what}")
    return " ".join(unescape(re.sub(r"<[^>]+>", "", found.group(1))).split())


def _version() -> str:
    """The commit the book is built from ('commit 51e0859'), or 'from a copy without git'."""
    try:
        result = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True, timeout=30
        )
    except (OSError, subprocess.TimeoutExpired):
        return "built from a copy without git"
    return f"commit {result.stdout.strip()}" if result.returncode == 0 else "built from a copy without git"


def _images(site: Path, chapters: list[Chapter]) -> dict[str, bytes]:
    """The bytes of each image of the site the chapters show, by its path in the site, for the EPUB."""
    images = {}
    for chapter in chapters:
        for path in sorted(chapter.images):
            file = (site / path).resolve()
            if image_type(path) is None:  # the build refuses it at its line (hooks/site/images.py)
                raise MarkupError(f"the chapter {chapter.name!r} shows {path}, an image the EPUB cannot hold")
            if not file.is_relative_to(site.resolve()) or not file.is_file():
                raise MarkupError(f"the chapter {chapter.name!r} shows {path}, which the site does not hold")
            images[path] = file.read_bytes()
    return images


def write_books(site: Path, chromium: str, epubcheck: list[str]) -> tuple[Path, Path, str | None]:
    """book.pdf and book.epub of the site built in `site`, written into it, and epubcheck's report on the EPUB if it
    found anything. epubcheck (Java) runs while Chromium prints: on two cores that saves most of its time."""
    print_html = (site / "print" / "index.html").read_text(encoding="utf-8")
    home_html = (site / "index.html").read_text(encoding="utf-8")
    epoch = source_epoch(ROOT)
    print_url = _first(r'<link rel="canonical" href="([^"]*)"', print_html, "canonical link")
    metadata = Metadata(
        title=_first(r'<h1 id="the-whole-book">(.*?)</h1>', print_html, "title"),
        description=_first(r'<meta name="description" content="([^"]*)"', home_html, "description"),
        language=_first(r'<html lang="([^"]*)"', print_html, "language"),
        rights=_first(r'<div class="md-copyright__highlight">(.*?)</div>', print_html, "licence (copyright)"),
        address=print_url.removesuffix("print/"),
        version=_version(),
        epoch=epoch,
    )
    chapters, contents = read_book(print_html, print_url)
    epub = site / EPUB_NAME
    epub.write_bytes(write_epub(metadata, chapters, contents, _images(site, chapters)))
    checking = subprocess.Popen(
        [*epubcheck, "--failonwarnings", str(epub)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )

    date = datetime.fromtimestamp(epoch, UTC)
    title_page = TitlePage(
        metadata.title, metadata.description, metadata.version, f"{date.day} {date:%B %Y}", metadata.rights
    )
    try:
        with serve(site) as address, sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
            try:
                pdf_bytes = print_book(browser.new_page(), f"{address}print/", title_page)
            finally:
                browser.close()
        pdf = site / PDF_NAME
        pdf.write_bytes(reproducible(pdf_bytes, epoch))
        report = checking.communicate(timeout=300)[0].strip()
    finally:
        checking.kill()  # after communicate(), a no-op; after an error, no epubcheck is left running
    found = checking.returncode != 0 or re.search(r"(WARNING|ERROR|FATAL|USAGE)\(", report)
    return pdf, epub, report if found else None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("site", type=Path, help="the folder `mkdocs build` wrote")
    site = parser.parse_args().site
    chromium, epubcheck = find_chromium(), find_epubcheck()
    if chromium is None or epubcheck is None:
        print(NO_CHROMIUM if chromium is None else NO_EPUBCHECK, file=sys.stderr)
        return 1
    if not (site / "print" / "index.html").is_file():
        print(f"{site}: no print/index.html; build the site first: .venv/bin/mkdocs build --strict", file=sys.stderr)
        return 1
    try:
        pdf, epub, report = write_books(site, chromium, epubcheck)
    except (MarkupError, PdfError) as error:
        print(f"{site / 'print/index.html'}: {error}", file=sys.stderr)
        return 1
    if report is not None:
        print(f"{epub}: epubcheck found problems:\n{report}", file=sys.stderr)
        return 1
    print(f"Wrote {pdf} and {epub} (epubcheck: no errors or warnings)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
