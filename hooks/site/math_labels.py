"""A name for a link, a table header or a heading that holds nothing but a formula.

KaTeX writes each formula twice: MathML for assistive technology, and HTML for the eye (aria-hidden).
axe-core, and with it Lighthouse, takes no element's name from MathML, so a link that is only $`k_3`$
(a glossary link, say) has "no discernible text" and a header cell that is only $`c`$ is "empty". The
formula as its MathML reads, in Unicode (k3, πθ(o∣q)), names such an element: a link gets it as its
aria-label and keeps its MathML; a header cell or a heading, which axe wants text in, gets it as text
that only screen readers see, and its formula is hidden from them instead, so that it is read once.

The search index leaves out the TeX: Material's search plugin indexes a page's text, and would take each
formula's TeX annotation with its MathML ("\\pi_{\\theta}" in a result's preview). The annotation carries
Material's `data-search-exclude`. KaTeX's HTML for the eye cannot, and stays indexed beside the MathML: the
plugin matches excluded elements by tag name, so the first nested </span> would end the exclusion
(mkdocs-material 9.8.1, material/plugins/search/plugin.py, Parser.handle_endtag).
"""

from __future__ import annotations

import html
import re

_OPENING = re.compile(r"<(a|th|h[1-6])(\s[^>]*)?>(?=\s*<span class=\"katex\">)")
_SPAN = re.compile(r"<span\b|</span>")
_MATH = re.compile(r"<math\b.*?</math>", re.DOTALL)
_ANNOTATION = re.compile(r"<annotation\b.*?</annotation>", re.DOTALL)
_TAG = re.compile(r"<[^>]+>")
_TEX_ANNOTATION = '<annotation encoding="application/x-tex">'  # as KaTeX opens it (katex_render.js)


def tex_not_indexed(page: str) -> str:
    """The page's HTML with each formula's TeX annotation kept out of the search index."""
    return page.replace(_TEX_ANNOTATION, _TEX_ANNOTATION[:-1] + " data-search-exclude>")


def label_lone_formulas(page: str) -> str:
    """The page's HTML with an aria-label on every a, th or heading whose whole content is one formula."""
    out, pos = [], 0
    for opening in _OPENING.finditer(page):
        element, attributes = opening.group(1), opening.group(2) or ""
        formula_end = _end_of_formula(page, page.index('<span class="katex">', opening.end()))
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
            katex = page.index('<span class="katex">', opening.end())
            out.append(f'{page[opening.start() : katex]}<span class="grpo-sr-only">{label}</span>')
            out.append('<span class="katex" aria-hidden="true">')
            pos = katex + len('<span class="katex">')
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
    """The text of the formula's MathML, without its TeX annotation: what a screen reader reads."""
    math = _MATH.search(formula)
    if math is None:
        return ""
    text = html.unescape(_TAG.sub("", _ANNOTATION.sub("", math.group())))
    return "".join(text.split())
