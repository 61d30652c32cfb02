"""Whole computed blocks: `<!-- grpo:block <name> <example> ... -->` on a line of its own.

Each block returns Markdown (its formulas in markdown-katex syntax, so KaTeX renders them like any
other), followed by a collapsed note that names the grpo_examples calls behind it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import grpo_examples as gx
from hooks.formulas import advantage_tex, mean_tex, std_tex, variance_tex
from hooks.markdown_text import escape_markdown
from hooks.numbers import Decimal, count_words, decimal, times_words


class BlockError(Exception):
    """A block given the wrong number of examples, or examples it cannot show."""


def _rewards(example: gx.Example) -> str:
    return "[" + ", ".join(f"{r:g}" for r in example.rewards) + "]"


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


def _outcome(working: gx.GroupWorking, reward: int) -> gx.Outcome | None:
    found = [o for o in working.outcomes if o.reward == reward]
    return found[0] if found else None


def _weight_sentence(working: gx.GroupWorking) -> str:
    """What the two advantages' sizes say, in words that follow the numbers."""
    correct, wrong = _outcome(working, 1), _outcome(working, 0)
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
    for reward, outcome in ((1, "correct"), (0, "wrong")):
        found = _outcome(working, reward)
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
    calls = [f"grpo_examples.work_group({_rewards(example)})", f"grpo_examples.advantages({_rewards(example)})"]
    return "\n".join(steps) + "\n\n" + _provenance(calls, examples)


def _table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


def _number(value: Decimal, signed: bool = False) -> str:
    return value.prose(signed=signed)


def compare(examples: Sequence[gx.Example]) -> str:
    """Two or more groups side by side: the same formula, different training signals."""
    if len(examples) < 2:
        raise BlockError(f"block 'compare' needs at least two examples, got {len(examples)}")
    rows = []
    for example in examples:
        working = gx.work_group(example.rewards)
        correct = _outcome(working, 1)
        rows.append(
            [
                escape_markdown(example.title),
                ", ".join(f"{r:g}" for r in example.rewards),
                f"{correct.count if correct else 0} of {working.size}",
                _number(decimal(working.mean)),
                _number(decimal(working.std)),
                _signed(correct),
                _signed(_outcome(working, 0)),
            ]
        )
    header = ["group", "rewards r", "correct", "mean μ", "std σ", "A, correct", "A, wrong"]
    calls = [f"grpo_examples.work_group({_rewards(e)})" for e in examples]
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
                ", ".join(_number(decimal(o.deviation), signed=True) for o in working.outcomes),
                _number(decimal(working.std)),
                ", ".join(_number(decimal(o.advantage), signed=True) for o in working.outcomes),
                _number(decimal(gx.group_std(advantages))),
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
    calls = [f"grpo_examples.deviations({_rewards(e)})" for e in examples]
    calls += [f"grpo_examples.group_std(grpo_examples.advantages({_rewards(e)}))" for e in examples]
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
            _number(decimal(float(advantage)), signed=True),
        ]
        for i, (response, advantage) in enumerate(zip(example.responses, advantages, strict=True), start=1)
    ]
    intro = f"**{escape_markdown(example.question)}** (reference answer: {escape_markdown(example.reference)})"
    header = ["i", "response oᵢ", "final answer", "reward rᵢ", "advantage Aᵢ"]
    calls = [f"grpo_examples.advantages({_rewards(example)})"]
    return intro + "\n\n" + _table(header, rows) + "\n\n" + _provenance(calls, examples)


def conventions(examples: Sequence[gx.Example]) -> str:
    """One group's advantages under the book's population std and under TRL's and verl's sample std."""
    example = _one(examples, "conventions")
    rows = []
    for convention in gx.CONVENTIONS.values():
        values = convention.advantages(example.rewards)
        by_outcome = {r: float(values[example.rewards.index(r)]) for r in (1.0, 0.0) if r in example.rewards}
        std = gx.group_std(example.rewards, ddof=convention.ddof)
        rows.append(
            [
                escape_markdown(convention.label),
                f"{'G' if convention.ddof == 0 else 'G − 1'}",
                _number(decimal(std)),
                _number(decimal(by_outcome[1.0]), signed=True) if 1.0 in by_outcome else "—",
                _number(decimal(by_outcome[0.0]), signed=True) if 0.0 in by_outcome else "—",
            ]
        )
    header = ["convention", "std divides by", "std σ", "A, correct", "A, wrong"]
    calls = [f"grpo_examples.{c.key.upper()}.advantages({_rewards(example)})" for c in gx.CONVENTIONS.values()]
    return _table(header, rows) + "\n\n" + _provenance(calls, examples)


BLOCKS: dict[str, Callable[[Sequence[gx.Example]], str]] = {
    "worked-example": worked_example,
    "compare": compare,
    "deviations": deviations,
    "group-table": group_table,
    "conventions": conventions,
}
