"""Where a chapter's Markdown is prose, code or math: placeholders expand only in prose, and every
formula is found with its line so that a bad one can be reported where it stands.

Fences and inline math follow markdown-katex's own rules (its FENCE_RE, BLOCK_START_RE and
iter_inline_katex), so this scan sees exactly the formulas that markdown-katex will render.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from markdown_katex.extension import BLOCK_START_RE, FENCE_RE, InlineCodeItem, iter_inline_katex
from pymdownx.snippets import SnippetPreprocessor  # type: ignore[import-untyped]

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
    code: bool = False  # Markdown shows it as code: in a fence other than math, or a fence inside a
    # blockquote ("> ```"), or an indented code block. markdown-katex still reads the last two as prose.


@dataclass(frozen=True)
class Span:
    """A part of a prose line that is not prose: inline code or inline math (and, for hooks/engine/placeholders.py,
    where a placeholder cannot stand: a link's destination, an image's description, braces)."""

    start: int
    end: int
    is_math: bool


# What opens a container whose content is indented by four more spaces: a list item, an admonition (!!!, ???), a
# content tab (===), a definition (:), a footnote's text ([^id]:). Inside it, a paragraph after a blank line is
# indented by four, and code by eight.
_CONTAINER = re.compile(r"(?P<indent> *)(?:[-*+]|\d+[.)]|!!!|\?\?\?\+?|===|:|\[\^[^\]]+\]:)(?:\s|$)")
_QUOTE = re.compile(r"(?:\s{0,3}>)+ ?")


def lines(markdown: str, first_line: int = 1) -> Iterator[Line]:
    """Every line, marked with the fence it belongs to (the fence lines themselves included) and whether Markdown
    shows it as code.

    Fences follow markdown-katex (FENCE_RE), which decides what is math. Code is also a fence inside a
    blockquote and an indented code block, which Python-Markdown finds after a blank line, indented by four
    spaces more than the list item or admonition it sits in (Material's tab length): placeholders stay
    literal in both, as in any code.
    first_line is the number of the first line in the source file (front matter comes before it).
    """
    closing: str | None = None
    kind: str | None = None
    quoted_closing: str | None = None  # the closing line of a fence inside a blockquote, less its '>'
    container = 0  # the indent of the content of the innermost list item or admonition open, 0 if none
    blank_before, indented_code = True, False
    for number, text in enumerate(markdown.split("\n"), start=first_line):
        if closing is not None:
            yield Line(number, text, kind, code=kind == "code")
            if text.rstrip() == closing:
                closing, kind = None, None
            continue
        fence = FENCE_RE.match(text)
        if fence and not indented_code:
            closing = fence.group(1) + fence.group(2)
            kind = "math" if BLOCK_START_RE.match(text) else "code"
            yield Line(number, text, kind, code=kind == "code")
            blank_before = False
            continue
        quote = _QUOTE.match(text)
        unquoted = text[quote.end() :] if quote else text
        if quoted_closing is not None:
            yield Line(number, text, None, code=True)
            if not quote or unquoted.rstrip() == quoted_closing:
                quoted_closing = None
            continue
        if quote and (quoted := FENCE_RE.match(unquoted)):
            quoted_closing = quoted.group(1) + quoted.group(2)
            yield Line(number, text, None, code=True)
            continue
        if not text.strip():
            blank_before = True
            yield Line(number, text, None, code=indented_code)
            continue
        indent = len(text) - len(text.lstrip(" "))
        if indented_code and indent >= container + 4:
            yield Line(number, text, None, code=True)
            continue
        indented_code = False
        if blank_before and indent >= container + 4:
            indented_code = True
            yield Line(number, text, None, code=True)
            continue
        if blank_before and indent < container:
            container = indent - indent % 4  # the list or admonition ended: back to the container it sits in
        if item := _CONTAINER.match(text):
            container = len(item.group("indent")) + 4
        blank_before = False
        yield Line(number, text, None)


def blank(text: str, regions: Iterable[tuple[int, int]], fill: str = " ") -> str:
    """The text with each (start, end) region filled with `fill`, columns kept: one pass, however many regions."""
    characters = list(text)
    for start, end in regions:
        characters[start:end] = fill * (end - start)
    return "".join(characters)


def span_at(spans: list[Span], position: int) -> Span | None:
    """The span that holds position, or None; spans in order and apart, as code_spans gives them (a bisection:
    a line of thousands of spans and placeholders is read in n log n, not n squared)."""
    index = bisect.bisect_right(spans, position, key=lambda span: span.start) - 1
    return spans[index] if index >= 0 and position < spans[index].end else None


def code_spans(text: str) -> list[Span]:
    """The inline code and inline math ($`...`$) spans of one prose line."""
    if "`" not in text:  # both open with a backtick: most prose lines have none
        return []
    math = [Span(item.start, item.end, True) for item in inline_math(text)]
    # markdown-katex takes its formulas out first, so a backtick of a formula never opens or closes inline code
    # (in "`$$`x`$" the formula is $`x`$ and the first "`$" is left over, not code around "$$")
    unmathed = blank(text, ((m.start, m.end) for m in math), "\0")
    code = [
        Span(match.start(), match.end(), False)
        for match in _CODE_SPAN.finditer(unmathed)
        if span_at(math, match.start()) is None
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
            if span_at(spans, end.start()) is None:
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


@dataclass(frozen=True)
class Snippet:
    """A file a `--8<--` line asks pymdownx.snippets to paste into the page: the line, and the path as written
    (less its line ranges or section, `file.py:3:9`, `file.py:name`)."""

    line: int
    path: str


def snippets(markdown: str, first_line: int = 1) -> Iterator[Snippet]:
    """Every file the page's snippet lines name, found as pymdownx.snippets finds them (its own expressions): an
    inline `--8<-- "path"`, or one path per line between two `--8<--` lines; `;--8<--` is escaped. Snippets are
    read everywhere, fences included, before any other Markdown."""
    block = False
    for number, text in enumerate(markdown.split("\n"), start=first_line):
        marker = SnippetPreprocessor.RE_ALL_SNIPPETS.match(text)
        if marker and marker.group("escape"):
            continue
        if marker and marker.group("inline_marker"):
            if not block:
                yield Snippet(number, _snippet_file(marker.group("snippet")[1:-1].strip()))
        elif marker:
            block = not block
        elif block and text.strip():
            yield Snippet(number, _snippet_file(text.strip()))


def snippet_lines(markdown: str, first_line: int = 1) -> set[int]:
    """The lines pymdownx.snippets replaces (each `--8<--` marker, and the paths between two): not prose."""
    markers = {
        number
        for number, text in enumerate(markdown.split("\n"), start=first_line)
        if SnippetPreprocessor.RE_ALL_SNIPPETS.match(text)
    }
    return markers | {snippet.line for snippet in snippets(markdown, first_line)}


def _snippet_file(path: str) -> str:
    found = SnippetPreprocessor.RE_SNIPPET_FILE.match(path) if len(path) < 1000 else None  # long: no suffix read
    return found.group(1) if found else path
