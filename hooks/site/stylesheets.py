"""The book's own stylesheets, served as one file.

mkdocs.yml lists the book's stylesheets one per idea (book.css, widgets.css, each widget's, plots.css,
a11y.css, print.css), and MkDocs would link each: nine render-blocking requests before a phone paints
anything, each a round trip on a slow network (benchmarks/RESULTS.md measures the difference). At build
time they are joined, in their mkdocs.yml order, into one file named after its content's hash, so that
a browser holding an older version in its cache never uses it. KaTeX's stylesheet stays apart: its
fonts are addressed relative to it, and its rules must stay those of the KaTeX that rendered (only its font
sources are trimmed to woff2: hooks/site/katex_fonts.py).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File, Files

FOLDER = "assets/stylesheets/"


@dataclass(frozen=True)
class Joined:
    """The stylesheets of extra_css under docs/assets/stylesheets/, joined: its site path, text and sources."""

    path: str
    text: str
    sources: tuple[str, ...]


def _own(entry: str) -> bool:
    return entry.startswith(FOLDER) and entry.endswith(".css")


def join(config: MkDocsConfig, generated: Sequence[tuple[str, str]] = ()) -> Joined | None:
    """Join the book's stylesheets, after the rules the build writes (each as: where from, text), and link
    the result where the first of them stood in extra_css (last, if it lists none)."""
    entries = [str(entry) for entry in config.extra_css]
    sources = tuple(filter(_own, entries))
    if not sources and not generated:
        return None
    parts = [f"/* {origin} */\n{text.strip()}\n" for origin, text in generated]
    for entry in sources:
        source = Path(config.docs_dir) / entry
        if not source.is_file():
            raise PluginError(f"mkdocs.yml: extra_css lists {entry}, but docs/{entry} does not exist")
        parts.append(f"/* docs/{entry} */\n{source.read_text(encoding='utf-8').strip()}\n")
    text = "\n".join(parts)
    path = f"{FOLDER}book.{hashlib.sha256(text.encode()).hexdigest()[:8]}.css"
    first = entries.index(sources[0]) if sources else len(entries)
    config.extra_css = [*entries[:first], path, *(entry for entry in entries[first:] if not _own(entry))]
    return Joined(path, text, sources)


def serve(joined: Joined, files: Files, config: MkDocsConfig) -> None:
    """Put the joined stylesheet in the site in place of the files it joins (no copy served twice)."""
    for entry in joined.sources:
        if (file := files.get_file_from_path(entry)) is not None:
            files.remove(file)
    files.append(File.generated(config, joined.path, content=joined.text))
