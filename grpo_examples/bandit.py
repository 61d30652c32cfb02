"""The policy-gradient chapter's bandit: one prompt q, K candidate responses, a policy over them.

A language model's response is any sequence of tokens; here the policy chooses among K ready-made
texts, so pi_theta(. | q) is a softmax over K logits and every expectation is a sum of K terms. The
reward stays real: the checker scores each text, accuracy reward plus format reward.
"""

from __future__ import annotations

import math
import tomllib
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from grpo_examples.verifier import accuracy_reward, format_reward

BANDIT_FILE = Path(__file__).with_name("bandit.toml")
SETTINGS = ("question", "answer", "seed", "group_size", "batches", "candidates")


@dataclass(frozen=True)
class Bandit:
    """The chapter's settings, with each candidate's reward computed; frozen and hashable, so that a
    simulation can be cached on it."""

    question: str
    reference: str
    texts: tuple[str, ...]
    probabilities: tuple[float, ...]  # pi_theta(o | q), one per candidate
    accuracy: tuple[float, ...]  # the checker's accuracy reward of each candidate
    format: tuple[float, ...]  # the checker's format reward of each candidate
    seed: int
    group_size: int  # G: samples averaged into one estimate in the simulation
    batches: int  # how many estimates the simulation draws

    @property
    def policy(self) -> NDArray[np.float64]:
        """pi_theta(. | q) as a vector."""
        return np.array(self.probabilities)

    @property
    def logits(self) -> NDArray[np.float64]:
        """theta_o = log pi(o): softmax(theta) is the policy (any constant added to theta gives the same)."""
        return np.log(self.policy)

    @property
    def rewards(self) -> NDArray[np.float64]:
        """r(o) = accuracy reward + format reward, for each candidate."""
        rewards: NDArray[np.float64] = np.array(self.accuracy) + np.array(self.format)
        return rewards

    @property
    def best(self) -> int:
        """The index of the first candidate with the highest reward."""
        return int(np.argmax(self.rewards))


def _fail(path: Path, message: str) -> ValueError:
    return ValueError(f"{path.name}: {message}")


def load_bandit(path: Path = BANDIT_FILE) -> Bandit:
    """The bandit in the settings file, each candidate scored by the checker; errors name what is wrong."""
    with path.open("rb") as handle:
        table = tomllib.load(handle)
    if set(table) != set(SETTINGS):
        missing, unknown = sorted(set(SETTINGS) - set(table)), sorted(set(table) - set(SETTINGS))
        raise _fail(path, f"missing keys {missing}, unknown keys {unknown}")
    candidates = table["candidates"]
    if len(candidates) < 2:
        raise _fail(path, f"a bandit needs at least two candidates, got {len(candidates)}")
    for number, candidate in enumerate(candidates, start=1):
        if set(candidate) != {"text", "probability"}:
            raise _fail(path, f"candidate {number} needs exactly 'text' and 'probability', got {sorted(candidate)}")
    probabilities = tuple(float(c["probability"]) for c in candidates)
    if min(probabilities) <= 0 or not math.isclose(sum(probabilities), 1.0, abs_tol=1e-9):
        raise _fail(path, f"the probabilities must be positive and add up to 1, got {list(probabilities)}")
    if table["group_size"] < 2 or table["batches"] < 2:
        raise _fail(path, "group_size and batches must be at least 2")
    texts = tuple(str(c["text"]) for c in candidates)
    reference = str(table["answer"])
    return Bandit(
        question=str(table["question"]),
        reference=reference,
        texts=texts,
        probabilities=probabilities,
        accuracy=tuple(accuracy_reward(text, reference) for text in texts),
        format=tuple(format_reward(text) for text in texts),
        seed=int(table["seed"]),
        group_size=int(table["group_size"]),
        batches=int(table["batches"]),
    )
