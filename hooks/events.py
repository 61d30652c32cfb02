"""The book's MkDocs events: expand placeholders, render the math with one KaTeX, serve KaTeX's assets.

hooks/entry.py forwards MkDocs' events here (and re-imports this module when the code changes).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File, Files
from mkdocs.structure.nav import Navigation
from mkdocs.structure.pages import Page

from hooks import build_date, drift_guard, katex_fonts, math_labels, page_meta, print_book, scan, stylesheets, tables
from hooks.katex import STYLESHEET, KatexError, KatexMath, KatexRenderer
from hooks.math_switch import MathSwitchError, math_rendered
from hooks.placeholders import PageError, expand

KATEX_URL = "assets/katex/"
CACHE_FOLDER = ".cache"  # in the project folder, beside mkdocs.yml; git ignores it
_renderer: KatexRenderer | None = None
_sources_date = ""  # the sitemap's date for this build: hooks/build_date.py
_math_on = True  # False only in a build with GRPO_BOOK_MATH=off (hooks/math_switch.py)
_stylesheet: stylesheets.Joined | None = None  # the book's stylesheets as one file: hooks/stylesheets.py
_font_rules: tuple[str, list[katex_fonts.FontRule]] | None = None  # which class sets which KaTeX font


def _katex(config: MkDocsConfig) -> KatexRenderer:
    global _renderer
    if _renderer is None:
        root = Path(config.config_file_path).resolve().parent
        try:
            _renderer = KatexRenderer(root / "node_modules" / "katex", root / CACHE_FOLDER)
        except KatexError as error:
            raise PluginError(str(error)) from None
    return _renderer


def on_config(config: MkDocsConfig) -> MkDocsConfig:
    """Render `$`...`$` and ```math with our KaTeX, and link the stylesheet of that same KaTeX; link the
    book's own stylesheets as one file, with Material's table rules retargeted for tables wrapped at build
    time (hooks/tables.py)."""
    global _math_on, _sources_date, _stylesheet, _font_rules
    _sources_date = build_date.build_date(Path(config.config_file_path).resolve().parent)
    try:
        _math_on = math_rendered(strict=bool(config.strict))
    except MathSwitchError as error:
        raise PluginError(str(error)) from None
    config.markdown_extensions.append(KatexMath(_katex(config) if _math_on else None))
    try:
        table_rules = tables.retargeted_rules(tables.material_stylesheet(config.theme.dirs))
    except tables.TableStyleError as error:
        raise PluginError(str(error)) from None
    _stylesheet = stylesheets.join(config, [("Material's table rules, retargeted: hooks/tables.py", table_rules)])
    if _math_on:
        config.extra_css.insert(0, KATEX_URL + STYLESHEET)
        _font_rules = katex_fonts.font_rules((_katex(config).assets / STYLESHEET).read_text(encoding="utf-8"))
    return config


def on_files(files: Files, config: MkDocsConfig) -> Files:
    """Serve KaTeX's stylesheet and fonts from the site, taken from the package that renders the HTML, the
    whole book as one page, and the book's joined stylesheet."""
    files.append(print_book.print_file(config))  # the whole book on one page: hooks/print_book.py
    if _stylesheet is not None:
        stylesheets.serve(_stylesheet, files, config)
    if not _math_on:
        return files
    dist = _katex(config).assets
    for path in [dist / STYLESHEET, *sorted((dist / "fonts").iterdir())]:
        uri = KATEX_URL + path.relative_to(dist).as_posix()
        files.append(File.generated(config, uri, abs_src_path=str(path)))
    return files


KATEX_SUPPORTED = "what KaTeX supports: https://katex.org/docs/supported.html"


def on_page_markdown(markdown: str, page: Page, config: MkDocsConfig, files: Files) -> str:
    """Expand the page's placeholders, then render each formula once so a bad one is named with its line."""
    path = _source_path(page, config)
    try:
        expanded = expand(markdown, path, _first_line(page, markdown))
        if (unclosed := scan.unclosed(expanded.markdown)) is not None:
            at = unclosed.line
            raise PageError(path, expanded.source_lines[at.number - 1], unclosed.what, at.text)
        formulas = scan.formulas(expanded.markdown) if _math_on else iter(())  # math off: nothing to render
        for formula in formulas:
            try:
                _katex(config).render(formula.tex, formula.display)
            except KatexError as error:
                line = expanded.source_lines[formula.line - 1]
                message = f"KaTeX cannot render this formula: {error}; fix the TeX ({KATEX_SUPPORTED})"
                raise PageError(path, line, message, formula.tex) from None
        drift_guard.guard(markdown, path, _first_line(page, markdown))  # typed numbers: hooks/drift_guard.py
    except (PageError, drift_guard.DriftError) as error:
        raise PluginError(str(error)) from None
    return expanded.markdown


def on_page_content(html: str, page: Page, config: MkDocsConfig, files: Files) -> str:
    """The page's date is its sources' (hooks/build_date.py), its description is checked and escaped, and
    an element that holds only a formula is named for screen readers (hooks/math_labels.py), and each table
    comes in the box Material's script would otherwise move it into on every load (hooks/tables.py)."""
    page.update_date = _sources_date or page.update_date
    page_meta.describe(page, _source_path(page, config))
    return tables.wrap(math_labels.label_lone_formulas(html))


def on_page_context(context: dict[str, Any], page: Page, config: MkDocsConfig, nav: Navigation) -> dict[str, Any]:
    """The print page gets the whole book, now that every page's HTML exists; each page names the KaTeX
    fonts most of its formulas use, which overrides/partials/katex-fonts.html preloads (hooks/katex_fonts.py)."""
    if print_book.is_print_page(page):
        page.content = print_book.whole_book(nav, config.site_name)
    if _math_on and _font_rules is not None:
        fonts = katex_fonts.fonts_to_preload(page.content or "", *_font_rules)
        page.meta["katex_fonts"] = [KATEX_URL + font for font in fonts]
    return context


def on_post_build(config: MkDocsConfig) -> None:
    """Keep the formulas rendered in this build for the next process (hooks/katex_cache.py)."""
    if _renderer is not None:
        _renderer.save()


def _first_line(page: Page, markdown: str) -> int:
    """The line of the source file on which MkDocs' Markdown (the file less its front matter) starts."""
    source = page.file.content_string
    start = source.find(markdown[:200]) if markdown else -1
    return source.count("\n", 0, start) + 1 if start > 0 else 1


def _source_path(page: Page, config: MkDocsConfig) -> str:
    """The page's file as an author names it: relative to the project, e.g. docs/grpo.md."""
    root = Path(config.config_file_path).resolve().parent
    source = Path(page.file.abs_src_path or page.file.src_uri).resolve()
    return source.relative_to(root).as_posix() if source.is_relative_to(root) else page.file.src_uri


def shutdown() -> None:
    """Stop the KaTeX process (at the end of a build, or before this module is re-imported)."""
    global _renderer
    if _renderer is not None:
        _renderer.close()
        _renderer = None
