"""What every benchmark shares: the project, timed runs with their spread, a fresh clone of the book."""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PYTHON = sys.executable  # the project's .venv python, as benchmarks/run starts it
MATH_OFF = {"GRPO_BOOK_MATH": "off"}  # hooks/site/math_switch.py


@dataclass(frozen=True)
class Timing:
    """Repeated measurements of one thing, in seconds: the median and the spread."""

    runs: list[float]

    @property
    def median(self) -> float:
        return statistics.median(self.runs)

    def to_json(self) -> dict[str, object]:
        return {**asdict(self), "median": self.median, "min": min(self.runs), "max": max(self.runs)}

    def text(self, scale: float = 1.0, unit: str = "s", digits: int = 2) -> str:
        """'2.31 s (2.20-2.52, 5 runs)'."""
        low, high = min(self.runs) * scale, max(self.runs) * scale
        return f"{self.median * scale:.{digits}f} {unit} ({low:.{digits}f}-{high:.{digits}f}, {len(self.runs)} runs)"


def repeat(times: int, measure: Callable[[], float]) -> Timing:
    """Call measure (which returns seconds) times times."""
    return Timing([measure() for _ in range(times)])


def environment(extra: Mapping[str, str] | None = None) -> dict[str, str]:
    """This process's environment, quiet about MkDocs 2, with math on unless extra switches it off."""
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", **(extra or {})}
    if "GRPO_BOOK_MATH" not in (extra or {}):
        env.pop("GRPO_BOOK_MATH", None)
    return env


def timed_run(command: list[str], cwd: Path, extra_env: Mapping[str, str] | None = None, timeout: float = 900) -> float:
    """Wall time of one command, in seconds; a failing command stops the benchmark with its output."""
    start = time.perf_counter()
    result = subprocess.run(
        command, cwd=cwd, env=environment(extra_env), capture_output=True, text=True, timeout=timeout, check=False
    )
    elapsed = time.perf_counter() - start
    if result.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} failed in {cwd}:\n{result.stdout[-3000:]}\n{result.stderr[-3000:]}")
    return elapsed


def mkdocs_build_command(site: Path, strict: bool = False) -> list[str]:
    return [PYTHON, "-m", "mkdocs", "build", *(["--strict"] if strict else []), "--site-dir", str(site)]


def fresh_clone(destination: Path) -> Path:
    """The current commit, cloned as a contributor would get it: no caches, no site, no __pycache__.

    node_modules is linked to the project's (installing it is `npm ci`, not part of a build).
    """
    if destination.exists():
        shutil.rmtree(destination)
    subprocess.run(["git", "clone", "--quiet", "--no-hardlinks", str(ROOT), str(destination)], check=True)
    (destination / "node_modules").symlink_to(ROOT / "node_modules")
    return destination


def commit() -> str:
    """The commit measured, with '+ uncommitted changes' when the work tree differs from it."""
    head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True).stdout
    dirty = subprocess.run(["git", "status", "--porcelain"], cwd=ROOT, capture_output=True, text=True).stdout
    return head.strip() + (" + uncommitted changes (the clone builds the commit)" if dirty.strip() else "")
