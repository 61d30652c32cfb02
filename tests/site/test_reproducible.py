"""Two clean builds of one commit are byte-identical, whenever they run.

Each build runs under libfaketime with its own clock, years apart: every process of the build (Python,
and Node.js rendering the math) sees that time, so a date taken from the clock would differ between
them. The sitemap's dates come from the commit instead (hooks/site/build_date.py); from a release tarball
without git, from its files' times, which `git archive` sets to the commit's.
"""

from __future__ import annotations

import io
import os
import subprocess
import sys
import tarfile
from datetime import UTC, datetime
from pathlib import Path

import pytest

from hooks.site.build_date import build_date, source_epoch
from scripts.ensure_faketime import HOW_TO_INSTALL, find_faketime
from tests.conftest import ROOT, copy_project

pytestmark = pytest.mark.slow

CLOCKS = ("2019-03-04 05:06:07", "2031-10-11 12:13:14")  # neither is today, and they are years apart


@pytest.fixture(scope="module")
def faketime() -> str:
    path = find_faketime()
    if path is None:
        pytest.fail(HOW_TO_INSTALL, pytrace=False)
    return path


def _clean_env(tmp: Path) -> dict[str, str]:
    """The environment of a clean build: no SOURCE_DATE_EPOCH, a temporary folder of its own (no warm cache)."""
    tmp.mkdir(parents=True)
    env = {key: value for key, value in os.environ.items() if key != "SOURCE_DATE_EPOCH"}
    return {**env, "NO_MKDOCS_2_WARNING": "1", "TMPDIR": str(tmp), "GIT_CEILING_DIRECTORIES": str(tmp.parent)}


def _build_at(faketime: str, clock: str, project: Path, out: Path) -> Path:
    env = _clean_env(out / "tmp")
    seen = subprocess.run(
        [faketime, clock, sys.executable, "-c", "import datetime; print(datetime.date.today())"],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    assert seen == clock.split()[0], f"faketime did not set the clock: the build would see {seen}"
    site = out / "site"
    command = [faketime, clock, sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site)]
    result = subprocess.run(command, cwd=project, env=env, capture_output=True, text=True, timeout=600, check=False)
    assert result.returncode == 0, result.stderr
    return site


def _files(site: Path) -> dict[str, bytes]:
    return {p.relative_to(site).as_posix(): p.read_bytes() for p in sorted(site.rglob("*")) if p.is_file()}


def _lastmods(site: Path) -> set[str]:
    sitemap = (site / "sitemap.xml").read_text(encoding="utf-8")
    return {part.split("</lastmod>")[0] for part in sitemap.split("<lastmod>")[1:]}


def _commit_time() -> int:
    result = subprocess.run(["git", "show", "-s", "--format=%ct", "HEAD"], cwd=ROOT, capture_output=True, text=True)
    if result.returncode != 0:
        pytest.fail(f"these tests read the commit of the working tree, and git says: {result.stderr}", pytrace=False)
    return int(result.stdout)


def _day(epoch: int) -> str:
    return datetime.fromtimestamp(epoch, UTC).strftime("%Y-%m-%d")


def _clone(folder: Path, commit_date: str) -> Path:
    """The working tree's book as a fresh clone would have it: its sources committed at commit_date, and no
    .cache (hooks/site/katex_cache.py keeps rendered formulas there): a build of it is a clean build."""
    project = copy_project(folder)
    assert not (project / ".cache").exists()
    env = {**os.environ, "GIT_AUTHOR_DATE": commit_date, "GIT_COMMITTER_DATE": commit_date}
    git = ["git", "-c", "user.name=Book", "-c", "user.email=book@example.org", "-c", "init.defaultBranch=main"]
    for command in (["init", "-q"], ["add", "-A"], ["commit", "-q", "-m", "The book"]):
        subprocess.run([*git, *command], cwd=project, env=env, check=True, capture_output=True)
    return project


def test_two_clean_builds_of_one_commit_under_different_clocks_are_byte_identical(
    faketime: str, tmp_path: Path
) -> None:
    commit = "2021-06-15T12:00:00+00:00"
    first = _files(_build_at(faketime, CLOCKS[0], _clone(tmp_path / "a", commit), tmp_path / "first"))
    second = _files(_build_at(faketime, CLOCKS[1], _clone(tmp_path / "b", commit), tmp_path / "second"))
    assert first.keys() == second.keys()
    differing = [name for name in first if first[name] != second[name]]
    assert differing == [], f"these files differ between the two builds: {differing}"
    assert "sitemap.xml.gz" in first  # gzip stamps a time in its header: it too is the commit's


def test_the_sitemap_carries_the_commit_date_not_the_files_or_the_clock(faketime: str, tmp_path: Path) -> None:
    # The clone's commit is dated 2021-06-15, its files today, and the clock says 2031: three different
    # days, and only the commit's may appear.
    project = _clone(tmp_path / "book", "2021-06-15T12:00:00+00:00")
    site = _build_at(faketime, CLOCKS[1], project, tmp_path / "build")
    assert _lastmods(site) == {"2021-06-15"}


def test_a_release_tarball_without_git_gets_its_commit_date(faketime: str, tmp_path: Path) -> None:
    # What GitHub serves as a release's source archive is `git archive` of the commit: every file stamped
    # with the commit's time, and no .git folder.
    archive = subprocess.run(["git", "archive", "--format=tar", "HEAD"], cwd=ROOT, capture_output=True, check=True)
    project = tmp_path / "release"
    with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as tar:
        tar.extractall(project, filter="tar")
    (project / "node_modules").symlink_to(ROOT / "node_modules")
    assert not (project / ".git").exists()
    site = _build_at(faketime, CLOCKS[0], project, tmp_path / "build")
    assert _lastmods(site) == {_day(_commit_time())}


def test_source_date_epoch_wins_when_a_packager_sets_it(monkeypatch: pytest.MonkeyPatch) -> None:
    # 1700000000 s after 1970-01-01 UTC is 2023-11-14 22:13:20 UTC.
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    assert source_epoch(ROOT) == 1700000000
    assert build_date(ROOT) == "2023-11-14"


def test_without_git_the_newest_source_file_gives_the_date(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path))
    project = tmp_path / "book"
    (project / "docs").mkdir(parents=True)
    (project / "mkdocs.yml").write_text("site_name: x\n")
    (project / "docs" / "index.md").write_text("# x\n")
    os.utime(project / "mkdocs.yml", (1600000000, 1600000000))  # 2020-09-13 12:26:40 UTC
    os.utime(project / "docs" / "index.md", (1700000000, 1700000000))  # 2023-11-14, the newer
    assert build_date(project) == "2023-11-14"
