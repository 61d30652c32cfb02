"""A toy task to train on: multiplication questions, each with a fixed menu of candidate responses.

A real policy writes its response token by token; here it picks one of C ready-made responses per
question, so the whole policy is a table of logits theta[q, c] and pi_theta(c | q) = softmax(theta[q])_c.
What stays real is the reward: every candidate is a text, scored by the rule-based checker.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np
from numpy.typing import NDArray

from grpo_examples.verifier import accuracy_reward, format_reward

# (a, b) for the questions "What is a × b?": small enough to check by eye, one with a four-digit product.
FACTORS: tuple[tuple[int, int], ...] = (
    (7, 8),
    (6, 9),
    (12, 12),
    (25, 40),
    (13, 7),
    (9, 9),
    (15, 4),
    (8, 12),
    (11, 11),
    (14, 6),
    (3, 17),
    (16, 5),
)


def candidates(a: int, b: int) -> tuple[str, ...]:
    """The menu for 'What is a × b?': one right answer with its reasoning in <think> tags, one right
    answer without them, and six answers that are wrong or that the checker cannot read."""
    product = a * b
    return (
        f"<think>{a} × {b} = {a} × {b - 1} + {a} = {product - a} + {a} = {product}.</think> \\boxed{{{product}}}",
        f"Answer: {product:,}.",
        f"<think>{a} × {b} is {product}.</think> It is {product}.",
        f"<think>{a} × {b} = {a} × {b - 1} = {product - a}.</think> \\boxed{{{product - a}}}",
        f"<think>{a} + {b} = {a + b}.</think> \\boxed{{{a + b}}}",
        f"{a} × {b} is about {product + 1}. \\boxed{{{product + 1}}}",
        f"Answer: {product + 10}",
        f"<think></think> \\boxed{{{product - 10}}}",
    )


@dataclass(frozen=True)
class ToyTask:
    """Questions q, their candidate responses, and the reward r[q, c] the checker gives each candidate."""

    questions: tuple[str, ...]
    references: tuple[str, ...]
    responses: tuple[tuple[str, ...], ...]
    rewards: NDArray[np.float64]  # shape (questions, candidates), 0/1

    @property
    def shape(self) -> tuple[int, int]:
        """(number of questions, candidates per question)."""
        return (len(self.questions), len(self.responses[0]))


@cache
def toy_task(factors: tuple[tuple[int, int], ...] = FACTORS) -> ToyTask:
    """The task, with every reward computed by accuracy_reward from the candidate's text."""
    responses = tuple(candidates(a, b) for a, b in factors)
    references = tuple(str(a * b) for a, b in factors)
    rewards = np.array(
        [
            [accuracy_reward(text, ref) + format_reward(text) for text in menu]
            for menu, ref in zip(responses, references, strict=True)
        ]
    )
    questions = tuple(f"What is {a} × {b}?" for a, b in factors)
    return ToyTask(questions, references, responses, rewards)
