"""Screenshots of the built book, for looking at what a change did: `make screenshots`.

Every page (or the pages named on the command line, e.g. `grpo training-run`) in light and dark
palettes, at desktop and phone width, full length in slices, into screenshots/ (git ignores it). It serves
site/ on 127.0.0.1 and drives the same Chromium as the browser tests.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Literal

from playwright.sync_api import FloatRect, Page, sync_playwright

from scripts.ensure_browser import HOW_TO_INSTALL, find_chromium
from scripts.local_server import serve

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update"]
WIDTHS = {"desktop": 1280, "phone": 360}
SCHEMES: tuple[Literal["light", "dark"], ...] = ("light", "dark")
SLICE = 1800


def pages(site: Path) -> list[str]:
    """Every page of the site as its URL path ('' for the home page), 404 excluded."""
    found = sorted(p.parent.relative_to(site).as_posix() for p in site.rglob("index.html"))
    return ["" if page == "." else page for page in found if not page.startswith("assets")]


def _slices(page: Page, stem: Path, width: int) -> list[Path]:
    """The whole page in pieces at most SLICE pixels tall: a tall PNG is hard to look at in one piece."""
    height = int(page.evaluate("document.documentElement.scrollHeight"))
    shots = []
    for index, top in enumerate(range(0, height, SLICE), start=1):
        shot = stem.with_name(f"{stem.name}-{index}.png")
        clip: FloatRect = {"x": 0, "y": top, "width": width, "height": min(SLICE, height - top)}
        page.screenshot(path=str(shot), full_page=True, clip=clip)
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
    with serve(args.site) as base, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        for scheme in SCHEMES:
            for width_name, width in WIDTHS.items():
                context = browser.new_context(viewport={"width": width, "height": 900}, color_scheme=scheme)
                page = context.new_page()
                for path in wanted:
                    page.goto(base + (path + "/" if path else ""))
                    page.wait_for_load_state("networkidle")
                    name = (path or "home").replace("/", "_")
                    for shot in _slices(page, args.out / f"{name}-{scheme}-{width_name}", width):
                        print(shot.relative_to(ROOT) if shot.is_relative_to(ROOT) else shot)
                context.close()
        browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
