"""The PPO chapter as built: its computed numbers in their places, its blocks, its claims, and generation that
follows the settings. Expected numbers are worked out by hand in the comments."""

from __future__ import annotations

import dataclasses
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

import grpo_examples as gx
import grpo_examples.chapters.ppo as ppo_model
from grpo_examples.data import DATA, load
from hooks.chapters import ppo as ppo_layouts
from hooks.checks import book
from hooks.engine.book import Book
from hooks.engine.placeholders import expand
from tests.conftest import ROOT, copy_project, mkdocs_build
from tests.site_html import article, formulas_tex, page_html, visible_text

SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture(scope="module")
def chapter(built_site: Path) -> str:
    return article(page_html(built_site, "ppo"))


def test_no_placeholder_is_left_over(built_site: Path) -> None:
    assert "grpo:" not in page_html(built_site, "ppo")


def test_the_opening_case_is_filled_in(chapter: str) -> None:
    # p_old 0.2, p_new 0.3: rho = 1.5; A = +2: rho A = 3.0, clip(1.5, 0.8, 1.2) x 2 = 2.4, min 2.4, gradient 0.
    tex = formulas_tex(chapter)
    assert r"\rho = \frac{\pi_\theta(o_t)}{\pi_{\theta_{\text{old}}}(o_t)} = \frac{0.3}{0.2} = 1.5" in tex
    assert any(r"\min\bigl(1.5 \times 2.0,\ \operatorname{clip}(1.5, 0.8, 1.2) \times 2.0\bigr)" in t for t in tex)
    assert any(r"= \min(3.0,\ 2.4) = 2.4" in t for t in tex)
    # The token that moved the wrong way: A = -1, rho = 1.5, min(-1.5, -1.2) = -1.5, gradient A = -1.
    assert any(r"= \min(-1.5,\ -1.2) = -1.5" in t for t in tex)
    assert r"\frac{\partial L^{\text{CLIP}}}{\partial \rho} = A = -1.0" in tex
    assert any(r"\text{the clip binds:} \\ \rho = 0.6 < 1-\epsilon = 0.8,\quad A < 0" in t for t in tex)


def test_the_cases_table_by_hand(chapter: str) -> None:
    text = visible_text(chapter)
    # A, rho and where it lies, rho A, clip(rho) A, the min, the clip, the gradient; eps = 0.2.
    assert "+2.0 1.1, inside 2.2 2.2 2.2 does not bind +2.0" in text
    assert "+2.0 1.5, above 3.0 2.4 2.4 binds 0.0" in text
    assert "+2.0 0.6, below 1.2 1.6 1.2 unclipped term kept +2.0" in text
    assert "-1.0 0.6, below -0.6 -0.8 -0.8 binds 0.0" in text
    assert "-1.0 1.5, above -1.5 -1.2 -1.5 unclipped term kept -1.0" in text
    assert "the clip range is [0.8, 1.2]" in text


def test_gae_is_filled_in_token_by_token(chapter: str) -> None:
    # V = [0.5, 0.4, 0.7, 0.9, 0], rewards [0, 0, 0, 1], gamma 1, lambda 0.95 (test_ppo.py works it through).
    tex = formulas_tex(chapter)
    assert r"\delta_{4} = r_{4} + \gamma V(s_{5}) - V(s_{4}) = 1.0 + 1.0 \times 0.0 - 0.9 = 0.1" in tex
    assert r"\delta_{1} = r_{1} + \gamma V(s_{2}) - V(s_{1}) = 0.0 + 1.0 \times 0.4 - 0.5 = -0.1" in tex
    assert r"\hat{A}_{3} = \delta_{3} + \gamma\lambda\, \hat{A}_{4} = 0.2 + 1.0 \times 0.95 \times 0.1 = 0.295" in tex
    assert (
        r"\hat{A}_{1} = \delta_{1} + \gamma\lambda\, \hat{A}_{2} \approx (-0.1) + 1.0 \times 0.95 \times 0.5802 "
        r"\approx 0.4512" in tex
    )
    text = visible_text(chapter)
    assert "1 7 × 8 0.0 0.5 -0.1 ≈ +0.4512 +0.5" in text
    assert "For the first token that is +0.5, against ≈ +0.4512 with GAE" in text


def test_the_critics_memory_by_hand(chapter: str) -> None:
    # 7e9 parameters x 16 bytes = 112 GB; the 16-bit weights alone 14 GB.
    text = visible_text(chapter)
    assert "That is 112 GB before a single activation is stored" in text
    assert "For a critic of 7 billion parameters" in text
    assert "weights (16-bit) 2 14 GB" in text
    assert "total 16 112 GB" in text


def test_the_plot_is_an_accessible_figure(chapter: str) -> None:
    found = re.findall(r'<figure class="grpo-figure">.*?</figure>', chapter, re.S)
    assert len(found) == 1
    figure = ET.fromstring(found[0])
    svg = figure.find(f"{SVG}svg")
    assert svg is not None and svg.get("role") == "img" and svg.get("id") == "ppo-clip"
    desc = svg.find(f"{SVG}desc")
    # A = +2: flat at 1.2 x 2 = 2.4 above rho = 1.2; A = -1: flat at 0.8 x -1 = -0.8 below rho = 0.8.
    assert desc is not None and desc.text
    assert "for A = +2.0, L rises" in desc.text and "flat at 2.4 beyond it" in desc.text
    assert "for A = −1.0, L is flat at −0.8 below ρ = 0.8" in desc.text  # the book's minus, as the legend writes it
    labels = [t.text for t in svg.iter(f"{SVG}text")]
    assert "probability ratio ρ (unitless)" in labels and "objective L (units of A)" in labels
    assert {"−1", "0", "1", "2"} <= set(labels) and not any(re.fullmatch(r"-\d.*", t or "") for t in labels)
    assert svg.find(f".//{SVG}rect[@class='grpo-band']") is not None
    caption = figure.find("figcaption")
    assert caption is not None and caption.text


def test_the_widget_falls_back_to_the_cases_table(chapter: str) -> None:
    start = chapter.index('<figure class="grpo-widget" data-widget-kind="clip"')
    figure = chapter[start : chapter.index("</figure>", start)]
    assert 'data-widget-script="clip-widget.js"' in figure
    static = figure[: figure.index("grpo-widget__data")]  # the tables before the data
    assert static.count('<table class="grpo-table') == 1 and "How these numbers were computed" in static


def test_the_page_links_its_terms_to_the_glossary(chapter: str, built_site: Path) -> None:
    glossary = page_html(built_site, "glossary")
    for term in ("probability-ratio", "clip-range", "surrogate-objective", "critic", "td-error", "gae"):
        assert f'href="../glossary/#{term}"' in chapter
        assert f'id="{term}"' in glossary


def test_the_nav_puts_ppo_before_verifiable_rewards(built_site: Path) -> None:
    home = (built_site / "index.html").read_text(encoding="utf-8")
    links = re.findall(r'<a href="([a-z-]+)/" class="md-nav__link', home)
    assert links.index("ppo") + 1 == links.index("verifiable-rewards")


def test_the_references_carry_the_new_sources(built_site: Path) -> None:
    references = visible_text(page_html(built_site, "references"))
    for source in ("2203.02155", "1910.02054", "1506.02438", "trl/experimental/ppo/ppo_trainer.py"):
        assert source in references


def test_every_block_draws_only_the_model_it_is_made_for() -> None:
    # Each PPO block takes a path to its own node of the PPO model; handed a group, it says what to write.
    for name in ppo_layouts.BLOCKS:
        [problem] = expand(book(), f"<!-- grpo:block {name} easy -->").problems
        assert f"block '{name}'" in problem.message and "easy is a Group" in problem.message, problem.message
        assert re.search(rf"write <!-- grpo:block {name} ppo(\.[a-z]+)? -->", problem.message), problem.message


def test_a_misspelt_path_says_what_exists() -> None:
    [problem] = expand(book(), "<!-- grpo:value ppo.cases.positive-abov.ratio -->").problems
    assert "ppo.cases has no 'positive-abov'" in problem.message
    assert "did you mean 'positive-above'?" in problem.message
    assert all(case in problem.message for case in gx.chapter("ppo").cases), problem.message  # what there is
    [problem] = expand(book(), "<!-- grpo:formula ppo.gae.tokens.9.delta -->").problems
    assert "ppo.gae.tokens has no '9'" in problem.message
    assert "1, 2, 3, 4" in problem.message  # the four tokens of ppo.toml, numbered as a page names them


def _book_with_epsilon(epsilon: float) -> Book:
    """The book, with the PPO chapter computed from ppo.toml's settings but this clip range."""
    settings = dataclasses.replace(load(DATA / "ppo.toml", ppo_model.Settings), epsilon=epsilon)
    real = book()
    ppo = dataclasses.replace(real.subjects["ppo"], call=lambda: ppo_model.build(settings))
    return dataclasses.replace(real, subjects={**real.subjects, "ppo": ppo})


def test_a_claim_the_settings_break_stops_the_build_at_its_line() -> None:
    # With eps = 0.6 the range is [0.4, 1.6]: rho = 1.5 is inside, so "the clip binds" would be false.
    source = (ROOT / "docs" / "ppo.md").read_text(encoding="utf-8")
    body = source.split("---\n", 2)[2]
    first = source[: source.index(body)].count("\n") + 1
    claim = "<!-- grpo:check ppo.cases.positive-above.binds -->"
    line = next(i for i, text in enumerate(source.splitlines(), 1) if claim in text)
    assert expand(book(), body, first).problems == []
    problems = expand(_book_with_epsilon(0.6), body, first).problems
    found = [p for p in problems if p.offending == claim]
    assert len(found) == 1 and found[0].line == line
    assert "the prose claims ppo.cases.positive-above.binds" in found[0].message
    assert "The clip binds: the min takes the clipped term" in found[0].message  # the claim's docstring


def test_the_values_follow_the_settings() -> None:
    # eps = 0.3: clip range [0.7, 1.3]; the opening token: min(1.5 x 2, 1.3 x 2) = min(3.0, 2.6) = 2.6.
    shown = expand(
        _book_with_epsilon(0.3),
        "<!-- grpo:value ppo.clip.high --> <!-- grpo:value ppo.cases.positive-above.objective -->",
    ).markdown
    assert re.findall(r">([^<]+)</span>", shown) == ["1.3", "2.6"]


@pytest.mark.slow
def test_another_clip_range_and_lambda_change_the_built_page(tmp_path: Path) -> None:
    project = copy_project(tmp_path / "book")
    settings = project / "grpo_examples" / "data" / "ppo.toml"
    text = settings.read_text(encoding="utf-8")
    assert text.count("epsilon = 0.2 ") == 1 and text.count("lam = 0.95") == 1
    settings.write_text(text.replace("epsilon = 0.2 ", "epsilon = 0.3 ").replace("lam = 0.95", "lam = 0.5"), "utf-8")
    result = mkdocs_build(project, tmp_path / "site")
    assert result.returncode == 0, result.stderr
    page = article(page_html(tmp_path / "site", "ppo"))
    tex, text = formulas_tex(page), visible_text(page)
    # eps = 0.3, range [0.7, 1.3]. A = +2, rho = 1.5: min(3.0, 2.6) = 2.6. A = -1, rho = 0.6: min(-0.6, -0.7) = -0.7.
    assert any(
        r"\operatorname{clip}(1.5, 0.7, 1.3) \times 2.0\bigr)" in t and r"\min(3.0,\ 2.6) = 2.6" in t for t in tex
    )
    assert any(r"\text{the clip binds:} \\ \rho = 0.6 < 1-\epsilon = 0.7,\quad A < 0" in t for t in tex)
    assert "the clip range is [0.7, 1.3]" in text and "-1.0 0.6, below -0.6 -0.7 -0.7 binds 0.0" in text
    # lambda = 0.5, gamma 1: A_4 = 0.1, A_3 = 0.2 + 0.5 x 0.1 = 0.25, A_2 = 0.3 + 0.5 x 0.25 = 0.425,
    # A_1 = -0.1 + 0.5 x 0.425 = 0.1125.
    assert (
        r"\hat{A}_{1} = \delta_{1} + \gamma\lambda\, \hat{A}_{2} = (-0.1) + 1.0 \times 0.5 \times 0.425 = 0.1125" in tex
    )
    assert "against +0.1125 with GAE" in text
    assert "2.4" not in text.split("Six tokens, filled in")[1].split("Inside the range")[0]
