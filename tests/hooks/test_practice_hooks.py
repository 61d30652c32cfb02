"""The hooks behind GRPO in practice: the groups' variant quantities and formulas, the `practice` namespace, its
blocks and its widget, on their real inputs. Expected numbers are worked out by hand in the comments."""

from __future__ import annotations

import json
import math
import re
from dataclasses import replace

import pytest

import grpo_examples as gx
from hooks.placeholders import PageError, expand
from hooks.practice_values import PRACTICE
from hooks.registry import BLOCKS

DATA = re.compile(r'<script (?=[^>]*type="application/json")[^>]*class="grpo-widget__data"[^>]*>(.*?)</script>', re.S)


def _shown(name: str, option: str = "") -> str:
    """What `<!-- grpo:value name option -->` shows in a sentence."""
    html = expand(f"<!-- grpo:value {name} {option}-->", "t.md").markdown
    match = re.fullmatch(r'<span class="grpo-value" title="[^"]*">(.*)</span>', html)
    assert match, html
    return match.group(1)


def _tex(name: str) -> str:
    markdown = expand(f"<!-- grpo:formula {name} -->", "t.md").markdown
    assert markdown.startswith("$`") and markdown.endswith("`$")
    return markdown[2:-2]


@pytest.mark.parametrize(
    ("name", "shown"),
    [
        # easy [1, 1, 1, 1, 0]: Dr. GRPO 0 - 0.8; RLOO 0 - (1+1+1+1)/4; OpenRLHF -0.8 / (sqrt(0.2) + 1e-9).
        ("easy.advantage.wrong.dr-grpo", "−0.8"),
        ("easy.advantage.correct.dr-grpo", "+0.2"),
        ("easy.advantage.wrong.rloo", "−1.0"),
        ("easy.advantage.correct.rloo", "+0.25"),
        ("easy.advantage.wrong.openrlhf", "≈ −1.7889"),
        ("easy.rloo-scale", "1.25"),  # 5/4
        ("easy.std-scale", "2.5"),  # 1 / 0.4
        ("split.std-scale", "2.0"),  # 1 / 0.5
        ("easy.sample-std-factor", "≈ 0.8944"),  # sqrt(4/5)
        ("hard.advantage.correct.rloo", "+1.0"),  # 1 - (0+0+0+0)/4
    ],
)
def test_group_quantities_by_hand(name: str, shown: str) -> None:
    assert _shown(name) == shown


def test_a_group_without_the_outcome_or_with_no_spread_says_why() -> None:
    with pytest.raises(PageError, match="no response in solved is wrong"):
        expand("<!-- grpo:value solved.advantage.wrong.rloo -->", "t.md")
    with pytest.raises(PageError, match="all equal"):
        expand("<!-- grpo:value solved.std-scale -->", "t.md")


def test_rloo_formulas_by_hand() -> None:
    assert _tex("easy.advantage.wrong.rloo") == (
        r"A_{\text{wrong}} = r_i - \frac{1}{G-1}\sum_{j \ne i} r_j = 0 - \frac{1+1+1+1}{4} = 0 - 1.0 = -1.0"
    )
    assert (
        _tex("easy.rloo-identity.wrong")
        == r"A_{\text{wrong}} = \frac{G}{G-1}\,(r_i - \mu) = \frac{5}{4} \times (-0.8) = -1.0"
    )
    # split [1, 1, 0, 0]: 4/3 x (-0.5) = -2/3, rounded, so joined with \approx.
    assert _tex("split.rloo-identity.wrong").endswith(r"\frac{4}{3} \times (-0.5) \approx -0.6667")
    # A right answer of the split group: its others are 1, 0, 0, mean 1/3: 1 - 0.3333 = +0.6667.
    assert _tex("split.advantage.correct.rloo").endswith(r"1 - \frac{1+0+0}{3} \approx 1 - 0.3333 \approx +0.6667")


@pytest.mark.parametrize(
    ("name", "shown"),
    [
        ("practice.kl.token", "56"),
        ("practice.kl.pi-theta", "0.8"),
        ("practice.kl.ratio", "0.625"),  # 0.5 / 0.8
        ("practice.kl.k1", "≈ +0.4700"),  # ln 1.6
        ("practice.kl.k3", "≈ 0.0950"),  # 0.625 - 1 + ln 1.6 = 0.095004
        ("practice.kl.negative.token", "54"),  # 0.2 > 0.1: the first token the reference finds likelier
        ("practice.kl.negative.k1", "≈ −0.6931"),  # -ln 2
        ("practice.kl.exact", "≈ 0.2027"),  # 0.202716, worked in tests/test_kl_estimators.py
        ("practice.kl.mean.k2", "≈ 0.1724"),
        ("practice.loss.per-sequence.wrong", "−0.025"),  # -1 / (2 x 20)
        ("practice.loss.token-level.total.wrong", "−0.8"),  # 20 x -1/25
        ("practice.loss.constant.correct", "+0.01"),  # 1 / (2 x 50)
        ("practice.clip.symmetric", "0.6"),  # min(1.25 x 0.5, 1.2 x 0.5)
        ("practice.clip.higher", "0.625"),  # min(1.25 x 0.5, 1.25 x 0.5)
        ("practice.clip.ceiling.symmetric", "0.012"),  # 0.01 x 1.2
        ("practice.clip.eps-high", "0.28"),
    ],
)
def test_namespace_values_by_hand(name: str, shown: str) -> None:
    assert _shown(name) == shown


def test_namespace_counts_in_words() -> None:
    # k1 < 0 for "54", "48" and "15"; the book has easy, hard, split, fractions and solved, and drops solved.
    assert _shown("practice.kl.negative.count", "as=words ") == "three"
    assert _shown("practice.loss.per-sequence.ratio", "as=words ") == "four times"  # 0.1 / 0.025
    assert _shown("practice.dynamic.groups", "as=words ") == "five"
    assert _shown("practice.dynamic.kept", "as=words ") == "four"


def test_namespace_formulas_by_hand() -> None:
    k3 = _tex("practice.kl.k3")
    assert r"\frac{0.5}{0.8} - \log\frac{0.5}{0.8} - 1" in k3
    assert k3.endswith(r"\approx 0.625 - (-0.4700) - 1 \approx 0.0950 \end{aligned}")
    assert r"0.8\log\frac{0.8}{0.5} + 0.1\log\frac{0.1}{0.2}" in _tex("practice.kl.exact")
    assert r"0.05 \times 1.6137" in _tex("practice.kl.mean.k3")  # "48": 4 - 1 - ln 4
    assert _tex("practice.clip.symmetric").endswith(
        r"\min(1.25 \times 0.5,\ 1.2 \times 0.5) = \min(0.625,\ 0.6) = 0.6 \end{aligned}"
    )
    assert r"1+\epsilon_{\text{high}}" in _tex("practice.clip.higher")
    assert r"\min(0.625,\ 0.625) = 0.625" in _tex("practice.clip.higher")


@pytest.mark.parametrize("claim", sorted(PRACTICE.claims))
def test_every_claim_holds_on_the_books_inputs(claim: str) -> None:
    assert expand(f"<!-- grpo:check practice {claim} -->", "t.md").markdown == ""


def test_claims_and_values_fail_when_the_inputs_say_otherwise(monkeypatch: pytest.MonkeyPatch) -> None:
    # pi_ref = pi_theta: every log ratio is 0, so no k1 is negative; two equal lengths: no short right answer.
    real = gx.load_practice_examples()
    same = replace(
        real,
        kl=replace(real.kl, pi_ref=real.kl.pi_theta),
        loss=replace(real.loss, lengths=(10, 10)),
    )
    monkeypatch.setattr(gx, "load_practice_examples", lambda: same)
    with pytest.raises(PageError, match=r"page\.md:3: the prose claims 'k1-goes-negative'"):
        expand("a\nb\n<!-- grpo:check practice k1-goes-negative -->", "page.md")
    with pytest.raises(PageError, match=r"practice_examples\.toml has a negative k1"):
        expand("<!-- grpo:value practice.kl.negative.token -->", "page.md")
    with pytest.raises(PageError, match="per-sequence-favours-short-right"):
        expand("<!-- grpo:check practice per-sequence-favours-short-right -->", "page.md")


def test_unknown_practice_names_are_named_with_a_suggestion() -> None:
    with pytest.raises(PageError, match=r"unknown practice value 'kl.k4'; did you mean 'kl.k3'\?"):
        expand("<!-- grpo:value practice.kl.k4 -->", "page.md")
    with pytest.raises(PageError, match=r"unknown practice widget 'kll'"):
        expand("<!-- grpo:widget practice.kll -->", "page.md")


def _rows(block: str) -> list[list[str]]:
    """The cells of a Markdown table's lines, split at '|' but not at an escaped '\\|'."""
    lines = [line.strip().removeprefix("|").removesuffix("|") for line in block.splitlines() if line.startswith("| ")]
    return [[cell.strip() for cell in re.split(r"(?<!\\)\|", line)] for line in lines]


def test_the_variants_table_by_hand() -> None:
    block = BLOCKS["advantage-variants"]([gx.get_example("easy"), gx.get_example("solved")])
    rows = {row[0].split("<br>")[0]: row[1:] for row in _rows(block)[1:]}
    nb = "\u00a0"
    assert rows["**Dr. GRPO**"] == [f"✓{nb}+0.2<br>✗{nb}−0.8", f"✓{nb}0.0<br>✗{nb}—"]
    assert rows["**RLOO**"][0] == f"✓{nb}+0.25<br>✗{nb}−1.0"
    assert rows["**TRL**"][0] == f"✓{nb}≈{nb}+0.4471<br>✗{nb}≈{nb}−1.7885"  # 0.2 / (0.447214 + 1e-4)
    assert _rows(block)[-1][1:] == ["kept", "**dropped**"]  # DAPO's dynamic sampling drops the all-equal group
    assert "How these numbers were computed" in block


def test_the_kl_table_by_hand() -> None:
    rows = _rows(BLOCKS["kl-estimators"]([]))
    assert rows[1] == ["“56”", "0.8", "0.5", "0.625", "≈ +0.4700", "≈ 0.1105", "≈ 0.0950"]
    assert rows[3] == ["“48”", "0.05", "0.2", "4.0", "≈ −1.3863", "≈ 0.9609", "≈ 1.6137"]  # 3 - ln 4
    assert rows[5][0] == "**mean under π<sub>θ</sub>**" and rows[5][4:] == ["≈ 0.2027", "≈ 0.1724", "≈ 0.2027"]


def test_the_loss_table_by_hand() -> None:
    rows = _rows(BLOCKS["loss-aggregation"]([]))
    assert rows[1][2:] == ["+0.1", "−0.025", "+0.5", "−0.5"]  # 1/(2·5), −1/(2·20), and 5 and 20 times those
    assert rows[2][2:] == ["+0.04", "−0.04", "+0.2", "−0.8"]  # ±1/25
    assert rows[3][2:] == ["+0.01", "−0.01", "+0.05", "−0.2"]  # ±1/(2·50)


def test_the_clip_table_by_hand() -> None:
    rows = _rows(BLOCKS["clip-higher"]([]))
    assert rows[1] == ["0.01", "0.012", "0.0128"]
    assert rows[2] == ["0.9", "1.0 (the clip never binds)", "1.0 (the clip never binds)"]


@pytest.mark.parametrize("block", ["kl-estimators", "loss-aggregation", "clip-higher"])
def test_the_namespace_blocks_take_no_example(block: str) -> None:
    with pytest.raises(PageError, match=f"block '{block}' takes no example"):
        expand(f"<!-- grpo:block {block} easy -->", "page.md")


def test_the_variants_table_shows_0_1_rewards_only() -> None:
    from hooks.blocks import BlockError

    with pytest.raises(BlockError, match="0/1 rewards"):
        half = gx.Response(text="About half.", answer=None, reward=0.5)
        BLOCKS["advantage-variants"]([replace(gx.get_example("easy"), responses=(half, half))])
    with pytest.raises(PageError, match="needs one or more examples"):
        expand("<!-- grpo:block advantage-variants -->", "page.md")


def _widget() -> tuple[str, dict[str, object]]:
    text = expand("Prose.\n\n<!-- grpo:widget practice.kl -->\n", "chapter.md").markdown
    found = DATA.findall(text)
    assert len(found) == 1
    data = json.loads(found[0])
    assert isinstance(data, list) and len(data) == 1
    widget: dict[str, object] = data[0]
    return text, widget


def test_the_kl_widget_is_a_figure_with_its_static_table_data_and_caption() -> None:
    text, _ = _widget()
    assert '<figure class="grpo-widget" data-widget-kind="kl" data-widget-script="kl-widget.js"' in text
    static = text[text.index("grpo-widget__static") : text.index("application/json")]
    # The worked token, then log r = -3..3: at log r = 1, k3 = e - 2 = 0.718282, k1 = -1, k2 = 0.5.
    assert "**≈ −0.4700** (token “56”)" in static
    assert "| +1.0 | ≈ 2.7183 | −1.0 | 0.5 | ≈ 0.7183 |" in static
    assert "How these numbers were computed" in static
    assert text.index("application/json") < text.index("<figcaption")


def test_the_kl_widget_data_carries_its_constants_and_numpys_points() -> None:
    _, data = _widget()
    assert data["tokens"] == [
        {"token": "56", "pi_theta": 0.8, "pi_ref": 0.5},
        {"token": "54", "pi_theta": 0.1, "pi_ref": 0.2},
        {"token": "48", "pi_theta": 0.05, "pi_ref": 0.2},
        {"token": "15", "pi_theta": 0.05, "pi_ref": 0.1},
    ]
    assert (data["min_probability"], data["slider_step"]) == (1e-6, 0.001)
    assert (data["log_ratio_range"], data["estimate_range"]) == ([-3.0, 3.0], [-3.0, 5.0])
    points = {(p[0], p[1]): p[2:] for p in data["numpy_points"]}  # type: ignore[attr-defined]
    assert len(points) == 64
    # pi_theta = 1e-6, pi_ref = 1: log r = ln 1e6 = 13.815511; k3 = 1e6 - 1 - 13.815511 = 999985.184489.
    log_r, k1, k2, k3 = points[(1e-6, 1.0)]
    assert log_r == pytest.approx(math.log(1e6), rel=1e-15) and k1 == pytest.approx(-13.815511, abs=1e-6)
    assert k3 == pytest.approx(999985.184489, abs=1e-6) and k2 == pytest.approx(13.815511**2 / 2, rel=1e-6)
    # The other way round: log r = -13.815511; k3 = 1e-6 - 1 + 13.815511 = 12.815512.
    assert points[(1.0, 1e-6)][3] == pytest.approx(12.815512, abs=1e-6)
    assert points[(0.5, 0.5)] == [0.0, -0.0, 0.0, 0.0]
