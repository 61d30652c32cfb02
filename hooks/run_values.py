"""The training run's namespace: `<!-- grpo:value run.final.reward.grpo -->`, `<!-- grpo:check run <claim> -->`.

Each value picks a number out of what grpo_examples computed; the formatting is numbers.py's.
"""

from __future__ import annotations

from collections.abc import Callable

from grpo_examples.run_statistics import stuck_questions, zero_advantage_share
from hooks.namespaces import Namespace
from hooks.quantities import Quantity, QuantityError
from hooks.training_run import METHOD_LABELS, SWEEP_SEEDS, current_run, current_sweep

RUN_CALL = "grpo_examples.training_run(load_config())"
SWEEP_CALL = f"grpo_examples.run_statistics.seed_sweep(load_config(), {SWEEP_SEEDS})"
PLACES = 2  # a run's rewards are shown to two decimals: the third is noise from the seed


def _setting(field: str) -> Callable[[], Quantity]:
    return lambda: Quantity(getattr(current_run().config, field), f"grpo_examples/training_run.toml: {field}")


def _steps_to_threshold(method: str) -> Quantity:
    run = current_run()
    step = run.traces[method].steps_to(run.config.threshold)
    if step is None:
        raise QuantityError(
            f"{METHOD_LABELS[method]} never reaches the threshold {run.config.threshold:g} in this run: "
            "rewrite the sentence, or change grpo_examples/training_run.toml"
        )
    return Quantity(step, f"{RUN_CALL}.traces[{method!r}].steps_to({run.config.threshold:g})")


def _median_steps(method: str) -> Quantity:
    median = current_sweep().median_steps(method)
    if median is None:
        raise QuantityError(f"{METHOD_LABELS[method]} reaches the threshold in fewer than half the seeds")
    return Quantity(median, f"{SWEEP_CALL}.median_steps({method!r})", places=1)


def _groups(fraction: float) -> int:
    """A fraction of the step's groups as a count of questions (one group per question)."""
    return round(fraction * len(current_run().task.questions))


def _per_method(method: str) -> dict[str, Callable[[], Quantity]]:
    def trace(attribute: str = "") -> str:
        return f"{RUN_CALL}.traces[{method!r}]" + (f".{attribute}" if attribute else "")

    return {
        f"final.reward.{method}": lambda: Quantity(
            float(current_run().traces[method].mean_reward[-1]), trace("mean_reward[-1]"), places=PLACES
        ),
        f"steps-to-threshold.{method}": lambda: _steps_to_threshold(method),
        f"all-equal.first.{method}": lambda: Quantity(
            _groups(float(current_run().traces[method].all_equal[0])), trace("all_equal[0] × number of questions")
        ),
        f"all-equal.last.{method}": lambda: Quantity(
            _groups(float(current_run().traces[method].all_equal[-1])), trace("all_equal[-1] × number of questions")
        ),
        f"all-equal.percent.{method}": lambda: Quantity(
            round(100 * float(current_run().traces[method].all_equal.mean())),
            trace("all_equal.mean(), as a whole percent"),
        ),
        f"zero-share.{method}": lambda: Quantity(
            round(zero_advantage_share(current_run().traces[method])),
            f"grpo_examples.run_statistics.zero_advantage_share({trace()}), as a whole percent",
        ),
        f"stuck.{method}": lambda: Quantity(
            stuck_questions(current_run().traces[method], current_run().task),
            f"grpo_examples.run_statistics.stuck_questions({trace()}, task)",
        ),
        f"sweep.reached.{method}": lambda: Quantity(
            current_sweep().reached(method), f"{SWEEP_CALL}.reached({method!r})"
        ),
        f"sweep.first.{method}": lambda: Quantity(current_sweep().first(method), f"{SWEEP_CALL}.first({method!r})"),
        f"sweep.median.{method}": lambda: _median_steps(method),
    }


VALUES: dict[str, Callable[[], Quantity]] = {
    "seed": _setting("seed"),
    "steps": _setting("steps"),
    "G": _setting("group_size"),
    "learning-rate": _setting("learning_rate"),
    "critic-learning-rate": _setting("critic_learning_rate"),
    "prior-scale": _setting("prior_scale"),
    "threshold": _setting("threshold"),
    "questions": lambda: Quantity(len(current_run().task.questions), "grpo_examples.toy_task().questions"),
    "candidates": lambda: Quantity(current_run().task.shape[1], "grpo_examples.toy_task().shape[1]"),
    "max-reward": lambda: Quantity(float(current_run().task.rewards.max()), "grpo_examples.toy_task().rewards.max()"),
    "start.reward": lambda: Quantity(
        float(current_run().traces["grpo"].mean_reward[0]), f"{RUN_CALL}: mean_reward[0]", places=PLACES
    ),
    "sweep.seeds": lambda: Quantity(SWEEP_SEEDS, f"{SWEEP_CALL}.seeds"),
}
for _method in METHOD_LABELS:
    VALUES.update(_per_method(_method))


def _steps_or_never(method: str) -> float:
    run = current_run()
    step = run.traces[method].steps_to(run.config.threshold)
    return float("inf") if step is None else float(step)


def _median_or_never(method: str) -> float:
    median = current_sweep().median_steps(method)
    return float("inf") if median is None else median


# Claims the prose makes about the run: `<!-- grpo:check run <claim> -->` prints nothing, and fails
# the build if the run says otherwise.
CLAIMS: dict[str, Callable[[], bool]] = {
    "grpo-reaches-threshold-first": lambda: (
        _steps_or_never("grpo") < min(map(_steps_or_never, ("critic", "reinforce")))
    ),
    "grpo-first-in-most-seeds": lambda: 2 * current_sweep().first("grpo") > SWEEP_SEEDS,
    "critic-median-beats-reinforce": lambda: _median_or_never("critic") < _median_or_never("reinforce"),
    "grpo-all-equal-rises": lambda: (
        current_run().traces["grpo"].all_equal[-1] > current_run().traces["grpo"].all_equal[0]
    ),
}

RUN = Namespace("run", "the training run", "hooks/run_values.py", VALUES, claims=CLAIMS)
