"""`make serve` rebuilds only what an edit changes, and serves the site a clean build would (issue 22).

A process makes the builds `mkdocs serve --dirty` makes (tests/site/serve_builds.py) in a copy of the book;
the test edits the copy (a chapter's text or title, a data value, grpo_examples' code, the nav), has it rebuild,
and compares every file of its site, byte for byte, with the site a fresh process builds from the same files
without --dirty. Each kind of edit comes once, in a random order, then two more at random, from a seed the
test names when it fails.
"""

from __future__ import annotations

import json
import os
import random
import re
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from mkdocs.config import load_config

from hooks import checks
from hooks.site.build_date import SOURCES
from tests.conftest import ROOT, copy_project

WORKER = Path(__file__).with_name("serve_builds.py")
# A copy of the book has no git, so its date is its newest file's (hooks/site/build_date.py): the first edit in a
# checkout last changed on an earlier day gave the build a new date, and every page was rebuilt for it, as it should
# be. The date is fixed here, so that each edit rebuilds what the edit changes, on any day.
ENV = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "SOURCE_DATE_EPOCH": "1764547200"}  # 2025-12-01


class Serving:
    """The dirty builds of one `mkdocs serve`, in a process that lives across edits."""

    def __init__(self, project: Path, site: Path) -> None:
        command = [sys.executable, str(WORKER), str(project), str(site), "dirty"]
        self.process = subprocess.Popen(
            command,
            cwd=project,
            env=ENV,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        self.compiled = 0  # the templates the last build compiled from source
        self.first = self._answer()

    def _answer(self) -> list[str]:
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        if not line:
            assert self.process.stderr is not None
            raise AssertionError(f"the serving process ended:\n{self.process.stderr.read()[-4000:]}")
        answer = json.loads(line)
        self.compiled = answer["compiled"]
        built: list[str] = answer["built"]
        return built

    def rebuild(self) -> list[str]:
        assert self.process.stdin is not None
        self.process.stdin.write("build\n")
        self.process.stdin.flush()
        return self._answer()

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        self.process.wait(timeout=60)


def clean_build(project: Path, site: Path) -> None:
    command = [sys.executable, str(WORKER), str(project), str(site), "clean"]
    result = subprocess.run(command, cwd=project, env=ENV, capture_output=True, text=True, timeout=300, check=False)
    assert result.returncode == 0, result.stderr[-4000:]


def site_files(site: Path) -> dict[str, bytes]:
    return {path.relative_to(site).as_posix(): path.read_bytes() for path in sorted(site.rglob("*")) if path.is_file()}


def differences(served: Path, clean: Path) -> list[str]:
    a, b = site_files(served), site_files(clean)
    return sorted(
        [f"only served: {name}" for name in a.keys() - b.keys()]
        + [f"only in the clean build: {name}" for name in b.keys() - a.keys()]
        + [f"differs: {name}" for name in a.keys() & b.keys() if a[name] != b[name]]
    )


def _replace(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{path}: {old!r} is not there"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def chapter_word(project: Path, step: int) -> str:
    chapter = random.Random(step).choice(["grpo.md", "ppo.md", "glossary.md", "training-run.md"])
    with (project / "docs" / chapter).open("a", encoding="utf-8") as page:
        page.write("\nedit" + "".join(chr(ord("a") + int(d)) for d in str(step)) + "\n")
    return f"a word appended to docs/{chapter}"


def chapter_heading(project: Path, step: int) -> str:
    _replace(project / "docs" / "references.md", "# References", f"# References {'abcdefghij'[step % 10]}")
    return "the title of docs/references.md, which every page's nav shows"


def data_title(project: Path, step: int) -> str:
    _replace(
        project / "grpo_examples" / "data" / "groups.toml", 'title = "the easy problem', 'title = "the easy problem!'
    )
    return "the easy group's title in groups.toml"


def data_answer(project: Path, step: int) -> str:
    path = project / "grpo_examples" / "data" / "groups.toml"
    text = path.read_text(encoding="utf-8")
    wrong = "49 + 5. \\\\boxed{54}" if "49 + 5. \\\\boxed{54}" in text else "49 + 5. \\\\boxed{53}"
    _replace(path, wrong, "49 + 5. \\\\boxed{53}" if wrong.endswith("54}") else "49 + 5. \\\\boxed{54}")
    return "a wrong answer of the easy group (its advantages stay, its text changes)"


def data_probability(project: Path, step: int) -> str:
    path = project / "grpo_examples" / "data" / "ppo.toml"
    text = path.read_text(encoding="utf-8")
    old = re.search(r"p_new = (0\.2\d)\n", text)
    assert old is not None, "ppo.toml has no p_new = 0.2x to edit"
    path.write_text(text.replace(old.group(0), f"p_new = 0.2{3 + step % 2}\n", 1), encoding="utf-8")
    return "a probability in ppo.toml (a chapter's own data file: the models read from the others are kept)"


def code_comment(project: Path, step: int) -> str:
    with (project / "grpo_examples" / "advantages.py").open("a", encoding="utf-8") as code:
        code.write(f"\n# an edit of the code, {step}\n")
    return "a line added to grpo_examples/advantages.py"


def code_docstring(project: Path, step: int) -> str:
    path = project / "grpo_examples" / "group.py"
    old, new = '"""The std the variant divides by', '"""The std that the variant divides by'
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace(old, new) if old in text else text.replace(new, old), encoding="utf-8")
    return "a field's docstring in grpo_examples/group.py, which the guide's list of paths shows"


def code_number(project: Path, step: int) -> str:
    path = project / "grpo_examples" / "conventions.py"
    text = path.read_text(encoding="utf-8")
    old, new = "    eps=1e-4,\n", "    eps=2e-4,\n"  # TRL's epsilon: shown, and in the widgets' numbers
    path.write_text(text.replace(old, new) if old in text else text.replace(new, old), encoding="utf-8")
    return "TRL's epsilon in grpo_examples/conventions.py (code that changes numbers)"


def pasted_file(project: Path, step: int) -> str:
    with (project / "tests" / "site" / "new_chapter" / "sampling.py").open("a", encoding="utf-8") as code:
        code.write(f"\n# an edit of a pasted file, {step}\n")
    return "a line added to tests/site/new_chapter/sampling.py, which a snippet of the author's guide pastes"


def nav_order(project: Path, step: int) -> str:
    path = project / "mkdocs.yml"
    text = path.read_text(encoding="utf-8")
    glossary, references = "      - Notation and glossary: glossary.md\n", "      - References: references.md\n"
    swapped = re.sub(re.escape(glossary + references), references + glossary, text)
    path.write_text(
        swapped if swapped != text else text.replace(references + glossary, glossary + references), encoding="utf-8"
    )
    return "the order of two pages in mkdocs.yml's nav"


EDITS: list[Callable[[Path, int], str]] = [
    chapter_word,
    chapter_heading,
    data_title,
    data_answer,
    data_probability,
    code_comment,
    code_docstring,
    code_number,
    pasted_file,
    nav_order,
]


@pytest.fixture
def serving(tmp_path: Path) -> Iterator[tuple[Path, Serving]]:
    project = copy_project(tmp_path / "book")
    server = Serving(project, tmp_path / "served")
    yield project, server
    server.close()


@pytest.mark.parametrize("seed", [1, 2])
def test_after_any_edits_the_served_site_is_a_clean_build(
    serving: tuple[Path, Serving], tmp_path: Path, seed: int
) -> None:
    project, server = serving
    order = random.Random(seed)
    edits = order.sample(EDITS, len(EDITS)) + [order.choice(EDITS) for _ in range(2)]  # each kind, then two more
    done = []
    for step, edit in enumerate(edits):
        done.append(edit(project, step))
        server.rebuild()
        clean_build(project, tmp_path / f"clean-{step}")
        found = differences(tmp_path / "served", tmp_path / f"clean-{step}")
        assert not found, f"seed {seed}, after: {'; '.join(done)}:\n" + "\n".join(found[:20])


def test_an_edit_rebuilds_only_the_pages_it_changes(serving: tuple[Path, Serving]) -> None:
    project, server = serving
    assert server.first == ["grpo: building all 14 pages"]
    assert server.compiled > 0
    with (project / "docs" / "grpo.md").open("a", encoding="utf-8") as page:
        page.write("\nedited\n")
    assert server.rebuild() == ["grpo: rebuilding 1 of 14 pages: grpo.md"]
    # Every Jinja environment of a rebuild (MkDocs' own, and the search plugin's, which reads Material's language
    # file at every build) takes the theme's templates as the first build compiled them (hooks/site/theme_env.py).
    assert server.compiled == 0
    code_comment(project, 0)  # the models draw the same numbers: no page changes
    assert server.rebuild() == ["grpo: rebuilding 0 of 14 pages: none"]
    data_title(project, 0)  # the pages that name the easy group, not the others
    rebuilt = server.rebuild()[0]
    assert "grpo.md" in rebuilt and "references.md" not in rebuilt and "of 14 pages" in rebuilt
    data_probability(project, 0)  # the PPO chapter and the guide's list of its paths and values
    assert server.rebuild() == ["grpo: rebuilding 2 of 14 pages: guide/examples.md, ppo.md"]
    nav_order(project, 0)
    assert server.rebuild() == ["grpo: building all 14 pages"]


def test_a_snippet_pastes_only_files_that_make_serve_watches_and_the_build_date_counts() -> None:
    # a file a snippet pasted from elsewhere: a save of it showed nothing until another edit (or never, unwatched)
    config = load_config(str(ROOT / "mkdocs.yml"))
    watched = [Path(config.docs_dir), *(Path(folder) for folder in config.watch)]
    for folder in checks.SNIPPET_FOLDERS:
        assert any((ROOT / folder).resolve().is_relative_to(w.resolve()) for w in watched), folder
        assert any(Path(folder).is_relative_to(source) for source in SOURCES), folder
