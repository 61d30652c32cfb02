"""Each page preloads the KaTeX fonts most of its formulas are set in (hooks/katex_fonts.py).

The unit tests read the KaTeX stylesheet the build serves; what each rule picks was checked by hand against
that file (`.katex .mathnormal{font-family:KaTeX_Math;font-style:italic}` and the @font-face for KaTeX_Math
italic, and so on). The browser test is the judge: with the preloads taken out, Chromium asks, on every
page, for exactly the fonts the module reads from the page's classes, and so for every font preloaded:
nothing is preloaded in vain.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Route

from hooks.katex import STYLESHEET
from hooks.katex_fonts import FontRule, font_rules, fonts_to_preload, fonts_used
from tests.conftest import FILLED_IN, LAID_OUT, ROOT, PublishedSite
from tests.site_html import site_pages

KATEX_STYLESHEET = ROOT / "node_modules" / "katex" / "dist" / STYLESHEET
PRELOAD = re.compile(
    r'<link rel="preload" href="[^"]*/katex/(fonts/[^"]+\.woff2)" as="font" type="font/woff2" crossorigin>'
)
MAIN, MATH = "fonts/KaTeX_Main-Regular.woff2", "fonts/KaTeX_Math-Italic.woff2"
Rules = tuple[str, list[FontRule]]


@pytest.fixture(scope="module")
def rules() -> Rules:
    return font_rules(KATEX_STYLESHEET.read_text(encoding="utf-8"))


def _formula(*classes: str) -> str:
    spans = "".join(f'<span class="{c}">x</span>' for c in classes)
    return f'<p><span class="katex"><span class="katex-html">{spans}</span></span></p>'


def test_a_formula_needs_katex_main_and_its_letters_katex_math_italic(rules: Rules) -> None:
    assert fonts_used(_formula("mord mathnormal"), *rules) == [MAIN, MATH]


def test_a_page_without_math_preloads_nothing(rules: Rules) -> None:
    assert fonts_used('<p class="mathnormal size1">prose</p>', *rules) == []


def test_a_page_preloads_the_fonts_half_its_formulas_need_and_leaves_the_rare_ones() -> None:
    rules = font_rules(KATEX_STYLESHEET.read_text(encoding="utf-8"))
    size1 = "fonts/KaTeX_Size1-Regular.woff2"
    page = _formula("mord mathnormal") + _formula("mord mathnormal") + _formula("mord", "delimsizing size1")
    assert fonts_to_preload(page, *rules) == [MAIN, MATH]  # Size1: one formula in three
    assert fonts_to_preload(page + _formula("delimsizing size1"), *rules) == sorted([MAIN, MATH, size1])  # 2 of 4
    assert fonts_to_preload("<p>No formula.</p>", *rules) == []


def test_a_compound_rule_needs_all_its_classes_on_one_element(rules: Rules) -> None:
    # `.katex .delimsizing.size1` sets KaTeX_Size1; the two classes on different elements do not
    assert "fonts/KaTeX_Size1-Regular.woff2" in fonts_used(_formula("delimsizing size1"), *rules)
    assert "fonts/KaTeX_Size1-Regular.woff2" not in fonts_used(_formula("delimsizing", "size1"), *rules)


@pytest.mark.parametrize(
    ("classes", "font"),
    [
        ("mord mathbf", "KaTeX_Main-Bold"),  # family and weight from one rule
        ("mord textbf", "KaTeX_Main-Bold"),  # weight alone: KaTeX_Main, the family .katex sets
        ("mord boldsymbol", "KaTeX_Math-BoldItalic"),
        ("mord amsrm", "KaTeX_AMS-Regular"),
        ("mop op-symbol large-op", "KaTeX_Size2-Regular"),
        ("mord mathcal", "KaTeX_Caligraphic-Regular"),
    ],
)
def test_each_rule_picks_the_face_it_names(rules: Rules, classes: str, font: str) -> None:
    assert f"fonts/{font}.woff2" in fonts_used(_formula(classes), *rules)


# Two frames, so that what was last added to the page is laid out and has asked for its fonts; then those.
LAID_OUT_AND_FONTS_LOADED = """() => new Promise(frame => requestAnimationFrame(() => requestAnimationFrame(frame)))
  .then(() => document.fonts.ready).then(() => true)"""


def _fonts_asked_for(context: BrowserContext, url: str) -> list[str]:
    """The KaTeX fonts Chromium asks for on a page served without its preloads: those its layout needs."""
    page = context.new_page()

    def without_preloads(route: Route) -> None:
        response = route.fetch()
        route.fulfill(response=response, body=PRELOAD.sub("", response.text()))

    page.route(url, without_preloads)
    fonts: set[str] = set()
    page.on("request", lambda r: fonts.add("fonts/" + Path(r.url).name) if r.resource_type == "font" else None)
    page.goto(url, wait_until="load")
    page.wait_for_function(FILLED_IN)  # the whole book's later chapters are in the page
    page.wait_for_function(LAID_OUT)  # a block is laid out, and asks for its fonts, near the screen or after
    page.evaluate(LAID_OUT_AND_FONTS_LOADED)
    page.close()
    return sorted(fonts)


@pytest.mark.browser
def test_every_page_preloads_fonts_chromium_asks_for(browser: Browser, published_site: PublishedSite) -> None:
    rules = font_rules(KATEX_STYLESHEET.read_text(encoding="utf-8"))
    pages = site_pages(published_site.site)
    built = {page: (published_site.site / page / "index.html").read_text() for page in pages}
    preloaded = {page: sorted(PRELOAD.findall(html)) for page, html in built.items()}
    assert sum(map(bool, preloaded.values())) >= 8, "fewer than eight pages preload a KaTeX font"
    assert all(fonts == [MAIN, MATH] for fonts in preloaded.values() if fonts), preloaded  # in most formulas
    context = browser.new_context(viewport={"width": 412, "height": 823})
    asked = {page: _fonts_asked_for(context, published_site.url + page) for page in pages}
    context.close()
    assert asked == {page: fonts_used(html, *rules) for page, html in built.items()}
    assert all(set(preloaded[page]) <= set(asked[page]) for page in pages)
    assert any(set(asked[page]) - set(preloaded[page]) for page in pages), "no page has a rare font left to load"
