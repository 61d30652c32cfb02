"""The author's loop through a real `make serve`: file saved -> edited page served, in the book and the 10x book.

`make serve` runs `mkdocs serve --livereload --dirty`, which the hooks keep exact (hooks/site/incremental.py).
This starts that command in a fresh clone (and in the synthetic book of 10 times the chapters,
benchmarks/synthetic.py: once with each copy's chapters on their own data files, once with every copy on the
original's), and for each kind of edit writes the file and polls the edited page every 10 ms until it differs
from before the edit (less MkDocs' live-reload script, which serve adds to every page it sends). The book's own
log line says how many pages each edit rebuilt.

- chapter: a word appended to docs/grpo.md; the page polled is /grpo/.
- data: a probability of grpo_examples/data/ppo.toml (0.22 -> 0.23, 0.24, ...); the page polled is /ppo/.
- code: a field's docstring in grpo_examples/group.py, which the guide's list of paths shows
  (/guide/examples/); an edit of code re-imports the book's Python and expands every page again.
"""

from __future__ import annotations

import re
import time
from pathlib import Path

from benchmarks.common import Timing, environment, fresh_clone
from benchmarks.serve_rebuild import page_text
from benchmarks.synthetic import make_book
from scripts.mkdocs_serve import serving

LIVE_RELOAD = re.compile(r"<script>\s*var livereload.*?</script>", re.DOTALL)
REBUILT = re.compile(r"grpo: (?:rebuilding (\d+) of (\d+) pages|building all (\d+) pages)")


def _page(url: str) -> str:
    return LIVE_RELOAD.sub("", page_text(url))


def _wait_for_change(url: str, before: str, timeout: float = 120) -> float:
    start = time.perf_counter()
    while time.perf_counter() - start < timeout:
        now = _page(url)
        if now and now != before and "</html>" in now:
            return time.perf_counter() - start
        time.sleep(0.01)
    raise TimeoutError(f"{url} did not change within {timeout} s")


def _edit_chapter(project: Path, index: int) -> tuple[Path, str]:
    word = "benchmarkedit" + "".join(chr(ord("a") + int(d)) for d in str(index))
    path = project / "docs" / "grpo.md"
    return path, path.read_text(encoding="utf-8") + f"\n{word}\n"


def _edit_data(project: Path, index: int) -> tuple[Path, str]:
    path = project / "grpo_examples" / "data" / "ppo.toml"
    text = path.read_text(encoding="utf-8")
    value = re.search(r"p_new = (0\.2\d+)\n", text)
    assert value is not None, "ppo.toml has no p_new = 0.2x to edit"
    return path, text.replace(value.group(0), f"p_new = 0.2{3 + index % 2}\n", 1)


def _edit_code(project: Path, index: int) -> tuple[Path, str]:
    path = project / "grpo_examples" / "group.py"
    old, new = '"""The std the variant divides by', '"""The std that the variant divides by'
    text = path.read_text(encoding="utf-8")
    return path, text.replace(old, new) if old in text else text.replace(new, old)


EDITS = {"chapter": (_edit_chapter, "grpo/"), "data": (_edit_data, "ppo/"), "code": (_edit_code, "guide/examples/")}


def _serve(project: Path, repeats: int) -> dict[str, object]:
    log_path = project / "serve.log"
    originals: dict[Path, str] = {}
    results: dict[str, object] = {}
    with serving(project, log_path, environment(None), timeout=300) as url:  # waits out the first build
        try:
            time.sleep(1)
            for kind, (edit, page) in EDITS.items():
                seconds, rebuilt = [], []
                for index in range(repeats):
                    before = _page(url + page)
                    path, text = edit(project, index)
                    originals.setdefault(path, path.read_text(encoding="utf-8"))
                    lines_before = len(log_path.read_text(encoding="utf-8").splitlines())
                    path.write_text(text, encoding="utf-8")
                    seconds.append(_wait_for_change(url + page, before))
                    time.sleep(1)  # the build has ended and its log line is written; the watcher settles
                    new_lines = log_path.read_text(encoding="utf-8").splitlines()[lines_before:]
                    counts = [match.groups() for line in new_lines if (match := REBUILT.search(line))]
                    rebuilt.append(sum(int(n or everything) for n, _, everything in counts))
                results[kind] = {"served": Timing(seconds).to_json(), "pages_rebuilt": rebuilt, "page": page}
        finally:
            for path, text in originals.items():
                path.write_text(text, encoding="utf-8")
    return results


def measure(scratch: Path, repeats: int) -> list[dict[str, object]]:
    """The book, the 10x book (each copy's chapters on their own data files), and the 10x book whose copies all
    read the original data files (as the benchmark's book did before: an edit of ppo.toml changes ten /ppo/)."""
    rows = []
    for times, shared_data in ((1, False), (10, False), (10, True)):
        clone = fresh_clone(scratch / f"incremental-{times}x{'-shared' if shared_data else ''}")
        if times > 1:
            pages = make_book(clone, times, own_data=not shared_data)
        else:
            pages = len(list((clone / "docs").rglob("*.md")))
        rows.append({"times": times, "pages": pages, "shared_data": shared_data, **_serve(clone, repeats)})
    return rows
