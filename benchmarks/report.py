"""benchmarks/RESULTS.md from one run's figures (benchmarks/results.json holds the same, raw)."""

from __future__ import annotations

from typing import Any

from benchmarks.targets import Verdict, judge

MARK = {True: "met", False: "**not met**"}


def _seconds(timing: dict[str, Any], scale: float = 1.0, unit: str = "s", digits: int = 2) -> str:
    return (
        f"{timing['median'] * scale:.{digits}f} {unit} "
        f"({timing['min'] * scale:.{digits}f}–{timing['max'] * scale:.{digits}f}, {len(timing['runs'])} runs)"
    )


def _ms(value: float | None) -> str:
    if value is None:
        return "–"
    return f"{value:.0f}" if value >= 10 else f"{value:.2f}"


def _kb(size: float) -> str:
    return f"{size / 1000:.1f}"


def _math(math: dict[str, Any]) -> list[str]:
    lines = [
        "## Math: cost per formula",
        "",
        f"The book has {math['distinct_formulas']} distinct formulas ({math['formulas_on_pages']} on its pages). "
        f"Every pipeline converts the same Markdown document (markdown-katex's syntax) holding the first "
        f"{math['common'][0]['formulas']} of them, each run in its own process with a private working folder and "
        "TMPDIR (markdown-katex's cache and its choice of binary live in the temp folder and would otherwise "
        "leak between runs and into other builds on the machine). Node.js is on PATH, as on an author's machine.",
        "",
        "| pipeline | renderer | cold, ms per formula | warm, ms per formula | warm means |",
        "|---|---|---:|---:|---|",
    ]
    for row in math["common"]:
        lines.append(
            f"| {row['pipeline']} | {row['renderer']} | {_ms(row['cold_ms_per_formula'])} "
            f"| {_ms(row['warm_ms_per_formula'])} | {row['note']} |"
        )
    if math.get("pykatex_note"):
        lines += ["", f"PyKaTeX: {math['pykatex_note']}."]
    lines += [
        "",
        f"The book's pipelines on all {math['distinct_formulas']} distinct formulas "
        "(Node.js start and KaTeX load are paid once, so they weigh less per formula):",
        "",
        "| pipeline | cold, ms per formula | warm, ms per formula | cold, whole document |",
        "|---|---:|---:|---|",
    ]
    for row in math["all"]:
        lines.append(
            f"| {row['pipeline']} | {_ms(row['cold_ms_per_formula'])} | {_ms(row['warm_ms_per_formula'])} "
            f"| {_seconds(row['cold_seconds'], 1000, 'ms', 0)} |"
        )
    lines += ["", "Runs of each pipeline (seconds for the whole document) are in results.json.", ""]
    return lines


def _builds(builds: dict[str, Any], rebuild: dict[str, Any] | None) -> list[str]:
    lines = [
        "## Builds",
        "",
        "Wall time of `python -m mkdocs build` (process start to exit) in a fresh `git clone` of the commit. "
        "Cold: a new clone each run (no `.cache/`, no `__pycache__`, no `site/`). Warm: the same command again in "
        "that clone. Math off: `GRPO_BOOK_MATH=off`, every formula left as its TeX and no KaTeX CSS or fonts. "
        "The timed builds run without `--strict`, since a strict build refuses math off; a strict build of the "
        f"clone passed as well ({builds['strict_build_seconds']:.2f} s).",
        "",
        "| build | math rendered | math off | ratio |",
        "|---|---|---|---:|",
        f"| cold | {_seconds(builds['cold'])} | {_seconds(builds['cold_math_off'])} "
        f"| {builds['cold_over_cold_math_off']:.2f} |",
        f"| warm | {_seconds(builds['warm'])} | {_seconds(builds['warm_math_off'])} "
        f"| {builds['warm_over_warm_math_off']:.2f} |",
    ]
    if "check" in builds:
        lines.append(
            f"| `make check` (every page and data file, no site build), warm clone | {_seconds(builds['check'])} "
            "| – | – |"
        )
    if "book_files" in builds:
        lines.append(
            "| the book as PDF and EPUB, checked by epubcheck (`python -m scripts.books`: what `make build` adds "
            f"after MkDocs), warm clone | {_seconds(builds['book_files'])} | – | – |"
        )
    if rebuild:
        lines += [
            f"| full rebuild after a one-word edit of {rebuild['chapter']}, in-process as `mkdocs serve` (no --dirty) "
            "calls it "
            f"| {_seconds(rebuild['in_process'])} | {_seconds(rebuild['in_process_math_off'])} "
            f"| {rebuild['in_process_ratio']:.2f} |",
            f"| the same through a real `mkdocs serve`: file written → edited page served "
            f"| {_seconds(rebuild['served'])} | {_seconds(rebuild['served_math_off'])} "
            f"| {rebuild['served_ratio']:.2f} |",
            "",
            "The in-process rebuild (benchmarks/rebuild_worker.py) makes the calls `mkdocs serve` makes on a "
            "change (`load_config`, then `build(config, serve_url=...)`) in one process that has already built "
            "once, and times the rebuild alone; the targets are judged on it. The real `mkdocs serve` figure adds "
            "the file watcher, its 0.1 s debounce and the 10 ms polling, which cost the same with math on or off. "
            "`make serve` rebuilds less than this: see *The author's loop* below.",
        ]
    return [*lines, ""]


def _incremental(rows: list[dict[str, Any]]) -> list[str]:
    lines = [
        "## The author's loop: an edit under `make serve`",
        "",
        "A real `mkdocs serve --livereload --dirty` (what `make serve` runs; hooks/site/incremental.py keeps its "
        "dirty builds exact) in a fresh clone, and in the synthetic book of 10× the chapters: the time from writing "
        "a file to the edited page being served changed (polled every 10 ms), and the pages the book rebuilt (its "
        "log line). In the 10× book each copy's chapters draw on their own data files, as a longer book's chapters "
        "do (benchmarks/synthetic.py); in the one whose copies share the data, which the benchmark used until "
        "2026-12-08, an edit of ppo.toml changes ten copies of /ppo/ and of /guide/examples/. Chapter: a word "
        "appended to docs/grpo.md (/grpo/). Data: one probability in ppo.toml "
        "(/ppo/). Code: a field's docstring in grpo_examples/group.py, which the guide's list of paths shows "
        "(/guide/examples/). The time includes the file watcher (the system's notice, hooks/site/watcher.py) and "
        "serve's 0.1 s wait for quiet after a change.",
        "",
        "| book | edit | file saved → page served | pages rebuilt |",
        "|---|---|---|---|",
    ]
    for row in rows:
        for kind in ("chapter", "data", "code"):
            edit = row[kind]
            rebuilt = ", ".join(str(n) for n in edit["pages_rebuilt"])
            shared = ", copies share the data" if row.get("shared_data") else ""
            book = f"{row['times']}× ({row['pages']} pages){shared}"
            lines.append(f"| {book} | {kind} | {_seconds(edit['served'])} | {rebuilt} of {row['pages']} |")
    return [*lines, ""]


def _synthetic(synthetic: dict[str, Any]) -> list[str]:
    lines = [
        "## Scaling: a synthetic book of up to 10× the chapters",
        "",
        "Copies of every page under docs/copy-k/, each listed in the nav; formulas written in a copy's source get "
        "k empty groups `{}` so KaTeX renders them anew (placeholder formulas repeat and come from the in-memory "
        "cache, as repeated formulas do in any book). Cold builds, fresh clone each run.",
        "",
        "| size | pages | formulas on pages | distinct formulas | cold build |",
        "|---:|---:|---:|---:|---|",
    ]
    for row in synthetic["sizes"]:
        lines.append(
            f"| {row['times']}× | {row['pages']} | {row['formulas_on_pages']} | {row['distinct_formulas']} "
            f"| {_seconds(row['cold_build'])} |"
        )
    slopes = ", ".join(f"{1000 * s:.0f} ms" for s in synthetic["seconds_per_added_page"])
    lines += ["", f"Cost per added page between consecutive sizes: {slopes}.", ""]
    return lines


def _pages(pages: list[dict[str, Any]]) -> list[str]:
    with_lighthouse = all("lighthouse" in page for page in pages)
    lines = [
        "## Pages",
        "",
        "First load in Chromium (Playwright, a new context: empty cache, 360 px wide), bytes transferred "
        "(body + headers) by kind, served from 127.0.0.1 with gzip for text as a static host does "
        "(benchmarks/static_server.py). *Other* is mostly Material's search index, fetched after load. *Widget JS* "
        "is every script beyond Material's own bundle, minified by terser.",
        "",
    ]
    header = "| page | HTML kB | CSS kB | JS kB | fonts kB | other kB | total kB | widget JS, minified |"
    rule = "|---|---:|---:|---:|---:|---:|---:|---|"
    if with_lighthouse:
        runs = pages[0]["lighthouse"]["runs"]
        header += f" performance ({runs} runs) | accessibility | best practices | SEO | FCP / LCP / TBT ms |"
        rule += "---|---:|---:|---:|---|"
    lines += [header, rule]
    for page in pages:
        size = page["bytes"]
        scripts = ", ".join(
            f"{js['url'].rsplit('/', 1)[-1]} {_kb(js['bytes_minified'])} kB" for js in page["js_beyond_material"]
        )
        row = (
            f"| {page['page']} | {_kb(size['html'])} | {_kb(size['css'])} | {_kb(size['js'])} | {_kb(size['fonts'])} "
            f"| {_kb(size['other'])} | {_kb(size['total'])} | {scripts or 'none'} |"
        )
        if with_lighthouse:
            lh = page["lighthouse"]
            metrics = lh["metrics_ms_median"]
            row += (
                f" {lh['median']['performance']:.0f} ({', '.join(str(s) for s in lh['scores']['performance'])}) "
                f"| {lh['median']['accessibility']:.0f} | {lh['median']['best-practices']:.0f} "
                f"| {lh['median']['seo']:.0f} | {metrics['first-contentful-paint']:.0f} / "
                f"{metrics['largest-contentful-paint']:.0f} / {metrics['total-blocking-time']:.0f} |"
            )
        lines.append(row)
    if with_lighthouse:
        index = pages[0]["lighthouse"]["details"]["benchmark_index"]
        desktop = [
            f"{page['page']} {page['lighthouse_desktop']['median']['performance']:.0f} "
            f"({', '.join(str(s) for s in page['lighthouse_desktop']['scores']['performance'])})"
            for page in pages
            if "lighthouse_desktop" in page
        ]
        lines += [
            "",
            f"Lighthouse {pages[0]['lighthouse']['details']['lighthouse']}, mobile preset with its simulated "
            f"throttling, `CHROME_PATH=/usr/bin/chromium`; its benchmark index of this machine was {index:.0f}.",
            *(
                [
                    "",
                    "Performance with Lighthouse's desktop preset, for each page under target on the phone: "
                    + "; ".join(desktop)
                    + ".",
                ]
                if desktop
                else []
            ),
            "",
            "Accessibility audits that fail (Lighthouse runs axe-core; so does tests/browser/test_every_page.py, "
            "on every page, wide and narrow, in both palettes):",
            "",
        ]
        failing: dict[str, list[str]] = {}
        for page in pages:
            for audit in page["lighthouse"]["details"]["failing_accessibility_audits"]:
                failing.setdefault(audit, []).append(page["page"])
        lines += [f"- {audit} ({', '.join(where)})" for audit, where in failing.items()] or ["- none"]
    return [*lines, ""]


def render(results: dict[str, Any], rationale: str) -> str:
    machine = results["machine"]
    verdicts: list[Verdict] = judge(results)
    load_start, load_end = machine["load_average_at_start"], results["load_average_at_end"]
    lines = [
        "# Performance: the build and the pages, measured",
        "",
        f"Measured {machine['date']} on commit {machine['commit']} with `{results['command']}` "
        f"({results['duration_seconds'] / 60:.0f} min). Reproduce with `make benchmark` (or `benchmarks/run`); "
        "the raw figures are in [results.json](results.json).",
        "",
        f"Machine: {machine['cpu']}, {machine['cores']} cores, {machine['memory_gib']} GiB, {machine['os']}; "
        f"Python {machine['python']}, Node.js {machine['node']}, {machine['chromium']}; mkdocs {machine['mkdocs']}, "
        f"mkdocs-material {machine['mkdocs-material']}, markdown-katex {machine['markdown-katex']}, "
        f"the book's KaTeX {machine['katex']}; Lighthouse {machine['lighthouse']}, terser {machine['terser']}.",
        "",
        f"Load average (1, 5, 15 min) at the start {load_start}, at the end {load_end} (which counts the run's own "
        "builds and browsers). "
        + (
            "**The machine was busy when the run started** (other builds and browsers were running): absolute times "
            "are inflated and noisy; the medians of repeated runs, and the ratios between runs taken side by side, "
            "are what to read."
            if load_start[0] > 0.7
            else "Nothing else was running on the machine when the run started."
        ),
        "",
        "## Targets",
        "",
        "| target | measured | |",
        "|---|---|---|",
        *[f"| {v.target} | {v.measured} | {MARK[v.met]} |" for v in verdicts],
        "",
    ]
    if "math" in results:
        lines += _math(results["math"])
    if "builds" in results:
        lines += _builds(results["builds"], results.get("rebuild"))
    if "incremental" in results:
        lines += _incremental(results["incremental"])
    if "synthetic" in results:
        lines += _synthetic(results["synthetic"])
    if "pages" in results:
        lines += _pages(results["pages"])
    lines += [rationale.strip(), ""]
    return "\n".join(lines)
