"""What the figures were measured on: the machine, its load, the versions of every tool involved."""

from __future__ import annotations

import json
import os
import platform
import subprocess
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
