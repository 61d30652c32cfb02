"""A rebuild after a one-word edit, timed in-process exactly as `mkdocs serve` rebuilds.

    python benchmarks/rebuild_worker.py PROJECT CHAPTER REPEATS

mkdocs serve (mkdocs/commands/serve.py, 1.6) loads the config, calls on_startup once, builds, and on
every change calls its builder(): load_config again, then build(config, serve_url=...) into the same
temporary site folder. This worker does the same calls, appends one word to CHAPTER before each
rebuild, and prints the seconds of each rebuild as JSON. Whether math is rendered is up to the
environment (GRPO_BOOK_MATH).
"""

from __future__ import annotations

import json
import sys
import tempfile
import time
from pathlib import Path

from mkdocs.commands.build import build
from mkdocs.config import load_config
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.livereload import _serve_url


def edit_word(index: int) -> str:
    """A word of letters only (the drift guard would question digits), new at every edit."""
    return "benchmarkedit" + "".join(chr(ord("a") + int(d)) for d in str(index))


def main() -> None:
    project, chapter, repeats = Path(sys.argv[1]), Path(sys.argv[2]), int(sys.argv[3])
    site = tempfile.mkdtemp(prefix="bench-serve-")
    config_file = str(project / "mkdocs.yml")

    def get_config() -> MkDocsConfig:  # serve.py's own helper, with an address that is never served: port 0, which
        # the hooks' check of serve's address (hooks/site/serve_address.py) always finds free
        return load_config(config_file=config_file, site_dir=site, dev_addr="127.0.0.1:0")

    config = get_config()
    config.plugins.on_startup(command="serve", dirty=False)
    serve_url = _serve_url("127.0.0.1", 8000, "/")  # serve's default address, as the pages would name it
    config.site_url = serve_url
    build(config, serve_url=serve_url, dirty=False)  # the first build of `mkdocs serve`
    original = chapter.read_text(encoding="utf-8")
    seconds = []
    try:
        for index in range(repeats):
            chapter.write_text(original + f"\n{edit_word(index)}\n", encoding="utf-8")
            start = time.perf_counter()
            config = get_config()
            config.site_url = serve_url
            build(config, serve_url=serve_url, dirty=False)
            seconds.append(time.perf_counter() - start)
    finally:
        chapter.write_text(original, encoding="utf-8")
        config.plugins.on_shutdown()
    print(json.dumps({"seconds": seconds}))


if __name__ == "__main__":
    main()
