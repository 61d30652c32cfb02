"""The one loader of the book's example data: a TOML file read into frozen dataclasses, checked against them.

    settings = load(DATA / "ppo.toml", Settings)      # Settings: a frozen dataclass; tables nest as fields

The dataclass is the schema: each field's type says what the file must hold there (str, int, float, bool,
tuple[X, ...], Mapping[str, X], a nested dataclass for a table, a tuple of them for an array of tables), and
`Annotated[int, Between(1, 200)]` bounds a number, `Annotated[tuple[str, ...], Length(1, 64)]` a list's items
or a text's characters. Every problem of the file is reported at once, each naming the file, the table and the
key; a dataclass's own __post_init__ may raise ValueError for what the types cannot say (probabilities that do
not add up to 1), and is reported at its table the same way.

The data comes from contributors and the site is built from it, so every size is bounded when it is read, not
only the ones a schema names: a file holds at most MAX_FILE_BYTES; a text is one line (no line break or other
control character: every text lands in one table cell, code span or heading) of at most TEXT_LENGTH characters;
a list has at most LIST_LENGTH items; a float without a Between lies within FLOAT_RANGE.
"""

from __future__ import annotations

import dataclasses
import functools
import math
import re
import tomllib
import types
import typing
import unicodedata
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Generic, ParamSpec, TypeVar

T = TypeVar("T")
P = ParamSpec("P")
_READ_FROM_FILES: list[ReadFromFiles[..., Any]] = []
_reading: list[set[Path]] = []  # the data files each call of a ReadFromFiles under way has read so far, innermost last


class ReadFromFiles(Generic[P, T]):
    """functools.cache for a function whose result is read from the data files, noting which files each result
    was read from (those load() read during the call, and those of every ReadFromFiles it called, cached or not):
    reread_data(edited) forgets the results read from an edited file, and keeps the others."""

    def __init__(self, function: Callable[P, T]) -> None:
        functools.update_wrapper(self, function)
        self.__wrapped__ = function
        self._results: dict[object, tuple[T, frozenset[Path]]] = {}

    def __call__(self, *args: P.args, **kwargs: P.kwargs) -> T:
        key = (args, tuple(sorted(kwargs.items())))
        if key in self._results:
            value, read = self._results[key]
            if _reading:  # the caller's result is read from these files too
                _reading[-1].update(read)
            return value
        _reading.append(set())
        try:
            value = self.__wrapped__(*args, **kwargs)
        finally:
            read = frozenset(_reading.pop())
            if _reading:  # the caller's result is read from these files too (it may catch what this raised)
                _reading[-1].update(read)
        self._results[key] = (value, read)
        return value

    def cache_clear(self) -> None:
        self._results.clear()

    def forget(self, edited: frozenset[Path]) -> None:
        self._results = {key: kept for key, kept in self._results.items() if not kept[1] & edited}


def read_from_files(function: Callable[P, T]) -> ReadFromFiles[P, T]:
    """Cache function's results until a file they were read from is edited (reread_data)."""
    cached = ReadFromFiles(function)
    _READ_FROM_FILES.append(cached)
    return cached


def reread_data(edited: Iterable[Path] | None = None) -> None:
    """Forget what was read from the edited data files (from every file, if not told which), so that the next call
    reads it again: a preview server after a data file was edited. A model read from other files only stays, and
    so does what is cached on its arguments alone: a training run, on its settings."""
    files = None if edited is None else frozenset(Path(path).resolve() for path in edited)
    for cached in _READ_FROM_FILES:
        if files is None:
            cached.cache_clear()
        else:
            cached.forget(files)


DATA = Path(__file__).with_name("data")


@dataclass(frozen=True)
class Between:
    """A number the file may set only within [low, high]: so that data cannot ask for a run of a million steps."""

    low: float
    high: float


@dataclass(frozen=True)
class Length:
    """A list's number of items, or a text's number of characters, within [low, high]."""

    low: int
    high: int


MAX_FILE_BYTES = 1_000_000
TEXT_LENGTH = Length(0, 2000)  # a text the schema does not bound: a sampled response is the longest the book has
SAID = Length(1, TEXT_LENGTH.high)  # a text a page prints as words: a title, a question, an answer, a token
LIST_LENGTH = Length(0, 1000)  # a list the schema does not bound
FLOAT_RANGE = Between(-1e9, 1e9)  # a float the schema does not bound: far beyond any reward, rate or probability
# Line breaks and other control characters (Unicode's Cc, and the line and paragraph separators).
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")
# Unicode's format characters (Cf, as of Unicode 14.0, Python 3.11's), which a page shows as nothing: a reader does
# not see them and every check reads the text with them. A zero-width space shows 0.<U+200B>8 as 0.8, a number the
# drift guard cannot read; a control of the text's direction (U+202A-E, U+2066-9) shows a response ending
# "\boxed{56}" that the verifier reads as 65. Chapters are held to the same rule (hooks/checks.py).
INVISIBLE = re.compile(
    "[\u00ad\u0600-\u0605\u061c\u06dd\u070f\u0890\u0891\u08e2\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064"
    "\u2066-\u206f\ufeff\ufff9-\ufffb\U000110bd\U000110cd\U00013430-\U00013438\U0001bca0-\U0001bca3"
    "\U0001d173-\U0001d17a\U000e0001\U000e0020-\U000e007f]"
)
DIRECTION_CONTROLS = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"


def invisible(character: str) -> str:
    """What a format character is and does, for a message: 'the direction control U+202E (RIGHT-TO-LEFT OVERRIDE)'
    or 'the invisible character U+200B (ZERO WIDTH SPACE)'."""
    what = "the direction control" if character in DIRECTION_CONTROLS else "the invisible character"
    return f"{what} U+{ord(character):04X} ({unicodedata.name(character, 'unnamed')})"


INVISIBLE_FIX = (
    "remove it: a reader does not see it, and the book reads the text with it (a direction control shows the text in "
    "another order than it holds)"
)


@dataclass(frozen=True)
class Pattern:
    """A text (or a table's name) the file may set only in this form: `regex` must match it whole."""

    regex: str
    what: str  # the form in words, for the message


def repeated(items: Sequence[object]) -> tuple[int, int] | None:
    """(i, j), counted from 1, for the first item j that repeats an earlier item i; None when all differ. A
    schema's check names both: `cases[3].name: 'positive-above' is also the name of cases[2]`."""
    for index, item in enumerate(items):
        if item in items[:index]:
            return items.index(item) + 1, index + 1
    return None


def name_of(what: str) -> Pattern:
    """The form of a name that a page's path uses as one of its words (`easy` in easy.mean, a ppo case's name)."""
    return Pattern(r"[a-z][a-z0-9-]*", f"{what}: lower-case letters, digits and '-', from a letter")


@dataclass(frozen=True)
class Place:
    """Where in a data file a problem is: its line and column (from 1), and that line as written."""

    line: int
    column: int
    text: str


class DataError(ValueError):
    """A data file the book cannot use: one line per problem, each with the file, the line and column, the table,
    the key and the fix (`grpo_examples/data/ppo.toml:12:1: cases[2].p_old: expected a number, got 'x'`)."""

    def __init__(self, path: Path, problems: list[str], text: str = "") -> None:
        self.path, self.file, self.problems = path, display(path), problems
        self.places = [place(text, problem) for problem in problems]
        super().__init__(
            "\n".join(
                f"{self.file}:{at.line}:{at.column}: {problem}"
                for at, problem in zip(self.places, problems, strict=True)
            )
        )


def display(path: Path) -> str:
    """The file as an author names it: grpo_examples/data/ppo.toml."""
    parts = path.resolve().parts
    return "/".join(parts[parts.index("grpo_examples") :]) if "grpo_examples" in parts else str(path)


def load(path: Path, schema: type[T]) -> T:
    """The file's tables as an instance of schema; DataError listing every problem if it does not fit."""
    if _reading:  # a ReadFromFiles call under way: its result is read from this file
        _reading[-1].add(path.resolve())
    if path.is_symlink() and not path.resolve().is_relative_to(path.parent.resolve()):  # a message would quote it
        raise DataError(path, ["the file is a link to a file outside its folder: put the data itself here"])
    try:
        if path.stat().st_size > MAX_FILE_BYTES:
            raise DataError(path, [f"the file is larger than the book allows ({MAX_FILE_BYTES:,} bytes): shorten it"])
        text = path.read_text(encoding="utf-8-sig")  # a byte-order mark (some editors write one) dropped
    except FileNotFoundError:
        schema_file = schema.__module__.replace(".", "/") + ".py"  # a new chapter's: its data file is written next
        missing = f"the file is missing: write it ({schema.__name__} in {schema_file} says what it holds) or restore it"
        raise DataError(path, [missing + " (git checkout -- it)"]) from None
    except IsADirectoryError:
        raise DataError(path, ["a folder stands where this file should be: remove it, restore the file"]) from None
    except UnicodeDecodeError as error:
        raise DataError(path, [f"not UTF-8 text (byte {error.start + 1}): save it as UTF-8"]) from None
    try:
        table = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise DataError(path, [_syntax_error(text, str(error))], text) from None
    except ValueError as error:  # a whole number of more than 4300 digits (Python's limit on reading one)
        raise DataError(path, [f"the top level: not a number the book can read: {error}"[:200]], text) from None
    except RecursionError:  # tomllib reads an array or an inline table inside another by recursion
        raise DataError(path, [_too_deep(text)], text) from None
    problems: list[str] = []
    value = _convert(table, schema, "", problems)
    if problems:
        raise DataError(path, problems, text)
    return typing.cast(T, value)


TOP = "the top level"  # how a problem names the file's own table

# Where a table or a key is written: `[name]`, `[[name]]` (each one a new element), `key = value`.
_HEADER = re.compile(r"\s*\[(?P<array>\[)?\s*(?P<name>[^\[\]#]+?)\s*\]\]?\s*(?:#.*)?")
_KEY = re.compile(r"\s*(?P<key>[A-Za-z0-9_-]+|\"[^\"]*\"|'[^']*')\s*=")
_SYNTAX_AT = re.compile(r"\(at line (?P<line>\d+), column (?P<column>\d+)\)$")


def _positions(text: str) -> dict[str, tuple[int, int]]:
    """Each table and key of a TOML text, named as problems name them (`cases[2].p_old`), and where it is written."""
    positions: dict[str, tuple[int, int]] = {}
    table, arrays = "", dict[str, int]()
    for number, line in enumerate(text.splitlines(), 1):
        if header := _HEADER.fullmatch(line):
            name = ".".join(part.strip().strip("\"'") for part in header.group("name").split("."))
            if header.group("array"):
                positions.setdefault(name, (number, header.start("name") + 1))  # the array: its first element
                arrays[name] = arrays.get(name, 0) + 1
                name = f"{name}[{arrays[name]}]"
            table = name
            positions.setdefault(table, (number, header.start("name") + 1))
        elif key := _KEY.match(line):
            positions.setdefault(_join(table, key.group("key").strip("\"'")), (number, key.start("key") + 1))
    return positions


def place(text: str, problem: str) -> Place:
    """Where a problem is: for a syntax error, where tomllib stopped; else where the key or table it starts with
    is written (`cases[2].p_old: ...`, `[easy]: ...`, `the top level: epsilon: ...`, an array of tables at its first
    element), or for a key the file lacks, its table; else line 1."""
    lines = text.splitlines()
    if match := _SYNTAX_AT.search(problem):
        number, column = int(match.group("line")), int(match.group("column"))
    else:
        positions = _positions(text)
        parts = problem.split(": ")  # 'kl: pi_theta: ...' (a table's own check naming its key) is kl.pi_theta
        if parts[0] == TOP and len(parts) > 2 and parts[1] in positions:
            parts = parts[1:]  # the file's own check naming a key of the top level: 'the top level: epsilon: ...'
        at = next((a for n in range(len(parts) - 1, 1, -1) if (a := ".".join(parts[:n])) in positions), parts[0])
        if unknown := re.search(r": unknown key '([^']*)'", problem):  # the key's own line, not its table's
            at = _join(at, unknown.group(1)) if at != TOP else unknown.group(1)
        at = at[1:-1] if at.startswith("[") and at.endswith("]") else at
        while at and at not in positions:
            at = re.sub(r"(?:\[[^\]]*\]|\.[^.\[]*|^[^.\[]*)$", "", at)
        number, column = positions.get(at, (1, 1))
    return Place(number, column, lines[number - 1].strip() if 0 < number <= len(lines) else "")


def _syntax_error(text: str, error: str) -> str:
    """tomllib's message after the key written on the line where it stopped, or else the table that line is in
    (`cases[2].p_old: not valid TOML: ...`): every problem of a data file names its table and key."""
    match = _SYNTAX_AT.search(error)
    return f"{_named_at(text, int(match.group('line')) if match else 0)}: not valid TOML: {error}"


def _too_deep(text: str) -> str:
    """The problem of arrays or inline tables nested deeper than tomllib can read, at the line opening most."""
    lines = text.splitlines()
    number = 1 + max(range(len(lines)), key=lambda n: lines[n].count("[") + lines[n].count("{"), default=0)
    return (
        f"{_named_at(text, number)}: arrays or inline tables nested too deeply to read: flatten them "
        f"(at line {number}, column 1)"
    )


def _named_at(text: str, number: int) -> str:
    """The key written on line number, or else the table that line is in, or else the top level."""
    lines = text.splitlines()[:number]
    positions = _positions("\n".join(lines))
    on_line = [name for name, (line, _) in positions.items() if line == len(lines)]
    tables = [name for name, (line, _) in positions.items() if _HEADER.fullmatch(lines[line - 1])]
    return (on_line or tables or [TOP])[-1]


def _where(at: str) -> str:
    return at or TOP


def _convert(value: Any, kind: Any, at: str, problems: list[str]) -> Any:
    """value as the type kind, or None after adding what is wrong to problems."""
    bounds: Between | Pattern | Length | None = None
    if typing.get_origin(kind) is typing.Annotated:
        kind, *meta = typing.get_args(kind)
        bounds = next((m for m in meta if isinstance(m, Between | Pattern | Length)), None)
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
        length = bounds if isinstance(bounds, Length) else LIST_LENGTH
        if not length.low <= len(value) <= length.high:
            problems.append(f"{_where(at)}: {len(value)} items; the book allows {length.low} to {length.high}")
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


def _scalar(value: Any, kind: Any, at: str, bounds: Between | Pattern | Length | None, problems: list[str]) -> Any:
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
    if kind is str and _text(value, at, bounds if isinstance(bounds, Length) else TEXT_LENGTH, problems) is None:
        return None
    if kind is float and bounds is None:
        bounds = FLOAT_RANGE
    if isinstance(bounds, Between) and not bounds.low <= value <= bounds.high:
        problems.append(
            f"{_where(at)}: {value!r} is outside the range the book allows, {bounds.low:g} to {bounds.high:g}"
        )
        return None
    if isinstance(bounds, Pattern) and not re.fullmatch(bounds.regex, value):
        problems.append(f"{_where(at)}: {value!r} is not {bounds.what}: rename it")
        return None
    return float(value) if kind is float else value


def _text(value: str, at: str, length: Length, problems: list[str]) -> str | None:
    """A text that holds one line of at most length.high characters (so that it cannot leave the table cell,
    code span or heading it is shown in), else None and a problem."""
    if control := _CONTROL.search(value):
        line_break = control.group() in "\n\r\u2028\u2029"
        what = "a line break" if line_break else f"the control character {control.group()!r}"
        fix = "write the text on one line" if line_break else "remove it, or write a space in its place"
        problems.append(f"{_where(at)}: {what} at character {control.start() + 1}: {fix}")
        return None
    if hidden := INVISIBLE.search(value):
        problems.append(f"{_where(at)}: {invisible(hidden.group())} at character {hidden.start() + 1}: {INVISIBLE_FIX}")
        return None
    if not length.low <= len(value) <= length.high:
        problems.append(f"{_where(at)}: {len(value)} characters; the book allows {length.low} to {length.high}")
        return None
    return value


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
