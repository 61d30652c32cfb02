"""Find libfaketime's `faketime` command for the reproducibility test, or install it.

tests/site/test_reproducible.py builds the book twice under two different clocks (libfaketime changes the
time every process of a build sees, Python and Node.js alike) to prove that no date in the site comes
from the clock. `make test` runs this first: it finds `faketime` on PATH, or installs Debian's
`faketime` package when run as root; otherwise it stops and says what to install.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

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
    if os.geteuid() != 0 or not shutil.which("apt-get"):
        return None
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    print("$ apt-get update && apt-get install -y faketime", flush=True)
    for command in (["apt-get", "update", "-qq"], ["apt-get", "install", "-y", "-qq", "faketime"]):
        if subprocess.run(command, env=env, check=False).returncode != 0:
            return None
    return find_faketime()


def main() -> int:
    path = find_faketime() or install_faketime()
    if path is None:
        print(HOW_TO_INSTALL, file=sys.stderr)
        return 1
    print(f"faketime for the reproducibility test: {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
