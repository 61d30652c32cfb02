"""A chapter's page runs none of its own code and loads only the site's files.

Chapters come from contributors and CI publishes them, so what a chapter's Markdown or raw HTML puts on its page
must not run in the reader's browser (a `<script>`, an `onerror=`, a `javascript:` link) nor make the page fetch
from another host (an image, a frame, a stylesheet) or tell one of the reader's clicks (a link's `ping=`). Links to
other sites stay: following one is the reader's choice. Nor may it hold what the book's PDF and EPUB cannot (a
video, a sound), which would be a blank box on paper and a file epubcheck cannot find, nor a form, which would send
what a reader types wherever its action says. The book's own scripts come from the theme and from docs/assets/, and
a widget's data is a `<script type="application/json">`, which the browser does not run.

Read on the page's HTML, after Markdown, so that every way of writing it counts (an image by reference, an attribute
list, raw HTML); a few searches find the pages worth parsing, almost none, and only those are parsed.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from html.parser import HTMLParser
from urllib.parse import SplitResult, urlsplit

# What is worth a closer look, in the page's text lower-cased: a tag that runs, embeds or restyles (but a widget's
# data), an event handler, an address the page loads with a scheme or '//', a CSS url(), and a link's address
# with a scheme other than the web's or an entity (`java&#x09;script:`). Each test is a literal search or a short
# expression, not one alternation, which would read a page's 240 kB of KaTeX ten times slower.
_LOOK_FOR = (  # tags that run, embed or restyle; SVG's that fetch their href; a srcset, whose addresses are a list;
    # an SVG animation, which can set an attribute to any of the values it lists
    *("<iframe", "<frame", "<object", "<embed", "<applet", "<base", "<meta", "<link", "<style"),
    *("<image", "<use", "<feimage", "srcset", "attributename", "<video", "<audio", "<form"),
)
_WIDGET_DATA = '<script class="grpo-widget__data" type="application/json">'
_ATTRIBUTES = (
    re.compile(r"on[a-z]+\s*="),
    re.compile(r"(?:src|poster|data|background)\s*=\s*[\"']?\s*(?:[a-z][a-z0-9+.-]*:|//)"),
    re.compile(r"url\("),
    re.compile(r"(?:href|action)\s*=\s*[\"']?(?!https?:|mailto:)[^\"'>:/?#&]*[:&]"),
    re.compile(r"ping\s*="),
)
_RUNS = {"script", "iframe", "frame", "frameset", "object", "embed", "applet"}
_CHANGES_THE_PAGE = {"base", "meta", "link", "style"}
_PLAYS = {"video", "audio"}  # on the site only: the PDF prints a blank box, the EPUB would need the file
_LOADED = {"src", "srcset", "poster", "data", "background", "xlink:href"}  # fetched as the page loads
_FOLLOWED = {"href", "action", "formaction"}
_SVG_LOADS = {"image", "use", "feimage"}  # their href is fetched, not followed
_SVG_ANIMATIONS = {"animate", "set", "animatemotion", "animatetransform"}
_CSS_URL = re.compile(r"url\(\s*['\"]?([^'\")]*)", re.IGNORECASE)
_IGNORED_IN_A_SCHEME = re.compile(r"[\x00-\x20]")  # browsers drop tabs, line breaks and spaces in "java\tscript:"


@dataclass(frozen=True)
class Foreign:
    """One thing the page may not hold: the tag as the HTML writes it, what it is and the fix, and a piece of it
    to find in the chapter's source (an address, a tag's name) for the line."""

    tag: str
    message: str
    find: str


def foreign(html: str) -> list[Foreign]:
    """Every script, event handler, code-running address and file from another host on the page, in order."""
    if not _worth_parsing(html.lower()):
        return []
    reader = _Reader()
    reader.feed(html)
    reader.close()
    return reader.found


def _worth_parsing(page: str) -> bool:
    if page.count("<script") > page.count(_WIDGET_DATA):
        return True
    return any(text in page for text in _LOOK_FOR) or any(test.search(page) for test in _ATTRIBUTES)


class _Reader(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[Foreign] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        written = self.get_starttag_text() or f"<{tag}>"
        self.found += (Foreign(written, message, find) for message, find in _problems(tag, dict(attrs)))

    handle_startendtag = handle_starttag


def _problems(tag: str, attributes: dict[str, str | None]) -> Iterator[tuple[str, str]]:
    if tag in _RUNS and not (tag == "script" and (attributes.get("type") or "").strip().lower() == "application/json"):
        yield (  # (a widget's data is a script of JSON, which the browser does not run)
            f"<{tag}> would run or embed code from the chapter on the published page: remove it (a widget is "
            "placed with <!-- grpo:widget ... -->, docs/guide/widgets.md)",
            f"<{tag}",
        )
        return
    if tag in _CHANGES_THE_PAGE:
        yield (
            f"<{tag}> in a chapter changes how the whole page loads or looks: remove it (the book's styles are "
            "in docs/assets/stylesheets/)",
            f"<{tag}",
        )
        return
    if tag in _PLAYS:
        yield (
            f"<{tag}> plays on the site only, and the book is also its PDF and EPUB: show a figure (PNG, JPEG, GIF, "
            "which may move, or SVG), or link to the file: [The run, as a video](assets/run.mp4)",
            f"<{tag}",
        )
        return
    if tag == "form":
        yield (
            "<form> would send what a reader types to the address its action names, and the book asks its readers "
            "for nothing: remove it (a widget takes a reader's input: docs/guide/widgets.md)",
            "<form",
        )
        return
    animated = (attributes.get("attributename") or "").strip().lower() if tag in _SVG_ANIMATIONS else ""
    if animated in ("href", "xlink:href") or animated.startswith("on"):  # Chromium follows what `values` sets
        yield (
            f"an SVG <{tag}> of the attribute {animated} can make a link run code or fetch from another host: "
            "remove the animation",
            f"<{tag}",
        )
    for name, value in attributes.items():
        value = value or ""
        if name.startswith("on"):
            yield f"an event handler ({name}=) runs code in the reader's browser: remove it", name
        elif name == "ping":  # the browser posts to each of its addresses when the link is followed
            yield "a link's ping= sends a request of the reader's click to the addresses it names: remove it", "ping"
        elif name in _FOLLOWED | _LOADED and (scheme := _running_scheme(value)):
            yield f"a {scheme} address runs code: link to a page instead", value
        elif (name in _LOADED or (name == "href" and tag in _SVG_LOADS) or name == "style") and (
            away := next((url for url in _addresses(name, value) if _elsewhere(url)), None)
        ):
            yield _from_elsewhere(away), away


def _addresses(name: str, value: str) -> list[str]:
    """The addresses an attribute loads: a srcset lists several, each followed by its width or density; a style
    names them in url()."""
    if name == "style":
        return _CSS_URL.findall(value)
    if name == "srcset":
        return srcset_addresses(value)
    return [value]


def srcset_addresses(value: str) -> list[str]:
    """The addresses of a srcset, each followed by its width or density ('plot.png 1x, plot@2x.png 2x')."""
    return [candidate.split()[0] for candidate in value.split(",") if candidate.strip()]


def _running_scheme(address: str) -> str:
    """'javascript:' for an address that runs code when followed or loaded, else ''."""
    address = _IGNORED_IN_A_SCHEME.sub("", address).lower()
    return next((scheme for scheme in ("javascript:", "vbscript:", "data:text/html") if address.startswith(scheme)), "")


def _elsewhere(address: str) -> bool:
    """An address of another host: with a scheme (but data:, the bytes themselves) or starting '//'."""
    scheme, host = _scheme_and_host(address)
    return bool(host) or (bool(scheme) and scheme.lower() != "data")


def _scheme_and_host(address: str) -> tuple[str, str]:
    address = _IGNORED_IN_A_SCHEME.sub("", address)
    parts = split_address(address)
    return ("", address) if parts is None else (parts.scheme, parts.netloc)


def split_address(address: str) -> SplitResult | None:
    """The parts of an address; None for one urllib cannot split (`//[x`, an IPv6 host never closed), which is no
    address of the site's own either, and this check reports it as another host's."""
    try:
        return urlsplit(address)
    except ValueError:
        return None


def _from_elsewhere(address: str) -> str:
    host = _scheme_and_host(address)[1] or address
    return (
        f"the page would load a file from another host ({host}): the book's pages load only their own files; save "
        "it under docs/assets/ and name it from there"
    )
