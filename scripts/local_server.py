"""A built site served on a free port of 127.0.0.1 for the time of a block: what the PDF is printed from, and
what the screenshots, the benchmarks and the browser tests look at.

    with serve(site) as address:   # "http://127.0.0.1:<port>/"
        ...

A handler class may change how files are sent (the benchmarks gzip text as a host does; the tests serve the
site under a sub-path as GitHub Pages does); by default files are sent as they are, with no log lines.
"""

from __future__ import annotations

import functools
import http.server
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    """http.server's handler without a log line per request."""

    def log_message(self, format: str, *args: object) -> None:
        pass


@contextmanager
def serve(folder: Path, handler: type[QuietHandler] = QuietHandler) -> Iterator[str]:
    """Serve folder while the block runs; yields its address, ending in '/'."""
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(handler, directory=str(folder)))
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{httpd.server_port}/"
    finally:
        httpd.shutdown()
        httpd.server_close()
