"""The author's guide as the real build publishes it: each placeholder it shows beside its result renders that
result, what it shows as code stays literal while the live placeholders expand, every page is built and in
the nav, and its drift-guard example is what the guard says.

The guide's own blocks and the placeholders it offers to copy are checked on the page hook alone in
tests/hooks/test_guide.py; here the built HTML is read.
"""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest

from hooks import checks
from hooks.engine.guide import guard_message
from tests.chapter_pipeline import page_markdown, value_span
from tests.conftest import ROOT
from tests.site_html import article, code_texts, computed_values, formulas_tex, page_html, visible_text

GUIDE = ROOT / "docs" / "guide"
PAGES = sorted(page.stem for page in GUIDE.glob("*.md"))  # every page of the guide, found, not listed by hand
PLACEHOLDER = re.compile(r"<!--\s*grpo:.*?-->")
SOURCE_ROW = re.compile(r"^\| `(<!-- grpo:[^`]*-->)` \| (.*) \|$", re.MULTILINE)
BUILT_ROW = re.compile(r"<tr>\s*<td><code>(&lt;!-- grpo:.*?)</code></td>\s*<td>(.*?)</td>\s*</tr>", re.DOTALL)
MINUS = "\u2212"


def _site_page(name: str) -> str:
    """Where a guide page is built: 'guide' for docs/guide/index.md, 'guide/<name>' for the others."""
    return "guide" if name == "index" else f"guide/{name}"


def _table_rows(page: str) -> dict[str, str]:
    """For each row of the 'you write | the page shows' tables of a built page: the source, and the cell beside it."""
    return {visible_text(source): shown for source, shown in BUILT_ROW.findall(page)}


# What the placeholders page's rows must show, worked out by hand:
# easy's rewards are [1, 1, 1, 1, 0] (grpo_examples/data/groups.toml: four \boxed{56}, one \boxed{54}): G = 5,
# mean 4/5 = 0.8, population std 0.4, advantages (1 - 0.8) / 0.4 = +0.5 and (0 - 0.8) / 0.4 = -2.0; the sample
# std is sqrt(0.8 * 0.2 * 5 / 4) = sqrt(0.2) = 0.44721...; four correct, so being right is four times as common.
# RLOO's advantage of the wrong answer: 0 minus the mean of the other four rewards, 1, is -1.0.
# run.toml says steps = 60.
# The bandit (bandit.toml): probabilities (0.3, 0.4, 0.2, 0.1), rewards accuracy + format (2, 1, 1, 0), so
# J = 1.2. The score of candidate a is e_a - pi, |score|^2 = 1 - 2 pi_a + 0.3: (0.7, 0.5, 0.9, 1.1). Without a
# baseline E[r^2 |s|^2] = 0.84 + 0.2 + 0.18 = 1.22, |E[r s]|^2 = |pi_a (r_a - J)|^2 = 0.08: variance 1.14. With
# b = J, E[(r - J)^2 |s|^2] = 0.1344 + 0.008 + 0.0072 + 0.1584 = 0.308, variance 0.228: 1.14 / 0.228 = five times.
# The KL example's first token (practice.toml): pi_theta 0.8, pi_ref 0.5, r = 0.625;
# k3 = (r - 1) - log r = -0.375 + 0.470004 = 0.0950036...
BY_HAND = {
    "<!-- grpo:value easy.mean -->": "0.8",
    "<!-- grpo:value easy.advantage.wrong -->": f"{MINUS}2.0",
    "<!-- grpo:value easy.advantage.correct -->": "+0.5",
    "<!-- grpo:value easy.std-sample -->": "≈\u00a00.4472",
    "<!-- grpo:value easy.G -->": "5",
    "<!-- grpo:value easy.count.correct as=words -->": "four",
    "<!-- grpo:value easy.rare-to-common as=words -->": "four times",
    "<!-- grpo:value easy.question -->": "What is 7 × 8?",
    "<!-- grpo:value easy.variants.rloo.advantage.wrong -->": f"{MINUS}1.0",
    "<!-- grpo:value run.steps -->": "60",
    "<!-- grpo:value bandit.baselines.none.variance -->": "1.14",
    "<!-- grpo:value bandit.reduction as=words -->": "five times",
    "<!-- grpo:value practice.kl.worked.k3 -->": "≈\u00a00.0950",
}


def test_each_value_in_the_guide_is_rendered_by_the_placeholder_it_shows(built_site: Path) -> None:
    source = (GUIDE / "placeholders.md").read_text(encoding="utf-8")
    written = [placeholder for placeholder, _ in SOURCE_ROW.findall(source)]
    assert len(written) >= 10, "the placeholders page no longer has its 'you write | the page shows' tables"
    rows = _table_rows(page_html(built_site, "guide/placeholders"))
    assert sorted(rows) == sorted(written)
    for placeholder in written:
        cell = rows[placeholder]
        # The page hook, given the source the row shows, writes what the build put beside it.
        rendered = page_markdown(placeholder)
        if "grpo:value" in placeholder:
            [(expression, shown)] = computed_values(cell)
            title = f"Computed at build time: {expression}"  # the engine's tooltip, which the site made a popover
            expected = tuple(map(html.unescape, value_span(rendered)))
            assert (html.unescape(title), html.unescape(shown)) == expected, placeholder
            if placeholder in BY_HAND:
                assert html.unescape(shown) == BY_HAND[placeholder], placeholder
        else:
            assert rendered.startswith("$`") and rendered.endswith("`$"), rendered  # an inline formula
            assert formulas_tex(cell) == [rendered[2:-2]], placeholder
    assert set(BY_HAND) <= set(rows), "a row worked out by hand is gone from the placeholders page"
    # The two formulas, by hand: easy's rewards, and its mean 4/5.
    assert formulas_tex(rows["<!-- grpo:formula easy.rewards -->"])[0].endswith("= (1, 1, 1, 1, 0)")
    assert r"= \frac{4}{5} = 0.8" in formulas_tex(rows["<!-- grpo:formula easy.mean -->"])[0]


def _in_code(source: str) -> list[str]:
    """The placeholders a page's source writes as code (in `inline code` or a fenced block), for a reader to copy."""
    found: list[str] = []
    fence = ""
    for line in source.splitlines():
        opening = re.match(r"\s*(`{3,}|~{3,})", line)
        if fence:
            if line.strip() == fence:
                fence = ""
            else:
                found += PLACEHOLDER.findall(line)
        elif opening:
            fence = opening.group(1)
        else:
            for _, code in re.findall(r"(`+)(.+?)\1", line):
                found += PLACEHOLDER.findall(code)
    return found


@pytest.mark.parametrize("name", PAGES)
def test_the_guide_shows_the_placeholders_literally_and_expands_the_live_ones(built_site: Path, name: str) -> None:
    page = page_html(built_site, _site_page(name))
    assert "<!-- grpo:" not in page  # no live placeholder left unexpanded
    shown = "\n".join(code_texts(article(page)))
    for placeholder in _in_code((GUIDE / f"{name}.md").read_text(encoding="utf-8")):
        assert placeholder in shown, f"docs/guide/{name}.md shows {placeholder} as code; the built page does not"


def test_the_placeholders_page_shows_each_source_then_its_result(built_site: Path) -> None:
    page = article(page_html(built_site, "guide/placeholders"))

    def after(placeholder: str) -> str:
        """The page from the code block that shows the placeholder to the next heading: the source, then its result."""
        start = page.index(html.escape(placeholder, quote=False))
        return page[start : page.index("<h2", start)]

    display = after("<!-- grpo:formula easy.advantage.wrong display -->")
    assert display.count('class="katex-display"') == 1
    compare = after("<!-- grpo:block compare easy hard -->")
    compare = compare[: compare.index("</details>")]  # to the end of the note the block ends with
    assert compare.count('<table class="grpo-table') == 1 and "How these numbers were computed" in compare
    assert {"grpo_examples.group('easy')", "grpo_examples.group('hard')"} <= set(code_texts(compare))
    check = after("<!-- grpo:check easy.claims.wrong-is-rare -->")
    assert re.search(r"<p>On the easy problem, being wrong is rare\.\s*</p>", check), check  # the check shows nothing


def _active_section(page: str) -> str | None:
    """The section of the nav a built page marks as its own (Material marks it active), to the end of its list."""
    start = page.find('<li class="md-nav__item md-nav__item--active md-nav__item--section')
    return None if start < 0 else page[start : page.index("</nav>", start)]


@pytest.mark.parametrize("name", PAGES)
def test_every_guide_page_is_built_and_in_the_nav(built_site: Path, name: str) -> None:
    built = built_site / _site_page(name) / "index.html"
    assert built.is_file(), f"docs/guide/{name}.md was not built"
    # On its own page, the page is the active entry of the nav, in the active section "Writing the book".
    section = _active_section(built.read_text(encoding="utf-8"))
    assert section is not None, f"docs/guide/{name}.md is built, but in no section of the nav"
    title = re.search(r'<label class="md-nav__title"[^>]*>\s*<span[^>]*></span>\s*([^<]*?)\s*</label>', section)
    assert title is not None and title.group(1) == "Writing the book", f"docs/guide/{name}.md is in another section"
    assert '<a href="./" class="md-nav__link md-nav__link--active">' in section, f"the nav does not mark {name}"
    # From the home page, the nav links to it.
    home = page_html(built_site, "")
    assert f'<a href="{_site_page(name)}/" class="md-nav__link' in home, f"the home page's nav has no {name}"


def test_the_guard_example_in_the_guide_is_what_the_guard_says(built_site: Path) -> None:
    page = article(page_html(built_site, "guide/drift-guard"))
    # The example as the page shows it: "Line N of a page that reads", the line, then the build's message.
    line = re.search(r"<p>Line (\d+) of a page that reads</p>", page)
    assert line is not None, "the drift guard page no longer shows its example"
    example, shown = (text.rstrip("\n") for text in code_texts(page[line.end() :])[:2])
    # "The baseline is " is 16 characters: the 0.8 is in column 17. The easy group's mean is 4/5 = 0.8.
    assert example == "The baseline is 0.8 for the group above." and line.group(1) == "12"
    message = guard_message(checks.book(), example, "docs/example.md", int(line.group(1)))
    assert message.startswith("docs/example.md:12:17: typed number 0.8 (decimal) is easy.mean")
    assert "write <!-- grpo:value easy.mean -->" in message.splitlines()[0]
    assert shown == message
