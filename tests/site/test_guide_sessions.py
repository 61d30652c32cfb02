"""The Python sessions the author's guide shows (```python blocks of `>>>` lines) give what they say they give."""

from __future__ import annotations

import doctest
import re

import pytest

from tests.conftest import ROOT

SESSION = re.compile(r"^```python\n(?P<body>>>> .*?)^```", re.DOTALL | re.MULTILINE)
PAGES = sorted((ROOT / "docs").rglob("*.md"))


def sessions() -> list[tuple[str, str]]:
    found = []
    for page in PAGES:
        for match in SESSION.finditer(page.read_text(encoding="utf-8")):
            found.append((page.relative_to(ROOT).as_posix(), match.group("body")))
    return found


def test_the_guide_shows_a_session() -> None:
    assert any(page == "docs/guide/examples.md" for page, _ in sessions())


@pytest.mark.parametrize(("page", "session"), sessions(), ids=lambda value: str(value)[:40])
def test_each_session_runs_as_shown(page: str, session: str) -> None:
    test = doctest.DocTestParser().get_doctest(session, {}, page, page, 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    output: list[str] = []
    runner.run(test, out=output.append)
    assert runner.failures == 0, "".join(output)
