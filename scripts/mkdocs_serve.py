"""`mkdocs serve` of a copy of the book, as `make serve` runs it, for the time of a block: what the serve tests
and the rebuild benchmarks drive.

    with serving(project, project / "serve.log") as address:   # "http://127.0.0.1:<port>/", once built
        ...

The server is stopped as an author stops it, with Ctrl-C (SIGINT): MkDocs then removes the temporary folder it
builds the site into (mkdocs 1.6.1, `mkdocs/commands/serve.py`, the `finally` around `server.serve`). SIGTERM
ends Python before that `finally` runs, and left a copy of the site in the system's temporary folder at every stop.
A process started in the background by a shell without job control (as a CI runner may start the tests) ignores
SIGINT, and so would every process it starts, Python included: the server is started with Ctrl-C's handler put
back, so that it stops the same way wherever the tests run.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

# `python -m mkdocs`, with SIGINT raising KeyboardInterrupt even if this process was started ignoring it.
_MKDOCS_WITH_CTRL_C = (
    "import runpy, signal; signal.signal(signal.SIGINT, signal.default_int_handler); "
    "runpy.run_module('mkdocs', run_name='__main__', alter_sys=True)"
)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextmanager
def serving(
    project: Path,
    log_path: Path,
    env: Mapping[str, str] | None = None,
    *,
    dirty: bool = True,
    ready: str = "grpo/",
    timeout: float = 60,
) -> Iterator[str]:
    """Serve the project while the block runs; yields its address once the page `ready` (relative to it) answers.
    The server's output goes to log_path, which is also what the error says if the server ends or never answers.
    env: the server's environment (this process's by default); dirty=False runs serve without --dirty."""
    port = _free_port()
    address = f"http://127.0.0.1:{port}/"
    command = [sys.executable, "-c", _MKDOCS_WITH_CTRL_C, "serve", "--livereload", *(["--dirty"] if dirty else [])]
    command += ["--dev-addr", f"127.0.0.1:{port}"]
    environment = {**(os.environ if env is None else env), "NO_MKDOCS_2_WARNING": "1", "SITE_URL": address}
    with log_path.open("w", encoding="utf-8") as log:
        server = subprocess.Popen(command, cwd=project, env=environment, stdout=log, stderr=subprocess.STDOUT)
    try:
        _wait_until_answers(address + ready, server, log_path, timeout)
        yield address
    finally:
        stop(server)


def stop(server: subprocess.Popen[bytes]) -> None:
    """Ctrl-C, as an author stops `make serve`; killed if it has not ended 30 s later."""
    if server.poll() is None:
        server.send_signal(signal.SIGINT)
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


def _wait_until_answers(url: str, server: subprocess.Popen[bytes], log_path: Path, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while True:
        try:
            urllib.request.urlopen(url, timeout=2).close()
            return
        except OSError:
            if server.poll() is not None or time.monotonic() > deadline:
                raise AssertionError(f"`mkdocs serve` did not serve {url}:\n{log_path.read_text()}") from None
            time.sleep(0.1)
