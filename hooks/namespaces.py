"""A chapter's own computed names, for values that belong to no group of responses.

    <!-- grpo:value run.steps -->                        a number from the chapter's computation
    <!-- grpo:formula ppo.clip.positive display -->      a formula filled in with its numbers
    <!-- grpo:check run grpo-first-in-most-seeds -->     nothing; the build fails if the claim is false
    <!-- grpo:widget ppo.clip -->                        an interactive figure (hooks/widget.py)

The first word of a name picks the namespace, as it picks the example in `easy.mean`. A chapter's
adapter module (hooks/run_values.py, ...) builds one Namespace; hooks/registry.py lists them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from hooks.quantities import Quantity
from hooks.widget import Widget


@dataclass(frozen=True)
class Namespace:
    """The values, formulas, claims and widgets of one chapter's computation, each a function of nothing.

    A value that the computation does not have (a threshold never reached) raises QuantityError, a
    formula it cannot fill in FormulaError; a claim returns False when the prose is wrong.
    """

    name: str
    about: str  # what the names are about, for messages: "the training run"
    defined_in: str  # the module that defines them, for messages: "hooks/run_values.py"
    values: Mapping[str, Callable[[], Quantity]]
    formulas: Mapping[str, Callable[[], str]] = field(default_factory=dict)
    claims: Mapping[str, Callable[[], bool]] = field(default_factory=dict)
    widgets: Mapping[str, Callable[[], Widget]] = field(default_factory=dict)
