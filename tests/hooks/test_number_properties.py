"""Properties of the book's number formatting (hooks/engine/numbers.py), for any number, and of every path of a
group for any group an author could add to groups.toml (a single response, all equal, up to sixteen).

The rule under test, from hooks/engine/numbers.py: the fewest decimals (one to four) that show the value exactly,
else four and the value flagged as rounded; a float within round-off (1e-12 relative) of a decimal is that
decimal; a value that is not 0 but would show as 0.0000 is written m × 10^e instead, by the same rule for m; a
minus sign only on a value that shows a non-zero digit; NaN and infinity are never printed.
"""

from __future__ import annotations

import importlib
import json
import math
import re
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import grpo_examples as gx
from grpo_examples import Undefined
from grpo_examples.group import GroupData
from hooks.engine.book import Book, formula_layout
from hooks.engine.numbers import MAX_DECIMALS, MINUS, count_words, decimal, times_words
from hooks.engine.placeholders import expand
from hooks.engine.tree import walk
from tests.chapter_pipeline import book_with, model_subject, page_html, swap_book

_DIGITS = re.compile(rf"\d+\.\d{{1,{MAX_DECIMALS}}}")
_finite = st.floats(allow_nan=False, allow_infinity=False)
_fractions = st.fractions(max_denominator=10**6).filter(lambda f: abs(f) < 10**30)


_TINY = Fraction(1, 2 * 10**MAX_DECIMALS)  # below this in size, four decimals would show 0.0000


def _shown(digits: str, negative: bool, exponent: int = 0) -> Fraction:
    size = Fraction(digits) * Fraction(10) ** exponent
    return -size if negative else size


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
    if x != 0 and abs(Fraction(x)) < _TINY:
        _check_scientific(x, shown.digits, shown.negative, shown.exponent, shown.exact)
        return
    assert shown.exponent == 0
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


def _check_scientific(x: float, digits: str, negative: bool, exponent: int, exact: bool) -> None:
    mantissa = Fraction(digits)
    assert 1 <= mantissa < 10 and exponent < -MAX_DECIMALS + 1, (digits, exponent)
    assert negative == (x < 0)
    value = _shown(digits, negative, exponent)
    places = len(digits.split(".")[1])
    scale = Fraction(10) ** exponent
    if exact:
        assert abs(Fraction(x) - value) <= Fraction(1e-12) * abs(Fraction(x))
    else:
        assert places == MAX_DECIMALS
        assert abs(Fraction(x) - value) <= scale / (2 * 10**MAX_DECIMALS) * (1 + Fraction(1, 10**9))


@example(-1e-13, True)
@example(5e-324, False)
@example(4.9999e-5, True)
@given(st.floats(min_value=-4.99e-5, max_value=4.99e-5).filter(lambda v: v != 0), st.booleans())
def test_a_value_too_small_for_four_decimals_is_never_shown_as_zero(x: float, signed: bool) -> None:
    shown = decimal(x)
    prose, tex = shown.prose(signed=signed), shown.tex(signed=signed)
    assert shown.exponent < 0
    assert re.fullmatch(r"(≈\u00a0)?[−+]?\d\.\d{1,4}\u00a0×\u00a010⁻[⁰¹²³⁴⁵⁶⁷⁸⁹]+", prose), prose
    assert re.fullmatch(r"[-+]?\d\.\d{1,4} \\times 10\^\{-\d+\}", tex), tex
    assert prose.startswith(("≈\u00a0" + MINUS, MINUS)) == (x < 0)


@given(_fractions)
@example(Fraction(1, 31250))  # 3.2 × 10⁻⁵: too small for four decimals, exact in four of its mantissa
@example(Fraction(1, 20001))  # ≈ 4.9998 × 10⁻⁵
def test_a_fraction_is_exact_exactly_when_four_decimals_hold_it(f: Fraction) -> None:
    # Four decimals of the number, or of its mantissa when it is too small for them (m × 10^e, e < 0).
    shown = decimal(f)
    value = _shown(shown.digits, shown.negative, shown.exponent)
    holds = (f * Fraction(10) ** (MAX_DECIMALS - shown.exponent)).denominator == 1
    assert shown.exact == holds
    if holds:
        assert value == f
    else:
        assert abs(f - value) <= Fraction(10) ** shown.exponent / (2 * 10**MAX_DECIMALS)


@given(st.one_of(_finite, _fractions), st.booleans())
def test_signs_and_marks_follow_the_value_shown(x: float | Fraction, signed: bool) -> None:
    shown = decimal(x)
    zero = shown.digits.strip("0.") == ""
    prose, tex = shown.prose(signed=signed), shown.tex(signed=signed)
    assert prose.startswith("≈\u00a0") == (not shown.exact) and tex.startswith(("-", "+")) == (
        MINUS in prose or "+" in prose
    )
    assert shown.negative == (x < 0 and not zero)  # never "−0.0"
    sign_of_tex = tex.split(" ")[0]  # the exponent of a tiny value has a minus of its own
    assert (MINUS in prose) == shown.negative and ("-" in sign_of_tex) == shown.negative
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


# Every path of a group, for any group an author could write into groups.toml

_RESPONSE = {1.0: r"\boxed{1}", 0.0: r"\boxed{0}"}  # the verifier scores them 1 and 0 against the answer "1"
_WIDGET_DATA = re.compile(
    r'<script (?=[^>]*type="application/json")[^>]*class="grpo-widget__data"[^>]*>(.*?)</script>', re.S
)
_NUMBER_WORDS = re.compile(r"\b(nan|inf|infinity)\b", re.IGNORECASE)


def _group_of(rewards: list[float]) -> gx.Group:
    """grpo_examples.group('odd') for a table [odd] of groups.toml with these rewards, as the book computes it.

    groups.toml is extended only while the group is made: a chapter computed meanwhile (the practice chapter
    counts the book's groups) would otherwise be cached with the odd group among the book's.
    """
    module = importlib.import_module("grpo_examples.group")
    real = module._tables()
    odd = GroupData("an odd group", "Say 1.", "1", tuple(_RESPONSE[r] for r in rewards))
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(module, "_tables", lambda: {**real, "odd": odd})
        made: gx.Group = gx.group.__wrapped__("odd")  # not the cache: a new group each time
    return made


def _forms(book: Book, name: str) -> list[str]:
    """Every placeholder that names the group: each value, in digits and words; each formula, inline and
    displayed (of a whole mapping too, easy.advantage, which must say to name an entry); each claim; every
    block and widget given the group once and twice."""
    forms = []
    for named in walk(book.subjects[name]):
        if isinstance(named.value, bool):
            forms.append(f"<!-- grpo:check {named.path} -->")
        elif isinstance(named.value, int | float | Fraction | str | Undefined):
            forms += [f"<!-- grpo:value {named.path} -->", f"<!-- grpo:value {named.path} as=words -->"]
        if formula_layout(book, named.owner, named.field) is not None:
            forms += [f"<!-- grpo:formula {named.path} -->", f"<!-- grpo:formula {named.path} display -->"]
    for kind, names in (("block", book.blocks), ("widget", book.widgets)):
        forms += [f"<!-- grpo:{kind} {layout} {name} -->" for layout in names]
        forms += [f"<!-- grpo:{kind} {layout} {name} {name} -->" for layout in names]
    return forms


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(rewards=st.lists(st.sampled_from([0.0, 1.0]), min_size=1, max_size=16))
@example(rewards=[1.0])
@example(rewards=[0.0, 0.0, 0.0])
@example(rewards=[1.0] * 16)
@example(rewards=[1.0, 0.0])
def test_every_path_works_or_says_why_for_any_group(rewards: list[float], monkeypatch: pytest.MonkeyPatch) -> None:
    with monkeypatch.context() as patch:
        odd = _group_of(rewards)
        assert [float(r) for r in odd.rewards] == rewards
        book = swap_book(patch, book_with({"odd": model_subject("odd", odd, "grpo_examples.group('odd')")}))
        working = []
        for form in _forms(book, "odd"):
            result = expand(book, f"Before.\n\n{form}\n\nAfter.")  # the engine never raises: it reports
            assert all(problem.line == 3 for problem in result.problems), (form, result.problems)
            if not result.problems:
                assert not _NUMBER_WORDS.search(result.markdown), (form, rewards)
                working.append(form)
        assert working, rewards
        # Every form that expands also renders: its formulas are TeX that KaTeX takes, the guard finds no number.
        html = page_html("\n\n".join(working))
        assert not _NUMBER_WORDS.search(re.sub(r"<[^>]+>", " ", html)), rewards


def test_the_group_widget_on_a_single_response_lists_only_the_advantages_numpy_defines(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A group of one response has no sample std (it divides by G - 1 = 0): TRL's and verl's advantages are
    # Undefined, so the widget hands the script numpy's population advantages only. One reward is its own
    # mean, sigma = 0, and the book's advantage is 0 (every reward the same).
    one = _group_of([1.0])
    assert isinstance(one.variants["trl"].advantages, Undefined)
    book = swap_book(monkeypatch, book_with({"odd": model_subject("odd", one, "grpo_examples.group('odd')")}))
    result = expand(book, "<!-- grpo:widget group odd -->")
    assert result.problems == []
    [script] = _WIDGET_DATA.findall(result.markdown)
    [data] = json.loads(script)
    [group] = data["groups"]
    assert group["numpy_advantages"] == {"population": [0.0]}
    # the conventions are the widget's own, whatever the group: the script computes them for any group it grows to
    assert [c["key"] for c in data["conventions"]] == ["population", "trl", "verl"]
    # two responses: every convention is defined, each listed (population: (0 - 0.5) / 0.5 = -1)
    two = _group_of([0.0, 1.0])
    book = swap_book(monkeypatch, book_with({"odd": model_subject("odd", two, "grpo_examples.group('odd')")}))
    [script] = _WIDGET_DATA.findall(expand(book, "<!-- grpo:widget group odd -->").markdown)
    advantages = json.loads(script)[0]["groups"][0]["numpy_advantages"]
    assert set(advantages) == {"population", "trl", "verl"} and advantages["population"] == [-1.0, 1.0]
