"""The wiring: MkDocs' events, handed to the checks (hooks/checks.py: placeholders, formulas, the drift guard)
and to the site layer.

hooks/entry.py forwards MkDocs' events here (and re-imports this module when the code changes). This is the
one module that knows MkDocs: it runs each page through hooks/checks.py (which builds the engine's Book from
grpo_examples and hooks/chapters/, the same code `make check` runs), renders its math with the site layer's
KaTeX, stops the build on every problem at once (or, under `mkdocs serve`, shows them on every page), and
hands the pages to the site layer.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.plugins import get_plugin_logger
from mkdocs.structure.files import File, Files
from mkdocs.structure.nav import Navigation
from mkdocs.structure.pages import Page

from hooks import checks
from hooks.engine.report import Report
from hooks.site import (
    build_date,
    error_overlay,
    katex_fonts,
    math_labels,
    page_meta,
    print_book,
    provenance,
    stylesheets,
    tables,
    theme_files,
)
from hooks.site.katex import STYLESHEET, KatexMath, KatexRenderer
from hooks.site.math_switch import MathSwitchError, math_rendered

KATEX_URL = "assets/katex/"
_sources_date = ""  # the sitemap's date for this build: hooks/site/build_date.py
_math_on = True  # False only in a build with GRPO_BOOK_MATH=off (hooks/site/math_switch.py)
_stylesheet: stylesheets.Joined | None = None  # the book's stylesheets as one file: hooks/site/stylesheets.py
_font_rules: tuple[str, list[katex_fonts.FontRule]] | None = None  # which class sets which KaTeX font
_serving = False  # True under `mkdocs serve`: problems show on the pages instead of stopping the build
_report = Report()  # this build's problems, from every page and data file: printed once, by on_env
_overlay = ""  # under `mkdocs serve`, the HTML that lists the standing problems on every page
log = get_plugin_logger("grpo")


def on_startup(command: str, dirty: bool) -> None:
    """Note whether this process serves the book (`mkdocs serve`) or builds it (`mkdocs build`)."""
    global _serving
    _serving = command == "serve"


def on_pre_build(config: MkDocsConfig) -> None:
    """A build starts with no problems: under `mkdocs serve` each save builds again, and finds them again."""
    global _report, _overlay
    _report, _overlay = Report(), ""


def _katex(config: MkDocsConfig) -> KatexRenderer:
    try:
        return checks.katex(_project(config))
    except checks.BookError as error:
        raise PluginError(str(error)) from None


def on_config(config: MkDocsConfig) -> MkDocsConfig:
    """Render `$`...`$` and ```math with our KaTeX, and link the stylesheet of that same KaTeX; link the
    book's own stylesheets as one file, with Material's table rules retargeted for tables wrapped at build
    time (hooks/site/tables.py)."""
    global _math_on, _sources_date, _stylesheet, _font_rules
    try:
        _sources_date = build_date.build_date(Path(config.config_file_path).resolve().parent)
    except build_date.BuildDateError as error:
        raise PluginError(str(error)) from None
    try:
        _math_on = math_rendered(strict=bool(config.strict))
    except MathSwitchError as error:
        raise PluginError(str(error)) from None
    config.markdown_extensions.append(KatexMath(_katex(config) if _math_on else None))
    try:
        table_rules = tables.retargeted_rules(tables.material_stylesheet(config.theme.dirs))
    except tables.TableStyleError as error:
        raise PluginError(str(error)) from None
    _stylesheet = stylesheets.join(config, [("Material's table rules, retargeted: hooks/site/tables.py", table_rules)])
    if _math_on:
        config.extra_css.insert(0, KATEX_URL + STYLESHEET)
        _font_rules = katex_fonts.font_rules((_katex(config).assets / STYLESHEET).read_text(encoding="utf-8"))
    return config


def on_files(files: Files, config: MkDocsConfig) -> Files:
    """Serve KaTeX's stylesheet and fonts from the site, taken from the package that renders the HTML, the
    whole book as one page, and the book's joined stylesheet; leave out what of Material's a reader never loads."""
    theme_files.drop(files, config)  # no source maps, no unused search languages: hooks/site/theme_files.py
    if (own := files.get_file_from_path(print_book.PRINT_SOURCE)) is not None:  # never replaced silently
        raise PluginError(
            f"{_source_path_of(own.abs_src_path, config)}: this name is the book's generated whole-book page "
            f"({print_book.PRINT_PATH}): rename the page"
        )
    files.append(print_book.print_file(config))  # the whole book on one page: hooks/site/print_book.py
    if _stylesheet is not None:
        stylesheets.serve(_stylesheet, files, config)
    if not _math_on:
        return files
    dist = _katex(config).assets
    # the package's stylesheet with each font's woff2 alone, and those fonts only: hooks/site/katex_fonts.py
    stylesheet = katex_fonts.woff2_only((dist / STYLESHEET).read_text(encoding="utf-8"), str(dist / STYLESHEET))
    files.append(File.generated(config, KATEX_URL + STYLESHEET, content=stylesheet))
    for font in katex_fonts.files_named(stylesheet, dist):
        files.append(File.generated(config, KATEX_URL + font, abs_src_path=str(dist / font)))
    return files


def check_page(markdown: str, page: Page, config: MkDocsConfig, report: Report) -> str:
    """The page through hooks/checks.py (the same function `make check` calls): its Markdown expanded, its
    problems into the report."""
    source = checks.Source(_source_path(page, config), page.file.content_string)
    try:
        return checks.check_page(markdown, source, _project(config), report, math=_math_on)
    except checks.BookError as error:
        raise PluginError(str(error)) from None


def on_page_markdown(markdown: str, page: Page, config: MkDocsConfig, files: Files) -> str:
    """The page checked and expanded; its problems wait in the build's report, which on_env prints. A page
    with problems is built as a stand-in, its title and a line (what the Markdown would make of a broken
    formula is not safe to build); under `mkdocs serve` the overlay lists the problems over it."""
    own = Report()  # the page's own problems: a data problem another page already reported counts here too
    result = check_page(markdown, page, config, own)
    _report.merge(own)
    return error_overlay.stand_in(markdown) if len(own) else result


def on_env(env: Any, config: MkDocsConfig, files: Files) -> Any:
    """Every page has been checked: the build stops on the problems of every page and data file at once,
    sorted, with a count. Under `mkdocs serve` it goes on, and every page shows them (hooks/site/error_overlay.py)
    until a save fixes them; the terminal shows them too."""
    global _overlay
    try:
        checks.check_data(_report)
    except checks.BookError as error:
        raise PluginError(str(error)) from None
    _overlay = ""
    if len(_report) and not _serving:
        raise PluginError(_report.text())
    if len(_report):
        log.error("the book has problems; every page shows them until they are fixed:\n" + _report.text())
        _overlay = error_overlay.overlay(_report)
    return env


def on_post_page(output: str, page: Page, config: MkDocsConfig) -> str:
    """Under `mkdocs serve` with problems standing, the page carries the overlay that lists them."""
    return error_overlay.inject(output, _overlay) if _overlay else output


def on_page_content(html: str, page: Page, config: MkDocsConfig, files: Files) -> str:
    """No placeholder is left in the page as a comment (hooks/checks.py check_html); the page's date is its
    sources' (hooks/site/build_date.py), its description is checked and escaped, an
    element that holds only a formula is named for screen readers (hooks/site/math_labels.py), and each table
    comes in the box Material's script would otherwise move it into on every load (hooks/site/tables.py), and
    each computed value opens its provenance on a tap or a key (hooks/site/provenance.py)."""
    checks.check_html(html, checks.Source(_source_path(page, config), page.file.content_string), _report)
    page.update_date = _sources_date or page.update_date
    page_meta.describe(page, _source_path(page, config))
    name = page.file.src_uri.removesuffix(".md").replace("/", "-")
    return tables.wrap(math_labels.label_lone_formulas(provenance.disclose(html, name)))


def on_page_context(context: dict[str, Any], page: Page, config: MkDocsConfig, nav: Navigation) -> dict[str, Any]:
    """The print page gets the whole book, now that every page's HTML exists; each page names the KaTeX
    fonts most of its formulas use, which overrides/partials/katex-fonts.html preloads (hooks/site/katex_fonts.py)."""
    if print_book.is_print_page(page):
        page.content = print_book.whole_book(nav, config.site_name)
    if _math_on and _font_rules is not None:
        fonts = katex_fonts.fonts_to_preload(page.content or "", *_font_rules)
        page.meta["katex_fonts"] = [KATEX_URL + font for font in fonts]
    return context


def on_post_build(config: MkDocsConfig) -> None:
    """Keep the formulas rendered in this build for the next process (hooks/site/katex_cache.py); a cache that
    cannot be written is a warning (the site is whole; `mkdocs build --strict` stops on it)."""
    if (problem := checks.save()) is not None:
        log.warning(problem)


def _project(config: MkDocsConfig) -> Path:
    """The book's folder: the one that holds mkdocs.yml."""
    return Path(config.config_file_path).resolve().parent


def _source_path(page: Page, config: MkDocsConfig) -> str:
    """The page's file as an author names it: relative to the project, e.g. docs/grpo.md."""
    return _source_path_of(page.file.abs_src_path or page.file.src_uri, config)


def _source_path_of(path: str | None, config: MkDocsConfig) -> str:
    root = _project(config)
    source = Path(path or "").resolve()
    return source.relative_to(root).as_posix() if source.is_relative_to(root) else str(path)


def shutdown() -> None:
    """Stop the KaTeX process (at the end of a build, or before this module is re-imported)."""
    checks.shutdown()
