"""The GitHub Actions workflow that tests and publishes the book. It cannot run here, so its file is read:
it runs the tests on every push and pull request, builds in strict mode and deploys to Pages from main
only, with the permissions Pages needs, and its commands are the README's."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import yaml  # type: ignore[import-untyped]  # PyYAML, which MkDocs itself depends on

from tests.conftest import ROOT

WORKFLOW = ROOT / ".github" / "workflows" / "publish.yml"


@pytest.fixture(scope="module")
def workflow() -> dict[Any, Any]:
    loaded: dict[Any, Any] = yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))
    return loaded


def _steps(workflow: dict[Any, Any], job: str) -> list[dict[str, Any]]:
    steps: list[dict[str, Any]] = workflow["jobs"][job]["steps"]
    return steps


def _runs(workflow: dict[Any, Any], job: str) -> list[str]:
    return [step["run"].strip() for step in _steps(workflow, job) if "run" in step]


def _uses(workflow: dict[Any, Any], job: str) -> list[str]:
    return [step["uses"].split("@")[0] for step in _steps(workflow, job) if "uses" in step]


def test_it_runs_on_every_push_to_main_and_every_pull_request(workflow: dict[Any, Any]) -> None:
    triggers: dict[str, Any] = workflow["on"] if "on" in workflow else workflow[True]  # YAML 1.1: `on` is true
    assert triggers["push"]["branches"] == ["main"]
    assert "pull_request" in triggers
    assert workflow["permissions"] == {"contents": "read"}  # least privilege, widened only to publish


def test_the_test_job_runs_the_readmes_test_command_with_what_it_needs(workflow: dict[Any, Any]) -> None:
    assert _runs(workflow, "test")[-1] == "make test"
    assert any("faketime" in run and "epubcheck" in run for run in _runs(workflow, "test"))
    assert _uses(workflow, "test")[:3] == ["actions/checkout", "actions/setup-python", "actions/setup-node"]
    python = next(s for s in _steps(workflow, "test") if s.get("uses", "").startswith("actions/setup-python"))
    assert python["with"]["python-version"] == "3.11"  # pyproject's requires-python, and the lock's Python


def test_main_is_built_in_strict_mode_for_its_pages_address_and_deployed(workflow: dict[Any, Any]) -> None:
    publish = workflow["jobs"]["publish"]
    assert publish["needs"] == "test"  # nothing is published that failed a test
    assert "github.ref == 'refs/heads/main'" in publish["if"] and "pull_request" in publish["if"]
    assert publish["permissions"] == {"contents": "read", "pages": "write", "id-token": "write"}
    assert publish["environment"]["name"] == "github-pages"
    uses = _uses(workflow, "publish")
    order = ["actions/configure-pages", "actions/upload-pages-artifact", "actions/deploy-pages"]
    assert [u for u in uses if u in order] == order
    build = next(s for s in _steps(workflow, "publish") if s.get("run", "").strip() == "make build")
    assert build["env"]["SITE_URL"] == "${{ steps.pages.outputs.base_url }}/"
    artifact = next(s for s in _steps(workflow, "publish") if s.get("uses", "").startswith("actions/upload-pages"))
    assert artifact["with"]["path"] == "site"  # where `make build` writes (MkDocs' default site_dir)
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    build_recipe = makefile.split("\nbuild:", 1)[1].split("\n\n", 1)[0]
    assert "mkdocs build --strict" in build_recipe
    # and the book as PDF and EPUB, which need epubcheck on the runner (Chrome is there already)
    assert "-m scripts.books site" in build_recipe and "BOOK_FILES=1" in build_recipe
    assert any("install -y epubcheck" in run for run in _runs(workflow, "publish"))


def test_its_commands_are_the_readmes_and_its_actions_are_pinned(workflow: dict[Any, Any]) -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for job in workflow["jobs"]:
        for run in _runs(workflow, job):
            assert run in readme, f"the workflow runs {run!r}, which the README does not show"
        for step in _steps(workflow, job):
            if "uses" in step:
                assert re.fullmatch(r"actions/[a-z-]+@v\d+", step["uses"]), step["uses"]


def test_the_readme_says_how_to_switch_pages_on() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "Settings > Pages > Build and deployment > Source: GitHub\nActions" in readme
    assert ".github/workflows/publish.yml" in readme and Path(WORKFLOW).is_file()
