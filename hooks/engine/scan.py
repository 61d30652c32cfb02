"""Where a chapter's Markdown is prose, code or math: placeholders expand only in prose, and every
formula is found with its line so that a bad one can be reported where it stands.

Fences and inline math follow markdown-katex's own rules (its FENCE_RE, BLOCK_START_RE and
iter_inline_katex), so this scan sees exactly the formulas that markdown-katex will render.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from markdown_katex.extension import BLOCK_START_RE, FENCE_RE, InlineCodeItem, iter_inline_katex

_CODE_SPAN = re.compile(r"(`+)(.+?)\1")


def inline_math(text: str) -> Iterator[InlineCodeItem]:
    r"""markdown-katex's iter_inline_katex, safe at the ends of the line.

    Its scan reads one character past a closing backtick (an IndexError, so a traceback in the build, for a
    line that ends in `$\`x\``) and one before an opening one (line[-1] at the start: the line's last
    character). A space appended past the end answers both reads with "not a $", and no formula can end on
    it, so every span found is the same as in the line itself. hooks/site/katex.py has markdown-katex use this.
    """
    return iter_inline_katex(text + " ")  # type: ignore[no-any-return]


@dataclass(frozen=True)
class Line:
    """One source line: its 1-based number, its text, and whether it sits in a fence (and which)."""

    number: int
    text: str
    fence: str | None  # None for prose, "math" inside a ```math block, "code" inside any other fence


@dataclass(frozen=True)
class Span:
    """A part of a prose line that is not prose: inline code or inline math."""

    start: int
    end: int
    is_math: bool


def lines(markdown: str, first_line: int = 1) -> Iterator[Line]:
    """Every line, marked with the fence it belongs to (the fence lines themselves included).

    first_line is the number of the first line in the source file (front matter comes before it).
    """
    closing: str | None = None
    kind: str | None = None
    for number, text in enumerate(markdown.split("\n"), start=first_line):
        if closing is not None:
            yield Line(number, text, kind)
            if text.rstrip() == closing:
                closing, kind = None, None
            continue
        fence = FENCE_RE.match(text)
        if fence:
            closing = fence.group(1) + fence.group(2)
            kind = "math" if BLOCK_START_RE.match(text) else "code"
            yield Line(number, text, kind)
            continue
        yield Line(number, text, None)


def code_spans(text: str) -> list[Span]:
    """The inline code and inline math ($`...`$) spans of one prose line."""
    math = [Span(item.start, item.end, True) for item in inline_math(text)]
    # markdown-katex takes its formulas out first, so a backtick of a formula never opens or closes inline code
    # (in "`$$`x`$" the formula is $`x`$ and the first "`$" is left over, not code around "$$")
    unmathed, end = "", 0
    for m in math:  # in order, apart
        unmathed, end = unmathed + text[end : m.start] + "\0" * (m.end - m.start), m.end
    unmathed += text[end:]
    code = [
        Span(match.start(), match.end(), False)
        for match in _CODE_SPAN.finditer(unmathed)
        if not any(m.start <= match.start() < m.end for m in math)
    ]
    return sorted(math + code, key=lambda span: span.start)


@dataclass(frozen=True)
class Formula:
    """One formula as markdown-katex will receive it."""

    line: int
    tex: str
    display: bool


def formulas(markdown: str) -> Iterator[Formula]:
    """Every inline ($`...`$) and display (```math) formula, with the line it starts on."""
    block: list[Line] = []
    for line in lines(markdown):
        if line.fence == "math":
            block.append(line)
            if len(block) > 1 and line.text.rstrip() == _closing_fence(block[0].text):
                yield Formula(block[0].number, block_tex([b.text for b in block]), display=True)
                block = []
        elif line.fence is None:
            for span in code_spans(line.text):
                if span.is_math:
                    yield Formula(line.number, inline_tex(line.text[span.start : span.end]), display=False)


@dataclass(frozen=True)
class Unclosed:
    """Something opened and never closed, which would reach the page as raw Markdown or TeX."""

    line: Line
    what: str


def unclosed(markdown: str) -> Unclosed | None:
    """The first fence (```math or any other) without its closing fence line, or the first $` or `$ in prose
    that is part of no inline formula. markdown-katex and Markdown would print either as it stands, TeX and
    all."""
    opened: Line | None = None
    for line in lines(markdown):
        if line.fence is not None:
            if opened is None:
                opened = line
            elif line.text.rstrip() == _closing_fence(opened.text):
                opened = None
            continue
        spans = code_spans(line.text)
        for end in re.finditer(r"\$`|`\$", line.text):
            if not any(span.start <= end.start() < span.end for span in spans):
                return Unclosed(line, "unclosed formula: write $`...`$, both ends on one line")
    if opened is not None:
        fence = _closing_fence(opened.text).strip()
        return Unclosed(opened, f"unclosed {opened.fence} block: end it with a line holding only {fence}")
    return None


def _closing_fence(opening: str) -> str:
    match = FENCE_RE.match(opening)
    assert match is not None
    return str(match.group(1) + match.group(2))


def block_tex(block_lines: list[str]) -> str:
    """The TeX of a ```math block given its lines, fences included (as markdown-katex strips it)."""
    indent = len(block_lines[0]) - len(block_lines[0].lstrip())
    body = [line[indent:] for line in block_lines[1:-1]]
    return "\n".join(body).strip()


def inline_tex(source: str) -> str:
    """The TeX inside $`...`$ or $``...``$."""
    tex: str = re.sub(r"^\$`+|`+\$$", "", source)
    return tex
