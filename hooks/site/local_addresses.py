"""Every address of the site's own that a page names is a file the site publishes.

MkDocs resolves a Markdown link or image from the chapter's file, and warns (with no line) when it finds nothing. An
address in raw HTML (`<img src=...>`, `<a href=...>`, `<video src=...>`) it leaves as written, and the browser reads
it from the page's address: `assets/plot.png` written in docs/ppo.md is fetched from /ppo/assets/plot.png, a broken
image on the published site, and the EPUB made from the page fails epubcheck. Read on the page's HTML after
Markdown, like hooks/site/own_files.py, so that every way of writing an address counts.
"""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass
from html import unescape
from html.parser import HTMLParser
from urllib.parse import unquote

from hooks.site.own_files import split_address, srcset_addresses

# One search per attribute, each starting with its name, in the page lower-cased: a literal is found fast in a page's
# 240 kB of KaTeX; an alternation, or a search that ignores case, is not (14 ms on /ppo/ against 1.4). The name must
# start an attribute: `data-src=` is no address.
_VALUE = r"\s*=\s*(?:\"([^\"]*)\"|'([^']*)'|([^\s\"'=<>`]+))"
_ATTRIBUTES = tuple(re.compile(name + _VALUE) for name in ("href", "src", "srcset", "poster"))
_STARTS_AN_ATTRIBUTE = (" ", "\t", "\n", "\r", "\f", "/", '"', "'")


@dataclass(frozen=True)
class Site:
    """What the site publishes: every file, as its path in the site ('assets/plot.png', 'ppo/index.html'), and each
    page's file in the site by its chapter's file in docs/ ('ppo.md': 'ppo/index.html')."""

    files: frozenset[str]
    pages: dict[str, str]


@dataclass(frozen=True)
class Unpublished:
    """An address of the page that names no file of the site: as written, and what is wrong with it and the fix."""

    address: str
    message: str


def unpublished(html: str, page: str, source: str, site: Site) -> list[Unpublished]:
    """The addresses on the page at `page` (its file in the site, 'ppo/index.html'), made from the chapter `source`
    ('ppo.md'), that name no file of the site, in order.

    A few searches find every address and more (one in a code span about HTML, or in a comment); only a page where
    one of those names nothing is parsed, to keep the addresses of its tags."""
    folders = posixpath.dirname(page), posixpath.dirname(source)
    candidates = _candidates(html)
    if candidates is not None and not any(_problem(address, *folders, page, site) for address in candidates):
        return []
    reader = _Reader()
    reader.feed(html)
    reader.close()
    found = ((address, _problem(address, *folders, page, site)) for address in reader.addresses)
    return [Unpublished(address, message) for address, message in found if message]


def _candidates(html: str) -> list[str] | None:
    """The values of every href, src, srcset and poster written on the page, found in its lower-cased text (where an
    attribute's name is a literal to search for) and read from the page itself; None where lower-casing changed the
    text's length (a few letters of other scripts), and the page must be parsed."""
    lowered = html.lower()
    if len(lowered) != len(html):
        return None
    found = []
    for attribute in _ATTRIBUTES:
        for match in attribute.finditer(lowered):
            if match.start() and html[match.start() - 1] in _STARTS_AN_ATTRIBUTE:
                group = next(index for index in (1, 2, 3) if match.group(index) is not None)
                value = unescape(html[match.start(group) : match.end(group)])
                found += srcset_addresses(value) if attribute is _ATTRIBUTES[2] else [value.strip()]
    return found


class _Reader(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.addresses: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if name in ("href", "src", "poster"):
                self.addresses.append((value or "").strip())
            elif name == "srcset":
                self.addresses += srcset_addresses(value or "")

    handle_startendtag = handle_starttag


def _problem(address: str, folder: str, source_folder: str, page: str, site: Site) -> str:
    parts = split_address(address)
    if parts is None:
        return ""
    path = unquote(parts.path)
    if parts.scheme or parts.netloc or not path:  # another host's, mailto:, data:, or only a #fragment or ?query
        return ""
    shown = "/" + page.removesuffix("index.html")
    if path.startswith("/"):
        fix = _relative(_file(path.lstrip("/"), site.files), folder)
        return (
            f"{address} is read from the root of the server, and the book may be published under a path "
            f"(SITE_URL): write it from the page's address, {shown}" + (f": {fix}" if fix else "")
        )
    if _file(posixpath.join(folder, path), site.files):
        return ""
    written = posixpath.normpath(posixpath.join(source_folder, path))  # as a Markdown link is read
    from_source = site.pages.get(written) or _file(written, site.files)
    if from_source:
        chapter = next((src for src, dest in site.pages.items() if dest == from_source), "")
        markdown = f"[...]({posixpath.relpath(chapter, source_folder or '.')})" if chapter else f"![...]({path})"
        return (
            f"the browser reads {address} from the page's address, {shown}, not from the chapter's file, and finds "
            f"nothing there: write {_relative(from_source, folder)}, or in Markdown {markdown}, which MkDocs reads "
            "from the chapter's file"
        )
    return (
        f"the site has no file at {address}, read from the page's address ({shown}) or from the chapter's file: "
        "check the name (a file of docs/, as Markdown names it from the chapter's file: [PPO](ppo.md), "
        "![A plot](assets/plot.png))"
    )


def _file(path: str, published: frozenset[str]) -> str:
    """The published file a path within the site names ('' if none): a folder names its index.html."""
    path = posixpath.normpath(path)
    if path == ".." or path.startswith("../"):
        return ""
    path = "" if path == "." else path
    for name in (path, posixpath.join(path, "index.html")):
        if name in published:
            return name
    return ""


def _relative(file: str, folder: str) -> str:
    """The address of a file of the site from a page's folder ('' for no file)."""
    if not file:
        return ""
    if file == "index.html" or file.endswith("/index.html"):  # a page: its folder, as MkDocs links to pages
        return posixpath.relpath(posixpath.dirname(file) or ".", folder or ".").rstrip("/") + "/"
    return posixpath.relpath(file, folder or ".")
