"""Every link to a place on a page (`grpo.md#the-idea`, `#sources`) names an id that page has.

MkDocs checks them once every page is written, and warns with the page and the link but no line; under `make serve`
the warning scrolls by in the terminal and the page is served with a link that goes to the top of its target. The
book checks them where it checks everything else, once every page is read (hooks/events.py on_env), so that a link
to a heading renamed on another page is a problem at its line, on every page under `make serve` and in the build's
list, with the ids closest to the one written.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass


@dataclass(frozen=True)
class Linked:
    """A page as the check needs it: its chapter's file ('ppo.md'), the ids it holds, and its links to places on
    pages, as MkDocs records them (the target page's file -> {the id: the link as written})."""

    source: str
    ids: frozenset[str]
    links: dict[str, dict[str, str]]


@dataclass(frozen=True)
class MissingAnchor:
    """A link to an id its page does not hold: the page it is on, the link as written, and the fix."""

    source: str
    link: str
    message: str


def missing_anchors(pages: list[Linked]) -> list[MissingAnchor]:
    """Each link of each page to an id that its target page does not hold, in the pages' order."""
    ids = {page.source: page.ids for page in pages}
    found = []
    for page in pages:
        for target, links in page.links.items():
            if target not in ids:  # a page this build did not read (MkDocs skips it too)
                continue
            for anchor, link in links.items():
                if anchor not in ids[target]:
                    found.append(MissingAnchor(page.source, link, _message(anchor, target, page.source, ids[target])))
    return found


def _message(anchor: str, target: str, source: str, ids: frozenset[str]) -> str:
    where = "this page" if target == source else f"the page of {target}"
    closest = difflib.get_close_matches(anchor, sorted(ids), n=3, cutoff=0.5)
    fix = (
        "link to one of its ids: " + ", ".join(f"#{name}" for name in closest)
        if closest
        else "link to one of its headings: a heading's id is its words in lower case, joined by '-'"
    )
    return f"there is no #{anchor} on {where} (a heading renamed, or the id misspelt): {fix}"
