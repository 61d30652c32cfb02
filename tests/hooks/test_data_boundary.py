"""Every text of every data file reaches every page only escaped (issue 21): the boundary, checked whole.

Each layout escapes the data text it shows with the function for its context (hooks/engine/markdown.py for
Markdown and table cells, code spans and attributes; hooks/engine/widget.py's script_json for a widget's
data). A layout that forgot would show a contributor's markup live. So this test does not trust any layout:
for one data file at a time, every string the file holds gets live markup appended as it is read, and every
block and widget the book's pages place is drawn through the page hook and the book's Markdown. The markup may
only appear escaped (or the block be refused with a message: appended text changes an answer, a name).
"""

from __future__ import annotations

import importlib
import re
import tomllib
from collections.abc import Iterator
from typing import Any

import pytest

import grpo_examples as gx
from hooks import checks
from tests.chapter_pipeline import PluginError, page_html
from tests.conftest import ROOT

GROUP_MODULE = importlib.import_module("grpo_examples.group")
DATA_MODULE = importlib.import_module("grpo_examples.data")
LIVE = "<b class=fz>"
APPENDED = f" {LIVE}x</b> <img src=x onerror=fz()>"
PLACED = re.compile(r"<!-- grpo:(?:block|widget) [^>]*-->")
# every block and widget placement of the book's pages (the guide's own blocks need no data)
PLACEMENTS = sorted(
    {
        found.group()
        for page in (ROOT / "docs").rglob("*.md")
        for found in PLACED.finditer(page.read_text(encoding="utf-8"))
        if "drift-guard-example" not in found.group()
    }
)
DATA_FILES = sorted(path.name for path in gx.DATA.glob("*.toml"))


# A name a page's path takes as a word (a PPO case's) stays, as the names of tables do: its form is refused, not
# escaped, so no markup can be in it.
PATH_WORD = re.compile(DATA_MODULE.name_of("a name").regex)


def _appended(value: Any) -> Any:
    if isinstance(value, str):
        return value + APPENDED
    if isinstance(value, dict):
        return {  # keys (names of tables) stay
            key: item if key == "name" and PATH_WORD.fullmatch(str(item)) else _appended(item)
            for key, item in value.items()
        }
    if isinstance(value, list):
        return [_appended(item) for item in value]
    return value


def _clear() -> None:
    GROUP_MODULE.group.cache_clear()
    GROUP_MODULE._tables.cache_clear()
    gx.chapter.cache_clear()
    checks.book.cache_clear()


@pytest.fixture
def hostile_file(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    """Have the loader append live markup to every string of one data file, as it reads it."""

    def use(name: str) -> None:
        real = tomllib.loads
        target = str(gx.DATA / name)

        def load(path: Any, schema: Any) -> Any:
            if str(path) != target:
                return original(path, schema)
            monkeypatch.setattr(tomllib, "loads", lambda text: _appended(real(text)))
            try:
                return original(path, schema)
            finally:
                monkeypatch.setattr(tomllib, "loads", real)

        original = DATA_MODULE.load
        for module in (DATA_MODULE, GROUP_MODULE, importlib.import_module("grpo_examples.chapters")):
            monkeypatch.setattr(module, "load", load)
        _clear()

    yield use
    monkeypatch.undo()
    _clear()


def test_the_book_places_blocks_and_widgets_to_check() -> None:
    assert len(PLACEMENTS) > 30 and "groups.toml" in DATA_FILES


@pytest.mark.parametrize("name", DATA_FILES)
def test_no_text_of_a_data_file_is_live_on_any_page(hostile_file: Any, name: str) -> None:
    hostile_file(name)
    drawn, shown = 0, 0
    for placement in PLACEMENTS:
        try:
            html = page_html(placement + "\n")
        except PluginError:
            continue  # refused with the page's line: the appended text changed what the block needs
        assert LIVE not in html and "<img src=x" not in html, placement
        drawn += 1
        shown += "&lt;b class=fz&gt;" in html or "\\u003cb class=fz\\u003e" in html  # as text, or in a widget's JSON
    assert drawn >= len(PLACEMENTS) // 2, f"only {drawn} of {len(PLACEMENTS)} placements could be drawn"
    if _strings(tomllib.loads((gx.DATA / name).read_text(encoding="utf-8"))):
        assert shown, "the file's texts should reach some page (escaped)"


def _strings(value: Any) -> int:
    if isinstance(value, str):
        return 1
    if isinstance(value, dict | list):
        return sum(_strings(item) for item in (value.values() if isinstance(value, dict) else value))
    return 0
