"""How real trainers normalise: which std, and which epsilon in the denominator.

Read from the trainers' source; the version each was read at is stamped on it, because defaults move.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from grpo_examples.advantages import Rewards, advantages


@dataclass(frozen=True)
class Convention:
    """A_i = (r_i - mu) / (std_ddof(r) + eps), as one trainer computes it."""

    key: str
    trainer: str
    ddof: int
    eps: float
    source: str

    @property
    def label(self) -> str:
        """'TRL: sample std + 1e-4': who computes it, and how, read off the fields."""
        std = "population std" if self.ddof == 0 else "sample std"
        eps = "" if self.eps == 0 else " + " + f"{self.eps:.0e}".replace("e-0", "e-")
        return f"{self.trainer}: {std}{eps}"

    def advantages(self, rewards: Rewards) -> NDArray[np.float64]:
        """A_i under this convention."""
        return advantages(rewards, ddof=self.ddof, eps=self.eps)


POPULATION = Convention(
    key="population",
    trainer="the book",
    ddof=0,
    eps=0.0,
    source="DeepSeekMath, arXiv 2402.03300, section 4.1.2 (the paper names no convention)",
)
TRL = Convention(
    key="trl",
    trainer="TRL",
    ddof=1,
    eps=1e-4,
    source="huggingface/trl, trl/trainer/grpo_trainer.py, read at version 1.10.0.dev0",
)
VERL = Convention(
    key="verl",
    trainer="verl",
    ddof=1,
    eps=1e-6,
    source="volcengine/verl, verl/trainer/ppo/core_algos.py, compute_grpo_outcome_advantage, read at commit b178a3c",
)

OPENRLHF = Convention(
    key="openrlhf",
    trainer="OpenRLHF",
    ddof=1,
    eps=1e-9,
    source="OpenRLHF/OpenRLHF, openrlhf/trainer/ppo_utils/experience_maker.py, group_norm, read at v0.11.0 (3c3be62)",
)

# The conventions the group widget offers; OpenRLHF's is shown in the GRPO-in-practice chapter only.
CONVENTIONS: dict[str, Convention] = {c.key: c for c in (POPULATION, TRL, VERL)}
