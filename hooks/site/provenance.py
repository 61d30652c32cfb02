"""A computed value's provenance, one tap or key press away: a button that opens a popover.

The engine writes each computed value as `<span class="grpo-value" title="Computed at build time: ...">`
(hooks/engine/placeholders.py). A title is a hover-only tooltip: a phone cannot reach it, nor can a keyboard,
and its dotted underline reads as an abbreviation. Here the value becomes a button and the title its popover
(HTML's `popovertarget`: the browser opens it on a tap, a click, Enter or Space, closes it on Escape or a tap
elsewhere, and tells screen readers it is expanded; no script). Search leaves the popovers out of its index.
A value in a link's text stays as the engine wrote it, with its provenance as the title: HTML allows no button
inside a link, and a tap on one would follow the link as well.
"""

from __future__ import annotations

import bisect
import re

_VALUE = re.compile(r'<span class="grpo-value" title="(?P<title>[^"]*)">(?P<shown>[^<]*)</span>')
_LINK = re.compile(r"<a\b[^>]*>.*?</a>", re.DOTALL)  # Markdown's links: never nested, each closed
_PREFIX = "Computed at build time: "


def disclose(html: str, page_name: str) -> str:
    """Each computed value of the page as a button and its provenance as the popover it opens.

    The ids are the page's name and a count, so the print page, which holds every chapter, keeps them apart
    (hooks/site/print_book.py prefixes them with the chapter's name as it does every id)."""
    count = 0
    links = [(link.start(), link.end()) for link in _LINK.finditer(html)] if "<a" in html else []
    link_starts = [start for start, _ in links]

    def button(value: re.Match[str]) -> str:
        nonlocal count
        link = bisect.bisect_right(link_starts, value.start()) - 1  # the last link that opens before the value
        if link >= 0 and value.start() < links[link][1]:
            return value.group()  # in the link's text
        count += 1
        target = f"grpo-why-{page_name}-{count}"
        title, shown = value.group("title"), value.group("shown")  # escaped by the engine, for an attribute
        # a long expression wraps after a dot or a bracket on a phone, as all inline code does (code_breaks.py)
        why = f"{_PREFIX}<code>{title.removeprefix(_PREFIX)}</code>"
        return (
            f'<button type="button" class="grpo-value" popovertarget="{target}">{shown}</button>'
            f'<span class="grpo-why" id="{target}" popover data-search-exclude>{why}</span>'
        )

    return _VALUE.sub(button, html)
