"""The GRPO-in-practice chapter's inputs that are not groups of responses, read from practice_examples.toml."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from pathlib import Path

PRACTICE_FILE = Path(__file__).with_name("practice_examples.toml")


@dataclass(frozen=True)
class KlExample:
    """Two next-token distributions over the same candidates: pi_theta (in training) and pi_ref (frozen)."""

    context: str
    tokens: tuple[str, ...]
    pi_theta: tuple[float, ...]
    pi_ref: tuple[float, ...]
    samples: int
    seed: int


@dataclass(frozen=True)
class LossExample:
    """Responses of one group that differ in length: |o_i| and r_i, and Dr. GRPO's constant L."""

    lengths: tuple[int, ...]
    rewards: tuple[float, ...]
    max_length: int


@dataclass(frozen=True)
class ClipExample:
    """A ratio rho that an update has reached, and token probabilities under pi_theta_old."""

    ratio: float
    probabilities: tuple[float, ...]


@dataclass(frozen=True)
class PracticeExamples:
    kl: KlExample
    loss: LossExample
    clip: ClipExample


def _table(tables: dict[str, object], name: str, keys: set[str], path: Path) -> dict[str, object]:
    table = tables.get(name)
    if not isinstance(table, dict) or set(table) != keys:
        found = sorted(table) if isinstance(table, dict) else []
        raise ValueError(f"{path.name}: [{name}] needs the keys {sorted(keys)}, found {found}")
    return table


def _number(value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise TypeError(f"expected a number, got {value!r}")
    return float(value)


def _whole(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"expected a whole number, got {value!r}")
    return value


def _list(value: object) -> list[object]:
    if not isinstance(value, list):
        raise TypeError(f"expected a list, got {value!r}")
    return value


@cache
def load_practice_examples(path: Path = PRACTICE_FILE) -> PracticeExamples:
    """The three tables of the file; a missing or unknown key, or lists of unequal length, is an error."""
    with path.open("rb") as handle:
        tables = tomllib.load(handle)
    kl = _table(tables, "kl", {"context", "tokens", "pi_theta", "pi_ref", "samples", "seed"}, path)
    loss = _table(tables, "loss", {"lengths", "rewards", "max_length"}, path)
    clip = _table(tables, "clip", {"ratio", "probabilities"}, path)
    examples = PracticeExamples(
        KlExample(
            str(kl["context"]),
            tuple(str(token) for token in _list(kl["tokens"])),
            tuple(map(_number, _list(kl["pi_theta"]))),
            tuple(map(_number, _list(kl["pi_ref"]))),
            _whole(kl["samples"]),
            _whole(kl["seed"]),
        ),
        LossExample(
            tuple(map(_whole, _list(loss["lengths"]))),
            tuple(map(_number, _list(loss["rewards"]))),
            _whole(loss["max_length"]),
        ),
        ClipExample(_number(clip["ratio"]), tuple(map(_number, _list(clip["probabilities"])))),
    )
    if not len(examples.kl.tokens) == len(examples.kl.pi_theta) == len(examples.kl.pi_ref):
        raise ValueError(f"{path.name}: [kl] needs one pi_theta and one pi_ref per token")
    if len(examples.loss.lengths) != len(examples.loss.rewards):
        raise ValueError(f"{path.name}: [loss] needs one reward per length")
    return examples
