"""Find a Chromium for the browser tests and for printing the book's PDF (scripts/books/), or install one.

In order: $CHROMIUM_PATH; a chromium (or chrome) on PATH; the browser Playwright downloaded earlier;
Playwright's own download, where the network allows it; Debian's `chromium` package, when run as
root. If all of these fail it stops and says what to install.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from scripts.apt import apt_install

NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
HOW_TO_INSTALL = (
    "No Chromium found for the browser tests and the book's PDF. Install one, then run `make test` or\n"
    "`make build` again:\n"
    "  Debian/Ubuntu: sudo apt-get install chromium   (or chromium-browser)\n"
    "  elsewhere:     .venv/bin/python -m playwright install chromium\n"
    "  or point CHROMIUM_PATH at any Chromium or Chrome executable."
)


def find_chromium() -> str | None:
    """The path of a Chromium that is already on this machine, or None."""
    explicit = os.environ.get("CHROMIUM_PATH")
    if explicit:
        return explicit if Path(explicit).is_file() else None
    for name in NAMES:
        found = shutil.which(name)
        if found:
            return found
    return _playwright_chromium()


def _playwright_chromium() -> str | None:
    try:
        from playwright.sync_api import sync_playwright

        with sync_playwright() as playwright:
            path = playwright.chromium.executable_path
    except Exception:  # noqa: BLE001 (no Playwright, or no browser of its own: both mean "not found")
        return None
    return path if Path(path).is_file() else None


def _run(command: list[str], timeout: int) -> bool:
    print("$", " ".join(command), flush=True)
    try:
        return subprocess.run(command, timeout=timeout, check=False).returncode == 0
    except (OSError, subprocess.TimeoutExpired) as error:
        print(f"  failed: {error}", flush=True)
        return False


def install_chromium() -> str | None:
    """Try Playwright's download, then Debian's package (as root); the path found afterwards, or None."""
    if _run([sys.executable, "-m", "playwright", "install", "chromium"], timeout=300) and find_chromium():
        return find_chromium()
    return find_chromium() if apt_install("chromium") else None


def main() -> int:
    path = find_chromium() or install_chromium()
    if path is None:
        print(HOW_TO_INSTALL, file=sys.stderr)
        return 1
    print(f"Chromium for the browser tests: {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
