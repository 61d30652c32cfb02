"""Run every benchmark in one go and write benchmarks/RESULTS.md and benchmarks/results.json.

benchmarks/run              (what `make benchmark` runs; 15 to 35 minutes on 2 cores, by the machine)
benchmarks/run --quick      (a smoke run of every part, a few minutes; its figures are rough)
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
import tempfile
import time
from pathlib import Path

from benchmarks import builds, incremental, machine, math_cost, pages, report, serve_rebuild, synthetic
from benchmarks.common import ROOT, fresh_clone, mkdocs_build_command, timed_run
from scripts.ensure_browser import HOW_TO_INSTALL, find_chromium

HERE = Path(__file__).resolve().parent
PARTS = ("builds", "math", "rebuild", "incremental", "synthetic", "pages")


def arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="benchmarks/run", description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer runs and formulas: check that it works")
    parser.add_argument("--repeats", type=int, default=5, help="runs of each timed build and rebuild (default 5)")
    parser.add_argument("--stock-formulas", type=int, default=10, help="formulas for stock markdown-katex")
    parser.add_argument("--stock-repeats", type=int, default=2, help="runs of stock markdown-katex (~1 s a formula)")
    parser.add_argument("--lighthouse-runs", type=int, default=3, help="Lighthouse runs per page; 0 skips it")
    parser.add_argument("--sizes", default="1,4,10", help="synthetic book sizes, in copies of the chapters")
    parser.add_argument("--synthetic-repeats", type=int, default=2, help="cold builds of each synthetic size")
    parser.add_argument("--only", default=",".join(PARTS), help=f"parts to run, of {','.join(PARTS)}")
    parser.add_argument("--out", type=Path, default=HERE / "RESULTS.md")
    args = parser.parse_args()
    if args.quick:
        args.repeats, args.stock_formulas, args.stock_repeats = 2, 4, 1
        args.lighthouse_runs, args.sizes, args.synthetic_repeats = 1, "1,2,3", 1
    return args


def main() -> int:
    args = arguments()
    chromium = find_chromium()
    if chromium is None:
        print(HOW_TO_INSTALL, file=sys.stderr)
        return 1
    wanted = set(args.only.split(","))
    started = time.perf_counter()
    results: dict[str, object] = {
        "machine": machine.describe(chromium),
        "command": "benchmarks/run " + shlex.join(sys.argv[1:]) if sys.argv[1:] else "benchmarks/run",
    }
    with tempfile.TemporaryDirectory(prefix="grpo-benchmarks-") as folder:
        scratch = Path(folder)
        if "builds" in wanted:
            print("builds: cold, warm, math off ...", flush=True)
            results["builds"] = builds.measure(scratch, args.repeats)
        site = Path(str(results["builds"]["site"])) if "builds" in results else _one_build(scratch)  # type: ignore[index]
        if "math" in wanted:
            print("math: per formula, book vs markdown-katex ...", flush=True)
            results["math"] = math_cost.measure(site, scratch, args.stock_formulas, args.stock_repeats, args.repeats)
        if "rebuild" in wanted:
            print("rebuild after a one-word edit, as mkdocs serve does it ...", flush=True)
            results["rebuild"] = serve_rebuild.measure(fresh_clone(scratch / "clone-serve"), args.repeats)
        if "incremental" in wanted:
            print("the author's loop: edits through a real `mkdocs serve --dirty`, 1x and 10x book ...", flush=True)
            results["incremental"] = incremental.measure(scratch, args.repeats)
        if "synthetic" in wanted:
            print(f"synthetic books of {args.sizes} times the chapters ...", flush=True)
            sizes = [int(size) for size in args.sizes.split(",")]
            results["synthetic"] = synthetic.measure(scratch, sizes, args.synthetic_repeats)
        if "pages" in wanted:
            print(f"pages: bytes, JS, fonts; Lighthouse x{args.lighthouse_runs} per page ...", flush=True)
            results["pages"] = pages.measure(site, args.lighthouse_runs)
        results["load_average_at_end"] = machine.load_average()
        results["duration_seconds"] = time.perf_counter() - started
        if "builds" in results:
            results["builds"]["site"] = "(a temporary clone)"  # type: ignore[index]
    args.out.write_text(report.render(results, (HERE / "rationale.md").read_text(encoding="utf-8")), encoding="utf-8")
    args.out.with_name("results.json").write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")
    shown = args.out.relative_to(ROOT) if args.out.is_relative_to(ROOT) else args.out  # --out may be anywhere
    print(f"wrote {shown} and results.json in {(time.perf_counter() - started) / 60:.1f} min")
    return 0


def _one_build(scratch: Path) -> Path:
    """A site to measure when the builds part is skipped: one build of a fresh clone."""
    clone = fresh_clone(scratch / "clone-site")
    timed_run(mkdocs_build_command(clone / "site", strict=True), clone)
    return clone / "site"


if __name__ == "__main__":
    sys.exit(main())
