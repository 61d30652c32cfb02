"""Under `make serve` (`mkdocs serve --dirty`), a save rebuilds the pages it changes, and the site stays exact.

MkDocs' dirty build skips every page whose output is newer than its source: it neither reads nor writes it.
Alone, that serves stale pages (a data edit changes no page's source) and a wrong site (the nav, the search
index and the whole-book page are made from every page, and a skipped page has no HTML). This module makes it
exact; hooks/events.py calls it at four points of a build:

- `plan` (on_nav, before any page is read): what changed since the last build. Anything that can change every
  page (mkdocs.yml, the hooks, the theme, the stylesheets and scripts, the set of pages, a watched file a snippet
  may paste, the build's date) or a problem in the last build: the site folder is emptied and every page built.
  Otherwise a page is rebuilt when its source changed, or when the models of the subjects it used changed
  (their digests, hooks/engine/tree.py `fingerprint`) and its expansion differs; after any data or model edit,
  every kept page is read again by the drift guard, whose index holds every computed value. MkDocs is told by
  the output's time: a page to rebuild gets time 0.
- `restore` (the same moment): a page kept gets back what its last build read and rendered (Markdown, front
  matter, HTML, table of contents, title, anchors), so the nav, the whole-book page and the sitemap see it.
- `must_rebuild_all` (on_env): a rebuilt page whose title or front matter changed shows in every page's nav;
  problems show over every page: every page kept is written again, from what was restored.
- `record` (on_page_context) and `search_entries` (on_post_build): what each written page read, rendered
  and gave the search index, so that the index lists every page in the order a full build gives.

The state lives in a dict hooks/entry.py keeps, so it outlives the re-import of the hooks after a data or
code edit. `mkdocs build` (and `make build`) never use it: they build everything.
"""

from __future__ import annotations

import copy
import dataclasses
import hashlib
import os
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import jinja2
import jinja2.bccache

STATE = "incremental"  # the key of this module's state in hooks/entry.py's kept dict
TEMPLATES = "templates"  # and of the theme's compiled templates


@dataclass
class PageRecord:
    """What a page's last build read, rendered and indexed: enough to stand in for reading it again."""

    source: str
    used: frozenset[str]  # the subjects its placeholders name: the drift guard reads its counts with them
    read: frozenset[str]  # every subject whose model its text was drawn from
    expanded: str
    markdown: str | None = None
    meta: dict[str, Any] = field(default_factory=dict)
    nav_view: tuple[str | None, str] = (None, "")  # its title and front matter, as other pages' nav shows them
    content: str | None = None
    toc: Any = None
    title_from_render: str | None = None
    anchors: set[str] | None = None
    links_to_anchors: dict[str, dict[str, str]] | None = None
    search: list[dict[str, Any]] = field(default_factory=list)


@dataclass
class State:
    world: str = ""  # a digest of everything that can change every page
    code: str = ""  # grpo_examples' code
    data: str = ""  # grpo_examples' data files
    subjects: dict[str, str] = field(default_factory=dict)  # subject name -> fingerprint of its model
    pages: dict[str, PageRecord] = field(default_factory=dict)  # src_uri -> record
    whole: bool = False  # the last build ended with no problems and every page recorded


@dataclass
class Plan:
    everything: bool
    rebuilt: set[str]  # src_uris


def templates(kept: dict[str, Any]) -> jinja2.BytecodeCache:
    """The theme's templates compiled once for the whole `make serve`: MkDocs makes a new Jinja environment for
    every build, which would parse and compile all of Material's templates again. Jinja checks each template's
    source against its compiled code, so an edited template is compiled anew."""
    if TEMPLATES not in kept:
        kept[TEMPLATES] = _InMemory()
    cache: jinja2.BytecodeCache = kept[TEMPLATES]
    return cache


class _InMemory(jinja2.BytecodeCache):
    def __init__(self) -> None:
        self.compiled: dict[str, bytes] = {}

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        if bucket.key in self.compiled:
            bucket.bytecode_from_string(self.compiled[bucket.key])

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        self.compiled[bucket.key] = bucket.bytecode_to_string()


def state(kept: dict[str, Any]) -> State:
    if STATE not in kept:
        kept[STATE] = State()
    result: State = kept[STATE]
    return result


def stamp(paths: Iterable[Path], *, skip: Callable[[Path], bool] = lambda path: False) -> str:
    """A digest of the files under paths (name, size, modification time): it changes when any of them does."""
    digest = hashlib.sha256()
    for root in paths:
        files = sorted(root.rglob("*")) if root.is_dir() else [root]
        for path in files:
            if path.is_file() and "__pycache__" not in path.parts and not skip(path):
                status = path.stat()
                digest.update(f"{path}\0{status.st_size}\0{status.st_mtime_ns}\0".encode())
    return digest.hexdigest()


def digest(*parts: object) -> str:
    return hashlib.sha256(repr(parts).encode()).hexdigest()


@dataclass(frozen=True)
class Candidate:
    """A page of this build, as the plan sees it."""

    uri: str
    source: str  # the page's file, and the files its snippet lines paste
    output: Path


def plan(
    kept: State,
    pages: Sequence[Candidate],
    *,
    world: str,
    code: str,
    data: str,
    subjects: Callable[[], dict[str, str]],
    expands_as: Callable[[str, PageRecord], bool],
    guard_clear: Callable[[str, PageRecord], bool],
) -> Plan:
    """Which pages this build must read and write again; the others stay as the last build wrote them.

    subjects() gives each subject's fingerprint now; expands_as(uri, record) says whether the page, expanded
    now, reads as it did; guard_clear(uri, record) whether the drift guard finds nothing in it now."""
    uris = {page.uri for page in pages}
    if not kept.whole or kept.world != world or set(kept.pages) != uris:
        return Plan(True, uris)
    changed: set[str] | None = set()  # the subjects whose models changed; None: every subject may have
    if kept.code != code:
        changed = None
    elif kept.data != data:
        now = subjects()
        changed = {name for name in set(now) | set(kept.subjects) if now.get(name) != kept.subjects.get(name)}
    rebuilt = set()
    for page in pages:
        record = kept.pages[page.uri]
        models_changed = changed is None or bool(record.read & changed)
        if (
            page.source != record.source
            or (models_changed and not expands_as(page.uri, record))
            or ((kept.code != code or kept.data != data) and not guard_clear(page.uri, record))
        ):
            rebuilt.add(page.uri)
    return Plan(False, rebuilt)


def mark_for_rebuild(output: Path) -> None:
    """MkDocs' dirty build rebuilds a page whose output is older than its source: make it the oldest."""
    if output.is_file():
        os.utime(output, (0, 0))


def restore(page: Any, record: PageRecord, files: Any) -> None:
    """The page as its last build left it, for every part of this build that reads other pages."""
    page.markdown = record.markdown
    page.meta = copy.deepcopy(record.meta)
    page.content = record.content
    page.toc = record.toc
    page._title_from_render = record.title_from_render  # what render() sets; Page.title reads it
    page.present_anchor_ids = record.anchors
    if record.links_to_anchors is not None:
        targets = ((files.get_file_from_path(uri), links) for uri, links in record.links_to_anchors.items())
        page.links_to_anchors = {target: links for target, links in targets if target is not None}


def nav_view(page: Any) -> tuple[str | None, str]:
    """What of a page other pages show: its title in their nav and its front matter (Material reads it there)."""
    return (None, "") if page is None else (page.title, repr(sorted(page.meta.items())))


def record(page: Any, before: PageRecord, search: list[dict[str, Any]]) -> PageRecord:
    """The page as this build read and rendered it (at on_page_context, after the search plugin's turn)."""
    links = page.links_to_anchors
    return dataclasses.replace(  # what on_page_markdown and on_env noted stays: source, subjects, expansion, nav view
        before,
        markdown=page.markdown,
        meta=copy.deepcopy(page.meta),
        content=page.content,
        toc=page.toc,
        title_from_render=page._title_from_render,
        anchors=page.present_anchor_ids,
        links_to_anchors=None if links is None else {target.src_uri: dict(found) for target, found in links.items()},
        search=search,
    )


def page_entries(entries: Sequence[dict[str, Any]], url: str) -> list[dict[str, Any]]:
    """The search entries of one page: its own location, and its sections' (url#id)."""
    return [entry for entry in entries if str(entry.get("location", "")).split("#")[0] == url]


def search_entries(
    order: Sequence[tuple[str, str]], fresh: Sequence[dict[str, Any]], written: set[str], kept: State
) -> list[dict[str, Any]]:
    """Every page's search entries, in the order of the pages (as a full build adds them): this build's for the
    pages it wrote, the recorded ones for the others. order: (src_uri, url) of each page."""
    result: list[dict[str, Any]] = []
    for uri, url in order:
        if uri in written:
            result.extend(page_entries(fresh, url))
        elif uri in kept.pages:
            result.extend(kept.pages[uri].search)
    return result
