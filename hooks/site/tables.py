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


class TableStyleError(Exception):
    """Material's stylesheet is missing, or no longer styles tables the way this module retargets."""


def wrap(html: str) -> str:
    """Each table without a class, in Material's scroll box and marked with CLASS; other tables as they were."""
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
