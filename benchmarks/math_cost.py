"""Math cost per formula: the book's pipeline against markdown-katex as published, on the same formulas.

Every run is its own process, in a private working folder with a private TMPDIR: markdown-katex keeps
its cache (and, once `npx --no-install katex` answers, its choice of binary) in the system temp
folder, for every build on the machine (markdown-katex 202406.1035, `markdown_katex/wrapper.py`:
`CACHE_DIR = Path(tempfile.gettempdir()) / 'mdkatex'`); here that state is created
for the run and deleted after it, so it can neither help the run nor leak into the book's builds.
"""

from __future__ import annotations

import html
import json
import re
import shutil
import subprocess
import tempfile
import venv
from dataclasses import dataclass
from pathlib import Path

from benchmarks.common import PYTHON, ROOT, Timing, environment

WORKER = Path(__file__).with_name("math_worker.py")
PYKATEX = "pykatex==0.1.1"  # KaTeX embedded in Python through QuickJS; installed only in a throwaway venv
_FORMULA = re.compile(
    r'(<span class="katex-display">)?<span class="katex"><span class="katex-mathml">.*?'
    r'<annotation encoding="application/x-tex"[^>]*>(.*?)</annotation>',
    re.DOTALL,
)


def site_formulas(site: Path) -> list[tuple[str, bool]]:
    """Every distinct formula of the built book (TeX and display mode), in page order, from KaTeX's annotations."""
    seen: dict[tuple[str, bool], None] = {}
    for page in sorted(site.rglob("*.html")):
        for match in _FORMULA.finditer(page.read_text(encoding="utf-8")):
            seen.setdefault((html.unescape(match.group(2)), bool(match.group(1))), None)
    return list(seen)


def formula_count(site: Path) -> int:
    """Formulas on all pages, repeats included."""
    return sum(len(_FORMULA.findall(page.read_text(encoding="utf-8"))) for page in site.rglob("*.html"))


@dataclass
class Measured:
    """Seconds per run of one pipeline on one set of formulas, cold and warm."""

    pipeline: str
    formulas: int
    cold: Timing
    warm: Timing | None
    renderer: str
    note: str

    def to_json(self) -> dict[str, object]:
        return {
            "pipeline": self.pipeline,
            "formulas": self.formulas,
            "renderer": self.renderer,
            "note": self.note,
            "cold_seconds": self.cold.to_json(),
            "warm_seconds": self.warm.to_json() if self.warm else None,
            "cold_ms_per_formula": 1000 * self.cold.median / self.formulas,
            "warm_ms_per_formula": 1000 * self.warm.median / self.formulas if self.warm else None,
        }


def _worker(python: str, pipeline: str, formulas: Path, workdir: Path, *extra: str) -> dict[str, object]:
    """One worker process in workdir, with TMPDIR=workdir/tmp; Node.js on PATH as on an author's machine."""
    (workdir / "tmp").mkdir(parents=True, exist_ok=True)
    (workdir / "cwd").mkdir(exist_ok=True)
    env = environment({"TMPDIR": str(workdir / "tmp")})
    command = [python, str(WORKER), pipeline, str(formulas), *extra]
    result = subprocess.run(command, cwd=workdir / "cwd", env=env, capture_output=True, text=True, check=False)
    if result.returncode != 0:
        raise RuntimeError(f"{pipeline} failed:\n{result.stderr[-3000:]}")
    answer: dict[str, object] = json.loads(result.stdout.strip().splitlines()[-1])
    return answer


def _seconds(answer: dict[str, object]) -> list[float]:
    seconds = answer["seconds"]
    assert isinstance(seconds, list)
    return [float(s) for s in seconds]


def markdown_katex(pipeline: str, formulas: Path, count: int, repeats: int) -> Measured:
    """Cold: an empty $TMPDIR. Warm: a second process with the HTML of every formula in its $TMPDIR cache."""
    cold, warm, renderer = [], [], ""
    for _ in range(repeats):
        with tempfile.TemporaryDirectory(prefix="bench-mdkatex-") as folder:
            first = _worker(PYTHON, pipeline, formulas, Path(folder))
            second = _worker(PYTHON, pipeline, formulas, Path(folder))
            cold.append(_seconds(first)[0])
            warm.append(_seconds(second)[0])
            renderer = str(first["renderer"]).replace(str(ROOT), ".")
    note = "as published" if pipeline == "stock" else "get_bin_cmd memoised"
    return Measured(f"markdown-katex ({note})", count, Timing(cold), Timing(warm), renderer, "new process per run")


def books(formulas: Path, count: int, repeats: int) -> tuple[Measured, Measured]:
    """The book's pipeline without and with its disk cache, run in turn so that load on the machine hits both alike.

    One KaTeX process: cold is a new process that starts KaTeX; warm the same document again in that
    process (as `mkdocs serve` rebuilds). With the disk cache: cold starts from an empty cache folder;
    warm is a new process whose disk cache holds every formula (a cold `mkdocs serve` start, a second
    `mkdocs build`), which starts no KaTeX at all.
    """
    memory_cold, memory_warm, disk_cold, disk_warm, renderer = [], [], [], [], ""
    for _ in range(repeats):
        with tempfile.TemporaryDirectory(prefix="bench-book-") as folder:
            answer = _worker(PYTHON, "book", formulas, Path(folder))
            memory_cold.append(_seconds(answer)[0])
            memory_warm.append(_seconds(answer)[1])
            renderer = str(answer["renderer"])
        with tempfile.TemporaryDirectory(prefix="bench-disk-") as folder:
            cache = Path(folder) / "cache"
            first = _worker(PYTHON, "book", formulas, Path(folder), str(cache))
            second = _worker(PYTHON, "book", formulas, Path(folder), str(cache))
            assert second["rendered"] == 0, "the second process should have rendered nothing"
            disk_cold.append(_seconds(first)[0])
            disk_warm.append(_seconds(second)[0])
    memory = Measured(
        "one KaTeX process (the book before this change)",
        count,
        Timing(memory_cold),
        Timing(memory_warm),
        renderer,
        "cold: Node.js start and KaTeX load included; warm: in-memory, same process",
    )
    disk = Measured(
        "one KaTeX process + disk cache (the book now)",
        count,
        Timing(disk_cold),
        Timing(disk_warm),
        renderer,
        "warm: a new process (a cold `mkdocs serve` start, a second build) reading the disk cache",
    )
    return memory, disk


def pykatex(formulas: Path, count: int, repeats: int, scratch: Path) -> Measured | str:
    """KaTeX inside Python, from a throwaway venv (never the project's); a string says why it was not measured."""
    folder = scratch / "pykatex-venv"
    if not (folder / "bin" / "python").exists():
        venv.create(folder, with_pip=True)
        install = [str(folder / "bin" / "pip"), "install", "--quiet", "--disable-pip-version-check", PYKATEX]
        result = subprocess.run(install, capture_output=True, text=True, check=False)
        if result.returncode != 0:
            shutil.rmtree(folder, ignore_errors=True)
            return f"not measured: `pip install {PYKATEX}` failed ({result.stderr.strip()[-200:]})"
    cold = []
    for _ in range(repeats):
        with tempfile.TemporaryDirectory(prefix="bench-pykatex-") as work:
            cold.append(_seconds(_worker(str(folder / "bin" / "python"), "pykatex", formulas, Path(work)))[0])
    note = "its own KaTeX (0.16.x), not the book's; renders in-process, no cache"
    return Measured(f"PyKaTeX ({PYKATEX}, throwaway venv)", count, Timing(cold), None, "QuickJS + KaTeX", note)


def measure(site: Path, scratch: Path, stock_formulas: int, stock_repeats: int, repeats: int) -> dict[str, object]:
    """Every pipeline on the first stock_formulas distinct formulas of the book; the book's also on all of them.

    Stock markdown-katex pays its cost per formula (a process and a binary lookup each), so its cost
    per formula on a few formulas is its cost per formula on the book. The book pays Node.js start
    once per build, so its cost per formula is the whole book's math divided by the book's formulas:
    the target compares those two.
    """
    everything = site_formulas(site)
    common = everything[:stock_formulas]
    common_file, all_file = scratch / "formulas-common.json", scratch / "formulas-all.json"
    common_file.write_text(json.dumps(common), encoding="utf-8")
    all_file.write_text(json.dumps(everything), encoding="utf-8")
    on_common = [
        markdown_katex("stock", common_file, len(common), stock_repeats),
        markdown_katex("memoised", common_file, len(common), stock_repeats),
        *books(common_file, len(common), repeats),
    ]
    on_all = list(books(all_file, len(everything), repeats))
    embedded = pykatex(common_file, len(common), repeats, scratch)
    embedded_all = pykatex(all_file, len(everything), repeats, scratch) if isinstance(embedded, Measured) else embedded
    stock_cold = on_common[0].cold.median / len(common)
    book_cold = on_all[1].cold.median / len(everything)
    return {
        "common": [m.to_json() for m in on_common] + ([embedded.to_json()] if isinstance(embedded, Measured) else []),
        "all": [m.to_json() for m in on_all] + ([embedded_all.to_json()] if isinstance(embedded_all, Measured) else []),
        "pykatex_note": embedded if isinstance(embedded, str) else None,
        "distinct_formulas": len(everything),
        "formulas_on_pages": formula_count(site),
        "stock_ms_per_formula_cold": 1000 * stock_cold,
        "book_ms_per_formula_cold": 1000 * book_cold,
        "stock_over_book_cold": stock_cold / book_cold,
        "stock_over_book_cold_same_formulas": stock_cold / (on_common[3].cold.median / len(common)),
    }
