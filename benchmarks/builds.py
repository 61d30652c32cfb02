"""Full builds of the book from a fresh clone: cold, warm, and with math rendering switched off.

Cold: a new `git clone` of the current commit (no .cache/, no __pycache__, no site/), one `mkdocs
build` process. Warm: the same command again in that clone (Python's bytecode and the formula cache
on disk). Math off: GRPO_BOOK_MATH=off (hooks/site/math_switch.py), the same command otherwise. Every
timed build is `mkdocs build` without --strict, because a strict build refuses math off; --strict
only turns warnings into a failed exit, and one strict build of the clone checks that there are none.
`make check` (scripts/check_chapters.py) is timed in the warm clone, as an author runs it while writing, and
the book's PDF and EPUB (scripts/books/, what `make build` adds after MkDocs) from that clone's strict build.
"""

from __future__ import annotations

from pathlib import Path

from benchmarks.common import MATH_OFF, PYTHON, Timing, fresh_clone, mkdocs_build_command, timed_run

CHECK_COMMAND = [PYTHON, "scripts/check_chapters.py"]  # `make check`: every page and data file, no site build
BOOKS_COMMAND = [PYTHON, "-m", "scripts.books", "site-strict"]  # book.pdf and book.epub, epubcheck included


def _cold(scratch: Path, name: str, repeats: int, extra_env: dict[str, str] | None) -> tuple[Timing, Path]:
    runs, clone = [], scratch
    for index in range(repeats):
        clone = fresh_clone(scratch / f"{name}-{index}")
        runs.append(timed_run(mkdocs_build_command(clone / "site"), clone, extra_env))
    return Timing(runs), clone


def _warm(clone: Path, repeats: int, extra_env: dict[str, str] | None) -> Timing:
    return Timing([timed_run(mkdocs_build_command(clone / "site"), clone, extra_env) for _ in range(repeats)])


def measure(scratch: Path, repeats: int) -> dict[str, object]:
    """Cold and warm builds with math on and off, alternating kinds so that load on the machine hits all alike."""
    cold, clone = _cold(scratch, "clone-math", repeats, None)
    cold_off, clone_off = _cold(scratch, "clone-nomath", repeats, MATH_OFF)
    warm = _warm(clone, repeats, None)
    warm_off = _warm(clone_off, repeats, MATH_OFF)
    strict = timed_run(mkdocs_build_command(clone / "site-strict", strict=True), clone)
    check = Timing([timed_run(CHECK_COMMAND, clone) for _ in range(repeats)])
    books = Timing([timed_run(BOOKS_COMMAND, clone) for _ in range(repeats)])
    return {
        "cold": cold.to_json(),
        "cold_math_off": cold_off.to_json(),
        "warm": warm.to_json(),
        "warm_math_off": warm_off.to_json(),
        "strict_build_seconds": strict,
        "check": check.to_json(),
        "book_files": books.to_json(),
        "cold_over_cold_math_off": cold.median / cold_off.median,
        "warm_over_warm_math_off": warm.median / warm_off.median,
        "site": str(clone / "site"),
    }
