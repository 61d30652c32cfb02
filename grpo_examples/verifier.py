"""A rule-based verifiable reward, as DeepSeek-R1 uses (arXiv 2501.12948, section 2.2.2).

r(o) = 1 if the final answer extracted from response o equals the reference answer, else 0.

No neural reward model: the reward is a rule, so the policy cannot learn to please a judge.
"""

from __future__ import annotations

import re
from fractions import Fraction

# The reward the verifier gives each outcome; pages name outcomes by these keys.
OUTCOMES: dict[str, float] = {"correct": 1.0, "wrong": 0.0}

_BOXED = re.compile(r"\\boxed\{")
_ANSWER_LINE = re.compile(r"answer\s*[:=]\s*(.+?)\s*$", re.IGNORECASE | re.MULTILINE)
_THINK = re.compile(r"^\s*<think>.+?</think>", re.DOTALL)


def _boxed_contents(text: str) -> list[str]:
    """The contents of every \\boxed{...}, braces balanced (a plain regex cannot nest)."""
    found = []
    for match in _BOXED.finditer(text):
        depth, start = 1, match.end()
        for pos in range(start, len(text)):
            depth += {"{": 1, "}": -1}.get(text[pos], 0)
            if depth == 0:
                found.append(text[start:pos])
                break
    return found


def extract_answer(response: str) -> str | None:
    """The response's final answer: its last \\boxed{...}, else its last 'Answer: ...' line."""
    boxed = _boxed_contents(response)
    if boxed:
        return boxed[-1]
    lines = _ANSWER_LINE.findall(response)
    return lines[-1] if lines else None


def normalise_answer(answer: str) -> str:
    """A canonical spelling: no spaces, '$' or trailing period; numbers as reduced fractions."""
    text = answer.strip().strip("$").rstrip(".").replace(" ", "").replace(",", "")
    try:
        return str(Fraction(text))
    except (ValueError, ZeroDivisionError):
        return text.lower()


def accuracy_reward(response: str, reference: str) -> float:
    """r = 1 if normalise(extract(response)) == normalise(reference), else 0."""
    answer = extract_answer(response)
    right = answer is not None and normalise_answer(answer) == normalise_answer(reference)
    return OUTCOMES["correct"] if right else OUTCOMES["wrong"]


def format_reward(response: str) -> float:
    """r_format = 1 if the response opens with its reasoning between <think> and </think>, else 0."""
    return 1.0 if _THINK.match(response) else 0.0
