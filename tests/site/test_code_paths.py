"""Every file of the repository that a page, the README or the contributing guide names exists: when code moves,
the text that points at it must move too. A line that names another repository (volcengine/verl, ...) speaks of
that repository's files, and the guide's example chapter names the files an author creates."""

from __future__ import annotations

import re

import pytest

from tests.conftest import ROOT
from tests.site.test_new_chapter import PLACES

OTHER_REPOSITORY = re.compile(r"\b(?:volcengine|huggingface|OpenRLHF|NVIDIA-NeMo|deepseek-ai)/")

FOLDERS = ("grpo_examples", "hooks", "tests", "scripts", "docs", "benchmarks", "overrides", "requirements", ".github")
NAMED = re.compile(r"`(?P<path>(?:" + "|".join(re.escape(f) for f in FOLDERS) + r")/[^`\s*<>]*)`")
TEXTS = [*sorted((ROOT / "docs").rglob("*.md")), ROOT / "README.md", ROOT / "CONTRIBUTING.md"]


def named_paths() -> list[tuple[str, int, str]]:
    found = []
    for text in TEXTS:
        for number, line in enumerate(text.read_text(encoding="utf-8").splitlines(), start=1):
            if OTHER_REPOSITORY.search(line) or "read at commit" in line:
                continue
            found += [(text.relative_to(ROOT).as_posix(), number, m.group("path")) for m in NAMED.finditer(line)]
    return found


def test_the_texts_name_files() -> None:
    assert len(named_paths()) > 30


@pytest.mark.parametrize(("text", "line", "path"), named_paths(), ids=lambda value: str(value))
def test_each_named_file_exists(text: str, line: int, path: str) -> None:
    assert (ROOT / path).exists() or path in PLACES.values(), (
        f"{text}:{line} names {path}, which does not exist: write where it is now"
    )
