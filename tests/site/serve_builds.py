"""The builds `mkdocs serve` makes, in a process of their own, for tests/site/test_incremental.py.

    python tests/site/serve_builds.py PROJECT SITE dirty|clean

mkdocs serve (mkdocs/commands/serve.py, 1.6) loads the config, calls on_startup once, builds, and on every
change loads the config again and builds into the same folder; `--dirty` (which `make serve` passes) makes
each of those a dirty build. This process does the same: the first build at once, then one build for each
line read on stdin, printing a line after each ("built" and the pages the book rebuilt). `clean` makes the
first build only, as a fresh `mkdocs serve` without --dirty would: the reference the dirty builds must match.
"""

from __future__ import annotations

import json
import logging
import sys

from mkdocs.commands.build import build
from mkdocs.config import load_config
from mkdocs.config.defaults import MkDocsConfig

SERVE_URL = "http://127.0.0.1:8000/"


class Rebuilt(logging.Handler):
    """The book's own line about what a build rebuilt (hooks/events.py on_nav)."""

    def __init__(self) -> None:
        super().__init__(logging.INFO)
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        message = record.getMessage()
        if message.startswith(("grpo: rebuilding", "grpo: building all")):
            self.lines.append(message)


def main() -> None:
    project, site, mode = sys.argv[1], sys.argv[2], sys.argv[3]
    dirty = mode == "dirty"
    rebuilt = Rebuilt()
    logging.getLogger("mkdocs").addHandler(rebuilt)
    logging.getLogger("mkdocs").setLevel(logging.INFO)

    def get_config() -> MkDocsConfig:
        config = load_config(config_file=f"{project}/mkdocs.yml", site_dir=site)
        config.site_url = SERVE_URL
        return config

    config = get_config()
    config.plugins.on_startup(command="serve", dirty=dirty)
    try:
        build(get_config(), serve_url=SERVE_URL, dirty=dirty)
        print(json.dumps({"built": rebuilt.lines}), flush=True)
        for _ in sys.stdin if dirty else ():
            rebuilt.lines.clear()
            build(get_config(), serve_url=SERVE_URL, dirty=True)
            print(json.dumps({"built": rebuilt.lines}), flush=True)
    finally:
        config.plugins.on_shutdown()


if __name__ == "__main__":
    main()
