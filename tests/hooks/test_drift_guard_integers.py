"""The drift guard on integers and number words (issue 19): a count typed where the page's own subjects compute it
fails; a coincidence marked with its reason, a section number, a small number, or a count of a subject the page
does not use passes.

Every expected value is read off the data files by hand, never from the program:
- groups.toml [easy]: five responses, four of them box 56 (the answer) and one boxes 54, so G = 5 and
  count.correct = 4;
- bandit.toml: batches = 2000, group_size = 8.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from mkdocs.utils.meta import get_data

from hooks import checks
from hooks.engine import drift_guard
from hooks.engine.literals import NUMBER_WORDS
from hooks.engine.placeholders import expand
from tests.conftest import ROOT

EASY = frozenset({"easy"})


def findings(markdown: str, used: frozenset[str]) -> list[drift_guard.Finding]:
    return drift_guard.findings(checks.book(), markdown, used=used)


def messages(markdown: str, used: frozenset[str], page: str = "docs/x.md") -> list[str]:
    return drift_guard.problems(checks.book(), markdown, page, used=used)


def test_a_count_in_words_of_a_subject_the_page_uses_fails_and_names_the_placeholder_in_words() -> None:
    [four] = messages("Of the group's answers,\nfour are right.", EASY, page="docs/grpo.md")
    assert four.startswith("docs/grpo.md:2:1: typed number four (number word) is easy.count.correct")
    assert "write <!-- grpo:value easy.count.correct as=words -->" in four


def test_a_count_in_digits_names_the_placeholder_in_digits() -> None:
    [four] = messages("Here 4 answers are right.", EASY)
    assert four.startswith("docs/x.md:1:6: typed number 4 (integer) is easy.count.correct")
    assert "write <!-- grpo:value easy.count.correct -->" in four
    assert "as=words" not in four


def test_the_group_size_is_caught_in_words_in_digits_and_inside_a_formula() -> None:
    found = findings("Five answers, 5 of them, $`G = 5`$.", EASY)
    assert [(f.column, f.offending) for f in found] == [(1, "Five"), (15, "5"), (32, "5")]
    assert all("easy.G" in f.message for f in found)
    assert "as=words" in found[0].message and "as=words" not in found[1].message


def test_findings_are_sorted_by_line_and_column_and_carry_the_offending_text() -> None:
    found = findings("Stale: <!-- literal: was 0.8 -->, then 0.3 and 5.\nfour.", EASY)
    assert [(f.line, f.column) for f in found] == [(1, 8), (1, 40), (1, 48), (2, 1)]
    assert [f.offending for f in found] == ["<!-- literal: was 0.8 -->", "0.3", "5", "four"]


def test_the_same_count_on_a_page_that_does_not_use_the_subject_passes() -> None:
    text = "Four of the five answers are right: 4 of 5, $`G = 5`$."
    assert messages(text, frozenset()) == []
    assert messages(text, frozenset({"run"})) == []  # the training run holds no 4 and no 5
    assert len(messages(text, EASY)) == 5


def test_a_marked_coincidence_passes_and_an_unmarked_one_fails() -> None:
    bandit = frozenset({"bandit"})
    [year] = messages("Published in 2000.", bandit)
    assert "bandit.batches" in year and "write <!-- grpo:value bandit.batches -->" in year
    assert messages("Published in 2000<!-- literal: a year, not the batch count -->.", bandit) == []
    assert messages("Eight<!-- literal: an illustration --> people.", bandit) == []


def test_a_marking_of_an_integer_must_say_why() -> None:
    [problem] = messages("Published in 2000<!-- literal -->.", frozenset({"bandit"}))
    assert "<!-- literal --> say why the number is typed" in problem
    [problem] = messages("Published in 2000<!-- literal: -->.", frozenset({"bandit"}))
    assert "say why" in problem


@pytest.mark.parametrize(
    "markdown",
    [
        "See section 5, sections 4 and 5, step 4 of the loop, eq. 5 and Table 4.",
        "1. first\n2. second\n4. fourth\n5. fifth",
        "Zero, one, 0 and 1: the wrong answer has zero reward and one answer is wrong.",
        "Scripts and notation: $`\\sigma^2`$, $`r_4`$, $`x_{5}`$, $`\\frac{1}{G}`$, $`\\sum_{i=1}^{5}`$.",
        "Arguments in braces: $`\\frac{4}{G}`$, $`\\sqrt{5}`$, $`\\hat{A}_{i,4}`$, $`\\text{the 5 answers}`$.",
        "Names: the 4th answer, Llama-5B, k5, GPT-4, top-5, and a footnote[^4].\n\n[^4]: Five authors, 2005.",
        "Code and placeholders: `G = 5`, <!-- grpo:value easy.count.correct as=words -->.",
        "Fives, fourth and none are not number words; neither is someone.",
    ],
)
def test_section_numbers_small_numbers_notation_names_and_code_pass(markdown: str) -> None:
    assert messages(markdown, EASY) == []


def test_a_displayed_formula_is_read_and_its_marking_above_covers_it() -> None:
    block = "```math\nG = 5\n```"
    [found] = findings(block, EASY)
    assert (found.line, found.offending) == (2, "5")
    assert findings("<!-- literal: the size of a group drawn by hand -->\n" + block, EASY) == []


def test_guard_raises_with_every_finding_and_how_to_mark() -> None:
    with pytest.raises(drift_guard.DriftError) as error:
        drift_guard.guard(checks.book(), "Four of five.", "docs/x.md", used=EASY)
    lines = str(error.value).split("\n")
    assert [line.split(": ")[0] for line in lines[:2]] == ["docs/x.md:1:1", "docs/x.md:1:9"]
    assert lines[-1] == drift_guard.HOW_TO_MARK


@pytest.mark.parametrize("page", sorted((ROOT / "docs").rglob("*.md")), ids=lambda p: p.name)
def test_the_book_has_no_unmarked_integer_of_the_subjects_each_page_uses(page: Path) -> None:
    markdown, _ = get_data(page.read_text(encoding="utf-8"))
    used = expand(checks.book(), markdown).used
    assert [(f.line, f.offending, f.message) for f in findings(markdown, used)] == []


def test_the_books_markings_of_counts_are_what_makes_it_pass() -> None:
    # The <!-- literal: ... --> right after the words and integers of each page that uses a subject, taken out,
    # leave findings on that page: the book test above passes because of the markings, not because the guard
    # reads no integer. (Not each marking: training-run.md marks a "two" that only another seed of the run makes
    # a count, as tests/site/test_chapter_pages.py's other seed does.)
    marked = re.compile(r"(?<![\w.])(?P<number>\d+|[A-Za-z]+)(?P<marking><!-- literal: [^>]*-->)")
    pages = []
    for page in sorted((ROOT / "docs").rglob("*.md")):
        markdown, _ = get_data(page.read_text(encoding="utf-8"))
        used = expand(checks.book(), markdown).used

        def unmarked(match: re.Match[str]) -> str:
            number = match.group("number")
            return number if number.isdigit() or number.lower() in NUMBER_WORDS else match.group()

        stripped = marked.sub(unmarked, markdown) if used else markdown  # no subject: the guide's examples, in code
        if stripped != markdown:
            assert findings(stripped, used) != [], page.name
            pages.append(page.name)
    assert "training-run.md" in pages


def test_an_integer_with_thousands_separators_is_read_whole() -> None:
    [batches] = messages("The simulation draws 2,000 batches.", frozenset({"bandit"}))
    assert "typed number 2,000 (integer) is bandit.batches" in batches


def test_the_count_named_first_is_of_the_subject_whose_placeholders_stand_nearest() -> None:
    # practice.toml [kl]: four candidate tokens ("56", "54", "48", "15"); groups.toml [easy]: four right answers.
    both = frozenset({"easy", "practice"})
    gap = "\n" * 20
    near_kl = f"<!-- grpo:value easy.mean -->{gap}<!-- grpo:widget kl practice.kl -->\n\nOn the four tokens above."
    [four] = messages(near_kl, both)
    assert "write <!-- grpo:value practice.kl.count as=words -->" in four
    near_easy = f"<!-- grpo:widget kl practice.kl -->{gap}<!-- grpo:value easy.mean -->\n\nOn the four answers."
    [four] = messages(near_easy, both)
    assert "write <!-- grpo:value easy.count.correct as=words -->" in four


def test_a_field_that_repeats_the_key_of_its_entry_is_numbering_not_a_count() -> None:
    # ppo.toml [gae]: four tokens, which the model numbers 1 to 4 (ppo.gae.tokens.2.t is 2): two is no count of
    # the chapter, four is its T.
    ppo = frozenset({"ppo"})
    assert messages("The two extremes bracket this.", ppo) == []
    [four] = messages("All four tokens.", ppo)
    assert "write <!-- grpo:value ppo.gae.T as=words -->" in four


def test_no_count_is_looked_up_for_a_small_number_or_a_page_that_uses_no_subject(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    looked_up: list[object] = []

    def counts(*arguments: object) -> list[object]:
        looked_up.append(arguments)
        return []

    monkeypatch.setattr(drift_guard, "counts", counts)
    findings("One answer, zero reward, 0 and 1.", EASY)
    findings("Five answers.", frozenset())
    assert looked_up == []
    findings("Five answers.", EASY)
    assert len(looked_up) == 1
