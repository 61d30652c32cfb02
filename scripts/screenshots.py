"""Screenshots of the built book, for looking at what a change did: `make screenshots`.

Every page (or the pages named on the command line, e.g. `grpo training-run`) in light and dark
palettes, at desktop and phone width, full length in slices, into screenshots/ (git ignores it), once all of
it is in the page (scripts/page_ready.py). It serves site/ on 127.0.0.1 and drives the same Chromium as the
browser tests. The whole-book page (print/) is shot only when named: it is every other page again, some
50 slices at desktop width and 2 s a slice here.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Literal

from playwright.sync_api import FloatRect, Page, sync_playwright

from scripts.ensure_browser import HOW_TO_INSTALL, find_chromium
from scripts.local_server import serve
from scripts.page_ready import wait_until_whole

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update"]
WIDTHS = {"desktop": 1280, "phone": 360}
SCHEMES: tuple[Literal["light", "dark"], ...] = ("light", "dark")
SLICE = 1800
# A slice of a long page, shot from the full page, is slow on a slow or busy machine: in one full test run a slice
# of the longest chapter took more than Playwright's 30 s, the CPU throttled twice (tests/browser/test_screenshots.py).
SHOT_TIMEOUT_MS = 120_000
WHOLE_BOOK = "print"


def pages(site: Path, *, whole_book: bool = False) -> list[str]:
    """Every page of the site as its URL path ('' for the home page), 404 excluded, and the whole-book page unless
    asked for (the benchmark's measures take it; the screenshots, only when named)."""
    found = sorted(p.parent.relative_to(site).as_posix() for p in site.rglob("index.html"))
    found = [page for page in found if not page.startswith("assets") and (whole_book or page != WHOLE_BOOK)]
    return ["" if page == "." else page for page in found]


def shoot(page: Page, url: str, stem: Path, width: int) -> list[Path]:
    """The page at url, whole (scripts/page_ready.py: the whole-book page's later chapters and the blocks below the
    first screen come after its load), in pieces at most SLICE pixels tall: a tall PNG is hard to look at whole."""
    page.goto(url)
    page.wait_for_load_state("networkidle")
    wait_until_whole(page)
    height = int(page.evaluate("document.documentElement.scrollHeight"))
    for earlier in stem.parent.glob(f"{stem.name}-*.png"):  # a longer page's last run: its slices past the end
        earlier.unlink()
    shots = []
    for index, top in enumerate(range(0, height, SLICE), start=1):
        shot = stem.with_name(f"{stem.name}-{index}.png")
        clip: FloatRect = {"x": 0, "y": top, "width": width, "height": min(SLICE, height - top)}
        page.screenshot(path=str(shot), full_page=True, clip=clip, timeout=SHOT_TIMEOUT_MS)
        shots.append(shot)
    return shots


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pages", nargs="*", help="URL paths such as grpo or guide/placeholders (default: all)")
    parser.add_argument("--site", type=Path, default=ROOT / "site")
    parser.add_argument("--out", type=Path, default=ROOT / "screenshots")
    args = parser.parse_args()
    chromium = find_chromium()
    if chromium is None:
        print(HOW_TO_INSTALL, file=sys.stderr)
        return 1
    if not (args.site / "index.html").is_file():
        print(f"no built site in {args.site}: run `make build` first", file=sys.stderr)
        return 1
    args.out.mkdir(exist_ok=True)
    wanted = [p.strip("/") for p in args.pages] or pages(args.site)
    if not args.pages:
        print(f"the whole-book page is left out: `make screenshots PAGES={WHOLE_BOOK}` shoots it", file=sys.stderr)
    with serve(args.site) as base, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        for scheme in SCHEMES:
            for width_name, width in WIDTHS.items():
                context = browser.new_context(viewport={"width": width, "height": 900}, color_scheme=scheme)
                page = context.new_page()
                for path in wanted:
                    name = (path or "home").replace("/", "_")
                    url = base + (path + "/" if path else "")
                    for shot in shoot(page, url, args.out / f"{name}-{scheme}-{width_name}", width):
                        print(shot.relative_to(ROOT) if shot.is_relative_to(ROOT) else shot)
                context.close()
        browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
