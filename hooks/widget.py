"""Widgets: computed figures the reader can poke, each placed by one line.

    <!-- grpo:widget easy hard -->     the interactive group, over the named examples
    <!-- grpo:widget <namespace>.<name> -->  a chapter's own widget (hooks/namespaces.py: Namespace.widgets)

Every widget is the same <figure class="grpo-widget">, written by `figure()`. It holds three things.
First what a reader without JavaScript sees and what prints: Markdown computed now (for the group,
the `group-table` block of each example). Then, in a <script type="application/json">, everything the
widget's script needs to redraw it interactively, numpy's own results among them, which the script
checks its port of the formula against on load; nothing the script uses is typed in it. Last, the
caption. `data-widget-script` names the script, which docs/assets/javascripts/widgets.js loads on the
pages that hold such a figure, and only there.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
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


def widget_data(examples: list[gx.Example]) -> dict[str, object]:
    """What the group widget's script reads: the groups, the conventions and the constants of grpo_examples."""
    return {
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


def script_json(data: object) -> str:
    """JSON that cannot end its <script> early: '<', '>' and '&' written as \\u escapes."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"), allow_nan=False)  # NaN is not JSON
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


@dataclass(frozen=True)
class Widget:
    """One interactive figure: its kind, what shows without JavaScript, what its script reads, its caption.

    kind names the script, docs/assets/javascripts/<kind>-widget.js, and is the figure's data-widget-kind,
    which the script looks for.
    """

    kind: str
    static: str  # Markdown: tables or figures computed at build time
    data: dict[str, object]
    caption: str  # Markdown, one paragraph

    @property
    def script(self) -> str:
        return f"{self.kind}-widget.js"


def figure(widget: Widget) -> str:
    """The widget as a page holds it: the static part (Markdown, inside md_in_html), the JSON, the caption.

    The JSON is an array of one object, not the object itself: Material's instant navigation (off in this
    book, see mkdocs.yml, but one line away) re-creates every <script> of the new page without its type and
    runs it, and an array is both JSON and a JS expression that does nothing, where an object would be a
    syntax error.
    """
    return "\n".join(
        [
            f'<figure class="grpo-widget" data-widget-kind="{widget.kind}" data-widget-script="{widget.script}" '
            'markdown="1">',
            '<div class="grpo-widget__static" markdown="1">',
            "",
            widget.static,
            "",
            "</div>",
            f'<script type="application/json" class="grpo-widget__data">{script_json([widget.data])}</script>',
            f'<figcaption markdown="span">{widget.caption}</figcaption>',
            "</figure>",
        ]
    )


def group_widget(examples: list[gx.Example]) -> Widget:
    """The interactive group over these examples."""
    tables = "\n\n".join(group_table([example]) for example in examples)
    return Widget("group", tables, widget_data(examples), CAPTION)


def widget(placeholder: Placeholder, line: str) -> str:
    """`grpo:widget easy hard` (the group widget) or `grpo:widget <namespace>.<name>` (a chapter's widget)."""
    # Imported here, not at the top: hooks.placeholders imports this module to register it in KINDS.
    from hooks import placeholders

    placeholders._alone(placeholder, line)
    if not placeholder.args:
        raise placeholders.PlaceholderError(
            "grpo:widget needs one or more example names, e.g. grpo:widget easy hard, or a chapter's widget, "
            "e.g. grpo:widget <namespace>.<name>"
        )
    if placeholder.options:
        raise placeholders.PlaceholderError(f"grpo:widget has no options, got {sorted(placeholder.options)[0]!r}")
    try:
        if "." in placeholder.args[0]:
            return figure(placeholders.namespace_widget(placeholder))
        return figure(group_widget([placeholders._example(name) for name in placeholder.args]))
    except ValueError as error:  # grpo_examples refuses a group, or a value is not a finite number
        raise placeholders.PlaceholderError(f"grpo:widget: {error}") from None
