"""What the figures were measured on: the machine, its load, the versions of every tool involved."""

from __future__ import annotations

import json
import os
import platform
import subprocess
import time
from datetime import UTC, datetime
from importlib.metadata import version
from pathlib import Path

from benchmarks.common import ROOT, commit


def _output(command: list[str]) -> str:
    try:
        return subprocess.run(command, capture_output=True, text=True, timeout=30, check=False).stdout.strip()
    except OSError:
        return "not found"


def _cpu_model() -> str:
    for line in Path("/proc/cpuinfo").read_text(encoding="utf-8").splitlines():
        if line.startswith("model name"):
            return line.split(":", 1)[1].strip()
    return platform.processor() or "unknown"


def _memory_gib() -> float:
    for line in Path("/proc/meminfo").read_text(encoding="utf-8").splitlines():
        if line.startswith("MemTotal"):
            return round(int(line.split()[1]) / 1024**2, 1)
    return 0.0


def _cpu_times() -> tuple[int, int]:
    """(idle, total) jiffies of all cores since boot, from /proc/stat."""
    fields = [int(value) for value in Path("/proc/stat").read_text(encoding="utf-8").split("\n", 1)[0].split()[1:]]
    return fields[3] + fields[4], sum(fields)  # idle + iowait


def busy_fraction(seconds: float = 1.0) -> float:
    """How busy all cores were over the next `seconds` (0 idle, 1 every core busy)."""
    idle_before, total_before = _cpu_times()
    time.sleep(seconds)
    idle_after, total_after = _cpu_times()
    return 1 - (idle_after - idle_before) / max(1, total_after - total_before)


def wait_for_quiet(limit: float, patience: float) -> float:
    """Wait (at most patience seconds) until the cores are less busy than limit; the busy fraction at the end.

    Lighthouse's simulated throttling multiplies the CPU time it observes, so another process that
    takes a core during a run lowers the score of a page that did not change.
    """
    deadline = time.monotonic() + patience
    busy = busy_fraction()
    while busy >= limit and time.monotonic() < deadline:
        busy = busy_fraction()
    return round(busy, 2)


def load_average() -> list[float]:
    return [round(value, 2) for value in os.getloadavg()]


def describe(chromium: str) -> dict[str, object]:
    tools = Path(__file__).resolve().parent / "node_modules"
    return {
        "date": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "commit": commit(),
        "cpu": _cpu_model(),
        "cores": os.cpu_count(),
        "memory_gib": _memory_gib(),
        "os": f"{platform.system()} {platform.release()}",
        "load_average_at_start": load_average(),
        "python": platform.python_version(),
        "node": _output(["node", "--version"]),
        "chromium": _output([chromium, "--version"]),
        "mkdocs": version("mkdocs"),
        "mkdocs-material": version("mkdocs-material"),
        "markdown-katex": version("markdown-katex"),
        "katex": json.loads((ROOT / "node_modules" / "katex" / "package.json").read_text())["version"],
        "lighthouse": json.loads((tools / "lighthouse" / "package.json").read_text())["version"],
        "terser": json.loads((tools / "terser" / "package.json").read_text())["version"],
    }
