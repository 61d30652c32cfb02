"""Every number the built book shows is what its provenance computes, checked by running the provenance.

Each computed value on a page carries the Python expression that made it, as its tooltip ("Computed at build
time: grpo_examples.group('easy').advantage['wrong']"), and each computed block ends with a note listing the
calls behind it ("How these numbers were computed"). Here every such expression of every built page is run
in this process with `import grpo_examples`, as a reader would paste it, and what the page shows is read
back independently of the book's formatter (hooks/engine/numbers.py is not imported): digits with a
typographic minus or a plus, "≈" and a no-break space before a rounded number, a count in words, a ratio as
"N times", or text.
"""

from __future__ import annotations

import html
import json
import math
import re
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from html.parser import HTMLParser
from pathlib import Path

import pytest

import grpo_examples
from tests.conftest import ROOT

PREFIX = "Computed at build time: "
NOTE_TITLE = "How these numbers were computed"
MINUS = "\u2212"  # the typographic minus prose uses; a hyphen before digits would be a slip
# Counts in words, as prose writes them.
WORDS = {
    word: number
    for number, word in enumerate(
        ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve",
         "thirteen", "fourteen", "fifteen", "sixteen"]
    )
}  # fmt: skip
NUMBER = re.compile(
    rf"(?P<approx>≈\u00a0)?(?P<sign>[+{MINUS}])?(?P<digits>\d+(?:\.(?P<decimals>\d+))?)(?:\u00a0×\u00a010(?P<power>⁻?[⁰¹²³⁴⁵⁶⁷⁸⁹]+))?"
)
_FROM_SUPERSCRIPT = str.maketrans("⁻⁰¹²³⁴⁵⁶⁷⁸⁹", "-0123456789")
# One decimal place of round-off in a float: the tolerance of an exact number computed in floating point.
FLOAT_ROUND_OFF = 1e-12


@dataclass(frozen=True)
class Value:
    """One computed value as a page shows it: its tooltip's expression and its text."""

    page: str
    expression: str
    shown: str


@dataclass(frozen=True)
class Note:
    """One "How these numbers were computed" note: the expressions it lists and its data files."""

    page: str
    expressions: tuple[str, ...]
    data: tuple[str, ...]


class _Provenance(HTMLParser):
    """The computed values and the notes of one page, with their text unescaped."""

    def __init__(self, page: str) -> None:
        super().__init__(convert_charrefs=True)
        self.page = page
        self.values: list[Value] = []
        self.notes: list[Note] = []
        self.problems: list[str] = []
        self._value: tuple[str, list[str]] | None = None  # the open value's popover id and its text so far
        self._opens: tuple[str, str] | None = None  # the value just closed: its popover id and its text
        self._why: list[str] | None = None  # the open popover's text so far
        self._details = 0  # the depth of <details> around the parser
        self._note: tuple[list[str], list[str]] | None = None  # the open note's expressions and data files
        self._text: list[str] | None = None  # text being collected: a <summary>, a <code>
        self._paragraph: list[str] = []  # the text of the note's paragraph so far
        self._in_item = 0  # how many <li> are open around the parser (every <li> of a built page is closed)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = dict(attrs)
        if self._value is not None:
            self.problems.append(f"{self.page}: a <{tag}> inside the computed value {self._value[0]!r}")
        following = self._opens is not None and self._why is None  # the tag right after a value
        if following and not (tag == "span" and "grpo-why" in (attributes.get("class") or "")):
            assert self._opens is not None
            self.problems.append(f"{self.page}: the value {self._opens[1]!r} is not followed by its provenance")
            self._opens = None
        classes = (attributes.get("class") or "").split()
        if tag == "button" and "grpo-value" in classes:  # the value; its provenance is the popover it opens
            self._value = (attributes.get("popovertarget") or "", [])
        elif tag == "span" and "grpo-why" in classes:
            if self._opens is None or attributes.get("id") != self._opens[0] or "popover" not in attributes:
                self.problems.append(f"{self.page}: a provenance popover no value opens: id={attributes.get('id')!r}")
            self._why = []
        elif tag == "wbr":
            pass  # where a long expression may wrap
        elif tag == "details":
            self._details += 1
        elif tag in ("summary", "code"):
            self._text = []
        elif tag == "p":
            self._paragraph = []
        elif tag == "li":
            self._in_item += 1

    def handle_endtag(self, tag: str) -> None:
        if tag == "li":
            self._in_item -= 1
        if tag == "button" and self._value is not None:
            self._opens = (self._value[0], "".join(self._value[1]))
            self._value = None
        elif tag == "span" and self._why is not None and self._opens is not None:
            why = "".join(self._why)
            if not why.startswith(PREFIX):
                self.problems.append(f"{self.page}: a computed value without its provenance: {why!r}")
            self.values.append(Value(self.page, why.removeprefix(PREFIX), self._opens[1]))
            self._why, self._opens = None, None
        elif tag == "summary" and self._text is not None:
            if "".join(self._text).strip() == NOTE_TITLE:
                self._note = ([], [])
            self._text = None
        elif tag == "code" and self._text is not None:
            if self._note is not None and self._in_item:  # in a note, each list item is an expression
                self._note[0].append("".join(self._text))
            elif self._note is not None and "".join(self._paragraph).lstrip().startswith("The data:"):
                self._note[1].append("".join(self._text))
            self._text = None
        elif tag == "details":
            self._details -= 1
            if self._note is not None:
                self.notes.append(Note(self.page, tuple(self._note[0]), tuple(self._note[1])))
                self._note = None

    def handle_data(self, data: str) -> None:
        if self._value is not None:
            self._value[1].append(data)
        if self._why is not None:
            self._why.append(data)
        if self._text is not None:
            self._text.append(data)
        self._paragraph.append(data)


def read_provenance(page: str, text: str) -> _Provenance:
    parser = _Provenance(page)
    parser.feed(text)
    parser.close()
    return parser


@dataclass(frozen=True)
class Shown:
    """What a page's text says of a number: its value as written (None if the text is not a number), and the
    decimals it says it was rounded to (None: it says the number is exact)."""

    number: Fraction | None
    decimals: int | None = None


def read_shown(text: str) -> Shown:
    """The number (or text) a reader takes from the page, by the book's conventions, not its code."""
    if text == "as much as":
        return Shown(Fraction(1))
    ratio = re.fullmatch(r"(?P<amount>.+) times", text)
    if ratio is not None:
        return read_shown(ratio.group("amount"))
    if text in WORDS:
        return Shown(Fraction(WORDS[text]))
    number = NUMBER.fullmatch(text)
    if number is None:
        return Shown(None)
    exponent = int(number.group("power").translate(_FROM_SUPERSCRIPT)) if number.group("power") else 0
    value = Fraction(number.group("digits")) * Fraction(10) ** exponent * (-1 if number.group("sign") == MINUS else 1)
    rounded = number.group("approx") is not None
    # m × 10^e with d decimals of m: its last digit is worth 10^(e - d), so it holds d - e decimals.
    return Shown(value, decimals=len(number.group("decimals") or "") - exponent if rounded else None)


def _exactly(value: int | float | Fraction, number: Fraction) -> bool:
    """The value is the number: exactly for an int or a fraction, up to a float's round-off for a float."""
    if isinstance(value, float):
        if number == 0:
            return abs(value) <= FLOAT_ROUND_OFF
        return math.isclose(value, float(number), rel_tol=FLOAT_ROUND_OFF, abs_tol=0)
    return Fraction(value) == number


def disagreement(value: object, shown: str) -> str | None:
    """Why the value does not read as the text shown, or None when it does."""
    if isinstance(value, str):  # a text is shown as written, even one that looks like a number (a token "56")
        return None if value == shown else f"the text {shown!r}, but the expression gives {value!r}"
    if isinstance(value, bool) or not isinstance(value, int | float | Fraction):
        return f"{shown!r}, but the expression gives a {type(value).__name__}, which a sentence cannot show"
    read = read_shown(shown)
    if read.number is None:
        return f"the text {shown!r}, but the expression gives the number {value!r}"
    if read.decimals is None:
        return None if _exactly(value, read.number) else f"exactly {shown!r}, but the expression gives {value!r}"
    # "≈" and d decimals: the value is within half a unit of the last decimal, and is not that number exactly.
    if abs(Fraction(value) - read.number) > Fraction(1, 2 * 10**read.decimals):
        return f"{shown!r}, which {value!r} does not round to"
    if _exactly(value, read.number):
        return f"{shown!r} as rounded, but the expression gives exactly {value!r}"
    return None


@cache
def evaluate(expression: str) -> object:
    """The expression, run as a reader would run it after `import grpo_examples`."""
    return eval(expression, {"grpo_examples": grpo_examples})


def _built_pages(site: Path) -> Iterator[tuple[str, str]]:
    for path in sorted(site.rglob("*.html")):
        yield path.relative_to(site).as_posix(), path.read_text(encoding="utf-8")


@dataclass(frozen=True)
class SiteProvenance:
    values: list[Value]
    notes: list[Note]
    problems: list[str]


@pytest.fixture(scope="module")
def provenance(built_site: Path) -> SiteProvenance:
    """Every computed value and every note of every page of the build."""
    values: list[Value] = []
    notes: list[Note] = []
    problems: list[str] = []
    for page, text in _built_pages(built_site):
        found = read_provenance(page, text)
        values += found.values
        notes += found.notes
        problems += found.problems
    return SiteProvenance(values, notes, problems)


def value_problems(values: list[Value]) -> list[str]:
    """Each value whose expression fails, or gives what the page does not show."""
    problems = []
    for value in values:
        try:
            result = evaluate(value.expression)
        except Exception as error:  # noqa: BLE001 (any failure of a printed expression is the finding)
            problems.append(f"{value.page}: {value.expression} raises {type(error).__name__}: {error}")
            continue
        why = disagreement(result, value.shown)
        if why is not None:
            problems.append(f"{value.page}: {value.expression} is shown as {why}")
    return problems


def note_problems(notes: list[Note]) -> list[str]:
    """Each note expression that fails or gives None, and each data file named that the project lacks."""
    problems = []
    for note in notes:
        if not note.expressions:
            problems.append(f"{note.page}: a note that lists no expression")
        for expression in note.expressions:
            try:
                result = evaluate(expression)
            except Exception as error:  # noqa: BLE001 (any failure of a printed expression is the finding)
                problems.append(f"{note.page}: {expression} raises {type(error).__name__}: {error}")
                continue
            if result is None:
                problems.append(f"{note.page}: {expression} gives None")
        for source in note.data:
            path, _, table = source.partition(" [")
            if not (ROOT / path).is_file():
                problems.append(f"{note.page}: the data file {path} does not exist")
            elif table and table.removesuffix("]") not in tomllib.loads((ROOT / path).read_text(encoding="utf-8")):
                problems.append(f"{note.page}: {path} has no table [{table}")
    return problems


def test_every_computed_value_carries_its_provenance(provenance: SiteProvenance) -> None:
    assert provenance.problems == []
    assert len(provenance.values) > 300  # every page's sentences, and the whole book's page again
    assert len({value.expression for value in provenance.values}) > 100
    assert len({value.page for value in provenance.values}) >= 8


def test_every_computed_value_is_what_its_expression_gives(provenance: SiteProvenance) -> None:
    assert value_problems(provenance.values) == []


def test_every_expression_of_every_note_runs(provenance: SiteProvenance) -> None:
    assert len(provenance.notes) > 30
    assert note_problems(provenance.notes) == []


@pytest.mark.parametrize(
    ("shown", "value", "agrees"),
    [
        ("−2.0", -2.0, True),
        ("−2.0", 2.0, False),  # the sign is read
        ("-2.0", -2.0, False),  # a hyphen is not the book's minus: the text is read as text
        ("+0.5", Fraction(1, 2), True),
        ("0.228", 0.22799999999999998, True),  # the float 1.14 / 5 is 0.228 up to round-off
        ("0.228", 0.2281, False),
        ("≈\u00a00.4472", 0.4472135954999579, True),
        ("≈\u00a00.4473", 0.4472135954999579, False),  # not the value rounded
        ("≈\u00a00.5", 0.5, False),  # rounded, the page says, but it is exact
        ("four", 4, True),
        ("four", 5, False),
        ("five times", 5.000000000000001, True),
        ("≈\u00a05.1085 times", 1.083 / 0.212, True),
        ("as much as", Fraction(1), True),
        ("What is 7 × 8?", "What is 7 × 8?", True),
        ("What is 7 × 8?", "What is 8 × 7?", False),
        ("56", "56", True),  # a text that looks like a number is still compared as text
        ("56", "54", False),
        ("56", 56, True),
        ("fifty-six", 56, False),
        ("≈\u00a05.9605\u00a0×\u00a010⁻⁸", 2**-24, True),  # a value too small for four decimals: 5.96046e-8
        ("≈\u00a05.9604\u00a0×\u00a010⁻⁸", 2**-24, False),
        ("≈\u00a05.9605\u00a0×\u00a010⁻⁷", 2**-24, False),  # the power is read
        ("−4.0\u00a0×\u00a010⁻⁵", -4e-5, True),
        ("4.0\u00a0×\u00a010⁻⁵", -4e-5, False),
        ("0.0", 1e-13, True),  # zero computed in floating point
        ("0.0", 1e-6, False),
        ("1.0", True, False),  # a claim is never shown as a number
    ],
)
def test_the_reading_of_a_shown_value(shown: str, value: object, agrees: bool) -> None:
    assert (disagreement(value, shown) is None) == agrees, disagreement(value, shown)


def test_a_tampered_page_is_caught(built_site: Path) -> None:
    """The checks are only as good as their reading of a page: tamper with a copy of a built page three ways
    (a popover naming another value, a number changed, a note listing a call that fails) and see each found."""
    page = (built_site / "grpo" / "index.html").read_text(encoding="utf-8").replace("<wbr>", "")
    wrong = html.escape("grpo_examples.group('easy').advantage['wrong']")
    correct = html.escape("grpo_examples.group('easy').advantage['correct']")

    def popover(expression: str) -> str:
        return f'<span class="grpo-why" id="[^"]*" popover data-search-exclude>{PREFIX}<code>{re.escape(expression)}'

    assert re.search(f"−2.0</button>{popover(wrong)}", page) and re.search(rf"\+0.5</button>{popover(correct)}", page)
    tampered = page.replace(f"{PREFIX}<code>{wrong}</code>", f"{PREFIX}<code>{correct}</code>", 1)
    tampered = re.sub(rf"\+0.5</button>({popover(correct)})", r"+0.6</button>\1", tampered, count=1)
    tampered = tampered.replace(
        "<code>grpo_examples.group('easy')</code>", "<code>grpo_examples.group('eazy')</code>", 1
    )
    found = read_provenance("grpo/index.html", tampered)
    assert value_problems(read_provenance("grpo/index.html", page).values) == []
    problems = value_problems(found.values)
    assert (
        f"grpo/index.html: {html.unescape(correct)} is shown as exactly '−2.0', but the expression gives Fraction(1, 2)"
        in problems
    )
    assert (
        f"grpo/index.html: {html.unescape(correct)} is shown as exactly '+0.6', but the expression gives Fraction(1, 2)"
        in problems
    )
    assert len(problems) == 2
    [failing] = note_problems(found.notes)
    assert failing.startswith("grpo/index.html: grpo_examples.group('eazy') raises KeyError")


def test_search_indexes_the_values_but_not_their_provenance(built_site: Path) -> None:
    # Each value's popover is in the page, closed; indexed, it would put an expression into every search result.
    docs = json.loads((built_site / "search" / "search_index.json").read_text(encoding="utf-8"))["docs"]
    page = (built_site / "grpo" / "index.html").read_text(encoding="utf-8")
    assert page.count(PREFIX) > 10
    assert [doc["location"] for doc in docs if PREFIX in doc["text"]] == []
    assert any("What is 7 × 8?" in doc["text"] for doc in docs)  # a value's text is searchable, as its sentence
