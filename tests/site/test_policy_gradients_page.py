"""The policy-gradient chapter as built, and as rebuilt from changed settings (in Chromium:
tests/browser/test_policy_gradients_page_browser.py).

The numbers expected here are worked out by hand for the chapter's bandit, pi = (0.3, 0.4, 0.2, 0.1) and
rewards (2, 1, 1, 0) (see tests/math/test_reinforce.py), and for the changed bandit of the generation tests.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from tests.conftest import copy_project, mkdocs_build
from tests.site_html import article, formulas_tex, page_html, visible_text

PAGE = "policy-gradients"
SVG = "{http://www.w3.org/2000/svg}"


def _chapter(site: Path) -> str:
    return article(page_html(site, PAGE))


def test_no_placeholder_is_left_over(built_site: Path) -> None:
    assert "grpo:" not in page_html(built_site, PAGE)


def test_the_opening_shows_the_computed_numbers_in_place(built_site: Path) -> None:
    text = visible_text(_chapter(built_site))
    # J = 1.2; candidate 2 (reward 1, probability 0.4) is pushed up by 1 x 0.6 without a baseline and down by
    # (1 - 1.2) x 0.6 with one; Var(0) = 1.14, ||grad J||^2 = 0.08, Var(J) = 0.228 = 1.14 / 5.
    assert "On average this model earns a reward of 1.2, its expected reward." in text
    assert "The recipe raises candidate 2's logit by +0.6, yet the true gradient lowers it (-0.08)" in text
    assert "the true gradient is 1.14, while the squared length of the gradient itself is only 0.08" in text
    assert "now lowers its logit (-0.12)" in text
    assert "falls to 0.228, five times smaller" in text
    assert "raises candidate 1's logit (+0.24) and lowers every other one" in text


def test_the_formulas_are_filled_in(built_site: Path) -> None:
    tex = formulas_tex(_chapter(built_site))
    joined = "\n".join(tex)
    assert r"&= 0.3 \times 2 + 0.4 \times 1 + 0.2 \times 1 + 0.1 \times 0 = 1.2" in joined
    assert r"= 0.4 \times (1 - 1.2) = -0.08" in joined
    assert r"0.1 \times (-0.3) = 0.0" in joined  # the score averages to zero
    assert r"0.1 \times 0.08 = 1.14" in joined and r"0.1 \times 1.328 = 0.228" in joined
    assert r"\frac{0.8}{0.7} \approx 1.1429" in joined


def test_the_rest_of_the_prose_follows_the_numbers(built_site: Path) -> None:
    text = visible_text(_chapter(built_site))
    # b* = 8/7 with variance 0.225714..., barely below Var(J) = 0.228.
    assert "Its variance, ≈ 0.2257, is barely below the expected reward's 0.228" in text
    assert "Candidate 4, with reward 0, is now pushed down hard (-1.08 on its own logit)" in text
    assert "makes the variance five times smaller is worth as much as five times as many responses" in text
    simulated = re.search(r"Without a baseline, (\d+) % of the groups would not raise candidate 1's logit", text)
    assert simulated is not None and 0 < int(simulated.group(1)) < 100
    # With b = J every sample raises candidate 1: (r(1) - J) (1 - pi(1)) > 0, and (J - r(c)) pi(1) > 0 for the rest.
    assert "it is the one answer worth raising; with b=J, 0 %." in text


def _figures(site: Path) -> list[ET.Element]:
    html = _chapter(site)
    return [ET.fromstring(m) for m in re.findall(r'<figure class="grpo-figure">.*?</figure>', html, re.S)]


def test_two_accessible_figures(built_site: Path) -> None:
    figures = _figures(built_site)
    assert len(figures) == 2
    for figure in figures:
        svg = figure.find(f"{SVG}svg")
        assert svg is not None and svg.get("role") == "img"
        assert (svg.findtext(f"{SVG}title") or "").strip() and (svg.findtext(f"{SVG}desc") or "").strip()
        labels = [t.text or "" for t in svg.iter(f"{SVG}text")]
        assert any("(reward" in label for label in labels)  # an axis with its unit
        assert (figure.findtext("figcaption") or "").strip()


def test_the_chapter_opens_the_book(built_site: Path) -> None:
    """First in the section, before PPO; the footer leads on to it."""
    home = (built_site / "index.html").read_text(encoding="utf-8")
    links = re.findall(r'<a href="([a-z-]+)/" class="md-nav__link', home)
    assert links.index(PAGE) < links.index("ppo") < links.index("grpo")
    assert re.search(r'<a href="\.\./ppo/" class="md-footer__link md-footer__link--next"', page_html(built_site, PAGE))


def test_the_glossary_and_references_have_the_chapters_terms(built_site: Path) -> None:
    glossary = page_html(built_site, "glossary")
    for term in ("bandit", "expected-reward", "score-function", "unbiased-estimate", "variance", "reinforce"):
        assert f'id="{term}"' in glossary
        assert f'href="../glossary/#{term}"' in page_html(built_site, PAGE)
    references = visible_text(page_html(built_site, "references"))
    for source in ("1301.2315", "1906.10652", "Greensmith", "Sutton and Barto", "rloo_trainer.py"):
        assert source in references


def _with_probabilities(tmp_path: Path, probabilities: tuple[float, ...]) -> Path:
    """A copy of the book whose bandit gives its candidates these probabilities, in order."""
    project = copy_project(tmp_path / "book")
    settings = project / "grpo_examples" / "data" / "bandit.toml"
    text = settings.read_text(encoding="utf-8")
    assert len(re.findall(r"^probability = .*$", text, flags=re.M)) == len(probabilities)
    values = iter(probabilities)
    settings.write_text(
        re.sub(r"^probability = .*$", lambda _: f"probability = {next(values)}", text, flags=re.M), encoding="utf-8"
    )
    return project


@pytest.mark.slow
def test_other_probabilities_change_every_number(tmp_path: Path) -> None:
    """pi = (0.4, 0.3, 0.2, 0.1). By hand: J = 0.8 + 0.3 + 0.2 = 1.3; grad J = pi (r - J) = (0.28, -0.09, -0.06,
    -0.13), ||grad J||^2 = 0.0784 + 0.0081 + 0.0036 + 0.0169 = 0.107; ||score||^2 = 1.3 - 2 pi = (0.5, 0.7, 0.9,
    1.1), E[r^2 ||score||^2] = 0.4 x 4 x 0.5 + 0.3 x 0.7 + 0.2 x 0.9 = 1.19, so Var(0) = 1.19 - 0.107 = 1.083;
    E[r ||score||^2] = 0.79 and E[||score||^2] = 0.7, so Var(J) = 1.083 - 2 x 1.3 x 0.79 + 1.69 x 0.7 = 0.212 and
    b* = 0.79 / 0.7 = 1.128571... Candidate 2 (reward 1, now probability 0.3): 1 x 0.7 = +0.7 without a baseline,
    -0.3 x 0.7 = -0.21 with one."""
    project = _with_probabilities(tmp_path, (0.4, 0.3, 0.2, 0.1))
    result = mkdocs_build(project, tmp_path / "site")
    assert result.returncode == 0, result.stderr
    chapter = _chapter(tmp_path / "site")
    text = visible_text(chapter)
    assert "On average this model earns a reward of 1.3, its expected reward." in text
    assert "The recipe raises candidate 2's logit by +0.7, yet the true gradient lowers it (-0.09)" in text
    assert "the true gradient is 1.083, while the squared length of the gradient itself is only 0.107" in text
    assert "now lowers its logit (-0.21)" in text
    assert "falls to 0.212, ≈ 5.1085 times smaller" in text  # 1.083 / 0.212 = 5.10849...
    assert "falls to 0.228" not in text
    tex = "\n".join(formulas_tex(chapter))
    assert r"&= 0.4 \times 2 + 0.3 \times 1 + 0.2 \times 1 + 0.1 \times 0 = 1.3" in tex
    assert r"\frac{0.79}{0.7} \approx 1.1286" in tex


@pytest.mark.slow
def test_settings_that_break_the_story_stop_the_build(tmp_path: Path) -> None:
    """pi = (0.1, 0.4, 0.2, 0.3): J = 0.2 + 0.4 + 0.2 = 0.8, so candidates 2 and 3 (reward 1) are above average
    and the true gradient raises them too. "raises candidate 1's logit and lowers every other one" is false, and
    the build names the line of its check."""
    project = _with_probabilities(tmp_path, (0.1, 0.4, 0.2, 0.3))
    result = mkdocs_build(project, tmp_path / "site")
    assert result.returncode != 0
    chapter = (project / "docs" / f"{PAGE}.md").read_text(encoding="utf-8").splitlines()
    line = next(i for i, t in enumerate(chapter, 1) if "grpo:check bandit.claims.only-best-above-average" in t)
    [error] = [e for e in result.stderr.splitlines() if f"docs/{PAGE}.md:{line}: " in e]
    assert "the prose claims bandit.claims.only-best-above-average" in error
    # The claim in the model's words (its docstring), and the data to change.
    assert "The true gradient raises the best candidate's logit and lowers every other one" in error
    assert "grpo_examples/data/bandit.toml" in error
    assert "Traceback" not in result.stderr
