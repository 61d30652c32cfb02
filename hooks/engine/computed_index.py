"""Every number a placeholder can print, so the drift guard can say which placeholder a typed number is.

The index walks every subject's tree (hooks/engine/tree.py) for its numbers, then fills in every formula its
layouts can draw for the numbers those show. It is cached on the Book, which lives for one version of the
code (hooks/entry.py re-imports the hooks when grpo_examples or the hooks change), and it is built only
when a page has a typed number to explain, or an integer that could be a count of a subject it uses.

Each number keeps the subject it belongs to and whether it is a count: an int field (not a bool, not a float
that happens to be whole) that does not just repeat the key of the entry it belongs to (bandit.candidates.2.number
is 2, ppo.gae.tokens.2.t is 2: the page's numbering, which the path already names, not a quantity). `counts`
looks an integer typed on a page up among the counts of the subjects that page uses, for the drift guard's
check of integers and number words.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from hooks.engine.book import Book, formulas_of
from hooks.engine.tree import describe, walk

_TEX_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")
ROUND_OFF = Fraction(1, 10**12)  # a float computed to be 0.8 is the 0.8 typed (as hooks/engine/numbers.py decides)


@dataclass(frozen=True)
class Computed:
    """One number a placeholder prints: the placeholder, what the number is, and its exact value."""

    placeholder: str
    what: str
    value: Fraction
    in_formula: bool
    subject: str = ""  # the group or chapter it is a number of
    integer: bool = False  # a count (an int field, not a numbering): what a typed integer is compared with


@lru_cache(maxsize=1)  # one Book per build: under `make serve` a data edit makes a new one, and the old goes
def computed_values(book: Book) -> tuple[Computed, ...]:
    """Every number of every subject, then every number in every filled-in formula."""
    values: list[Computed] = []
    formulas: list[Computed] = []
    for name, start in book.subjects.items():
        try:
            named = list(walk(start))
            filled = list(formulas_of(book, start))
        except (ValueError, LookupError):  # a data file that does not fit its schema, or names a group that is
            continue  # gone (a chapter's model reads a group): the page that uses it says so
        for item in named:
            if isinstance(item.value, int | float | Fraction) and not isinstance(item.value, bool):
                said = describe(item.owner, item.field)
                what = f"{item.path}" + (f" ({said.rstrip('.')})" if said and not item.keys else "")
                placeholder = f"<!-- grpo:value {item.path} -->"
                integer = isinstance(item.value, int) and item.path.split(".")[-2] != str(item.value)
                values.append(Computed(placeholder, what, Fraction(item.value), False, name, integer))
        for path, tex in filled:
            placeholder = f"<!-- grpo:formula {path} -->"
            formulas.extend(_formula_numbers(tex, placeholder, f"a number in the formula of {path}", name))
    return tuple(values + formulas)


def _formula_numbers(tex: str, placeholder: str, what: str, subject: str) -> list[Computed]:
    """The numbers a filled-in formula shows, but 0 and 1, which are everywhere."""
    numbers = {Fraction(n) for n in _TEX_NUMBER.findall(tex)} - {Fraction(0), Fraction(1)}
    return [Computed(placeholder, what, number, True, subject) for number in sorted(numbers)]


@lru_cache(maxsize=1)
def _counts(book: Book) -> Mapping[tuple[str, int], tuple[Computed, ...]]:
    """The int fields of every subject, by subject and value."""
    found: dict[tuple[str, int], list[Computed]] = {}
    for computed in computed_values(book):
        if computed.integer:
            found.setdefault((computed.subject, int(computed.value)), []).append(computed)
    return {key: tuple(values) for key, values in found.items()}


def counts(book: Book, value: int, used: frozenset[str]) -> list[Computed]:
    """The int fields of the subjects in `used` that hold value: the subjects in the book's order, each one's
    fields in the order of its model."""
    index = _counts(book)
    return [c for name in book.subjects if name in used for c in index.get((name, value), ())]


@lru_cache(maxsize=1)
def _by_magnitude(book: Book) -> tuple[list[Fraction], list[tuple[int, Computed]]]:
    """Every computed number by |value|, each with its place in computed_values, and the sorted magnitudes."""
    ordered = sorted(enumerate(computed_values(book)), key=lambda item: abs(item[1].value))
    return [abs(computed.value) for _, computed in ordered], ordered


def matches(book: Book, value: Fraction, places: int | None, in_math: bool) -> list[Computed]:
    """The computed numbers that value is, as written (rounded to `places` decimals, if given).

    Same sign first, then the same magnitude; in a formula, the formulas first.
    """
    tolerance = Fraction(1, 2 * 10**places) if places is not None else ROUND_OFF

    reach = max(tolerance, ROUND_OFF * abs(value))

    def near(computed: Computed, target: Fraction) -> bool:
        return abs(computed.value - target) <= reach

    # only the numbers within reach of |value| can be near value or -value: found by bisection, kept in book order
    magnitudes, ordered = _by_magnitude(book)
    pool = ordered[
        bisect.bisect_left(magnitudes, abs(value) - reach) : bisect.bisect_right(magnitudes, abs(value) + reach)
    ]
    candidates = [computed for _, computed in sorted(pool)]
    ranked = sorted(candidates, key=lambda c: (c.in_formula != in_math, abs(abs(c.value) - abs(value))))
    same = [c for c in ranked if near(c, value)]
    taken = set(same)  # a lookup in the list would read all of it, and a long book has many numbers within reach
    opposite = [c for c in ranked if value != 0 and near(c, -value) and c not in taken]
    first: dict[str, Computed] = {}
    for computed in same + opposite:
        first.setdefault(computed.placeholder, computed)
    return list(first.values())
