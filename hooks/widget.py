"""The interactive group: `<!-- grpo:widget easy hard -->` on a line of its own.

It writes a <figure> that holds two things. First the groups as tables computed now (the
`group-table` block): what a reader without JavaScript sees, and what prints. Then, in a
<script type="application/json">, everything docs/assets/javascripts/group-widget.js needs to redraw
those groups interactively: the responses, the conventions (ddof, eps), the all-equal tolerance
and numpy's own advantages, which the script checks its port of the formula against on load.
Nothing the script uses is typed in it.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

import grpo_examples as gx
from hooks.blocks import group_table
from hooks.numbers import MAX_DECIMALS

if TYPE_CHECKING:
    from hooks.placeholders import Placeholder

# The reader may shrink a group to two responses (the least a sample std is defined for) and grow
# it to sixteen (DeepSeek-R1-Zero's group size; the bars stay legible at 360 px).
MIN_GROUP = 2
MAX_GROUP = 16

CAPTION = (
    "**One prompt, one group.** Each row is one sampled response with its verifiable reward "
    "(1 correct, 0 wrong) and the advantage GRPO computes from the rewards of its own group, "
    "and from nothing else. Printed or without JavaScript, the figure shows the tables grpo_examples "
    "computed when the book was built; interactive, your browser recomputes every number from the "
    "rewards shown."
)


def _group(example: gx.Example) -> dict[str, object]:
    return {
        "name": example.name,
        "title": example.title,
        "question": example.question,
        "reference": example.reference,
        "responses": [{"text": r.text, "answer": r.answer, "reward": r.reward} for r in example.responses],
        "numpy_advantages": {
            key: convention.advantages(example.rewards).tolist() for key, convention in gx.CONVENTIONS.items()
        },
    }


def widget_data(examples: list[gx.Example]) -> list[dict[str, object]]:
    """What the script reads: the groups, the conventions and the constants of grpo_examples.

    An array of one object, not the object itself: Material's instant navigation re-creates every
    <script> of the new page without its type and runs it, and an array is both JSON and a JS
    expression that does nothing, where an object would be a syntax error.
    """
    return [
        {
            "groups": [_group(example) for example in examples],
            "conventions": [
                {"key": c.key, "label": c.label, "ddof": c.ddof, "eps": c.eps, "source": c.source}
                for c in gx.CONVENTIONS.values()
            ],
            "equal_rewards_rtol": gx.EQUAL_REWARDS_RTOL,
            "max_decimals": MAX_DECIMALS,
            "min_group": MIN_GROUP,
            "max_group": MAX_GROUP,
        }
    ]


def script_json(data: object) -> str:
    """JSON that cannot end its <script> early: '<', '>' and '&' written as \\u escapes."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"), allow_nan=False)  # NaN is not JSON
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def widget(placeholder: Placeholder, line: str) -> str:
    """The figure: the static tables (Markdown, inside md_in_html), the JSON, the caption."""
    # Imported here, not at the top: hooks.placeholders imports this module to register it in KINDS.
    from hooks import placeholders

    placeholders._alone(placeholder, line)
    if not placeholder.args:
        raise placeholders.PlaceholderError("grpo:widget needs one or more example names, e.g. grpo:widget easy hard")
    if placeholder.options:
        raise placeholders.PlaceholderError(f"grpo:widget has no options, got {sorted(placeholder.options)[0]!r}")
    examples = [placeholders._example(name) for name in placeholder.args]
    try:
        tables = "\n\n".join(group_table([example]) for example in examples)
        data = script_json(widget_data(examples))
    except ValueError as error:  # grpo_examples refuses a group, or a value is not a finite number
        raise placeholders.PlaceholderError(f"grpo:widget: {error}") from None
    return "\n".join(
        [
            '<figure class="grpo-widget" markdown="1">',
            '<div class="grpo-widget__static" markdown="1">',
            "",
            tables,
            "",
            "</div>",
            f'<script type="application/json" class="grpo-widget__data">{data}</script>',
            f'<figcaption markdown="span">{CAPTION}</figcaption>',
            "</figure>",
        ]
    )
