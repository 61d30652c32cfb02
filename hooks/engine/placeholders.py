"""The placeholders a chapter writes, and their expansion into Markdown.

    <!-- grpo:value easy.advantage.wrong -->            a number in a sentence: −2.0
    <!-- grpo:value easy.count.correct as=words -->     the same, in words: four
    <!-- grpo:formula easy.advantage.wrong display -->  the formula that computes it, filled in (displayed)
    <!-- grpo:block worked-example easy -->             a whole block, on a line of its own
    <!-- grpo:widget group easy hard -->                an interactive figure, on a line of its own
    <!-- grpo:check easy.claims.wrong-is-rare -->       nothing; the build fails if the claim is false

A path names a value in a model (hooks/engine/tree.py). One regular expression finds the placeholders, a
dispatch on the kind calls one small function each, and anything unknown is an error that says what there is.
HTML comments collide with neither TeX braces nor Markdown, and a page viewed raw hides them. They expand in
prose only: inside code they stay as written, so a page can document them; inside math they are an error.
Nothing on a page is ever evaluated: names are looked up.
"""

from __future__ import annotations

import dataclasses
import inspect
import re
import typing
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from grpo_examples import DataError, Undefined
from hooks.engine import guide, scan
from hooks.engine.book import Book, formula, formula_paths
from hooks.engine.contract import LayoutError
from hooks.engine.markdown import as_markdown, escape_html, note
from hooks.engine.numbers import MAX_DECIMALS, count_words, decimal, times_words
from hooks.engine.tree import Found, PathError, describe, names_of, resolve, suggest, walk
from hooks.engine.widget import figure

MARKER = re.compile(r"<!--\s*grpo:(?P<body>.*?)-->")
# Any comment that starts like a placeholder is one: <!-- GRPO:..., <!-- grpoo:... are slips to report, not
# comments to keep (a misspelt placeholder would otherwise vanish from the page without a word).
OPENING = re.compile(r"<!--\s*grpo", re.IGNORECASE)


# Every other comment of the prose, for near misses: <!-- gpro:value easy.mean --> would otherwise vanish from the
# page, taking its number with it, while the build passes.
COMMENT = re.compile(r"<!--(?P<body>.*?)(?:-->|$)")
COMMENT_HEAD = re.compile(r"\s*(?P<head>[^\s:]*)\s*:?\s*(?P<rest>.*)", re.DOTALL)
OTHER_MARKERS = {"literal"}  # the drift guard's: <!-- literal: why -->


class PlaceholderError(Exception):
    """A placeholder that cannot be expanded: the message says why and what to write instead; or the data file
    behind it has problems (data), which are reported at their own lines."""

    def __init__(self, message: str, data: DataError | None = None) -> None:
        super().__init__(message)
        self.data = data


@dataclass(frozen=True)
class Placeholder:
    """One parsed marker: its kind, its positional arguments and its key=value options."""

    kind: str
    args: tuple[str, ...]
    options: dict[str, str]
    text: str


@dataclass
class Expansion:
    """What one placeholder wrote, and the subjects (groups, chapters) its numbers came from."""

    markdown: str
    used: set[str] = field(default_factory=set)
    read: set[str] = field(default_factory=set)  # models read beyond `used` (a guide's block walks a whole model)


def parse(text: str) -> Placeholder:
    """`<!-- grpo:kind arg ... key=value -->` into its parts."""
    match = MARKER.fullmatch(text)
    if match is None:
        lower = " (grpo in lower case)" if MARKER.fullmatch(re.sub("grpo", "grpo", text, flags=re.IGNORECASE)) else ""
        raise PlaceholderError(f"malformed placeholder: write <!-- grpo:kind arguments -->{lower}")
    words = match.group("body").split()
    if not words:
        raise PlaceholderError("empty placeholder: name a kind after 'grpo:' (" + ", ".join(KINDS) + ")")
    kind, rest = words[0], words[1:]
    options = dict(word.split("=", 1) for word in rest if "=" in word)
    args = tuple(word for word in rest if "=" not in word)
    return Placeholder(kind, args, options, text)


USAGE = {
    "value": "<!-- grpo:value easy.mean --> or <!-- grpo:value easy.count.correct as=words -->",
    "formula": "<!-- grpo:formula easy.mean --> or <!-- grpo:formula easy.mean display -->",
    "check": "<!-- grpo:check easy.claims.wrong-is-rare -->",
}


def _only(placeholder: Placeholder, args: int, options: set[str]) -> None:
    if len(placeholder.args) != args:
        got = " ".join(placeholder.args) or "nothing"
        usage = f"; write {USAGE[placeholder.kind]}" if placeholder.kind in USAGE else ""
        raise PlaceholderError(
            f"grpo:{placeholder.kind} takes {args} path(s), got {len(placeholder.args)}: {got!r}{usage}"
        )
    extra = set(placeholder.options) - options
    if extra:
        known = ", ".join(sorted(options)) or "none"
        raise PlaceholderError(f"grpo:{placeholder.kind} has no option {sorted(extra)[0]!r} (options: {known})")


def _find(book: Book, path: str) -> Found:
    try:
        return resolve(book.subjects, path)
    except PathError as error:
        raise PlaceholderError(str(error)) from None
    except DataError as error:  # the data file behind the path has problems: reported there, once
        raise PlaceholderError(f"{path}: {error}", error) from None
    except LookupError as error:  # a chapter's group is gone from groups.toml (str() of a KeyError quotes it)
        raise PlaceholderError(f"{path}: {error.args[0] if error.args else error}") from None
    except ValueError as error:  # grpo_examples refuses its data: a data file that does not fit its schema
        raise PlaceholderError(f"{path}: {error}") from None


def _not_a_number(found: Found) -> PlaceholderError | None:
    value = found.value
    if isinstance(value, Undefined):
        return PlaceholderError(f"{found.path} is not defined here: {value.reason}")
    if isinstance(value, bool):
        return PlaceholderError(f"{found.path} is a claim (true or false): write <!-- grpo:check {found.path} -->")
    if dataclasses.is_dataclass(value):
        names = ", ".join(name.replace("_", "-") for name in names_of(value))
        return PlaceholderError(f"{found.path} is a {type(value).__name__}: name one of its fields ({names})")
    if isinstance(value, Mapping):
        keys = ", ".join(map(str, value))
        return PlaceholderError(f"{found.path} holds several values: name one ({keys})")
    if not isinstance(value, str | int | float | Fraction):
        return PlaceholderError(f"{found.path} is a {type(value).__name__}, not a number or a text a sentence can hold")
    return None


def shown(found: Found, style: str | None) -> str:
    """The value as a sentence holds it: formatted as its declared type says, or in words."""
    problem = _not_a_number(found)
    if problem is not None:
        raise problem
    value = found.value
    if style not in (None, "words"):
        raise PlaceholderError(f"unknown format as={style!r}: write as=words, or nothing for digits")
    if isinstance(value, str):
        return as_markdown(value)
    assert isinstance(value, int | float | Fraction)
    if style == "words":
        if isinstance(value, int):
            return count_words(value)
        if found.meaning.ratio:
            return times_words(value)
        raise PlaceholderError(
            f"as=words writes a count in words (five) and a ratio as '… times' (4.2 times); {found.path} is "
            f"neither, so its words would say what it is not: write it without as=words"
        )
    if isinstance(value, int):
        return str(value)
    return decimal(value, found.meaning.places or MAX_DECIMALS).prose(signed=found.meaning.signed)


def value(book: Book, placeholder: Placeholder, line: str) -> Expansion:
    """A formatted number (or text) inside a sentence, with the expression behind it as its title (which the
    site turns into a popover a tap opens: hooks/site/provenance.py)."""
    _only(placeholder, 1, {"as"})
    found = _find(book, placeholder.args[0])
    text = shown(found, placeholder.options.get("as"))
    title = escape_html(f"Computed at build time: {found.expression}")
    return Expansion(f'<span class="grpo-value" title="{title}">{text}</span>', {found.subject.name})


def formula_(book: Book, placeholder: Placeholder, line: str) -> Expansion:
    """The formula that computes a value, filled in with its numbers: inline, or displayed with `display`."""
    display = "display" in placeholder.args
    args = tuple(a for a in placeholder.args if a != "display")
    _only(dataclasses.replace(placeholder, args=args), 1, set())
    found = _find(book, args[0])
    if isinstance(found.value, Undefined):
        raise PlaceholderError(f"{found.path} is not defined here: {found.value.reason}")
    try:
        tex = formula(book, found)
    except LayoutError as error:
        raise PlaceholderError(f"{found.path}: {error}") from None
    if tex is None:
        if dataclasses.is_dataclass(found.value):  # a model: its own fields' formulas
            owner, paths = found.path, formula_paths(book, found.value, found.path)
        else:
            owner = found.path.rsplit(".", 1 + len(found.keys))[0]
            paths = formula_paths(book, found.owner, owner)
        there = f"the formulas there are: {', '.join(paths)}" if paths else f"{owner} has none"
        raise PlaceholderError(f"no formula computes {found.path}; {there}")
    if display:
        _alone(placeholder, line)
        return Expansion(f"```math\n{tex}\n```", {found.subject.name})
    return Expansion(f"$`{tex}`$", {found.subject.name})


def _example_paths(book: Book, kind: type) -> list[str]:
    """Paths that name a node of this type (a subject, or a field of one), to show in a message."""
    found = []
    for name, start in book.subjects.items():
        try:
            node = start.call()
        except ValueError:  # a data file with problems: reported at its own lines
            continue
        if isinstance(node, kind):
            found.append(name)
        elif dataclasses.is_dataclass(node):
            found += [f"{name}.{a.replace('_', '-')}" for a in names_of(node) if isinstance(getattr(node, a), kind)]
    return found


def _usage(book: Book, what: str, name: str, kinds: list[type]) -> str:
    """The placeholder written right: as many paths as kinds, each to a node of its kind, different ones."""
    paths: list[str] = []
    for kind in kinds:
        candidates = _example_paths(book, kind)
        paths.append(
            next((p for p in candidates if p not in paths), candidates[0] if candidates else f"<{kind.__name__}>")
        )
    return " ".join([f"<!-- grpo:{what}", name, *paths, "-->"])


def _call(
    book: Book, what: str, name: str, layout: Callable[..., Any], paths: tuple[str, ...]
) -> tuple[Any, list[Found]]:
    """layout(*the nodes the paths name), once their number and types are those of its signature."""
    hints = typing.get_type_hints(layout)
    parameters = inspect.signature(layout).parameters.values()
    fixed = [hints[p.name] for p in parameters if p.kind is inspect.Parameter.POSITIONAL_OR_KEYWORD]
    more = [hints[p.name] for p in parameters if p.kind is inspect.Parameter.VAR_POSITIONAL]
    if len(paths) < len(fixed) or (not more and len(paths) > len(fixed)):
        kinds = fixed + more
        count = f"{len(fixed)} or more" if more else str(len(fixed))
        names = " and ".join(sorted({k.__name__ for k in kinds}))
        plural = "" if count == "1" else "s"
        draws = f"{count} {names}{plural}" if kinds else "nothing from a path"
        usage = _usage(book, what, name, fixed + (more if not fixed else []))
        raise PlaceholderError(f"{what} {name!r} draws {draws}, got {len(paths)} path(s): write {usage}")
    found = [_find(book, path) for path in paths]
    for index, item in enumerate(found):
        kind = fixed[index] if index < len(fixed) else more[0]
        if not isinstance(item.value, kind):
            usage = _usage(book, what, name, [fixed[i] if i < len(fixed) else more[0] for i in range(len(paths))])
            got = type(item.value).__name__
            raise PlaceholderError(
                f"{what} {name!r} draws a {kind.__name__}, and {item.path} is a {got}: write {usage}"
            )
    try:
        return layout(*(item.value for item in found)), found
    except LayoutError as error:
        raise PlaceholderError(f"{what} {name!r}: {error}") from None


def _provenance(found: list[Found]) -> str:
    expressions = list(dict.fromkeys(item.expression for item in found))
    sources = list(dict.fromkeys(item.subject.data for item in found))
    return note(expressions, sources)


def block(book: Book, placeholder: Placeholder, line: str) -> Expansion:
    """A whole computed block (worked steps, a table, a plot) drawn from the nodes its paths name."""
    _alone(placeholder, line)
    _only(dataclasses.replace(placeholder, args=placeholder.args[1:]), len(placeholder.args[1:]), set())
    if not placeholder.args:
        raise PlaceholderError("grpo:block needs a block name: " + ", ".join([*book.blocks, *guide.BLOCKS]))
    name, *paths = placeholder.args
    if name in guide.BLOCKS:
        try:
            # it reads the subjects its paths name (`names ppo`), or, naming none, every one (the drift guard's example)
            read = {path.split(".")[0] for path in paths} if paths else set(book.subjects)
            return Expansion(as_markdown(guide.BLOCKS[name](book, *paths)), read=read)
        except guide.GuideError as error:
            raise PlaceholderError(str(error)) from None
        except DataError as error:  # a guide block walks models: a data file with problems is reported there
            raise PlaceholderError(f"{name}: {error}", error) from None
        except (LookupError, ValueError) as error:  # a model its data cannot build (a group it reads is gone)
            raise PlaceholderError(f"{name} {' '.join(paths)}: {error.args[0] if error.args else error}") from None
    if name not in book.blocks:
        known = [*book.blocks, *guide.BLOCKS]
        raise PlaceholderError(f"unknown block {name!r}{suggest(name, known)} (blocks: {', '.join(known)})")
    markdown, found = _call(book, "block", name, book.blocks[name], tuple(paths))
    # the boundary: what a layout hands back unmarked is shown as text
    return Expansion(f"{as_markdown(markdown)}\n\n{_provenance(found)}", {item.subject.name for item in found})


def widget(book: Book, placeholder: Placeholder, line: str) -> Expansion:
    """An interactive figure drawn from the nodes its paths name (hooks/engine/widget.py writes the figure)."""
    _alone(placeholder, line)
    _only(dataclasses.replace(placeholder, args=placeholder.args[1:]), len(placeholder.args[1:]), set())
    if not placeholder.args:
        raise PlaceholderError("grpo:widget needs a widget name: " + ", ".join(book.widgets))
    name, *paths = placeholder.args
    if name not in book.widgets:
        raise PlaceholderError(
            f"unknown widget {name!r}{suggest(name, list(book.widgets))} (widgets: {', '.join(book.widgets)})"
        )
    drawn, found = _call(book, "widget", name, book.widgets[name], tuple(paths))
    return Expansion(figure(drawn, _provenance(found)), {item.subject.name for item in found})


def check(book: Book, placeholder: Placeholder, line: str) -> Expansion:
    """Nothing on the page; the build fails if the prose's claim is false in the model."""
    _only(placeholder, 1, set())
    found = _find(book, placeholder.args[0])
    if isinstance(found.value, Undefined):
        raise PlaceholderError(f"{found.path} is not defined here: {found.value.reason}")
    if not isinstance(found.value, bool):
        claims = [named.path for named in walk(found.subject) if named.value is True]
        under = [path for path in claims if ".claims." in path]  # a claim the prose makes, and that holds
        such = f", such as {(under or claims)[0]}" if claims else ""
        raise PlaceholderError(f"{found.path} is not a claim (true or false): grpo:check takes a claim{such}")
    if not found.value:
        said = describe(found.owner, found.field)
        what = f" ({said.rstrip('.')})" if said else ""
        raise PlaceholderError(
            f"the prose claims {found.path}{what}, but the model says otherwise: rewrite the sentence, or the data "
            f"({found.subject.data})"
        )
    return Expansion("", {found.subject.name})


def _alone(placeholder: Placeholder, line: str) -> None:
    if line.strip() != placeholder.text:
        raise PlaceholderError(f"grpo:{placeholder.kind} makes a block: put it on a line of its own")


KINDS: dict[str, Callable[[Book, Placeholder, str], Expansion]] = {
    "value": value,
    "formula": formula_,
    "block": block,
    "widget": widget,
    "check": check,
}


@dataclass(frozen=True)
class Problem:
    """A placeholder or a formula of a page that stops the build: the line, what is wrong, the offending text."""

    line: int
    message: str
    offending: str
    data: DataError | None = None  # the data file's problems behind it, when that is what went wrong


@dataclass(frozen=True)
class Expanded:
    """The page's Markdown with every placeholder expanded, for each output line the source line, every
    problem found on the way, and the subjects the page's numbers came from."""

    markdown: str
    source_lines: list[int]
    problems: list[Problem]
    used: frozenset[str]
    read: frozenset[str]  # every subject whose model the page's text was drawn from: `used` and more


def _edits(a: str, b: str) -> int:
    """How many letters to insert, delete, change or swap with the next to turn a into b."""
    previous, current = None, list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        before, previous, current = previous, current, [i] + [0] * len(b)
        for j, y in enumerate(b, 1):
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (x != y))
            if before is not None and i > 1 and j > 1 and x == b[j - 2] and a[i - 2] == y:
                current[j] = min(current[j], before[j - 2] + 1)
    return current[-1]


def near_miss(book: Book, comment: str) -> str | None:
    """What a comment that is close to a placeholder should be written as, or None for an ordinary comment.

    Close: its first word is within two edits of 'grpo' and a kind follows; or its first word is a kind; or it
    names a path into a group or chapter of the book (easy.mean, ppo.cases)."""
    match = COMMENT.fullmatch(comment)
    parts = COMMENT_HEAD.fullmatch(match.group("body") if match else comment)
    assert parts is not None  # every text fits COMMENT_HEAD: each of its parts may be empty
    head, rest = parts.group("head"), parts.group("rest").split()
    if head.lower() in OTHER_MARKERS:
        return None
    kind_of = {word: close for word in [head, *rest[:1]] for close in _kinds_close_to(word)}
    path = next((w for w in [head, *rest] if w.split(".")[0] in book.subjects and "." in w), None)
    names = {*book.subjects, *book.blocks, *book.widgets}
    grpo_like = 1 <= _edits(head.lower(), "grpo") <= 2 and len(head) >= 3
    if grpo_like and rest and rest[0] in kind_of:
        kind, arguments = kind_of[rest[0]], rest[1:]
    elif head in kind_of and rest and (rest[0] in names or rest[0].split(".")[0] in book.subjects):
        kind, arguments = kind_of[head], rest  # a kind, then what it names: 'value easy.mean'
    elif path is not None:
        kind, arguments = "value", [path]
    else:
        return None
    return " ".join(["<!-- grpo:" + kind, *arguments, "-->"])


def _kinds_close_to(word: str) -> list[str]:
    """The placeholder kind a word is, or is one or two edits from (value for 'valeu', 'Value', 'value:')."""
    word = word.lower().rstrip(":")
    return [kind for kind in KINDS if _edits(word, kind) <= (0 if len(word) < 4 else 2)][:1]


def _near_misses(book: Book, line: scan.Line, spans: list[scan.Span], problems: list[Problem]) -> None:
    """A problem for each comment of the line, outside code, that is close to a placeholder."""
    for comment in COMMENT.finditer(line.text):
        if OPENING.match(comment.group()) or scan.span_at(spans, comment.start()) is not None:
            continue  # a placeholder (checked as one), or code that shows a comment
        written = near_miss(book, comment.group())
        if written is not None:
            problems.append(
                Problem(
                    line.number,
                    f"this comment looks like a placeholder written wrong, which would leave nothing on the page: "
                    f"write {written}, or reword the comment so that it neither starts like one nor names a path",
                    comment.group(),
                )
            )


# Markup a placeholder cannot stand in: what it expands to (a <span> with attributes of its own) would end the tag
# or the link and eat the words after it. An HTML tag not closed before the placeholder (`<span title="`), a
# link's destination and title (`](https://... "title")`), a link reference definition (`[id]: url "title"`), and
# an image's description (`![alt](plot.svg)`) or an abbreviation's definition (`*[GRPO]: words`, all of the line
# after it), which Markdown writes into an attribute as text, tags and all; and braces, which attr_list reads as an
# element's attributes (`{: title="..." }`) and writes into its tag as they are.
_TAG_START = re.compile(r"<[A-Za-z][^<>]*")
_LINK_DESTINATION = re.compile(r"\]\((?:[^()]|\([^()]*\))*\)?")
_REFERENCE = re.compile(r" {0,3}\[(?!\^)[^\]]+\]:")  # not [^note]: a footnote, whose text is prose
_IMAGE_DESCRIPTION = re.compile(r"!\[([^\]]*)\]")
_BRACES = re.compile(r"\{[^{}\n]*\}")
_ABBREVIATION = re.compile(r"\s*\*\[[^\\]*?\] ?:")  # Python-Markdown's abbr extension, indented or not
_IN_A_TAG = (
    "a placeholder inside an HTML tag (an attribute's value) would break the tag: put the number in the element's "
    "text, not in its attributes"
)
_IN_A_LINK = (
    "a placeholder inside a link's address or title would break the link: put it in the link's text or beside the link"
)
_IN_AN_IMAGE = (
    "a placeholder in an image's description (its alt text) would be read out as markup: describe the image in "
    "words, and give the number in the text beside it"
)
_IN_BRACES = (
    "a placeholder inside braces would land in an attribute list (`{: title=... }`) and break the element's tag: "
    "put the number in the text"
)
_IN_AN_ABBREVIATION = (
    "a placeholder in an abbreviation's definition would show as markup in its tooltip: define the abbreviation in "
    "words, and give the number in the text"
)


class _Markup:
    """Where on one line (its code spans blanked) a placeholder would land inside a tag or a link: found once
    per line, looked up per placeholder, so that a line of thousands of placeholders is read in linear time."""

    def __init__(self, text: str, spans: list[scan.Span]) -> None:
        line = scan.blank(text, ((span.start, span.end) for span in spans), "\0")
        self.reference = _REFERENCE.match(line) is not None
        self.abbreviation = _ABBREVIATION.match(line) is not None
        self.braces = [scan.Span(m.start(), m.end(), False) for m in _BRACES.finditer(line)]
        self.open_tags = {m.end() for m in _TAG_START.finditer(line) if not line.startswith(">", m.end())}
        # in order and apart; a placeholder right at a destination's end is in it too (one left open runs on)
        self.destinations = [scan.Span(m.start() + 2, m.end() + 1, False) for m in _LINK_DESTINATION.finditer(line)]
        self.images = [scan.Span(m.start(1), m.end(1), False) for m in _IMAGE_DESCRIPTION.finditer(line)]

    def problem(self, start: int) -> str | None:
        if start in self.open_tags:
            return _IN_A_TAG
        if self.reference or scan.span_at(self.destinations, start) is not None:
            return _IN_A_LINK
        if scan.span_at(self.images, start) is not None:
            return _IN_AN_IMAGE
        if self.abbreviation:
            return _IN_AN_ABBREVIATION
        if scan.span_at(self.braces, start) is not None:
            return _IN_BRACES
        return None


def _expand_line(book: Book, line: scan.Line, problems: list[Problem], used: set[str], read: set[str]) -> str:
    if line.code:  # a fence, a fence in a blockquote, an indented code block: shown as written
        return line.text
    text, out, pos = line.text, [], 0
    spans = [] if line.fence == "math" else scan.code_spans(text)
    markup = _Markup(text, spans)
    if line.fence != "math":
        _near_misses(book, line, spans, problems)
    for opening in OPENING.finditer(text):
        start = opening.start()
        if start < pos:
            continue
        inside = scan.span_at(spans, start)
        end = text.find("-->", start)
        offending = text[start : end + 3] if end >= 0 else text[start:]
        if inside is not None and not inside.is_math:
            continue  # in inline code: shown as written
        if line.fence == "math" or inside is not None:
            problems.append(
                Problem(line.number, "placeholders do not expand inside math; use <!-- grpo:formula ... -->", offending)
            )
            break
        if end < 0:
            problems.append(Problem(line.number, "unclosed placeholder: it needs '-->' on the same line", offending))
            break
        if (where := markup.problem(start)) is not None:
            problems.append(Problem(line.number, where, offending))
            continue
        out.append(text[pos:start])
        pos = end + 3
        try:
            placeholder = parse(offending)
            if placeholder.kind not in KINDS:
                raise PlaceholderError(
                    f"unknown placeholder kind {placeholder.kind!r}{suggest(placeholder.kind, list(KINDS))} "
                    f"(kinds: {', '.join(KINDS)})"
                )
            expansion = KINDS[placeholder.kind](book, placeholder, text)
        except PlaceholderError as error:
            problems.append(Problem(line.number, str(error), offending, error.data))
            continue
        out.append(expansion.markdown)
        used |= expansion.used
        read |= expansion.used | expansion.read
    out.append(text[pos:])
    expanded = "".join(out)
    if expanded != text and "\n" in expanded:
        indent = text[: len(text) - len(text.lstrip())]
        expanded = "\n".join(indent + part if part else part for part in expanded.lstrip().split("\n"))
    return expanded


def expand(book: Book, markdown: str, first_line: int = 1) -> Expanded:
    """Every placeholder of the page replaced by what it computes, and every problem on the way.

    first_line is the source line the Markdown starts on (MkDocs strips the front matter first).
    """
    out: list[str] = []
    source_lines: list[int] = []
    problems: list[Problem] = []
    used: set[str] = set()
    read: set[str] = set()
    for line in scan.lines(markdown, first_line):
        for part in _expand_line(book, line, problems, used, read).split("\n"):
            out.append(part)
            source_lines.append(line.number)
    return Expanded("\n".join(out), source_lines, problems, frozenset(used), frozenset(read))
