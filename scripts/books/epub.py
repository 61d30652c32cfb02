"""The whole book as an EPUB 3: one XHTML file per chapter, from the whole-book page (scripts/books/xhtml.py).

Formulas are KaTeX's MathML, figures the plots' inline SVG (and a chapter's images, in the book beside it),
widgets their computed tables; no script. The
package has a navigation document (the site's nav, each chapter with its sections), a cover (an SVG with the
title), and the metadata EPUB asks for: title, language, rights, an identifier and the modified date.

The file is the same bytes for the same sources: the identifier is a UUID derived from the book's address (a
name-based UUID, not a random one), the modified date and every file's time in the zip are the sources' date,
and the files go in a fixed order with fixed permissions. `mimetype` comes first and uncompressed, as EPUB's
container format requires.
"""

from __future__ import annotations

import io
import uuid
import zipfile
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from html import escape

from hooks.site.images import image_type
from scripts.books.xhtml import Chapter, ContentsEntry, book_image


@dataclass(frozen=True)
class Metadata:
    title: str
    description: str
    language: str
    rights: str
    address: str  # where the book is published: its identifier is derived from it
    version: str  # "commit 51e0859"
    epoch: int  # the sources' date, seconds since 1970 (hooks/site/build_date.py)

    @property
    def identifier(self) -> str:
        return f"urn:uuid:{uuid.uuid5(uuid.NAMESPACE_URL, self.address)}"

    @property
    def modified(self) -> str:
        return datetime.fromtimestamp(self.epoch, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


_CONTAINER = """<?xml version="1.0" encoding="UTF-8"?>
<container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">
  <rootfiles>
    <rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/>
  </rootfiles>
</container>
"""

# What a reading system needs beyond its own defaults: tables with rules, formulas, figures and images that fit
# the screen, and the plots' series in the site's light palette (docs/assets/stylesheets/plots.css).
STYLE = """body { line-height: 1.5; }
table { border-collapse: collapse; margin: 1em 0; }
th, td { border: 1px solid #bbb; padding: 0.2em 0.4em; text-align: left; vertical-align: top; }
figure { margin: 1.5em 0; }
figure svg { display: block; width: 100%; height: auto; max-width: 30em; }
figcaption { font-size: 0.9em; }
img { max-width: 100%; height: auto; }
.katex-display { display: block; margin: 1em 0; overflow-x: auto; }
pre { white-space: pre-wrap; }
.cover { text-align: center; }
.cover img { max-width: 100%; height: 95vh; }
.grpo-series-1 { stroke: #3949ab; }
.grpo-series-2 { stroke: #d84315; stroke-dasharray: 9 4; }
.grpo-series-3 { stroke: #00796b; stroke-dasharray: 2 3; stroke-width: 2.5; }
.grpo-bar-1, .grpo-dot-1 { fill: #3949ab; }
.grpo-bar-2, .grpo-dot-2 { fill: #d84315; }
.grpo-bar-3, .grpo-dot-3 { fill: #00796b; }
"""


def _page(title: str, language: str, body: str, *, epub_namespace: bool = False) -> str:
    namespace = ' xmlns:epub="http://www.idpf.org/2007/ops"' if epub_namespace else ""
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE html>\n'
        f'<html xmlns="http://www.w3.org/1999/xhtml"{namespace} xml:lang="{language}" lang="{language}">\n'
        f'<head>\n<meta charset="UTF-8" />\n<title>{escape(title)}</title>\n'
        '<link rel="stylesheet" type="text/css" href="book.css" />\n</head>\n'
        f"<body>\n{body}\n</body>\n</html>\n"
    )


def _cover_svg(metadata: Metadata) -> str:
    lines = [metadata.title, metadata.version]
    texts = "".join(
        f'<text x="300" y="{y}" font-size="{size}" text-anchor="middle" fill="{colour}">{escape(line)}</text>'
        for line, y, size, colour in zip(lines, (360, 760), (56, 24), ("#ffffff", "#c5cae9"), strict=True)
    )
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 600 900" width="600" height="900" '
        f'font-family="sans-serif" role="img" aria-label="{escape(metadata.title)}">'
        '<rect width="600" height="900" fill="#3949ab"/>'
        '<rect x="60" y="420" width="480" height="4" fill="#ff7043"/>'
        f"{texts}</svg>\n"
    )


def _nav_list(entries: Iterable[ContentsEntry], chapters: dict[str, Chapter]) -> str:
    items = []
    for entry in entries:
        if entry.name is not None and entry.name in chapters:
            chapter = chapters[entry.name]
            sections = [
                f'<li><a href="{chapter.file}#{escape(heading.id)}">{escape(heading.text)}</a></li>'
                for heading in chapter.headings
                if heading.level == 2
            ]
            inner = f"<ol>{''.join(sections)}</ol>" if sections else ""
            items.append(f'<li><a href="{chapter.file}">{escape(entry.title)}</a>{inner}</li>')
        else:
            items.append(f"<li><span>{escape(entry.title)}</span><ol>{_nav_list(entry.children, chapters)}</ol></li>")
    return "".join(items)


def _navigation(metadata: Metadata, contents: list[ContentsEntry], chapters: list[Chapter]) -> str:
    by_name = {chapter.name: chapter for chapter in chapters}
    body = (
        '<nav epub:type="toc" id="toc">\n<h1>Contents</h1>\n'
        f"<ol>{_nav_list(contents, by_name)}</ol>\n</nav>\n"
        '<nav epub:type="landmarks" hidden="hidden">\n<ol>'
        '<li><a epub:type="cover" href="cover.xhtml">Cover</a></li>'
        '<li><a epub:type="toc" href="nav.xhtml">Contents</a></li>'
        f'<li><a epub:type="bodymatter" href="{chapters[0].file}">Start of the book</a></li>'
        "</ol>\n</nav>"
    )
    return _page("Contents", metadata.language, body, epub_namespace=True)


def _package(metadata: Metadata, chapters: list[Chapter], images: Iterable[str]) -> str:
    def properties(chapter: Chapter) -> str:
        found = [name for name, present in (("mathml", chapter.has_math), ("svg", chapter.has_svg)) if present]
        return f' properties="{" ".join(found)}"' if found else ""

    manifest = [
        '<item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>',
        '<item id="cover" href="cover.xhtml" media-type="application/xhtml+xml"/>',
        '<item id="cover-image" href="cover.svg" media-type="image/svg+xml" properties="cover-image"/>',
        '<item id="css" href="book.css" media-type="text/css"/>',
        *(
            f'<item id="c-{chapter.name}" href="{chapter.file}" media-type="application/xhtml+xml"'
            f"{properties(chapter)}/>"
            for chapter in chapters
        ),
        *(
            f'<item id="image-{number}" href="{book_image(path)}" media-type="{image_type(path)}"/>'
            for number, path in enumerate(images, start=1)
        ),
    ]
    spine = [
        '<itemref idref="cover" linear="yes"/>',
        '<itemref idref="nav"/>',
        *(f'<itemref idref="c-{chapter.name}"/>' for chapter in chapters),
    ]
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="book-id" '
        f'xml:lang="{metadata.language}">\n'
        '<metadata xmlns:dc="http://purl.org/dc/elements/1.1/">\n'
        f'<dc:identifier id="book-id">{metadata.identifier}</dc:identifier>\n'
        f"<dc:title>{escape(metadata.title)}</dc:title>\n"
        f"<dc:language>{metadata.language}</dc:language>\n"
        f"<dc:description>{escape(metadata.description)}</dc:description>\n"
        f"<dc:rights>{escape(metadata.rights)}</dc:rights>\n"
        f"<dc:date>{metadata.modified}</dc:date>\n"
        f'<meta property="dcterms:modified">{metadata.modified}</meta>\n'
        '<meta name="cover" content="cover-image"/>\n'
        "</metadata>\n"
        f"<manifest>\n{chr(10).join(manifest)}\n</manifest>\n"
        f"<spine>\n{chr(10).join(spine)}\n</spine>\n"
        "</package>\n"
    )


def write_epub(
    metadata: Metadata, chapters: list[Chapter], contents: list[ContentsEntry], images: dict[str, bytes]
) -> bytes:
    """The EPUB's bytes: see the module's docstring. images: the bytes of each image the chapters show, by its
    path in the site (Chapter.images), each of a type image_type() knows."""
    cover = _page(
        metadata.title,
        metadata.language,
        f'<section class="cover"><img src="cover.svg" alt="{escape(metadata.title)}" /></section>',
    )
    files: dict[str, str | bytes] = {
        "META-INF/container.xml": _CONTAINER,
        "OEBPS/content.opf": _package(metadata, chapters, sorted(images)),
        "OEBPS/nav.xhtml": _navigation(metadata, contents, chapters),
        "OEBPS/cover.xhtml": cover,
        "OEBPS/cover.svg": _cover_svg(metadata),
        "OEBPS/book.css": STYLE,
        **{
            f"OEBPS/{chapter.file}": _page(
                chapter.headings[0].text if chapter.headings else chapter.name, metadata.language, "".join(chapter.body)
            )
            for chapter in chapters
        },
        **{f"OEBPS/{book_image(path)}": images[path] for path in sorted(images)},
    }
    stamp = datetime.fromtimestamp(max(metadata.epoch, 315532800), UTC).timetuple()[:6]  # zip starts at 1980
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, text, compression in [("mimetype", "application/epub+zip", zipfile.ZIP_STORED)] + [
            (name, text, zipfile.ZIP_DEFLATED) for name, text in files.items()
        ]:
            info = zipfile.ZipInfo(name, date_time=stamp)
            info.compress_type = compression
            info.external_attr = 0o644 << 16
            archive.writestr(info, text.encode("utf-8") if isinstance(text, str) else text)
    return buffer.getvalue()
