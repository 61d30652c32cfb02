"""Every image a chapter shows says in words what it shows, for a reader who cannot see it (a screen reader, the
EPUB read aloud, a page whose image did not load). Markdown's `![](plot.png)` publishes `alt=""`, which marks an
image as decoration that says nothing, and which accessibility checkers (axe) accept: the build asks for the words.
"""

from __future__ import annotations

from dataclasses import dataclass
from html.parser import HTMLParser


@dataclass(frozen=True)
class Unnamed:
    """An image without words: the tag as the HTML writes it, and its address, to find in the chapter's source."""

    tag: str
    find: str


def unnamed_images(html: str) -> list[Unnamed]:
    """The page's images whose alt text is missing or blank, in order (only a page with an image is parsed)."""
    if "<img" not in html.lower():
        return []
    reader = _Reader()
    reader.feed(html)
    reader.close()
    return reader.found


class _Reader(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[Unnamed] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = dict(attrs)
        if tag == "img" and not (attributes.get("alt") or "").strip():
            self.found.append(Unnamed(self.get_starttag_text() or "<img>", attributes.get("src") or "<img"))

    handle_startendtag = handle_starttag
