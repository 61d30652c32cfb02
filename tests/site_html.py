"""Reading the built site the way a test needs it: page text, formulas' TeX, resource URLs."""

from __future__ import annotations

import html
import re
from pathlib import Path

from hooks.engine.numbers import MINUS

_BLOCK_TAG = re.compile(r"</?(?:p|div|td|th|tr|li|ul|ol|h[1-6]|br|table|details|summary|figure|figcaption)\b[^>]*>")
_TAG = re.compile(r"<[^>]+>")
_CODE = re.compile(r"<code\b[^>]*>(.*?)</code>", re.DOTALL)
_ANNOTATION = re.compile(r'<annotation encoding="application/x-tex"[^>]*>(.*?)</annotation>', re.DOTALL)
_RESOURCE = re.compile(r'<(?:script|img|iframe|source|video|audio)\b[^>]*?\bsrc="([^"]+)"', re.IGNORECASE)
_LINK = re.compile(r"<link\b[^>]*>", re.IGNORECASE)
_LOADING_REL = re.compile(r'\brel="(?:stylesheet|icon|preload|modulepreload|manifest|apple-touch-icon)"')
_HREF = re.compile(r'\bhref="([^"]+)"')
_CSS_URL = re.compile(r"url\(\s*['\"]?([^'\")]+)")
# A page's preload of a KaTeX font (overrides/partials/katex-fonts.html); the group is the font's path under katex/.
KATEX_FONT_PRELOAD = re.compile(
    r'<link rel="preload" href="[^"]*/katex/(fonts/[^"]+\.woff2)" as="font" type="font/woff2" crossorigin>'
)
# The two KaTeX fonts nearly every formula is set in: KaTeX_Main for digits and operators, KaTeX_Math for letters.
KATEX_MAIN, KATEX_MATH = "fonts/KaTeX_Main-Regular.woff2", "fonts/KaTeX_Math-Italic.woff2"


# A computed value as the site shows it (hooks/site/provenance.py): a button, and the popover it opens.
_VALUE = re.compile(
    r'<button type="button" class="grpo-value" popovertarget="(?P<target>[^"]*)">(?P<shown>[^<]*)</button>'
    r'<span class="grpo-why" id="(?P=target)" popover data-search-exclude>Computed at build time: '
    r"<code>(?P<expression>.*?)</code></span>",
    re.DOTALL,
)


def computed_values(fragment: str) -> list[tuple[str, str]]:
    """Each computed value of the HTML, in order: (the expression its popover names, the text shown), both
    still HTML-escaped."""
    return [(m["expression"].replace("<wbr>", ""), m["shown"]) for m in _VALUE.finditer(fragment)]


def page_html(site: Path, page: str) -> str:
    return (site / page / "index.html").read_text(encoding="utf-8")


def article(page: str) -> str:
    """The chapter's own content, without the theme's navigation around it."""
    start = page.index('<article class="md-content__inner')
    return page[start : page.index("</article>", start)]


def visible_text(fragment: str) -> str:
    """Text as a reader sees it, without KaTeX's MathML copy, whitespace folded, minus signs plain."""
    fragment = re.sub(r'<span class="katex-mathml">.*?</math></span>', " ", fragment, flags=re.DOTALL)
    fragment = re.sub(r'<span class="grpo-why"[^>]*>.*?</span>', "", fragment, flags=re.DOTALL)  # until opened
    fragment = re.sub(r"<(script|style)\b.*?</\1>", " ", fragment, flags=re.DOTALL)
    text = html.unescape(_TAG.sub("", _BLOCK_TAG.sub(" ", fragment)))
    return re.sub(r"\s+", " ", text.replace(MINUS, "-")).strip()


def code_texts(fragment: str) -> list[str]:
    """The text of every <code> element (inline code, and each code block), as a reader reads it: the
    highlighter's spans and line anchors dropped, entities unescaped."""
    return [html.unescape(_TAG.sub("", code)) for code in _CODE.findall(fragment)]


def formulas_tex(fragment: str) -> list[str]:
    """The TeX of every formula KaTeX rendered (KaTeX keeps it in the MathML annotation)."""
    return [html.unescape(tex).strip() for tex in _ANNOTATION.findall(fragment)]


def resource_urls(fragment: str) -> list[str]:
    """Every URL the page would fetch: scripts, stylesheets, icons, images (not links such as rel=canonical)."""
    links = [tag for tag in _LINK.findall(fragment) if _LOADING_REL.search(tag)]
    return _RESOURCE.findall(fragment) + [m.group(1) for tag in links if (m := _HREF.search(tag))]


def preloaded_fonts(page: str) -> list[str]:
    """The KaTeX fonts a built page preloads, sorted: 'fonts/KaTeX_Main-Regular.woff2', ..."""
    return sorted(KATEX_FONT_PRELOAD.findall(page))


def css_urls(stylesheet: str) -> list[str]:
    return [url for url in _CSS_URL.findall(stylesheet) if not url.startswith("data:")]


def site_pages(site: Path) -> list[str]:
    """Every page of a built site, found in the build (not listed by hand): '' for the home page, 'grpo/', ..."""
    pages = [index.parent.relative_to(site).as_posix() for index in site.rglob("index.html")]
    return sorted("" if page == "." else page + "/" for page in pages)
