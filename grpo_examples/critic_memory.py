"""What a trained network holds in memory during training: its parameters times bytes per parameter.

Mixed-precision training with Adam keeps, for every parameter (Rajbhandari et al., ZeRO,
arXiv:1910.02054, section 3.1): 16-bit weights and 16-bit gradients (2 + 2 bytes), and Adam's fp32
master copy of the weights, first moment and second moment (4 + 4 + 4 bytes).

    memory = parameters x sum of bytes per parameter over what is kept

Activations (which grow with batch size and sequence length) are not counted: this is the floor.
A frozen network (the reference policy, a reward model) keeps its weights only.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass


@dataclass(frozen=True)
class MemoryPart:
    """One thing kept per parameter: what it is, its bytes per parameter, and its total in bytes."""

    name: str
    """What is kept: "weights (16-bit)", "Adam: first moment (fp32)", ..."""
    bytes_per_parameter: int
    """Its bytes per parameter."""
    total_bytes: int
    """parameters x bytes per parameter."""


def training_memory(parameters: int, bytes_per_parameter: Mapping[str, int]) -> list[MemoryPart]:
    """parameters x bytes, for each thing kept per parameter (weights, gradients, optimizer states)."""
    if parameters <= 0:
        raise ValueError(f"a network has a positive number of parameters, got {parameters}")
    return [MemoryPart(name, size, parameters * size) for name, size in bytes_per_parameter.items()]


def total_bytes(parts: list[MemoryPart]) -> int:
    """The sum of the parts: the memory the network needs before any activation."""
    return sum(part.total_bytes for part in parts)


def bytes_per_parameter(parts: list[MemoryPart]) -> int:
    """The bytes kept per parameter, all parts together: 16 for mixed-precision Adam."""
    return sum(part.bytes_per_parameter for part in parts)
