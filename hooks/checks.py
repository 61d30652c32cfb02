"""The checks every page and data file goes through: one code path for `mkdocs build` and `make check`.

hooks/events.py (the build) and scripts/check_chapters.py (`make check`) both call check_page and
check_data here, so the two cannot disagree. This module builds the engine's Book from grpo_examples (the
subjects: every group and every chapter) and from hooks/chapters/ (the layouts), expands a page's
placeholders, renders each of its formulas once with the book's KaTeX, runs the drift guard, and puts
every problem into a Report. It imports nothing of MkDocs, so `make check` starts without loading it.
"""

from __future__ import annotations

import importlib
import os
import pkgutil
import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import yaml  # type: ignore[import-untyped]  # PyYAML, as MkDocs reads the front matter (already loaded by it)

import grpo_examples as gx
from hooks import chapters
from hooks.engine import drift_guard, scan
from hooks.engine.book import Book
from hooks.engine.placeholders import OPENING, Problem, expand
from hooks.engine.report import Problem as BookProblem
from hooks.engine.report import Report
from hooks.engine.tree import Subject, fingerprint, model, subject
from hooks.site import images, local_addresses, own_files
from hooks.site.katex import KatexError, KatexProcessError, KatexRenderer

ROOT = Path(__file__).resolve().parent.parent
MATH = Path(gx.__file__).resolve().parent  # grpo_examples: its code and its data files
CACHE_FOLDER = ".cache"  # in the project folder, beside mkdocs.yml; git ignores it
KATEX_SUPPORTED = "what KaTeX supports: https://katex.org/docs/supported.html"
_renderer: KatexRenderer | None = None
_fingerprints: dict[str, tuple[object, str]] = {}  # each subject's model and its fingerprint, as last computed


class BookError(Exception):
    """The book cannot be checked at all (KaTeX is not installed, two layouts share a name): the build stops."""


@dataclass(frozen=True)
class Source:
    """A page as the checks need it: its file as an author names it, and the whole file, front matter and all."""

    path: str  # relative to the project, e.g. docs/grpo.md
    text: str

    def line_of(self, fragment: str) -> int:
        """The line of the file on which fragment first stands (1 if it is not there)."""
        start = self.text.find(fragment) if fragment else -1
        return self.text.count("\n", 0, start) + 1 if start > 0 else 1

    def first_line(self, markdown: str) -> int:
        """The line of the file on which the Markdown (the file less its front matter) starts."""
        return self.line_of(markdown[:200])


def _data(path: Path) -> str:
    return path.resolve().relative_to(ROOT).as_posix() if path.resolve().is_relative_to(ROOT) else str(path)


def _merge(what: str, tables: list[tuple[str, dict[Any, Any]]]) -> dict[Any, Any]:
    """One table of layouts from each presentation module's; a name given twice stops the build at once."""
    merged: dict[Any, Any] = {}
    for module, table in tables:
        for key, layout in table.items():
            if key in merged:
                raise BookError(f"the {what} {key!r} is drawn twice: in hooks/chapters/{module}.py and another module")
            merged[key] = layout
    return merged


@cache
def book() -> Book:
    """Every subject a path can start with (each group, each chapter) and every chapter's layouts; DataError if
    the groups' file has problems (check_page reports them)."""
    groups = {
        name: subject(name, gx.group, name, data=f"{_data(gx.GROUPS_FILE)} [{name}]") for name in gx.group_names()
    }
    chapter_subjects = {
        name: subject(name, gx.chapter, name, data=_data(gx.chapter_file(name))) for name in gx.chapter_names()
    }
    clash = sorted(set(groups) & set(chapter_subjects))
    if clash:
        raise BookError(f"{_data(gx.GROUPS_FILE)}: the group [{clash[0]}] has the name of a chapter: rename the group")
    subjects: dict[str, Subject] = {**groups, **chapter_subjects}
    modules = [
        (info.name, importlib.import_module(f"{chapters.__name__}.{info.name}"))
        for info in pkgutil.iter_modules(chapters.__path__)
    ]
    return Book(
        subjects,
        _merge("formula", [(name, getattr(m, "FORMULAS", {})) for name, m in modules]),
        _merge("block", [(name, getattr(m, "BLOCKS", {})) for name, m in modules]),
        _merge("widget", [(name, getattr(m, "WIDGETS", {})) for name, m in modules]),
    )


def katex(project: Path) -> KatexRenderer:
    """The book's KaTeX (one Node.js process, started on first use, with its cache of rendered formulas)."""
    global _renderer
    if _renderer is None:
        try:
            _renderer = KatexRenderer(project / "node_modules" / "katex", project / CACHE_FOLDER)
        except KatexError as error:
            raise BookError(str(error)) from None
    return _renderer


@dataclass(frozen=True)
class Checked:
    """A page after the checks: its Markdown with the placeholders expanded, the subjects its placeholders name
    (`used`, for the drift guard) and every subject whose model its text was drawn from (`read`: under
    `make serve`, a data edit rebuilds only the pages whose subjects changed)."""

    markdown: str
    used: frozenset[str] = frozenset()
    read: frozenset[str] = frozenset()


# MkDocs reads a page's front matter as YAML (mkdocs 1.6.1, mkdocs/utils/meta.py get_data) and, when it cannot,
# says nothing: the lines stay the page's first paragraph, and its title and description are lost.
_FRONT_MATTER = re.compile(r"-{3}[ \t]*\n(.*?\n)(?:\.{3}|-{3})[ \t]*\n", re.DOTALL)  # get_data's YAML_RE
FRONT_MATTER_UNREAD = (
    "the front matter is not YAML that MkDocs can read ({what}), so the page would show it as text and lose its "
    "title and description: quote a value that holds ': ' or begins with one of ! & * [ {{ | > @ ('title: \"GRPO: a "
    "primer\"'), and close every quote"
)
IN_FRONT_MATTER = (
    "a placeholder in the front matter is not expanded: the title and the description are shown as written (in "
    "the nav, the browser's tab, link previews); write them without it, and put the number in the page"
)


INVISIBLE_IN_PAGE = "{what}: {fix}; a number written 0.<U+200B>8 is 0.8 to a reader and no number to the drift guard"


def invisible_characters(source: Source, report: Report) -> None:
    """Each character of the page's file that a reader does not see (Unicode's format characters, as the data files
    refuse them: grpo_examples.INVISIBLE), at its line and column; the line shows each as <U+200B>, since a terminal
    would hide it (or, for a control of the text's direction, reorder the line) too."""
    for hidden in gx.INVISIBLE.finditer(source.text):
        start = source.text.rfind("\n", 0, hidden.start()) + 1
        end = source.text.find("\n", hidden.start())
        line = source.text[start : len(source.text) if end < 0 else end]
        shown = gx.INVISIBLE.sub(lambda found: f"<U+{ord(found.group()):04X}>", line)
        number, column = source.text.count("\n", 0, hidden.start()) + 1, hidden.start() - start + 1
        message = INVISIBLE_IN_PAGE.format(what=gx.invisible(hidden.group()), fix=gx.INVISIBLE_FIX)
        report.add(BookProblem(source.path, number, column, message, shown))


def check_page(markdown: str, source: Source, project: Path, report: Report, *, math: bool = True) -> Checked:
    """The page's Markdown with its placeholders expanded; every problem of the page goes into the report: its
    placeholders, its formulas (each rendered once, so that a bad one is named with its line; not when the
    build's math is off), its typed numbers (the drift guard), the data files behind its numbers (at their
    own lines, once) and a placeholder in its front matter, which nothing expands."""
    first = source.first_line(markdown)
    try:
        the_book = book()
    except gx.DataError as error:  # a data file every page needs: no page can be checked until it is fixed
        _add_data_problems(report, error, None)
        return Checked(markdown)
    expanded = expand(the_book, markdown, first)
    problems = list(expanded.problems)
    unclosed = scan.unclosed(expanded.markdown)
    if unclosed is not None:
        at = unclosed.line
        problems.append(Problem(expanded.source_lines[at.number - 1], unclosed.what, at.text))
    elif math:
        for formula in scan.formulas(expanded.markdown):
            try:
                katex(project).render(formula.tex, formula.display)
            except KatexProcessError as error:
                raise BookError(str(error)) from None
            except KatexError as error:
                message = f"KaTeX cannot render this formula: {error}; fix the TeX ({KATEX_SUPPORTED})"
                problems.append(Problem(expanded.source_lines[formula.line - 1], message, formula.tex))
    for problem in problems:
        if problem.data is not None:  # reported at the data file's own lines, with this place under them
            _add_data_problems(report, problem.data, (source.path, problem.line))
        else:
            report.add(BookProblem(source.path, problem.line, 0, problem.message, problem.offending))
    if first == 1 and (unread := _front_matter_unread(source)) is not None:
        report.add(unread)
    for front_matter_problem in _front_matter_problems(source) if first > 1 else ():
        report.add(front_matter_problem)
    if not all(_NAME.fullmatch(part) for part in source.path.split("/")):
        report.add(BookProblem(source.path, 1, 0, UNSAFE_NAME, source.path))
    invisible_characters(source, report)
    for number, line in enumerate(source.text.splitlines()[: first - 1], 1):  # the front matter: text, not prose
        if OPENING.search(line):
            report.add(BookProblem(source.path, number, 0, IN_FRONT_MATTER, line.strip()))
    pasted_files(markdown, source.path, project, report, first)
    # typed numbers: hooks/engine/drift_guard.py
    for found in drift_guard.findings(the_book, markdown, first, used=expanded.used):
        report.add(BookProblem(source.path, found.line, found.column, found.message, found.offending))
    return Checked(expanded.markdown, expanded.used, expanded.read)


def _yaml(text: str) -> Any:
    """The front matter's YAML, read safely (libyaml's reader where PyYAML has it)."""
    return yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))


def _front_matter_unread(source: Source) -> BookProblem | None:
    """The problem of a front matter that MkDocs left in the page (its Markdown starts on line 1), at its line."""
    block = _FRONT_MATTER.match(source.text)
    if block is None:
        return None
    try:
        data = _yaml(block.group(1))
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        if mark is None or mark.line >= block.group(1).count("\n"):  # at the end (a quote never closed): its start
            mark = getattr(error, "context_mark", None) or mark
        number = 2 + (mark.line if mark is not None else 0)  # the block's first line is the file's second
        what = getattr(error, "problem", None) or "not YAML"
    else:
        if isinstance(data, dict):
            return None  # read: a page of front matter alone
        number, what = 2, "not 'key: value' lines"
    lines = source.text.splitlines()
    return BookProblem(source.path, number, 0, FRONT_MATTER_UNREAD.format(what=what), lines[number - 1])


# A page's file name makes its address and, on a page with no heading or title, its title, which Material writes
# as HTML: `docs/x<img src=x onerror=...>.md` ran its script on its own page and in every search for it.
_NAME = re.compile(r"[A-Za-z0-9._-]+")
UNSAFE_NAME = (
    "a page's file name makes its address and can make its title: name the file and its folders with letters, "
    "digits, '-', '_' and '.' only"
)

# The keys a page's front matter may set: the book's two, and two of Material's (mkdocs-material 9, "Setting up
# navigation" and "Search": `hide`, `search`), which its templates read as they render the page. One they cannot
# read stopped the build with a traceback (`hide: toc` for `hide: [toc]`, `search: true`); one nothing reads
# (`descripton:`, `template: nosuch.html`, which was a traceback too) was a silent leftover.
FRONT_MATTER_KEYS = ("title", "description", "hide", "search")
_HIDE = ("navigation", "toc", "footer", "path", "tags", "feedback")


def _front_matter_problems(source: Source) -> list[BookProblem]:
    """Each key of a front matter MkDocs has read that the book does not read, or holds what it cannot, at its
    line."""
    block = _FRONT_MATTER.match(source.text)
    data = _yaml(block.group(1)) if block else None
    lines = block.group(0).splitlines() if block else []
    problems = []
    for key, value in data.items() if isinstance(data, dict) else ():
        if (why := _front_matter_value(str(key), value)) is not None:
            at = re.compile(rf"\s*['\"]?{re.escape(str(key))}['\"]?\s*:")
            number = next((n for n, line in enumerate(lines, 1) if at.match(line)), 2)
            problems.append(BookProblem(source.path, number, 0, why, lines[number - 1]))
    return problems


def _front_matter_value(key: str, value: Any) -> str | None:
    """Why the front matter's key cannot hold value, or None."""
    if key in ("title", "description"):
        text = isinstance(value, (str, int, float)) and not isinstance(value, bool)
        return None if text else f"the {key} is not text (YAML read {value!r}): write it on one line after '{key}: '"
    if key == "hide":
        if isinstance(value, list) and all(item in _HIDE for item in value):
            return None
        return f"'hide' lists what the page hides, some of {', '.join(_HIDE)}: 'hide: [toc]'"
    if key == "search":
        exclude, boost = (value.get("exclude", False), value.get("boost", 1)) if isinstance(value, dict) else (0, 0)
        numbers = isinstance(boost, (int, float)) and not isinstance(boost, bool)
        if isinstance(value, dict) and set(value) <= {"exclude", "boost"} and isinstance(exclude, bool) and numbers:
            return None
        return "'search' holds 'exclude: true' or 'boost: 2' (a number): 'search: {exclude: true}'"
    return f"the book reads no front matter key '{key}': remove it (a page may set {', '.join(FRONT_MATTER_KEYS)})"


_LEFT_AS_A_COMMENT = re.compile(r"<!--\s*grpo:.*?-->", re.DOTALL)


def check_html(html: str, source: Source, report: Report) -> None:
    """A placeholder that reached the page's HTML as a comment: Markdown read as prose what check_page took for
    code (an indented block the scan of hooks/engine/scan.py misjudged), and the page would silently lack its
    number. A script, an event handler or a file from another host (hooks/site/own_files.py). An image without
    alt text, or of a type the EPUB cannot hold (hooks/site/images.py). Each reported at its line, like every other
    problem."""
    for comment in _LEFT_AS_A_COMMENT.finditer(html):
        message = (
            "this placeholder was left as it stands (the book took its line for code, Markdown did not): "
            "move it out of the indented block, or indent the code by four more spaces"
        )
        report.add(BookProblem(source.path, source.line_of(comment.group()), 0, message, comment.group()))
    for found in own_files.foreign(html):  # a chapter runs no code of its own and loads only the site's files
        report.add(BookProblem(source.path, source.line_of(found.find), 0, found.message, found.tag))
    for image in images.image_problems(html):  # and says what each image shows, of a type the EPUB holds
        report.add(BookProblem(source.path, source.line_of(image.find), 0, image.message, image.tag))


def check_addresses(
    html: str, source: Source, page: tuple[str, str], site: local_addresses.Site, report: Report
) -> None:
    """Every address of the site's own on the page, at `page` (its file in the site and its chapter's, from docs/:
    'ppo/index.html', 'ppo.md'), names a file the site publishes (hooks/site/local_addresses.py): an address in raw
    HTML is read from the page's address, not the chapter's file, and MkDocs checks only Markdown's."""
    for found in local_addresses.unpublished(html, *page, site):
        report.add(BookProblem(source.path, source.line_of(found.address), 0, found.message, found.address))


def page_text(data: bytes, path: str, report: Report, breaks: tuple[str, int] | None = None) -> str:
    """A page's file as text, as MkDocs reads it (UTF-8, a byte-order mark dropped, every line ending '\\n'). One
    that is not UTF-8 is reported at the line of its first bad byte and read with each bad byte replaced, so that
    the rest of the book is still checked."""
    try:
        return _lines_ending_in_newline(data.decode("utf-8-sig"))
    except UnicodeDecodeError as error:
        text = _lines_ending_in_newline(data.decode("utf-8-sig", errors="replace"))
        number = data.count(b"\n", 0, error.start) + 1
        message = f"not UTF-8 text (the byte 0x{data[error.start]:02x}): save the file as UTF-8 (the editor's encoding)"
        report.add(BookProblem(path, number, 0, message, text.splitlines()[number - 1]), breaks)
        return text


def _lines_ending_in_newline(text: str) -> str:
    return text.replace("\r\n", "\n").replace("\r", "\n")  # as Python's text mode reads a file


LINKED_OUT = (
    "this file is a link to a file outside the book, which the site would publish: put the file itself in the book "
    "(git add it, not a link to it)"
)
LINKED_FOLDER = (
    "this folder is a link, and the site would publish what it holds from wherever that is (outside the book, or a "
    "second copy of the book's own files, forever when the folder holds the link): put the files themselves here"
)


def check_linked_out(files: list[Path], project: Path, report: Report) -> list[Path]:
    """The files of docs/ that the site must not publish, each folder or file reported once: those in a folder that
    is a link (MkDocs follows it, and a link to a folder above it made a build publish every file forty times over
    and end in a traceback), and a file that is a link to a file outside the book (MkDocs would copy it into the
    published site, from any folder of the machine that builds it)."""
    refused, folders = [], set()
    for path in files:
        within = path.relative_to(project).parents if path.is_relative_to(project) else []
        inside = [folder for folder in within if folder != Path(".")]  # docs/assets/figures, docs/assets, docs
        linked = next((project / folder for folder in reversed(inside) if (project / folder).is_symlink()), None)
        if linked is not None:
            folders.add(linked)
            refused.append(path)
        elif not path.resolve().is_relative_to(project.resolve()):
            shown = shown_path(path, project)
            report.add(BookProblem(shown, 1, 0, LINKED_OUT, f"{shown} -> {path.resolve()}"))
            refused.append(path)
    for folder in folders:
        shown = folder.relative_to(project).as_posix()
        report.add(BookProblem(shown, 1, 0, LINKED_FOLDER, f"{shown} -> {os.readlink(folder)}"))
    return refused


# MkDocs publishes every file of docs/ that is not a page as it is, at the book's address: an HTML, XHTML or XML
# file runs its scripts there when opened, and so does an SVG (a figure's link opened in a tab). An SVG is checked
# as a page is (hooks/site/own_files.py); the others have no place in the book.
_FETCHING_CSS = re.compile(r"@import|url\(\s*['\"]?\s*(?:[a-z][a-z0-9+.-]*:|//)")  # a figure's own <style> may stay
OPENED_AS_DOCUMENTS = (".html", ".htm", ".xhtml", ".xht", ".xml", ".svgz")
PUBLISHED_AS_A_DOCUMENT = (
    "the site would publish this file as it is, a document whose scripts run at the book's address when it is "
    "opened: write the page in Markdown (or draw the figure as an .svg, a .png)"
)


def check_published_files(files: list[Path], project: Path, report: Report) -> list[Path]:
    """The files of docs/ (not its pages) that would run code at the book's address when opened, each reported;
    an SVG figure is read for scripts, handlers and files from elsewhere at its line, like a page's HTML."""
    refused = []
    for path in files:
        shown = shown_path(path, project)
        if path.suffix.lower() in OPENED_AS_DOCUMENTS:
            report.add(BookProblem(shown, 1, 0, PUBLISHED_AS_A_DOCUMENT, shown))
            refused.append(path)
        elif path.suffix.lower() == ".svg":
            figure = Source(shown, path.read_bytes().decode("utf-8", errors="replace"))
            restyles_from_elsewhere = _FETCHING_CSS.search(figure.text.lower()) is not None
            found = [f for f in own_files.foreign(figure.text) if f.find != "<style" or restyles_from_elsewhere]
            for each in found:
                report.add(BookProblem(shown, figure.line_of(each.find), 0, each.message, each.tag))
            refused += [path] if found else []
    return refused


# pymdownx.snippets pastes any file under its base path, the book's folder (mkdocs.yml), and the files those paste:
# .git/config (where a CI checkout keeps its token), a .env, a credentials file a CI step wrote. A snippet line may
# name only a file of these folders, each one `make serve` watches (docs/, and mkdocs.yml's `watch:`), so that a
# save of a pasted file rebuilds the pages that paste it (tests/site/test_incremental.py checks both).
SNIPPET_FOLDERS = ("docs", "grpo_examples", "tests/site/new_chapter")
PASTED_PLACEHOLDER = (
    "this snippet pastes a file that holds placeholders, which the book expands in a page's own text only (a "
    "snippet is pasted after): write them in the page, or paste the file inside a code fence to show it as code"
)
SNIPPET_OUTSIDE = (
    "a snippet may paste only a file of the book's "
    + ", ".join(f"{folder}/" for folder in SNIPPET_FOLDERS)
    + ", named from the book's folder (e.g. tests/site/new_chapter/sampling.py): this one is {where}"
)


def pasted_files(markdown: str, shown: str, project: Path, report: Report, first: int = 1) -> list[Path]:
    """Every file the page's snippet lines paste, then the files their own snippet lines paste (pymdownx.snippets
    pastes those too, named from the same base path), each once. A line that names a file it may not paste, or a
    pasted file that is not UTF-8, is a problem at its own line (in the page, or in the pasted file with the
    page's line under it); the page is then built as a stand-in, so pymdownx.snippets never reads that file. So
    is a file pasted into prose that holds a placeholder: it is pasted after the page's are expanded."""
    files: list[Path] = []
    to_read = [(shown, markdown, first, (shown, first), False)]
    while to_read:
        where, text, start, page_line, in_code = to_read.pop(0)
        code = {line.number for line in scan.lines(text, start) if line.code} if "8<" in text else set()
        for snippet in scan.snippets(text, start) if "8<" in text else ():
            breaks = None if where == shown else page_line
            if (refusal := _snippet_problem(snippet.path, project)) is not None:
                report.add(BookProblem(where, snippet.line, 0, refusal, snippet.path), breaks)
                continue
            file = (project / snippet.path).resolve()
            pasted_at = breaks or (shown, snippet.line)  # the page's line that pastes it, or pastes its paster
            pasted = page_text(file.read_bytes(), shown_path(file, project), report, pasted_at)  # pymdownx: UTF-8
            as_code = in_code or snippet.line in code
            if not as_code and OPENING.search(pasted):
                report.add(BookProblem(where, snippet.line, 0, PASTED_PLACEHOLDER, snippet.path), breaks)
            if file not in files:
                files.append(file)
                to_read.append((shown_path(file, project), pasted, 1, pasted_at, as_code))
    return files


def shown_path(path: Path, project: Path) -> str:
    """A file as an author names it: from the book's folder (docs/grpo.md), or whole when it lies outside."""
    for base in (project, project.resolve()):
        if path.is_relative_to(base):
            return path.relative_to(base).as_posix()
    return str(path)


def _snippet_problem(path: str, project: Path) -> str | None:
    """Why a snippet line cannot paste this file, or None: it must be a file of SNIPPET_FOLDERS, named from the
    book's folder (mkdocs.yml sets pymdownx.snippets' base path there); a link is judged by where it leads."""
    target = (project / path).resolve()
    if not target.is_relative_to(project.resolve()):
        return SNIPPET_OUTSIDE.format(where="outside the book")
    if not any(target.is_relative_to((project / folder).resolve()) for folder in SNIPPET_FOLDERS):
        return SNIPPET_OUTSIDE.format(where=f"in {target.relative_to(project.resolve()).as_posix()}")
    if not target.is_file():
        return "no such file in the book: name it from the book's folder, e.g. tests/site/new_chapter/sampling.py"
    return None


def _add_data_problems(report: Report, error: gx.DataError, breaks: tuple[str, int] | None) -> None:
    for place, problem in zip(error.places, error.problems, strict=True):
        report.add(BookProblem(error.file, place.line, place.column, problem, place.text), breaks)


UNREAD_DATA = (
    "no model reads this file, so no page shows what it holds: a chapter's data is grpo_examples/data/<chapter>.toml, "
    "named as its module grpo_examples/chapters/<chapter>.py ({chapters}), and the groups are groups.toml; rename "
    "the file or remove it"
)


def check_data(report: Report) -> None:
    """Every data file's problems, whether a page uses it or not: each subject's model is built once. A TOML file
    of the data folder that no model reads is one too (a copy edited in vain, a chapter's file under another name)."""
    read = {gx.GROUPS_FILE, *(gx.chapter_file(name) for name in gx.chapter_names())}
    for path in sorted(gx.DATA.rglob("*.toml")):
        hidden = any(part.startswith(".") for part in path.relative_to(gx.DATA).parts)  # an editor's, unseen
        if path not in read and not hidden:
            message = UNREAD_DATA.format(chapters=", ".join(gx.chapter_names()))
            report.add(BookProblem(_data(path), 1, 0, message, ""))
    try:
        subjects = book().subjects.values()
    except gx.DataError as error:
        _add_data_problems(report, error, None)
        return
    for each in subjects:
        try:
            each.call()
        except gx.DataError as error:
            _add_data_problems(report, error, None)
        except (LookupError, ValueError):  # not the file's own problem (a group the chapter names is gone):
            pass  # each place that uses the model reports it, at its line


def drift_findings(markdown: str, source: Source, used: frozenset[str]) -> list[drift_guard.Finding]:
    """What the drift guard finds in a page now (for a page `make serve` keeps after a data edit)."""
    try:
        return drift_guard.findings(book(), markdown, source.first_line(markdown), used=used)
    except gx.DataError:
        return [drift_guard.Finding(1, 0, "the data files have problems", "")]


def fingerprints() -> dict[str, str]:
    """Each subject's fingerprint (hooks/engine/tree.py), or the error its model raises. A model grpo_examples still
    holds (its files were not edited) is the same object, and keeps the fingerprint it had."""
    global _fingerprints
    result, kept = {}, {}
    try:
        subjects = book().subjects
    except gx.DataError as error:
        return {"": str(error)}
    for name, each in subjects.items():
        try:
            made = model(each)
            known = _fingerprints.get(name)
            result[name] = known[1] if known is not None and known[0] is made else fingerprint(each)
            kept[name] = (made, result[name])
        except Exception as error:  # noqa: BLE001  a model that cannot be built: changed, whatever it was
            result[name] = f"{type(error).__name__}: {error}"
    _fingerprints = kept
    return result


def data_changed(edited: Iterable[Path] | None = None) -> None:
    """The data files were edited (those named, or any): the models read from them and the Book are made again
    when next asked for."""
    gx.reread_data(edited)
    book.cache_clear()


def save() -> str | None:
    """Keep the formulas rendered in this build for the next process (hooks/site/katex_cache.py); what went
    wrong, if the cache could not be written."""
    return _renderer.save() if _renderer is not None else None


def shutdown() -> None:
    """Stop the KaTeX process (at the end of a build, or before the hooks are re-imported)."""
    global _renderer
    if _renderer is not None:
        _renderer.close()
        _renderer = None
