"""The builds `mkdocs serve` makes, in a process of their own, for tests/site/test_incremental.py.

    python tests/site/serve_builds.py PROJECT SITE dirty|clean

mkdocs serve (mkdocs/commands/serve.py, 1.6) loads the config, calls on_startup once, builds, and on every
change loads the config again and builds into the same folder; `--dirty` (which `make serve` passes) makes
each of those a dirty build. This process does the same: the first build at once, then one build for each
line read on stdin, printing a line after each ("built": the pages the book rebuilt; "compiled": how many
templates Jinja compiled from their source). `clean` makes the first build only, as a fresh `mkdocs serve`
without --dirty would: the reference the dirty builds must match.
"""

from __future__ import annotations

import json
import logging
import sys
from typing import Any

import jinja2
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


class Compiled:
    """Counts the templates Jinja compiles from source (a template found in a bytecode cache is not compiled)."""

    def __init__(self) -> None:
        self.count = 0
        compile_source = jinja2.Environment.compile

        def counted(env: jinja2.Environment, *args: Any, **kwargs: Any) -> Any:
            self.count += 1
            return compile_source(env, *args, **kwargs)

        jinja2.Environment.compile = counted  # type: ignore[assignment,method-assign]


def main() -> None:
    project, site, mode = sys.argv[1], sys.argv[2], sys.argv[3]
    dirty = mode == "dirty"
    rebuilt, compiled = Rebuilt(), Compiled()
    logging.getLogger("mkdocs").addHandler(rebuilt)
    logging.getLogger("mkdocs").setLevel(logging.INFO)

    def get_config() -> MkDocsConfig:
        # never served: port 0, which hooks/site/serve_address.py (the check of serve's address) always finds free
        config = load_config(config_file=f"{project}/mkdocs.yml", site_dir=site, dev_addr="127.0.0.1:0")
        config.site_url = SERVE_URL
        return config

    config = get_config()
    config.plugins.on_startup(command="serve", dirty=dirty)
    try:
        build(get_config(), serve_url=SERVE_URL, dirty=dirty)
        print(json.dumps({"built": rebuilt.lines, "compiled": compiled.count}), flush=True)
        for _ in sys.stdin if dirty else ():
            rebuilt.lines.clear()
            compiled.count = 0
            build(get_config(), serve_url=SERVE_URL, dirty=True)
            print(json.dumps({"built": rebuilt.lines, "compiled": compiled.count}), flush=True)
    finally:
        config.plugins.on_shutdown()


if __name__ == "__main__":
    main()
