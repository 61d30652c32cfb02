"""The GRPO chapter and its group widget cite the same section of DeepSeekMath for the advantage.

DeepSeekMath (Shao et al., arXiv:2402.03300) defines the GRPO objective in section 4.1.1 ("From PPO to GRPO",
equation 3) and the group-normalised advantage, (r_i - mean(r)) / std(r), in section 4.1.2 ("Outcome
Supervision RL with GRPO"). The widget names its source for the book's convention (grpo_examples'
POPULATION.source, shown under the widget); the chapter's prose and its Sources must name the same section for
the same thing, and the section that holds it.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from tests.site_html import article, page_html, visible_text

DATA = re.compile(r'<script (?=[^>]*type="application/json")[^>]*class="grpo-widget__data"[^>]*>(.*?)</script>', re.S)
GROUP_FIGURE = re.compile(r'<figure class="grpo-widget" data-widget-kind="group"[^>]*>.*?</figure>', re.S)
SECTION = re.compile(r"\bsection (\d+(?:\.\d+)+)")
# Where the paper defines each thing the chapter cites it for.
DEFINED_IN = {"advantage": "4.1.2", "objective": "4.1.1"}


def _widget_section(page: str) -> str:
    [figure] = GROUP_FIGURE.findall(page)
    [data] = json.loads(DATA.findall(figure)[0])
    [source] = [c["source"] for c in data["conventions"] if c["key"] == "population"]
    found = SECTION.search(source)
    assert found is not None and "DeepSeekMath" in source, source
    return found.group(1)


def _clauses_citing_a_section(page: str) -> list[tuple[str, str]]:
    """(section, clause) for each clause of the chapter's text that cites a section: the text between two of
    '; ', '. ' (a section number's dots are followed by digits, not a space) and the ends of a block."""
    text = visible_text(article(page).split(GROUP_FIGURE.findall(page)[0])[1])  # the chapter after its widget
    return [(found.group(1), clause) for clause in re.split(r"[;.]\s", text) for found in SECTION.finditer(clause)]


def test_the_chapter_cites_the_section_the_widget_cites_for_the_advantage(built_site: Path) -> None:
    page = page_html(built_site, "grpo")
    assert _widget_section(page) == DEFINED_IN["advantage"]
    cited = _clauses_citing_a_section(page)
    for thing, section in DEFINED_IN.items():
        about = [(s, clause) for s, clause in cited if thing in clause.lower()]
        assert about, f"the chapter no longer cites a section for the {thing}"
        assert [clause for s, clause in about if s != section] == [], f"the {thing} is in section {section}"
