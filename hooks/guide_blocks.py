"""The author's guide's own computed block: what the drift guard says about a typed number, said by the guard.

`<!-- grpo:block drift-guard-example -->` shows a line with a typed number and the message the guard
stops the build with. The message names every placeholder that prints the number, so it changes
whenever a chapter adds one; computing it here keeps the guide from going stale.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import grpo_examples as gx
from hooks.blocks import BlockError

EXAMPLE_PAGE, EXAMPLE_LINE = "docs/example.md", 12
EXAMPLE = "The baseline is 0.8 for the group above."


def guard_message(text: str, page: str = EXAMPLE_PAGE, line: int = EXAMPLE_LINE) -> str:
    """The guard's message for text as line `line` of `page`; BlockError if the guard lets it pass."""
    # Imported here: the guard's index of computed values reads hooks/registry.py, which lists this block.
    from hooks import drift_guard

    try:
        drift_guard.guard(text, page, first_line=line)
    except drift_guard.DriftError as error:
        return str(error)
    raise BlockError(f"the drift guard accepts {text!r}: choose an example with a typed number")


def drift_guard_example(examples: Sequence[gx.Example]) -> str:
    """The example line, in a Markdown fence, and the guard's message about it, in a text fence."""
    if examples:
        raise BlockError(f"block 'drift-guard-example' takes no example, got {len(examples)}")
    return "\n".join(
        [
            f"Line {EXAMPLE_LINE} of a page that reads",
            "",
            "```markdown",
            EXAMPLE,
            "```",
            "",
            "stops the build with",
            "",
            "```text",
            guard_message(EXAMPLE),
            "```",
        ]
    )


GUIDE_BLOCKS: dict[str, Callable[[Sequence[gx.Example]], str]] = {"drift-guard-example": drift_guard_example}
