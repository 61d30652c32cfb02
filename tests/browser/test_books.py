"""The book as files a reader keeps (scripts/books/): the PDF and the EPUB that `make build` writes, opened as a
reader's software opens them: pypdf for the PDF's outline, pages and text; the EPUB unpacked, checked by
epubcheck, and a chapter opened in Chromium.

One build of both files per session (the built_books fixture), as `make build` makes them: the site built with
BOOK_FILES set, then `python -m scripts.books`.
"""

from __future__ import annotations

import html
import re
import shutil
import struct
import subprocess
import sys
import zipfile
import zlib
from collections.abc import Sequence
from pathlib import Path

import pytest
from playwright.sync_api import Browser
from pypdf import PdfReader
from pypdf.generic import Destination, DictionaryObject

from scripts.ensure_epubcheck import HOW_TO_INSTALL as NO_EPUBCHECK
from scripts.ensure_epubcheck import find_epubcheck
from tests.conftest import ROOT, copy_project, mkdocs_build
from tests.site_links import check_site

SITE_URL = "http://127.0.0.1:8000/"
GRPO_TITLE = "Group Relative Policy Optimization (GRPO)"  # the GRPO chapter's h1, as the outline has it
# What the reader's chapters (not the author's guide, which documents the widgets' controls) never say in print.
CONTROL_WORDS = re.compile(r"\b(sliders?|drag|tap or click|click)\b", re.IGNORECASE)
TEX = re.compile(r'<annotation encoding="application/x-tex"[^>]*>(.*?)</annotation>', re.DOTALL)


@pytest.fixture(scope="session")
def built_books(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A site built as `make build` builds it, with book.pdf and book.epub."""
    site = tmp_path_factory.mktemp("books")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("BOOK_FILES", "1")
        built = mkdocs_build(ROOT, site)
    assert built.returncode == 0, built.stderr
    books = subprocess.run(
        [sys.executable, "-m", "scripts.books", str(site)], cwd=ROOT, capture_output=True, text=True, timeout=600
    )
    assert books.returncode == 0, books.stdout + books.stderr
    assert "epubcheck: no errors or warnings" in books.stdout
    return site


@pytest.fixture(scope="session")
def pdf(built_books: Path) -> PdfReader:
    return PdfReader(built_books / "book.pdf")


def _outline(reader: PdfReader) -> list[tuple[str, int, int]]:
    """The outline as (title, depth, page from 1), in order."""
    found: list[tuple[str, int, int]] = []

    def walk(items: Sequence[object], depth: int) -> None:
        for item in items:
            if isinstance(item, list):
                walk(item, depth + 1)
            elif isinstance(item, Destination):
                page = reader.get_destination_page_number(item)
                found.append((str(item.title), depth, (page or 0) + 1))

    walk(reader.outline, 0)
    return found


def _print_page(site: Path) -> str:
    return (site / "print/index.html").read_text(encoding="utf-8")


def _chapter_titles(site: Path) -> list[str]:
    """Each chapter's title (h2 on the whole-book page) in the order of the book."""
    return [_text(title) for title in re.findall(r'<h2 id="[^"]+--[^"]*">(.*?)</h2>', _print_page(site))]


def _text(markup: str) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", "", markup)).replace("¶", "").split())


def _pages_text(reader: PdfReader, first: int, last: int) -> str:
    return "\n".join(reader.pages[number - 1].extract_text() for number in range(first, last + 1))


def _chapter_range(reader: PdfReader, title: str) -> tuple[int, int]:
    chapters = [(name, page) for name, depth, page in _outline(reader) if depth == 0]
    names = [name for name, _ in chapters]
    index = names.index(title)
    last = chapters[index + 1][1] - 1 if index + 1 < len(chapters) else len(reader.pages)
    return chapters[index][1], last


def test_the_pdf_outline_holds_every_chapter_and_its_sections(built_books: Path, pdf: PdfReader) -> None:
    outline = _outline(pdf)
    chapters = [title for title, depth, _ in outline if depth == 0]
    assert chapters == ["Contents", *_chapter_titles(built_books)]
    sections = [title for title, depth, _ in outline if depth == 1]
    assert "Worked example: the easy group" in sections and len(sections) > 5 * len(chapters)
    pages = [page for _, _, page in outline]
    assert pages == sorted(pages) and pages[0] == 2  # the title page, then the contents
    assert 90 <= len(pdf.pages) <= 250


def test_the_pdf_contents_gives_the_page_each_chapter_starts_on_and_links_to_it(pdf: PdfReader) -> None:
    starts = {title: page for title, depth, page in _outline(pdf) if depth == 0}
    contents = pdf.pages[1].extract_text(extraction_mode="layout")
    # The contents names chapters by their titles in the nav; the GRPO chapter's is shorter than its heading.
    listed = re.findall(r"^\s*(\S.*?)\s+(\d+)$", contents, re.MULTILINE)
    assert [int(number) for _, number in listed] == [page for title, page in starts.items() if title != "Contents"]
    assert ("Group Relative Policy Optimization", str(starts[GRPO_TITLE])) in listed
    targets = []
    for annotation in pdf.pages[1].get("/Annots", []):
        link = annotation.get_object()
        if link.get("/Subtype") == "/Link" and "/Dest" in link:
            targets.append(link["/Dest"])
    assert len(targets) == len(listed)  # every entry a link inside the PDF, none to the web


def test_the_pdf_pages_carry_numbers_and_the_chapters_title_and_the_title_page_its_date(pdf: PdfReader) -> None:
    first, _ = _chapter_range(pdf, GRPO_TITLE)
    second_page = pdf.pages[first].extract_text(extraction_mode="layout")
    lines = [line.strip() for line in second_page.splitlines() if line.strip()]
    assert lines[0] == "Group Relative Policy Optimization" and lines[-1] == str(first + 1)
    commit = subprocess.run(
        ["git", "log", "-1", "--format=%h %cd", "--date=format:%B %Y"],
        cwd=ROOT,
        text=True,
        capture_output=True,
        check=True,
    ).stdout.split(" ", 1)
    assert pdf.metadata is not None and pdf.metadata.title == "GRPO, computed"  # what a reader's list shows
    title_page = pdf.pages[0].extract_text()
    assert "GRPO, computed" in title_page and f"commit {commit[0]}" in title_page and commit[1].strip() in title_page


def test_the_grpo_chapter_s_computed_numbers_are_in_the_pdf_as_on_the_site(built_books: Path, pdf: PdfReader) -> None:
    page = (built_books / "grpo/index.html").read_text(encoding="utf-8")
    values = {_text(value) for value in re.findall(r'<button[^>]*class="grpo-value"[^>]*>(.*?)</button>', page)}
    assert len(values) >= 10
    text = "".join(_pages_text(pdf, *_chapter_range(pdf, GRPO_TITLE)).split())
    missing = sorted(value for value in values if "".join(value.split()) not in text)
    assert missing == []


def test_the_pdf_has_no_tex_source_and_no_words_for_controls(built_books: Path, pdf: PdfReader) -> None:
    # No formula of the book is in the reader's chapters as the TeX it was written in (they quote a little TeX as
    # code: the grader's examples, which are not formulas' sources; the author's guide quotes Markdown, formulas
    # and all). In the GRPO chapter no backslash is left at all but the \boxed{} of the sampled responses (data).
    guide, _ = _chapter_range(pdf, "Writing the book")
    text = "".join(_pages_text(pdf, 1, guide - 1).split())
    formulas = {"".join(html.unescape(tex).split()) for tex in TEX.findall(_print_page(built_books))}
    written_as_tex = sorted(tex for tex in formulas if len(tex) >= 12 and "\\" in tex and tex in text)
    assert len(formulas) > 100 and written_as_tex == []
    grpo = re.sub(r"\\boxed\{\d+\}", "", _pages_text(pdf, *_chapter_range(pdf, GRPO_TITLE)))
    assert "\\" not in grpo
    assert CONTROL_WORDS.findall(_pages_text(pdf, 1, guide - 1)) == []


def test_the_pdf_is_tagged_embeds_its_fonts_and_draws_its_figures_as_vectors(pdf: PdfReader) -> None:
    root = pdf.root_object
    mark_info = root["/MarkInfo"].get_object()
    assert isinstance(mark_info, DictionaryObject) and mark_info["/Marked"] and "/StructTreeRoot" in root
    unembedded, images = set(), []
    for number, page in enumerate(pdf.pages, start=1):
        drawings = page.get("/Resources", {}).get("/XObject", {})
        images += [number for drawing in drawings.values() if drawing.get_object().get("/Subtype") == "/Image"]
        fonts = page.get("/Resources", {}).get("/Font", {})
        for font in fonts.values():
            font = font.get_object()
            descendants = [d.get_object() for d in font.get("/DescendantFonts", [])] or [font]
            for part in descendants:
                descriptor = part.get("/FontDescriptor")
                embedded = part.get("/Subtype") == "/Type3" or (
                    descriptor is not None and {"/FontFile", "/FontFile2", "/FontFile3"} & set(descriptor.get_object())
                )
                if not embedded:
                    unembedded.add(str(part.get("/BaseFont")))
    assert unembedded == set() and images == []  # the plots are SVG: paths, not pictures


def test_the_epub_has_a_file_per_chapter_a_navigation_and_mathml_and_no_script(built_books: Path) -> None:
    with zipfile.ZipFile(built_books / "book.epub") as epub:
        names = epub.namelist()
        assert names[0] == "mimetype" and epub.getinfo("mimetype").compress_type == zipfile.ZIP_STORED
        files = {name: epub.read(name).decode("utf-8") for name in names}
    package = files["OEBPS/content.opf"]
    spine = re.findall(r'<itemref idref="c-([^"]+)"', package)
    assert len(spine) == len(_chapter_titles(built_books)) and "grpo" in spine
    navigation = files["OEBPS/nav.xhtml"]
    assert all(f'href="{name}.xhtml"' in navigation for name in spine)
    assert 'href="grpo.xhtml#grpo--worked-example-the-easy-group"' in navigation
    grpo = files["OEBPS/grpo.xhtml"]
    assert grpo.count("<math ") >= 10 and "katex-html" not in grpo
    # a formula is its MathML alone: not hidden from screen readers, and without the site's label beside it
    policy_gradients = files["OEBPS/policy-gradients.xhtml"]
    assert "grpo-sr-only" not in policy_gradients and '"katex" aria-hidden' not in policy_gradients
    assert re.search(r'href="grpo.xhtml" [^>]*properties="mathml"', package)
    assert re.search(r'<item id="c-policy-gradients" [^>]*properties="mathml svg"', package)
    assert not any("<script" in text for name, text in files.items() if name.endswith(".xhtml"))
    assert not any(CONTROL_WORDS.search(_text(files[f"OEBPS/{name}.xhtml"])) for name in spine[:9])
    assert 'properties="cover-image"' in package and "<dc:rights>Text under CC BY 4.0" in package
    assert re.search(r'<meta property="dcterms:modified">\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ</meta>', package)


def test_epubcheck_finds_nothing_in_the_epub(built_books: Path) -> None:
    command = find_epubcheck()
    if command is None:
        pytest.fail(NO_EPUBCHECK, pytrace=False)
    result = subprocess.run([*command, str(built_books / "book.epub")], capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "No errors or warnings detected." in result.stdout
    assert "Messages: 0 fatals / 0 errors / 0 warnings / 0 infos" in result.stdout


def test_an_epub_chapter_shows_its_formulas_in_chromium(built_books: Path, browser: Browser, tmp_path: Path) -> None:
    with zipfile.ZipFile(built_books / "book.epub") as epub:
        epub.extractall(tmp_path)
    page = browser.new_page()
    errors: list[str] = []
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    page.goto((tmp_path / "OEBPS/grpo.xhtml").as_uri())
    sizes = page.eval_on_selector_all("math", "all => all.map(m => m.getBoundingClientRect().width)")
    page.close()
    assert len(sizes) >= 10 and min(sizes) > 0 and errors == []


def test_every_page_links_both_files_and_the_links_resolve(built_books: Path) -> None:
    for page in ("index.html", "grpo/index.html"):
        text = (built_books / page).read_text(encoding="utf-8")
        assert "Download:" in text and "book.pdf" in text and "book.epub" in text
    broken = check_site(built_books, SITE_URL)
    assert broken == [], "\n".join(map(str, broken))


@pytest.mark.slow
def test_a_second_run_writes_the_same_bytes(built_books: Path, tmp_path: Path) -> None:
    # Another run on a copy of the site, seconds later on the clock (the first took that long): the same bytes, so
    # no clock time and no random identifier is in either file.
    site = shutil.copytree(built_books, tmp_path / "site")
    result = subprocess.run(
        [sys.executable, "-m", "scripts.books", str(site)], cwd=ROOT, capture_output=True, text=True, timeout=600
    )
    assert result.returncode == 0, result.stderr
    for name in ("book.pdf", "book.epub"):
        assert (site / name).read_bytes() == (built_books / name).read_bytes(), name


def _png(width: int, height: int) -> bytes:
    """A red PNG, written by hand (the PNG specification: signature, IHDR, IDAT, IEND)."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    rows = b"".join(b"\x00" + b"\xff\x00\x00" * width for _ in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)  # 8 bits, true colour
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b"")


def _books_of(project: Path, site: Path) -> subprocess.CompletedProcess[str]:
    """`make build` of the book in project: the site, then the PDF and the EPUB."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("BOOK_FILES", "1")
        built = mkdocs_build(project, site)
    assert built.returncode == 0, built.stderr
    command = [sys.executable, "-m", "scripts.books", str(site)]
    return subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=600, check=False)


@pytest.mark.slow
def test_an_image_a_chapter_shows_is_in_both_books(tmp_path: Path, browser: Browser) -> None:
    # The EPUB had none: epubcheck stopped `make build` on the first chapter with a figure (RSC-007, "could not be
    # found in the EPUB"). Two chapters at two depths show one image whose name needs escaping in an address.
    project = copy_project(tmp_path / "book")
    figures = project / "docs" / "assets" / "figures"
    figures.mkdir(parents=True)
    (figures / "red dot.png").write_bytes(_png(1200, 20))
    for source, address in (
        ("grpo.md", "assets/figures/red%20dot.png"),
        ("guide/widgets.md", "../assets/figures/red%20dot.png"),
    ):
        with (project / "docs" / source).open("a", encoding="utf-8") as chapter:
            chapter.write(f"\n![A red rectangle]({address})\n")
    site = tmp_path / "site"
    books = _books_of(project, site)
    assert books.returncode == 0 and "epubcheck: no errors or warnings" in books.stdout, books.stdout + books.stderr
    with zipfile.ZipFile(site / "book.epub") as epub:
        package = epub.read("OEBPS/content.opf").decode("utf-8")
        chapters = [epub.read(f"OEBPS/{name}.xhtml").decode("utf-8") for name in ("grpo", "guide-widgets")]
        shown = [re.findall(r'<img alt="A red rectangle" src="([^"]+)" />', text) for text in chapters]
        assert len(shown) == 2 and shown[0] == shown[1] and len(shown[0]) == 1, shown  # one file for both
        name = shown[0][0]
        assert re.fullmatch(r"[a-z0-9/]+\.png", name), name  # epubcheck warns of a space in a file's name
        assert epub.read(f"OEBPS/{name}") == _png(1200, 20)
        epub.extractall(tmp_path / "epub")
    assert f'href="{name}" media-type="image/png"' in package
    reader = browser.new_page(viewport={"width": 360, "height": 640})  # a phone's reading system
    reader.goto((tmp_path / "epub" / "OEBPS" / "guide-widgets.xhtml").as_uri())
    natural, width = reader.eval_on_selector(
        "img[alt='A red rectangle']", "image => [image.naturalWidth, image.getBoundingClientRect().width]"
    )
    assert natural == 1200 and 0 < width <= 360  # loaded, and as wide as the screen at most
    reader.close()
    printed = PdfReader(site / "book.pdf")
    drawings = [sheet.get("/Resources", {}).get("/XObject", {}) for sheet in printed.pages]
    pictures = [d for each in drawings for d in each.values() if d.get_object().get("/Subtype") == "/Image"]
    assert len(pictures) == 2  # the book draws none of its own (its plots are vectors): these are the figure

    # A WebP image shows on the site, but an EPUB 3.2 reader need not show it: the build stops at its line, with
    # the fix (it built the site, and then `make build` stopped at the EPUB, with no line).
    (figures / "plot.webp").write_bytes(
        b"RIFF\x1a\x00\x00\x00WEBPVP8L\x0d\x00\x00\x00/\x00\x00\x00\x10\x07\x10\x11\x11\x88\x88\xfe\x07\x00"
    )
    ppo = project / "docs" / "ppo.md"
    ppo.write_text(ppo.read_text(encoding="utf-8") + "\n![A plot](assets/figures/plot.webp)\n", encoding="utf-8")
    line = ppo.read_text(encoding="utf-8").count("\n")
    built = mkdocs_build(project, tmp_path / "second")
    assert built.returncode == 1 and "Traceback" not in built.stderr, built.stderr
    assert (
        f"docs/ppo.md:{line}: EPUB readers show only PNG, JPEG, GIF and SVG images (.png, .jpg, .gif, .svg), and "
        "`make build` puts this one in the EPUB: save it as one of those and show that"
    ) in built.stderr, built.stderr


@pytest.mark.slow
def test_raw_html_links_to_ids_no_page_holds_are_named_all_at_once(tmp_path: Path) -> None:
    # The site's build checks Markdown's links to ids (hooks/site/anchors.py); raw HTML's it passes, and `make build`
    # then stopped at the first with "a link to #grpo--nosuch, which no chapter holds": no chapter, one of two.
    project = copy_project(tmp_path / "book")
    with (project / "docs" / "ppo.md").open("a", encoding="utf-8") as chapter:
        chapter.write('\nSee <a href="../grpo/#nosuch">the idea</a> and <a href="#nowhere">here</a>.\n')
    books = _books_of(project, tmp_path / "site")
    assert books.returncode == 1 and "Traceback" not in books.stderr, books.stderr
    assert "the chapter 'ppo' links to #nosuch of the page 'grpo', which holds no such id: correct" in books.stderr
    assert "the chapter 'ppo' links to #nowhere of the page 'ppo', which holds no such id" in books.stderr
