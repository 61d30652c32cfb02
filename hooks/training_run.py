"""The chapter's training run, as the hooks see it: the settings in the file, trained (or cached)."""

from __future__ import annotations

from grpo_examples.run_statistics import SeedSweep, seed_sweep
from grpo_examples.training import TrainingRun, load_config, training_run

SWEEP_SEEDS = 20  # seeds 0..19: enough to see whether the chosen run is typical, about a second to train
METHOD_LABELS = {
    "grpo": "GRPO",
    "critic": "learned critic",
    "reinforce": "REINFORCE, no baseline",
}
METHOD_STYLES = {"grpo": 1, "critic": 2, "reinforce": 3}


def current_run() -> TrainingRun:
    """The run on grpo_examples/training_run.toml; trained once per process for the same settings."""
    return training_run(load_config())


def current_sweep() -> SeedSweep:
    """The same settings over SWEEP_SEEDS seeds."""
    return seed_sweep(load_config(), SWEEP_SEEDS)
