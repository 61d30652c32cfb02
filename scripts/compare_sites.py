"""Compare what a reader sees on two builds of the book: every page's visible text, and every widget's data.

    .venv/bin/python scripts/compare_sites.py SITE_BEFORE SITE_AFTER      # exit status 1 if a page differs

For refactors that must not change the book (the move to one resolver was checked with it). A page's visible
text is the text of its <article>, with the collapsed provenance notes ("How these numbers were computed")
left out, since those say where numbers come from and may change with the code; the widgets' JSON is compared
whole. Differences are printed as a unified diff per page, a sentence a line.
"""

from __future__ import annotations

import difflib
import html.parser
import json
import re
import sys
from pathlib import Path

NOTE = re.compile(r"How (these numbers were|this was|these were) computed")


class _Text(html.parser.HTMLParser):
    """The article's text without provenance notes, and the widgets' data, of one page."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.depth = 0  # inside <article>
        self.skip = 0  # inside a provenance note (<details> whose summary names it) or a <script>/<style>
        self.details: list[bool] = []
        self.parts: list[str] = []
        self.data: list[str] = []
        self.in_script = False
        self.in_summary = False
        self.summary = ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "article":
            self.depth += 1
        if tag == "details":
            self.details.append(False)
        if tag == "summary":
            self.in_summary, self.summary = True, ""
        if tag in ("script", "style"):
            self.in_script = True
        if tag in ("p", "li", "tr", "br", "h1", "h2", "h3", "h4", "figcaption", "summary", "dt", "dd"):
            self.parts.append("\n")
        if tag in ("td", "th"):
            self.parts.append(" | ")

    def handle_endtag(self, tag: str) -> None:
        if tag == "article":
            self.depth -= 1
        if tag == "summary":
            self.in_summary = False
            if self.details and NOTE.search(self.summary):
                self.details[-1] = True
                # drop the summary's own text, which was written before it was known to be a note
                while self.parts and self.parts[-1] != "\n":
                    self.parts.pop()
        if tag == "details" and self.details:
            self.details.pop()
        if tag in ("script", "style"):
            self.in_script = False

    def handle_data(self, data: str) -> None:
        if self.in_summary:
            self.summary += data
        if self.in_script:
            if self.depth and data.strip().startswith("[{"):
                self.data.append(data)
            return
        if self.depth and not any(self.details):
            self.parts.append(data)

    def text(self) -> list[str]:
        joined = re.sub(r"[ \t]+", " ", "".join(self.parts))
        return [line.strip() for line in joined.split("\n") if line.strip()]


def page(path: Path) -> tuple[list[str], list[object]]:
    parser = _Text()
    parser.feed(path.read_text(encoding="utf-8"))
    return parser.text(), [json.loads(d) for d in parser.data]


def main(arguments: list[str]) -> int:
    before, after = (Path(a) for a in arguments[:2])
    differing = 0
    for old in sorted(before.rglob("*.html")):
        name = old.relative_to(before)
        new = after / name
        if not new.exists():
            print(f"{name}: missing from {after}")
            differing += 1
            continue
        (old_text, old_data), (new_text, new_data) = page(old), page(new)
        if old_text != new_text:
            differing += 1
            print(
                "".join(
                    difflib.unified_diff(
                        [t + "\n" for t in old_text], [t + "\n" for t in new_text], str(name), str(name), n=0
                    )
                )
            )
        if old_data != new_data:
            differing += 1
            print(f"{name}: the widgets' data differ")
    print(f"{differing} difference(s)")
    return 1 if differing else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
