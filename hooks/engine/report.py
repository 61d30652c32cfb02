"""Every problem of a build, from every page and every data file, reported once and in order.

The build (hooks/events.py) and `make check` (scripts/check_chapters.py) add each problem they find here and
print the report once, at the end: sorted by file, line and column, each with the text as written and the
fix, then a count. A problem in a data file is one problem, however many placeholders it breaks: it is
reported at its own line, with the places it breaks listed under it.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Problem:
    """One mistake: where it is (column 0 when only the line is known), what is wrong and the fix, as written."""

    file: str
    line: int
    column: int
    message: str
    offending: str


@dataclass
class Report:
    """The problems found so far, each with the places (file, line) it breaks, if it is not where it shows."""

    _breaks: dict[Problem, set[tuple[str, int]]] = field(default_factory=dict)

    def add(self, problem: Problem, breaks: tuple[str, int] | None = None) -> None:
        self._breaks.setdefault(problem, set())
        if breaks is not None:
            self._breaks[problem].add(breaks)

    def __len__(self) -> int:
        return len(self._breaks)

    def merge(self, other: Report) -> None:
        """Every problem of other into this report (a page's own report into the build's)."""
        for problem, breaks in other._breaks.items():
            self._breaks.setdefault(problem, set()).update(breaks)

    def problems(self) -> list[tuple[Problem, list[tuple[str, int]]]]:
        """Every problem in order of file, line and column (on one line, in the order found: left to right),
        with the places it breaks in order too."""
        found = {problem: index for index, problem in enumerate(self._breaks)}
        ordered = sorted(self._breaks, key=lambda p: (p.file, p.line, p.column, found[p]))
        return [(problem, sorted(self._breaks[problem])) for problem in ordered]

    def files(self) -> list[str]:
        return sorted({problem.file for problem in self._breaks})

    def count(self) -> str:
        """`3 problems in 2 files`."""
        problems, files = len(self), len(self.files())
        return f"{problems} problem{'s' * (problems != 1)} in {files} file{'s' * (files != 1)}"

    def text(self) -> str:
        """The report as a terminal shows it: `file:line:column: message`, the text under it, then the count."""
        lines: list[str] = []
        for problem, breaks in self.problems():
            lines.append(f"{where(problem)}: {problem.message}")
            lines += [f"    {line}" for line in shown(problem)]
            if breaks:
                lines.append(f"    this breaks {len(breaks)} place{'s' * (len(breaks) != 1)} of the book:")
                lines += [f"      {file}: {lines_of(numbers)}" for file, numbers in by_file(breaks).items()]
        return "\n".join([*lines, self.count()])


LONGEST = 160  # characters of a line of offending text a report shows: a 6,000-character line floods a terminal


def shown(problem: Problem) -> list[str]:
    """The offending text as a report shows it, line by line, without the white space around it. A line longer than
    LONGEST is cut to that many characters around the problem's column, or from its start when it has none (a
    long text is a whole line, of a data file or a front matter); `…` stands where it is cut."""
    text = problem.offending.strip()
    return [_around(line, problem.column) for line in text.split("\n")] if text else []


def _around(line: str, column: int) -> str:
    if len(line) <= LONGEST:
        return line
    centre = column - 1 if 0 < column <= len(line) else 0
    start = max(0, min(centre - LONGEST // 2, len(line) - LONGEST))
    end = start + LONGEST
    return ("…" if start else "") + line[start:end] + ("…" if end < len(line) else "")


def where(problem: Problem) -> str:
    """`docs/grpo.md:12:5`, or `docs/grpo.md:12` when the column is not known."""
    return f"{problem.file}:{problem.line}" + (f":{problem.column}" if problem.column else "")


def by_file(places: list[tuple[str, int]]) -> dict[str, list[int]]:
    """The lines of each file, in order: {'docs/ppo.md': [9, 11]}."""
    files: dict[str, list[int]] = {}
    for file, line in sorted(places):
        files.setdefault(file, []).append(line)
    return files


def lines_of(numbers: list[int]) -> str:
    """`line 7` or `lines 9, 11, 13`."""
    return f"line{'s' * (len(numbers) != 1)} {', '.join(map(str, numbers))}"
