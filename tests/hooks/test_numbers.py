"""Number formatting: one place, the same rules everywhere (hooks/engine/numbers.py)."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest

from hooks.engine.numbers import MINUS, count_words, decimal, prose, short, short_tex, times_words


@pytest.mark.parametrize(
    ("value", "prose", "tex"),
    [
        (Fraction(4, 5), "0.8", "0.8"),
        (Fraction(16, 100), "0.16", "0.16"),
        (0.4999999999999999, "0.5", "0.5"),  # float round-off is not "rounding"
        (-2.0, MINUS + "2.0", "-2.0"),
        (2, "2.0", "2.0"),
        (0.0, "0.0", "0.0"),
    ],
)
def test_exact_values_use_the_fewest_decimals(value: Fraction | float, prose: str, tex: str) -> None:
    shown = decimal(value)
    assert shown.exact
    assert shown.prose() == prose
    assert shown.tex() == tex
    assert shown.relation == "="


def test_rounded_values_say_so() -> None:
    shown = decimal(0.24**0.5)
    assert not shown.exact
    assert shown.prose() == "≈\u00a00.4899"
    assert shown.relation == r"\approx"
    assert decimal(Fraction(2, 3)).prose() == "≈\u00a00.6667"


def test_signs() -> None:
    assert decimal(0.5).prose(signed=True) == "+0.5"
    assert decimal(-2.0).prose(signed=True) == MINUS + "2.0"
    assert decimal(-2.0).tex(signed=True) == "-2.0"
    assert decimal(0.0).prose(signed=True) == "0.0"  # zero has no sign
    assert decimal(-0.00004).prose(signed=True) == MINUS + "4.0\u00a0×\u00a010⁻⁵"  # not 0, so never "0.0000"
    assert decimal(-0.00004).tex(signed=True) == r"-4.0 \times 10^{-5}"
    assert decimal(0.00005).prose(signed=True) == "≈\u00a0+0.0001"  # the float is a hair above half the last place
    # float32's spacing at 0.5, worked by hand: 5.96046e-8
    assert decimal(2**-24).prose() == "≈\u00a05.9605\u00a0×\u00a010⁻⁸"


def test_words() -> None:
    assert count_words(4) == "four"
    assert count_words(16) == "sixteen"
    assert count_words(17) == "17"
    assert times_words(Fraction(4)) == "four times"
    assert times_words(Fraction(3, 2)) == "1.5 times"


def test_a_float_ratio_that_is_whole_reads_as_a_word() -> None:
    assert times_words(1.14 / 0.228) == "five times"  # 4.999999999999999 in floating point
    assert times_words(5.25) == "5.25 times"
    assert times_words(1.0000000000000002) == "as much as"


@pytest.mark.parametrize(
    ("value", "signed", "prose", "tex"),
    [
        (-3, False, "−3", "-3"),
        (-0.5, True, "−0.5", "-0.5"),
        (0, True, "0", "0"),
        (0.5, False, "0.5", "0.5"),
        (2.0, True, "+2", "2"),
        (100, False, "100", "100"),
        (Fraction(1, 3), False, "≈\u00a00.3333", "0.3333"),
    ],
)
def test_short_numbers_write_whole_numbers_bare_and_others_as_decimals(
    value: Fraction | float, signed: bool, prose: str, tex: str
) -> None:
    assert short(value, signed) == prose
    assert short_tex(value) == tex


def test_prose_writes_a_value_with_at_least_one_decimal_unlike_short() -> None:
    assert prose(-2) == MINUS + "2.0" and short(-2) == MINUS + "2"
    assert prose(0.5, signed=True) == "+0.5"
    assert prose(Fraction(2, 3), signed=True) == "≈\u00a0+0.6667"


def test_short_numbers_refuse_what_is_not_a_number() -> None:
    for value in (math.nan, math.inf):
        with pytest.raises(ValueError, match="no finite number"):
            short(value)
