"""The import contract (scripts/check_imports.py) on small made-up books: each breach of a layer and each import
cycle is found and reported with its file, its line and what to do; the real book has none.

The rules are those of the script's docstring: hooks reach grpo_examples through its public face and never
numpy; grpo_examples knows nothing of the site; the engine knows no chapter; a chapter's presentation imports
only hooks.engine.contract from the hooks; hooks/checks.py imports no MkDocs; no cycle, counting imports inside
functions.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from scripts.check_imports import breaches, cycles
from tests.conftest import ROOT

SCRIPT = ROOT / "scripts" / "check_imports.py"

# A tree that keeps the contract: every package, and a module of each layer that imports what it may.
CLEAN = {
    "hooks/__init__.py": "",
    "hooks/events.py": "import mkdocs.plugins\nfrom hooks import checks\n",
    "hooks/checks.py": "import grpo_examples\nfrom hooks.chapters import groups\nfrom hooks.engine import tree\n",
    "hooks/engine/__init__.py": "",
    "hooks/engine/tree.py": "from grpo_examples import Undefined\n",
    "hooks/engine/contract.py": "from hooks.engine import tree\n",
    "hooks/chapters/__init__.py": "",
    "hooks/chapters/groups.py": "import grpo_examples as gx\nfrom hooks.engine.contract import table\n",
    "hooks/chapters/run.py": "from hooks.chapters.groups import mean_tex\n",
    "hooks/site/__init__.py": "",
    "hooks/site/katex.py": "import markdown\n",
    "grpo_examples/__init__.py": "from grpo_examples.advantages import advantages\n",
    "grpo_examples/advantages.py": "import numpy as np\n",
}


def _book(root: Path, files: dict[str, str]) -> Path:
    for name, text in {**CLEAN, **files}.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


def test_a_tree_that_keeps_the_contract_passes(tmp_path: Path) -> None:
    root = _book(tmp_path, {})
    assert breaches(root) == []
    assert cycles(root) == []


@pytest.mark.parametrize(
    ("files", "expected"),
    [
        (
            {"hooks/engine/numbers.py": '"""Formatting."""\n\nimport numpy as np\n'},
            "hooks/engine/numbers.py:3: imports numpy: hooks do no math; "
            "compute it in grpo_examples and reach it as a field of a model",
        ),
        (
            {"hooks/chapters/groups.py": "import numpy.linalg\n"},
            "hooks/chapters/groups.py:1: imports numpy.linalg: hooks do no math;",
        ),
        (
            {"hooks/chapters/groups.py": "from grpo_examples.advantages import advantages\n"},
            "hooks/chapters/groups.py:1: imports grpo_examples.advantages: hooks reach grpo_examples through its "
            "public face only: `from grpo_examples import Name`",
        ),
        (
            {"hooks/site/tables.py": "x = 1\nfrom grpo_examples import advantages\n"},  # a submodule, by name
            "hooks/site/tables.py:2: imports grpo_examples.advantages: hooks reach grpo_examples through its "
            "public face only",
        ),
        (
            {"grpo_examples/advantages.py": "import numpy as np\nfrom mkdocs.exceptions import PluginError\n"},
            "grpo_examples/advantages.py:2: imports mkdocs.exceptions: grpo_examples knows nothing of the site; "
            "draw it in hooks/chapters/",
        ),
        (
            {"grpo_examples/group.py": "def shown():\n    import html\n"},
            "grpo_examples/group.py:2: imports html: grpo_examples knows nothing of the site;",
        ),
        (
            {"hooks/engine/book.py": "from hooks.chapters import groups\n"},
            "hooks/engine/book.py:1: imports hooks.chapters.groups: the engine knows no chapter and no part of "
            "the site; hooks/checks.py hands them to it",
        ),
        (
            {"hooks/engine/book.py": "from hooks.site.katex import render\n"},
            "hooks/engine/book.py:1: imports hooks.site.katex: the engine knows no chapter and no part of the site",
        ),
        (
            {"hooks/chapters/ppo.py": "import grpo_examples as gx\nfrom hooks.engine.tree import resolve\n"},
            "hooks/chapters/ppo.py:2: imports hooks.engine.tree: a chapter's presentation imports only "
            "hooks.engine.contract from the hooks",
        ),
        (
            {"hooks/chapters/ppo.py": "from ..engine import tree\n"},  # relative, resolved to hooks.engine.tree
            "hooks/chapters/ppo.py:1: imports hooks.engine.tree: a chapter's presentation imports only "
            "hooks.engine.contract",
        ),
        (
            {"hooks/chapters/ppo.py": "from html import escape\n"},
            "hooks/chapters/ppo.py:1: imports html: a layout escapes nothing: hand data text as it is to md(), "
            "join(), table() or code() (hooks/engine/markdown.py is the one boundary)",
        ),
        (
            {"hooks/checks.py": "from hooks.engine import tree\nfrom mkdocs.exceptions import PluginError\n"},
            "hooks/checks.py:2: imports mkdocs.exceptions: hooks/checks.py runs without MkDocs (`make check` does "
            "not load it); MkDocs' side is hooks/events.py",
        ),
        (
            {"hooks/engine/placeholders.py": "from hooks import checks\n"},
            "hooks/engine/placeholders.py:1: imports hooks.checks: the engine knows no chapter and no part of the site",
        ),
        (
            {"hooks/site/print_book.py": "from hooks.chapters.groups import table\n"},
            "hooks/site/print_book.py:1: imports hooks.chapters.groups: the site layer knows neither the chapters "
            "nor the math",
        ),
    ],
    ids=[
        "hooks-numpy",
        "hooks-numpy-submodule",
        "hooks-grpo-submodule",
        "hooks-grpo-submodule-by-name",
        "grpo-mkdocs",
        "grpo-html-in-a-function",
        "engine-chapter",
        "engine-site",
        "chapter-engine-module",
        "chapter-engine-relative",
        "chapter-escapes",
        "checks-mkdocs",
        "engine-checks",
        "site-chapter",
    ],
)
def test_each_breach_is_reported_with_file_line_and_fix(tmp_path: Path, files: dict[str, str], expected: str) -> None:
    found = breaches(_book(tmp_path, files))
    assert len(found) == 1, found
    assert found[0].startswith(expected), found[0]


def test_a_two_module_cycle_is_found(tmp_path: Path) -> None:
    root = _book(
        tmp_path,
        {
            "grpo_examples/data.py": "from grpo_examples.group import GROUPS_FILE\n",
            "grpo_examples/group.py": "from grpo_examples.data import load\n",
        },
    )
    assert cycles(root) == [["grpo_examples.data", "grpo_examples.group"]]
    assert breaches(root) == []


def test_an_import_inside_a_function_still_makes_a_cycle(tmp_path: Path) -> None:
    root = _book(
        tmp_path,
        {
            "hooks/engine/drift_guard.py": "from hooks.engine import guide\n",
            "hooks/engine/guide.py": "def example():\n    from hooks.engine.drift_guard import guard\n",
        },
    )
    assert cycles(root) == [["hooks.engine.drift_guard", "hooks.engine.guide"]]


def test_a_three_module_cycle_is_one_cycle(tmp_path: Path) -> None:
    root = _book(
        tmp_path,
        {
            "grpo_examples/a.py": "from grpo_examples import b\n",
            "grpo_examples/b.py": "import grpo_examples.c\n",
            "grpo_examples/c.py": "from . import a\n",
        },
    )
    assert cycles(root) == [["grpo_examples.a", "grpo_examples.b", "grpo_examples.c"]]


def _run(root: Path) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, str(SCRIPT), "--root", str(root)]
    return subprocess.run(command, capture_output=True, text=True, check=False, timeout=60)


def test_the_script_reports_every_problem_and_fails(tmp_path: Path) -> None:
    root = _book(
        tmp_path,
        {
            "hooks/engine/numbers.py": "import numpy as np\n",
            "grpo_examples/data.py": "from grpo_examples.group import GROUPS_FILE\n",
            "grpo_examples/group.py": "from grpo_examples.data import load\n",
        },
    )
    result = _run(root)
    assert result.returncode == 1
    lines = result.stdout.splitlines()
    assert lines[0].startswith("hooks/engine/numbers.py:1: imports numpy: hooks do no math")
    assert lines[1] == (
        "import cycle of 2 modules: grpo_examples.data -> grpo_examples.group: "
        "grpo_examples/data.py:1 imports grpo_examples.group; grpo_examples/group.py:1 imports grpo_examples.data: "
        "move what they share into a module that none of them imports (an import inside a function counts too)"
    )
    assert lines[-1] == "import cycles: 1, breaches of the layers: 1"


def test_a_cycle_is_reported_with_the_file_and_line_of_each_import(tmp_path: Path) -> None:
    root = _book(
        tmp_path,
        {
            "hooks/engine/drift_guard.py": "from hooks.engine import guide\n",
            "hooks/engine/guide.py": "def example():\n    from hooks.engine.drift_guard import guard\n",
        },
    )
    output = _run(root).stdout
    assert "hooks/engine/drift_guard.py:1" in output and "hooks/engine/guide.py:2" in output


def test_the_book_keeps_the_contract() -> None:
    assert breaches(ROOT) == []
    assert cycles(ROOT) == []
    result = _run(ROOT)
    assert result.returncode == 0, result.stdout
    assert result.stdout.strip() == "import cycles: 0, breaches of the layers: 0"


def test_make_checks_code_loads_no_mkdocs() -> None:
    # the rule above reads direct imports; this runs them all, so a site module hooks/checks.py uses that
    # imports MkDocs (and would slow `make check` by about 0.1 s) is caught too
    loaded = subprocess.run(
        [sys.executable, "-c", "import sys, hooks.checks; print(sorted(m for m in sys.modules if 'mkdocs' in m))"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    assert loaded.stdout.strip() == "[]"
