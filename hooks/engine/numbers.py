"""Every number the book prints is formatted here, the same way on every page.

A value is shown with the fewest decimals (at least one, at most MAX_DECIMALS) that show it exactly;
one that needs more is rounded and flagged, so the page can write '≈' instead of '='. A value too small for
those decimals, which they would show as 0, is written in scientific notation instead (≈ 5.9605 × 10⁻⁸), with
the same rule for its mantissa: a number that is not 0 never reads as 0.
Advantages carry a sign (+0.5, −2.0); prose uses the typographic minus, TeX a plain '-'. In prose the spaces
inside a number are no-break spaces, so that a line never ends on its '≈' or its '×'.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

from hooks.engine.markdown import Markdown

MAX_DECIMALS = 4
MINUS = "\u2212"
NBSP = "\u00a0"
_WORDS = [
    "zero",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
]


_SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


@dataclass(frozen=True)
class Decimal:
    """A number as shown: its digits (no sign), its sign, whether the digits are exact, and the power of ten they
    are multiplied by (0 but for a value too small for the decimals shown)."""

    digits: str
    negative: bool
    exact: bool
    exponent: int = 0

    def prose(self, signed: bool = False) -> Markdown:
        """For HTML text: '−2.0', '+0.5' when signed, '≈ 0.4472' when rounded, '≈ 5.9605 × 10⁻⁸' when tiny
        (each space a no-break one)."""
        power = f"{NBSP}×{NBSP}10{str(self.exponent).translate(_SUPERSCRIPT)}" if self.exponent else ""
        return Markdown(("" if self.exact else f"≈{NBSP}") + self._sign(signed, MINUS) + self.digits + power)

    def tex(self, signed: bool = False) -> str:
        """For a formula: '-2.0', '+0.5' when signed (the caller writes '\\approx' when inexact)."""
        power = rf" \times 10^{{{self.exponent}}}" if self.exponent else ""
        return self._sign(signed, "-") + self.digits + power

    @property
    def relation(self) -> str:
        """The TeX relation that leads to this value: '=' when exact, '\\approx' when rounded."""
        return "=" if self.exact else r"\approx"

    def _sign(self, signed: bool, minus: str) -> str:
        if self.negative:
            return minus
        return "+" if signed and self.digits.strip("0.") else ""


def decimal(value: Fraction | float | int, max_decimals: int = MAX_DECIMALS) -> Decimal:
    """The shortest exact decimal of value with 1..max_decimals places, else value rounded to max_decimals.

    A float counts as exact at d places when it lies within round-off (1e-12 relative) of a
    d-place decimal: 0.4999999999999999 is the 0.5 it was computed to be. NaN and infinity are refused
    (ValueError): a page never prints "nan".
    """
    if isinstance(value, float) and not math.isfinite(value):
        raise ValueError(f"cannot print {value}: the computation gave no finite number")
    half_last_place = Fraction(1, 2 * 10**max_decimals)
    if value != 0 and -half_last_place < value < half_last_place:  # it would read as 0.0000
        return _scientific(float(value), max_decimals)
    for places in range(1, max_decimals + 1):
        rounded = _round(value, places)
        if _is_exact(value, rounded):
            return _decimal(rounded, places, exact=True)
    return _decimal(_round(value, max_decimals), max_decimals, exact=False)


def _scientific(value: float, max_decimals: int) -> Decimal:
    """|value| as m × 10^e with 1 <= m < 10 and the fewest decimals of m (1..max_decimals) within round-off
    (1e-12 relative) of m to seventeen digits, else m rounded to max_decimals. Mantissas are compared, not the
    values they stand for: near the smallest floats, parsing '4.9e-324' back would round it onto 5e-324.
    Python's '%e' rounds correctly, as JavaScript's toExponential does, so the widgets' runtime can do the same."""
    size = abs(value)
    full = float(f"{size:.16e}".split("e")[0])
    exact = [p for p in range(1, max_decimals + 1) if abs(full - float(f"{size:.{p}e}".split("e")[0])) <= 1e-12 * full]
    places = exact[0] if exact else max_decimals
    mantissa, exponent = f"{size:.{places}e}".split("e")
    return Decimal(digits=mantissa, negative=value < 0, exact=bool(exact), exponent=int(exponent))


def _round(value: Fraction | float | int, places: int) -> Fraction | float:
    if isinstance(value, (Fraction, int)):
        return round(Fraction(value), places)
    return round(float(value), places)


def _is_exact(value: Fraction | float | int, rounded: Fraction | float) -> bool:
    if isinstance(value, (Fraction, int)):
        return value == rounded
    return abs(value - rounded) <= 1e-12 * max(1.0, abs(value))


def _decimal(rounded: Fraction | float, places: int, exact: bool) -> Decimal:
    if isinstance(rounded, Fraction):  # digit by digit: through a float, 10**40 would print as 1000...0752.0
        scaled = int(rounded * 10**places)  # exact: rounded has at most `places` decimals
        whole, part = divmod(abs(scaled), 10**places)
        text = f"{'-' if scaled < 0 else ''}{whole}.{part:0{places}d}"
    else:
        text = f"{float(rounded):.{places}f}"
    negative = text.startswith("-") and text.strip("-0.") != ""
    return Decimal(digits=text.lstrip("-"), negative=negative, exact=exact)


def prose(value: Fraction | float | int, signed: bool = False) -> Markdown:
    """A value as the text of a page writes it: decimal(value).prose(signed), '−2.0', '+0.5', '≈ 0.4472'."""
    return decimal(value).prose(signed=signed)


def short(value: Fraction | float | int, signed: bool = False) -> Markdown:
    """A number as prose writes a count, a reward or an axis label: a whole number as itself ('1', '100', '−2',
    '+2' when signed), any other as decimal() writes it ('0.5', '≈ 0.3333'). The widgets' runtime has the same
    function, `short`, for their axis labels and rewards."""
    if not _is_whole(value):
        return prose(value, signed=signed)
    whole = int(value)
    return Markdown((MINUS if whole < 0 else "+" if signed and whole > 0 else "") + str(abs(whole)))


def short_tex(value: Fraction | float | int) -> str:
    """The same number in a formula: '1', '-2', '0.5' (the caller writes '\\approx' when it is rounded)."""
    return str(int(value)) if _is_whole(value) else decimal(value).tex()


def _is_whole(value: Fraction | float | int) -> bool:
    return (not isinstance(value, float) or math.isfinite(value)) and value == int(value)


def count_words(count: int) -> Markdown:
    """'four' for 4: counts up to sixteen in words, as prose writes them; larger ones in digits."""
    return Markdown(_WORDS[count] if 0 <= count < len(_WORDS) else str(count))


def times_words(ratio: Fraction | float) -> Markdown:
    """'four times' for 4, '1.5 times' for 1.5, 'as much as' for 1."""
    if isinstance(ratio, float) and _is_exact(ratio, float(round(ratio))):
        ratio = Fraction(round(ratio))  # a float ratio that is a whole number up to round-off: 4.999999999999999
    if ratio == 1:
        return Markdown("as much as")
    if isinstance(ratio, Fraction) and ratio.denominator == 1:
        return Markdown(f"{count_words(ratio.numerator)} times")
    return Markdown(f"{prose(ratio)} times")
