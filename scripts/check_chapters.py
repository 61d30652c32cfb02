"""Check every chapter without building the site (about a second, most of it Python and Node starting).

    make check                                           # every page under docs/
    .venv/bin/python scripts/check_chapters.py docs/grpo.md   # some pages (or every page of a folder: docs/guide)
    .venv/bin/python scripts/check_chapters.py --project DIR  # the book in DIR (its hooks, its examples)

For each page: its placeholders resolve, its formulas parse with the book's KaTeX, and the drift
guard finds no typed number; and every data file loads. Each page goes through the very function
the build calls on it (hooks/checks.py check_page), so this check and `mkdocs build` cannot disagree;
what it skips is the rest of the build (Markdown to HTML, the theme, the links). Checking the whole
book, it also reads every other file of docs/ as the build does: a link out of the book, or a file
that would run a script where it is published, is reported here too. Every problem is
printed at once, as the build prints them (`file:line: message`, sorted, then a count), and the exit
status is 1 if there is any.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def check_page(path: Path, project: Path, report: Any) -> None:
    """The problems of one page, as the build finds them, into the report (hooks/engine/report.py)."""
    from mkdocs.utils import is_markdown_file
    from mkdocs.utils.meta import get_data

    from hooks import checks
    from hooks.engine.report import Problem

    docs = project / "docs"
    if not path.is_relative_to(docs) or not is_markdown_file(path.name) or not path.is_file():
        shown = checks.shown_path(path, project)
        what = "no such page" if path.is_relative_to(docs) and not path.exists() else "not a page of the book"
        report.add(Problem(shown, 1, 0, f"{what}: give a .md file under docs/, or a folder of them", ""))
        return
    text = checks.page_text(path.read_bytes(), path.relative_to(project).as_posix(), report)
    markdown, _ = get_data(text)
    checks.check_page(markdown, checks.Source(path.relative_to(project).as_posix(), text), project, report)


def book_files(docs: Path) -> list[Path]:
    """Every file of docs/, as MkDocs finds them (it follows linked folders), in order."""
    walked = os.walk(docs, followlinks=True)
    return sorted(Path(folder) / name for folder, _, names in walked for name in names)


def check_files(docs: Path, project: Path, report: Any) -> list[Path]:
    """The checks the build makes of docs/'s files before it reads a page (hooks/events.py on_files), into the
    report; the pages to check (those that are not links out of the book), as the build reads them."""
    from mkdocs.utils import is_markdown_file

    from hooks import checks

    files = book_files(docs)
    outside = set(checks.check_linked_out(files, project, report))
    kept = [path for path in files if path not in outside]
    checks.check_published_files([path for path in kept if not is_markdown_file(path.name)], project, report)
    return [path for path in kept if is_markdown_file(path.name)]


def pages_given(paths: list[Path]) -> list[Path]:
    """The pages named, a folder standing for the pages in it."""
    from mkdocs.utils import is_markdown_file

    pages = []
    for path in (path.resolve() for path in paths):
        if path.is_dir():
            pages += [page for page in book_files(path) if is_markdown_file(page.name)]
        else:
            pages.append(path)
    return pages


def main(arguments: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("pages", nargs="*", type=Path, help="pages to check (default: every page under docs/)")
    parser.add_argument("--project", type=Path, default=ROOT, help="the book's folder (default: this one)")
    options = parser.parse_args(arguments)
    project = options.project.resolve()
    docs = project / "docs"
    if not docs.is_dir() or not (project / "hooks" / "checks.py").is_file():
        print(
            f"error: {project} is not the book's folder (it has no docs/ or no hooks/): give --project the folder "
            "that holds mkdocs.yml",
            file=sys.stderr,
        )
        return 1
    sys.path.insert(0, str(project))
    from hooks import checks
    from hooks.engine.report import Report

    report = Report()
    try:
        pages = pages_given(options.pages) if options.pages else check_files(docs, project, report)
        for page in pages:
            check_page(page, project, report)
        checks.check_data(report)
    except checks.BookError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    finally:
        checks.shutdown()
    print(report.text() if len(report) else "no problems")
    print(f"checked {len(pages)} page{'s' * (len(pages) != 1)} and every data file")
    return 1 if len(report) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
