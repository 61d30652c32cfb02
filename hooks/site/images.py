"""Every image a chapter shows says in words what it shows, and is of a type every form of the book shows.

Words, for a reader who cannot see it (a screen reader, the EPUB read aloud, a page whose image did not load):
Markdown's `![](plot.png)` publishes `alt=""`, which marks an image as decoration that says nothing, and which
accessibility checkers (axe) accept, so the build asks for the words. A type: the site shows any image a browser
does, but `make build` also puts each image into the EPUB (scripts/books), whose readers need show only EPUB 3.2's
core types; a WebP figure built the site and then stopped `make build`, named without its line.
"""

from __future__ import annotations

from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import PurePosixPath
from urllib.parse import unquote

from hooks.site.own_files import split_address

# The images every EPUB 3 reading system shows (EPUB 3.2's core media types), by the file's suffix; another needs a
# fallback readers may not have, and epubcheck refuses it without one.
IMAGE_TYPES = {
    ".gif": "image/gif",
    ".jpeg": "image/jpeg",
    ".jpg": "image/jpeg",
    ".png": "image/png",
    ".svg": "image/svg+xml",
}
UNNAMED = (
    "this image has no words for a reader who cannot see it: say what it shows, ![The clip range of PPO](...) "
    'or alt="..."'
)
UNSHOWN_TYPE = (
    "EPUB readers show only PNG, JPEG, GIF and SVG images (.png, .jpg, .gif, .svg), and `make build` puts this one in "
    "the EPUB: save it as one of those and show that"
)


def image_type(path: str) -> str | None:
    """The media type of an image the book may hold, by its name; None for one it may not."""
    return IMAGE_TYPES.get(PurePosixPath(path).suffix.lower())


@dataclass(frozen=True)
class ImageProblem:
    """An image without words or of a type the EPUB cannot hold: the tag as the HTML writes it, what is wrong and
    the fix, and its file's name, to find in the chapter's source."""

    tag: str
    message: str
    find: str


def image_problems(html: str) -> list[ImageProblem]:
    """The page's images whose alt text is missing or blank, or whose file is of another type, in order (only a
    page with an image is parsed)."""
    if "<img" not in html.lower():
        return []
    reader = _Reader()
    reader.feed(html)
    reader.close()
    return reader.found


class _Reader(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[ImageProblem] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag != "img":
            return
        attributes = dict(attrs)
        written, address = self.get_starttag_text() or "<img>", attributes.get("src") or ""
        parts = split_address(address)  # None: another host's, which hooks/site/own_files.py reports
        # The file's name, to find the image in the chapter: MkDocs rewrites a Markdown image's address from the
        # page's (`assets/plot.png` in docs/ppo.md is `../assets/plot.png` on /ppo/), never its name.
        name = address if parts is None else unquote(parts.path).rpartition("/")[2]
        if not (attributes.get("alt") or "").strip():
            self.found.append(ImageProblem(written, UNNAMED, name or "<img"))
        # a file of the site's own: data: is the bytes, and another host's own_files refuses
        of_the_site = parts is not None and bool(address) and not parts.scheme and not parts.netloc
        if of_the_site and image_type(name) is None:
            self.found.append(ImageProblem(written, UNSHOWN_TYPE, name))

    handle_startendtag = handle_starttag
