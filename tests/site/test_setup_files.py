"""What the README promises about setting the book up, checked against the files that do it: the Makefile's
serve address and its guard on the published address, the lock files, Node.js's version."""

from __future__ import annotations

import json
import os
import re
import subprocess

import pytest

from tests.conftest import ROOT


def _make(*arguments: str, **env: str) -> subprocess.CompletedProcess[str]:
    environment = {k: v for k, v in os.environ.items() if k not in ("SITE_URL", "GITHUB_ACTIONS")} | env
    return subprocess.run(
        ["make", "--no-print-directory", *arguments],
        cwd=ROOT, env=environment, capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip


def test_make_serve_listens_where_it_is_told() -> None:
    assert _make("-n", "serve").stdout.strip().endswith("mkdocs serve --livereload --dirty --dev-addr 127.0.0.1:8000")
    told = _make("-n", "serve", "ADDR=127.0.0.1:8123").stdout.strip()
    assert told.endswith("mkdocs serve --livereload --dirty --dev-addr 127.0.0.1:8123")
    assert "make serve ADDR=127.0.0.1:8123" in (ROOT / "README.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("address", ["", "http://127.0.0.1:8000/", "http://localhost:8000/"])
def test_a_published_build_for_this_machines_address_stops_before_building(address: str) -> None:
    result = _make("build", SITE_URL=address, GITHUB_ACTIONS="true")
    assert result.returncode != 0
    assert f"SITE_URL is '{address}'" in result.stderr and "make build" in result.stderr
    assert "mkdocs build" not in result.stdout  # it stopped before the build


def test_the_lock_files_name_no_folder_or_index_of_the_machine_they_were_made_on() -> None:
    for lock in sorted((ROOT / "requirements").glob("*.txt")):
        text = lock.read_text(encoding="utf-8")
        assert re.search(r"^--(extra-)?index-url|^--find-links|file://|/opt/", text, re.MULTILINE) is None, lock
        assert "--hash=sha256:" in text  # still hash-pinned
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert "--no-emit-index-url --no-emit-find-links" in makefile  # `make lock` writes them so again


def test_the_node_version_the_readme_asks_for_is_the_one_package_json_declares() -> None:
    engines = json.loads((ROOT / "package.json").read_text(encoding="utf-8"))["engines"]["node"]
    assert engines == ">=20"
    assert "Node.js 20+" in (ROOT / "README.md").read_text(encoding="utf-8")
    assert "Node.js 18" not in (ROOT / "README.md").read_text(encoding="utf-8")
