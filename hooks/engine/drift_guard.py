"""The drift guard: a number typed into a chapter, where the code could compute it, fails the build.

It reads a page's source, outside code and placeholders, in prose and inside formulas, and reports
every decimal (0.8), fraction (4/5, \\frac{4}{5}), signed value (-2.0, +1, −0.5), percentage (80%)
and number in scientific notation (1e-4, 10^{-4}) that is not marked as intended. Unsigned
integers (counts, "section 4", a year), arXiv ids, version numbers, dates and the text of footnotes
(a footnote is a citation: its numbers quote its source) pass unmarked.

Two markings say "this literal is meant": a footnote citation right after it, `0.04[^dsm]` (a value
quoted from a paper or a trainer), or a comment that says why, `0.5<!-- literal: a coin flip -->`.
Either may also follow a bracket, `[0.8, 1.2][^ppo]`, or an inline formula, $`\\epsilon = 0.2`$[^ppo],
and then covers every number inside it; `<!-- literal: why -->` on the line above a ```math block
covers that block. The message names the placeholder that computes the number, when one does.

What a typed number is, is hooks/engine/literals.py; the values it matches come from hooks/engine/computed_index.py
(built only when a page has a typed number to explain).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from markdown_katex.extension import BLOCK_START_RE

from hooks.engine import literals, scan
from hooks.engine.book import Book
from hooks.engine.computed_index import Computed, matches
from hooks.engine.literals import TypedNumber

# Markings: what may follow a literal to say that it is meant.
FOOTNOTE = re.compile(r"\[\^[^\]\s]+\]")
FOOTNOTE_DEFINITION = re.compile(r"\[\^[^\]\s]+\]:")
LITERAL = re.compile(r"<!--\s*literal\b(?P<why>.*?)-->")
_MARKING = re.compile(f"{FOOTNOTE.pattern}|{LITERAL.pattern}")


@dataclass(frozen=True)
class StaleMarking:
    """A `<!-- literal -->` that marks no number (what it marked was since computed), or says no why."""

    line: int
    column: int
    text: str
    problem: str


def typed_numbers(markdown: str, first_line: int = 1) -> tuple[list[TypedNumber], list[StaleMarking]]:
    """Every unmarked typed number of a page, and every marking that is wrong, in source order."""
    found: list[TypedNumber] = []
    stale: list[StaleMarking] = []
    block_marked, in_block, in_footnote, previous = False, False, False, ""
    for line in scan.lines(markdown, first_line):
        in_footnote = FOOTNOTE_DEFINITION.match(line.text) is not None or (in_footnote and line.text[:1].isspace())
        if line.fence == "code" or in_footnote:
            pass  # code; or a footnote's text, the citation itself, which quotes its source
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
    return found, stale


def _is_closing_fence(text: str) -> bool:
    return re.fullmatch(r"\s*(`{3,}|~{3,})\s*", text) is not None


def _prose_line(text: str, number: int) -> tuple[list[TypedNumber], list[StaleMarking]]:
    spans = scan.code_spans(text)
    markings = [m for m in _MARKING.finditer(text) if not any(s.start <= m.start() < s.end for s in spans)]
    return _apply_markings(text, number, literals.in_prose(text, number, spans), markings, spans)


def _apply_markings(
    text: str, number: int, numbers: list[TypedNumber], markings: list[re.Match[str]], spans: list[scan.Span]
) -> tuple[list[TypedNumber], list[StaleMarking]]:
    """The numbers no marking follows; and each literal marking that covers none, or says no why."""
    stale: list[StaleMarking] = []
    covered: set[int] = set()
    marking_ends = {m.end() for m in markings}
    for marking in markings:
        end = marking.start()
        while end > 0 and (text[end - 1] == " " or end in marking_ends):  # past spaces and earlier markings
            end = next((m.start() for m in markings if m.end() == end), end - 1)
        start = _covered_from(text, end, spans)
        hits = {i for i, n in enumerate(numbers) if start <= n.column - 1 < end}
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
    span = next((s for s in spans if s.end == end), None)
    if span is not None:
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
    match = re.search(r"[+\-−]?[\d.eE/+\-−]*\d%?$", text[:end])
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


def problems(book: Book, markdown: str, page: str, first_line: int = 1) -> list[str]:
    """`page:line:column: message` for every unmarked typed number and every wrong marking."""
    numbers, stale = typed_numbers(markdown, first_line)
    located: list[tuple[int, int, str]] = [(n.line, n.column, describe(book, n)) for n in numbers]
    located += [(s.line, s.column, f"{s.text} {s.problem}") for s in stale]
    return [f"{page}:{line}:{column}: {message}" for line, column, message in sorted(located)]


def guard(book: Book, markdown: str, page: str, first_line: int = 1) -> None:
    """DriftError listing every problem of the page, if it has any."""
    found = problems(book, markdown, page, first_line)
    if found:
        raise DriftError("\n".join([*found, HOW_TO_MARK]))
