"""Install a Debian package when the machine allows it: what `make test` and `make build` fall back on for the
tools they need (scripts/ensure_browser.py, ensure_epubcheck.py, ensure_faketime.py)."""

from __future__ import annotations

import os
import shutil
import subprocess


def apt_install(package: str) -> bool:
    """`apt-get install -y package`, after `apt-get update`, when run as root where apt-get exists; whether it
    installed. Elsewhere nothing is tried (the caller says what to install)."""
    if os.geteuid() != 0 or not shutil.which("apt-get"):
        return False
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    print(f"$ apt-get update && apt-get install -y {package}", flush=True)
    for command in (["apt-get", "update", "-qq"], ["apt-get", "install", "-y", "-qq", package]):
        if subprocess.run(command, env=env, check=False).returncode != 0:
            return False
    return True
