"""Find libfaketime's `faketime` command for the reproducibility test, or install it.

tests/site/test_reproducible.py builds the book twice under two different clocks (libfaketime changes the
time every process of a build sees, Python and Node.js alike) to prove that no date in the site comes
from the clock. `make test` runs this first: it finds `faketime` on PATH, or installs Debian's
`faketime` package when run as root; otherwise it stops and says what to install.
"""

from __future__ import annotations

import shutil
import sys

from scripts.apt import apt_install

HOW_TO_INSTALL = (
    "No `faketime` command found for the reproducibility test (tests/site/test_reproducible.py). Install "
    "libfaketime, then run `make test` again:\n"
    "  Debian/Ubuntu: sudo apt-get install faketime\n"
    "  macOS:         brew install libfaketime\n"
    "  Fedora:        sudo dnf install libfaketime"
)


def find_faketime() -> str | None:
    return shutil.which("faketime")


def install_faketime() -> str | None:
    """Debian's package, when run as root with apt-get; the command found afterwards, or None."""
    return find_faketime() if apt_install("faketime") else None


def main() -> int:
    path = find_faketime() or install_faketime()
    if path is None:
        print(HOW_TO_INSTALL, file=sys.stderr)
        return 1
    print(f"faketime for the reproducibility test: {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
