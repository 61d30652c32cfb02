"""The math of the book, in numpy: each public function mirrors one equation and states it.

This package knows nothing of MkDocs; the hooks in ../hooks call it and format what it returns.
"""

from grpo_examples.advantages import (
    EQUAL_REWARDS_RTOL,
    advantages,
    deviations,
    group_mean,
    group_std,
    rewards_all_equal,
)
from grpo_examples.conventions import CONVENTIONS, POPULATION, TRL, VERL, Convention
from grpo_examples.examples import Example, Response, get_example, load_examples
from grpo_examples.verifier import (
    OUTCOMES,
    Verdict,
    accuracy_reward,
    extract_answer,
    format_reward,
    normalise_answer,
    verify,
)
from grpo_examples.worked import GroupWorking, Outcome, work_group

__all__ = [
    "CONVENTIONS",
    "EQUAL_REWARDS_RTOL",
    "OUTCOMES",
    "POPULATION",
    "TRL",
    "VERL",
    "Convention",
    "Example",
    "GroupWorking",
    "Outcome",
    "Response",
    "Verdict",
    "accuracy_reward",
    "advantages",
    "deviations",
    "extract_answer",
    "format_reward",
    "get_example",
    "group_mean",
    "group_std",
    "load_examples",
    "normalise_answer",
    "rewards_all_equal",
    "verify",
    "work_group",
]
