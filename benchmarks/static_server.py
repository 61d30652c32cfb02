"""A static server for a built site on 127.0.0.1 that compresses text the way a real host does.

Python's http.server sends every file as it is on disk. GitHub Pages, Netlify and any nginx with
default settings send HTML, CSS, JS, SVG and JSON gzip-compressed to a browser that accepts it, so a
page measured through http.server would look four times heavier than it is when published. This
server gzips those types (level 6, nginx's and GitHub's usual level) and leaves fonts and images,
which are compressed already, as they are. It speaks HTTP/1.1 with keep-alive (http.server's default
is HTTP/1.0, a new connection for every file, which no host does any more).
"""

from __future__ import annotations

import gzip
from contextlib import AbstractContextManager
from pathlib import Path

from scripts import local_server

COMPRESSED_TYPES = ("text/", "application/javascript", "application/json", "image/svg+xml", "application/xml")


class _Handler(local_server.QuietHandler):
    protocol_version = "HTTP/1.1"  # keep-alive, as every host has; HTTP/1.0 would open a connection per file
    _gzipped: dict[Path, bytes] = {}  # noqa: RUF012 (one cache per server class, see serve())

    def send_head(self):  # type: ignore[no-untyped-def]  # http.server's own signature
        path = Path(self.translate_path(self.path))
        if path.is_dir():
            if not self.path.split("?")[0].endswith("/"):
                return super().send_head()  # http.server's redirect to the URL with a slash
            path = path / "index.html"
        content_type = self.guess_type(str(path))
        accepts_gzip = "gzip" in self.headers.get("Accept-Encoding", "")
        if not (path.is_file() and accepts_gzip and content_type.startswith(COMPRESSED_TYPES)):
            return super().send_head()
        body = self._gzipped.get(path)
        if body is None:
            body = gzip.compress(path.read_bytes(), compresslevel=6, mtime=0)
            self._gzipped[path] = body
        self.send_response(200)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Vary", "Accept-Encoding")
        self.end_headers()
        if self.command == "HEAD":
            return None
        self.wfile.write(body)
        return None


def serve(site: Path) -> AbstractContextManager[str]:
    """Serve site on a free port of 127.0.0.1 while the block runs (yields the base URL), gzipping into a cache
    of its own."""
    return local_server.serve(site, type("Handler", (_Handler,), {"_gzipped": {}}))
