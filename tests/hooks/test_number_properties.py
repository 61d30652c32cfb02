"""Properties of the book's number formatting (hooks/numbers.py), for any number, and of every computed
name for any group an author could add to examples.toml (a single response, all equal, up to sixteen).

The rule under test, from hooks/numbers.py: the fewest decimals (one to four) that show the value exactly,
else four and the value flagged as rounded; a float within round-off (1e-12 relative) of a decimal is that
decimal; a minus sign only on a value that shows a non-zero digit; NaN and infinity are never printed.
"""

from __future__ import annotations

import math
import re
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import grpo_examples
from grpo_examples.examples import EXAMPLES_FILE
from hooks.numbers import MAX_DECIMALS, MINUS, count_words, decimal, times_words
from hooks.placeholders import CLAIMS
from hooks.registry import BLOCKS, FORMULAS, QUANTITIES
from tests.chapter_pipeline import PluginError, error_line, page_html

_DIGITS = re.compile(rf"\d+\.\d{{1,{MAX_DECIMALS}}}")
_finite = st.floats(allow_nan=False, allow_infinity=False)
_fractions = st.fractions(max_denominator=10**6).filter(lambda f: abs(f) < 10**30)


def _shown(digits: str, negative: bool) -> Fraction:
    return -Fraction(digits) if negative else Fraction(digits)


@given(_finite)
@example(0.4999999999999999)
@example(-0.0)
@example(-1e-13)
@example(2.675)
@example(1e300)
@example(5e-324)
def test_a_float_shows_the_fewest_exact_decimals_or_four_rounded(x: float) -> None:
    shown = decimal(x)
    assert _DIGITS.fullmatch(shown.digits), shown
    places = len(shown.digits.split(".")[1])
    value = _shown(shown.digits, shown.negative)
    tolerance = Fraction(1e-12) * max(Fraction(1), abs(Fraction(x)))
    if shown.exact:
        assert abs(Fraction(x) - value) <= tolerance
        fewer = [p for p in range(1, places) if abs(Fraction(x) - Fraction(round(x, p))) <= tolerance]
        assert fewer == [], f"{x} is exact at {fewer[0]} places, shown with {places}"
    else:
        assert places == MAX_DECIMALS
        assert abs(Fraction(x) - value) <= Fraction(1, 2 * 10**MAX_DECIMALS) + tolerance
        assert abs(Fraction(x) - Fraction(round(x, MAX_DECIMALS))) > tolerance


@given(_fractions)
def test_a_fraction_is_exact_exactly_when_four_decimals_hold_it(f: Fraction) -> None:
    shown = decimal(f)
    value = _shown(shown.digits, shown.negative)
    holds = (f * 10**MAX_DECIMALS).denominator == 1
    assert shown.exact == holds
    if holds:
        assert value == f
    else:
        assert abs(f - value) <= Fraction(1, 2 * 10**MAX_DECIMALS)


@given(st.one_of(_finite, _fractions), st.booleans())
def test_signs_and_marks_follow_the_value_shown(x: float | Fraction, signed: bool) -> None:
    shown = decimal(x)
    zero = shown.digits.strip("0.") == ""
    prose, tex = shown.prose(signed=signed), shown.tex(signed=signed)
    assert prose.startswith("≈ ") == (not shown.exact) and tex.startswith(("-", "+")) == (
        MINUS in prose or "+" in prose
    )
    assert shown.negative == (x < 0 and not zero)  # never "−0.0"
    assert (MINUS in prose) == shown.negative and ("-" in tex) == shown.negative
    assert ("+" in prose) == (signed and x > 0 and not zero)
    assert "\u2212" not in tex and "-" not in prose
    assert shown.relation == ("=" if shown.exact else r"\approx")


@pytest.mark.parametrize("x", [math.nan, math.inf, -math.inf])
def test_nan_and_infinity_are_never_printed(x: float) -> None:
    with pytest.raises(ValueError, match="no finite number"):
        decimal(x)


def test_counts_are_the_words_an_author_would_write() -> None:
    assert [count_words(n) for n in (0, 4, 11, 16, 17)] == ["zero", "four", "eleven", "sixteen", "17"]


@given(st.integers(min_value=0, max_value=10**6))
@example(16)
@example(17)
def test_counts_read_in_words_up_to_sixteen(n: int) -> None:
    words = count_words(n)
    assert (words == str(n)) == (n > 16)
    assert words.isalpha() or words.isdigit()
    assert times_words(Fraction(n)) == ("as much as" if n == 1 else f"{words} times")


# Every computed name, for any group an author could write into examples.toml

_OUTCOME_TEXT = {1.0: "\\\\boxed{1}", 0.0: "\\\\boxed{0}"}  # the verifier scores them 1 and 0 against "1"


def _forms(name: str) -> list[str]:
    """Every placeholder that names one example: each value, in digits and words; each formula, inline and
    displayed; each block of one example; each claim; the widget."""
    return [
        *(f"<!-- grpo:value {name}.{q} -->" for q in QUANTITIES),
        *(f"<!-- grpo:value {name}.{q} as=words -->" for q in QUANTITIES),
        *(f"<!-- grpo:formula {name}.{f} -->" for f in FORMULAS),
        *(f"<!-- grpo:formula {name}.{f} display -->" for f in FORMULAS),
        *(f"<!-- grpo:block {b} {name} -->" for b in BLOCKS),
        *(f"<!-- grpo:check {name} {c} -->" for c in CLAIMS),
        f"<!-- grpo:widget {name} -->",
    ]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(rewards=st.lists(st.sampled_from([0.0, 1.0]), min_size=1, max_size=16))
@example(rewards=[1.0])
@example(rewards=[0.0, 0.0, 0.0])
@example(rewards=[1.0] * 16)
def test_every_name_works_or_says_why_for_any_group(rewards: list[float], tmp_path: Path) -> None:
    examples_file = tmp_path / "examples.toml"
    responses = ", ".join(f'"{_OUTCOME_TEXT[r]}"' for r in rewards)
    examples_file.write_text(
        EXAMPLES_FILE.read_text(encoding="utf-8")
        + f'\n[odd]\ntitle = "an odd group"\nquestion = "Say 1."\nanswer = "1"\nresponses = [{responses}]\n',
        encoding="utf-8",
    )
    odd = grpo_examples.load_examples.__wrapped__(examples_file)  # not the cache: a new file each time
    assert odd["odd"].rewards == rewards
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(grpo_examples, "load_examples", lambda: odd)
        for form in _forms("odd"):
            try:
                html = page_html(f"Before.\n\n{form}\n\nAfter.")
            except PluginError as error:
                assert error_line(error) == 3, form
                continue
            assert not re.search(r"\b(nan|inf|infinity)\b", html, re.IGNORECASE), (form, rewards)
