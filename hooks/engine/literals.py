"""What counts as a typed number in a line of a chapter: in its prose, and in its TeX.

Prose is read with its code, comments, HTML tags, HTML entities, footnote references, link targets and
attribute lists blanked out (the columns stay where they were), then with what passes unmarked blanked
too: arXiv ids, versions, dates, references into a text (section 4.1), the number of an ordered list's
item and the 0/1 of a binary reward. What is left is scanned for decimals, fractions, signed numbers,
percentages and scientific notation. A sign counts only where it is one: −2.0 is signed, G-1 and
R1-Zero are not. TeX is read the same way, after its literal fractions (\\frac{4}{5}) and powers of ten
(10^{-4}), and with its notation blanked: comments, lengths (0.5em), signed indices (\\sigma^{-1}),
commands.

Unsigned integers (5, 1,200) and number words (five: the words numbers.count_words writes, in any case)
are found too, as COUNTS: they are typed numbers only where a count of the page's own subjects is that
number, which the drift guard decides (it knows the page's subjects; this module reads one line). An
integer is not one where it is part of a name (R1, Qwen2.5-Math-7B, GPT-4, top-5) or an ordinal
(4th). Inside TeX an integer is one only at the formula's top level (G = 8): not in a subscript or
a superscript (\\sigma^2, r_5), which are indices and powers, nor inside braces, which hold the
arguments of commands (\\frac{1}{G}, \\sqrt{2}, \\sum_{i=1}^{G}, \\text{...}): notation, not a count
the sentence states. Words are read in prose only: TeX writes counts in digits.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction
from itertools import count, takewhile

from hooks.engine import scan
from hooks.engine.numbers import count_words
from hooks.engine.scan import blank

# Prose that is not prose: placeholders and other comments, HTML tags, link targets, attribute lists.
_NOT_PROSE = re.compile(
    r"<!--.*?-->"  # an HTML comment, a placeholder included (a literal marking is found before this)
    r"|<code>.*?</code>"  # inline code written as HTML (to show $`...`$ without it being rendered)
    r"|<[A-Za-z/][^>]*>"  # an HTML tag and its attributes
    r"|&#?\w+;"  # an HTML entity, &#96;
    r"|\[\^[^\]\s]+\]"  # a footnote reference, [^4] (its name is not a number of the text)
    r"|\]\([^)\s]*(?=(?:\s+\"[^\"]*\")?\))"  # a link's or an image's target, ](url (its "title" is read)
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
    r"|^\s*(?:>\s*)*\d+[.)](?=\s)"  # the number of an ordered list's item, 2. or 2)
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
    r"|\d+(?:\.\d+)?[/⁄]\d+(?:\.\d+)?"  # 4/5, 4⁄5 (the fraction slash)
    r"|\d*\.\d+"  # 0.8, .5
    r"|\d{1,3}(?:,\d{3})+(?![\d.])"  # 1,200
    r"|\d+)"  # 4
    r"(?P<percent>[ \u00a0\u202f]?\\?%)?"  # 80%, 80 % (a space, or a no-break one, before the sign)
)
# The vulgar fractions of Unicode, ½ ⅘, each one number; and HTML's minus signs, read as the sign they show.
_VULGAR = re.compile("[¼½¾⅐-⅞]")
_MINUS_ENTITY = re.compile("&minus;|&#8722;|&#x2212;", re.IGNORECASE)
SCIENTIFIC = "scientific notation"
INTEGER = "integer"
WORD = "number word"
COUNTS = {INTEGER, WORD}  # kinds the drift guard reports only where they are a count of the page's subjects
# The words count_words writes (zero ... sixteen), up to the first count it writes in digits.
NUMBER_WORDS: dict[str, int] = {
    word: n for n, word in enumerate(takewhile(lambda word: not word.isdigit(), map(count_words, count())))
}
_WORD = re.compile(r"\b(?:" + "|".join(sorted(NUMBER_WORDS, key=len, reverse=True)) + r")\b", re.IGNORECASE)
# A subscript or superscript in TeX without braces: the script mark and one token (r_5, \sigma^2).
_SCRIPT = re.compile(r"[\^_]\s*(?:\\[A-Za-z]+|[^\s{])")
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


# A typed number's exponent is read up to this size: beyond it (1e400 and up, 1e-400 and down) no float the book
# computes can match, and 10**100000000 as an exact fraction would take minutes to compute.
MAX_EXPONENT = 400


def power_of_ten(exponent: str) -> Fraction:
    """10 to the exponent as written (digits, a sign), exact, with the exponent clamped to +-MAX_EXPONENT."""
    sign = -1 if exponent.lstrip().startswith(("-", "−")) else 1
    digits = exponent.strip().lstrip("+-−")
    size = MAX_EXPONENT if len(digits) > len(str(MAX_EXPONENT)) else min(int(digits), MAX_EXPONENT)
    return Fraction(10) ** (sign * size)


def in_prose(text: str, number: int, spans: list[scan.Span]) -> list[TypedNumber]:
    """The typed numbers of one prose line (its inline formulas included), given its code and math spans."""
    if not any(character.isdigit() for character in text) and not _WORD.search(text) and not _VULGAR.search(text):
        return []  # most lines: nothing to scan
    numbers: list[TypedNumber] = []
    for span in spans:
        if span.is_math:
            tex_start = span.start + len(re.match(r"\$`+", text[span.start :]).group())  # type: ignore[union-attr]
            tex = text[tex_start : span.end].rstrip("`$").ljust(span.end - tex_start)
            numbers += in_tex(tex, number, tex_start)
    signed = _MINUS_ENTITY.sub(lambda entity: " " * (len(entity.group()) - 1) + "−", text)  # &minus;2 is −2
    masked = blank(signed, ((span.start, span.end) for span in spans))
    masked = blank(masked, (r.span() for r in [*_NOT_PROSE.finditer(masked), *_ACCEPTED.finditer(masked)]))
    numbers += _numbers(masked, number, 0, in_math=False)
    numbers += _words(masked, number)
    numbers += [
        TypedNumber(
            number,
            m.start() + 1,
            m.group(),
            "fraction",
            Fraction(unicodedata.numeric(m.group())).limit_denominator(10),
            None,
            False,
        )
        for m in _VULGAR.finditer(masked)
    ]
    return sorted(numbers, key=lambda n: n.column)


def _words(masked: str, number: int) -> Iterator[TypedNumber]:
    """The number words of prose whose other parts are blanked: counts, as as=words writes them."""
    for match in _WORD.finditer(masked):
        value = Fraction(NUMBER_WORDS[match.group().lower()])
        yield TypedNumber(number, match.start() + 1, match.group(), WORD, value, None, in_math=False)


def in_tex(tex: str, number: int, offset: int = 0, display: bool = False) -> list[TypedNumber]:
    """The typed numbers of one line of TeX; columns are counted from `offset` in the source line."""
    found: list[TypedNumber] = []
    notation = _notation(tex)
    for match in _TEX_FRACTION.finditer(tex):
        num, den = match.group("num") or match.group("num1"), match.group("den") or match.group("den1")
        if Fraction(den) != 0:
            value = Fraction(num) / Fraction(den)
            found.append(
                TypedNumber(number, offset + match.start() + 1, match.group(), "fraction", value, None, True, display)
            )
    tex = blank(tex, (m.span() for m in _TEX_FRACTION.finditer(tex)))
    for match in _TEX_POWER_OF_TEN.finditer(tex):
        power = power_of_ten(match.group("exp") or match.group("exp1"))
        if match.group("mantissa") or power < 1:
            value = Fraction(match.group("mantissa") or 1) * power
            column = offset + match.start() + 1
            found.append(TypedNumber(number, column, match.group(), SCIENTIFIC, value, None, True, display))
    tex = blank(tex, (m.span() for m in _TEX_POWER_OF_TEN.finditer(tex)))
    relations = [m for m in _TEX_NOTATION.finditer(tex) if m.group().lstrip("\\") in _TEX_RELATIONS]
    tex = blank(tex, (m.span() for m in _TEX_NOTATION.finditer(tex)))
    for match in relations:  # a relation stays visible to the sign test as a '=' would
        tex = tex[: match.end() - 1] + "=" + tex[match.end() :]
    found += [
        n
        for n in _numbers(tex, number, offset, in_math=True, display=display)
        if n.kind != INTEGER or not any(start <= n.column - 1 - offset < end for start, end in notation)
    ]
    return sorted(found, key=lambda n: n.column)


def _notation(tex: str) -> list[tuple[int, int]]:
    """Where a line of TeX is notation for an integer: its unbraced scripts (r_5, \\sigma^2), and everything inside
    braces (an escaped brace, \\{, is a set's, not a group's)."""
    found = [(match.start(), match.end()) for match in _SCRIPT.finditer(tex)]
    depth, start = 0, 0
    for position, character in enumerate(tex):
        if character in "{}" and position > 0 and tex[position - 1] == "\\":
            continue
        if character == "{":
            depth, start = depth + 1, position if depth == 0 else start
        elif character == "}" and depth > 0:
            depth -= 1
            if depth == 0:
                found.append((start, position + 1))
    if depth > 0:
        found.append((start, len(tex)))  # a group the line leaves open (a display formula goes on)
    return found


def _numbers(masked: str, number: int, offset: int, in_math: bool, display: bool = False) -> Iterator[TypedNumber]:
    """Typed numbers in text whose other parts are blanked; unsigned integers as INTEGER, where they are not part
    of a name or an ordinal."""
    for match in NUMBER.finditer(masked):
        start, body = match.start(), match.group("body")
        sign = match.group("sign") or ""
        before = start  # the character before the number (in TeX, before the spaces): not masked[:start], which
        while in_math and before > 0 and masked[before - 1].isspace():  # would copy the line for every number
            before -= 1
        if sign and before > 0 and _OPERAND_END.match(masked[before - 1]):
            start, sign = start + 1, ""  # a binary minus (G - 1, R1-Zero), not a sign
        if not in_math and _glued_to_a_word(masked, start):
            continue  # part of a name: Qwen2.5, R1, Llama-3.1
        kind = _kind(body, sign, bool(match.group("percent")))
        if kind == INTEGER and not in_math and re.match(r"[A-Za-z]", masked[match.end() : match.end() + 1]):
            continue  # an ordinal or a name: 4th, 7B
        value, places = _value(body, sign, bool(match.group("percent")))
        text = masked[start : match.end()]
        yield TypedNumber(number, offset + start + 1, text, kind, value, places, in_math, display)


def _glued_to_a_word(text: str, start: int) -> bool:
    before = text[max(0, start - 2) : start]
    return bool(re.search(r"[A-Za-z_]$|[A-Za-z][-.]$", before))


def _kind(body: str, sign: str, percent: bool) -> str:
    if re.search(r"[eE]", body):
        kind = SCIENTIFIC
    elif "/" in body or "⁄" in body:
        kind = "fraction"
    elif "." in body:
        kind = "decimal"
    elif percent:
        kind = "percentage"
    else:
        return "signed number" if sign else INTEGER
    return f"signed {kind}" if sign and kind != SCIENTIFIC else kind


def _value(body: str, sign: str, percent: bool) -> tuple[Fraction, int | None]:
    body = body.replace("−", "-").replace(",", "").replace("⁄", "/")
    if re.search(r"[eE]", body):
        mantissa, exponent = re.split(r"[eE]", body)
        value, places = Fraction(mantissa) * power_of_ten(exponent), None
    elif "/" in body:
        numerator, denominator = body.split("/")
        value = Fraction(numerator) / Fraction(denominator) if Fraction(denominator) else Fraction(0)
        places = None
    else:
        value, places = Fraction(body), len(body.partition(".")[2])
    if percent:
        value, places = value / 100, (places or 0) + 2
    return (-value if sign in "-−" and sign else value), places
