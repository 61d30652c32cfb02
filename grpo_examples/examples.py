"""The book's named groups, read from examples.toml, with their rewards computed by the verifier."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from grpo_examples.verifier import accuracy_reward, extract_answer

EXAMPLES_FILE = Path(__file__).with_name("examples.toml")


@dataclass(frozen=True)
class Response:
    """One sampled response o_i, its extracted final answer and its verifiable reward r_i."""

    text: str
    answer: str | None
    reward: float


@dataclass(frozen=True)
class Example:
    """One prompt q with its group of G sampled responses."""

    name: str
    title: str
    question: str
    reference: str
    responses: tuple[Response, ...]

    @property
    def rewards(self) -> list[float]:
        """r_1..r_G."""
        return [response.reward for response in self.responses]


def _example(name: str, table: dict[str, object]) -> Example:
    reference = str(table["answer"])
    texts = table["responses"]
    if not isinstance(texts, list) or not texts:
        raise ValueError(f"{EXAMPLES_FILE.name}: [{name}] needs a non-empty list of responses")
    responses = tuple(
        Response(text=text, answer=extract_answer(text), reward=accuracy_reward(text, reference))
        for text in map(str, texts)
    )
    return Example(name, str(table["title"]), str(table["question"]), reference, responses)


@cache
def load_examples(path: Path = EXAMPLES_FILE) -> dict[str, Example]:
    """Every named example in the file, in the order written."""
    with path.open("rb") as handle:
        tables = tomllib.load(handle)
    return {name: _example(name, table) for name, table in tables.items()}


def get_example(name: str) -> Example:
    """The named example; KeyError lists the names that exist."""
    examples = load_examples()
    if name not in examples:
        raise KeyError(f"no example named {name!r}; known: {', '.join(examples)}")
    return examples[name]
