"""Text from data (a question, a sampled response) made safe to drop into Markdown and HTML."""

from __future__ import annotations

import html
import re

# Python-Markdown's escapable characters (with tables' '|'). Not '$' or '~': Markdown would show their
# backslash. A '$' cannot start a formula anyway, because markdown-katex needs "$`" and '`' is escaped.
_MARKDOWN_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+!|])")


def escape_markdown(text: str) -> str:
    """The text, shown literally: HTML escaped, Markdown's special characters backslashed."""
    return _MARKDOWN_SPECIAL.sub(r"\\\1", html.escape(text, quote=True))


def escape_attribute(text: str) -> str:
    """The text as a double-quoted HTML attribute value."""
    return html.escape(text, quote=True)
