"""What the GRPO-in-practice chapter shows, through the page hook: the groups' variants and their formulas, the
`practice` chapter's values, formulas, claims, blocks and widget. Expected numbers are worked by hand in the
comments, from grpo_examples/data/practice.toml (the KL token "56": pi_theta 0.8, pi_ref 0.5; two responses of
5 and 20 tokens, rewards 1 and 0, L = 50; a ratio of 1.25) and the groups of groups.toml.
"""

from __future__ import annotations

import dataclasses
import json
import math
import re
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

import grpo_examples as gx
from grpo_examples.chapters import practice as practice_chapter
from grpo_examples.data import DATA, load
from hooks.engine.tree import Subject
from tests.chapter_pipeline import (
    PluginError,
    block,
    book_with,
    formula_tex,
    model_subject,
    page_markdown,
    problems,
    refusal,
    swap_book,
    value,
)
from tests.conftest import ROOT, copy_project

DATA_SCRIPT = re.compile(
    r'<script (?=[^>]*type="application/json")[^>]*class="grpo-widget__data"[^>]*>(.*?)</script>', re.S
)
NB = "\u00a0"


@pytest.mark.parametrize(
    ("path", "shown"),
    [
        # easy [1, 1, 1, 1, 0]: Dr. GRPO 0 - 0.8; RLOO 0 - (1+1+1+1)/4; OpenRLHF -0.8 / (sqrt(0.2) + 1e-9).
        ("easy.variants.dr-grpo.advantage.wrong", "−0.8"),
        ("easy.variants.dr-grpo.advantage.correct", "+0.2"),
        ("easy.variants.rloo.advantage.wrong", "−1.0"),
        ("easy.variants.rloo.advantage.correct", "+0.25"),  # 1 - (1+1+1+0)/4
        ("easy.variants.openrlhf.advantage.wrong", "≈\u00a0−1.7889"),
        ("easy.rloo-scale", "1.25"),  # 5/4
        ("easy.std-scale", "2.5"),  # 1 / 0.4
        ("split.std-scale", "2.0"),  # 1 / 0.5
        ("easy.sample-std-factor", "≈\u00a00.8944"),  # sqrt(4/5)
        ("hard.variants.rloo.advantage.correct", "+1.0"),  # 1 - (0+0+0+0)/4
        ("easy.leave-one-out.wrong.baseline", "1.0"),
    ],
)
def test_group_variants_by_hand(path: str, shown: str) -> None:
    assert value(path) == shown


def test_a_group_without_the_outcome_or_with_no_spread_says_why() -> None:
    assert "solved.variants.rloo.advantage has no 'wrong' (it has correct)" in refusal(
        "<!-- grpo:value solved.variants.rloo.advantage.wrong -->"
    )
    assert "solved.std-scale is not defined here: every reward is the same: sigma is 0" in refusal(
        "<!-- grpo:value solved.std-scale -->"
    )


def test_rloo_formulas_by_hand() -> None:
    assert formula_tex("easy.leave-one-out.wrong.advantage") == (
        r"A_{\text{wrong}} = r_i - \frac{1}{G-1}\sum_{j \ne i} r_j = 0 - \frac{1+1+1+1}{4} = 0 - 1.0 = -1.0"
    )
    assert (
        formula_tex("easy.leave-one-out.wrong.from-dr-grpo")
        == r"A_{\text{wrong}} = \frac{G}{G-1}\,(r_i - \mu) = \frac{5}{4} \times (-0.8) = -1.0"
    )
    # split [1, 1, 0, 0]: 4/3 x (-0.5) = -2/3, rounded, so joined with \approx.
    assert formula_tex("split.leave-one-out.wrong.from-dr-grpo").endswith(r"\frac{4}{3} \times (-0.5) \approx -0.6667")
    # A right answer of the split group: its others are 1, 0, 0, mean 1/3: 1 - 0.3333 = +0.6667.
    assert formula_tex("split.leave-one-out.correct.advantage").endswith(
        r"1 - \frac{1+0+0}{3} \approx 1 - 0.3333 \approx +0.6667"
    )


@pytest.mark.parametrize(
    ("path", "shown"),
    [
        ("practice.kl.worked.token", "56"),
        ("practice.kl.worked.pi-theta", "0.8"),
        ("practice.kl.worked.ratio", "0.625"),  # 0.5 / 0.8
        ("practice.kl.worked.k1", "≈\u00a0+0.4700"),  # ln 1.6
        ("practice.kl.worked.k3", "≈\u00a00.0950"),  # 0.625 - 1 + ln 1.6 = 0.095004
        ("practice.kl.negative.token", "54"),  # 0.2 > 0.1: the first token the reference finds likelier
        ("practice.kl.negative.k1", "≈\u00a0−0.6931"),  # -ln 2
        ("practice.kl.exact", "≈\u00a00.2027"),  # 0.8 ln 1.6 + 0.1 ln 0.5 + 0.05 ln 0.25 + 0.05 ln 0.5 = 0.202716
        ("practice.kl.mean.k2", "≈\u00a00.1724"),  # sum of pi_theta (log r)^2 / 2 = 0.172441
        ("practice.kl.context", "7 × 8 ="),
        ("practice.loss.aggregations.per-sequence.per-token.wrong", "−0.025"),  # -1 / (2 x 20)
        ("practice.loss.aggregations.token-level.whole.wrong", "−0.8"),  # 20 x -1/25
        ("practice.loss.aggregations.constant.per-token.correct", "+0.01"),  # 1 / (2 x 50)
        ("practice.clip.symmetric.value", "0.6"),  # min(1.25 x 0.5, 1.2 x 0.5)
        ("practice.clip.higher.value", "0.625"),  # min(1.25 x 0.5, 1.28 x 0.5)
        ("practice.clip.ceiling.symmetric", "0.012"),  # 0.01 x 1.2
        ("practice.clip.ceiling.higher", "0.0128"),  # 0.01 x 1.28
        ("practice.clip.eps-high", "0.28"),
    ],
)
def test_chapter_values_by_hand(path: str, shown: str) -> None:
    assert value(path) == shown


def test_chapter_counts_in_words() -> None:
    # k1 < 0 for "54", "48" and "15"; the book has easy, hard, split, fractions and solved, and drops solved.
    assert value("practice.kl.negative-count as=words") == "three"
    assert value("practice.kl.count as=words") == "four"
    assert value("practice.loss.per-sequence-ratio as=words") == "four times"  # 0.1 / 0.025
    assert value("practice.dynamic.groups as=words") == "five"
    assert value("practice.dynamic.kept as=words") == "four"


def test_chapter_formulas_by_hand() -> None:
    k3 = formula_tex("practice.kl.worked.k3")
    assert r"\frac{0.5}{0.8} - \log\frac{0.5}{0.8} - 1" in k3
    assert k3.endswith(r"\approx 0.625 - (-0.4700) - 1 \approx 0.0950 \end{aligned}")
    assert r"0.8\log\frac{0.8}{0.5} + 0.1\log\frac{0.1}{0.2}" in formula_tex("practice.kl.exact")
    assert r"0.05 \times 1.6137" in formula_tex("practice.kl.mean.k3")  # "48": 4 - 1 - ln 4
    assert formula_tex("practice.clip.symmetric.value").endswith(
        r"\min(1.25 \times 0.5,\ 1.2 \times 0.5) = \min(0.625,\ 0.6) = 0.6 \end{aligned}"
    )
    assert r"1+\epsilon_{\text{high}}" in formula_tex("practice.clip.higher.value")
    assert r"\min(0.625,\ 0.625) = 0.625" in formula_tex("practice.clip.higher.value")


CLAIMS = [f.name.replace("_", "-") for f in dataclasses.fields(gx.PracticeClaims)]


def test_the_chapter_has_its_claims() -> None:
    assert len(CLAIMS) == 16
    assert {"k3-never-negative", "roundoff-is-left-over", "k3-gradient-is-kl-ref-theta"} <= set(CLAIMS)


@pytest.mark.parametrize("claim", CLAIMS)
def test_every_claim_holds_on_the_books_inputs(claim: str) -> None:
    assert page_markdown(f"<!-- grpo:check practice.claims.{claim} -->") == ""


def _settings() -> practice_chapter.Settings:
    return load(DATA / "practice.toml", practice_chapter.Settings)


def test_claims_and_values_fail_when_the_inputs_say_otherwise(monkeypatch: pytest.MonkeyPatch) -> None:
    # pi_ref = pi_theta: every log ratio is 0, so no k1 is negative; two equal lengths: no short right answer.
    real = _settings()
    same = dataclasses.replace(
        real,
        kl=dataclasses.replace(real.kl, pi_ref=real.kl.pi_theta),
        loss=dataclasses.replace(real.loss, lengths=(10, 10)),
    )
    other = model_subject(
        "practice", practice_chapter.build(same), "grpo_examples.chapter('practice')", "practice.toml"
    )
    swap_book(monkeypatch, book_with({"practice": other}))
    with pytest.raises(PluginError) as caught:
        page_markdown(
            "a\nb\n<!-- grpo:check practice.claims.k1-goes-negative -->\n"
            "<!-- grpo:value practice.kl.negative.token -->\n"
            "<!-- grpo:check practice.claims.per-sequence-favours-short-right -->"
        )
    found = problems(caught.value)
    assert [line for line, _ in found] == [3, 4, 5]
    assert found[0][1].startswith("the prose claims practice.claims.k1-goes-negative (Some token's k1 is negative)")
    assert found[1][1] == (
        "practice.kl.negative is not defined here: no token has a negative k1: rewrite the sentence that shows one"
    )
    assert found[2][1].startswith("the prose claims practice.claims.per-sequence-favours-short-right")
    assert value("practice.kl.negative-count") == "0"


def _rows(markdown: str) -> list[list[str]]:
    """The cells of a Markdown table's lines, split at '|' but not at an escaped '\\|'."""
    lines = [
        line.strip().removeprefix("|").removesuffix("|") for line in markdown.splitlines() if line.startswith("| ")
    ]
    return [[cell.strip() for cell in re.split(r"(?<!\\)\|", line)] for line in lines]


def test_the_variants_table_by_hand() -> None:
    text = block("advantage-variants easy solved")
    rows = {row[0].split("<br>")[0]: row[1:] for row in _rows(text)[1:]}
    assert rows["**Dr. GRPO**"] == [f"✓{NB}+0.2<br>✗{NB}−0.8", f"✓{NB}0.0<br>✗{NB}—"]
    assert rows["**RLOO**"][0] == f"✓{NB}+0.25<br>✗{NB}−1.0"
    assert rows["**TRL**"][0] == f"✓{NB}≈{NB}+0.4471<br>✗{NB}≈{NB}−1.7885"  # 0.2 / (0.447214 + 1e-4)
    assert _rows(text)[0][1:] == ["easy (4 of 5 right)", "solved (4 of 4 right)"]
    assert _rows(text)[-1][1:] == ["kept", "**dropped**"]  # DAPO's dynamic sampling drops the all-equal group
    assert "How these numbers were computed" in text


def test_the_kl_table_by_hand() -> None:
    rows = _rows(block("kl-estimators practice.kl"))
    assert rows[1] == ["“56”", "0.8", "0.5", "0.625", "≈\u00a0+0.4700", "≈\u00a00.1105", "≈\u00a00.0950"]
    assert rows[3] == ["“48”", "0.05", "0.2", "4.0", "≈\u00a0−1.3863", "≈\u00a00.9609", "≈\u00a01.6137"]  # 3 - ln 4
    assert rows[5][0] == "**mean under π<sub>θ</sub>**"
    assert rows[5][4:] == ["≈\u00a00.2027", "≈\u00a00.1724", "≈\u00a00.2027"]


def test_the_loss_table_by_hand() -> None:
    rows = _rows(block("loss-aggregation practice.loss"))
    assert rows[1][2:] == ["+0.1", "−0.025", "+0.5", "−0.5"]  # 1/(2·5), −1/(2·20), and 5 and 20 times those
    assert rows[2][2:] == ["+0.04", "−0.04", "+0.2", "−0.8"]  # ±1/25
    assert rows[3][2:] == ["+0.01", "−0.01", "+0.05", "−0.2"]  # ±1/(2·50)


def test_the_clip_table_by_hand() -> None:
    rows = _rows(block("clip-higher practice.clip"))
    assert rows[1] == ["0.01", "0.012", "0.0128"]
    assert rows[2] == ["0.9", "1.0 (the clip never binds)", "1.0 (the clip never binds)"]  # 0.9 x 1.2 > 1


@pytest.mark.parametrize(
    ("name", "path"),
    [("kl-estimators", "practice.kl"), ("loss-aggregation", "practice.loss"), ("clip-higher", "practice.clip")],
)
def test_the_chapters_blocks_take_their_node(name: str, path: str) -> None:
    message = refusal(f"<!-- grpo:block {name} easy -->")
    assert f"block '{name}' draws a " in message and f"write <!-- grpo:block {name} {path} -->" in message


def test_the_variants_table_shows_0_1_rewards_only(monkeypatch: pytest.MonkeyPatch) -> None:
    easy = gx.group("easy")
    halves = dataclasses.replace(easy, name="halves", rewards=(Fraction(1, 2), Fraction(1, 2), Fraction(0)))
    swap_book(monkeypatch, book_with({"halves": model_subject("halves", halves, "halves()")}))
    assert "block 'advantage-variants': it shows 0/1 rewards; halves has [0.5, 0.5, 0]" in refusal(
        "<!-- grpo:block advantage-variants easy halves -->"
    )
    assert (
        "block 'advantage-variants' draws 1 or more Groups, got 0 path(s): "
        "write <!-- grpo:block advantage-variants easy -->"
    ) in refusal("<!-- grpo:block advantage-variants -->")


def _widget() -> tuple[str, dict[str, object]]:
    text = page_markdown("Prose.\n\n<!-- grpo:widget kl practice.kl -->\n")
    found = DATA_SCRIPT.findall(text)
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
    assert "**≈\u00a0−0.4700** (token “56”)" in static
    assert "| +1.0 | ≈\u00a02.7183 | −1.0 | 0.5 | ≈\u00a00.7183 |" in static
    assert "How these numbers were computed" in static and "- ` grpo_examples.chapter('practice').kl `" in static
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


def test_a_chapter_whose_group_is_gone_names_the_page_and_the_line(tmp_path: Path) -> None:
    # The practice chapter works its clip example on the easy group: a groups.toml without [easy].
    project = copy_project(tmp_path / "book")
    groups = project / "grpo_examples" / "data" / "groups.toml"
    text = groups.read_text(encoding="utf-8")
    groups.write_text(text[: text.index("[easy]")] + text[text.index("[hard]") :], encoding="utf-8")
    page = project / "docs" / "scratch.md"
    page.write_text("# Scratch\n\nThe clip keeps <!-- grpo:value practice.clip.ratio -->.\n", encoding="utf-8")
    command = [sys.executable, str(ROOT / "scripts" / "check_chapters.py"), "--project", str(project), str(page)]
    result = subprocess.run(command, capture_output=True, text=True, check=False, timeout=120)
    assert "Traceback" not in result.stderr, result.stderr[-600:]
    assert result.returncode == 1
    # the path, then grpo_examples.group's KeyError, without the quotes str() gives a KeyError
    assert result.stdout.splitlines()[:2] == [
        "docs/scratch.md:3: practice.clip.ratio: no group named 'easy' in groups.toml; "
        "the groups are hard, split, fractions, solved",
        "    <!-- grpo:value practice.clip.ratio -->",
    ]


def test_a_value_the_data_file_gets_wrong_is_quoted_whole(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # practice.toml with a text where the clip's ratio is a number: the loader's message names the file, the key,
    # and the value as written, in quotes.
    copied = tmp_path / "grpo_examples" / "data" / "practice.toml"
    copied.parent.mkdir(parents=True)
    text = (DATA / "practice.toml").read_text(encoding="utf-8")
    assert text.count("\nratio = 1.25\n") == 1
    copied.write_text(text.replace("\nratio = 1.25\n", '\nratio = "x"\n'), encoding="utf-8")
    broken = Subject(
        "practice",
        lambda: practice_chapter.build(load(copied, practice_chapter.Settings)),
        "grpo_examples.chapter('practice')",
        "grpo_examples/data/practice.toml",
    )
    swap_book(monkeypatch, book_with({"practice": broken}))
    report = refusal("<!-- grpo:value practice.clip.ratio -->")
    # reported at its own line of the data file (22, ratio in [clip]), with the page's line it breaks under it
    assert report.splitlines() == [
        "grpo_examples/data/practice.toml:22:1: clip.ratio: expected a number, got 'x'",
        '    ratio = "x"',
        "    this breaks 1 place of the book:",
        "      docs/fuzz.md: line 1",
        "1 problem in 1 file",
    ]
