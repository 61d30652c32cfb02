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

This file only scans text; the values it matches come from hooks/computed_index.py.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING

from markdown_katex.extension import BLOCK_START_RE

from hooks import scan

if TYPE_CHECKING:
    from hooks.computed_index import Computed

# Markings: what may follow a literal to say that it is meant.
FOOTNOTE = re.compile(r"\[\^[^\]\s]+\]")
FOOTNOTE_DEFINITION = re.compile(r"\[\^[^\]\s]+\]:")
LITERAL = re.compile(r"<!--\s*literal\b(?P<why>.*?)-->")
_MARKING = re.compile(f"{FOOTNOTE.pattern}|{LITERAL.pattern}")

# Prose that is not prose: placeholders and other comments, HTML tags, link targets, attribute lists.
_NOT_PROSE = re.compile(
    r"<!--.*?-->"  # an HTML comment, a placeholder included (a literal marking is found before this)
    r"|<code>.*?</code>"  # inline code written as HTML (to show $`...`$ without it being rendered)
    r"|<[A-Za-z/][^>]*>"  # an HTML tag and its attributes
    r"|\]\([^)\s]*(?:\s+\"[^\"]*\")?\)"  # a link's or an image's target, ](url "title")
    r"|^\s*\[[^\]]+\]:\s*\S+"  # a reference definition's target, [id]: url
    r"|\bhttps?://\S+"  # a bare URL
    r"|\{:?\s*[.#][^}]*\}|\{[^}]*=[^}]*\}"  # an attribute list, { #id .class key=value }
)

# Numbers that pass unmarked, blanked out before the scan for typed numbers.
_ACCEPTED = re.compile(
    r"(?i:arxiv)[:\s]*\d{4}\.\d{4,5}(?:v\d+)?"  # arXiv:2402.03300v2
    r"|(?<![\d.])\d{2}(?:0[1-9]|1[0-2])\.\d{4,5}(?:v\d+)?(?![\d.])"  # a bare arXiv id, 2402.03300
    r"|(?<![\w.])v?\d+(?:\.\d+){2,}(?:[.+-]?[A-Za-z]+\d*)*"  # a version, 1.10.0.dev0
    r"|(?<![\w.])v\d+(?:\.\d+)+"  # a version with its v, v0.4
    r"|(?i:\b(?:versions?|release)\s+)\d+(?:\.\d+)+"  # version 0.14
    r"|(?<![\d/-])\d{4}-\d{2}(?:-\d{2})?(?![\d-])"  # an ISO date, 2025-03-18
    r"|(?<![\d/])\d{1,2}/\d{1,2}/\d{2,4}(?![\d/])"  # a date, 18/03/2025
    r"|(?i:(?:§|\b(?:sections?|chapters?|appendix|tables?|figures?|fig\.|eqs?\.|equations?|algorithms?"
    r"|theorems?|lemmas?|steps?|pages?|pp?\.|lines?))\s*)"  # section 4.1, eq. 3, sections 4.1 and 4.2
    r"\d+(?:\.\d+)*[a-z]?(?:\s*\([^)]*\))?(?:\s*(?:,|and|or|to|–|-)\s*\d+(?:\.\d+)*[a-z]?(?:\s*\([^)]*\))?)*"
    r"|(?<![\w.])0/1(?![\d/.])"  # a 0/1 reward: the notation for a binary value, not a fraction
)

# Inside TeX: literal fractions and powers of ten first, then what is notation rather than a value.
_TEX_FRACTION = re.compile(
    r"\\[dt]?frac\s*(?:\{\s*(?P<num>[+\-]?\d+(?:\.\d+)?)\s*\}\s*\{\s*(?P<den>\d+(?:\.\d+)?)\s*\}"
    r"|(?P<num1>\d)\s*(?P<den1>\d))"
)
_TEX_POWER_OF_TEN = re.compile(
    r"(?:(?P<mantissa>\d+(?:\.\d+)?)\s*\\(?:times|cdot)\s*)?10\s*\^\s*(?:\{\s*(?P<exp>[+\-]?\d+)\s*\}|(?P<exp1>\d))"
)
_TEX_NOTATION = re.compile(
    r"(?<!\\)%.*$"  # a TeX comment
    r"|\d*\.?\d+\s*(?:em|ex|pt|mu|px|cm|mm|bp|pc|sp|dd)(?![A-Za-z])"  # a length, \hspace{0.5em}
    r"|[\^_]\s*\{?\s*[+\-]\d+(?![.\d])"  # a signed index or exponent, \sigma^{-1}: notation, not a value
    r"|\\[A-Za-z]+"  # a command name (its letters would glue to a number)
)
# TeX commands after which a sign is unary (A \approx -2.0), unlike after an operand (\mu - 1).
_TEX_RELATIONS = {
    "approx", "leq", "geq", "le", "ge", "ne", "neq", "sim", "simeq", "equiv", "to", "in", "times", "cdot",
    "pm", "mp", "quad", "qquad", "left", "big", "Big", "bigg", "Bigg", "coloneqq", "mapsto", "gets",
}  # fmt: skip

NUMBER = re.compile(
    r"(?P<sign>[+\-−])?"
    r"(?P<body>\d+(?:\.\d+)?[eE][+\-−]?\d+"  # 1e-4, 2.5E3
    r"|\d+(?:\.\d+)?/\d+(?:\.\d+)?"  # 4/5
    r"|\d*\.\d+"  # 0.8, .5
    r"|\d+)"  # 4
    r"(?P<percent>\\?%)?"
)
SCIENTIFIC = "scientific notation"
_OPERAND_END = re.compile(r"[\w)\]}|!'.]")


@dataclass(frozen=True)
class TypedNumber:
    """A number as written in the source, where it stands, what kind it is and its exact value."""

    line: int
    column: int  # 1-based, as editors count
    text: str
    kind: str
    value: Fraction
    places: int | None  # decimals shown (the value is rounded to these), None when exact as written
    in_math: bool
    display: bool = False
    covered: bool = field(default=False, compare=False)


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
                found += _tex_numbers(line.text, line.number, 0, display=True)
        else:
            numbers, markings = _prose_line(line.text, line.number)
            found += numbers
            stale += markings
        previous = line.text
    return [n for n in found if not n.covered], stale


def _is_closing_fence(text: str) -> bool:
    return re.fullmatch(r"\s*(`{3,}|~{3,})\s*", text) is not None


def _blank(text: str, start: int, end: int) -> str:
    return text[:start] + " " * (end - start) + text[end:]


def _prose_line(text: str, number: int) -> tuple[list[TypedNumber], list[StaleMarking]]:
    spans = scan.code_spans(text)
    markings = [m for m in _MARKING.finditer(text) if not any(s.start <= m.start() < s.end for s in spans)]
    numbers: list[TypedNumber] = []
    masked = text
    for span in spans:
        if span.is_math:
            tex_start = span.start + len(re.match(r"\$`+", text[span.start :]).group())  # type: ignore[union-attr]
            tex = text[tex_start : span.end].rstrip("`$").ljust(span.end - tex_start)
            numbers += _tex_numbers(tex, number, tex_start)
        masked = _blank(masked, span.start, span.end)
    for region in [*_NOT_PROSE.finditer(masked), *_ACCEPTED.finditer(masked)]:
        masked = _blank(masked, region.start(), region.end())
    numbers += _numbers(masked, number, 0, in_math=False)
    numbers.sort(key=lambda n: n.column)
    return _apply_markings(text, number, numbers, markings, spans)


def _apply_markings(
    text: str, number: int, numbers: list[TypedNumber], markings: list[re.Match[str]], spans: list[scan.Span]
) -> tuple[list[TypedNumber], list[StaleMarking]]:
    """Cover the numbers each marking follows; a literal marking that covers none is stale."""
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
    result = [
        TypedNumber(n.line, n.column, n.text, n.kind, n.value, n.places, n.in_math, n.display, i in covered)
        for i, n in enumerate(numbers)
    ]
    return result, stale


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


def _tex_numbers(tex: str, number: int, offset: int, display: bool = False) -> list[TypedNumber]:
    """The typed numbers of one line of TeX; columns are counted from `offset` in the source line."""
    found: list[TypedNumber] = []
    for match in _TEX_FRACTION.finditer(tex):
        num, den = match.group("num") or match.group("num1"), match.group("den") or match.group("den1")
        if Fraction(den) != 0:
            value = Fraction(num) / Fraction(den)
            found.append(
                TypedNumber(number, offset + match.start() + 1, match.group(), "fraction", value, None, True, display)
            )
        tex = _blank(tex, match.start(), match.end())
    for match in _TEX_POWER_OF_TEN.finditer(tex):
        exponent = int(match.group("exp") or match.group("exp1"))
        if match.group("mantissa") or exponent < 0:
            value = Fraction(match.group("mantissa") or 1) * Fraction(10) ** exponent
            column = offset + match.start() + 1
            found.append(TypedNumber(number, column, match.group(), SCIENTIFIC, value, None, True, display))
        tex = _blank(tex, match.start(), match.end())
    relations = [m for m in _TEX_NOTATION.finditer(tex) if m.group().lstrip("\\") in _TEX_RELATIONS]
    for match in _TEX_NOTATION.finditer(tex):
        tex = _blank(tex, match.start(), match.end())
    for match in relations:  # a relation stays visible to the sign test as a '=' would
        tex = tex[: match.end() - 1] + "=" + tex[match.end() :]
    found += _numbers(tex, number, offset, in_math=True, display=display)
    return sorted(found, key=lambda n: n.column)


def _numbers(masked: str, number: int, offset: int, in_math: bool, display: bool = False) -> Iterator[TypedNumber]:
    """Typed numbers in text whose other parts are blanked; unsigned integers are not typed numbers."""
    for match in NUMBER.finditer(masked):
        start, body = match.start(), match.group("body")
        sign = match.group("sign") or ""
        before = masked[:start].rstrip() if in_math else masked[:start]
        if sign and before and _OPERAND_END.match(before[-1]):
            start, sign = start + 1, ""  # a binary minus (G - 1, R1-Zero), not a sign
        if not in_math and _glued_to_a_word(masked, start):
            continue  # part of a name: Qwen2.5, R1, Llama-3.1
        kind = _kind(body, sign, bool(match.group("percent")))
        if kind is None:
            continue
        value, places = _value(body, sign, bool(match.group("percent")))
        text = masked[start : match.end()]
        yield TypedNumber(number, offset + start + 1, text, kind, value, places, in_math, display)


def _glued_to_a_word(text: str, start: int) -> bool:
    before = text[max(0, start - 2) : start]
    return bool(re.search(r"[A-Za-z_]$|[A-Za-z][-.]$", before))


def _kind(body: str, sign: str, percent: bool) -> str | None:
    if re.search(r"[eE]", body):
        kind = SCIENTIFIC
    elif "/" in body:
        kind = "fraction"
    elif "." in body:
        kind = "decimal"
    elif percent:
        kind = "percentage"
    else:
        return "signed number" if sign else None
    return f"signed {kind}" if sign and kind != SCIENTIFIC else kind


def _value(body: str, sign: str, percent: bool) -> tuple[Fraction, int | None]:
    body = body.replace("−", "-")
    if re.search(r"[eE]", body):
        mantissa, exponent = re.split(r"[eE]", body)
        value, places = Fraction(mantissa) * Fraction(10) ** int(exponent), None
    elif "/" in body:
        numerator, denominator = body.split("/")
        value = Fraction(numerator) / Fraction(denominator) if Fraction(denominator) else Fraction(0)
        places = None
    else:
        value, places = Fraction(body), len(body.partition(".")[2])
    if percent:
        value, places = value / 100, (places or 0) + 2
    return (-value if sign in "-−" and sign else value), places


GUIDE = "docs/guide/drift-guard.md"
HOW_TO_MARK = (
    "A number that is meant to be typed is marked: cite it, 0.04[^source], or say why, "
    f"0.5<!-- literal: why -->; see {GUIDE}."
)


class DriftError(Exception):
    """A page with typed numbers: every one of them, each with file:line:column and what to write."""


def describe(found: TypedNumber) -> str:
    """What is wrong with one typed number, and the placeholder that computes it if there is one."""
    from hooks.computed_index import matches  # imported (and built) only when a page has a typed number

    what = f"typed number {found.text} ({found.kind})"
    computed = matches(found.value, found.places, found.in_math)
    if not computed:
        return f"{what}: no placeholder computes it; compute it (see {GUIDE}) or mark it as meant"
    best, others = computed[0], computed[1:]
    also = f" (it also matches {', '.join(_placeholder(c, found) for c in others[:2])})" if others else ""
    return f"{what} is {best.what}: write {_placeholder(best, found)}{also}"


def _placeholder(computed: Computed, found: TypedNumber) -> str:
    if computed.in_formula and found.display:
        return computed.placeholder.replace(" -->", " display -->")
    return computed.placeholder


def problems(markdown: str, page: str, first_line: int = 1) -> list[str]:
    """`page:line:column: message` for every unmarked typed number and every wrong marking."""
    numbers, stale = typed_numbers(markdown, first_line)
    located: list[tuple[int, int, str]] = [(n.line, n.column, describe(n)) for n in numbers]
    located += [(s.line, s.column, f"{s.text} {s.problem}") for s in stale]
    return [f"{page}:{line}:{column}: {message}" for line, column, message in sorted(located)]


def guard(markdown: str, page: str, first_line: int = 1) -> None:
    """DriftError listing every problem of the page, if it has any."""
    found = problems(markdown, page, first_line)
    if found:
        raise DriftError("\n".join([*found, HOW_TO_MARK]))
