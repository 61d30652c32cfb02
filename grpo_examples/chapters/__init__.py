"""Each chapter's computation as one model: `grpo_examples.chapter('ppo')` returns a tree of frozen dataclasses.

A chapter's module here, `<name>.py`, holds two things: `Settings`, the dataclass its data file
grpo_examples/data/<name>.toml is read into (the file's schema), and `build(settings)`, which computes every
value, table and claim the chapter's page shows. Adding a module adds a chapter: nothing else lists them.
"""

from __future__ import annotations

import importlib
import pkgutil
from pathlib import Path
from typing import Any

from grpo_examples.data import DATA, load, read_from_files
from grpo_examples.quantities import read_only


def chapter_names() -> tuple[str, ...]:
    """The chapters that have a model: one module each in this folder."""
    return tuple(sorted(m.name for m in pkgutil.iter_modules(__path__) if not m.name.startswith("_")))


def chapter_file(name: str) -> Path:
    """The data file of the named chapter: grpo_examples/data/<name>.toml."""
    return DATA / f"{name}.toml"


@read_from_files
def chapter(name: str) -> Any:
    """The named chapter's model, computed from its data file; KeyError lists the chapters there are."""
    if name not in chapter_names():
        raise KeyError(f"no chapter named {name!r}; the chapters are {', '.join(chapter_names())}")
    module = importlib.import_module(f"{__name__}.{name}")
    return read_only(module.build(load(chapter_file(name), module.Settings)))
