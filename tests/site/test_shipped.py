"""The site ships only what a reader's browser can use: KaTeX's fonts as woff2 alone (hooks/site/katex_fonts.py
woff2_only), no source maps and no search languages but English (hooks/site/theme_files.py), and no file of it
names a file it lacks."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from mkdocs.exceptions import PluginError

from hooks.site.katex import STYLESHEET
from hooks.site.katex_fonts import FONT_FACE, files_named, woff2_only
from tests.conftest import ROOT
from tests.site_html import css_urls

KATEX_DIST = ROOT / "node_modules" / "katex" / "dist"
PACKAGE_STYLESHEET = (KATEX_DIST / STYLESHEET).read_text(encoding="utf-8")
MAP_NAMED = re.compile(r"sourceMappingURL=([^\s*]+)")


def test_the_site_has_no_woff_ttf_or_source_map(built_site: Path) -> None:
    unused = sorted(
        p.relative_to(built_site).as_posix() for p in built_site.rglob("*") if p.suffix in {".woff", ".ttf", ".map"}
    )
    assert unused == []
    assert len(list((built_site / "assets" / "katex" / "fonts").glob("*.woff2"))) == PACKAGE_STYLESHEET.count(
        "@font-face"
    )


def test_the_katex_stylesheet_names_only_woff2_fonts_the_site_has(built_site: Path) -> None:
    served = built_site / "assets" / "katex" / STYLESHEET
    urls = css_urls(served.read_text(encoding="utf-8"))
    assert urls and all(url.endswith(".woff2") for url in urls), [u for u in urls if not u.endswith(".woff2")]
    for url in urls:
        assert (served.parent / url).is_file(), f"KaTeX's stylesheet names {url}, which the site lacks"


def test_the_site_has_no_search_language_but_english(built_site: Path) -> None:
    # The search worker imports lunr's language files only for a language other than English (Material's
    # workers/search.*.min.js); this book is searched in English, so none ships, and the worker does not name one.
    assert not (built_site / "assets" / "javascripts" / "lunr").exists()
    [worker] = (built_site / "assets" / "javascripts" / "workers").glob("search.*.min.js")
    assert 'n!=="en"&&r.push' in worker.read_text(encoding="utf-8"), "Material's worker changed: check the rule"


def test_no_file_of_the_site_names_a_source_map_it_lacks(built_site: Path) -> None:
    named = 0
    for path in built_site.rglob("*"):
        if path.suffix not in {".js", ".css", ".html"}:
            continue
        for url in MAP_NAMED.findall(path.read_text(encoding="utf-8")):
            named += 1
            assert (path.parent / url).is_file(), f"{path.relative_to(built_site)} names {url}, which the site lacks"
    assert named == 0  # the maps are left out, so each line naming one is too


def test_woff2_only_keeps_the_package_stylesheet_but_the_other_sources() -> None:
    shipped = woff2_only(PACKAGE_STYLESHEET, STYLESHEET)
    faces = FONT_FACE.findall(shipped)
    assert len(faces) == len(FONT_FACE.findall(PACKAGE_STYLESHEET)) == 20
    assert all(re.search(r'(^|;)src:url\(fonts/[\w-]+\.woff2\) format\("woff2"\)(;|$)', face) for face in faces)
    assert ".woff)" not in shipped and ".ttf" not in shipped
    assert FONT_FACE.sub("", shipped) == FONT_FACE.sub("", PACKAGE_STYLESHEET)  # every other rule, byte for byte
    assert files_named(shipped, KATEX_DIST) == sorted(f"fonts/{p.name}" for p in (KATEX_DIST / "fonts").glob("*.woff2"))


@pytest.mark.parametrize(
    "face",
    [
        '@font-face{font-family:KaTeX_X;src:url(fonts/X.woff) format("woff"),url(fonts/X.ttf) format("truetype")}',
        "@font-face{font-family:KaTeX_X}",
        '@font-face{font-family:KaTeX_X;src:url("fonts/X.woff2") format("woff2")}',
    ],
)
def test_a_stylesheet_of_another_shape_stops_the_build(face: str) -> None:
    with pytest.raises(PluginError, match=r"katex\.css: an @font-face without exactly one woff2 source"):
        woff2_only(PACKAGE_STYLESHEET + face, "katex.css")
    with pytest.raises(PluginError, match=r"katex\.css has no @font-face rule"):
        woff2_only(FONT_FACE.sub("", PACKAGE_STYLESHEET), "katex.css")


def test_a_font_the_package_lacks_stops_the_build(tmp_path: Path) -> None:
    with pytest.raises(PluginError, match=r"names fonts/KaTeX_Gone\.woff2, which .* lacks: reinstall KaTeX"):
        files_named("@font-face{src:url(fonts/KaTeX_Gone.woff2) format('woff2')}", tmp_path)


def test_the_published_site_has_no_error_overlay(built_site: Path) -> None:
    # The overlay is for `mkdocs serve` alone (hooks/site/error_overlay.py): a published page never carries it.
    pages = list(built_site.rglob("*.html"))
    assert len(pages) > 10
    assert not [p for p in pages if "grpo-build-problems" in p.read_text(encoding="utf-8")]
