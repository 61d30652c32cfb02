"""The drift guard: a number typed into a chapter, where the code could compute it, fails the build.

It reads a page's source, outside code and placeholders, in prose and inside formulas, and reports
every decimal (0.8), fraction (4/5, \\frac{4}{5}), signed value (-2.0, +1, −0.5), percentage (80%)
and number in scientific notation (1e-4, 10^{-4}) that is not marked as intended. ArXiv ids, version
numbers, dates, references into a text (section 4.1) and the text of footnotes (a footnote is a
citation: its numbers quote its source) pass unmarked.

An unsigned integer (5, 1,200) or a number word (five) is reported only where it equals a count of
a subject the page itself uses (`used`: the groups and chapters its placeholders name, which
placeholders.expand returns): an int field of that subject's model, such as the group size or a
count of correct answers (computed_index.counts). Most integers in prose are not the book's numbers
(a year, "two ideas", a journal's volume), so an integer is suspect only beside the subjects whose
counts it could drift from, and a page that uses no subject has no integer checked (the guide's own
example, hooks/engine/guide.py, calls the guard without `used`). 0 and 1 (and zero, one) are never
checked: every model holds them (empty counts, the 0/1 reward, a first index) and prose uses them
everywhere as ordinary words ("one of the answers", `1 - \\epsilon`); measured on the book when this
check was written, they gave 286 reports, every one English or notation, and none a drift.

Two markings say "this literal is meant": a footnote citation right after it, `0.04[^dsm]` (a value
quoted from a paper or a trainer), or a comment that says why, `0.5<!-- literal: a coin flip -->`.
Either may also follow a bracket, `[0.8, 1.2][^ppo]`, or an inline formula, $`\\epsilon = 0.2`$[^ppo],
and then covers every number inside it; `<!-- literal: why -->` on the line above a ```math block
covers that block. The message names the placeholder that computes the number, when one does.

`findings` returns what is wrong as data (line, column, message, offending text), sorted; `problems` and
`guard` are that list as `file:line:column: message` lines, and as a DriftError.

What a typed number is, is hooks/engine/literals.py; the values it matches come from hooks/engine/computed_index.py
(built only when a page has a typed number to explain, or an integer of 2 or more and subjects to compare it with).
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass
from functools import lru_cache

from markdown_katex.extension import BLOCK_START_RE

from hooks.engine import literals, scan
from hooks.engine.book import Book
from hooks.engine.computed_index import Computed, counts, matches
from hooks.engine.literals import COUNTS, WORD, TypedNumber

# Markings: what may follow a literal to say that it is meant.
FOOTNOTE = re.compile(r"\[\^[^\]\s]+\]")
FOOTNOTE_DEFINITION = re.compile(r"\[\^[^\]\s]+\]:")
_ENDING_NUMBER = re.compile(r"[+\-−]?[\d.,eE/+\-−]*\d%?$|\b[A-Za-z]+$")
_LONGEST_NUMBER = 200
LITERAL = re.compile(r"<!--\s*literal\b(?P<why>.*?)-->")
_MARKING = re.compile(f"{FOOTNOTE.pattern}|{LITERAL.pattern}")


@dataclass(frozen=True)
class StaleMarking:
    """A `<!-- literal -->` that marks no number (what it marked was since computed), or says no why."""

    line: int
    column: int
    text: str
    problem: str


SMALLEST_COUNT = 2  # 0 and 1 are not checked as counts: see the module's docstring


def typed_numbers(
    markdown: str, first_line: int = 1, integers: bool = False
) -> tuple[list[TypedNumber], list[StaleMarking]]:
    """Every unmarked typed number of a page, and every marking that is wrong, in source order.

    Integers and number words (literals.COUNTS) are read either way, so that a marking after one marks a
    number; they are returned only with `integers`, for the caller to keep those that are counts.
    """
    found: list[TypedNumber] = []
    stale: list[StaleMarking] = []
    block_marked, in_block, in_footnote, previous = False, False, False, ""
    pasted = scan.snippet_lines(markdown, first_line) if "8<" in markdown else set()
    for line in scan.lines(markdown, first_line):
        in_footnote = FOOTNOTE_DEFINITION.match(line.text) is not None or (in_footnote and line.text[:1].isspace())
        if line.code or in_footnote or line.number in pasted:
            pass  # code; a footnote's text, the citation itself, which quotes its source; a snippet line (a file)
        elif line.fence == "math":
            if BLOCK_START_RE.match(line.text) and not in_block:
                in_block = True
                block_marked = LITERAL.fullmatch(previous.strip()) is not None
                if block_marked:  # the marking above covers this block, not its own line
                    stale = [s for s in stale if s.line != line.number - 1]
            elif _is_closing_fence(line.text):
                in_block = False
            elif not block_marked:
                found += literals.in_tex(line.text, line.number, display=True)
        else:
            numbers, markings = _prose_line(line.text, line.number)
            found += numbers
            stale += markings
        previous = line.text
    return [n for n in found if integers or n.kind not in COUNTS], stale


def _is_closing_fence(text: str) -> bool:
    return re.fullmatch(r"\s*(`{3,}|~{3,})\s*", text) is not None


def _prose_line(text: str, number: int) -> tuple[list[TypedNumber], list[StaleMarking]]:
    spans = scan.code_spans(text)
    markings = [m for m in _MARKING.finditer(text) if scan.span_at(spans, m.start()) is None]
    return _apply_markings(text, number, literals.in_prose(text, number, spans), markings, spans)


def _apply_markings(
    text: str, number: int, numbers: list[TypedNumber], markings: list[re.Match[str]], spans: list[scan.Span]
) -> tuple[list[TypedNumber], list[StaleMarking]]:
    """The numbers no marking follows; and each literal marking that covers none, or says no why."""
    stale: list[StaleMarking] = []
    covered: set[int] = set()
    marking_at_end = {m.end(): m.start() for m in markings}
    columns = [n.column - 1 for n in numbers]  # in order (in_prose sorts them): each marking's hits by bisection
    for marking in markings:
        end = marking.start()
        while end > 0 and (text[end - 1] == " " or end in marking_at_end):  # past spaces and earlier markings
            end = marking_at_end.get(end, end - 1)
        start = _covered_from(text, end, spans)
        hits = set(range(bisect.bisect_left(columns, start), bisect.bisect_left(columns, end)))
        covered |= hits
        if marking.group("why") is not None:
            why = marking.group("why").strip()
            column = marking.start() + 1
            if not hits:
                stale.append(StaleMarking(number, column, marking.group(), "marks no number: remove it"))
            elif not why.startswith(":") or not why[1:].strip():
                problem = "say why the number is typed: <!-- literal: why -->"
                stale.append(StaleMarking(number, column, marking.group(), problem))
    return [n for i, n in enumerate(numbers) if i not in covered], stale


def _covered_from(text: str, end: int, spans: list[scan.Span]) -> int:
    """Where the thing a marking follows begins: a formula, a bracketed group, or the number itself."""
    span = scan.span_at(spans, end - 1)
    if span is not None and span.end == end:
        return span.start
    closing = {")": "(", "]": "["}
    if end > 0 and text[end - 1] in closing:
        depth, pos = 0, end - 1
        while pos >= 0:
            if text[pos] == text[end - 1]:
                depth += 1
            elif text[pos] == closing[text[end - 1]]:
                depth -= 1
                if depth == 0:
                    return pos
            pos -= 1
    # the number (or word) that ends where the marking starts; read in a window before it, so that a line of
    # thousands of markings is read in linear time (no number is longer than the window)
    window = max(0, end - _LONGEST_NUMBER)
    match = _ENDING_NUMBER.search(text, window, end)
    return match.start() if match else end


GUIDE = "docs/guide/drift-guard.md"
HOW_TO_MARK = (
    "A number that is meant to be typed is marked: cite it, 0.04[^source], or say why, "
    f"0.5<!-- literal: why -->; see {GUIDE}."
)


class DriftError(Exception):
    """A page with typed numbers: every one of them, each with file:line:column and what to write."""


def describe(book: Book, found: TypedNumber) -> str:
    """What is wrong with one typed number, and the placeholder that computes it if there is one."""
    what = f"typed number {found.text} ({found.kind})"
    computed = matches(book, found.value, found.places, found.in_math)
    if not computed:
        return f"{what}: no placeholder computes it; compute it (see {GUIDE}) or mark it as meant"
    best, others = computed[0], computed[1:]
    also = f" (it also matches {', '.join(_placeholder(c, found) for c in others[:2])})" if others else ""
    return f"{what} is {best.what}: write {_placeholder(best, found)}{also}"


def _placeholder(computed: Computed, found: TypedNumber) -> str:
    if computed.in_formula and found.display:
        return computed.placeholder.replace(" -->", " display -->")
    return computed.placeholder


@dataclass(frozen=True)
class Finding:
    """One thing on a page that stops the build: where it stands, what to do, and the text at fault (the typed
    number, or the marking)."""

    line: int
    column: int
    message: str
    offending: str


@lru_cache(maxsize=1024)  # a page's typed numbers depend on its text alone: under `make serve`, a data edit has
def _typed_numbers_of(  # the guard read every page again, and the pages it did not change are read from here
    markdown: str, first_line: int, integers: bool
) -> tuple[tuple[TypedNumber, ...], tuple[StaleMarking, ...]]:
    numbers, stale = typed_numbers(markdown, first_line, integers=integers)
    return tuple(numbers), tuple(stale)


def findings(book: Book, markdown: str, first_line: int = 1, used: frozenset[str] = frozenset()) -> list[Finding]:
    """Every unmarked typed number, every integer or number word that is a count of a subject in `used`, and
    every wrong marking of the page, sorted by line and column. The index of computed numbers is built only
    when there is a number to look up."""
    numbers, stale = _typed_numbers_of(markdown, first_line, bool(used))
    found = [Finding(s.line, s.column, f"{s.text} {s.problem}", s.text) for s in stale]
    named: dict[str, list[int]] | None = None
    for number in numbers:
        if number.kind not in COUNTS:
            marked = f"; if it is meant as typed, mark it: {number.text}<!-- literal: why -->"
            found.append(Finding(number.line, number.column, describe(book, number) + marked, number.text))
        elif number.value >= SMALLEST_COUNT:
            computed = counts(book, int(number.value), used)
            if computed:
                named = _placeholder_lines(markdown, first_line, used) if named is None else named
                computed = sorted(computed, key=lambda c: _distance(number.line, named.get(c.subject, [])))
                found.append(Finding(number.line, number.column, _describe_count(number, computed), number.text))
    return sorted(found, key=lambda f: (f.line, f.column))


_PATHS = re.compile(r"<!--\s*grpo:\S*(?P<paths>.*?)-->")


def _placeholder_lines(markdown: str, first_line: int, used: frozenset[str]) -> dict[str, list[int]]:
    """The lines on which a placeholder names each subject of the page. A count is first said to be one of the
    subject named nearest to it: the sentence is most likely about that one (the four tokens of a paragraph on
    practice.kl are practice.kl.count, not easy.count.correct)."""
    lines: dict[str, list[int]] = {}
    for number, text in enumerate(markdown.split("\n"), start=first_line):
        for match in _PATHS.finditer(text):
            for word in match.group("paths").split():
                if word.split(".")[0] in used:
                    lines.setdefault(word.split(".")[0], []).append(number)
    return lines


def _distance(line: int, lines: list[int]) -> int:
    """How many lines from `line` to the nearest of `lines`; a subject no placeholder names (none) comes last."""
    return min((abs(line - other) for other in lines), default=_NOWHERE)


_NOWHERE = 10**9  # farther than any line of a page


def _describe_count(found: TypedNumber, computed: list[Computed]) -> str:
    """A count typed where a subject of the page computes it: the placeholder (in words for a word), or the
    marking for a coincidence."""

    def placeholder(count: Computed) -> str:
        return count.placeholder.replace(" -->", " as=words -->") if found.kind == WORD else count.placeholder

    best, others = computed[0], computed[1:]
    also = f" (it also matches {', '.join(placeholder(c) for c in others[:2])})" if others else ""
    outside = " outside the formula (a placeholder does not expand in math)" if found.in_math else ""
    return (
        f"typed number {found.text} ({found.kind}) is {best.what}, and this page uses {best.subject}: write "
        f"{placeholder(best)}{outside}{also}; if it only happens to be equal (a year, a count of something "
        f"else), mark it: {found.text}<!-- literal: why -->"
    )


def problems(
    book: Book, markdown: str, page: str, first_line: int = 1, used: frozenset[str] = frozenset()
) -> list[str]:
    """`page:line:column: message` for every finding of the page (see findings)."""
    return [f"{page}:{f.line}:{f.column}: {f.message}" for f in findings(book, markdown, first_line, used)]


def guard(book: Book, markdown: str, page: str, first_line: int = 1, used: frozenset[str] = frozenset()) -> None:
    """DriftError listing every problem of the page, if it has any."""
    found = problems(book, markdown, page, first_line, used)
    if found:
        raise DriftError("\n".join([*found, HOW_TO_MARK]))
