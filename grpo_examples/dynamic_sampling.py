"""DAPO's dynamic sampling (Yu et al. 2025, arXiv 2503.14476): keep only groups that can teach.

    keep the group of prompt q  iff  0 < |{o_i : o_i is correct}| < G

A group that is all right or all wrong has A_i = 0 for every response, so its clipped term, and with it
its policy gradient, is exactly 0. DAPO drops such prompts and samples more until the batch is full of
groups that hold both outcomes. For 0/1 rewards the condition is "the rewards are not all equal", which
is how this module states it, so that it also reads right for rewards that are not 0/1.
"""

from __future__ import annotations

from collections.abc import Mapping

from grpo_examples.advantages import Rewards, rewards_all_equal


def dynamic_sampling_keeps(rewards: Rewards) -> bool:
    """True when the group's rewards are not all equal (for 0/1 rewards: 0 < number correct < G)."""
    return not rewards_all_equal(rewards)


def kept_groups(groups: Mapping[str, Rewards]) -> list[str]:
    """The names of the groups dynamic sampling keeps, in the order given."""
    return [name for name, rewards in groups.items() if dynamic_sampling_keeps(rewards)]
