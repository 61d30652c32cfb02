"""Each page of the built book as a reader's phone gets it: bytes on first load, JS, fonts, Lighthouse.

The site is served on 127.0.0.1 with gzip for text, as any static host serves it (static_server.py).
Pages are found in the built site, not listed here, so chapters added later are measured too.
"""

from __future__ import annotations

import json
import re
import statistics
import subprocess
import tempfile
from collections.abc import Callable
from pathlib import Path
from urllib.parse import urlsplit

from playwright.sync_api import Request, sync_playwright

from benchmarks.machine import wait_for_quiet
from benchmarks.static_server import serve
from benchmarks.targets import PERFORMANCE_TARGET
from scripts.ensure_browser import find_chromium
from scripts.screenshots import pages as site_pages

TOOLS = Path(__file__).resolve().parent / "node_modules"
LIGHTHOUSE = TOOLS / "lighthouse" / "cli" / "index.js"
TERSER = TOOLS / "terser" / "bin" / "terser"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update"]
LIGHTHOUSE_CHROME_FLAGS = "--headless=new --no-sandbox --disable-gpu"
MATERIAL_JS = re.compile(r"assets/javascripts/(bundle\.[0-9a-f]+\.min\.js|workers/|lunr/)")
KINDS = {"document": "html", "stylesheet": "css", "script": "js", "font": "fonts"}
_FONT_FACE = re.compile(r"@font-face\s*{([^}]*)}")
_FONT_DISPLAY_OK = re.compile(r"font-display\s*:\s*(swap|fallback|optional)")
_BLOCKING_TAG = re.compile(r"<(link[^>]*rel=\"?stylesheet[^>]*|script[^>]*src=[^>]*)>", re.IGNORECASE)


def minified_bytes(script: Path) -> int:
    """The size of a script once terser has minified it (compressed and mangled)."""
    result = subprocess.run(
        ["node", str(TERSER), str(script), "--compress", "--mangle", "--ecma", "2020"],
        capture_output=True,
        check=True,
    )
    return len(result.stdout)


def fonts_without_swap(site: Path, stylesheets: list[str], base: str) -> list[str]:
    """@font-face rules, in the stylesheets a page loaded, that would hide text until the font arrives."""
    hidden = []
    for url in stylesheets:
        css = (site / urlsplit(url).path.lstrip("/")).read_text(encoding="utf-8", errors="replace")
        for face in _FONT_FACE.findall(css):
            if not _FONT_DISPLAY_OK.search(face):
                family = re.search(r"font-family\s*:\s*([^;]+)", face)
                hidden.append(f"{url.removeprefix(base)}: {family.group(1).strip() if family else face[:60]}")
    return hidden


def external_blocking_tags(html: str) -> list[str]:
    """<link rel=stylesheet> and <script src> in the page that point off the site and block rendering."""
    found = []
    for tag in _BLOCKING_TAG.findall(html):
        target = re.search(r"(?:href|src)=\"?([^\"\s>]+)", tag)
        off_site = target is not None and target.group(1).startswith(("http:", "https:", "//"))
        blocking = not re.search(r"\b(async|defer)\b|type=\"?module", tag) and 'media="print"' not in tag
        if off_site and blocking:
            found.append(tag)
    return found


def _recorder(into: list[Request]) -> Callable[[Request], None]:
    """A handler that keeps each finished request (Playwright needs a Python function, not list.append)."""

    def record(request: Request) -> None:
        into.append(request)

    return record


def transfers(site: Path, base: str, paths: list[str]) -> list[dict[str, object]]:
    """Bytes each page transfers on a first visit (a new browser context: empty cache), by kind."""
    chromium = find_chromium()
    if chromium is None:
        raise RuntimeError("no Chromium: see scripts/ensure_browser.py")
    rows = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        for path in paths:
            context = browser.new_context(viewport={"width": 360, "height": 740})
            finished: list[Request] = []
            context.on("requestfinished", _recorder(finished))
            page = context.new_page()
            page.goto(base + path, wait_until="load")
            page.wait_for_load_state("networkidle")
            by_kind = {"html": 0, "css": 0, "js": 0, "fonts": 0, "other": 0}
            scripts, stylesheets, external = [], [], []
            for request in finished:
                if request.url.startswith("data:"):
                    continue
                if not request.url.startswith(base):
                    external.append(request.url)
                sizes = request.sizes()
                size = sizes["responseBodySize"] + sizes["responseHeadersSize"]
                by_kind[KINDS.get(request.resource_type, "other")] += size
                if request.resource_type == "script":
                    scripts.append(request.url)
                if request.resource_type == "stylesheet":
                    stylesheets.append(request.url)
            extra_js = [url for url in scripts if url.startswith(base) and not MATERIAL_JS.search(url)]
            html = (site / path / "index.html").read_text(encoding="utf-8")
            rows.append(
                {
                    "page": "/" + path,
                    "bytes": {**by_kind, "total": sum(by_kind.values())},
                    "requests": len(finished),
                    "js_beyond_material": [
                        {
                            "url": url.removeprefix(base),
                            "bytes_on_disk": (file := site / urlsplit(url).path.lstrip("/")).stat().st_size,
                            "bytes_minified": minified_bytes(file),
                        }
                        for url in extra_js
                    ],
                    "external_requests": external,
                    "external_blocking_tags": external_blocking_tags(html),
                    "fonts_without_swap": fonts_without_swap(site, stylesheets, base),
                }
            )
            context.close()
        browser.close()
    return rows


QUIET_LIMIT = 0.3  # a Lighthouse run starts when the cores are at most this busy ...
QUIET_PATIENCE = 30.0  # ... or after this many seconds of waiting for it


def lighthouse(url: str, chromium: str, preset: str = "") -> dict[str, object]:
    """One Lighthouse run, simulated throttling (its default); mobile preset (its default) unless one is named."""
    busy = wait_for_quiet(QUIET_LIMIT, QUIET_PATIENCE)
    with tempfile.TemporaryDirectory(prefix="bench-lighthouse-") as folder:
        report = Path(folder) / "report.json"
        command = [
            "node",
            str(LIGHTHOUSE),
            url,
            "--output=json",
            f"--output-path={report}",
            f"--chrome-flags={LIGHTHOUSE_CHROME_FLAGS}",
            "--only-categories=performance,accessibility,best-practices,seo",
            "--quiet",
            *([f"--preset={preset}"] if preset else []),
        ]
        env = {"CHROME_PATH": chromium, "PATH": "/usr/bin:/bin", "HOME": folder}
        subprocess.run(command, env=env, capture_output=True, check=True, timeout=300)
        lhr = json.loads(report.read_text(encoding="utf-8"))
    audits = lhr["audits"]
    failing_accessibility = [
        f"{ref['id']}: {audits[ref['id']]['title']}"
        for ref in lhr["categories"]["accessibility"]["auditRefs"]
        if ref["weight"] > 0 and audits[ref["id"]]["score"] is not None and audits[ref["id"]]["score"] < 1
    ]
    blocking = audits.get("render-blocking-resources", {}).get("details", {}).get("items", [])
    return {
        "scores": {name: round(100 * category["score"]) for name, category in lhr["categories"].items()},
        "metrics_ms": {
            key: audits[key]["numericValue"]
            for key in ("first-contentful-paint", "largest-contentful-paint", "total-blocking-time", "speed-index")
        },
        "cls": audits["cumulative-layout-shift"]["numericValue"],
        "render_blocking": [item["url"] for item in blocking],
        "font_display_audit": audits["font-display"]["score"],
        "failing_accessibility_audits": failing_accessibility,
        "benchmark_index": lhr["environment"]["benchmarkIndex"],
        "machine_busy_before": busy,
        "lighthouse": lhr["lighthouseVersion"],
    }


def lighthouse_median(url: str, chromium: str, runs: int, preset: str = "") -> dict[str, object]:
    """runs Lighthouse runs of a page: every score of each run, the median of each, and the last run's details."""
    results = [lighthouse(url, chromium, preset) for _ in range(runs)]
    busy = [r["machine_busy_before"] for r in results]
    names = list(results[0]["scores"])  # type: ignore[call-overload]
    scores = {name: [r["scores"][name] for r in results] for name in names}  # type: ignore[index]
    return {
        "runs": runs,
        "scores": scores,
        "median": {name: statistics.median(values) for name, values in scores.items()},
        "metrics_ms_median": {
            key: statistics.median(r["metrics_ms"][key] for r in results)  # type: ignore[index]
            for key in results[0]["metrics_ms"]  # type: ignore[attr-defined]
        },
        "machine_busy_before": busy,
        "benchmark_index": [r["benchmark_index"] for r in results],
        "details": results[-1],
    }


def page_paths(site: Path) -> list[str]:
    """Every page the measures take, as its address from the site's root: the whole-book page too."""
    return [p + "/" if p else "" for p in site_pages(site, whole_book=True)]


def measure(site: Path, lighthouse_runs: int) -> list[dict[str, object]]:
    paths = page_paths(site)
    chromium = find_chromium()
    assert chromium is not None
    with serve(site) as base:
        rows = transfers(site, base, paths)
        if lighthouse_runs > 0:
            for row, path in zip(rows, paths, strict=True):
                row["lighthouse"] = lighthouse_median(base + path, chromium, lighthouse_runs)
            for row, path in zip(rows, paths, strict=True):  # a page under target on a phone: how it does on a desktop
                if row["lighthouse"]["median"]["performance"] < PERFORMANCE_TARGET:  # type: ignore[index]
                    row["lighthouse_desktop"] = lighthouse_median(base + path, chromium, lighthouse_runs, "desktop")
    return rows
