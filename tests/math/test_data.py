"""The typed loader, grpo_examples.data.load: what it converts, and how it names every problem of a file.

Each problem is one line, `<file>: <table/key path>: <what is wrong and what to do>`, and a file with several
problems reports them all at once. The schemas below are small dataclasses written for these tests; the
chapters' own Settings are loaded from edited copies of the shipped data files.
"""

from __future__ import annotations

import dataclasses
import re
import shutil
import sys
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Annotated

import pytest

import grpo_examples as gx
from grpo_examples.chapters import bandit, ppo, practice, run, verifier
from grpo_examples.data import DATA, INVISIBLE, INVISIBLE_FIX, MAX_FILE_BYTES, Between, DataError, Length, Place, load

CHAPTERS: dict[str, ModuleType] = {
    "bandit": bandit,
    "ppo": ppo,
    "practice": practice,
    "run": run,
    "verifier": verifier,
}


# ---------------------------------------------------------------- a schema that uses every type the loader knows


@dataclass(frozen=True)
class Point:
    """A table inside the file."""

    x: float
    y: float


@dataclass(frozen=True)
class Pair:
    """A list that must hold exactly two numbers: the type cannot say so, __post_init__ does."""

    values: tuple[float, ...]

    def __post_init__(self) -> None:
        if len(self.values) != 2:
            raise ValueError(f"values: needs exactly two numbers, got {len(self.values)}")


@dataclass(frozen=True)
class Everything:
    name: str
    count: int
    share: float
    enabled: bool
    tags: tuple[str, ...]
    steps: Annotated[int, Between(1, 10)]
    rate: Annotated[float, Between(0, 1)]
    sizes: tuple[Annotated[int, Between(1, 100)], ...]
    weights: Mapping[str, float]
    limits: dict[str, int]
    origin: Point
    pair: Pair
    points: tuple[Point, ...]
    note: str | None = None


KEYS = "name, count, share, enabled, tags, steps, rate, sizes, weights, limits, origin, pair, points, note"

EVERYTHING = """\
name = "demo"
count = 3
share = 1
enabled = true
tags = ["a", "b"]
steps = 10
rate = 0
sizes = [1, 100]

[weights]
first = 0.5
second = 2

[limits]
low = 1

[origin]
x = 0
y = -1.5

[pair]
values = [1, 2.5]

[[points]]
x = 1
y = 2

[[points]]
x = 3.5
y = 4
"""


def edited(text: str, old: str, new: str, occurrence: int = 1) -> str:
    """text with the occurrence-th `old` (counted from 1) replaced by `new`; fails if there is no such one."""
    parts = text.split(old)
    assert len(parts) > occurrence, f"{old!r} occurs fewer than {occurrence} times"
    return old.join(parts[:occurrence]) + new + old.join(parts[occurrence:])


def write(folder: Path, text: str, name: str = "settings.toml") -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def problems_of(path: Path, schema: type) -> list[str]:
    """The lines of the DataError that loading the file raises, checking that each names the file."""
    with pytest.raises(DataError) as caught:
        load(path, schema)
    assert caught.value.path == path
    lines = str(caught.value).split("\n")
    assert len(lines) == len(caught.value.problems)
    for line, at, problem in zip(lines, caught.value.places, caught.value.problems, strict=True):
        assert line == f"{path}:{at.line}:{at.column}: {problem}"
    return caught.value.problems


# ---------------------------------------------------------------- what it converts


def test_every_type_is_converted(tmp_path: Path) -> None:
    loaded = load(write(tmp_path, EVERYTHING), Everything)
    assert loaded == Everything(
        name="demo",
        count=3,
        share=1.0,
        enabled=True,
        tags=("a", "b"),
        steps=10,
        rate=0.0,
        sizes=(1, 100),
        weights={"first": 0.5, "second": 2.0},
        limits={"low": 1},
        origin=Point(0.0, -1.5),
        pair=Pair((1.0, 2.5)),
        points=(Point(1.0, 2.0), Point(3.5, 4.0)),
        note=None,
    )
    # A whole number written where a number is expected is read as a float, so that arithmetic stays float.
    assert type(loaded.share) is float and type(loaded.rate) is float and type(loaded.weights["second"]) is float
    assert type(loaded.origin.x) is float and type(loaded.pair.values[0]) is float
    assert type(loaded.count) is int and type(loaded.steps) is int
    # Lists become tuples, so that the settings are frozen all the way down and can be cached on.
    assert isinstance(loaded.tags, tuple) and isinstance(loaded.points, tuple)
    with pytest.raises(dataclasses.FrozenInstanceError):
        loaded.count = 4  # type: ignore[misc]


def test_an_optional_key_may_be_written_or_left_out(tmp_path: Path) -> None:
    written = load(
        write(tmp_path, edited(EVERYTHING, 'name = "demo"\n', 'name = "demo"\nnote = "hello"\n')), Everything
    )
    assert written.note == "hello"
    assert load(write(tmp_path, EVERYTHING), Everything).note is None


def test_the_ends_of_a_range_are_allowed(tmp_path: Path) -> None:
    # steps = 10 and sizes 1 and 100 are already the ends; here the other ends of steps and rate.
    text = edited(edited(EVERYTHING, "steps = 10", "steps = 1"), "rate = 0", "rate = 1.0")
    loaded = load(write(tmp_path, text), Everything)
    assert (loaded.steps, loaded.rate) == (1, 1.0)


# ---------------------------------------------------------------- each problem: its file, its key, the fix


@pytest.mark.parametrize(
    ("old", "new", "problem"),
    [
        ("count = 3\n", "", "the top level: missing key 'count': add it"),
        ("[origin]\nx = 0\n", "[origin]\n", "origin: missing key 'x': add it"),
        (
            'name = "demo"\n',
            'name = "demo"\ncolour = "red"\n',
            f"the top level: unknown key 'colour' (the keys are {KEYS}): remove or rename it",
        ),
        ("y = -1.5\n", "y = -1.5\nz = 0\n", "origin: unknown key 'z' (the keys are x, y): remove or rename it"),
        ("share = 1", 'share = "half"', "share: expected a number, got 'half'"),
        ("share = 1", "share = true", "share: expected a number, got True"),
        ("count = 3", "count = true", "count: expected a whole number, got True"),
        ("count = 3", "count = 3.0", "count: expected a whole number, got 3.0"),
        ("enabled = true", "enabled = 1", "enabled: expected true or false, got 1"),
        ('name = "demo"', "name = 5", "name: expected text, got 5"),
        ('tags = ["a", "b"]', 'tags = ["a", 2]', "tags[2]: expected text, got 2"),
        ('tags = ["a", "b"]', 'tags = "a, b"', "tags: expected a list, got 'a, b'"),
        ("second = 2", 'second = "two"', "weights.second: expected a number, got 'two'"),
        ("low = 1", "low = 1.5", "limits.low: expected a whole number, got 1.5"),
        ("[limits]\nlow = 1\n", "", "the top level: missing key 'limits': add it"),
        ("y = 4", 'y = "four"', "points[2].y: expected a number, got 'four'"),
        (
            "[[points]]\nx = 1\ny = 2\n\n[[points]]\nx = 3.5\ny = 4\n",
            "[points]\nx = 1\ny = 2\n",
            "points: expected a list, got {'x': 1, 'y': 2}",
        ),
        ("steps = 10", "steps = 11", "steps: 11 is outside the range the book allows, 1 to 10"),
        ("steps = 10", "steps = 0", "steps: 0 is outside the range the book allows, 1 to 10"),
        ("rate = 0", "rate = 1.5", "rate: 1.5 is outside the range the book allows, 0 to 1"),
        ("rate = 0", "rate = -0.1", "rate: -0.1 is outside the range the book allows, 0 to 1"),
        ("sizes = [1, 100]", "sizes = [1, 101]", "sizes[2]: 101 is outside the range the book allows, 1 to 100"),
        ("values = [1, 2.5]", "values = [1, 2.5, 3]", "pair: values: needs exactly two numbers, got 3"),
    ],
    ids=lambda value: value if isinstance(value, str) and len(value) < 30 else None,
)
def test_a_problem_is_named_with_its_file_key_and_fix(tmp_path: Path, old: str, new: str, problem: str) -> None:
    path = write(tmp_path, edited(EVERYTHING, old, new))
    assert problems_of(path, Everything) == [problem]


def test_a_toml_syntax_error_gives_the_line_and_column(tmp_path: Path) -> None:
    path = write(tmp_path, edited(EVERYTHING, "count = 3", "count = = 3"))  # line 2
    [problem] = problems_of(path, Everything)
    assert problem.startswith("count: not valid TOML: ")  # the key being written where the parser stopped
    assert problem.endswith("(at line 2, column 9)")
    with pytest.raises(DataError) as caught:
        load(path, Everything)
    assert caught.value.places[0] == Place(2, 9, "count = = 3")


def test_a_file_saved_with_a_byte_order_mark_is_read(tmp_path: Path) -> None:
    # some editors save UTF-8 with one; tomllib read it as "Invalid statement (at line 1, column 1)"
    path = tmp_path / "settings.toml"
    path.write_bytes(b"\xef\xbb\xbf" + EVERYTHING.encode("utf-8"))
    assert load(path, Everything).count == 3


def test_a_missing_file_says_to_write_or_restore_it(tmp_path: Path) -> None:
    # a new chapter's module without its data file was told to restore a file it never had
    [problem] = problems_of(tmp_path / "gone.toml", Everything)
    assert problem == (
        "the file is missing: write it (Everything in tests/math/test_data.py says what it holds) "
        "or restore it (git checkout -- it)"
    )


def test_a_data_file_that_links_out_of_its_folder_is_refused_unread(tmp_path: Path) -> None:
    # a TOML error quotes the line where the parser stopped: a link to a secret would put its first line in CI's log
    secret = tmp_path / "secret"
    secret.write_text("key-1234 not TOML\n", encoding="utf-8")
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "ppo.toml").symlink_to(secret)
    with pytest.raises(DataError) as caught:
        load(tmp_path / "data" / "ppo.toml", Everything)
    assert caught.value.problems == ["the file is a link to a file outside its folder: put the data itself here"]
    assert "key-1234" not in str(caught.value)
    (tmp_path / "data" / "same.toml").symlink_to(write(tmp_path / "data", EVERYTHING))  # within the folder: read
    assert load(tmp_path / "data" / "same.toml", Everything).count == 3


def test_every_problem_of_a_file_is_reported_at_once(tmp_path: Path) -> None:
    text = EVERYTHING
    for old, new in [
        ("count = 3\n", ""),
        ('name = "demo"\n', 'name = "demo"\ncolour = "red"\n'),
        ("share = 1", "share = true"),
        ("steps = 10", "steps = 11"),
        ("y = 4", 'y = "four"'),
        ("values = [1, 2.5]", "values = [1]"),
    ]:
        text = edited(text, old, new)
    problems = problems_of(write(tmp_path, text), Everything)
    assert sorted(problems) == sorted(
        [
            "the top level: missing key 'count': add it",
            f"the top level: unknown key 'colour' (the keys are {KEYS}): remove or rename it",
            "share: expected a number, got True",
            "steps: 11 is outside the range the book allows, 1 to 10",
            "points[2].y: expected a number, got 'four'",
            "pair: values: needs exactly two numbers, got 1",
        ]
    )


def test_each_problem_is_placed_at_the_line_and_column_of_its_key(tmp_path: Path) -> None:
    # EVERYTHING's lines, counted by hand: 6 steps, 15 low (in [limits]), 19 y (in [origin]), 22 values (in
    # [pair]), 30 the second [[points]]'s y; the added colour line moves the points one line down.
    text = edited(EVERYTHING, "y = -1.5", "  y = true")
    text = edited(text, "steps = 10", "steps = 11")
    text = edited(text, "values = [1, 2.5]", "values = [1, 2.5]\ncolour = 2")
    text = edited(text, "y = 4", 'y = "four"')
    text = edited(text, "[limits]\nlow = 1", "[limits]\nlow = 1.5")
    text = edited(text, 'name = "demo"\n', "")  # a missing key: placed at its table, here the top of the file
    with pytest.raises(DataError) as caught:
        load(write(tmp_path, text), Everything)
    placed = [(at.line, at.column, at.text) for at in caught.value.places]
    assert sorted(zip(placed, [p.split(":")[0] for p in caught.value.problems], strict=True)) == [
        ((1, 1, "count = 3"), "the top level"),
        ((5, 1, "steps = 11"), "steps"),
        ((14, 1, "low = 1.5"), "limits.low"),
        ((18, 3, "y = true"), "origin.y"),
        ((22, 1, "colour = 2"), "pair"),  # an unknown key, at its own line
        ((30, 1, 'y = "four"'), "points[2].y"),
    ]


def test_a_data_error_is_a_value_error() -> None:
    # Callers that catch ValueError (as for any bad input) catch the loader's errors too.
    assert issubclass(DataError, ValueError)


# ---------------------------------------------------------------- the chapters' own Settings


@pytest.mark.parametrize("name", sorted(CHAPTERS))
def test_every_shipped_data_file_fits_its_chapter(name: str) -> None:
    module = CHAPTERS[name]
    settings = load(DATA / f"{name}.toml", module.Settings)
    assert isinstance(settings, module.Settings)
    first = dataclasses.fields(settings)[0].name
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(settings, first, getattr(settings, first))


def test_the_chapters_listed_here_are_the_books() -> None:
    assert sorted(CHAPTERS) == list(gx.chapter_names())


def test_a_file_inside_the_book_is_named_as_an_author_names_it(tmp_path: Path) -> None:
    # The architecture's own example: the second case's p_old written as text.
    folder = tmp_path / "grpo_examples" / "data"
    folder.mkdir(parents=True)
    shutil.copy(DATA / "ppo.toml", folder / "ppo.toml")
    path = folder / "ppo.toml"
    path.write_text(edited(path.read_text(encoding="utf-8"), "p_old = 0.2", 'p_old = "x"', 2), encoding="utf-8")
    with pytest.raises(DataError) as caught:
        load(path, ppo.Settings)
    assert str(caught.value) == "grpo_examples/data/ppo.toml:18:1: cases[2].p_old: expected a number, got 'x'"


def chapter_copy(folder: Path, name: str, changes: list[tuple[str, str]]) -> Path:
    """A copy of grpo_examples/data/<name>.toml with each (old, new) applied once."""
    text = (DATA / f"{name}.toml").read_text(encoding="utf-8")
    for old, new in changes:
        text = edited(text, old, new)
    return write(folder, text, f"{name}.toml")


@pytest.mark.parametrize(
    ("name", "changes", "problem"),
    [
        (
            "ppo",
            [("values = [0.5, 0.4, 0.7, 0.9, 0.0]", "values = [0.5, 0.4, 0.7, 0.9]")],
            "gae: needs one reward per token, and one value more than there are tokens",
        ),
        (
            "ppo",
            [("advantages = [2.0, -1.0]", "advantages = [2.0]")],
            "plot: advantages: the plot draws two curves, a positive advantage then a negative one",
        ),
        (
            "ppo",
            [("epsilon = 0.2", "epsilon = 1.5")],
            "the top level: epsilon: the clip range must lie in (0, 1), got 1.5",
        ),
        (
            "ppo",
            [('name = "positive-below"', 'name = "positive-above"')],
            "the top level: cases[3].name: 'positive-above' is also the name of cases[2]: rename one",
        ),
        ("bandit", [('question = "', 'question = "" # ')], "question: 0 characters; the book allows 1 to 2000"),
        # A case's name is a word of a page's path (ppo.cases.positive-above.ratio): one with a '.' could not be named.
        (
            "ppo",
            [('name = "positive-above"', 'name = "positive.above"')],
            "cases[2].name: 'positive.above' is not a case's name: lower-case letters, digits and '-', from a letter:"
            " rename it",
        ),
        # Texts a page prints: empty, the prose read 'after “” the policy gives ...' and the build passed.
        ("practice", [('context = "7 × 8 ="', 'context = ""')], "kl.context: 0 characters; the book allows 1 to 2000"),
        ("practice", [('"54",', '"",')], "kl.tokens[2]: 0 characters; the book allows 1 to 2000"),
        ("ppo", [('" = 56"', '""')], "gae.tokens[3]: 0 characters; the book allows 1 to 2000"),
        (
            "ppo",
            [('name = "weights (16-bit)"', 'name = ""')],
            "memory.parts[1].name: 0 characters; the book allows 1 to 2000",
        ),
        # Two candidates with one token: a distribution over the vocabulary names each token once.
        ("practice", [('"54",', '"56",')], "kl: tokens: '56' is token 1 and token 2: write each candidate once"),
        ("ppo", [("bytes = 2", "bytes = 0")], "memory.parts[1].bytes: 0 is outside the range the book allows, 1 to 64"),
        ("ppo", [("lam = 0.95", "lam = true")], "gae.lam: expected a number, got True"),
        (
            "practice",
            [("lengths = [5, 20]", "lengths = [5]")],
            "loss: needs two responses: one right (reward 1) and one wrong (reward 0), with a length each",
        ),
        (
            "practice",
            [('tokens = ["56", "54", "48", "15"]', 'tokens = ["56", "54", "48"]')],
            "kl: needs one pi_theta and one pi_ref per token",
        ),
        (
            "practice",
            [("lengths = [5, 20]", "lengths = [5, 0]")],
            "loss.lengths[2]: 0 is outside the range the book allows, 1 to 100000",
        ),
        ("practice", [("samples = 1000", "samples = 1000.0")], "kl.samples: expected a whole number, got 1000.0"),
        ("verifier", [("spellings = [", "spellings = [3, ")], "spellings[1]: expected text, got 3"),
        (
            "bandit",
            [("batches = 2000", "batches = 200000")],
            "batches: 200000 is outside the range the book allows, 2 to 100000",
        ),
    ],
)
def test_a_broken_chapter_file_is_refused_with_the_key(
    tmp_path: Path, name: str, changes: list[tuple[str, str]], problem: str
) -> None:
    path = chapter_copy(tmp_path, name, changes)
    assert problem in problems_of(path, CHAPTERS[name].Settings)


@pytest.mark.parametrize(
    ("name", "changes", "line"),
    [
        # A check of the file's own (Settings.__post_init__) that names a key of the top level: that key's line,
        # not line 1 (the file's opening comment).
        ("ppo", [("epsilon = 0.2", "epsilon = 1.5")], 4),
        # The second of two cases with one name: its name's line (ppo.toml's third [[cases]], hand-counted).
        ("ppo", [('name = "positive-below"', 'name = "positive-above"')], 22),
        # A check that names an array of tables: its first element.
        ("bandit", [("probability = 0.3", "probability = 0.35")], "[[candidates]]"),
        # A table's own check naming its key: that key's line.
        ("practice", [('"54",', '"56",')], 'tokens = ["56", "56", "48", "15"]'),
    ],
)
def test_a_chapter_files_own_check_is_placed_at_the_key_it_names(
    tmp_path: Path, name: str, changes: list[tuple[str, str]], line: int | str
) -> None:
    path = chapter_copy(tmp_path, name, changes)
    with pytest.raises(DataError) as caught:
        load(path, CHAPTERS[name].Settings)
    [place] = caught.value.places
    lines = path.read_text(encoding="utf-8").splitlines()
    expected = line if isinstance(line, int) else lines.index(line) + 1
    assert (place.line, place.text) == (expected, lines[expected - 1].strip()), caught.value.problems


def test_every_problem_of_a_chapter_file_is_reported_at_once(tmp_path: Path) -> None:
    changes = [
        ("p_new = 0.22", 'p_new = "x"'),  # the first case
        ("p_new = 0.12", "p_new = 1.2"),  # the third case, positive-below: its own check refuses it
        ("lam = 0.95", "lam = true"),
        ("critic_parameters = 7_000_000_000", "critic_parameters = 0"),
        ("ratio_max = 2.0", "ratio_max = 2.0\ncolour = 1"),
    ]
    problems = problems_of(chapter_copy(tmp_path, "ppo", changes), ppo.Settings)
    assert sorted(problems) == [
        "cases[1].p_new: expected a number, got 'x'",
        "cases[3]: case 'positive-below' needs probabilities p_old and p_new in (0, 1]",
        "gae.lam: expected a number, got True",
        "memory.critic_parameters: 0 is outside the range the book allows, 1 to 1e+13",
        "plot: unknown key 'colour' (the keys are advantages, ratio_max): remove or rename it",
    ]


# The loader accepts these files, and the chapter's build then stops on a ValueError from numpy or from a math
# module, which names neither the file nor the key: the problem should be a DataError like every other.
BUILD_ONLY_PROBLEMS = [
    pytest.param(
        "practice",
        [("pi_theta = [0.8, 0.1, 0.05, 0.05]", "pi_theta = [0.8, 0.1, 0.05, 0.06]")],
        "kl",
        id="practice-pi-theta-not-adding-up-to-1",
    ),
    pytest.param(
        "practice",
        [("probabilities = [0.01, 0.9]", "probabilities = [0.0, 0.9]")],
        "clip",
        id="practice-clip-probability-0",
    ),
    pytest.param(
        "practice", [("lengths = [5, 20]", "lengths = [5, 60]")], "loss", id="practice-response-longer-than-L"
    ),
    pytest.param("practice", [("seed = 0", "seed = -1")], "kl.seed", id="practice-negative-seed"),
    pytest.param("bandit", [("seed = 0 ", "seed = -1 ")], "seed", id="bandit-negative-seed"),
    pytest.param("run", [("seed = 0 ", "seed = -1 ")], "seed", id="run-negative-seed"),
]


@pytest.mark.parametrize(("name", "changes", "key"), BUILD_ONLY_PROBLEMS)
def test_a_file_the_chapter_cannot_compute_is_refused_with_the_key(
    tmp_path: Path, name: str, changes: list[tuple[str, str]], key: str
) -> None:
    module = CHAPTERS[name]
    path = chapter_copy(tmp_path, name, changes)
    with pytest.raises(ValueError) as caught:
        module.build(load(path, module.Settings))
    assert isinstance(caught.value, DataError), f"{type(caught.value).__name__}: {caught.value}"
    assert re.match(rf"{re.escape(str(path))}:\d+:\d+: {re.escape(key)}", str(caught.value))


# ---------------------------------------------------------------- the sizes data may set (data comes from strangers)


@pytest.mark.parametrize(
    ("old", "new", "problem"),
    [
        # a line break would take a text out of the table cell or code span it is shown in (issue 21)
        ('name = "demo"', 'name = "de\\nmo"', "name: a line break at character 3: write the text on one line"),
        ('name = "demo"', 'name = """de\nmo"""', "name: a line break at character 3: write the text on one line"),
        ('name = "demo"', 'name = "de\\rmo"', "name: a line break at character 3: write the text on one line"),
        ('name = "demo"', 'name = "de\\u2028mo"', "name: a line break at character 3: write the text on one line"),
        (
            'tags = ["a", "b"]',
            'tags = ["a", "b\\tc"]',
            "tags[2]: the control character '\\t' at character 2: remove it, or write a space in its place",
        ),
        (  # shown as "... 56", read by the verifier as 65: the order a page shows is not the order the book reads
            'name = "demo"',
            'name = "de \\u202e65\\u202c"',
            f"name: the direction control U+202E (RIGHT-TO-LEFT OVERRIDE) at character 4: {INVISIBLE_FIX}",
        ),
        (  # "\boxed{5<ZWSP>6}" looks like 56 to a reader, and is no number to the verifier
            'name = "demo"',
            'name = "5\\u200b6"',
            f"name: the invisible character U+200B (ZERO WIDTH SPACE) at character 2: {INVISIBLE_FIX}",
        ),
        ('name = "demo"', f'name = "{"x" * 2001}"', "name: 2001 characters; the book allows 0 to 2000"),
        ('tags = ["a", "b"]', f"tags = [{', '.join(['1'] * 1001)}]", "tags: 1001 items; the book allows 0 to 1000"),
        ("share = 1", "share = 1e10", "share: 10000000000.0 is outside the range the book allows, -1e+09 to 1e+09"),
        ("count = 3", f"count = {'9' * 5000}", None),  # more digits than Python reads: a message, not a traceback
        (  # tomllib reads each nested array by recursion: a RecursionError's traceback
            'tags = ["a", "b"]',
            "tags = " + "[" * 5000 + "]" * 5000,
            "tags: arrays or inline tables nested too deeply to read: flatten them (at line 5, column 1)",
        ),
    ],
    ids=[
        "newline",
        "multi-line string",
        "carriage return",
        "line separator",
        "tab",
        "right-to-left override",
        "zero-width space",
        "long text",
        "long list",
        "huge float",
        "5000 digits",
        "nested 5000 deep",
    ],
)
def test_every_text_list_and_number_is_bounded(tmp_path: Path, old: str, new: str, problem: str | None) -> None:
    path = write(tmp_path, edited(EVERYTHING, old, new))
    found = problems_of(path, Everything)
    if problem is None:
        assert len(found) == 1 and "not a number the book can read" in found[0] and "4300" in found[0]
    else:
        assert found == [problem]


@dataclass(frozen=True)
class Short:
    words: Annotated[tuple[Annotated[str, Length(1, 3)], ...], Length(1, 2)]


def test_a_schema_sets_its_own_length(tmp_path: Path) -> None:
    assert load(write(tmp_path, 'words = ["abc", "d"]'), Short) == Short(("abc", "d"))
    path = write(tmp_path, 'words = ["abcd", "", "e"]')
    assert problems_of(path, Short) == ["words: 3 items; the book allows 1 to 2"]
    path = write(tmp_path, 'words = ["abcd", ""]')
    assert problems_of(path, Short) == [
        "words[1]: 4 characters; the book allows 1 to 3",
        "words[2]: 0 characters; the book allows 1 to 3",
    ]


def test_a_file_too_large_is_refused_before_it_is_read(tmp_path: Path) -> None:
    path = write(tmp_path, EVERYTHING + "# " + "x" * MAX_FILE_BYTES + "\n")
    assert problems_of(path, Everything) == [
        f"the file is larger than the book allows ({MAX_FILE_BYTES:,} bytes): shorten it"
    ]


def test_a_folder_where_the_file_should_be_is_named(tmp_path: Path) -> None:
    (tmp_path / "settings.toml").mkdir()
    assert problems_of(tmp_path / "settings.toml", Everything) == [
        "a folder stands where this file should be: remove it, restore the file"
    ]


def test_a_group_holds_one_to_sixty_four_responses(tmp_path: Path) -> None:
    from grpo_examples.group import GroupData

    group = 'title = "t"\nquestion = "q"\nanswer = "1"\nresponses = [{}]\n'
    assert problems_of(write(tmp_path, group.format("")), GroupData) == ["responses: 0 items; the book allows 1 to 64"]
    many = ", ".join(['"\\\\boxed{1}"'] * 65)
    assert problems_of(write(tmp_path, group.format(many)), GroupData) == [
        "responses: 65 items; the book allows 1 to 64"
    ]


def test_the_invisible_characters_are_unicodes_format_characters() -> None:
    # INVISIBLE is written out (building it from unicodedata at import would read 1.1 million characters); it must
    # be every Cf character of the Unicode this Python knows, and nothing else: a new Python would say if it grew
    every = "".join(chr(code) for code in range(sys.maxunicode + 1))
    found = {match.group() for match in INVISIBLE.finditer(every)}
    assert found == {character for character in every if unicodedata.category(character) == "Cf"}


def test_rereading_an_edited_file_forgets_only_what_was_read_from_it() -> None:
    # `make serve` after an edit of one data file: the models read from other files are kept, not computed again
    gx.reread_data()
    easy = gx.group("easy")  # cached first: the practice chapter reads it from the cache, and depends on groups.toml
    ppo_model, practice_model, bandit_model = gx.chapter("ppo"), gx.chapter("practice"), gx.chapter("bandit")

    gx.reread_data([gx.chapter_file("ppo")])
    assert gx.chapter("ppo") is not ppo_model
    assert gx.chapter("practice") is practice_model and gx.chapter("bandit") is bandit_model
    assert gx.group("easy") is easy

    gx.reread_data([gx.GROUPS_FILE])
    assert gx.group("easy") is not easy
    assert gx.chapter("practice") is not practice_model  # it reads the groups
    assert gx.chapter("bandit") is bandit_model

    bandit_model = gx.chapter("bandit")
    gx.reread_data()  # not told which: every file
    assert gx.chapter("bandit") is not bandit_model
