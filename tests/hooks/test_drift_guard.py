"""The drift guard (hooks/engine/drift_guard.py) on small pages: what it catches, what it lets through, and what
it says."""

from __future__ import annotations

from fractions import Fraction

import pytest
from mkdocs.utils.meta import get_data

from hooks import checks
from hooks.engine import computed_index, drift_guard
from hooks.engine.computed_index import computed_values, matches
from hooks.engine.guide import EXAMPLE
from tests.conftest import ROOT


def problems(markdown: str, page: str = "docs/x.md", first_line: int = 1) -> list[str]:
    return drift_guard.problems(checks.book(), markdown, page, first_line)


def typed(markdown: str) -> list[str]:
    """The typed numbers the guard reports, as written."""
    numbers, _ = drift_guard.typed_numbers(markdown)
    return [n.text for n in numbers]


@pytest.mark.parametrize(
    ("markdown", "number", "kind"),
    [
        ("The baseline is 0.8 for this group.", "0.8", "decimal"),
        ("Four of five: 4/5 of the group.", "4/5", "fraction"),
        ("Its advantage is −2.0, far below.", "−2.0", "signed decimal"),
        ("Its advantage is -2.0, far below.", "-2.0", "signed decimal"),
        ("Each correct one gets +0.5 here.", "+0.5", "signed decimal"),
        ("A reward of +1 for a right answer.", "+1", "signed number"),
        ("TRL adds 1e-4 to the denominator.", "1e-4", "scientific notation"),
        ("Here 80% of the answers are right.", "80%", "percentage"),
        ("Inline: $`\\mu = 0.8`$.", "0.8", "decimal"),
        ("Inline: $`\\mu = \\frac{4}{5}`$.", "\\frac{4}{5}", "fraction"),
        ("Inline: $`A = -2.0`$.", "-2.0", "signed decimal"),
        ("Inline: $`A \\approx -2`$.", "-2", "signed number"),
        ("Inline: $`\\epsilon = 10^{-4}`$.", "10^{-4}", "scientific notation"),
        ("Inline: $`\\epsilon = 1 \\times 10^{-6}`$.", "1 \\times 10^{-6}", "scientific notation"),
        ("```math\n\\sigma^2 = 0.16\n```", "0.16", "decimal"),
        ("```math\n\\mu = \\tfrac{4}{5}\n```", "\\tfrac{4}{5}", "fraction"),
        ("| group | mean |\n|---|---|\n| easy | 0.8 |", "0.8", "decimal"),
        ("!!! note\n    The std is **0.4** here.", "0.4", "decimal"),
    ],
)
def test_each_kind_of_typed_number_is_caught(markdown: str, number: str, kind: str) -> None:
    numbers, _ = drift_guard.typed_numbers(markdown)
    assert [(n.text, n.kind) for n in numbers] == [(number, kind)]


def test_where_a_number_stands_is_its_file_line_and_column() -> None:
    numbers, _ = drift_guard.typed_numbers("First line.\n\nThe mean is 0.8.", first_line=5)
    assert (numbers[0].line, numbers[0].column) == (7, 13)


@pytest.mark.parametrize(
    "markdown",
    [
        "Hyperparameters from the paper: beta = 0.04[^dsm] and a clip of 0.2 [^ppo].",
        "The clip range is [0.8, 1.2][^ppo], and Adam's betas are (0.9, 0.999)[^adam].",
        "Quoted with its formula: $`\\beta = 0.04`$[^dsm].",
        "A coin flip, 0.5<!-- literal: the probability of heads, an illustration -->, decides.",
        "An interval [−1, +1]<!-- literal: the range of a centred reward -->.",
        "As a formula: $`\\epsilon = 0.2`$ <!-- literal: an illustrative clip range -->.",
        "Two citations, 0.04[^dsm][^trl].",
        "<!-- literal: an illustrative clip range -->\n```math\n\\rho \\in [0.8, 1.2]\n```",
    ],
)
def test_each_kind_of_marked_literal_passes(markdown: str) -> None:
    assert drift_guard.typed_numbers(markdown) == ([], [])


def test_a_marking_covers_only_what_it_follows() -> None:
    assert typed("Typed 0.3 and cited 0.04[^dsm].") == ["0.3"]
    assert typed("[^dsm]: A citation, 0.04.\n\nBack in the text: 0.3.") == ["0.3"]
    assert typed("<!-- literal: the block below -->\n\nNot this one: 0.7.") == ["0.7"]


@pytest.mark.parametrize(
    "markdown",
    [
        "Counts and years: five responses, G = 5, section 4, in 2024, 1,200 words, step 3 of 16.",
        "Citations: arXiv:2402.03300 (2024), section 4.1, sections 4.1 and 4.2, 2501.12948v2, Table 3.",
        "Versions: TRL version 1.10.0.dev0, verl v0.4.1, release 0.14, dated 2025-03-18 or 18/03/2025.",
        "Names: DeepSeek-R1, R1-Zero, Qwen2.5-Math-7B, GPT-4, Llama-3.1-8B, the k3 estimator.",
        "Binary minus: G-1 and $`G - 1`$ and $`1-\\epsilon`$ and $`r_i - \\mu`$ and $`\\sigma^{-1}`$.",
        "Notation: the 0/1 reward, $`\\sum_{i=1}^{G}`$, $`\\frac{1}{G}`$, $`\\hspace{0.5em}`$, $`10^{6}`$.",
        "Code: `beta = 0.04`, ``0.8 `x` ``, and a link [TRL](https://github.com/x/y/v0.8.1/file.py).",
        "Placeholders: <!-- grpo:value easy.mean --> and <!-- grpo:formula easy.mean -->.",
        '<img src="plot.svg" width="0.5" alt="x"> and an attribute list { width="0.5" }.',
        "Raw code: <code>$&#96;\\epsilon = 0.2&#96;$</code>.",
        "```python\nadvantage = (0.8 - 1) / 0.4\n```",
        "~~~text\n-2.0 +0.5 4/5\n~~~",
        "    <!-- comment 0.5 -->\n[^dsm]: Shao et al., arXiv:2402.03300, section 4.1.2.",
        "Sections 4.1 (objective, k3) and 4.2 (settings) of the paper.",
        "Cited.[^dsm]\n\n[^dsm]: Shao et al., section 4.2: KL coefficient 0.04,\n    64 samples, +1 or −1.",
    ],
)
def test_integers_citations_versions_names_code_and_placeholders_pass(markdown: str) -> None:
    assert drift_guard.typed_numbers(markdown) == ([], [])


def test_a_literal_marking_must_mark_something_and_say_why() -> None:
    _, stale = drift_guard.typed_numbers("Now computed <!-- grpo:value easy.mean --><!-- literal: was 0.8 -->.")
    assert [s.problem for s in stale] == ["marks no number: remove it"]
    _, stale = drift_guard.typed_numbers("A coin flip, 0.5<!-- literal -->.")
    assert "say why" in stale[0].problem


def test_the_message_names_the_path_that_computes_the_number_and_what_it_is() -> None:
    # The easy group's rewards are [1, 1, 1, 1, 0] (spec): mean 4/5 = 0.8, the wrong answer's advantage -2.0.
    [mean] = problems("The baseline is 0.8 here.", first_line=41)
    assert mean.startswith(
        "docs/x.md:41:17: typed number 0.8 (decimal) is easy.mean (mu = (1/G) sum_i r_i: the group's own baseline): "
        "write <!-- grpo:value easy.mean -->"
    )
    [fraction] = problems("Four of five: 4/5.")
    assert "is easy.mean" in fraction and "write <!-- grpo:value easy.mean -->" in fraction
    [advantage] = problems("It drops to −2.0.")
    assert "write <!-- grpo:value easy.advantage.wrong -->" in advantage


def test_a_number_of_a_chapter_names_the_chapters_path() -> None:
    # The bandit's J = 0.3 x 2 + 0.4 x 1 + 0.2 x 1 + 0.1 x 0 = 1.2; its variance without a baseline is 1.14.
    [expected] = problems("J is 1.2 here.")
    assert "write <!-- grpo:value bandit.expected-reward -->" in expected
    [variance] = problems("Without a baseline the variance is 1.14.")
    assert "write <!-- grpo:value bandit.baselines.none.variance -->" in variance


def test_in_a_displayed_formula_it_names_the_displayed_formula() -> None:
    [variance] = problems("```math\n\\sigma^2 = 0.8 \\times 0.2 = 0.16\n```")[2:]
    assert "0.16" in variance
    assert "write <!-- grpo:formula easy.variance display -->" in variance


def test_a_number_no_placeholder_computes_says_how_to_mark_it() -> None:
    [message] = problems("A clip range of 0.6173.")
    assert "no placeholder computes it" in message
    with pytest.raises(drift_guard.DriftError, match=r"0\.04\[\^source\]"):
        drift_guard.guard(checks.book(), "A clip range of 0.6173.", "docs/x.md")


def test_a_typed_number_is_matched_within_its_rounding() -> None:
    # The easy group's sample std is sqrt(0.2) = 0.4472... (divide by G - 1 = 4: 0.8 / 4).
    book = checks.book()
    assert any("easy.std-sample" in c.placeholder for c in matches(book, Fraction("0.447"), 3, in_math=False))
    assert not any("easy.std-sample" in c.placeholder for c in matches(book, Fraction("0.446"), 3, in_math=False))


def test_in_a_formula_the_formulas_come_first_in_prose_the_values() -> None:
    # 0.2 is a value (the easy group's q = 1 - 0.8, the hard group's mean) and a number of the easy group's
    # variance formula, p(1-p) = 0.8 x 0.2 = 0.16, the first of the book's formulas to show it.
    book = checks.book()
    in_math = matches(book, Fraction("0.2"), 1, in_math=True)
    assert in_math[0].in_formula and in_math[0].placeholder == "<!-- grpo:formula easy.variance -->"
    in_prose = matches(book, Fraction("0.2"), 1, in_math=False)
    assert not in_prose[0].in_formula
    assert "<!-- grpo:value easy.q -->" in [c.placeholder for c in in_prose]


@pytest.mark.parametrize("page", sorted((ROOT / "docs").rglob("*.md")), ids=lambda p: p.name)
def test_the_book_as_it_stands_passes(page: object) -> None:
    source = ROOT.joinpath(str(page)).read_text(encoding="utf-8")
    markdown, _ = get_data(source)
    assert problems(markdown, str(page)) == []


def test_the_guides_example_is_caught() -> None:
    assert [n.text for n in drift_guard.typed_numbers(EXAMPLE)[0]] == ["0.8"]


def test_the_index_of_computed_values_is_built_once_per_book_and_only_when_needed() -> None:
    computed_values.cache_clear()
    computed_index._by_magnitude.cache_clear()  # the index by magnitude, built from it
    problems("A clean page: five responses, <!-- grpo:value easy.mean -->.")
    assert computed_values.cache_info().currsize == 0  # nothing typed: no index built
    problems("Typed: 0.8.")
    problems("Typed again: −2.0 and 0.4.", "docs/y.md")
    assert computed_values.cache_info().misses == 1
