"""The hooks behind the policy-gradient chapter: the `bandit` namespace and its blocks, on the book's bandit.

Expected numbers are the chapter bandit's, worked out by hand in tests/test_reinforce.py: pi = (0.3, 0.4, 0.2,
0.1), rewards (2, 1, 1, 0), J = 1.2, grad J = (0.24, -0.08, -0.04, -0.12), Var(0) = 1.14, Var(J) = 0.228,
b* = 8/7, Var(b*) = 1.14 - 0.64/0.7 = 0.22571.
"""

from __future__ import annotations

import dataclasses
import re
import xml.etree.ElementTree as ET

import pytest

import hooks.bandit_values as bandit_values
from grpo_examples.bandit import load_bandit
from hooks.bandit_figures import BANDIT_BLOCKS
from hooks.bandit_values import BANDIT
from hooks.placeholders import PageError, expand

SVG = "{http://www.w3.org/2000/svg}"


def _shown(name: str, style: str = "") -> str:
    """What `<!-- grpo:value bandit.<name> -->` shows in a sentence."""
    option = f" as={style}" if style else ""
    html = expand(f"<!-- grpo:value bandit.{name}{option} -->", "t.md").markdown
    match = re.fullmatch(r'<span class="grpo-value" title="[^"]*">(.*)</span>', html)
    assert match, html
    return match.group(1)


@pytest.mark.parametrize(
    ("name", "shown"),
    [
        ("expected-reward", "1.2"),
        ("gradient.best", "+0.24"),
        ("gradient.2", "\u22120.08"),
        ("signal", "0.08"),
        ("variance.none", "1.14"),
        ("variance.expected", "0.228"),
        ("variance.optimal", "≈ 0.2257"),  # 1.14 - 0.64/0.7 = 0.225714...
        ("optimal-baseline", "≈ 1.1429"),  # 8/7
        ("group-variance.none", "0.1425"),  # 1.14 / 8
        ("group-variance.expected", "0.0285"),  # 0.228 / 8
        ("own.none.2", "+0.6"),  # reward 1 x (1 - 0.4)
        ("own.expected.2", "\u22120.12"),  # (1 - 1.2) x 0.6
        ("own.none.best", "+1.4"),  # 2 x (1 - 0.3)
        ("own.expected.4", "\u22121.08"),  # (0 - 1.2) x (1 - 0.1)
        ("reward.1", "2"),
        ("reward.4", "0"),
        ("max-reward", "2"),
        ("probability.4", "0.1"),
        ("best", "1"),
        ("G", "8"),
        ("question", "What is 12 × 15?"),
    ],
)
def test_values_by_hand(name: str, shown: str) -> None:
    assert _shown(name) == shown


def test_values_in_words() -> None:
    assert _shown("reduction", "words") == "five times"  # 1.14 / 0.228
    assert _shown("candidates", "words") == "four"


def test_a_candidate_the_bandit_lacks_is_named() -> None:
    with pytest.raises(PageError, match="the bandit has 4 candidates, there is no candidate 5"):
        expand("<!-- grpo:value bandit.probability.5 -->", "page.md")
    with pytest.raises(PageError, match=r"unknown bandit value 'probability\.9'.*hooks/bandit_values.py"):
        expand("<!-- grpo:value bandit.probability.9 -->", "page.md")


def _formula(name: str) -> str:
    return BANDIT.formulas[name]()


def test_formulas_by_hand() -> None:
    assert _formula("expected-reward").endswith(
        r"&= 0.3 \times 2 + 0.4 \times 1 + 0.2 \times 1 + 0.1 \times 0 = 1.2\end{aligned}"
    )
    assert r"= 0.3 \times (2 - 1.2) = +0.24" in _formula("gradient")
    assert r"= 0.1 \times (0 - 1.2) = -0.12" in _formula("gradient")
    assert _formula("score-mean").endswith(
        r"{}= 0.3 \times 0.7 + 0.4 \times (-0.3) + 0.2 \times (-0.3) + 0.1 \times (-0.3) = 0.0\end{gathered}"
    )
    assert r"&= 0.3 \times 2.0 + 0.4 \times 0.78 + 0.2 \times 1.1 + 0.1 \times 0.08 = 1.14" in _formula("variance.none")
    assert r"&= 0.3 \times 0.176 + 0.4 \times 0.06 + 0.2 \times 0.092 + 0.1 \times 1.328 = 0.228" in _formula(
        "variance.expected"
    )
    assert r"&= 1.14 - 2 \times 0.8\, b + 0.7\, b^2" in _formula("variance.quadratic")
    assert _formula("optimal-baseline").endswith(r"= \frac{0.8}{0.7} \approx 1.1429")


def test_every_claim_holds_for_the_books_bandit() -> None:
    page = "\n".join(
        f"<!-- grpo:check bandit {claim} -->"
        for claim in BANDIT.claims
        if not re.search(r"\.\d$", claim)  # per-candidate claims are about roles: checked one by one below
    )
    assert expand(page, "t.md").markdown.strip() == ""
    assert BANDIT.claims["below-average.2"]() and BANDIT.claims["earns-something.2"]()
    assert not BANDIT.claims["below-average.1"]()  # the best candidate is above average
    assert not BANDIT.claims["earns-something.4"]()  # the wrong answer without reasoning earns 0


def test_a_claim_other_settings_break_stops_the_page(monkeypatch: pytest.MonkeyPatch) -> None:
    """pi = (0.1, 0.2, 0.2, 0.5): J = 0.2 + 0.2 + 0.2 = 0.6, so candidate 2 (reward 1) is above average."""
    other = dataclasses.replace(load_bandit(), probabilities=(0.1, 0.2, 0.2, 0.5))
    monkeypatch.setattr(bandit_values, "load_bandit", lambda: other)
    with pytest.raises(PageError, match=r"page.md:1: the prose claims 'below-average.2', but the bandit says"):
        expand("<!-- grpo:check bandit below-average.2 -->", "page.md")
    assert _shown("expected-reward") == "0.6"


@pytest.mark.parametrize("name", sorted(BANDIT_BLOCKS))
def test_blocks_take_no_example(name: str) -> None:
    with pytest.raises(PageError, match="takes no example"):
        expand(f"<!-- grpo:block {name} easy -->", "page.md")


def test_every_block_ends_with_its_note() -> None:
    """The last thing of every block is its collapsed "How ... computed" note: nothing follows its indented body."""
    for name, block in BANDIT_BLOCKS.items():
        lines = block([]).splitlines()
        start = max(i for i, line in enumerate(lines) if line.startswith('??? abstract "How th'))
        assert all(line == "" or line.startswith("    ") for line in lines[start + 1 :]), name


def test_estimates_tables_by_hand() -> None:
    block = BANDIT_BLOCKS["bandit-estimates"]([])
    rows = [line for line in block.splitlines() if re.match(r"\| (\d|\*\*average)", line)]
    assert len(rows) == 2 * 5  # four candidates and the average, for b = 0 and for b = J
    assert rows[0] == '| 1 | 0.3 | 2 | <span class="grpo-vector">(+1.4, −0.8, −0.4, −0.2)</span> | 2.0 |'
    assert rows[4].endswith('| <span class="grpo-vector">(+0.24, −0.08, −0.04, −0.12)</span> | **1.14** |')
    assert rows[8] == '| 4 | 0.1 | −1.2 | <span class="grpo-vector">(+0.36, +0.48, +0.24, −1.08)</span> | 1.328 |'
    assert rows[9].endswith("| **0.228** |")


def test_menu_lists_the_candidates_with_their_rewards() -> None:
    block = BANDIT_BLOCKS["bandit-menu"]([])
    rows = [line for line in block.splitlines() if re.match(r"\| \d \|", line)]
    assert [row.split(" | ")[-2:] for row in rows] == [["2", "0.3 |"], ["1", "0.4 |"], ["1", "0.2 |"], ["0", "0.1 |"]]


def test_simulation_table_rows() -> None:
    block = BANDIT_BLOCKS["bandit-simulation-table"]([])
    rows = [line for line in block.splitlines() if line.startswith(("| no baseline", "| b = J", "| leave-one-out"))]
    assert len(rows) == 3
    assert "| +0.24 |" in rows[0] and "| 0.1425 |" in rows[0]  # exact: grad J entry, 1.14 / 8
    assert "| 0.0285 |" in rows[1]  # 0.228 / 8
    assert rows[2].count("| — |") == 2  # leave-one-out has no exact sum


def _svg(name: str) -> ET.Element:
    block = BANDIT_BLOCKS[name]([])
    figure = ET.fromstring(block.split("\n\n")[0])
    assert figure.find("figcaption") is not None and (figure.findtext("figcaption") or "").strip()
    svg = figure.find(f"{SVG}svg")
    assert svg is not None and svg.get("role") == "img"
    ids = set((svg.get("aria-labelledby") or "").split())
    assert ids and ids <= {element.get("id") for element in svg.iter()}
    return svg


def test_variance_curve_marks_b_zero_and_b_equal_to_j() -> None:
    svg = _svg("bandit-variance-curve")
    assert len(svg.findall(f"{SVG}circle")) == 2
    texts = [t.text or "" for t in svg.iter(f"{SVG}text")]
    assert "no baseline: Var = 1.14" in texts and "b = J: Var = 0.228" in texts
    assert "least ≈ 0.2257, at b* ≈ 1.1429" in texts
    assert "baseline b (reward)" in texts and "variance Var(b) (reward²)" in texts
    desc = svg.findtext(f"{SVG}desc") or ""
    assert "Without a baseline the variance is 1.14" in desc and "at b = J = 1.2 it is 0.228" in desc


def test_simulation_histogram_has_two_panels_and_the_true_value() -> None:
    svg = _svg("bandit-simulation")
    texts = [t.text or "" for t in svg.iter(f"{SVG}text")]
    assert "no baseline, b = 0" in texts and "b = J" in texts
    assert "true +0.24" in texts
    bars = {rect.get("class") for rect in svg.iter(f"{SVG}rect")}
    assert bars == {"grpo-bar-1", "grpo-bar-3"}
    markers = [line for line in svg.iter(f"{SVG}line") if line.get("stroke-dasharray") == "4 3"]
    assert len(markers) == 2 and len({m.get("x1") for m in markers}) == 1  # one x, through both panels
