"""The rule-based checker, on hand-written responses whose verdicts a reader can check by eye."""

from __future__ import annotations

import pytest

import grpo_examples as gx
from grpo_examples.verifier import accuracy_reward, extract_answer, format_reward, normalise_answer, verify


@pytest.mark.parametrize(
    ("response", "expected"),
    [
        ("so the answer is \\boxed{56}", "56"),
        ("first \\boxed{54}, no wait: \\boxed{56}", "56"),  # the last box is the final answer
        ("\\boxed{\\frac{1}{2}}", "\\frac{1}{2}"),  # nested braces stay whole
        ("\\boxed{\\text{\\{a, b\\}}} and more", "\\text{\\{a, b\\}}"),
        ("\\boxed { 7 }", "7"),
        ("Answer: 1,000", "1,000"),
        ("answer: no", "no"),
        ("The answer is: 12.", "12."),
        ("**Answer:** 56", "** 56"),
        ("Answer: 3\nAnswer: 4\nsome words after", "4"),  # the last answer line, words on later lines ignored
        ("\\boxed{9} and later Answer: 8", "9"),  # a box beats an answer line
        ("It is 56.", None),  # no box, no answer line: no answer
        ("", None),
        ("\\boxed{}", None),  # an empty box is no answer
        ("\\boxed{56", None),  # a box never closed is no answer
        ("Answer:   ", None),
        ("The unanswerable: 5", None),  # 'answer' must be a word of its own
        # The answer line: 'answer', an optional 'is', then ':' or '=', anywhere on a line, in any case.
        ("answer = 42", "42"),
        ("So the FINAL ANSWER: 7", "7"),
        ("The answer is 42", None),  # no ':' or '=': not an answer line
        ("My answer: 3, final answer: 4", "3, final answer: 4"),  # the rest of the line after the first match
        # Markup tags at either end of the line are not the answer; tags inside it stay.
        ("Answer: 42</answer>", "42"),
        ("<think>6 × 7 = 42. Answer: 42</think>", "42"),
        ("<answer>Answer: 13</answer>", "13"),
        ("Answer: <answer>13</answer>", "13"),
        ("Answer: 13 </answer></think>", "13"),
        ("Answer: <b>2</b> or <b>3</b>", "2</b> or <b>3"),
        ("Answer: 42</answer> 43", "42</answer> 43"),  # a tag before the end is part of the line
        ("Answer: </answer>", None),  # a tag alone is no answer
    ],
)
def test_extract_answer(response: str, expected: str | None) -> None:
    assert extract_answer(response) == expected


@pytest.mark.parametrize(
    ("answer", "expected"),
    [
        ("56", "56"),
        ("$56$", "56"),
        ("$56$.", "56"),  # delimiters and a trailing period, in either order
        ("56.", "56"),
        ("**56**", "56"),
        (" 56 ", "56"),
        ("56.0", "56"),
        ("+56", "56"),
        ("1,000", "1000"),
        ("1,000,000", "1000000"),
        ("1\\,000", "1000"),  # TeX thin space as thousands separator
        ("1 000", "1000"),
        ("1,2", "1,2"),  # not a thousands separator: left alone, not read as twelve
        ("12,34", "12,34"),
        ("0.5", "1/2"),
        (".5", "1/2"),  # a leading period is a decimal point, not punctuation
        ("1/2", "1/2"),
        ("2/4", "1/2"),
        ("\\frac{1}{2}", "1/2"),
        ("\\dfrac{2}{4}", "1/2"),
        ("\\tfrac{3}{4}", "3/4"),
        ("-\\frac{1}{2}", "-1/2"),
        ("\u22123", "-3"),  # the typographic minus
        ("1/0", "1/0"),  # not a number: compared as text, never a crash
        ("1/2/3", "1/2/3"),
        ("x = 5", "5"),
        ("\\text{No}", "no"),
        ("\\textbf{Yes}", "yes"),
        ("YES", "yes"),
        ("\\left(2\\right)", "(2)"),
        ("inf", "inf"),
        # TeX's other math delimiters, as one pair around the whole answer.
        ("\\(56\\)", "56"),
        ("\\[56\\]", "56"),
        ("\\( \\frac{3}{4} \\).", "3/4"),
        ("$\\(56\\)$", "56"),
        ("\\(1\\) or \\(2\\)", "\\(1\\)or\\(2\\)"),  # two pairs, not one around the whole: nothing peeled
        # TeX's thousands separator {,}, under the same rule of three digits as a plain comma.
        ("1{,}000", "1000"),
        ("12{,}345{,}678", "12345678"),
        ("-2{,}500", "-2500"),
        ("1{,}5", "1,5"),  # a decimal comma, not read
        # \frac without braces: TeX takes one character (or one command) for each argument.
        ("\\frac12", "1/2"),
        ("\\tfrac12", "1/2"),
        ("\\dfrac34", "3/4"),
        ("\\frac 6 8", "3/4"),
        ("\\frac1{4}", "1/4"),
        ("\\frac{10}4", "5/2"),
        ("-\\tfrac12", "-1/2"),
        ("\\frac\\pi2", "\\pi/2"),
        ("\\frac123", "1/2 3"),  # TeX reads 1/2, then a 3: not 1/23
        # A whole number beside a fraction is not one number: not twenty-one halves, not two and a half.
        ("2 1/2", "2 1/2"),
        ("2\\frac{1}{2}", "2 1/2"),
        ("\\frac{1}{2}3", "1/2 3"),
        ("\\frac{1}{2}\\frac{1}{2}", "1/2 1/2"),
        ("1 / 2", "1/2"),  # spaces around a slash are still one fraction
        # A brace group around the whole answer groups nothing.
        ("{42}", "42"),
        ("{{42}}", "42"),
        ("{-7}.", "-7"),
        ("\\({42}\\)", "42"),
        ("{1}{2}", "{1}{2}"),  # two groups, not one around the whole
        ("\\{1\\}", "\\{1\\}"),  # escaped braces: a set, kept
        ("{\\{1\\}}", "\\{1\\}"),
        # A percent sign stays, in either spelling, after a number in canonical form.
        ("50%", "50%"),
        ("50\\%", "50%"),
        ("50.0 \\%", "50%"),
        ("12.5\\%", "25/2%"),
        ("1{,}000\\%", "1000%"),
    ],
)
def test_normalise_answer(answer: str, expected: str) -> None:
    assert normalise_answer(answer) == expected


@pytest.mark.parametrize(
    ("response", "reference", "reward"),
    [
        ("7 × 8 = 56. \\boxed{56}", "56", 1.0),
        ("7 × 8 = 49 + 5. \\boxed{54}", "56", 0.0),
        ("The product is $\\boxed{56}$.", "56", 1.0),
        ("Answer: $56$.", "56", 1.0),
        ("25 × 40 = \\boxed{1,000}", "1000", 1.0),
        ("Answer: 1000", "1,000", 1.0),  # the reference is normalised the same way
        ("\\boxed{\\frac{1}{2}}", "0.5", 1.0),
        ("\\boxed{0.50}", "1/2", 1.0),
        ("\\boxed{\\frac{2}{3}}", "0.67", 0.0),  # a rounded decimal is not the fraction
        ("91 = 7 × 13. Answer: No", "no", 1.0),
        ("Answer: yes", "no", 0.0),
        ("It is 56.", "56", 0.0),  # right, but the rule cannot find it: 0
        ("\\boxed{10^3}", "1000", 0.0),  # right, but not in a form the rule reads: a false negative
        ("\\boxed{56} ... actually \\boxed{54}", "56", 0.0),  # the last box counts
        ("\\boxed{5 6}", "56", 1.0),  # spaces inside a number are dropped
        ("\\boxed{-3}", "\u22123", 1.0),
        ("Answer: \\(42\\)", "42", 1.0),
        ("Answer: \\[ 3 \\]", "3", 1.0),
        ("\\boxed{1{,}000}", "1000", 1.0),
        ("\\boxed{2500}", "2{,}500", 1.0),  # a reference in TeX is normalised the same way
        ("\\boxed{\\tfrac12}", "1/2", 1.0),
        ("\\boxed{\\dfrac34}", "0.75", 1.0),
        ("Answer: \\frac12", "\\frac{1}{2}", 1.0),
        ("\\boxed{{42}}", "42", 1.0),
        ("Answer: 50%", "50\\%", 1.0),
        ("\\boxed{50\\%}", "50%", 1.0),
        ("Answer: 42</answer>", "42", 1.0),
        ("<think>12 + 30 = 42. Answer: 42</think>", "42", 1.0),
    ],
)
def test_accuracy_reward(response: str, reference: str, reward: float) -> None:
    assert accuracy_reward(response, reference) == reward


@pytest.mark.parametrize(
    ("response", "reference"),
    [
        ("Answer: 1/2 or 17/12", "1/2"),  # a hedge normalises to neither answer
        ("Answer: 1/2 or 17/12", "17/12"),
        ("Answer: \\(1/2\\) or \\(17/12\\)", "1/2"),
        ("It should be about half a cup.", "1/2"),  # no box, no answer line
        ("The answer is 42</answer>", "42"),  # no ':' or '=': no answer line
        ("\\boxed{\\tfrac12} ... actually \\boxed{\\tfrac{17}{12}}", "1/2"),  # the last box counts
        ("Answer: 42</answer> 43", "42"),
        ("Answer: 50%", "0.5"),  # a percent sign stays: 50% is not the number one half
        ("Answer: 50%", "50"),
        ("\\boxed{0.5}", "50\\%"),
        ("\\boxed{2\\frac{1}{2}}", "21/2"),  # the old rules read twenty-one halves here
        ("\\boxed{2\\frac{1}{2}}", "5/2"),  # and a mixed number is not read as one either
        ("Answer: 2 1/2", "21/2"),
        ("\\boxed{\\frac123}", "1/23"),  # TeX's \frac123 is a half, then a 3
        ("\\boxed{\\frac{1}{2}3}", "1/23"),
        ("Answer: 1{,}5", "15"),  # a decimal comma is not a thousands separator
        ("Answer: 1{,}5", "1.5"),  # nor read as a decimal point
        ("Answer: {1}{2}", "12"),
        ("Answer: \\{42\\}", "42"),  # a set holding 42 is not 42
    ],
)
def test_wrong_hedged_and_ambiguous_answers_stay_refused(response: str, reference: str) -> None:
    assert accuracy_reward(response, reference) == 0.0


@pytest.mark.parametrize(
    ("response", "reward"),
    [
        ("<think>7 × 8 = 56</think> \\boxed{56}", 1.0),
        ("  <think>\nsteps\n</think>\nAnswer: 56", 1.0),  # leading whitespace and newlines are fine
        ("\\boxed{56}", 0.0),  # no reasoning block
        ("<think></think> \\boxed{56}", 0.0),  # empty reasoning
        ("<think>   </think> \\boxed{56}", 0.0),  # blank reasoning
        ("<think>steps</think>", 0.0),  # nothing after the reasoning
        ("<think>steps \\boxed{56}", 0.0),  # never closed
        ("The answer: <think>steps</think> 56", 0.0),  # must open with the reasoning
        ("<think>a</think> b </think>", 0.0),  # a second closing tag
        ("<think>a <think>b</think> c", 0.0),  # a nested opening tag
        ("<think>a</think> b <think>c</think> d", 0.0),  # two reasoning blocks
    ],
)
def test_format_reward(response: str, reward: float) -> None:
    assert format_reward(response) == reward


def test_verify_shows_every_step() -> None:
    verdict = verify("<think>3/4 × 2/3 = 6/12</think> \\boxed{\\dfrac{6}{12}}", "1/2")
    assert verdict.answer == "\\dfrac{6}{12}"
    assert verdict.normalised == "1/2"
    assert verdict.reference == "1/2"
    assert (verdict.accuracy, verdict.format) == (1.0, 1.0)


def test_verify_reads_an_answer_line_in_tags_delimiters_and_braceless_fractions() -> None:
    verdict = verify("<think>3/4 of 2/3 is 6/12.</think>\nAnswer: \\(\\tfrac12\\)</answer>", "0.5")
    assert verdict.answer == "\\(\\tfrac12\\)"  # the tag goes at extraction, the delimiters at normalisation
    assert verdict.normalised == "1/2"
    assert verdict.reference == "1/2"
    assert (verdict.accuracy, verdict.format) == (1.0, 1.0)


def test_verify_without_an_answer_has_no_normalised_form() -> None:
    verdict = verify("I am not sure.", "56")
    assert verdict.answer is None
    assert verdict.normalised is None
    assert verdict.accuracy == 0.0


def test_book_groups_score_as_their_chapter_says() -> None:
    """The GRPO chapter's groups, scored by hand: easy four right of five, hard one of five, split two of four."""
    assert [r.reward for r in gx.group("easy").responses] == [1.0, 1.0, 1.0, 1.0, 0.0]
    assert [r.reward for r in gx.group("hard").responses] == [1.0, 0.0, 0.0, 0.0, 0.0]
    assert [r.reward for r in gx.group("split").responses] == [1.0, 1.0, 0.0, 0.0]


# ---------------------------------------------------------------- answers from strangers: bounded work (issue 21)


@pytest.mark.parametrize(
    ("response", "answer"),
    [
        (r"\boxed{\boxed{2}+{3}} then \boxed{4}", "4"),  # the last box to open: the one after the nested ones
        (r"\boxed{1} and \boxed{\frac{1}{2}}", r"\frac{1}{2}"),
        (r"\boxed{1} } } \boxed{2", "1"),  # stray closing braces, and a box never closed: ignored
        (r"\boxed{" * 20_000 + "7", None),  # 20,000 unclosed boxes: none is an answer (one pass, not 20,000)
        ("x" * 50_000 + r"\boxed{3}" + "}" * 50_000, "3"),
    ],
    ids=["nested", "fraction", "stray braces", "20000 unclosed", "long"],
)
def test_boxes_are_read_in_one_pass_as_tex_nests_them(response: str, answer: str | None) -> None:
    assert extract_answer(response) == answer


@pytest.mark.parametrize("answer", ["1e100000000", "1e-100000000", "1" * 101, "1" * 60 + "/" + "3" * 60, "2e101"])
def test_a_number_too_large_to_be_an_answer_is_compared_as_text(answer: str) -> None:
    # as an exact Fraction, 1e100000000 is a hundred-million-digit integer: minutes of work for one response
    assert normalise_answer(answer) == answer.lower()
    assert verify(rf"\boxed{{{answer}}}", "1").accuracy == 0.0


def test_numbers_up_to_the_bounds_are_still_read() -> None:
    assert normalise_answer("1e100") == str(10**100)
    assert normalise_answer("5e-3") == "1/200"
    assert normalise_answer("1" * 100) == "1" * 100
