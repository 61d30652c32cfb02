"""The date a build of the book carries (the sitemap's lastmod): the sources' date, never the clock's.

Two builds of one commit are then byte-identical, whenever they run (tests/site/test_reproducible.py builds
twice under different clocks). The date is, in order:

1. SOURCE_DATE_EPOCH, when it is set: the reproducible-builds convention
   (https://reproducible-builds.org/specs/source-date-epoch/), for packagers who choose the date;
2. the time of the commit checked out, from git;
3. without git (a tarball, a copy): the newest modification time among the book's sources. `git archive`,
   and the tarballs GitHub serves, stamp every file with the commit's time, so an unpacked release gets
   its commit's date here too; a copy whose files were edited gets the date of the last edit.
"""

from __future__ import annotations

import os
import subprocess
from datetime import UTC, datetime
from pathlib import Path

# What a build reads; the last is the example chapter that the author's guide includes whole.
SOURCES = ("mkdocs.yml", "docs", "hooks", "grpo_examples", "overrides", "tests/site/new_chapter")


def source_epoch(root: Path) -> int:
    """Seconds since 1970 (UTC) that stand for the sources in root, by the rules above."""
    explicit = os.environ.get("SOURCE_DATE_EPOCH", "").strip()
    if explicit.isdigit():
        return int(explicit)
    return _commit_time(root) or _newest_source_time(root)


class BuildDateError(ValueError):
    """SOURCE_DATE_EPOCH names no date a sitemap can carry."""


def build_date(root: Path) -> str:
    """The sources' date as the sitemap writes it: 2026-12-02."""
    epoch = source_epoch(root)
    try:
        return datetime.fromtimestamp(epoch, UTC).strftime("%Y-%m-%d")
    except (OverflowError, OSError, ValueError):
        raise BuildDateError(
            f"SOURCE_DATE_EPOCH={epoch} is no date this machine can write (seconds since 1970, up to year 9999): "
            "unset it, or set it to the commit's time, `git log -1 --format=%ct`"
        ) from None


def _commit_time(root: Path) -> int | None:
    """The committer time of HEAD, or None where there is no git or no repository."""
    try:
        result = subprocess.run(
            ["git", "log", "-1", "--format=%ct", "HEAD"], cwd=root, capture_output=True, text=True, timeout=30
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    stamp = result.stdout.strip()
    return int(stamp) if result.returncode == 0 and stamp.isdigit() else None


def _newest_source_time(root: Path) -> int:
    paths = [root / name for name in SOURCES]
    files = [p for path in paths if path.exists() for p in ([path] if path.is_file() else path.rglob("*"))]
    times = [int(p.stat().st_mtime) for p in files if p.is_file() and "__pycache__" not in p.parts]
    return max(times, default=0)
