"""What the policy-gradient chapter shows of its bandit, through the page hook: values, formulas, claims, blocks.

Expected numbers are the chapter bandit's, worked out by hand (and in tests/math): the checker scores the four
candidates of grpo_examples/data/bandit.toml 2 (right, with reasoning), 1 (right), 1 (wrong, with reasoning)
and 0; pi = (0.3, 0.4, 0.2, 0.1); J = 0.6 + 0.4 + 0.2 = 1.2; grad J = pi (r - J) = (0.24, -0.08, -0.04, -0.12),
||grad J||^2 = 0.08; Var(0) = 1.14, Var(J) = 0.228, b* = 0.8 / 0.7 = 8/7, Var(b*) = 1.14 - 0.64/0.7 = 0.22571.
"""

from __future__ import annotations

import dataclasses
import re
import xml.etree.ElementTree as ET

import pytest

import grpo_examples as gx
from grpo_examples.chapters import bandit as bandit_chapter
from grpo_examples.data import DATA, load
from tests.chapter_pipeline import (
    PluginError,
    block,
    book_with,
    formula_tex,
    model_subject,
    page_markdown,
    refusal,
    swap_book,
    value,
)

SVG = "{http://www.w3.org/2000/svg}"


@pytest.mark.parametrize(
    ("path", "shown"),
    [
        ("bandit.expected-reward", "1.2"),
        ("bandit.best.gradient", "+0.24"),
        ("bandit.candidates.2.gradient", "\u22120.08"),
        ("bandit.gradient-norm-squared", "0.08"),  # 0.0576 + 0.0064 + 0.0016 + 0.0144
        ("bandit.baselines.none.variance", "1.14"),
        ("bandit.baselines.expected.variance", "0.228"),
        ("bandit.baselines.optimal.variance", "≈\u00a00.2257"),  # 1.14 - 0.64/0.7 = 0.225714...
        ("bandit.optimal-baseline", "≈\u00a01.1429"),  # 8/7
        ("bandit.baselines.none.group-variance", "0.1425"),  # 1.14 / 8
        ("bandit.baselines.expected.group-variance", "0.0285"),  # 0.228 / 8
        ("bandit.candidates.2.own.none", "+0.6"),  # reward 1 x (1 - 0.4)
        ("bandit.candidates.2.own.expected", "\u22120.12"),  # (1 - 1.2) x 0.6
        ("bandit.best.own.none", "+1.4"),  # 2 x (1 - 0.3)
        ("bandit.candidates.4.own.expected", "\u22121.08"),  # (0 - 1.2) x (1 - 0.1)
        ("bandit.candidates.1.reward", "2"),
        ("bandit.candidates.4.reward", "0"),
        ("bandit.max-reward", "2"),
        ("bandit.candidates.4.probability", "0.1"),
        ("bandit.best.number", "1"),
        ("bandit.G", "8"),
        ("bandit.question", "What is 12 × 15?"),
    ],
)
def test_values_by_hand(path: str, shown: str) -> None:
    assert value(path) == shown


def test_values_in_words() -> None:
    assert value("bandit.reduction as=words") == "five times"  # 1.14 / 0.228
    assert value("bandit.K as=words") == "four"


def test_a_candidate_the_bandit_lacks_is_named() -> None:
    assert "bandit.candidates has no '5' (it has 1, 2, 3, 4)" in refusal(
        "<!-- grpo:value bandit.candidates.5.probability -->"
    )
    assert (
        "bandit.candidates.4 has no 'probabilty' (it has number, text, probability, accuracy, format, reward, "
        "gradient, own, below-average, earns-something); did you mean 'probability'?"
    ) in refusal("<!-- grpo:value bandit.candidates.4.probabilty -->")


def test_formulas_by_hand() -> None:
    assert formula_tex("bandit.expected-reward").endswith(
        r"&= 0.3 \times 2 + 0.4 \times 1 + 0.2 \times 1 + 0.1 \times 0 = 1.2\end{aligned}"
    )
    assert r"= 0.3 \times (2 - 1.2) = +0.24" in formula_tex("bandit.gradient")
    assert r"= 0.1 \times (0 - 1.2) = -0.12" in formula_tex("bandit.gradient")
    # the best candidate's logit: d log pi(c) / d theta_1 = 1[c = 1] - 0.3, averaged under pi
    assert formula_tex("bandit.score-mean").endswith(
        r"{}= 0.3 \times 0.7 + 0.4 \times (-0.3) + 0.2 \times (-0.3) + 0.1 \times (-0.3) = 0.0\end{gathered}"
    )
    assert r"&= 0.3 \times 2.0 + 0.4 \times 0.78 + 0.2 \times 1.1 + 0.1 \times 0.08 = 1.14" in formula_tex(
        "bandit.baselines.none.variance"
    )
    assert r"&= 0.3 \times 0.176 + 0.4 \times 0.06 + 0.2 \times 0.092 + 0.1 \times 1.328 = 0.228" in formula_tex(
        "bandit.baselines.expected.variance"
    )
    assert r"\operatorname{Var}(J)" in formula_tex("bandit.baselines.expected.variance")
    assert r"&= 1.14 - 2 \times 0.8\, b + 0.7\, b^2" in formula_tex("bandit.quadratic")
    assert formula_tex("bandit.optimal-baseline").endswith(r"= \frac{0.8}{0.7} \approx 1.1429")


CLAIMS = [f.name.replace("_", "-") for f in dataclasses.fields(gx.BanditClaims)]


@pytest.mark.parametrize("claim", CLAIMS)
def test_every_claim_holds_for_the_books_bandit(claim: str) -> None:
    assert page_markdown(f"<!-- grpo:check bandit.claims.{claim} -->") == ""


def test_each_candidates_claims_by_hand() -> None:
    # J = 1.2: candidates 2, 3 (reward 1) and 4 (reward 0) are below average, 1 (reward 2) is not; 4 earns 0.
    for c in (2, 3, 4):
        assert page_markdown(f"<!-- grpo:check bandit.candidates.{c}.below-average -->") == ""
    for c in (1, 2, 3):
        assert page_markdown(f"<!-- grpo:check bandit.candidates.{c}.earns-something -->") == ""
    assert "the prose claims bandit.candidates.1.below-average (r(c) < J" in refusal(
        "<!-- grpo:check bandit.candidates.1.below-average -->"
    )
    assert "bandit.candidates.4.earns-something (r(c) > 0" in refusal(
        "<!-- grpo:check bandit.candidates.4.earns-something -->"
    )


def test_a_claim_other_settings_break_stops_the_page(monkeypatch: pytest.MonkeyPatch) -> None:
    """pi = (0.1, 0.2, 0.2, 0.5): J = 0.2 + 0.2 + 0.2 = 0.6, so candidate 2 (reward 1) is above average."""
    settings = load(DATA / "bandit.toml", bandit_chapter.Settings)
    candidates = tuple(
        dataclasses.replace(c, probability=p) for c, p in zip(settings.candidates, (0.1, 0.2, 0.2, 0.5), strict=True)
    )
    other = bandit_chapter.build(dataclasses.replace(settings, candidates=candidates))
    subject = model_subject("bandit", other, "grpo_examples.chapter('bandit')", "grpo_examples/data/bandit.toml")
    swap_book(monkeypatch, book_with({"bandit": subject}))
    with pytest.raises(PluginError, match=r"docs/fuzz.md:1: the prose claims bandit.candidates.2.below-average"):
        page_markdown("<!-- grpo:check bandit.candidates.2.below-average -->")
    assert value("bandit.expected-reward") == "0.6"


@pytest.mark.parametrize(
    "name",
    ["bandit-menu", "bandit-estimates", "bandit-variance-curve", "bandit-simulation", "bandit-simulation-table"],
)
def test_blocks_draw_the_bandit(name: str) -> None:
    assert f"block '{name}' draws a Bandit, and easy is a Group: write <!-- grpo:block {name} bandit -->" in refusal(
        f"<!-- grpo:block {name} easy -->"
    )


@pytest.mark.parametrize(
    "name",
    ["bandit-menu", "bandit-estimates", "bandit-variance-curve", "bandit-simulation", "bandit-simulation-table"],
)
def test_every_block_ends_with_its_note(name: str) -> None:
    """The last thing of every block is its collapsed "How ... computed" note: nothing follows its indented body."""
    lines = block(f"{name} bandit").splitlines()
    start = max(i for i, line in enumerate(lines) if line.startswith('??? abstract "How th'))
    assert all(line == "" or line.startswith("    ") for line in lines[start + 1 :]), name
    assert "    - ` grpo_examples.chapter('bandit') `" in lines[start:]
    assert "    The data: ` grpo_examples/data/bandit.toml `." in lines[start:]


def test_estimates_tables_by_hand() -> None:
    text = block("bandit-estimates bandit")
    rows = [line for line in text.splitlines() if re.match(r"\| (\d|\*\*average)", line)]
    assert len(rows) == 2 * 5  # four candidates and the average, for b = 0 and for b = J
    # candidate 1 drawn, b = 0: 2 x (1 - 0.3, -0.4, -0.2, -0.1); squared miss |(1.16, -0.72, -0.36, -0.08)|^2 = 2.0
    assert rows[0] == '| 1 | 0.3 | 2 | <span class="grpo-vector">(+1.4, −0.8, −0.4, −0.2)</span> | 2.0 |'
    assert rows[4].endswith('| <span class="grpo-vector">(+0.24, −0.08, −0.04, −0.12)</span> | **1.14** |')
    # candidate 4 drawn, b = J: (0 - 1.2) x (-0.3, -0.4, -0.2, 0.9)
    assert rows[8] == '| 4 | 0.1 | −1.2 | <span class="grpo-vector">(+0.36, +0.48, +0.24, −1.08)</span> | 1.328 |'
    assert rows[9].endswith("| **0.228** |")


def test_menu_lists_the_candidates_with_their_rewards() -> None:
    text = block("bandit-menu bandit")
    rows = [line for line in text.splitlines() if re.match(r"\| \d \|", line)]
    assert [row.split(" | ")[-2:] for row in rows] == [["2", "0.3 |"], ["1", "0.4 |"], ["1", "0.2 |"], ["0", "0.1 |"]]
    assert text.startswith("**What is 12 × 15?** (reference answer: 180)")


def test_simulation_table_rows() -> None:
    text = block("bandit-simulation-table bandit")
    rows = [line for line in text.splitlines() if line.startswith(("| no baseline", "| b = J", "| leave-one-out"))]
    assert len(rows) == 3
    assert "| +0.24 |" in rows[0] and "| 0.1425 |" in rows[0]  # exact: grad J entry, 1.14 / 8
    assert "| 0.0285 |" in rows[1]  # 0.228 / 8
    assert rows[2].count("| — |") == 2  # leave-one-out has no exact sum
    assert "2000 groups of G = 8, drawn with seed 0." in text  # bandit.toml


def _svg(name: str) -> ET.Element:
    figure = ET.fromstring(block(f"{name} bandit").split("\n\n")[0])
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
    assert "no baseline: Var =\u00a01.14" in texts and "b = J: Var =\u00a00.228" in texts
    assert "least ≈\u00a00.2257, at b* ≈\u00a01.1429" in texts
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
