"""Each page preloads the KaTeX fonts most of its formulas are set in (hooks/site/katex_fonts.py).

These tests read the package's KaTeX stylesheet, which the build serves with each font's woff2 source alone, the
one these rules read (tests/site/test_shipped.py); what each rule picks was checked by hand against that file
(`.katex .mathnormal{font-family:KaTeX_Math; font-style:italic}` and the @font-face for KaTeX_Math italic, and so
on). The browser test
(tests/browser/test_katex_fonts_browser.py) is the judge: with the preloads taken out, Chromium asks, on every
page, for exactly the fonts the module reads from the page's classes, and so for every font preloaded:
nothing is preloaded in vain.
"""

from __future__ import annotations

import pytest

from hooks.site.katex import STYLESHEET
from hooks.site.katex_fonts import FontRule, font_rules, fonts_to_preload, fonts_used
from tests.conftest import ROOT
from tests.site_html import KATEX_MAIN, KATEX_MATH

KATEX_STYLESHEET = ROOT / "node_modules" / "katex" / "dist" / STYLESHEET
Rules = tuple[str, list[FontRule]]


@pytest.fixture(scope="module")
def rules() -> Rules:
    return font_rules(KATEX_STYLESHEET.read_text(encoding="utf-8"))


def _formula(*classes: str) -> str:
    spans = "".join(f'<span class="{c}">x</span>' for c in classes)
    return f'<p><span class="katex"><span class="katex-html">{spans}</span></span></p>'


def test_a_formula_needs_katex_main_and_its_letters_katex_math_italic(rules: Rules) -> None:
    assert fonts_used(_formula("mord mathnormal"), *rules) == [KATEX_MAIN, KATEX_MATH]


def test_a_page_without_math_preloads_nothing(rules: Rules) -> None:
    assert fonts_used('<p class="mathnormal size1">prose</p>', *rules) == []


def test_a_page_preloads_the_fonts_half_its_formulas_need_and_leaves_the_rare_ones() -> None:
    rules = font_rules(KATEX_STYLESHEET.read_text(encoding="utf-8"))
    size1 = "fonts/KaTeX_Size1-Regular.woff2"
    page = _formula("mord mathnormal") + _formula("mord mathnormal") + _formula("mord", "delimsizing size1")
    assert fonts_to_preload(page, *rules) == [KATEX_MAIN, KATEX_MATH]  # Size1: one formula in three
    two_of_four = page + _formula("delimsizing size1")
    assert fonts_to_preload(two_of_four, *rules) == sorted([KATEX_MAIN, KATEX_MATH, size1])
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
