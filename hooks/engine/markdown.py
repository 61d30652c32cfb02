"""The Markdown the hooks write: text from data made safe, the one table builder, the one provenance note.

Text that comes from data (a question, a sampled response, a token) goes through escape_markdown before it
reaches a page, so that it shows as written and never acts as Markdown or HTML.
"""

from __future__ import annotations

import html
import re
from collections.abc import Sequence

# Python-Markdown's escapable characters (with tables' '|'). Not '$' or '~': Markdown would show their
# backslash. A '$' cannot start a formula anyway, because markdown-katex needs "$`" and '`' is escaped.
_MARKDOWN_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+!|])")


def escape_markdown(text: str) -> str:
    """The text, shown literally: HTML escaped, Markdown's special characters backslashed."""
    return _MARKDOWN_SPECIAL.sub(r"\\\1", html.escape(text, quote=True))


def escape_attribute(text: str) -> str:
    """The text as a double-quoted HTML attribute value."""
    return html.escape(text, quote=True)


def code(text: str) -> str:
    """Inline code that shows any text as written: fenced by more backticks than it holds, '|' escaped for
    tables (the one character Markdown reads inside code in a table cell)."""
    fence = "`" * (max((len(run) for run in re.findall("`+", text)), default=0) + 1)
    return f"{fence} {text.replace('|', chr(92) + '|')} {fence}"


def table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """A Markdown table; every cell is Markdown already (data text escaped by escape_markdown)."""
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    return "\n".join(lines + ["| " + " | ".join(row) + " |" for row in rows])


def math_block(tex: str, indent: int = 0) -> list[str]:
    """A displayed formula as a ```math fence, indented to sit inside a list item; blank lines around it."""
    pad = " " * indent
    return ["", f"{pad}```math", f"{pad}{tex}", f"{pad}```", ""]


def note(expressions: Sequence[str], sources: Sequence[str], title: str = "How these numbers were computed") -> str:
    """The collapsed note under a computed block: the calls that made it, which a reader can run, and the data.

    Both lists are derived by the engine from the block's placeholder (the paths it names), never typed.
    """
    lines = [
        f'??? abstract "{title}"',
        "    Computed when the book was built; in a Python session in the book's folder, `import grpo_examples`, then:",
        "",
        *[f"    - {code(expression)}" for expression in expressions],
    ]
    if sources:
        lines += ["", "    The data: " + ", ".join(code(source) for source in sources) + "."]
    return "\n".join(lines)
