"""How long the training-run chapter's computation takes at build time, cold and cached.

    .venv/bin/python scripts/benchmark_training.py

Cold: the first build of a process (the chosen run plus the seed sweep). Warm: a rebuild under
`mkdocs serve` with unchanged settings, which the cache on TrainingConfig answers.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from hooks.training_run import SWEEP_SEEDS, current_run, current_sweep


def main() -> None:
    start = time.perf_counter()
    current_run()
    run_done = time.perf_counter()
    current_sweep()
    cold = time.perf_counter()
    current_run()
    current_sweep()
    warm = time.perf_counter()
    print(f"chosen run, 3 methods:       {run_done - start:8.3f} s")
    print(f"seed sweep, {SWEEP_SEEDS} seeds:         {cold - run_done:8.3f} s")
    print(f"rebuild with the same inputs: {1000 * (warm - cold):7.3f} ms")


if __name__ == "__main__":
    main()
