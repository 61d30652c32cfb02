"""Every name a placeholder can use, in one place: the shared registries and each chapter's additions.

A chapter whose computation needs names of its own writes them in an adapter module
(hooks/verdicts.py, hooks/run_values.py, ...), and adds that module here with one line. A name
defined twice stops the build at once, instead of one chapter silently replacing another's.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TypeVar

import grpo_examples as gx
from hooks import blocks, formulas, quantities
from hooks.bandit_figures import BANDIT_BLOCKS
from hooks.bandit_values import BANDIT
from hooks.guide_blocks import GUIDE_BLOCKS
from hooks.namespaces import Namespace
from hooks.ppo_blocks import PPO_BLOCKS
from hooks.ppo_values import PPO
from hooks.practice_blocks import PRACTICE_BLOCKS
from hooks.practice_values import PRACTICE
from hooks.run_values import RUN
from hooks.training_figures import TRAINING_BLOCKS
from hooks.variants import VARIANT_BLOCKS, VARIANT_FORMULAS, VARIANT_QUANTITIES
from hooks.verdicts import VERDICT_BLOCKS, VERDICT_QUANTITIES

T = TypeVar("T")


def _merge(what: str, *registries: Mapping[str, T]) -> dict[str, T]:
    merged: dict[str, T] = {}
    for registry in registries:
        for name, entry in registry.items():
            if name in merged:
                raise RuntimeError(f"the {what} {name!r} is registered twice: rename one (hooks/registry.py)")
            merged[name] = entry
    return merged


# One chapter a line, so that adding a chapter touches no other chapter's line.
BLOCKS: dict[str, Callable[[Sequence[gx.Example]], str]] = _merge(
    "block",
    blocks.BLOCKS,
    VERDICT_BLOCKS,
    TRAINING_BLOCKS,
    BANDIT_BLOCKS,
    PPO_BLOCKS,
    VARIANT_BLOCKS,
    PRACTICE_BLOCKS,
    GUIDE_BLOCKS,
)
QUANTITIES: dict[str, Callable[[gx.Example], quantities.Quantity]] = _merge(
    "quantity",
    quantities.QUANTITIES,
    VERDICT_QUANTITIES,
    VARIANT_QUANTITIES,
)
FORMULAS: dict[str, Callable[[gx.GroupWorking], str]] = _merge(
    "formula",
    formulas.FORMULAS,
    VARIANT_FORMULAS,
)
NAMESPACES: dict[str, Namespace] = _merge(
    "namespace",
    *(
        {namespace.name: namespace}
        for namespace in (
            RUN,
            BANDIT,
            PPO,
            PRACTICE,
        )
    ),
)
