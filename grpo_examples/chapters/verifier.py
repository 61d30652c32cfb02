"""The verifiable-rewards chapter's own computation: `grpo_examples.chapter('verifier')`, on
grpo_examples/data/verifier.toml. (Its groups of responses are the book's groups: grpo_examples.group.)
"""

from __future__ import annotations

from dataclasses import dataclass

from grpo_examples.verifier import normalise_answer


@dataclass(frozen=True)
class Settings:
    """Everything in verifier.toml."""

    spellings: tuple[str, ...]


@dataclass(frozen=True)
class Spelling:
    """An answer as written, and the canonical form the checker compares."""

    written: str
    """The answer as written."""
    normalised: str
    """Its canonical form."""


@dataclass(frozen=True)
class Verifier:
    """The chapter's table of spellings, each normalised."""

    spellings: tuple[Spelling, ...]
    """Every spelling of verifier.toml, normalised."""


def build(settings: Settings) -> Verifier:
    """normalise_answer of every spelling."""
    return Verifier(tuple(Spelling(text, normalise_answer(text)) for text in settings.spellings))
