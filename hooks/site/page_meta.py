"""Each page's title and description from its front matter, made HTML for the templates that print them.

The description (`description: ...`) is for search engines and link previews (overrides/partials/page-meta.html).
A page without one gets a warning, which `mkdocs build --strict` turns into a failed build: every page of the
book has its own. Material and the partial print it inside an HTML attribute without escaping it, so it is
escaped here, once: a description may say "group" in quotes or A < B.

A title (`title: ...`) is text, but Material prints a page's title as HTML, as MkDocs makes it from a heading
(`&lt;think&gt;`): into the browser's tab, the page's header and the nav. Written as it was typed, a title of
`</title><script>...` ran in every reader's browser; escaped here, once, it shows as typed. (The template's tab
title escapes too: Material's `striptags` turns a heading's `&lt;` back into `<`, overrides/main.html.)
"""

from __future__ import annotations

import html

from mkdocs.plugins import get_plugin_logger
from mkdocs.structure.pages import Page

log = get_plugin_logger("grpo")


def describe(page: Page, source_path: str) -> None:
    """Escape the page's title and description for HTML, or warn that it has no description."""
    if isinstance(title := page.meta.get("title"), (str, int, float)):  # else a problem: hooks/checks.py
        page.meta["title"] = html.escape(str(title), quote=True)
    description = page.meta.get("description")
    if not isinstance(description, str) or not description.strip():
        log.warning(
            f"{source_path}: no description in the front matter; add a line such as "
            "'description: What this page teaches, in one sentence.' between the '---' lines at the top "
            "(search engines and link previews show it)"
        )
        return
    page.meta["description"] = html.escape(" ".join(description.split()), quote=True)
