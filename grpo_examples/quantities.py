"""What a model's number means where its type alone does not say it: a sign that matters, the decimals that
are meaningful, a ratio, a value that does not exist. Pages read these from the fields' annotations.

    advantage: Signed                  A_i: its sign is the point (above or below the group)
    reduction: Ratio                   Var(0) / Var(J): in words, "4.2 times"
    final_reward: Annotated[float, Rounded(2)]   meaningful to two decimals (the third is the seed's noise)
    steps_to_threshold: int | Undefined          None of the three is a page's business: they say what the number is
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from types import MappingProxyType
from typing import Annotated, TypeVar

T = TypeVar("T")


@dataclass(frozen=True)
class Sign:
    """The number is signed: +0.5 and −2.0 say above and below, so the plus sign is written too."""


@dataclass(frozen=True)
class Rounded:
    """The number is meaningful to this many decimals at most (a run's mean reward: the third is noise)."""

    places: int


@dataclass(frozen=True)
class Undefined:
    """A value the computation does not have, and why (a threshold never reached, a ratio of one outcome)."""

    reason: str


@dataclass(frozen=True)
class Times:
    """The number is a ratio of two quantities: in words it reads "four times" or "1.5 times"."""


SIGN = Sign()
Signed = Annotated[float, SIGN]
SignedExact = Annotated[Fraction | float, SIGN]
TIMES = Times()
Ratio = Annotated[float, TIMES]
RatioExact = Annotated[Fraction, TIMES]


def read_only(model: T) -> T:
    """The model, with every mapping in it made read-only, as its frozen dataclasses are: models are cached, and
    a reader who changed one in a Python session would change it for every page after."""
    if dataclasses.is_dataclass(model) and not isinstance(model, type):
        for field in dataclasses.fields(model):
            value = getattr(model, field.name)
            frozen = read_only(value)
            if frozen is not value:
                object.__setattr__(model, field.name, frozen)  # frozen dataclasses allow this one way in
    elif isinstance(model, Mapping) and not isinstance(model, MappingProxyType):
        return MappingProxyType({key: read_only(value) for key, value in model.items()})  # type: ignore[return-value]
    elif isinstance(model, tuple):
        for item in model:
            read_only(item)
    return model
