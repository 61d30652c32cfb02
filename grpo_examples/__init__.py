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
from grpo_examples.critic_memory import MemoryPart, bytes_per_parameter, total_bytes, training_memory
from grpo_examples.examples import Example, Response, get_example, load_examples
from grpo_examples.gae import discounted_returns, gae_advantages, td_errors
from grpo_examples.ppo import (
    clip_binds,
    clip_range,
    clipped_surrogate,
    clipped_term,
    probability_ratio,
    surrogate_gradient,
    unclipped_term,
)
from grpo_examples.ppo_examples import load_ppo_examples, work_clip_case, work_gae
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
    "MemoryPart",
    "Outcome",
    "Response",
    "Verdict",
    "accuracy_reward",
    "advantages",
    "bytes_per_parameter",
    "clip_binds",
    "clip_range",
    "clipped_surrogate",
    "clipped_term",
    "deviations",
    "discounted_returns",
    "extract_answer",
    "format_reward",
    "gae_advantages",
    "get_example",
    "group_mean",
    "group_std",
    "load_examples",
    "load_ppo_examples",
    "normalise_answer",
    "probability_ratio",
    "rewards_all_equal",
    "surrogate_gradient",
    "td_errors",
    "total_bytes",
    "training_memory",
    "unclipped_term",
    "verify",
    "work_clip_case",
    "work_gae",
    "work_group",
]
