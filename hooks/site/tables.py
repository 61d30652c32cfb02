"""Tables wrapped at build time in the box Material's script would put them in, so that script leaves them be.

On every page load Material's script takes each table without a class out of the page and puts it back
inside `div.md-typeset__scrollwrap > div.md-typeset__table` (the box that scrolls a wide table on a phone).
Taking an element out and putting it back restyles it and everything in it, and the article's
`:first-child`/`+` rules make Chromium restyle every sibling too: on a long chapter that was a second full
restyle of about 5,000 elements in Material's first task, most of Lighthouse's Total Blocking Time
(benchmarks/rationale.md). The build writes that box itself and gives the table a class, which
Material's script skips. Material styles only tables without a class, so its rules for them are read from
the stylesheet the theme serves and retargeted to the class: they follow the Material version installed.
"""

from __future__ import annotations

import re
import unicodedata
from html import escape
from html.parser import HTMLParser
from pathlib import Path

CLASS = "grpo-table"
MATERIAL_SELECTOR = "table:not([class])"  # Material's, for both its script and its stylesheet
OPEN = '<div class="md-typeset__scrollwrap"><div class="md-typeset__table">'
CLOSE = "</div></div>"
TABLE_TAG = re.compile(r"<table(\s[^>]*)?>|</table>")
CLASS_ATTRIBUTE = re.compile(r"\sclass\s*=")
COMMENT = re.compile(r"/\*.*?\*/", re.DOTALL)
BRACE = re.compile(r"[{}]")
STYLESHEET_GLOB = "assets/stylesheets/main.*.min.css"
STACK_CLASS = "grpo-table--stack"
STACK_FROM = 3  # columns: two fit a phone's width (a glossary); from three, rows become cards there (book.css)
_WRAPPED_TABLE = re.compile(rf'<table class="{CLASS}"[^>]*>.*?</table>', re.DOTALL)  # Markdown's: never nested
_HEADER_ROW = re.compile(r"<thead>.*?</thead>", re.DOTALL)
_HEADER_CELL = re.compile(r"<th\b[^>]*>(.*?)</th>", re.DOTALL)
_BODY_ROW = re.compile(r"<tr>.*?</tr>", re.DOTALL)
_BODY_CELL = re.compile(r"<td\b([^>]*)>")
_VOID = {"br", "wbr", "img", "hr", "input", "col"}
_SCRIPTS = {"msup": "sup", "msub": "sub", "mover": "accent"}
_SCRIPT_CHARACTERS = {
    "sup": str.maketrans("0123456789+−-n", "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁻ⁿ"),
    "sub": str.maketrans("0123456789+−-it", "₀₁₂₃₄₅₆₇₈₉₊₋₋ᵢₜ"),
}
_ACCENTS = {"^": "\u0302", "~": "\u0303", "¯": "\u0304", "‾": "\u0304"}  # combining: ĝ, x̃, x̄


class TableStyleError(Exception):
    """Material's stylesheet is missing, or no longer styles tables the way this module retargets."""


def wrap(html: str) -> str:
    """Each table without a class, in Material's scroll box and marked with CLASS (and labelled to stack on a
    phone when it is wide: `stackable`); other tables as they were."""
    return _WRAPPED_TABLE.sub(lambda table: stackable(table.group()), _wrap(html))


def stackable(table: str) -> str:
    """A table of STACK_FROM columns or more, marked STACK_CLASS, each body cell labelled with its column's
    header as a screen reader reads it (data-label), for book.css to lay each row out as a card on a phone:
    six columns do not fit 360 px, and scrolling sideways hides the columns a reader came for."""
    header = _HEADER_ROW.search(table)
    if header is None:
        return table
    labels = [escape(_spoken_text(cell), quote=True) for cell in _HEADER_CELL.findall(header.group())]
    if len(labels) < STACK_FROM:
        return table

    def labelled(row: re.Match[str]) -> str:
        cells = iter(labels)
        return _BODY_CELL.sub(lambda cell: f'<td data-label="{next(cells, "")}"{cell.group(1)}>', row.group())

    body_start = header.end()
    table = table[:body_start] + _BODY_ROW.sub(labelled, table[body_start:])
    return table.replace(f'<table class="{CLASS}"', f'<table class="{CLASS} {STACK_CLASS}"', 1)


def _spoken_text(cell: str) -> str:
    """A header cell's text as a screen reader gets it: without what is aria-hidden (KaTeX's HTML for the eye,
    a formula read from a label instead), without the TeX behind a formula's MathML, and without a computed
    value's provenance, which is shown only when opened."""
    reader = _SpokenText()
    reader.feed(cell)
    reader.close()
    return unicodedata.normalize("NFC", " ".join("".join(reader.text).split()))  # g + ̂  is ĝ


class _SpokenText(HTMLParser):
    """The text of a header cell as described in _spoken_text; a formula's sub- and superscripts and accents are
    written as Unicode where it has them (‖ĝ(c)‖², θ₁), so a label reads as the header looks."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.text: list[str] = []
        self._open: list[tuple[str, bool, str]] = []  # per open element: tag, hidden, script (sup, sub, accent)
        self._children: list[int] = []  # per open element: how many children it has had so far

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _VOID:
            return
        attributes = dict(attrs)
        parent, hidden, script = self._open[-1] if self._open else ("", False, "")
        position = self._children[-1] if self._children else 0
        if self._children:
            self._children[-1] += 1
        if position == 1 and parent in _SCRIPTS:  # the second child of msup, msub or mover
            script = _SCRIPTS[parent]
        hidden = hidden or attributes.get("aria-hidden") == "true" or "popover" in attributes  # a value's provenance
        self._open.append((tag, hidden or tag == "annotation", script))
        self._children.append(0)

    def handle_endtag(self, tag: str) -> None:
        if tag not in _VOID and self._open:
            self._open.pop()
            self._children.pop()

    def handle_data(self, data: str) -> None:
        hidden, script = (self._open[-1][1], self._open[-1][2]) if self._open else (False, "")
        if hidden:
            return
        if script == "accent":
            data = _ACCENTS.get(data, data)
        elif script and all(ord(c) in _SCRIPT_CHARACTERS[script] for c in data):
            data = data.translate(_SCRIPT_CHARACTERS[script])
        self.text.append(data)


def _wrap(html: str) -> str:
    parts: list[str] = []
    wrapped: list[bool] = []  # one per open table: whether its closing tag closes a box too
    position = 0
    for tag in TABLE_TAG.finditer(html):
        parts.append(html[position : tag.start()])
        position = tag.end()
        if tag.group(0) == "</table>":
            parts.append("</table>" + (CLOSE if wrapped and wrapped.pop() else ""))
            continue
        attributes = tag.group(1) or ""
        classless = CLASS_ATTRIBUTE.search(attributes) is None
        wrapped.append(classless)
        parts.append(f'{OPEN}<table class="{CLASS}"{attributes}>' if classless else tag.group(0))
    parts.append(html[position:])
    return "".join(parts)


def material_stylesheet(theme_dirs: list[str]) -> str:
    """The text of Material's main stylesheet, from the first theme folder that serves one."""
    for folder in theme_dirs:
        for path in sorted(Path(folder).glob(STYLESHEET_GLOB)):
            return path.read_text(encoding="utf-8")
    raise TableStyleError(f"no {STYLESHEET_GLOB} in the theme's folders {theme_dirs}: is mkdocs-material installed?")


def retargeted_rules(stylesheet: str) -> str:
    """Material's rules for tables without a class, each selector that names them rewritten for CLASS, kept
    inside its @media or @supports block and in the stylesheet's order."""
    rules = "".join(_retarget(stylesheet))
    if f"table.{CLASS}{{" not in rules.replace(" ", ""):
        raise TableStyleError(
            f"Material's stylesheet has no rule for `.md-typeset {MATERIAL_SELECTOR}` any more: "
            "hooks/site/tables.py wraps tables for a script that no longer does so; check mkdocs-material's release"
        )
    return rules


def _retarget(css: str) -> list[str]:
    """The rules of `css` (and of its @media and @supports blocks) that name MATERIAL_SELECTOR, rewritten."""
    out = []
    for prelude, body in _blocks(css):
        if prelude.startswith(("@media", "@supports")):
            inner = _retarget(body)
            if inner:
                out.append(prelude + "{" + "".join(inner) + "}")
        elif not prelude.startswith("@"):
            selectors = [s for s in prelude.split(",") if MATERIAL_SELECTOR in s]
            if selectors:
                retargeted = ",".join(s.replace(MATERIAL_SELECTOR, f"table.{CLASS}") for s in selectors)
                out.append(retargeted + "{" + body + "}")
    return out


def _blocks(css: str) -> list[tuple[str, str]]:
    """The top-level blocks of a stylesheet as (prelude, body); a body may hold blocks of its own."""
    css = COMMENT.sub("", css)
    blocks = []
    start = opening = depth = 0
    for brace in BRACE.finditer(css):
        if brace.group() == "{":
            depth += 1
            if depth == 1:
                opening = brace.start()
        else:
            depth -= 1
            if depth == 0:
                prelude = css[start:opening].rsplit(";", 1)[-1].strip()  # after a statement: @charset "UTF-8";
                blocks.append((prelude, css[opening + 1 : brace.start()]))
                start = brace.end()
    return blocks
