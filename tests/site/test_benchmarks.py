"""The benchmark's own helpers (benchmarks/): what they count must be right, or the figures mean nothing.

Timings themselves are never asserted here: they are measured by `benchmarks/run`, not tested.
"""

from __future__ import annotations

import gzip
import json
import subprocess
import sys
import urllib.request
from pathlib import Path

from mkdocs.config import load_config

from benchmarks.math_cost import site_formulas
from benchmarks.pages import external_blocking_tags, fonts_without_swap, page_paths
from benchmarks.report import render
from benchmarks.static_server import serve
from benchmarks.synthetic import chapter_names, distinct_tex, make_book
from benchmarks.targets import judge
from hooks.engine import scan
from tests.conftest import ROOT, copy_project


def test_synthetic_copy_changes_every_written_formula_and_nothing_else() -> None:
    page = "# T\n\nProse $`a_i`$ and $``b``$, `code $x$`.\n\n```math\n\\sum_i r_i\n```\n\n```python\nx = 1\n```\n"
    copy = distinct_tex(page, 2)
    assert [(f.tex, f.display) for f in scan.formulas(copy)] == [
        ("a_i {}{}", False),
        ("b {}{}", False),
        ("\\sum_i r_i\n{}{}", True),
    ]
    assert "```python\nx = 1\n```" in copy and "`code $x$`" in copy


def test_site_formulas_reads_tex_and_display_from_katex_output(tmp_path: Path) -> None:
    mathml = '<span class="katex-mathml"><math><semantics><annotation encoding="application/x-tex">{}</annotation>'
    inline = '<span class="katex">' + mathml.format("a &lt; b") + "</semantics></math></span></span>"
    display = '<span class="katex-display"><span class="katex">' + mathml.format("x") + "</span></span>"
    (tmp_path / "index.html").write_text(inline + display + inline, encoding="utf-8")
    assert site_formulas(tmp_path) == [("a < b", False), ("x", True)]


def test_static_server_gzips_text_and_not_fonts(tmp_path: Path) -> None:
    (tmp_path / "page").mkdir()
    (tmp_path / "page" / "index.html").write_text("<p>" + "text " * 200 + "</p>", encoding="utf-8")
    (tmp_path / "font.woff2").write_bytes(b"\x00" * 500)
    with serve(tmp_path) as base:
        request = urllib.request.Request(base + "page/", headers={"Accept-Encoding": "gzip"})
        with urllib.request.urlopen(request) as response:
            assert response.headers["Content-Encoding"] == "gzip"
            assert gzip.decompress(response.read()).decode() == (tmp_path / "page" / "index.html").read_text()
        font = urllib.request.Request(base + "font.woff2", headers={"Accept-Encoding": "gzip"})
        with urllib.request.urlopen(font) as response:
            assert response.headers["Content-Encoding"] is None and len(response.read()) == 500


def test_external_blocking_tags() -> None:
    html = (
        '<link rel="stylesheet" href="https://cdn.example/katex.css">'
        '<link rel="stylesheet" href="../assets/book.css">'
        '<script src="https://cdn.example/a.js" defer></script>'
        '<script src="https://cdn.example/b.js"></script>'
    )
    assert external_blocking_tags(html) == [
        'link rel="stylesheet" href="https://cdn.example/katex.css"',
        'script src="https://cdn.example/b.js"',
    ]


def test_fonts_without_swap(tmp_path: Path) -> None:
    css = (
        "@font-face{font-family:KaTeX_Main;src:url(a.woff2);font-display:swap}"
        "@font-face{font-family:Hidden;src:url(b.woff2)}"
    )
    (tmp_path / "a.css").write_text(css, encoding="utf-8")
    assert fonts_without_swap(tmp_path, ["http://127.0.0.1:1/a.css"], "http://127.0.0.1:1/") == ["a.css: Hidden"]


def test_targets_judge_the_ratios() -> None:
    results = {
        "math": {
            "stock_over_book_cold": 49.0,
            "stock_ms_per_formula_cold": 490.0,
            "book_ms_per_formula_cold": 10.0,
            "stock_over_book_cold_same_formulas": 20.0,
        },
        "builds": {"cold_over_cold_math_off": 1.9},
        "rebuild": {"in_process_ratio": 1.6, "served_ratio": 1.1},
    }
    assert [verdict.met for verdict in judge(results)] == [False, True, False]


def test_the_check_is_judged_against_one_second() -> None:
    for median, met in [(0.95, True), (1.0, False), (1.4, False)]:
        results = {"builds": {"cold_over_cold_math_off": 1.5, "check": {"median": median}}}
        [_, verdict] = judge(results)
        assert verdict.target.startswith("`make check` of the whole book < 1 s")
        assert verdict.met is met and verdict.measured == f"{median:.2f} s"


def _loop(times: int, chapter: float, data: float) -> dict[str, object]:
    def edit(median: float, rebuilt: list[int]) -> dict[str, object]:
        return {"served": {"median": median, "runs": [median], "min": median, "max": median}, "pages_rebuilt": rebuilt}

    return {"times": times, "pages": 14 * times, "chapter": edit(chapter, [1, 1]), "data": edit(data, [2, 20])}


def test_the_authors_loop_is_judged_on_a_chapter_edit_in_both_books_and_a_data_edit_in_the_big_one() -> None:
    verdicts = judge({"incremental": [_loop(1, 0.3, 2.0), _loop(10, 0.51, 0.99)]})
    assert [(v.target.split(":")[0], v.met) for v in verdicts] == [
        ("`make serve`, 1x book (14 pages)", True),  # a data edit in the small book has no target
        ("`make serve`, 10x book (140 pages)", False),
        ("`make serve`, 10x book", True),
    ]
    assert verdicts[1].measured == "0.51 s, 1 page rebuilt"
    assert verdicts[2].measured == "0.99 s, 2 or 20 pages rebuilt"


def test_the_report_gives_the_desktop_scores_of_the_pages_under_target_and_only_when_measured() -> None:
    results = json.loads((ROOT / "benchmarks" / "results.json").read_text(encoding="utf-8"))
    for measured in results["pages"]:
        measured.pop("lighthouse_desktop", None)
    assert "desktop preset" not in render(results, "")
    results["pages"][0]["lighthouse_desktop"] = {
        "median": {"performance": 99},
        "scores": {"performance": [98, 99, 100]},
    }
    page = results["pages"][0]["page"]
    assert f"desktop preset, for each page under target on the phone: {page} 99 (98, 99, 100)." in render(results, "")


def test_a_synthetic_book_is_a_config_mkdocs_loads(tmp_path: Path) -> None:
    project = copy_project(tmp_path / "book")
    pages = make_book(project, 2)
    config = load_config(str(project / "mkdocs.yml"))
    assert pages == 2 * len([p for p in (ROOT / "docs").rglob("*.md") if "assets" not in p.parts])
    assert any("Copy 1" in item for item in config["nav"] if isinstance(item, dict))
    [snippets] = [e for e in config["markdown_extensions"] if e == "pymdownx.snippets"]
    assert config["mdx_configs"][snippets]["base_path"] == str(project)  # the copy's own folder, not the book's


def test_each_copy_of_a_synthetic_book_draws_on_its_own_chapters(tmp_path: Path) -> None:
    # a data edit then changes one chapter's pages, as in a longer book, not the same chapter in every copy
    project = copy_project(tmp_path / "book")
    chapters = chapter_names(project)
    make_book(project, 3)
    assert chapter_names(project) == sorted(f"{name}{copy}" for name in chapters for copy in ("", 1, 2))
    page = (project / "docs" / "copy-1" / "ppo.md").read_text(encoding="utf-8")
    assert "<!-- grpo:value ppo1.epsilon -->" in page and "<!-- grpo:value ppo.epsilon -->" not in page
    assert "<!-- grpo:block ppo-cases ppo1 -->" in page  # the block's name is not a chapter's
    assert "<!-- grpo:widget clip ppo1 -->" in page
    assert "<!-- grpo:block names ppo1 -->" in (project / "docs" / "copy-1" / "guide" / "examples.md").read_text()
    data = project / "grpo_examples" / "data"
    assert (data / "ppo1.toml").read_bytes() == (data / "ppo.toml").read_bytes()
    command = [sys.executable, str(ROOT / "scripts" / "check_chapters.py"), "--project", str(project)]
    result = subprocess.run(command, capture_output=True, text=True, check=False, timeout=300)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    assert "checked 42 pages" in result.stdout  # the copy too, against its own chapters


def test_the_report_gives_the_time_of_the_book_files_only_when_measured() -> None:
    results = json.loads((ROOT / "benchmarks" / "results.json").read_text(encoding="utf-8"))
    results["builds"].pop("book_files", None)
    assert "the book as PDF and EPUB" not in render(results, "")
    results["builds"]["book_files"] = {"median": 19.5, "min": 19.0, "max": 21.0, "runs": [19.0, 19.5, 21.0]}
    assert "the book as PDF and EPUB, checked by epubcheck" in render(results, "")


def test_the_pages_measured_are_every_page_the_whole_book_included(built_site: Path) -> None:
    paths = page_paths(built_site)
    assert "print/" in paths and "" in paths and "grpo/" in paths and "guide/examples/" in paths
    assert len(paths) == len(list(built_site.rglob("index.html")))  # 404.html is not an index.html


def test_the_report_calls_the_machine_busy_only_if_it_was_before_the_run() -> None:
    # the load at the end counts the run's own builds and Lighthouse's Chromium: a full run always ends above 1
    results = json.loads((ROOT / "benchmarks" / "results.json").read_text(encoding="utf-8"))
    results["machine"]["load_average_at_start"], results["load_average_at_end"] = [0.1, 0.4, 0.8], [1.8, 1.3, 1.1]
    assert "Nothing else was running on the machine when the run started." in render(results, "")
    assert "busy" not in render(results, "").split("## Targets")[0]
    results["machine"]["load_average_at_start"] = [1.5, 1.2, 1.0]
    assert "**The machine was busy when the run started**" in render(results, "")
