"""The code is linted, formatted and type-checked as part of the tests, and keeps the import contract."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.conftest import ROOT


@pytest.mark.parametrize(
    "command",
    [
        [sys.executable, "-m", "ruff", "check", "."],
        [sys.executable, "-m", "ruff", "format", "--check", "."],
        [sys.executable, "-m", "mypy"],
        # hooks/ reach grpo_examples through its public names only and never import numpy; no import cycle
        [sys.executable, "scripts/check_imports.py"],
    ],
    ids=["ruff-check", "ruff-format", "mypy", "import-contract"],
)
def test_tool_passes(command: list[str]) -> None:
    result = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=600, check=False)
    assert result.returncode == 0, result.stdout + result.stderr
