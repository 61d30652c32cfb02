"""A rule-based verifiable reward, as DeepSeek-R1 uses (arXiv 2501.12948, section 2.2.2).

r(o) = 1 if normalise(extract(o)) == normalise(reference), else 0          (accuracy reward)
r_format(o) = 1 if o puts its reasoning between <think> and </think>, else 0 (format reward)

No neural reward model: the reward is a rule, so the policy cannot learn to please a judge. The
rules are deliberately strict: an answer the rules cannot read (no box, no "Answer:" line) scores 0
even when the text around it is right, because a checker that guesses is a checker that can be gamed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction

# The reward the verifier gives each outcome; pages name outcomes by these keys.
OUTCOMES: dict[str, float] = {"correct": 1.0, "wrong": 0.0}

_BOXED = re.compile(r"\\boxed\s*\{")
_ANSWER_LINE = re.compile(r"\banswer\s*(?:is\s*)?[:=]\s*(.*?)\s*$", re.IGNORECASE | re.MULTILINE)
# Markup at either end of an answer line ('Answer: 42</answer>'): the tags a prompt asked for, not the answer.
_EDGE_TAGS = re.compile(r"^(?:\s*<[a-z][\w-]*>)+|(?:\s*</[a-z][\w-]*>)+$", re.IGNORECASE)
_THINK_BLOCK = re.compile(r"\s*<think>(?P<reasoning>.*?)</think>(?P<rest>.*)", re.DOTALL)
# TeX reads an argument as a brace group or, without braces, as one character or one command: \frac12 is \frac{1}{2}.
_TEX_ARGUMENT = r"\s*(\{[^{}]*\}|\\[a-zA-Z]+|[0-9a-zA-Z])"
_FRAC = re.compile(r"\\[dt]?frac(?![a-zA-Z])" + _TEX_ARGUMENT + _TEX_ARGUMENT)
# A whole number beside a fraction ('2 1/2', '1/2 3'): dropping the space would read twenty-one halves or 1/23.
_MIXED = re.compile(r"\d\s+\d+\s*/|/\s*\d+\s+\d")
_TEXT = re.compile(r"\\(?:text|textbf|mathrm|mathbf)\{([^{}]*)\}")
_THOUSANDS = re.compile(r"^[+-]?\d{1,3}(,\d{3})+(\.\d+)?$")
_VARIABLE = re.compile(r"^[a-z]\s*=\s*(?=\S)", re.IGNORECASE)
# Around an answer, none of these change its value: TeX math delimiters, Markdown bold, spaces.
_WRAPPERS = "$* \t\n"
_DELIMITER_PAIRS = (("\\(", "\\)"), ("\\[", "\\]"))
_TEX_SPACES = ("\\,", "\\!", "\\;", "\\ ", "~", "\\left", "\\right")
_UNICODE_MINUS = "\u2212"
# Bounds on what is read as a number: '1e100000000' as an exact fraction is a hundred-million-digit integer
# (minutes of work and memory). Such an answer is compared as text, as a checker that cannot read it would.
MAX_NUMBER_CHARS = 100
MAX_EXPONENT = 100
_EXPONENT = re.compile(r"[eE]([+-]?\d+)")


def _boxed_contents(text: str) -> list[str]:
    """The contents of every \\boxed{...}, braces balanced (a regex cannot count nested braces), in the order
    they open.

    A \\boxed{ that is never closed is ignored: an unfinished answer is no answer. One pass over the text,
    whatever it holds (a scan from each \\boxed{ to its closing brace would read 20,000 unclosed ones
    20,000 times).
    """
    opens = {match.end() - 1 for match in _BOXED.finditer(text)}  # the position of each box's own '{'
    found: list[tuple[int, str]] = []
    waiting: list[tuple[int, int]] = []  # (where its contents start, brace depth inside it): boxes not closed yet
    depth = 0
    for pos, char in enumerate(text):
        if char == "{":
            depth += 1
            if pos in opens:
                waiting.append((pos + 1, depth))
        elif char == "}":
            if waiting and waiting[-1][1] == depth:
                start, _ = waiting.pop()
                found.append((start, text[start:pos]))
            depth -= 1
    return [contents for _, contents in sorted(found)]


def extract_answer(response: str) -> str | None:
    """The response's final answer: its last \\boxed{...}, else its last answer line; None if neither.

    An answer line is any line with the word 'answer', an optional 'is', then ':' or '=' ('Answer: 42',
    'The answer is: 42', 'answer = 42'); its answer is the rest of the line after the first such ':' or '=',
    without markup tags at either end ('42</answer>' -> '42'). An empty box or an empty answer line is no answer.
    """
    boxed = [b for b in _boxed_contents(response) if b.strip()]
    if boxed:
        return boxed[-1].strip()
    lines = [_EDGE_TAGS.sub("", line).strip() for line in _ANSWER_LINE.findall(response)]
    answers = [line for line in lines if line.strip(_WRAPPERS)]
    return answers[-1] if answers else None


def _encloses(text: str, opening: str, closing: str) -> bool:
    """Whether the text is one pair opening...closing: '{42}' is, '{1}{2}' and '\\(1\\) or \\(2\\)' are not.

    For braces, TeX's escaped '\\{' and '\\}' are characters, not braces: '\\{1\\}' is a set, never peeled.
    """
    if not (text.startswith(opening) and text.endswith(closing)):
        return False
    inside = text[len(opening) : -len(closing)]
    if opening != "{":
        return opening not in inside and closing not in inside
    if text.endswith("\\}"):
        return False
    depth = 0
    for char in inside.replace("\\{", "").replace("\\}", ""):
        depth += {"{": 1, "}": -1}.get(char, 0)
        if depth < 0:  # the first brace closed before the end: two groups, not one
            return False
    return depth == 0


def _strip_wrappers(text: str) -> str:
    """Peel what goes around an answer until nothing changes: '$', '**', spaces, a trailing period, a pair of
    \\( \\) or \\[ \\], a brace group around the whole ('$56$.' -> '56', '\\({42}\\)' -> '42', '.5' stays).
    """
    while True:
        stripped = text.strip(_WRAPPERS).rstrip(".")
        for opening, closing in (*_DELIMITER_PAIRS, ("{", "}")):
            if _encloses(stripped, opening, closing):
                stripped = stripped[len(opening) : -len(closing)]
        if stripped == text:
            return text
        text = stripped


def normalise_answer(answer: str) -> str:
    """A canonical spelling, so that equal answers compare equal as strings.

    Numbers become reduced fractions (1,000 -> 1000; 0.5, 1/2, \\frac{1}{2} and \\frac12 -> 1/2; 56.0 -> 56);
    anything else is lower-cased with spaces removed (\\text{No} -> no). A comma (or TeX's {,}) counts as a
    thousands separator only in groups of three digits, so '1,2' is not read as twelve. A percent sign
    stays part of the answer (50\\% -> 50%, never 0.5). A whole number beside a fraction ('2 1/2') is
    left as text, spaces kept: it is not one number.
    """
    text = _strip_wrappers(answer.replace(_UNICODE_MINUS, "-"))
    for space in _TEX_SPACES:
        text = text.replace(space, "")
    text = text.replace("{,}", ",").replace("\\%", "%")  # TeX's spellings of a comma and a percent sign
    text = _TEXT.sub(r"\1", text)
    text = _FRAC.sub(_fraction, text)
    text = _VARIABLE.sub("", _strip_wrappers(text))
    if _MIXED.search(text):
        return " ".join(text.split()).lower()
    text = text.replace(" ", "")
    digits, percent = (text[:-1], "%") if text.endswith("%") else (text, "")
    if _THOUSANDS.match(digits):
        digits = digits.replace(",", "")
    number = _as_number(digits)
    return text.lower() if number is None else f"{number}{percent}"


def _fraction(match: re.Match[str]) -> str:
    """\\frac{a}{b} or \\frac ab as ' a/b ', spaced so that a digit beside it stays a separate number."""
    numerator, denominator = (argument.removeprefix("{").removesuffix("}") for argument in match.groups())
    return f" {numerator}/{denominator} "


def _as_number(text: str) -> Fraction | None:
    """'3/4', '-0.5', '1e3' as an exact fraction; None for anything that is not one number, or that is too long
    or too large to be an answer (more than MAX_NUMBER_CHARS characters, an exponent beyond MAX_EXPONENT)."""
    parts = text.split("/")
    if len(parts) > 2 or not all(parts) or len(text) > MAX_NUMBER_CHARS:
        return None
    if any(abs(int(e)) > MAX_EXPONENT for e in _EXPONENT.findall(text)):
        return None
    try:
        values = [Fraction(part) for part in parts]
    except (ValueError, ZeroDivisionError):
        return None
    if len(values) == 2:
        if values[1] == 0:
            return None
        return values[0] / values[1]
    return values[0]


@dataclass(frozen=True)
class Verdict:
    """Every step of checking one response: what was extracted, its canonical form and both rewards."""

    answer: str | None
    normalised: str | None
    reference: str
    accuracy: float
    format: float


def verify(response: str, reference: str) -> Verdict:
    """Extract, normalise, compare: the accuracy reward, and the format reward beside it."""
    answer = extract_answer(response)
    normalised = None if answer is None else normalise_answer(answer)
    canonical = normalise_answer(reference)
    right = normalised is not None and normalised == canonical
    accuracy = OUTCOMES["correct"] if right else OUTCOMES["wrong"]
    return Verdict(answer, normalised, canonical, accuracy, format_reward(response))


def accuracy_reward(response: str, reference: str) -> float:
    """r = 1 if normalise(extract(response)) == normalise(reference), else 0 (no answer scores 0)."""
    return verify(response, reference).accuracy


def format_reward(response: str) -> float:
    """r_format = 1 if the response opens with non-empty reasoning between one <think> and one </think>,
    followed by something (the answer), else 0.
    """
    match = _THINK_BLOCK.fullmatch(response)
    if match is None:
        return 0.0
    reasoning, rest = match.group("reasoning"), match.group("rest")
    well_formed = reasoning.strip() and rest.strip() and "<think>" not in reasoning + rest and "</think>" not in rest
    return 1.0 if well_formed else 0.0
