"""`make screenshots` (scripts/screenshots.py) shows each page whole: what comes into a page after its load, here
the layout of the blocks below the first screen, is in its slices."""

from __future__ import annotations

import struct
from pathlib import Path

from playwright.sync_api import Browser

from scripts.page_ready import LAID_OUT
from scripts.screenshots import SLICE, pages, shoot
from tests.conftest import Server

LONG_CHAPTER = "grpo-in-practice/"
SLOWER = 2  # a phone's CPU, twice as slow as this machine: the page is not laid out when the network goes quiet


def _png_size(path: Path) -> tuple[int, int]:
    """Width and height from the PNG's header chunk (IHDR), after the 8-byte signature, its length and its type."""
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def test_a_long_chapter_is_shot_to_its_end_on_a_slow_phone(
    browser: Browser, site_server: Server, tmp_path: Path
) -> None:
    context = browser.new_context(viewport={"width": 360, "height": 900})
    reader = context.new_page()  # the page as a reader has it once every block is laid out
    reader.goto(site_server.url + LONG_CHAPTER)
    reader.wait_for_function(LAID_OUT)
    whole = int(reader.evaluate("document.documentElement.scrollHeight"))
    stem = tmp_path / "grpo-in-practice-light-phone"
    (tmp_path / f"{stem.name}-99.png").write_bytes(b"")  # a slice past the end of a longer page, from an earlier run

    page = context.new_page()
    context.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": SLOWER})
    shots = shoot(page, site_server.url + LONG_CHAPTER, stem, 360)

    sizes = [_png_size(shot) for shot in shots]
    assert {width for width, _ in sizes} == {360}
    assert all(height == SLICE for _, height in sizes[:-1])
    assert sum(height for _, height in sizes) == whole
    assert sorted(tmp_path.iterdir()) == sorted(shots)
    context.close()


def test_the_whole_book_page_is_shot_only_when_named(built_site: Path) -> None:
    found = pages(built_site)
    assert "grpo" in found and "guide/examples" in found and "" in found  # the home page
    assert "print" not in found
