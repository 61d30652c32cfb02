"""A formula as text: the name of a link, a table header or a heading that holds nothing else, and what search reads.

KaTeX writes each formula twice: MathML for assistive technology, and HTML for the eye (aria-hidden).
axe-core, and with it Lighthouse, takes no element's name from MathML, so a link that is only $`k_3`$
(a glossary link, say) has "no discernible text" and a header cell that is only $`c`$ is "empty". The
formula as its MathML reads, in Unicode (k3, πθ(o∣q)), names such an element: a link gets it as its
aria-label and keeps its MathML; a header cell or a heading, which axe wants text in, gets it as text
that only screen readers see, and its formula is hidden from them instead, so that it is read once.

The search index reads each formula once, as its MathML reads. Material's search plugin indexes a page's text, and
would take all three of KaTeX's copies: the MathML, its TeX annotation ("\\pi_{\\theta}" in a result's preview)
and the HTML for the eye ("πθ​" again, with KaTeX's zero-width spaces). Its `data-search-exclude` cannot hide the
HTML: the plugin matches excluded elements by tag name, so the first nested </span> would end the exclusion
(mkdocs-material 9.8.1, material/plugins/search/plugin.py, Parser.handle_endtag). So the plugin is handed the page
with each formula as its MathML text (`searchable`), and the page is given back whole once it has read it
(hooks/events.py). It then parses a seventh of the tags: /ppo/ is parsed in 12 ms instead of 62, the
making of the text included (benchmarks/rationale.md).
"""

from __future__ import annotations

import html
import re

_OPENING = re.compile(r"<(a|th|h[1-6])(\s[^>]*)?>(?=\s*<span class=\"katex\">)")
_SPAN = re.compile(r"<span\b|</span>")
_MATH = re.compile(r"<math\b.*?</math>", re.DOTALL)
_ANNOTATION = re.compile(r"<annotation\b.*?</annotation>", re.DOTALL)
_TAG = re.compile(r"<[^>]+>")
_KATEX = '<span class="katex">'  # each formula's outer span, as KaTeX writes it
_KATEX_EITHER = '<span class="katex"'  # that span, hidden or not
_HIDDEN_KATEX = '<span class="katex" aria-hidden="true">'  # as label_lone_formulas marks one whose text is beside it


def searchable(page: str) -> str:
    """The page's HTML with each formula as the text of its MathML, for the search index to read once.

    A formula hidden from screen readers (label_lone_formulas gave its element the text) is left out; a span
    that does not close is left as it is."""
    out, pos = [], 0
    while (start := page.find(_KATEX_EITHER, pos)) != -1:
        end = _end_of_formula(page, start)
        if end == len(page):
            break
        out.append(page[pos:start])
        if not page.startswith(_HIDDEN_KATEX, start):
            out.append(html.escape(_mathml_text(page[start:end]), quote=False))
        pos = end
    out.append(page[pos:])
    return "".join(out)


def label_lone_formulas(page: str) -> str:
    """The page's HTML with an aria-label on every a, th or heading whose whole content is one formula."""
    out, pos = [], 0
    for opening in _OPENING.finditer(page):
        element, attributes = opening.group(1), opening.group(2) or ""
        formula_end = _end_of_formula(page, page.index(_KATEX, opening.end()))
        closing = re.compile(rf"\s*</{element}>").match(page, formula_end)
        if closing is None or "aria-label" in attributes:
            continue  # the formula is not all the element holds, or the element is named already
        label = html.escape(_spoken(page[opening.end() : formula_end]), quote=True)
        if not label:
            continue
        out.append(page[pos : opening.start()])
        if element == "a":
            out.append(f'<a{attributes} aria-label="{label}">')
            pos = opening.end()
        else:
            katex = page.index(_KATEX, opening.end())
            out.append(f'{page[opening.start() : katex]}<span class="grpo-sr-only">{label}</span>{_HIDDEN_KATEX}')
            pos = katex + len(_KATEX)
    out.append(page[pos:])
    return "".join(out)


def _end_of_formula(page: str, start: int) -> int:
    """Where the <span class="katex"> that opens at start closes (KaTeX's spans nest, and only spans)."""
    depth = 0
    for tag in _SPAN.finditer(page, start):
        depth += 1 if tag.group() == "<span" else -1
        if depth == 0:
            return tag.end()
    return len(page)


def _spoken(formula: str) -> str:
    """The text of the formula's MathML with no spaces: an element's name."""
    return "".join(_mathml_text(formula).split())


def _mathml_text(formula: str) -> str:
    """The text of the formula's MathML, without its TeX annotation: what a screen reader reads."""
    math = _MATH.search(formula)
    return html.unescape(_TAG.sub("", _ANNOTATION.sub("", math.group()))) if math is not None else ""
