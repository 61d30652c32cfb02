"""The training-run chapter's blocks: the plots (inline SVG) and tables, drawn from the same cached run.

`<!-- grpo:block training-reward -->` and friends take no example: the run is the one on
grpo_examples/training_run.toml.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from html import escape

import numpy as np

import grpo_examples as gx
from grpo_examples.run_statistics import nonzero_advantage_histogram, zero_advantage_share
from grpo_examples.training import METHODS, TrainingRun, initial_logits, policy_gradient, softmax
from hooks import svg
from hooks.blocks import BlockError
from hooks.formulas import mean_tex, std_tex
from hooks.markdown_text import escape_markdown
from hooks.numbers import count_words, decimal
from hooks.training_run import METHOD_LABELS, METHOD_STYLES, SWEEP_SEEDS, current_run, current_sweep

# Histogram bins a quarter of a unit wide and centred on multiples of 0.25, so that REINFORCE's
# integer advantages sit in the middle of their bars; the range [-3, 3] holds every advantage of the run.
ADVANTAGE_BIN = 0.25
ADVANTAGE_RANGE = 3.0


def _no_examples(examples: Sequence[gx.Example], block: str) -> None:
    if examples:
        raise BlockError(f"block {block!r} shows the training run and takes no example, got {len(examples)}")


def _note(calls: Sequence[str]) -> str:
    lines = [
        '??? abstract "How this was computed"',
        "    Trained when the book was built, on the settings in `grpo_examples/training_run.toml`, by:",
        "",
        *[f"    - `{call}`" for call in calls],
    ]
    return "\n".join(lines)


def _steps_phrase(run: TrainingRun, method: str) -> str:
    step = run.traces[method].steps_to(run.config.threshold)
    return "never reaches it" if step is None else f"reaches it after {step} steps"


def _label_reward(value: float) -> str:
    return decimal(value, max_decimals=2).prose()


def reward_plot(examples: Sequence[gx.Example]) -> str:
    """Mean reward per step for each method, with the threshold the chapter reports as a dotted line."""
    _no_examples(examples, "training-reward")
    run = current_run()
    steps, top = run.config.steps, float(run.task.rewards.max())
    series = [
        svg.Series(METHOD_LABELS[m], list(range(steps + 1)), run.traces[m].mean_reward.tolist(), METHOD_STYLES[m])
        for m in METHODS
    ]
    threshold = f"{run.config.threshold:g}"
    summary = "; ".join(
        f"{METHOD_LABELS[m]} starts at {_label_reward(run.traces[m].mean_reward[0])}, {_steps_phrase(run, m)} "
        f"and ends at {_label_reward(run.traces[m].mean_reward[-1])}"
        for m in METHODS
    )
    chart = svg.line_chart(
        "training-reward",
        "Mean reward per training step, for each method",
        f"Line chart. The threshold is {threshold}. {summary}.",
        svg.Axis("training step (policy updates)", 0, steps, svg.ticks(0, steps)),
        svg.Axis("mean reward (0 to 2)", 0, top, svg.ticks(0, top, 4)),
        series,
        reference=(run.config.threshold, f"threshold {threshold}"),
    )
    caption = (
        f"Mean reward of the policy after each update: the reward it earns on average over its own responses, "
        f"averaged over the {len(run.task.questions)} questions (at most {top:g}: a right answer with its reasoning). "
        f"All three methods start from the same policy and sample with the same seed ({run.config.seed})."
    )
    return svg.figure(chart, escape(caption)) + "\n\n" + _note(["grpo_examples.training_run(load_config())"])


def all_equal_plot(examples: Sequence[gx.Example]) -> str:
    """The share of each step's groups whose G rewards were all equal: for GRPO, prompts that teach nothing."""
    _no_examples(examples, "training-all-equal")
    run = current_run()
    steps = run.config.steps
    series = [
        svg.Series(
            METHOD_LABELS[m], list(range(1, steps + 1)), (100 * run.traces[m].all_equal).tolist(), METHOD_STYLES[m]
        )
        for m in METHODS
    ]
    questions = len(run.task.questions)
    summary = "; ".join(
        f"{METHOD_LABELS[m]}: {round(100 * run.traces[m].all_equal[0])} % at the first step, "
        f"{round(100 * run.traces[m].all_equal[-1])} % at the last"
        for m in METHODS
    )
    chart = svg.line_chart(
        "training-all-equal",
        "Share of groups whose rewards are all equal, per training step",
        f"Line chart. {summary}.",
        svg.Axis("training step (policy updates)", 0, steps, svg.ticks(0, steps)),
        svg.Axis("all-equal groups (% of groups)", 0, 100, svg.ticks(0, 100, 4), "{:g}"),
        series,
    )
    caption = (
        f"At each step every method samples one group of {run.config.group_size} responses for each of the "
        f"{questions} questions. A group whose rewards are all equal gets GRPO advantage 0 for every response, "
        "so for GRPO these questions contribute no gradient at that step."
    )
    return svg.figure(chart, escape(caption)) + "\n\n" + _note(["grpo_examples.training_run(load_config())"])


def advantage_plot(examples: Sequence[gx.Example]) -> str:
    """The distribution of every advantage each method computed during the run, one histogram per method."""
    _no_examples(examples, "training-advantages")
    run = current_run()
    half = ADVANTAGE_BIN / 2
    edges = np.arange(-ADVANTAGE_RANGE - half, ADVANTAGE_RANGE + half + ADVANTAGE_BIN / 4, ADVANTAGE_BIN)
    panels = []
    for m in METHODS:
        trace = run.traces[m]
        if np.any(np.abs(trace.advantages) > ADVANTAGE_RANGE):
            raise BlockError(f"an advantage of {METHOD_LABELS[m]} falls outside the plot's range ±{ADVANTAGE_RANGE:g}")
        zero = round(zero_advantage_share(trace))
        shares = nonzero_advantage_histogram(trace, edges).tolist()
        panels.append(svg.Panel(f"{METHOD_LABELS[m]} ({zero} % exactly 0)", edges.tolist(), shares, METHOD_STYLES[m]))
    zeros = "; ".join(f"{METHOD_LABELS[m]}: {round(zero_advantage_share(run.traces[m]))} %" for m in METHODS)
    chart = svg.histogram_stack(
        "training-advantages",
        "Distribution of the non-zero advantages each method computed",
        f"Three histograms over advantages from -{ADVANTAGE_RANGE:g} to {ADVANTAGE_RANGE:g}, zeros left out. "
        f"Share of advantages exactly 0: {zeros}.",
        svg.Axis(
            "advantage A (unitless)", -ADVANTAGE_RANGE, ADVANTAGE_RANGE, svg.ticks(-ADVANTAGE_RANGE, ADVANTAGE_RANGE, 6)
        ),
        "share of non-zero advantages (%)",
        panels,
    )
    total = run.config.steps * len(run.task.questions) * run.config.group_size
    caption = (
        f"The advantages of the whole run ({total} per method: steps × questions × G), in bins "
        f"{ADVANTAGE_BIN:g} wide. Advantages exactly 0 move nothing and are left out; the share of them is in each "
        "panel's title (for GRPO, every response of an all-equal group). Each panel is scaled to its own tallest bar."
    )
    return (
        svg.figure(chart, escape(caption))
        + "\n\n"
        + _note(
            [
                "grpo_examples.run_statistics.nonzero_advantage_histogram(trace, bins)",
                "grpo_examples.run_statistics.zero_advantage_share(trace)",
            ]
        )
    )


def toy_question(examples: Sequence[gx.Example]) -> str:
    """One question of the toy task: its candidate responses, their rewards and the starting policy."""
    _no_examples(examples, "toy-question")
    run = current_run()
    task = run.task
    policy = softmax(initial_logits(run.config, task.shape))[0]
    rows = []
    for i, text in enumerate(task.responses[0]):
        verdict = gx.verify(text, task.references[0])
        rows.append(
            [
                str(i + 1),
                escape_markdown(text),
                f"{verdict.accuracy:g}",
                f"{verdict.format:g}",
                f"{task.rewards[0, i]:g}",
                decimal(float(policy[i]), max_decimals=2).prose(),
            ]
        )
    header = ["c", "candidate response", "accuracy", "format", "reward r", "π₀(c \\| q)"]
    table = _table(header, rows)
    intro = f"**{escape_markdown(task.questions[0])}** (reference answer: {escape_markdown(task.references[0])})"
    start = float(np.sum(policy * task.rewards[0]))
    after = (
        f"At the start this question's expected reward is {decimal(start, max_decimals=2).prose()}; "
        f"the right answer with its reasoning has probability {decimal(float(policy[0]), max_decimals=2).prose()}."
    )
    return (
        intro
        + "\n\n"
        + table
        + "\n\n"
        + after
        + "\n\n"
        + _note(
            [
                "grpo_examples.toy_task().responses[0]",
                "grpo_examples.verify(text, reference)",
                "grpo_examples.training.softmax(initial_logits(config, task.shape))",
            ]
        )
    )


def sweep_table(examples: Sequence[gx.Example]) -> str:
    """The same run over SWEEP_SEEDS seeds: how often and how fast each method reached the threshold."""
    _no_examples(examples, "training-sweep")
    sweep, run = current_sweep(), current_run()
    rows = []
    for m in METHODS:
        median = sweep.median_steps(m)
        rows.append(
            [
                METHOD_LABELS[m],
                f"{sweep.reached(m)} of {SWEEP_SEEDS}",
                "never (most seeds miss it)" if median is None else decimal(median, max_decimals=1).prose(),
                f"{sweep.first(m)} of {SWEEP_SEEDS}",
            ]
        )
    header = ["method", f"seeds reaching {run.config.threshold:g}", "median steps to reach it", "first to reach it"]
    table = _table(header, rows)
    return (
        table
        + "\n\n"
        + f"Each row repeats the run with seeds 0 to {SWEEP_SEEDS - 1} ({count_words(SWEEP_SEEDS)} runs per method); "
        + "a seed that never reaches the threshold counts as slowest.\n\n"
        + _note([f"grpo_examples.run_statistics.seed_sweep(load_config(), {SWEEP_SEEDS})"])
    )


def _signed(value: float) -> str:
    return decimal(value, max_decimals=2).prose(signed=True)


def first_step(examples: Sequence[gx.Example]) -> str:
    """The first update on the first question, step by step: the sampled group, its three sets of
    advantages, GRPO's group statistics, and the change each method makes to every logit."""
    _no_examples(examples, "training-first-step")
    run = current_run()
    task, config = run.task, run.config
    samples = run.traces["grpo"].samples[0, 0]  # every method draws this same first group (same start, same seed)
    rewards = task.rewards[0, samples]
    advantage = {m: run.traces[m].advantages[0, 0] for m in METHODS}
    rows = [
        [str(i + 1), str(int(c) + 1), f"{r:g}", *(_signed(float(advantage[m][i])) for m in METHODS)]
        for i, (c, r) in enumerate(zip(samples, rewards, strict=True))
    ]
    header = ["i", "candidate", "reward rᵢ", *(f"Aᵢ, {METHOD_LABELS[m]}" for m in METHODS)]
    working = gx.work_group(rewards.tolist())
    policy = softmax(initial_logits(config, task.shape))[:1]
    steps = {
        m: config.learning_rate * policy_gradient(policy, samples[None, :], advantage[m][None, :])[0] for m in METHODS
    }
    change_rows = [
        [str(c + 1), f"{task.rewards[0, c]:g}", decimal(float(policy[0, c]), max_decimals=2).prose()]
        + [_signed(float(steps[m][c])) for m in METHODS]
        for c in range(task.shape[1])
    ]
    change_header = ["candidate c", "reward", "π₀(c \\| q)", *(f"Δθ, {METHOD_LABELS[m]}" for m in METHODS)]
    parts = [
        f"**Step 1, {escape_markdown(task.questions[0])}** The policy samples a group of {config.group_size}:",
        _table(header, rows),
        f"GRPO's statistics for this group: $`{mean_tex(working)}`$ and $`{std_tex(working)}`$. "
        "The critic's prediction starts at 0, so on this first step its advantages equal the rewards.",
        f"Each method then adds η × gradient to the question's logits (η = {config.learning_rate:g}):",
        _table(change_header, change_rows),
        _note(
            [
                "grpo_examples.training_run(load_config()).traces[method].samples[0, 0] and .advantages[0, 0]",
                "grpo_examples.work_group(rewards)",
                "grpo_examples.training.policy_gradient(policy, samples, advantages)",
            ]
        ),
    ]
    return "\n\n".join(parts)


def _table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    return "\n".join(lines + ["| " + " | ".join(row) + " |" for row in rows])


TRAINING_BLOCKS: dict[str, Callable[[Sequence[gx.Example]], str]] = {
    "training-reward": reward_plot,
    "training-all-equal": all_equal_plot,
    "training-advantages": advantage_plot,
    "toy-question": toy_question,
    "training-sweep": sweep_table,
    "training-first-step": first_step,
}
