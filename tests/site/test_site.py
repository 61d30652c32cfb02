"""The built site: the chapter shows the spec's numbers in their places, KaTeX rendered every formula on the
server, and nothing is loaded from another host."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from hooks.checks import book
from hooks.engine import scan
from hooks.engine.placeholders import expand
from hooks.site.katex_fonts import woff2_only
from tests.conftest import ROOT
from tests.site_html import article, code_texts, css_urls, formulas_tex, page_html, resource_urls, visible_text


@pytest.fixture(scope="module")
def chapter(built_site: Path) -> str:
    return article(page_html(built_site, "grpo"))


def test_worked_example_carries_every_step_of_the_spec(chapter: str) -> None:
    tex = formulas_tex(chapter)
    assert r"\mu = \frac{1+1+1+1+0}{5} = \frac{4}{5} = 0.8" in tex
    assert r"\sigma^2 = p(1-p) = 0.8 \times 0.2 = 0.16" in tex
    assert r"\sigma = \sqrt{0.16} = 0.4" in tex
    assert any(r"\frac{1 - 0.8}{0.4} = \frac{0.2}{0.4} = +0.5" in t for t in tex)
    assert any(r"\frac{0 - 0.8}{0.4} = \frac{-0.8}{0.4} = -2.0" in t for t in tex)
    text = visible_text(chapter)
    assert "this is a Bernoulli group" in text
    assert "four times a correct response's, only because being wrong was rare in this group" in text


def test_two_groups_carry_the_spec_numbers(chapter: str) -> None:
    text = visible_text(chapter)
    assert "On the easy problem four of five responses are correct" in text
    assert "its advantage is -2.0" in text
    assert "modest +0.5 each" in text
    assert "only one of five is correct" in text
    assert "+2.0, while each wrong response drops only to -0.5" in text
    assert "| " not in text, "a Markdown table was left unrendered"


def test_scale_is_taught_with_both_groups(chapter: str) -> None:
    # The spec: an agreeing group's rare outcome gets -2.0 against +-1.0 for the split group [1, 1, 0, 0].
    text = visible_text(chapter)
    assert "1, 1, 1, 1, 0 +0.2, -0.8 0.4 +0.5, -2.0 1.0" in text
    assert "1, 1, 0, 0 +0.5, -0.5 0.5 +1.0, -1.0 1.0" in text


def test_trainer_numbers_name_their_trainer(chapter: str) -> None:
    text = visible_text(chapter)
    # By hand: sample std of [1, 1, 1, 1, 0] is sqrt(0.2) = 0.44721; 0.2 / (0.44721 + 1e-4) = 0.44711 and
    # -0.8 / (0.44721 + 1e-4) = -1.78845 (TRL); with 1e-6, 0.44721 and -1.78885 (verl).
    assert "TRL: sample std + 1e-4 G - 1 ≈ 0.4472 ≈ +0.4471 ≈ -1.7885" in text
    assert "verl: sample std + 1e-6 G - 1 ≈ 0.4472 ≈ +0.4472 ≈ -1.7889" in text


def test_computed_blocks_say_how_they_were_computed(chapter: str) -> None:
    assert chapter.count("How these numbers were computed") >= 4
    # The worked example's note: the call that computes the easy group, as a reader can run it, and its data.
    worked = chapter[chapter.index("Worked example: the easy group") :]
    note = worked[worked.index("How these numbers were computed") : worked.index("</details>")]
    assert "grpo_examples.group('easy')" in code_texts(note)
    assert "grpo_examples/data/groups.toml [easy]" in code_texts(note)
    # a long path may wrap at its slashes and dots on a phone (hooks/site/code_breaks.py), not inside a word
    assert "<code>grpo_<wbr>examples/<wbr>data/<wbr>groups.<wbr>toml [easy]</code>" in note


def test_every_formula_was_rendered_on_the_server(built_site: Path) -> None:
    for page in built_site.rglob("*.html"):
        text = page.read_text(encoding="utf-8")
        assert "$`" not in text and "```math" not in text, page
        assert "tmp_inline_md_katex" not in text and "tmp_block_md_katex" not in text, page
        assert "<!-- grpo" not in text, page
        assert "katex.min.js" not in text and "auto-render" not in text, f"{page} runs math JavaScript"
    chapter_html = page_html(built_site, "grpo")
    source = (ROOT / "docs" / "grpo.md").read_text(encoding="utf-8")
    written = list(scan.formulas(expand(book(), source).markdown))
    assert chapter_html.count('class="katex"') == len(written) > 20
    assert 'class="katex-display"' in chapter_html
    assert "<math" in chapter_html, "KaTeX's MathML is kept for screen readers"


def test_katex_assets_match_the_katex_that_rendered(built_site: Path) -> None:
    katex = ROOT / "node_modules" / "katex"
    version = json.loads((katex / "package.json").read_text())["version"]
    assert json.loads((ROOT / "package.json").read_text())["dependencies"]["katex"] == version
    served = built_site / "assets" / "katex" / "katex-swap.min.css"
    package = katex / "dist" / "katex-swap.min.css"  # served with each font's woff2 alone: tests/site/test_shipped.py
    assert served.read_text() == woff2_only(package.read_text(), str(package))
    for url in css_urls(served.read_text()):
        assert (served.parent / url).is_file(), f"KaTeX's stylesheet needs {url}"
    assert 'href="../assets/katex/katex-swap.min.css"' in page_html(built_site, "grpo")


def test_no_page_loads_anything_from_another_host(built_site: Path) -> None:
    for page in built_site.rglob("*.html"):
        for url in resource_urls(page.read_text(encoding="utf-8")):
            assert not re.match(r"(https?:)?//", url), f"{page.relative_to(built_site)} loads {url}"
    for stylesheet in built_site.rglob("*.css"):
        for url in css_urls(stylesheet.read_text(encoding="utf-8")):
            assert not re.match(r"(https?:)?//", url), f"{stylesheet.relative_to(built_site)} loads {url}"
    assert "fonts.googleapis" not in page_html(built_site, "grpo")


def test_no_line_ends_on_the_approximately_of_a_number(built_site: Path) -> None:
    """A rounded number's '≈' and a tiny one's '× 10⁻⁸' are bound to its digits by no-break spaces: in a phone's
    narrow table cell, a '≈' alone at the end of a line with '0.4472' on the next reads as two things."""
    breakable = re.compile(r"≈[ \t\r\n]|[ \t\r\n]×[ \t\r\n\u00a0]10[⁻⁰¹²³⁴⁵⁶⁷⁸⁹]|×[ \t\r\n]10[⁻⁰¹²³⁴⁵⁶⁷⁸⁹]")
    pages = sorted(built_site.rglob("*.html"))
    found = [
        f"{page.relative_to(built_site)}: {match.group()!r}"
        for page in pages
        for match in breakable.finditer(page.read_text(encoding="utf-8"))
    ]
    assert found == []
    assert sum(page.read_text(encoding="utf-8").count("≈\u00a0") for page in pages) > 100  # and it has many
