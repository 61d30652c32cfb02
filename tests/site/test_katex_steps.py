"""A displayed formula with steps, as hooks/site/katex_render.js lays it out for a phone: its rows, each a left
side and steps ("= …"), each step its terms ("+ …", "− …"), and one MathML for the whole formula. The expected
cuts are written by hand from the TeX; tests/browser/test_phone_browser.py judges the layout on the book's pages."""

from __future__ import annotations

from html.parser import HTMLParser

import pytest

from hooks.site.katex import KatexRenderer
from tests.conftest import ROOT

Row = tuple[str | None, list[list[str]]]  # (the left side, or None in a gathered row; the steps, each its terms)


class _Steps(HTMLParser):
    """The rows of a rendered formula's steps, as the text each piece shows (KaTeX's spacing is margins)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.rows: list[Row] = []
        self.mathml = 0
        self._depth = 0
        self._left: list[str] | None = None
        self._left_depth = -1
        self._term_depth = -1
        self._step_depth = -1

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        classes = (dict(attrs).get("class") or "").split()
        self.mathml += tag == "math"
        if tag != "span":
            return
        self._depth += 1
        if "grpo-steps__left" in classes:
            self._left, self._left_depth = [], self._depth
        elif "grpo-steps__right" in classes:
            left = None if self._left is None else "".join(self._left)
            self.rows.append((left, []))
            self._left = None
        elif "grpo-steps__step" in classes:
            self.rows[-1][1].append([])
            self._step_depth = self._depth
        elif self._depth == self._step_depth + 1 and self._step_depth > 0:
            self.rows[-1][1][-1].append("")
            self._term_depth = self._depth

    def handle_endtag(self, tag: str) -> None:
        if tag != "span":
            return
        if self._depth == self._term_depth:
            self._term_depth = -1
        if self._depth == self._step_depth:
            self._step_depth = -1
        self._depth -= 1

    def handle_data(self, data: str) -> None:
        text = data.replace("\u200b", "").replace(" ", "")
        if self._term_depth > 0:
            self.rows[-1][1][-1][-1] += text
        elif self._left is not None:
            self._left.append(text)


def _rows(rendered: str) -> tuple[list[Row], int]:
    parser = _Steps()
    parser.feed(rendered.split('<span class="katex-html', 1)[1])  # the HTML for the eye, after the MathML
    return parser.rows, rendered.count("<math")


@pytest.fixture(scope="module")
def renderer() -> KatexRenderer:
    return KatexRenderer(ROOT / "node_modules" / "katex")


CASES: dict[str, tuple[str, list[Row]]] = {
    "a chain": (r"a = b + c - d = e", [("a", [["=b", "+c", "−d"], ["=e"]])]),
    "a bracket is one term": (r"x = 0.3 \times (2 - 1.2) = 0.24", [("x", [["=0.3×(2−1.2)"], ["=0.24"]])]),
    "a sign after a relation stays with its number": (r"A = -2.0", [("A", [["=−2.0"]])]),
    "a raised bracket closes": (
        r"v = \lVert x \rVert^2 + y \approx 1.5",
        [("v", [["=∥x∥2", "+y"], ["≈1.5"]])],
    ),
    "aligned rows": (
        r"\begin{aligned} J &= 0.3 \times 2 + 0.4 \\ &= 1.0 \end{aligned}",
        [("J", [["=0.3×2", "+0.4"]]), ("", [["=1.0"]])],
    ),
    "a gathered row that starts with its sign": (
        r"\begin{gathered} E = \sum_c p \\ {}= 0.2 + 0.1 = 0.3 \end{gathered}",
        [(None, [["E"], ["=c∑p"]]), (None, [["=0.2", "+0.1"], ["=0.3"]])],
    ),
}


@pytest.mark.parametrize("case", CASES)
def test_a_displayed_formula_is_cut_before_its_signs(renderer: KatexRenderer, case: str) -> None:
    tex, expected = CASES[case]
    rows, formulas = _rows(renderer.render(tex, display=True))
    assert rows == expected
    assert formulas == 1  # one MathML: a screen reader reads one formula


@pytest.mark.parametrize(
    "tex",
    [r"\sum_{i=1}^{G} r_i", r"a = b \tag{1}", r"= b", r"\begin{cases} a = 1 & x \\ b & y \end{cases}"],
)
def test_a_formula_without_steps_is_katexs_own_display(renderer: KatexRenderer, tex: str) -> None:
    rendered = renderer.render(tex, display=True)
    assert "grpo-steps" not in rendered and rendered.startswith('<span class="katex-display">')
