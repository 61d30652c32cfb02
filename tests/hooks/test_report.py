"""The build's report (hooks/engine/report.py): every problem once, sorted, with what a data problem breaks."""

from __future__ import annotations

from hooks.engine.report import LONGEST, Problem, Report
from hooks.site.error_overlay import overlay

DATA = Problem("grpo_examples/data/ppo.toml", 4, 1, "epsilon: expected a number, got 'wide'", 'epsilon = "wide"')


def test_problems_are_sorted_by_file_line_and_column_and_kept_in_order_on_a_line() -> None:
    report = Report()
    report.add(DATA)
    report.add(Problem("docs/ppo.md", 12, 0, "second on line 12", "<!-- b -->"))
    report.add(Problem("docs/grpo.md", 30, 5, "typed number", "0.8"))
    report.add(Problem("docs/ppo.md", 12, 0, "first on line 12, found after", "<!-- a -->"))
    report.add(Problem("docs/grpo.md", 3, 0, "a slip", "<!-- grpo:value eazy.mean -->"))
    order = [(p.file, p.line, p.message) for p, _ in report.problems()]
    assert order == [
        ("docs/grpo.md", 3, "a slip"),
        ("docs/grpo.md", 30, "typed number"),
        ("docs/ppo.md", 12, "second on line 12"),  # added first: on one line, the order found is kept
        ("docs/ppo.md", 12, "first on line 12, found after"),
        ("grpo_examples/data/ppo.toml", 4, "epsilon: expected a number, got 'wide'"),
    ]
    assert report.count() == "5 problems in 3 files"


def test_a_data_problem_is_reported_once_with_every_place_it_breaks() -> None:
    report = Report()
    for place in [("docs/ppo.md", 20), ("docs/first.md", 7), ("docs/ppo.md", 9), ("docs/ppo.md", 20)]:
        report.add(DATA, place)
    report.add(DATA)  # the data check finds it too, breaking nothing more
    assert report.text().splitlines() == [
        "grpo_examples/data/ppo.toml:4:1: epsilon: expected a number, got 'wide'",
        '    epsilon = "wide"',
        "    this breaks 3 places of the book:",
        "      docs/first.md: line 7",
        "      docs/ppo.md: lines 9, 20",
        "1 problem in 1 file",
    ]


def test_a_problem_without_a_column_or_a_text_is_printed_without_them() -> None:
    report = Report()
    report.add(Problem("docs/notes.txt", 1, 0, "not a page of the book", ""))
    assert report.text() == "docs/notes.txt:1: not a page of the book\n1 problem in 1 file"
    assert len(Report()) == 0


def test_a_long_line_is_shown_around_the_problem_cut_where_it_is_cut() -> None:
    # a 6,000-character line of a data file was printed whole, in the terminal and over every page
    line = "context = " + '"' + "word " * 1000 + "BAD" + " more" * 200 + '"'
    column = line.index("BAD") + 1
    report = Report()
    report.add(Problem("grpo_examples/data/practice.toml", 3, column, "context: a bad word", line))
    report.add(Problem("docs/ppo.md", 2, 0, "no column", "x" * 1000))
    text = report.text().splitlines()
    start, around = text[1], text[3]  # sorted: docs/ before grpo_examples/
    assert around.startswith("    …word word") and around.endswith("…") and " more mo" in around, around
    assert len(around) == len("    ") + LONGEST + 2 and LONGEST // 3 < around.index("BAD") < 2 * LONGEST // 3
    assert start == "    " + "x" * LONGEST + "…"  # no column: from the start
    assert line not in overlay(report) and around.strip() in overlay(report)  # the overlay shows the same cut


def test_a_line_that_fits_is_shown_whole_and_a_text_keeps_its_lines() -> None:
    report = Report()
    report.add(Problem("docs/grpo.md", 5, 0, "KaTeX cannot render this formula", "\n  \\frac{1}{\n  x\n"))
    report.add(Problem("docs/grpo.md", 9, 3, "a line as long as may be", "y" * LONGEST))
    assert report.text().splitlines()[1:3] == ["    \\frac{1}{", "      x"]
    assert report.text().splitlines()[4] == "    " + "y" * LONGEST
