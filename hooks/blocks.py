"""Whole computed blocks: `<!-- grpo:block <name> <example> ... -->` on a line of its own.

Each block returns Markdown (its formulas in markdown-katex syntax, so KaTeX renders them like any
other), followed by a collapsed note that names the grpo_examples calls behind it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import grpo_examples as gx
from hooks.formulas import advantage_tex, mean_tex, std_tex, variance_tex
from hooks.markdown_text import escape_markdown
from hooks.numbers import count_words, decimal, rewards_list, times_words


class BlockError(Exception):
    """A block given the wrong number of examples, or examples it cannot show."""


def _provenance(calls: Sequence[str], examples: Sequence[gx.Example]) -> str:
    lines = [
        '??? abstract "How these numbers were computed"',
        "    Computed when the book was built, by:",
        "",
        *[f"    - `{call}`" for call in calls],
        "",
        "    The rewards come from the responses in `grpo_examples/examples.toml` "
        f"({', '.join(f'`[{e.name}]`' for e in examples)}), scored by `grpo_examples.accuracy_reward`.",
    ]
    return "\n".join(lines)


def _one(examples: Sequence[gx.Example], block: str) -> gx.Example:
    if len(examples) != 1:
        raise BlockError(f"block {block!r} shows one example, got {len(examples)}")
    return examples[0]


def _signed(value: gx.Outcome | None) -> str:
    return "—" if value is None else decimal(value.advantage).prose(signed=True)


def _weight_sentence(working: gx.GroupWorking) -> str:
    """What the two advantages' sizes say, in words that follow the numbers."""
    correct, wrong = working.outcome(gx.OUTCOMES["correct"]), working.outcome(gx.OUTCOMES["wrong"])
    if working.all_equal or correct is None or wrong is None:
        return "Every response earned the same reward, so every advantage is 0: this prompt teaches nothing."
    ratio = working.rare_to_common()
    if correct.count == wrong.count:
        return "The group is split evenly, so a right and a wrong answer are pushed equally hard."
    rare, rare_count = ("wrong", wrong.count) if wrong.count < correct.count else ("right", correct.count)
    other = "a correct response's" if rare == "wrong" else "a wrong response's"
    return (
        f"Its magnitude is {times_words(ratio)} {other}, only because being {rare} was rare in this group "
        f"({count_words(rare_count)} of {count_words(working.size)})."
    )


def _display(tex: str, indent: int) -> list[str]:
    """A displayed formula inside a list item: a ```math fence, indented to the item's content."""
    pad = " " * indent
    return ["", f"{pad}```math", f"{pad}{tex}", f"{pad}```", ""]


def worked_example(examples: Sequence[gx.Example]) -> str:
    """The step-by-step statistics and both advantages of one group."""
    example = _one(examples, "worked-example")
    working = gx.work_group(example.rewards)
    if working.is_binary:
        variance_intro = (
            "Every reward is 0 or 1, so this is a Bernoulli group: with $`p = \\mu`$ the fraction of correct "
            "responses, the variance is $`p(1-p)`$:"
        )
    else:
        variance_intro = "The rewards are not all 0 or 1, so the variance is the mean squared deviation:"
    steps = [
        "1. **Group statistics.**",
        "",
        "    - The mean:",
        *_display(mean_tex(working), indent=8),
        f"    - {variance_intro}",
        *_display(variance_tex(working), indent=8),
        "    - The standard deviation:",
        *_display(std_tex(working), indent=8),
    ]
    number = 2
    for outcome, reward in gx.OUTCOMES.items():
        found = working.outcome(reward)
        if found is None:
            continue
        who = (
            f"the one {outcome} response"
            if found.count == 1
            else f"each of the {count_words(found.count)} {outcome} responses"
        )
        steps += ["", f"{number}. **The advantage of {who}.**", *_display(advantage_tex(working, outcome), indent=4)]
        number += 1
    steps += ["", f"    {_weight_sentence(working)}"]
    calls = [
        f"grpo_examples.work_group({rewards_list(example.rewards)})",
        f"grpo_examples.advantages({rewards_list(example.rewards)})",
    ]
    return "\n".join(steps) + "\n\n" + _provenance(calls, examples)


def _table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


def compare(examples: Sequence[gx.Example]) -> str:
    """Two or more groups side by side: the same formula, different training signals."""
    if len(examples) < 2:
        raise BlockError(f"block 'compare' needs at least two examples, got {len(examples)}")
    rows = []
    for example in examples:
        working = gx.work_group(example.rewards)
        correct = working.outcome(gx.OUTCOMES["correct"])
        rows.append(
            [
                escape_markdown(example.title),
                ", ".join(f"{r:g}" for r in example.rewards),
                f"{correct.count if correct else 0} of {working.size}",
                decimal(working.mean).prose(),
                decimal(working.std).prose(),
                _signed(correct),
                _signed(working.outcome(gx.OUTCOMES["wrong"])),
            ]
        )
    header = ["group", "rewards r", "correct", "mean μ", "std σ", "A, correct", "A, wrong"]
    calls = [f"grpo_examples.work_group({rewards_list(e.rewards)})" for e in examples]
    return _table(header, rows) + "\n\n" + _provenance(calls, examples)


def deviations(examples: Sequence[gx.Example]) -> str:
    """r − μ before and after dividing by σ: the division puts every group on the same scale."""
    rows = []
    for example in examples:
        working = gx.work_group(example.rewards)
        if working.all_equal:
            raise BlockError(f"block 'deviations' needs groups whose rewards differ; {example.name} is all equal")
        advantages = gx.advantages(example.rewards)
        rows.append(
            [
                escape_markdown(example.title),
                ", ".join(f"{r:g}" for r in example.rewards),
                ", ".join(decimal(o.deviation).prose(signed=True) for o in working.outcomes),
                decimal(working.std).prose(),
                ", ".join(decimal(o.advantage).prose(signed=True) for o in working.outcomes),
                decimal(gx.group_std(advantages)).prose(),
            ]
        )
    header = [
        "group",
        "rewards r",
        "deviations r − μ",
        "their spread σ",
        "advantages (r − μ)/σ",
        "spread of the advantages",
    ]
    calls = [f"grpo_examples.deviations({rewards_list(e.rewards)})" for e in examples]
    calls += [f"grpo_examples.group_std(grpo_examples.advantages({rewards_list(e.rewards)}))" for e in examples]
    return _table(header, rows) + "\n\n" + _provenance(calls, examples)


def group_table(examples: Sequence[gx.Example]) -> str:
    """Every response of one group: its text, its extracted answer, its reward and its advantage."""
    example = _one(examples, "group-table")
    advantages = gx.advantages(example.rewards)
    rows = [
        [
            str(i),
            escape_markdown(response.text),
            escape_markdown(response.answer or "none"),
            f"{response.reward:g}",
            decimal(float(advantage)).prose(signed=True),
        ]
        for i, (response, advantage) in enumerate(zip(example.responses, advantages, strict=True), start=1)
    ]
    intro = f"**{escape_markdown(example.question)}** (reference answer: {escape_markdown(example.reference)})"
    header = ["i", "response oᵢ", "final answer", "reward rᵢ", "advantage Aᵢ"]
    calls = [f"grpo_examples.advantages({rewards_list(example.rewards)})"]
    return intro + "\n\n" + _table(header, rows) + "\n\n" + _provenance(calls, examples)


def conventions(examples: Sequence[gx.Example]) -> str:
    """One group's advantages under the book's population std and under TRL's and verl's sample std."""
    example = _one(examples, "conventions")
    rows = []
    for convention in gx.CONVENTIONS.values():
        values = convention.advantages(example.rewards)
        shown = {name: values[example.rewards.index(r)] for name, r in gx.OUTCOMES.items() if r in example.rewards}
        std = gx.group_std(example.rewards, ddof=convention.ddof)
        rows.append(
            [
                escape_markdown(convention.label),
                f"{'G' if convention.ddof == 0 else 'G − 1'}",
                decimal(std).prose(),
                *(decimal(float(shown[name])).prose(signed=True) if name in shown else "—" for name in gx.OUTCOMES),
            ]
        )
    header = ["convention", "std divides by", "std σ", "A, correct", "A, wrong"]
    calls = [
        f"grpo_examples.{c.key.upper()}.advantages({rewards_list(example.rewards)})" for c in gx.CONVENTIONS.values()
    ]
    return _table(header, rows) + "\n\n" + _provenance(calls, examples)


BLOCKS: dict[str, Callable[[Sequence[gx.Example]], str]] = {
    "worked-example": worked_example,
    "compare": compare,
    "deviations": deviations,
    "group-table": group_table,
    "conventions": conventions,
}
