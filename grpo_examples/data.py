"""The one loader of the book's example data: a TOML file read into frozen dataclasses, checked against them.

    settings = load(DATA / "ppo.toml", Settings)      # Settings: a frozen dataclass; tables nest as fields

The dataclass is the schema: each field's type says what the file must hold there (str, int, float, bool,
tuple[X, ...], Mapping[str, X], a nested dataclass for a table, a tuple of them for an array of tables), and
`Annotated[int, Between(1, 200)]` bounds a number. Every problem of the file is reported at once, each naming
the file, the table and the key; a dataclass's own __post_init__ may raise ValueError for what the types
cannot say (probabilities that do not add up to 1), and is reported at its table the same way.
"""

from __future__ import annotations

import dataclasses
import math
import re
import tomllib
import types
import typing
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

T = TypeVar("T")
DATA = Path(__file__).with_name("data")


@dataclass(frozen=True)
class Between:
    """A number the file may set only within [low, high]: so that data cannot ask for a run of a million steps."""

    low: float
    high: float


@dataclass(frozen=True)
class Pattern:
    """A text (or a table's name) the file may set only in this form: `regex` must match it whole."""

    regex: str
    what: str  # the form in words, for the message


class DataError(ValueError):
    """A data file the book cannot use: one line per problem, each with the file, the table, the key and the fix."""

    def __init__(self, path: Path, problems: list[str]) -> None:
        self.path, self.problems = path, problems
        super().__init__("\n".join(f"{display(path)}: {problem}" for problem in problems))


def display(path: Path) -> str:
    """The file as an author names it: grpo_examples/data/ppo.toml."""
    parts = path.resolve().parts
    return "/".join(parts[parts.index("grpo_examples") :]) if "grpo_examples" in parts else str(path)


def load(path: Path, schema: type[T]) -> T:
    """The file's tables as an instance of schema; DataError listing every problem if it does not fit."""
    try:
        with path.open("rb") as handle:
            table = tomllib.load(handle)
    except FileNotFoundError:
        raise DataError(path, ["the file is missing: restore it (git checkout -- it)"]) from None
    except tomllib.TOMLDecodeError as error:
        raise DataError(path, [f"not valid TOML: {error}"]) from None
    problems: list[str] = []
    value = _convert(table, schema, "", problems)
    if problems:
        raise DataError(path, problems)
    return typing.cast(T, value)


def _where(at: str) -> str:
    return at or "the top level"


def _convert(value: Any, kind: Any, at: str, problems: list[str]) -> Any:
    """value as the type kind, or None after adding what is wrong to problems."""
    bounds: Between | Pattern | None = None
    if typing.get_origin(kind) is typing.Annotated:
        kind, *meta = typing.get_args(kind)
        bounds = next((m for m in meta if isinstance(m, Between | Pattern)), None)
    origin, args = typing.get_origin(kind), typing.get_args(kind)
    if dataclasses.is_dataclass(kind) and isinstance(kind, type):
        return _table(value, kind, at, problems)
    if origin in (types.UnionType, typing.Union):
        if value is None and type(None) in args:
            return None
        return _convert(value, next(a for a in args if a is not type(None)), at, problems)
    if origin is tuple:
        if not isinstance(value, list):
            problems.append(f"{_where(at)}: expected a list, got {_shown(value)}")
            return None
        item = args[0]
        return tuple(_convert(v, item, f"{at}[{i + 1}]", problems) for i, v in enumerate(value))
    if origin in (dict, Mapping) or kind is dict:
        if not isinstance(value, dict):
            problems.append(f"{_where(at)}: expected a table, got {_shown(value)}")
            return None
        for key in value:
            _convert(key, args[0], f"{at}[{key}]" if at else f"[{key}]", problems)  # a table's name, if it has a form
        return {k: _convert(v, args[1], _join(at, k), problems) for k, v in value.items()}
    return _scalar(value, kind, at, bounds, problems)


def _scalar(value: Any, kind: Any, at: str, bounds: Between | Pattern | None, problems: list[str]) -> Any:
    expected = {str: "text", int: "a whole number", float: "a number", bool: "true or false"}[kind]
    fits = (
        isinstance(value, bool)
        if kind is bool
        else not isinstance(value, bool) and isinstance(value, int | float if kind is float else kind)
    )
    if not fits:
        problems.append(f"{_where(at)}: expected {expected}, got {_shown(value)}")
        return None
    if kind is float and not math.isfinite(value):
        problems.append(f"{_where(at)}: expected a finite number, got {value!r}")
        return None
    if isinstance(bounds, Between) and not bounds.low <= value <= bounds.high:
        problems.append(
            f"{_where(at)}: {value!r} is outside the range the book allows, {bounds.low:g} to {bounds.high:g}"
        )
        return None
    if isinstance(bounds, Pattern) and not re.fullmatch(bounds.regex, value):
        problems.append(f"{_where(at)}: {value!r} is not {bounds.what}: rename it")
        return None
    return float(value) if kind is float else value


def _table(value: Any, schema: type, at: str, problems: list[str]) -> Any:
    if not isinstance(value, dict):
        problems.append(f"{_where(at)}: expected a table, got {_shown(value)}")
        return None
    hints = typing.get_type_hints(schema, include_extras=True)
    fields = {f.name: f for f in dataclasses.fields(schema)}
    required = {
        n for n, f in fields.items() if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
    }
    before = len(problems)
    for key in sorted(set(value) - set(fields)):
        problems.append(f"{_where(at)}: unknown key {key!r} (the keys are {', '.join(fields)}): remove or rename it")
    for key in sorted(required - set(value)):
        problems.append(f"{_where(at)}: missing key {key!r}: add it")
    converted = {k: _convert(v, hints[k], _join(at, k), problems) for k, v in value.items() if k in fields}
    if len(problems) > before:
        return None
    try:
        return schema(**converted)
    except ValueError as error:
        problems.append(f"{_where(at)}: {error}")
        return None


def _join(at: str, key: str) -> str:
    return f"{at}.{key}" if at else key


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."
