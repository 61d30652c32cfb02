"""The slips an author makes, each appended to a real chapter and run through the page hook (as `mkdocs build`
runs it) and through `scripts/check_chapters.py`: each fails, names the file and line, and says what to write.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from mkdocs.utils.meta import get_data

import grpo_examples
from hooks import checks
from hooks.engine.report import Report
from tests.chapter_pipeline import PluginError, page_markdown
from tests.conftest import ROOT, copy_project

CHECK = [sys.executable, str(ROOT / "scripts" / "check_chapters.py")]

# (the line appended to the chapter, what the message must say)
SLIPS = {
    "misspelt group": (
        "Its mean is <!-- grpo:value esay.mean -->.",
        ["unknown name 'esay': a path starts with one of easy, hard", ", verifier; did you mean 'easy'?\n"],
    ),
    "misspelt field": (
        "Its mean is <!-- grpo:value easy.meen -->.",
        ["easy has no 'meen' (it has rewards", "); did you mean 'mean'?\n"],
    ),
    "misspelt kind": ("Its mean is <!-- grpo:valeu easy.mean -->.", ["did you mean 'value'?"]),
    "the old name": (
        "Its sample std is <!-- grpo:value easy.std.sample -->.",
        ["easy.std is a number: it has no 'sample'; did you mean 'easy.std-sample'?"],
    ),
    "Python's spelling": (
        "Its sample std is <!-- grpo:value easy.std_sample -->.",
        ["easy has no 'std_sample'", "; did you mean 'std-sample'?"],
    ),
    "an index into a list": (
        "The wrong answer was <!-- grpo:value easy.responses.4.answer -->.",
        ["easy.responses is a list of 5 values, which a path does not index"],
    ),
    "wrong option": ("Its mean is <!-- grpo:value easy.mean as=percent -->.", ["write as=words, or nothing"]),
    "words for a number that is no count": (
        "Its mean is <!-- grpo:value easy.mean as=words -->.",  # it read "0.8 times"
        ["as=words writes a count in words (five) and a ratio as", "easy.mean is neither", "without as=words"],
    ),
    "wrong argument": (
        "<!-- grpo:formula easy.mean inline -->",
        ["grpo:formula takes 1 path(s), got 2: 'easy.mean inline'", "<!-- grpo:formula easy.mean display -->"],
    ),
    "a claim as a value": ("It is <!-- grpo:value easy.claims.binary -->.", ["write <!-- grpo:check easy.claims"]),
    "a false claim": (
        "Being right is rare here. <!-- grpo:check easy.claims.right-is-rare -->",
        ["the prose claims easy.claims.right-is-rare", "grpo_examples/data/groups.toml [easy]"],
    ),
    "misspelt prefix": (
        "Its mean is <!-- gpro:value easy.mean -->.",
        ["looks like a placeholder written wrong", "write <!-- grpo:value easy.mean -->"],
    ),
    "prefix left out": ("Its mean is <!-- value easy.mean -->.", ["write <!-- grpo:value easy.mean -->"]),
    "unclosed placeholder": ("Its mean is <!-- grpo:value easy.mean.", ["unclosed placeholder", "'-->'"]),
    "TeX that KaTeX rejects": (
        "The mean: $`\\mu = \\fracc{4}{5}`$.",
        ["KaTeX cannot render this formula", "\\fracc", "fix the TeX", "katex.org/docs/supported"],
    ),
    "typed number": (
        "Its mean is 0.8 for the group.",
        ["typed number 0.8 (decimal)", "write <!-- grpo:value easy.mean -->", "literal: why"],
    ),
}


def _appended(line: str) -> tuple[str, int]:
    """The chapter docs/grpo.md with the line appended, and the line's number in the file."""
    text = (ROOT / "docs" / "grpo.md").read_text(encoding="utf-8").rstrip("\n") + "\n\n" + line + "\n"
    return text, text.count("\n")


def test_the_chapter_as_it_stands_passes() -> None:
    source = (ROOT / "docs" / "grpo.md").read_text(encoding="utf-8")
    markdown, _ = get_data(source)
    assert "grpo-value" in page_markdown(markdown, source=source)


@pytest.mark.parametrize("slip", SLIPS)
def test_the_hook_stops_at_the_slip_and_says_what_to_do(slip: str) -> None:
    line, expected = SLIPS[slip]
    source, number = _appended(line)
    markdown, _ = get_data(source)  # MkDocs strips the front matter before the hook sees the page
    with pytest.raises(PluginError) as caught:
        page_markdown(markdown, source=source)
    message = str(caught.value)
    assert message.startswith(f"docs/fuzz.md:{number}:"), message
    assert message.count("docs/fuzz.md:") == 1, message  # the slip is the page's only problem
    for words in expected:
        assert words in message


@pytest.mark.parametrize("key", ["title", "description"])
def test_a_placeholder_in_the_front_matter_stops_the_hook_at_its_line(key: str) -> None:
    # The front matter is shown as written (nav, tab, link previews): a placeholder there would show as a comment.
    text = (ROOT / "docs" / "grpo.md").read_text(encoding="utf-8")
    source = text.replace(f"\n{key}: ", f"\n{key}: <!-- grpo:value easy.G --> ", 1)
    number = source[: source.index("<!-- grpo:")].count("\n") + 1
    assert 1 < number < source.index("\n---", 3)  # inside the front matter, as the file has it
    markdown, _ = get_data(source)
    with pytest.raises(PluginError) as caught:
        page_markdown(markdown, source=source)
    message = str(caught.value)
    assert message.startswith(f"docs/fuzz.md:{number}: a placeholder in the front matter is not expanded"), message
    assert f"\n    {key}: <!-- grpo:value easy.G --> " in message  # the line as written
    assert message.count("docs/fuzz.md:") == 1, message


@pytest.mark.parametrize(
    ("line", "number", "what"),
    [
        ("title: GRPO: a primer", 2, "mapping values are not allowed"),  # an unquoted ': '
        ('title: "GRPO, a primer', 2, "found unexpected end of stream"),  # a quote never closed: where it opened
        ("title: !!python/object/apply:os.system ['true']", 2, "could not determine a constructor"),
        ("  indented: too far", 3, "mapping values are not allowed"),
    ],
)
def test_a_front_matter_mkdocs_cannot_read_stops_the_hook_at_its_line(line: str, number: int, what: str) -> None:
    # MkDocs says nothing: it keeps the lines as the page's first paragraph, and the title and description are lost
    lines = (ROOT / "docs" / "grpo.md").read_text(encoding="utf-8").split("\n")
    assert lines[0] == "---" and lines[1].startswith("title: ") and lines[2].startswith("description: ")
    lines[number - 1] = line
    source = "\n".join(lines)
    markdown, meta = get_data(source)
    assert meta == {} and markdown == source  # what MkDocs hands the hook
    with pytest.raises(PluginError) as caught:
        page_markdown(markdown, source=source)
    message = str(caught.value)
    assert message.startswith(f"docs/fuzz.md:{number}: the front matter is not YAML that MkDocs can read ({what}"), (
        message
    )
    assert f"\n    {line.strip()}\n" in message  # the line as written


@pytest.mark.parametrize(
    ("line", "message"),
    [
        # Material's templates read these as they render the page: a traceback, with nothing of the page's line
        ("hide: toc", "'hide' lists what the page hides, some of navigation, toc, footer, path, tags, feedback"),
        ("search: true", "'search' holds 'exclude: true' or 'boost: 2' (a number)"),
        ("search: {boost: high}", "'search' holds 'exclude: true' or 'boost: 2' (a number)"),
        ("template: nosuch.html", "the book reads no front matter key 'template': remove it"),
        # read by nothing: a silent leftover
        ("descripton: A typo.", "the book reads no front matter key 'descripton': remove it"),
        ("description: [GRPO, a primer]", "the description is not text (YAML read ['GRPO', 'a primer'])"),
    ],
)
def test_a_front_matter_key_the_book_cannot_read_stops_the_hook_at_its_line(line: str, message: str) -> None:
    lines = (ROOT / "docs" / "grpo.md").read_text(encoding="utf-8").split("\n")
    assert lines[2].startswith("description: ")
    lines[2:3] = [line] if line.startswith("description: ") else [line, lines[2]]
    source = "\n".join(lines)
    markdown, _ = get_data(source)
    with pytest.raises(PluginError) as caught:
        page_markdown(markdown, source=source)
    assert str(caught.value).startswith(f"docs/fuzz.md:3: {message}"), str(caught.value)
    assert f"\n    {line}\n" in str(caught.value)  # the line as written


@pytest.mark.parametrize("line", ["hide: [navigation, toc]", "search: {exclude: true}", "search:\n  boost: 2"])
def test_the_keys_of_materials_a_page_may_set_pass(line: str) -> None:
    lines = (ROOT / "docs" / "grpo.md").read_text(encoding="utf-8").split("\n")
    lines.insert(2, line)
    source = "\n".join(lines)
    page_markdown(get_data(source)[0], source=source)


@pytest.mark.parametrize(
    ("name", "refused"),
    [
        ("docs/x<img src=x onerror=alert(1)>.md", True),  # Material wrote it as the page's title: the script ran
        ('docs/a "quoted" page.md', True),
        ("docs/guide/<b>/page.md", True),  # a folder's name is part of the address too
        ("docs/guide/new-chapter_2.v1.md", False),
    ],
)
def test_a_page_whose_file_name_is_not_plain_is_refused(name: str, refused: bool) -> None:
    text = "---\ndescription: A page.\n---\n\nText only.\n"
    report = Report()
    checks.check_page(get_data(text)[0], checks.Source(name, text), ROOT, report)
    found = [(problem.file, problem.line, problem.message) for problem, _ in report.problems()]
    assert found == ([(name, 1, checks.UNSAFE_NAME)] if refused else [])


def test_a_snippet_pasting_placeholders_into_prose_stops_the_hook_at_its_line() -> None:
    # pymdownx.snippets pastes after the page's placeholders are expanded: the build stopped on "left as it
    # stands ... indented block" at line 1, and `make check` passed
    pasted = '--8<-- "tests/site/new_chapter/sampling.md"'
    assert "<!-- grpo:" in (ROOT / "tests" / "site" / "new_chapter" / "sampling.md").read_text(encoding="utf-8")
    with pytest.raises(PluginError) as caught:
        page_markdown(f"# Page\n\nProse.\n\n{pasted}\n")
    assert str(caught.value).startswith(f"docs/fuzz.md:5: {checks.PASTED_PLACEHOLDER}"), str(caught.value)
    page_markdown(f"# Page\n\nAs the file has it:\n\n```markdown\n{pasted}\n```\n")  # shown as code: fine


def _check(*arguments: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*CHECK, *arguments], capture_output=True, text=True, check=False, cwd=ROOT, timeout=300)


def test_the_check_reports_each_slip_as_file_line_message(tmp_path: Path) -> None:
    project = copy_project(tmp_path / "book")
    source, number = _appended(SLIPS["typed number"][0])
    (project / "docs" / "grpo.md").write_text(source, encoding="utf-8")
    (project / "docs" / "second.md").write_text("# Second\n\nSee <!-- grpo:value esay.mean -->.\n", encoding="utf-8")
    result = _check("--project", str(project))
    assert result.returncode == 1
    assert f"docs/grpo.md:{number}:13: typed number 0.8" in result.stdout
    [second] = [line for line in result.stdout.splitlines() if line.startswith("docs/second.md:")]
    assert second.startswith("docs/second.md:3: unknown name 'esay': a path starts with one of easy, hard,")
    assert second.endswith("; did you mean 'easy'?")
    assert "2 problems in 2 files" in result.stdout
    assert "Traceback" not in result.stderr


def test_the_check_passes_on_the_book_as_it_stands() -> None:
    result = _check()
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no problems" in result.stdout


def test_the_check_sees_what_the_build_sees_in_the_project_it_is_given(tmp_path: Path) -> None:
    # A group renamed in the copy's groups.toml: the chapter's paths now start with a name that is gone.
    project = copy_project(tmp_path / "book")
    groups = project / "grpo_examples" / "data" / "groups.toml"
    groups.write_text(groups.read_text(encoding="utf-8").replace("[easy]", "[simple]"), encoding="utf-8")
    page = project / "docs" / "grpo.md"
    result = _check("--project", str(project), str(page))
    assert result.returncode == 1
    assert "docs/grpo.md:" in result.stdout and "unknown name 'easy'" in result.stdout
    assert "a path starts with one of simple, hard" in result.stdout


def test_the_check_refuses_a_file_that_is_not_a_page(tmp_path: Path) -> None:
    stray = tmp_path / "notes.md"
    stray.write_text("# Notes\n", encoding="utf-8")
    result = _check(str(stray))
    assert result.returncode == 1
    assert f"{stray}:1: not a page of the book" in result.stdout
    assert "Traceback" not in result.stderr


def test_the_check_reports_a_page_that_is_not_utf8_at_its_line(tmp_path: Path) -> None:
    project = copy_project(tmp_path / "book")
    page = project / "docs" / "grpo.md"
    number = page.read_bytes().count(b"\n") + 1
    page.write_bytes(page.read_bytes() + "Café.\n".encode("latin-1"))
    result = _check("--project", str(project))
    assert result.returncode == 1 and "Traceback" not in result.stderr, result.stderr
    assert f"docs/grpo.md:{number}: not UTF-8 text (the byte 0xe9): save the file as UTF-8" in result.stdout
    assert "1 problem in 1 file" in result.stdout  # the page's placeholders still expanded: nothing else is wrong


def test_the_check_reads_a_page_with_windows_line_endings_as_the_build_does(tmp_path: Path) -> None:
    # MkDocs reads a page in text mode ('\r\n' -> '\n'): the check must see the same front matter and lines
    project = copy_project(tmp_path / "book")
    page = project / "docs" / "grpo.md"
    text = page.read_text(encoding="utf-8").replace("\ntitle: ", "\ntitle: <!-- grpo:value easy.G --> ", 1)
    text += "See <!-- grpo:value esay.mean -->.\n"
    page.write_bytes(text.replace("\n", "\r\n").encode("utf-8"))
    result = _check("--project", str(project), str(page))
    assert "docs/grpo.md:2: a placeholder in the front matter is not expanded" in result.stdout, result.stdout
    assert f"docs/grpo.md:{text.count(chr(10))}: unknown name 'esay'" in result.stdout, result.stdout
    assert "2 problems in 1 file" in result.stdout


def test_the_check_takes_a_folder_and_says_so_of_a_missing_page_or_book(tmp_path: Path) -> None:
    # a missing page and a folder that is no book were tracebacks (FileNotFoundError, ModuleNotFoundError)
    def check(*arguments: str) -> subprocess.CompletedProcess[str]:
        result = subprocess.run([*CHECK, *arguments], capture_output=True, text=True, check=False, timeout=120)
        assert "Traceback" not in result.stderr, result.stderr
        return result

    guide = check(str(ROOT / "docs" / "guide"))
    pages = len(list((ROOT / "docs" / "guide").rglob("*.md")))
    assert pages > 1 and guide.returncode == 0 and f"checked {pages} pages" in guide.stdout, guide.stdout
    missing = check(str(ROOT / "docs" / "nosuch.md"))
    assert missing.returncode == 1
    assert "docs/nosuch.md:1: no such page: give a .md file under docs/, or a folder of them" in missing.stdout
    no_book = check("--project", str(tmp_path))
    assert no_book.returncode == 1 and f"error: {tmp_path} is not the book's folder" in no_book.stderr


def test_a_data_file_no_model_reads_is_a_problem(tmp_path: Path) -> None:
    # a copy of ppo.toml edited in place of the file, a chapter's data under another name: no page changed, no word
    project = copy_project(tmp_path / "book")
    data = project / "grpo_examples" / "data"
    (data / "ppo copy.toml").write_bytes((data / "ppo.toml").read_bytes())
    (data / "old").mkdir()
    (data / "old" / "groups.toml").write_bytes((data / "groups.toml").read_bytes())
    (data / ".ppo.toml.swp.toml").write_text("", encoding="utf-8")  # an editor's hidden file: not the author's
    result = subprocess.run([*CHECK, "--project", str(project)], capture_output=True, text=True, timeout=120)
    assert result.returncode == 1 and "Traceback" not in result.stderr, result.stderr
    problems = [line for line in result.stdout.splitlines() if "no model reads this file" in line]
    assert [line.split(": ")[0] for line in problems] == [
        "grpo_examples/data/old/groups.toml:1",
        "grpo_examples/data/ppo copy.toml:1",
    ], result.stdout
    assert f"grpo_examples/chapters/<chapter>.py ({', '.join(grpo_examples.chapter_names())})" in problems[0]
    assert "rename the file or remove it" in problems[0]
