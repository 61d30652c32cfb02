"""The placeholders a chapter writes, and their expansion into Markdown.

    <!-- grpo:value easy.advantage.wrong -->          a number in a sentence: −2.0
    <!-- grpo:value easy.count.correct as=words -->   the same, in words: four
    <!-- grpo:formula easy.advantage.wrong -->        a formula filled in with the numbers (inline)
    <!-- grpo:formula easy.mean display -->           the same, as a displayed equation
    <!-- grpo:block worked-example easy -->           a whole block, on a line of its own
    <!-- grpo:check easy wrong-is-rare -->            nothing, but the build fails if the claim is false
    <!-- grpo:value run.steps -->                     a value of a chapter's namespace (hooks/namespaces.py)

HTML comments collide with neither TeX braces nor Markdown, and a page viewed raw (on GitHub, say)
hides them. They expand in prose only: inside code they stay as written, so a page can document
them; inside math they are an error. Names are looked up in registries; nothing is evaluated.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import TypeVar

import grpo_examples as gx
from hooks import scan
from hooks.blocks import BlockError
from hooks.formulas import FormulaError
from hooks.markdown_text import escape_attribute, escape_markdown
from hooks.namespaces import Namespace
from hooks.numbers import count_words, decimal, times_words
from hooks.quantities import Quantity, QuantityError
from hooks.registry import BLOCKS, FORMULAS, NAMESPACES, QUANTITIES
from hooks.widget import Widget, widget

T = TypeVar("T")

MARKER = re.compile(r"<!--\s*grpo:(?P<body>.*?)-->")
# Any comment that starts like a placeholder is one: <!-- GRPO:..., <!-- grpoo:... are slips to report, not
# comments to keep (a misspelt placeholder would otherwise vanish from the page without a word).
OPENING = re.compile(r"<!--\s*grpo", re.IGNORECASE)


class PlaceholderError(Exception):
    """A placeholder that cannot be expanded: the message says why and what to write instead."""


@dataclass(frozen=True)
class Placeholder:
    """One parsed marker: its kind, its positional arguments and its key=value options."""

    kind: str
    args: tuple[str, ...]
    options: dict[str, str]
    text: str


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


def _suggest(name: str, known: Iterable[str]) -> str:
    close = difflib.get_close_matches(name, list(known), n=1)
    return f"; did you mean {close[0]!r}?" if close else ""


def _unknown(what: str, name: str, known: Iterable[str], defined_in: str = "") -> PlaceholderError:
    known = list(known)
    where = f"; add one in {defined_in}" if defined_in else ""
    return PlaceholderError(f"unknown {what} {name!r}{_suggest(name, known)} (known: {', '.join(known)}{where})")


def _example(name: str) -> gx.Example:
    examples = gx.load_examples()
    if name not in examples:
        raise _unknown("example", name, examples, "grpo_examples/examples.toml")
    return examples[name]


def _namespace(name: str) -> Namespace | None:
    """The chapter namespace called name, or None if name is an example's."""
    if name not in NAMESPACES:
        return None
    if name in gx.load_examples():
        raise PlaceholderError(f"the example [{name}] in grpo_examples/examples.toml hides the namespace {name!r}")
    return NAMESPACES[name]


def _subject(name: str) -> gx.Example | Namespace:
    """What the first word of a name is: a chapter namespace, else an example (with 'did you mean')."""
    namespace = _namespace(name)
    if namespace is not None:
        return namespace
    examples = gx.load_examples()
    if name not in examples:
        raise PlaceholderError(
            f"unknown example {name!r}{_suggest(name, [*examples, *NAMESPACES])} (examples: {', '.join(examples)}; "
            f"chapter namespaces: {', '.join(NAMESPACES)}; add an example in grpo_examples/examples.toml)"
        )
    return examples[name]


def _split_name(name: str, what: str) -> tuple[gx.Example | Namespace, str]:
    """'easy.mean' into the example easy and 'mean'; 'run.steps' into the namespace run and 'steps'."""
    head, _, item = name.partition(".")
    if not item:
        raise PlaceholderError(f"write the {what} as <example>.<{what}>, e.g. easy.mean; got {name!r}")
    return _subject(head), item


def _entry(registry: Mapping[str, T], item: str, what: str, defined_in: str = "") -> T:
    """registry[item], or an error that lists the names there are and suggests the closest."""
    if item not in registry:
        raise _unknown(what, item, registry, defined_in)
    return registry[item]


USAGE = {
    "value": "<!-- grpo:value easy.mean --> or <!-- grpo:value easy.count.correct as=words -->",
    "formula": "<!-- grpo:formula easy.mean --> or <!-- grpo:formula easy.mean display -->",
    "check": "<!-- grpo:check easy wrong-is-rare -->",
}


def _only(placeholder: Placeholder, args: int, options: set[str]) -> None:
    if len(placeholder.args) != args:
        got = " ".join(placeholder.args) or "nothing"
        usage = f"; write {USAGE[placeholder.kind]}" if placeholder.kind in USAGE else ""
        raise PlaceholderError(
            f"grpo:{placeholder.kind} takes {args} name(s), got {len(placeholder.args)}: {got!r}{usage}"
        )
    extra = set(placeholder.options) - options
    if extra:
        known = ", ".join(sorted(options)) or "none"
        raise PlaceholderError(f"grpo:{placeholder.kind} has no option {sorted(extra)[0]!r} (options: {known})")


def _format(quantity: Quantity, style: str | None) -> str:
    value = quantity.value
    if isinstance(value, str):
        return escape_markdown(value)
    if style == "words":
        if isinstance(value, int):
            return count_words(value)
        return times_words(value)
    if style is not None:
        raise PlaceholderError(f"unknown format as={style!r}: write as=words, or nothing for digits")
    if isinstance(value, int):
        return str(value)
    return decimal(value, quantity.places).prose(signed=quantity.signed)


def value(placeholder: Placeholder, line: str) -> str:
    """A formatted number (or text) inside a sentence, with the call behind it as a tooltip."""
    _only(placeholder, 1, {"as"})
    subject, name = _split_name(placeholder.args[0], "quantity")
    try:
        if isinstance(subject, Namespace):
            quantity = _entry(subject.values, name, f"{subject.name} value", subject.defined_in)()
        else:
            quantity = _entry(QUANTITIES, name, "quantity")(subject)
        shown = _format(quantity, placeholder.options.get("as"))
    except (QuantityError, ValueError) as error:  # ValueError: grpo_examples refuses this group (say, G = 1)
        raise PlaceholderError(str(error)) from None
    return (
        f'<span class="grpo-value" title="Computed at build time: {escape_attribute(quantity.source)}">{shown}</span>'
    )


def formula(placeholder: Placeholder, line: str) -> str:
    """A formula filled in with one group's numbers: inline, or displayed with `display`."""
    display = "display" in placeholder.args
    args = [a for a in placeholder.args if a != "display"]
    _only(Placeholder(placeholder.kind, tuple(args), placeholder.options, placeholder.text), 1, set())
    subject, name = _split_name(args[0], "formula")
    try:
        if isinstance(subject, Namespace):
            tex = _entry(subject.formulas, name, f"{subject.name} formula", subject.defined_in)()
        else:
            tex = _entry(FORMULAS, name, "formula")(gx.work_group(subject.rewards))
    except (FormulaError, ValueError) as error:
        raise PlaceholderError(f"{subject.name}: {error}") from None
    if display:
        _alone(placeholder, line)
        return f"```math\n{tex}\n```"
    return f"$`{tex}`$"


def block(placeholder: Placeholder, line: str) -> str:
    """A whole computed block (worked steps, tables) for the named examples."""
    _alone(placeholder, line)
    if not placeholder.args:
        raise PlaceholderError("grpo:block needs a block name: " + ", ".join(BLOCKS))
    name, *examples = placeholder.args
    if name not in BLOCKS:
        raise _unknown("block", name, BLOCKS)
    _only(Placeholder(placeholder.kind, tuple(examples), placeholder.options, placeholder.text), len(examples), set())
    try:
        return BLOCKS[name]([_example(e) for e in examples])
    except (BlockError, ValueError) as error:
        raise PlaceholderError(str(error)) from None


CLAIMS: dict[str, Callable[[gx.GroupWorking], bool]] = {
    "binary": lambda w: w.is_binary,
    "rewards-differ": lambda w: not w.all_equal,
    "wrong-is-rare": lambda w: 0 < w.rewards.count(0) < w.rewards.count(1),
    "right-is-rare": lambda w: 0 < w.rewards.count(1) < w.rewards.count(0),
    "evenly-split": lambda w: 0 < w.rewards.count(1) == w.rewards.count(0),
}


def namespace_widget(placeholder: Placeholder) -> Widget:
    """The chapter widget `<namespace>.<name>` names (hooks/widget.py writes the figure)."""
    _only(placeholder, 1, set())
    subject, name = _split_name(placeholder.args[0], "widget")
    if not isinstance(subject, Namespace):
        raise PlaceholderError(
            f"{subject.name!r} is an example: write grpo:widget {subject.name} for its group, "
            "or <namespace>.<widget> for a chapter's widget"
        )
    return _entry(subject.widgets, name, f"{subject.name} widget", subject.defined_in)()


def check(placeholder: Placeholder, line: str) -> str:
    """Nothing on the page; the build fails if the prose's claim about the group is false."""
    _only(placeholder, 2, set())
    subject, claim = _subject(placeholder.args[0]), placeholder.args[1]
    if isinstance(subject, Namespace):
        if not _entry(subject.claims, claim, f"{subject.name} claim", subject.defined_in)():
            raise PlaceholderError(
                f"the prose claims {claim!r}, but {subject.about} says otherwise: rewrite the sentence "
                f"(the claim is computed in {subject.defined_in})"
            )
        return ""
    if not _entry(CLAIMS, claim, "claim")(gx.work_group(subject.rewards)):
        raise PlaceholderError(
            f"the prose claims {claim!r} of {subject.name}, but its rewards are {subject.rewards}: rewrite the sentence"
        )
    return ""


def _alone(placeholder: Placeholder, line: str) -> None:
    if line.strip() != placeholder.text:
        raise PlaceholderError(f"grpo:{placeholder.kind} makes a block: put it on a line of its own")


KINDS: dict[str, Callable[[Placeholder, str], str]] = {
    "value": value,
    "formula": formula,
    "block": block,
    "check": check,
    "widget": widget,
}


@dataclass(frozen=True)
class Expanded:
    """The page's Markdown with every placeholder expanded, and for each output line the source line."""

    markdown: str
    source_lines: list[int]


class PageError(Exception):
    """A placeholder or a formula that stops the build, located in its page."""

    def __init__(self, page: str, line: int, message: str, offending: str) -> None:
        super().__init__(f"{page}:{line}: {message}\n    {offending.strip()}")


def _expand_line(line: scan.Line, page: str) -> str:
    if line.fence == "code":
        return line.text
    text, out, pos = line.text, [], 0
    spans = [] if line.fence == "math" else scan.code_spans(text)
    for opening in OPENING.finditer(text):
        start = opening.start()
        if start < pos:
            continue
        inside = next((s for s in spans if s.start <= start < s.end), None)
        end = text.find("-->", start)
        offending = text[start : end + 3] if end >= 0 else text[start:]
        if inside is not None and not inside.is_math:
            continue  # in inline code: shown as written
        if line.fence == "math" or inside is not None:
            raise PageError(
                page, line.number, "placeholders do not expand inside math; use <!-- grpo:formula ... -->", offending
            )
        if end < 0:
            raise PageError(page, line.number, "unclosed placeholder: it needs '-->' on the same line", offending)
        try:
            placeholder = parse(offending)
            if placeholder.kind not in KINDS:
                raise _unknown("placeholder kind", placeholder.kind, KINDS)
            out.append(text[pos:start])
            out.append(KINDS[placeholder.kind](placeholder, text))
        except (PlaceholderError, QuantityError, FormulaError, BlockError) as error:
            # The last three: a computation that cannot give what the page asks for (an example it needs is gone).
            raise PageError(page, line.number, str(error), offending) from None
        pos = end + 3
    out.append(text[pos:])
    expanded = "".join(out)
    if expanded != text and "\n" in expanded:
        indent = text[: len(text) - len(text.lstrip())]
        expanded = "\n".join(indent + part if part else part for part in expanded.lstrip().split("\n"))
    return expanded


def expand(markdown: str, page: str, first_line: int = 1) -> Expanded:
    """Every placeholder of the page replaced by what it computes; PageError at the first bad one.

    first_line is the source line the Markdown starts on (MkDocs strips the front matter first).
    """
    out: list[str] = []
    source_lines: list[int] = []
    for line in scan.lines(markdown, first_line):
        for part in _expand_line(line, page).split("\n"):
            out.append(part)
            source_lines.append(line.number)
    return Expanded("\n".join(out), source_lines)
