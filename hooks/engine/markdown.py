"""The Markdown the hooks write, and the one boundary data text crosses to reach it.

A `Markdown` is Markdown the hooks wrote (a layout's template, a table, a formatted number) and reaches the page
as it is. Any other str is text from data (a question, a sampled response, a token): wherever it meets
Markdown, in md(), join(), a table's cell, or as what a block, a widget or a value placeholder hands the engine,
it goes through `as_markdown`, which shows it as written. So a layout never escapes anything, and one that
forgets to mark its own Markdown shows it escaped (visible, tested), never data acting as markup.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable, Sequence

# Python-Markdown's escapable characters (with tables' '|'). Not '$' or '~': Markdown would show their
# backslash. A '$' cannot start a formula anyway, because markdown-katex needs "$`" and '`' is escaped.
_MARKDOWN_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+!|])")


class Markdown(str):
    """Markdown the hooks wrote: trusted, never escaped. str's own methods (+, replace, f-strings) return a
    plain str, which the boundary escapes: compose Markdown with md() and join()."""

    __slots__ = ()


def _escape_markdown(text: str) -> str:
    """The text, shown literally: '&', '<', '>' as entities, Markdown's special characters backslashed. Quotes
    stay: Markdown text is element content, and the hooks put no Markdown text in an attribute."""
    return _MARKDOWN_SPECIAL.sub(r"\\\1", html.escape(text, quote=False))


def as_markdown(text: str) -> Markdown:
    """The boundary for Markdown text: a Markdown as it is, any other str (data) shown as written."""
    return text if isinstance(text, Markdown) else Markdown(_escape_markdown(text))


def md(template: str, *fields: str | int) -> Markdown:
    """The hooks' own Markdown `template` with its '{}' fields filled in, each text field through the boundary:
    md("**{}** (reference answer: {})", group.question, group.answer)."""
    return Markdown(template.format(*(f if isinstance(f, int) else as_markdown(f) for f in fields)))


def join(separator: str, parts: Iterable[str]) -> Markdown:
    """The parts, each through the boundary, with the hooks' own separator between them."""
    return Markdown(separator.join(map(as_markdown, parts)))


def escape_html(text: str) -> str:
    """The text as HTML element content or a double-quoted attribute value."""
    return html.escape(text, quote=True)


def code(text: str) -> Markdown:
    """Inline code that shows any text as written: fenced by more backticks than it holds, '|' escaped for
    tables (the one character Markdown reads inside code in a table cell)."""
    fence = _fence(text, 1)
    return Markdown(f"{fence} {text.replace('|', chr(92) + '|')} {fence}")


def code_block(text: str, language: str) -> Markdown:
    """A fenced code block that shows the text as written: fenced by more backticks than any run in it."""
    fence = _fence(text, 3)
    return Markdown(f"{fence}{language}\n{text}\n{fence}")


def _fence(text: str, least: int) -> str:
    """Backticks, at least `least` of them and more than the longest run of them in the text."""
    return "`" * max(least, max((len(run) for run in re.findall("`+", text)), default=0) + 1)


def table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> Markdown:
    """A Markdown table; each cell through the boundary (data text shown as written, Markdown as it is)."""
    lines = [_row(header), "|" + "---|" * len(header)]
    return Markdown("\n".join(lines + [_row(row) for row in rows]))


def _row(cells: Sequence[str]) -> str:
    return "| " + " | ".join(map(as_markdown, cells)) + " |"


def math_block(tex: str, indent: int = 0) -> list[Markdown]:
    """A displayed formula as a ```math fence, indented to sit inside a list item; blank lines around it."""
    pad = " " * indent
    return [Markdown(line) for line in ("", f"{pad}```math", f"{pad}{tex}", f"{pad}```", "")]


def note(
    expressions: Sequence[str], sources: Sequence[str], title: str = "How these numbers were computed"
) -> Markdown:
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
    return Markdown("\n".join(lines))
