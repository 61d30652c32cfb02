"""GRPO in practice as built: its numbers in their places, its links, and generation that follows the inputs."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.conftest import copy_project, mkdocs_build
from tests.site_html import article, formulas_tex, page_html, visible_text

PAGE = "grpo-in-practice"


@pytest.fixture(scope="module")
def chapter(built_site: Path) -> str:
    return article(page_html(built_site, PAGE))


def test_no_placeholder_is_left_over(built_site: Path) -> None:
    assert "grpo:" not in page_html(built_site, PAGE)


def test_the_opening_compares_the_easy_wrong_answer_across_trainers(chapter: str) -> None:
    # easy [1, 1, 1, 1, 0]: the book -2.0; TRL -0.8 / (0.447214 + 1e-4) = -1.78845; Dr. GRPO -0.8; RLOO -1.0.
    text = visible_text(chapter)
    assert "the advantage -2.0. Hand the same five rewards to TRL and it computes ≈ -1.7885;" in text
    assert "Dr. GRPO computes -0.8; RLOO, -1.0." in text


def test_the_variants_table_drops_only_the_solved_group(chapter: str) -> None:
    text = visible_text(chapter)
    assert "solved (4 of 4 right)" in text
    assert "DAPO's dynamic sampling keep if 0 < right < G kept kept kept kept dropped" in text
    assert "Of the book's five groups it keeps four." in text


def test_the_rloo_identity_is_filled_in(chapter: str) -> None:
    tex = formulas_tex(chapter)
    assert any(r"0 - \frac{1+1+1+1}{4} = 0 - 1.0 = -1.0" in t for t in tex)
    assert any(r"\frac{5}{4} \times (-0.8) = -1.0" in t for t in tex)
    text = visible_text(chapter)
    assert "a factor of 1.25 for five responses" in text  # 5/4


def test_the_difficulty_bias_and_the_length_bias_carry_their_numbers(chapter: str) -> None:
    text = visible_text(chapter)
    # 1/sigma: easy 1/0.4 = 2.5, hard 2.5, split 1/0.5 = 2.0.
    assert "2.5 for the easy group, 2.5 for the hard one, 2.0 for the evenly split group" in text
    # Per sequence: 1/(2·5) against 1/(2·20), four times.
    assert "a token of the short right answer is pushed up four times as hard" in text


def test_the_clip_and_the_kl_carry_their_numbers(chapter: str) -> None:
    text = visible_text(chapter)
    assert (
        "A token sampled with probability 0.01 is pushed up only to 0.012 in one batch (0.0128 with clip-higher)"
        in text
    )
    assert "is negative on three of the four tokens" in text
    tex = formulas_tex(chapter)
    assert any(r"\approx 0.625 - (-0.4700) - 1 \approx 0.0950" in t for t in tex)  # 0.625 - 1 + ln 1.6
    assert any(r"= \min(0.625,\ 0.6) = 0.6" in t for t in tex)  # the symmetric clip binds
    assert any(r"= \min(0.625,\ 0.625) = 0.625" in t for t in tex)  # clip-higher lets it through


def test_the_kl_widget_is_on_the_page_with_its_static_table(chapter: str) -> None:
    assert chapter.count('data-widget-kind="kl"') == 1
    assert 'data-widget-script="kl-widget.js"' in chapter
    static = chapter[chapter.index("grpo-widget__static") : chapter.index("grpo-widget__data")]
    assert "token “56”" in static and '<table class="grpo-table' in static


def test_it_sits_between_grpo_and_the_training_run(built_site: Path) -> None:
    home = (built_site / "index.html").read_text(encoding="utf-8")
    links = re.findall(r'<a href="([a-z-]+)/" class="md-nav__link', home)
    order = ["grpo", PAGE, "training-run"]
    assert [link for link in links if link in order] == order
    assert re.search(r'href="\.\./grpo-in-practice/"', page_html(built_site, "grpo"))


def test_the_glossary_defines_its_terms(built_site: Path) -> None:
    glossary = page_html(built_site, "glossary")
    for term in ("clip-higher", "dapo", "dr-grpo", "dynamic-sampling", "k3-estimator", "rloo", "token-level-loss"):
        assert f'id="{term}"' in glossary


def test_the_references_stamp_openrlhf_and_the_new_sources(built_site: Path) -> None:
    references = visible_text(article(page_html(built_site, "references")))
    assert "OpenRLHF OpenRLHF/OpenRLHF openrlhf/trainer/ppo_utils/experience_maker.py" in references
    assert "0.11.0 (commit 3c3be62)" in references
    assert "sail-sg/understand-r1-zero" in references and "commit dfca49d" in references


@pytest.mark.slow
def test_changed_inputs_change_the_page(tmp_path: Path) -> None:
    """A second wrong answer in the easy group and a new reference probability for the worked token."""
    project = copy_project(tmp_path / "book")
    examples = project / "grpo_examples" / "data" / "groups.toml"
    source = examples.read_text(encoding="utf-8")
    right = "8 × 7 = 8 × 5 + 8 × 2 = 40 + 16. \\\\boxed{56}"
    assert right in source
    examples.write_text(source.replace(right, "8 × 7 = 8 × 5 + 8 × 2 = 40 + 14. \\\\boxed{54}", 1), encoding="utf-8")
    inputs = project / "grpo_examples" / "data" / "practice.toml"
    source = inputs.read_text(encoding="utf-8")
    assert "pi_ref = [0.5, 0.2, 0.2, 0.1]" in source
    inputs.write_text(
        source.replace("pi_ref = [0.5, 0.2, 0.2, 0.1]", "pi_ref = [0.4, 0.3, 0.2, 0.1]"), encoding="utf-8"
    )
    result = mkdocs_build(project, tmp_path / "site")
    assert result.returncode == 0, result.stderr
    chapter = article(page_html(tmp_path / "site", PAGE))
    text, tex = visible_text(chapter), formulas_tex(chapter)
    # easy [1, 1, 1, 0, 0]: mu = 0.6. The book: (0 - 0.6) / sqrt(0.24) = -1.2247. TRL: sigma_s = sqrt(0.3) = 0.547723,
    # -0.6 / 0.547823 = -1.0952. Dr. GRPO: -0.6. RLOO: the wrong answer's others are 1, 1, 1, 0: 0 - 0.75 = -0.75.
    assert "the advantage ≈ -1.2247. Hand the same five rewards to TRL and it computes ≈ -1.0952;" in text
    assert "Dr. GRPO computes -0.6; RLOO, -0.75." in text
    assert any(r"0 - \frac{1+1+1+0}{4} = 0 - 0.75 = -0.75" in t for t in tex)
    assert any(r"\frac{5}{4} \times (-0.6) = -0.75" in t for t in tex)
    # 1/sigma of the easy group: 1 / 0.489898 = 2.0412, still above the split group's 2.0.
    assert "≈ 2.0412 for the easy group, 2.5 for the hard one, 2.0 for the evenly split group" in text
    # The clip example's token is in a right answer of the easy group: A = 0.4 / 0.489898 = +0.8165, and
    # 1.2 x 0.816497 = 0.979796.
    assert any(r"\approx 0.9798" in t for t in tex)
    # Token "56" now has pi_ref 0.4: r = 0.5, k3 = 0.5 - 1 + ln 2 = 0.193147, k1 = ln 2 = +0.693147.
    assert any(r"\frac{0.4}{0.8}" in t and r"\approx 0.1931" in t for t in tex)
    assert "gives ≈ +0.6931 for the same token" in text
    # KL = 0.8 ln 2 + 0.1 ln(1/3) + 0.05 ln(1/4) + 0.05 ln(1/2) = 0.554518 - 0.109861 - 0.069315 - 0.034657 = 0.340685.
    assert any(r"\approx 0.3407" in t for t in tex)
