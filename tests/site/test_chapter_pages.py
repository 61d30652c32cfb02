"""The verifiable-rewards, training-run, glossary and references pages as built, and as rebuilt from changed data.
How they render in Chromium is tests/browser/test_chapter_pages_browser.py."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from tests.conftest import copy_project, mkdocs_build
from tests.site_html import computed_values

CHAPTERS = ("verifiable-rewards", "training-run", "glossary", "references")
SVG = "{http://www.w3.org/2000/svg}"


def _page(site: Path, name: str) -> str:
    return (site / name / "index.html").read_text(encoding="utf-8")


def _values(html: str) -> list[str]:
    """Every computed value on the page, in order."""
    return [shown for _, shown in computed_values(html)]


def _figures(html: str) -> list[ET.Element]:
    return [ET.fromstring(m) for m in re.findall(r'<figure class="grpo-figure">.*?</figure>', html, re.S)]


@pytest.mark.parametrize("name", CHAPTERS)
def test_no_placeholder_is_left_over(built_site: Path, name: str) -> None:
    assert "grpo:" not in _page(built_site, name)


def test_training_run_has_three_accessible_figures(built_site: Path) -> None:
    figures = _figures(_page(built_site, "training-run"))
    assert len(figures) == 3
    for figure in figures:
        svg = figure.find(f"{SVG}svg")
        assert svg is not None and svg.get("role") == "img"
        ids = (svg.get("aria-labelledby") or "").split()
        found = {element.get("id") for element in svg.iter() if element.get("id")}
        assert ids and set(ids) <= found
        labels = [t.text for t in svg.iter(f"{SVG}text")]
        assert any(label and "(" in label for label in labels)  # an axis label with its unit in parentheses
        caption = figure.find("figcaption")
        assert caption is not None and caption.text


def test_pages_are_linked_in_reading_order(built_site: Path) -> None:
    home = (built_site / "index.html").read_text(encoding="utf-8")
    links = re.findall(r'<a href="([a-z-]+)/" class="md-nav__link', home)
    order = [
        "policy-gradients",
        "ppo",
        "verifiable-rewards",
        "grpo",
        "grpo-in-practice",
        "training-run",
        "glossary",
        "references",
    ]
    assert [link for link in links if link in order] == order


def test_grpo_chapter_links_to_the_checker(built_site: Path) -> None:
    assert re.search(r'href="\.\./verifiable-rewards/"[^>]*>the previous chapter', _page(built_site, "grpo"))


def test_glossary_has_the_anchors_chapters_link_to(built_site: Path) -> None:
    glossary = _page(built_site, "glossary")
    for term in (
        "advantage",
        "baseline",
        "critic",
        "policy",
        "reward",
        "group",
        "verifiable-reward",
        "kl-divergence",
        "clip-range",
    ):
        assert f'id="{term}"' in glossary


def test_references_give_arxiv_ids_and_versions(built_site: Path) -> None:
    references = _page(built_site, "references")
    for arxiv in ("2402.03300", "2501.12948", "2503.20783", "2503.14476", "2402.14740", "1707.06347"):
        assert arxiv in references
    assert "1.10.0.dev0" in references


@pytest.mark.slow
def test_a_response_whose_verdict_flips_changes_the_page(tmp_path: Path, built_site: Path) -> None:
    """Turn the fractions group's 0.5 into 0.6: its accuracy flips to 0 and four correct becomes three."""
    (tmp_path / "project").mkdir()
    project = copy_project(tmp_path / "project")
    examples = project / "grpo_examples" / "data" / "groups.toml"
    text = examples.read_text(encoding="utf-8")
    assert text.count("\\\\boxed{0.5}") == 1
    examples.write_text(text.replace("\\\\boxed{0.5}", "\\\\boxed{0.6}"), encoding="utf-8")
    result = mkdocs_build(project, tmp_path / "site")
    assert result.returncode == 0, result.stderr
    before, after = _page(built_site, "verifiable-rewards"), _page(tmp_path / "site", "verifiable-rewards")
    why = r'<span class="grpo-why"[^>]*>.*?</span>'  # each value's provenance popover
    sentence = re.compile(rf"Of the <button[^>]*>(\w+)</button>{why} responses, <button[^>]*>(\w+)</button>{why} earn")
    assert sentence.findall(before) == [("seven", "four")]  # by hand from the texts: 1, 2, 3 and 6 are right
    assert sentence.findall(after) == [("seven", "three")]
    assert "<code>3/5</code>" in after and "<code>3/5</code>" not in before


@pytest.mark.slow
def test_another_seed_changes_the_training_page(tmp_path: Path, built_site: Path) -> None:
    (tmp_path / "project").mkdir()
    project = copy_project(tmp_path / "project")
    settings = project / "grpo_examples" / "data" / "run.toml"
    text = settings.read_text(encoding="utf-8")
    seed = re.search(r"^seed = (\d+)", text, re.M)
    assert seed
    settings.write_text(text.replace(seed.group(0), f"seed = {int(seed.group(1)) + 1}"), encoding="utf-8")
    result = mkdocs_build(project, tmp_path / "site")
    assert result.returncode == 0, result.stderr
    before, after = _page(built_site, "training-run"), _page(tmp_path / "site", "training-run")
    assert _values(before) != _values(after)
    points = [re.findall(r'points="([^"]*)"', html) for html in (before, after)]
    assert points[0] != points[1]


@pytest.mark.slow
def test_an_unreachable_threshold_stops_the_build(tmp_path: Path) -> None:
    """A threshold above the maximum reward: 'GRPO crosses the threshold after ...' would be false."""
    (tmp_path / "project").mkdir()
    project = copy_project(tmp_path / "project")
    settings = project / "grpo_examples" / "data" / "run.toml"
    text = settings.read_text(encoding="utf-8")
    settings.write_text(re.sub(r"^threshold = \S+", "threshold = 2.5", text, flags=re.M), encoding="utf-8")
    result = mkdocs_build(project, tmp_path / "site")
    assert result.returncode != 0
    assert "training-run.md:" in result.stderr
    assert "never reaches the threshold 2.5" in result.stderr


@pytest.mark.slow
def test_the_same_settings_give_the_same_training_page(tmp_path: Path, built_site: Path) -> None:
    """A second build, in another process, trains again and draws exactly the same curves and numbers."""
    (tmp_path / "project").mkdir()
    project = copy_project(tmp_path / "project")
    result = mkdocs_build(project, tmp_path / "site")
    assert result.returncode == 0, result.stderr
    before, after = _page(built_site, "training-run"), _page(tmp_path / "site", "training-run")
    assert _values(before) == _values(after)
    assert [ET.tostring(f) for f in _figures(before)] == [ET.tostring(f) for f in _figures(after)]
