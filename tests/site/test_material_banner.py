"""MkDocs is quiet about Material's end of life however it is started, not only by `make` (which sets
NO_MKDOCS_2_WARNING): mkdocs.yml sets that variable while MkDocs parses it, before the theme is imported."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT

pytestmark = pytest.mark.slow  # each case builds the whole site

LAUNCHERS = {
    "the venv's mkdocs": [str(Path(sys.executable).parent / "mkdocs")],
    "python -m mkdocs": [sys.executable, "-m", "mkdocs"],
}


@pytest.mark.parametrize("launcher", LAUNCHERS.values(), ids=list(LAUNCHERS))
def test_a_build_without_no_mkdocs_2_warning_prints_no_banner(launcher: list[str], tmp_path: Path) -> None:
    env = {name: value for name, value in os.environ.items() if name != "NO_MKDOCS_2_WARNING"}
    command = [*launcher, "build", "--strict", "--site-dir", str(tmp_path / "site")]
    result = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=300, check=False)
    assert result.returncode == 0, result.stderr  # so the theme, which prints the banner, was imported
    assert "end of life" not in result.stdout + result.stderr, result.stdout + result.stderr
    for page in (tmp_path / "site").rglob("*.html"):  # the key that sets it reaches no page
        assert "quiet_material_notice" not in page.read_text(encoding="utf-8"), page
