"""A comment close to a placeholder is an error with the placeholder it should be: a misspelt `grpo:` would
otherwise turn the placeholder into an HTML comment, and its number would vanish from the sentence while the
build passed (hooks/engine/placeholders.py near_miss). Ordinary comments stay comments."""

from __future__ import annotations

import pytest

from hooks import checks
from hooks.engine.placeholders import expand, near_miss

BOOK = checks.book()

# (a comment an author might write by mistake, the placeholder the message must offer), written by hand
NEAR_MISSES = [
    ("<!-- gpro:value easy.mean -->", "<!-- grpo:value easy.mean -->"),
    ("<!-- grop:value easy.mean -->", "<!-- grpo:value easy.mean -->"),
    ("<!-- rgpo:value easy.mean -->", "<!-- grpo:value easy.mean -->"),
    ("<!-- gpo:value easy.mean -->", "<!-- grpo:value easy.mean -->"),
    ("<!-- grp:value easy.mean -->", "<!-- grpo:value easy.mean -->"),
    ("<!-- grrpo:value easy.mean -->", "<!-- grpo:value easy.mean -->"),
    ("<!-- GPRO:value easy.mean -->", "<!-- grpo:value easy.mean -->"),
    ("<!-- gpro: value easy.mean -->", "<!-- grpo:value easy.mean -->"),
    ("<!-- gpro value easy.mean -->", "<!-- grpo:value easy.mean -->"),
    ("<!--gpro:value easy.mean-->", "<!-- grpo:value easy.mean -->"),
    ("<!-- gpro:valeu easy.mean -->", "<!-- grpo:value easy.mean -->"),
    ("<!-- gpro:value easy.count.correct as=words -->", "<!-- grpo:value easy.count.correct as=words -->"),
    ("<!-- grop:formula easy.mean display -->", "<!-- grpo:formula easy.mean display -->"),
    ("<!-- gpro:block worked-example easy -->", "<!-- grpo:block worked-example easy -->"),
    ("<!-- gpro:widget group easy hard -->", "<!-- grpo:widget group easy hard -->"),
    ("<!-- gpro:check easy.claims.binary -->", "<!-- grpo:check easy.claims.binary -->"),
    ("<!-- value easy.mean -->", "<!-- grpo:value easy.mean -->"),
    ("<!-- value: easy.mean -->", "<!-- grpo:value easy.mean -->"),
    ("<!-- Value easy.mean -->", "<!-- grpo:value easy.mean -->"),
    ("<!-- formula easy.advantage.wrong display -->", "<!-- grpo:formula easy.advantage.wrong display -->"),
    ("<!-- block worked-example easy -->", "<!-- grpo:block worked-example easy -->"),
    ("<!-- widget clip ppo -->", "<!-- grpo:widget clip ppo -->"),
    ("<!-- check easy.claims.binary -->", "<!-- grpo:check easy.claims.binary -->"),
    ("<!-- easy.mean -->", "<!-- grpo:value easy.mean -->"),
    ("<!-- ppo.cases -->", "<!-- grpo:value ppo.cases -->"),
    ("<!-- TODO: quote easy.mean here -->", "<!-- grpo:value easy.mean -->"),
]

ORDINARY = [
    "<!-- literal: the reward values DAPO uses, from the paper cited on this line -->",
    "<!-- note to self: shorten this paragraph -->",
    "<!-- check this paragraph against the paper -->",  # a kind's name, but nothing of the book after it
    "<!-- grid: two columns -->",  # two edits from grpo, but no kind follows
    "<!-- group: the easy one -->",
    "<!-- value judgement: keep it short -->",
    "<!-- easy to read? -->",  # a group's name, but not a path into it
    "<!-- -->",
]


@pytest.mark.parametrize(("comment", "meant"), NEAR_MISSES)
def test_a_near_miss_is_read_as_the_placeholder_it_should_be(comment: str, meant: str) -> None:
    assert near_miss(BOOK, comment) == meant


@pytest.mark.parametrize("comment", ORDINARY)
def test_an_ordinary_comment_stays_a_comment(comment: str) -> None:
    assert near_miss(BOOK, comment) is None
    expanded = expand(BOOK, f"Some prose. {comment} More prose.\n")
    assert expanded.problems == [] and comment in expanded.markdown


@pytest.mark.parametrize(("comment", "meant"), NEAR_MISSES)
def test_a_near_miss_in_prose_stops_the_page_with_its_line_and_the_fix(comment: str, meant: str) -> None:
    expanded = expand(BOOK, f"# Title\n\nThe mean is {comment} for the group.\n", first_line=4)
    [problem] = expanded.problems
    assert (problem.line, problem.offending) == (6, comment)
    assert f"write {meant}" in problem.message


def test_a_near_miss_inside_code_is_shown_as_written() -> None:
    page = "Write `<!-- gpro:value easy.mean -->` by mistake and\n\n```html\n<!-- gpro:value easy.mean -->\n```\n"
    assert expand(BOOK, page).problems == []


def test_every_near_miss_of_a_page_is_reported() -> None:
    page = "A <!-- gpro:value easy.mean --> and <!-- value hard.mean -->.\n\nThen <!-- easy.std -->.\n"
    assert [(p.line, p.offending) for p in expand(BOOK, page).problems] == [
        (1, "<!-- gpro:value easy.mean -->"),
        (1, "<!-- value hard.mean -->"),
        (3, "<!-- easy.std -->"),
    ]


def test_the_books_own_pages_have_no_near_miss() -> None:
    from tests.conftest import ROOT

    for page in sorted((ROOT / "docs").rglob("*.md")):
        text = page.read_text(encoding="utf-8")
        found = [p for p in expand(BOOK, text).problems if "written wrong" in p.message]
        assert found == [], page
