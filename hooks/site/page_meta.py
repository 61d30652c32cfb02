"""Each page's description, for search engines and link previews (overrides/partials/page-meta.html).

It comes from the page's front matter (`description: ...`). A page without one gets a warning, which
`mkdocs build --strict` turns into a failed build: every page of the book has its own. Material and the
partial print the description inside an HTML attribute without escaping it, so it is escaped here,
once: a description may say "group" in quotes or A < B.
"""

from __future__ import annotations

import html

from mkdocs.plugins import get_plugin_logger
from mkdocs.structure.pages import Page

log = get_plugin_logger("grpo")


def describe(page: Page, source_path: str) -> None:
    """Escape the page's description for HTML, or warn that it has none."""
    description = page.meta.get("description")
    if not isinstance(description, str) or not description.strip():
        log.warning(
            f"{source_path}: no description in the front matter; add a line such as "
            "'description: What this page teaches, in one sentence.' between the '---' lines at the top "
            "(search engines and link previews show it)"
        )
        return
    page.meta["description"] = html.escape(" ".join(description.split()), quote=True)
