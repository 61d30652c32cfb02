"""A full rebuild after a one-word chapter edit, as `mkdocs serve` without --dirty does it, math on and off.

(`make serve` passes --dirty and rebuilds only what changed: benchmarks/incremental.py measures that.)

Two measurements:
- in-process: benchmarks/rebuild_worker.py makes the calls serve makes (load_config, build) and
  times the rebuild alone; the targets are judged on this one, since it holds only the build.
- real serve: a `mkdocs serve` process; the time from writing the chapter to the edited page being
  served, polled every 10 ms. It adds serve's file watcher and its 0.1 s debounce, which do not
  depend on the book, so its ratio (math on over off) is closer to 1 than the in-process one.
"""

from __future__ import annotations

import json
import subprocess
import time
import urllib.request
from pathlib import Path

from benchmarks.common import MATH_OFF, PYTHON, Timing, environment
from benchmarks.rebuild_worker import edit_word
from scripts.mkdocs_serve import serving

WORKER = Path(__file__).with_name("rebuild_worker.py")


def edited_chapter(project: Path) -> Path:
    """The chapter to edit: the model chapter, grpo.md, where it exists, else the first page of docs/."""
    model = project / "docs" / "grpo.md"
    return model if model.exists() else sorted((project / "docs").rglob("*.md"))[0]


def in_process(project: Path, repeats: int, extra_env: dict[str, str] | None) -> Timing:
    command = [PYTHON, str(WORKER), str(project), str(edited_chapter(project)), str(repeats)]
    env = environment(extra_env)
    result = subprocess.run(command, cwd=project, env=env, capture_output=True, text=True, check=False, timeout=900)
    if result.returncode != 0:
        raise RuntimeError(f"rebuild worker failed:\n{result.stderr[-3000:]}")
    return Timing([float(s) for s in json.loads(result.stdout.strip().splitlines()[-1])["seconds"]])


def page_text(url: str) -> str:
    """The page's HTML, or '' while the server cannot answer."""
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            return str(response.read().decode("utf-8"))
    except OSError:
        return ""


def _wait_for(url: str, text: str, timeout: float) -> float:
    """Poll url every 10 ms until its body holds text; the time it took."""
    start = time.perf_counter()
    while time.perf_counter() - start < timeout:
        if text in page_text(url):
            return time.perf_counter() - start
        time.sleep(0.01)
    raise TimeoutError(f"{url} did not show {text!r} within {timeout} s")


def real_serve(project: Path, repeats: int, extra_env: dict[str, str] | None) -> Timing:
    chapter = edited_chapter(project)
    page = chapter.relative_to(project / "docs").with_suffix("")
    path = (page.parent if page.name == "index" else page).as_posix().removeprefix(".")
    path = path + "/" if path else ""
    original = chapter.read_text(encoding="utf-8")
    seconds = []
    log = project / "serve.log"
    with serving(project, log, environment(extra_env), dirty=False, ready=path, timeout=120) as url:
        try:
            time.sleep(1)
            for index in range(repeats):
                word = edit_word(index)
                chapter.write_text(original + f"\n{word}\n", encoding="utf-8")
                seconds.append(_wait_for(url + path, f"<p>{word}</p>", timeout=120))
                time.sleep(1)  # let the watcher settle before the next edit
        finally:
            chapter.write_text(original, encoding="utf-8")
    return Timing(seconds)


def measure(project: Path, repeats: int) -> dict[str, object]:
    on = in_process(project, repeats, None)
    off = in_process(project, repeats, MATH_OFF)
    served_on = real_serve(project, repeats, None)
    served_off = real_serve(project, repeats, MATH_OFF)
    return {
        "chapter": edited_chapter(project).relative_to(project).as_posix(),
        "in_process": on.to_json(),
        "in_process_math_off": off.to_json(),
        "in_process_ratio": on.median / off.median,
        "served": served_on.to_json(),
        "served_math_off": served_off.to_json(),
        "served_ratio": served_on.median / served_off.median,
    }
