"""A crawler of a built site: every address a page links to or loads, and whether it resolves.

An address resolves when the file it names exists in the build (a folder through its index.html) and,
if it has a #fragment, when that page holds an element with that id (or an <a name=...>). Addresses on
other hosts are not followed; addresses under the site's own URL (canonical links, the sitemap) are.
"""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass
from functools import cache
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

# Which attribute of which element holds an address the reader follows or the browser loads.
_ADDRESS_ATTRIBUTES = {
    ("a", "href"),
    ("link", "href"),
    ("area", "href"),
    ("use", "href"),
    ("use", "xlink:href"),
    ("script", "src"),
    ("img", "src"),
    ("source", "src"),
    ("iframe", "src"),
    ("video", "src"),
    ("audio", "src"),
    ("form", "action"),
}


@dataclass(frozen=True)
class Broken:
    page: str
    address: str
    why: str

    def __str__(self) -> str:
        return f"{self.page}: {self.address} ({self.why})"


class _Page(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.ids: set[str] = set()
        self.id_list: list[str] = []
        self.addresses: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if value is None:
                continue
            if name == "id":
                self.id_list.append(value)
            if name == "id" or (tag == "a" and name == "name"):
                self.ids.add(value)
            if (tag, name) in _ADDRESS_ATTRIBUTES:
                self.addresses.append(value)


@cache
def _parse(path: Path) -> _Page:
    page = _Page()
    page.feed(path.read_text(encoding="utf-8"))
    return page


def _target(site: Path, path: str) -> Path | None:
    """The file a site path names (a folder's index.html), or None."""
    candidate = site / unquote(path).lstrip("/")
    if candidate.is_dir():
        candidate = candidate / "index.html"
    return candidate if candidate.is_file() else None


def check_page(site: Path, page: Path, site_url: str) -> list[Broken]:
    """The addresses of one built page that do not resolve."""
    site_path = urlsplit(site_url).path or "/"
    page_path = "/" + page.relative_to(site).as_posix()
    broken = []
    for address in _parse(page).addresses:
        if address.startswith(site_url):
            address = site_path + address[len(site_url) :]
        parts = urlsplit(address)
        if parts.scheme or parts.netloc:
            continue  # another host (or mailto:, data:): not part of this site
        if parts.path.startswith("/"):
            if not parts.path.startswith(site_path):
                broken.append(Broken(page_path, address, f"outside the site's path {site_path}"))
                continue
            path = "/" + parts.path[len(site_path) :]
        else:
            path = posixpath.normpath(posixpath.join(posixpath.dirname(page_path), parts.path or page_path))
            path += "/" if parts.path.endswith("/") and not path.endswith("/") else ""
        target = _target(site, path) if parts.path else page
        if target is None:
            broken.append(Broken(page_path, address, "no such file in the build"))
        elif parts.fragment and target.suffix == ".html" and unquote(parts.fragment) not in _parse(target).ids:
            broken.append(Broken(page_path, address, f"no id {unquote(parts.fragment)!r} in {target.name}"))
    return broken


def check_site(site: Path, site_url: str) -> list[Broken]:
    """Every unresolved address of every HTML page of the build, and of its sitemap."""
    _parse.cache_clear()
    broken = [b for page in sorted(site.rglob("*.html")) for b in check_page(site, page, site_url)]
    sitemap = site / "sitemap.xml"
    for loc in re.findall(r"<loc>([^<]+)</loc>", sitemap.read_text(encoding="utf-8")):
        if not loc.startswith(site_url) or _target(site, "/" + loc[len(site_url) :]) is None:
            broken.append(Broken("/sitemap.xml", loc, "not a page of this build"))
    return broken


def duplicate_ids(page: Path) -> list[str]:
    """Ids that appear more than once in a page (a link to one of them lands on either)."""
    ids = _parse(page).id_list
    return sorted({i for i in ids if ids.count(i) > 1})
