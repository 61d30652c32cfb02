"""The verifiable-rewards chapter's block and counts: every step of the checker, for one group of texts.

`<!-- grpo:block verifier-steps easy -->` shows each response with its extracted answer, its
canonical form and both rewards; `<!-- grpo:value easy.count.format -->` and friends count them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import grpo_examples as gx
from hooks.blocks import BlockError
from hooks.markdown_text import escape_markdown
from hooks.quantities import Quantity


def _verdicts(example: gx.Example) -> list[gx.Verdict]:
    return [gx.verify(response.text, example.reference) for response in example.responses]


def _code(text: str | None) -> str:
    """An answer as the checker sees it, in code so that TeX stays literal; '(none)' when there is none."""
    if text is None:
        return "(none)"
    return "`` " + text.replace("|", "\\|") + " ``" if "`" not in text else escape_markdown(text)


def verifier_steps(examples: Sequence[gx.Example]) -> str:
    """One row per response: the text, what extraction found, its normalised form, accuracy and format rewards."""
    if len(examples) != 1:
        raise BlockError(f"block 'verifier-steps' shows one example, got {len(examples)}")
    example = examples[0]
    verdicts = _verdicts(example)
    rows = [
        [
            str(i),
            escape_markdown(response.text),
            _code(verdict.answer),
            _code(verdict.normalised),
            f"{verdict.accuracy:g}",
            f"{verdict.format:g}",
        ]
        for i, (response, verdict) in enumerate(zip(example.responses, verdicts, strict=True), start=1)
    ]
    header = ["i", "response oᵢ", "extracted", "normalised", "accuracy rᵢ", "format"]
    table = "\n".join(
        ["| " + " | ".join(header) + " |", "|" + "---|" * len(header), *("| " + " | ".join(r) + " |" for r in rows)]
    )
    intro = (
        f"**{escape_markdown(example.question)}** Reference answer {_code(example.reference)}, "
        f"normalised to {_code(verdicts[0].reference)}."
    )
    note = "\n".join(
        [
            '??? abstract "How these numbers were computed"',
            "    Computed when the book was built, by `grpo_examples.verify(response, reference)` on each response of "
            f"`[{example.name}]` in `grpo_examples/examples.toml`: `extract_answer`, then `normalise_answer`, then "
            "the comparison (accuracy), and `format_reward` beside it.",
        ]
    )
    return intro + "\n\n" + table + "\n\n" + note


def _count(predicate: Callable[[gx.Verdict], bool], what: str) -> Callable[[gx.Example], Quantity]:
    def count(example: gx.Example) -> Quantity:
        found = sum(predicate(v) for v in _verdicts(example))
        return Quantity(found, f"responses of [{example.name}] whose verify(...) {what}")

    return count


VERDICT_QUANTITIES: dict[str, Callable[[gx.Example], Quantity]] = {
    "count.format": _count(lambda v: v.format == 1, "has format reward 1"),
    "count.no-format": _count(lambda v: v.format == 0, "has format reward 0"),
    "count.no-answer": _count(lambda v: v.answer is None, "extracts no answer"),
    "count.both": _count(lambda v: v.accuracy == 1 and v.format == 1, "has accuracy and format reward 1"),
}


# Spellings that show what each normalisation rule does; the table computes their canonical forms.
SPELLINGS = (
    "56",
    "$56$.",
    "**56**",
    "1,000",
    "1\\,000",
    "1,2",
    "0.5",
    "6/12",
    "\\frac{1}{2}",
    "x = 5",
    "\\text{No}",
    "10^3",
)


def normalise_table(examples: Sequence[gx.Example]) -> str:
    """Each spelling in SPELLINGS and normalise_answer's canonical form of it."""
    if examples:
        raise BlockError(f"block 'normalise-table' takes no example, got {len(examples)}")
    rows = [f"| {_code(spelling)} | {_code(gx.normalise_answer(spelling))} |" for spelling in SPELLINGS]
    table = "\n".join(["| answer as written | normalised |", "|---|---|", *rows])
    note = "\n".join(
        [
            '??? abstract "How these were computed"',
            "    Computed when the book was built by `grpo_examples.normalise_answer(answer)` on each spelling of "
            "`SPELLINGS` in `hooks/verdicts.py`.",
        ]
    )
    return table + "\n\n" + note


VERDICT_BLOCKS: dict[str, Callable[[Sequence[gx.Example]], str]] = {
    "verifier-steps": verifier_steps,
    "normalise-table": normalise_table,
}
