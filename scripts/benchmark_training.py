"""How long the training-run chapter's model takes at build time, cold and cached.

    .venv/bin/python scripts/benchmark_training.py

Cold: the first build of a process (the chosen run of three methods, then the seed sweep). Warm: a rebuild
under `mkdocs serve` that changed no code and no data, which the model's cache answers.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import grpo_examples as gx


def main() -> None:
    start = time.perf_counter()
    run = gx.chapter("run")
    cold = time.perf_counter()
    gx.chapter("run")
    warm = time.perf_counter()
    print(f"the run and its sweep of {run.sweep_seeds} seeds: {cold - start:8.3f} s")
    print(f"rebuild with the same inputs:      {1000 * (warm - cold):7.3f} ms")


if __name__ == "__main__":
    main()
