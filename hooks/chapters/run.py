"""How the training-run chapter is drawn: its plots (inline SVG) and tables, from grpo_examples.chapter('run').

The methods' names and line styles are this module's; every number is a field of the model.
"""

from __future__ import annotations

import grpo_examples as gx
from hooks.chapters.groups import mean_tex, std_tex
from hooks.engine.contract import Blocks, Markdown, count_words, decimal, join, md, prose, short, svg, table

METHOD_LABELS = {"grpo": "GRPO", "critic": "learned critic", "reinforce": "REINFORCE, no baseline"}
METHOD_STYLES = {"grpo": 1, "critic": 2, "reinforce": 3}


def _reward(value: float) -> Markdown:
    return decimal(value, 2).prose()


def _signed(value: float) -> Markdown:
    return decimal(value, 2).prose(signed=True)


def _steps_phrase(method: gx.Method) -> str:
    step = method.steps_to_threshold
    return "never reaches it" if isinstance(step, gx.Undefined) else f"reaches it after {step} steps"


def reward_plot(run: gx.Run) -> Markdown:
    """Mean reward per step for each method, with the threshold the chapter reports as a dotted line."""
    top = run.max_reward
    series = [
        svg.Series(METHOD_LABELS[m], list(range(run.steps + 1)), list(method.mean_reward), METHOD_STYLES[m])
        for m, method in run.methods.items()
    ]
    threshold = short(run.threshold)
    summary = "; ".join(
        f"{METHOD_LABELS[m]} starts at {_reward(method.start_reward)}, {_steps_phrase(method)} "
        f"and ends at {_reward(method.final_reward)}"
        for m, method in run.methods.items()
    )
    chart = svg.line_chart(
        "training-reward",
        "Mean reward per training step, for each method",
        f"Line chart. The threshold is {threshold}. {summary}.",
        svg.Axis("training step (policy updates)", 0, run.steps, svg.ticks(0, run.steps)),
        svg.Axis("mean reward (0 to 2)", 0, top, svg.ticks(0, top, 4)),
        series,
        reference=(run.threshold, f"threshold {threshold}"),
    )
    caption = (
        f"Mean reward of the policy after each update: the reward it earns on average over its own responses, "
        f"averaged over the {run.questions} questions (at most {short(top)}: a right answer with its reasoning). "
        f"All three methods start from the same policy and sample with the same seed ({run.seed})."
    )
    return svg.figure(chart, caption)


def all_equal_plot(run: gx.Run) -> Markdown:
    """The share of each step's groups whose G rewards were all equal: for GRPO, prompts that teach nothing."""
    series = [
        svg.Series(METHOD_LABELS[m], list(range(1, run.steps + 1)), list(method.all_equal_share), METHOD_STYLES[m])
        for m, method in run.methods.items()
    ]
    summary = "; ".join(
        f"{METHOD_LABELS[m]}: {method.all_equal_first_percent} % at the first step, "
        f"{method.all_equal_last_percent} % at the last"
        for m, method in run.methods.items()
    )
    chart = svg.line_chart(
        "training-all-equal",
        "Share of groups whose rewards are all equal, per training step",
        f"Line chart. {summary}.",
        svg.Axis("training step (policy updates)", 0, run.steps, svg.ticks(0, run.steps)),
        svg.Axis("all-equal groups (% of groups)", 0, 100, svg.ticks(0, 100, 4)),
        series,
    )
    caption = (
        f"At each step every method samples one group of {run.G} responses for each of the "
        f"{run.questions} questions. A group whose rewards are all equal gets GRPO advantage 0 for every response, "
        "so for GRPO these questions contribute no gradient at that step."
    )
    return svg.figure(chart, caption)


def advantage_plot(run: gx.Run) -> Markdown:
    """The distribution of every advantage each method computed during the run, one histogram per method."""
    edges, reach = list(run.histogram_edges), run.histogram_range
    panels = [
        svg.Panel(
            f"{METHOD_LABELS[m]} ({method.zero_share} % exactly 0)", edges, list(method.histogram), METHOD_STYLES[m]
        )
        for m, method in run.methods.items()
    ]
    zeros = "; ".join(f"{METHOD_LABELS[m]}: {method.zero_share} %" for m, method in run.methods.items())
    chart = svg.histogram_stack(
        "training-advantages",
        "Distribution of the non-zero advantages each method computed",
        f"Three histograms over advantages from {short(-reach)} to {short(reach, signed=True)}, zeros left out. "
        f"Share of advantages exactly 0: {zeros}.",
        svg.Axis("advantage A (unitless)", -reach, reach, svg.ticks(-reach, reach, 6), signed=True),
        "share of non-zero advantages (%)",
        panels,
    )
    caption = (
        f"The advantages of the whole run ({run.advantages_per_method} per method: steps × questions × G), in bins "
        f"{short(run.histogram_bin)} wide. Advantages exactly 0 move nothing and are left out; the share of them is in "
        "each panel's title (for GRPO, every response of an all-equal group). Each panel is scaled to its own "
        "tallest bar."
    )
    return svg.figure(chart, caption)


def toy_question(run: gx.Run) -> Markdown:
    """One question of the toy task: its candidate responses, their rewards and the starting policy."""
    toy = run.toy_question
    rows = [
        [
            str(c.number),
            c.text,
            short(c.accuracy),
            short(c.format),
            short(c.reward),
            _reward(c.probability),
        ]
        for c in toy.candidates
    ]
    header = ["c", "candidate response", "accuracy", "format", "reward r", "π₀(c | q)"]
    intro = md("**{}** (reference answer: {})", toy.question, toy.answer)
    after = md(
        "At the start this question's expected reward is {}; the right answer with its reasoning has probability {}.",
        _reward(toy.start_expected_reward),
        _reward(toy.right_with_reasoning),
    )
    return join("\n\n", [intro, table(header, rows), after])


def sweep_table(run: gx.Run) -> Markdown:
    """The same run over several seeds: how often and how fast each method reached the threshold."""
    rows: list[list[str]] = []
    for m, method in run.methods.items():
        median = method.sweep.median
        rows.append(
            [
                METHOD_LABELS[m],
                f"{method.sweep.reached} of {run.sweep_seeds}",
                Markdown("never (most seeds miss it)")
                if isinstance(median, gx.Undefined)
                else decimal(median, 1).prose(),
                f"{method.sweep.first} of {run.sweep_seeds}",
            ]
        )
    header = ["method", f"seeds reaching {short(run.threshold)}", "median steps to reach it", "first to reach it"]
    after = md(
        "Each row repeats the run with seeds 0 to {} ({} runs per method); a seed that never reaches the threshold "
        "counts as slowest.",
        run.sweep_last_seed,
        count_words(run.sweep_seeds),
    )
    return join("\n\n", [table(header, rows), after])


def first_step(run: gx.Run) -> Markdown:
    """The first update on the first question, step by step: the sampled group, its three sets of
    advantages, GRPO's group statistics, and the change each method makes to every logit."""
    step = run.first_step
    methods = list(run.methods)
    rows = [
        [str(s.i), str(s.candidate), short(s.reward), *(_signed(s.advantage[m]) for m in methods)] for s in step.samples
    ]
    header = ["i", "candidate", "reward rᵢ", *(f"Aᵢ, {METHOD_LABELS[m]}" for m in methods)]
    change_rows = [
        [str(c.candidate), short(c.reward), _reward(c.probability), *(_signed(c.delta[m]) for m in methods)]
        for c in step.changes
    ]
    change_header = ["candidate c", "reward", "π₀(c | q)", *(f"Δθ, {METHOD_LABELS[m]}" for m in methods)]
    parts = [
        md("**Step 1, {}** The policy samples a group of {}:", step.question, step.G),
        table(header, rows),
        # TeX of numbers only (the layouts' formulas), never data text
        Markdown(
            f"GRPO's statistics for this group: $`{mean_tex(step.working)}`$ and $`{std_tex(step.working)}`$. "
            "The critic's prediction starts at 0, so on this first step its advantages equal the rewards."
        ),
        md("Each method then adds η × gradient to the question's logits (η = {}):", prose(step.learning_rate)),
        table(change_header, change_rows),
    ]
    return join("\n\n", parts)


BLOCKS: Blocks = {
    "training-reward": reward_plot,
    "training-all-equal": all_equal_plot,
    "training-advantages": advantage_plot,
    "toy-question": toy_question,
    "training-sweep": sweep_table,
    "training-first-step": first_step,
}
