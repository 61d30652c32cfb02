"""Each placeholder form expands as documented; each bad one fails with the page, the line and the text."""

from __future__ import annotations

import re

import pytest

from hooks.numbers import MINUS
from hooks.placeholders import PageError, expand

PAGE = "docs/chapter.md"


def expanded(markdown: str) -> str:
    return expand(markdown, PAGE).markdown


def error_of(markdown: str) -> str:
    with pytest.raises(PageError) as caught:
        expand(markdown, PAGE)
    return str(caught.value)


def test_value_is_formatted_and_says_where_it_came_from() -> None:
    out = expanded("The wrong answer gets <!-- grpo:value easy.advantage.wrong -->.")
    assert f">{MINUS}2.0</span>." in out
    assert 'title="Computed at build time: grpo_examples.work_group([1, 1, 1, 1, 0])' in out
    assert "<!--" not in out


def test_value_signs_and_words() -> None:
    assert ">+0.5<" in expanded("<!-- grpo:value easy.advantage.correct -->")
    assert ">0.8<" in expanded("<!-- grpo:value easy.mean -->")
    assert ">four<" in expanded("<!-- grpo:value easy.count.correct as=words -->")
    assert ">five<" in expanded("<!-- grpo:value easy.G as=words -->")
    assert ">four times<" in expanded("<!-- grpo:value easy.rare-to-common as=words -->")


def test_trainer_conventions_are_rounded_with_a_sign_that_says_so() -> None:
    # TRL: (0 - 0.8) / (sqrt(0.2) + 1e-4) = -1.78845..., shown rounded to four places.
    assert f">≈ {MINUS}1.7885<" in expanded("<!-- grpo:value easy.advantage.wrong.trl -->")


def test_text_values_are_escaped() -> None:
    assert "What is 7 × 8?" in expanded("<!-- grpo:value easy.question -->")


def test_inline_formula_is_filled_in() -> None:
    out = expanded("So <!-- grpo:formula easy.advantage.wrong --> here.")
    assert out.startswith("So $`A_{\\text{wrong}}")
    assert r"\frac{0 - 0.8}{0.4}" in out
    assert out.endswith("= -2.0`$ here.")


def test_display_formula_is_a_math_fence() -> None:
    out = expanded("<!-- grpo:formula easy.mean display -->")
    assert out == "```math\n\\mu = \\frac{1+1+1+1+0}{5} = \\frac{4}{5} = 0.8\n```"


def test_bernoulli_variance_and_rounded_std() -> None:
    assert r"p(1-p) = 0.8 \times 0.2 = 0.16" in expanded("<!-- grpo:formula easy.variance -->")
    assert r"\sqrt{0.16} = 0.4" in expanded("<!-- grpo:formula easy.std -->")


def test_worked_example_block() -> None:
    out = expanded("<!-- grpo:block worked-example easy -->")
    assert "Bernoulli group" in out
    assert r"\frac{4}{5} = 0.8" in out
    assert r"\frac{-0.8}{0.4} = -2.0" in out
    assert "four times a correct response's" in out
    assert "being wrong was rare in this group (one of five)" in out
    assert '??? abstract "How these numbers were computed"' in out
    assert "`grpo_examples.work_group([1, 1, 1, 1, 0])`" in out


def test_worked_example_of_the_hard_group_turns_the_sentence_around() -> None:
    out = expanded("<!-- grpo:block worked-example hard -->")
    assert "four times a wrong response's" in out
    assert "being right was rare in this group (one of five)" in out


def test_compare_block_is_a_table_of_both_groups() -> None:
    out = expanded("<!-- grpo:block compare easy hard -->")
    rows = [line for line in out.splitlines() if line.startswith("| the ")]
    assert rows[0].split(" | ")[1:] == ["1, 1, 1, 1, 0", "4 of 5", "0.8", "0.4", "+0.5", f"{MINUS}2.0 |"]
    assert rows[1].split(" | ")[1:] == ["1, 0, 0, 0, 0", "1 of 5", "0.2", "0.4", "+2.0", f"{MINUS}0.5 |"]


def test_deviations_block_shows_both_scales() -> None:
    out = expanded("<!-- grpo:block deviations easy split -->")
    easy, split = (line for line in out.splitlines() if line.startswith("| the easy") or line.startswith("| an even"))
    assert f"+0.2, {MINUS}0.8 | 0.4 | +0.5, {MINUS}2.0 | 1.0" in easy
    assert f"+0.5, {MINUS}0.5 | 0.5 | +1.0, {MINUS}1.0 | 1.0" in split


def test_block_keeps_the_indentation_of_its_line() -> None:
    out = expanded("!!! note\n    <!-- grpo:block compare easy hard -->")
    assert all(line.startswith("    ") for line in out.splitlines()[1:] if line)


def test_check_renders_nothing_when_true() -> None:
    assert expanded("Rare. <!-- grpo:check easy wrong-is-rare -->") == "Rare. "


def test_check_fails_the_page_when_false() -> None:
    message = error_of("Being wrong is rare.\n<!-- grpo:check hard wrong-is-rare -->")
    assert message.startswith(f"{PAGE}:2: the prose claims 'wrong-is-rare' of hard")


def test_code_is_left_as_written() -> None:
    source = "```markdown\n<!-- grpo:value easy.mean -->\n```\nInline `<!-- grpo:value easy.mean -->` too."
    assert expanded(source) == source


def test_line_numbers_follow_the_source_through_blocks() -> None:
    result = expand("<!-- grpo:block compare easy hard -->\n\nlast line", PAGE)
    assert result.source_lines[-1] == 3
    assert result.markdown.endswith("last line")


@pytest.mark.parametrize(
    ("source", "message"),
    [
        ("<!-- grpo:value eazy.mean -->", "unknown example 'eazy'; did you mean 'easy'?"),
        ("<!-- grpo:value easy.maen -->", "unknown quantity 'maen'; did you mean 'mean'?"),
        ("<!-- grpo:valeu easy.mean -->", "unknown placeholder kind 'valeu'; did you mean 'value'?"),
        ("<!-- grpo:block compair easy hard -->", "unknown block 'compair'; did you mean 'compare'?"),
        ("<!-- grpo:value easy.mean easy.std -->", "grpo:value takes 1 name(s), got 2"),
        ("<!-- grpo:value easy.mean as=roman -->", "unknown format as='roman'"),
        ("<!-- grpo:value easy.mean colour=red -->", "grpo:value has no option 'colour'"),
        ("<!-- grpo:value mean -->", "write the quantity as <example>.<quantity>"),
        ("<!-- grpo:block worked-example easy hard -->", "block 'worked-example' shows one example, got 2"),
        ("Text <!-- grpo:block compare easy hard -->", "makes a block: put it on a line of its own"),
        ("<!-- grpo:value easy.mean", "unclosed placeholder"),
        ("<!-- grpo: -->", "empty placeholder"),
        ("$`x = <!-- grpo:value easy.mean -->`$", "placeholders do not expand inside math"),
        ("```math\n<!-- grpo:value easy.mean -->\n```", "placeholders do not expand inside math"),
        ("<!-- grpo:value hard.advantage.correct.trll -->", "did you mean 'advantage.correct.trl'?"),
        ("<!-- grpo:check easy all-right -->", "unknown claim 'all-right'"),
    ],
)
def test_errors_name_the_page_the_line_and_the_text(source: str, message: str) -> None:
    text = error_of("Intro line.\n\n" + source)
    line = 4 if source.startswith("```math") else 3
    assert text.startswith(f"{PAGE}:{line}: ")
    assert message in text
    assert re.search(r"\n    <!-- grpo", text), "the offending placeholder is quoted"
