"""The wiring: MkDocs' events, handed to the checks (hooks/checks.py: placeholders, formulas, the drift guard)
and to the site layer.

hooks/entry.py forwards MkDocs' events here (and re-imports this module when the code changes). This is the
one module that knows MkDocs: it runs each page through hooks/checks.py (which builds the engine's Book from
grpo_examples and hooks/chapters/, the same code `make check` runs), renders its math with the site layer's
KaTeX, stops the build on every problem at once (or, under `mkdocs serve`, shows them on every page), and
hands the pages to the site layer.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.plugins import get_plugin_logger
from mkdocs.structure.files import File, Files, InclusionLevel
from mkdocs.structure.nav import Navigation
from mkdocs.structure.pages import Page
from mkdocs.utils import clean_directory
from mkdocs.utils.meta import get_data

from hooks import checks
from hooks.engine.report import Problem, Report
from hooks.site import (
    anchors,
    build_date,
    code_breaks,
    error_overlay,
    incremental,
    katex_fonts,
    local_addresses,
    math_labels,
    page_meta,
    print_book,
    provenance,
    serve_address,
    stylesheets,
    tables,
    theme_env,
    theme_files,
    time_limit,
    watcher,
)
from hooks.site.katex import STYLESHEET, KatexMath, KatexRenderer
from hooks.site.math_switch import MathSwitchError, math_rendered

KATEX_URL = "assets/katex/"
ADDRESS_CHECKED = "address checked"  # the key in _kept: `mkdocs serve` checks its address before its first build
_sources_date = ""  # the sitemap's date for this build: hooks/site/build_date.py
_math_on = True  # False only in a build with GRPO_BOOK_MATH=off (hooks/site/math_switch.py)
_stylesheet: stylesheets.Joined | None = None  # the book's stylesheets as one file: hooks/site/stylesheets.py
_font_rules: tuple[str, list[katex_fonts.FontRule]] | None = None  # which class sets which KaTeX font
_serving = False  # True under `mkdocs serve`: problems show on the pages instead of stopping the build
_report = Report()  # this build's problems, from every page and data file: printed once, by on_env
_overlay = ""  # under `mkdocs serve`, the HTML that lists the standing problems on every page
_kept: dict[str, Any] = {}  # what outlives a build and the re-import of this module: hooks/entry.py holds it
_incremental = False  # `mkdocs serve --dirty` (`make serve`): rebuild what changed (hooks/site/incremental.py)
_stamps = ("", "", "")  # this build's digests of everything, of grpo_examples' code, of its data
_pending: dict[str, incremental.PageRecord] = {}  # this build's pages as read, before they are written
_written: set[str] = set()  # the pages this build wrote
_order: list[tuple[str, str]] = []  # (src_uri, url) of every page, in the order MkDocs builds them
_planned: dict[str, tuple[str, checks.Checked, Report]] = {}  # pages on_nav expanded: Markdown, result, problems
_whole_book: list[bytes] = []  # the print page's book, made in on_page_context; on_post_build writes it into the page
_print_page: tuple[str, str] | None = None  # the print page as the template made it, and where it is written
_published = local_addresses.Site(frozenset(), {})  # every file of the site: hooks/site/local_addresses.py
_stand_ins: set[str] = set()  # the pages this build built as stand-ins, for their problems: their ids are not there
_unsearched: dict[str, str] = {}  # each page's HTML while the search plugin reads it with formulas as text
_SEARCH_ATTRIBUTE = re.compile(r"\s?data-search-\w+=\"[^\"]+\"")  # as the search plugin removes them
log = get_plugin_logger("grpo")


def on_startup(command: str, dirty: bool, kept: dict[str, Any] | None = None) -> None:
    """Note whether this process serves the book (`mkdocs serve`) or builds it (`mkdocs build`), and whether
    it rebuilds only what changed (`mkdocs serve --dirty`, which `make serve` runs)."""
    global _serving, _incremental, _kept
    _serving = command == "serve"
    _incremental = _serving and dirty
    _kept = kept if kept is not None else {}
    if _incremental:
        watcher.quiet_dirty_notice()


def on_serve(server: Any, config: MkDocsConfig, builder: Any) -> Any:
    """A save is seen when it happens, not at MkDocs' next look half a second later (hooks/site/watcher.py)."""
    return watcher.watch_natively(server, [config.docs_dir, config.config_file_path])


def on_pre_build(config: MkDocsConfig) -> None:
    """A build starts with no problems: under `mkdocs serve` each save builds again, and finds them again."""
    global _report, _overlay, _whole_book, _print_page
    _report, _overlay, _whole_book, _print_page = Report(), "", [], None
    _pending.clear()
    _written.clear()
    _planned.clear()
    _stand_ins.clear()


def _katex(config: MkDocsConfig) -> KatexRenderer:
    try:
        return checks.katex(_project(config))
    except checks.BookError as error:
        raise PluginError(str(error)) from None


def on_config(config: MkDocsConfig) -> MkDocsConfig:
    """Render `$`...`$` and ```math with our KaTeX, and link the stylesheet of that same KaTeX; link the
    book's own stylesheets as one file, with Material's table rules retargeted for tables wrapped at build
    time (hooks/site/tables.py). Every Jinja environment of the build lists the theme's files without
    Material's icons, which no build copies (hooks/site/theme_env.py)."""
    global _math_on, _sources_date, _stylesheet, _font_rules
    if _serving and not _kept.get(ADDRESS_CHECKED):  # the first build of `mkdocs serve`: before it, not after
        try:
            serve_address.check_free(*config.dev_addr)
        except serve_address.ServeAddressError as error:
            raise PluginError(str(error)) from None
        _kept[ADDRESS_CHECKED] = True
    theme_env.use(config.theme, incremental.templates(_kept) if _incremental else None)
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
    if _incremental:
        _stamp(config)
    return config


def _stamp(config: MkDocsConfig) -> None:
    """What this build is made from, in three digests: what can change every page (mkdocs.yml, the hooks, the
    theme, the files of docs/ that are not pages, a watched file a snippet may paste, the date, the address),
    grpo_examples' code, and its data."""
    global _stamps
    project, math = _project(config), checks.MATH
    everything = [Path(config.config_file_path), project / "hooks", Path(config.docs_dir)]
    everything += [Path(path) for path in (config.theme.custom_dir, *config.watch) if path and Path(path) != math]
    world = incremental.stamp(
        everything, skip=lambda path: path.suffix == ".md" and path.is_relative_to(config.docs_dir)
    )
    code = incremental.stamp([math], skip=lambda path: path.is_relative_to(math / "data"))
    data = incremental.stamp([math / "data"])
    _stamps = (incremental.digest(world, _sources_date, _math_on, config.site_url), code, data)


def on_files(files: Files, config: MkDocsConfig) -> Files:
    """Serve KaTeX's stylesheet and fonts from the site, taken from the package that renders the HTML, the
    whole book as one page, and the book's joined stylesheet; leave out what of Material's a reader never loads,
    a file of docs/ that links outside the book, and one that would run code at the book's address when opened
    (each reported). What is left is what a page's addresses may name (hooks/site/local_addresses.py)."""
    global _published
    theme_files.drop(files, config)  # no source maps, no unused search languages: hooks/site/theme_files.py
    docs = {Path(file.abs_src_path): file for file in files if file.abs_src_path and file.src_dir == config.docs_dir}
    for path in checks.check_linked_out(list(docs), _project(config), _report):  # never read, never copied
        files.remove(docs.pop(path))
    static = [path for path, file in docs.items() if not file.is_documentation_page()]
    for path in checks.check_published_files(static, _project(config), _report):  # a document: never published
        files.remove(docs.pop(path))
    if (own := files.get_file_from_path(print_book.PRINT_SOURCE)) is not None:  # never replaced silently
        raise PluginError(
            f"{_source_path_of(own.abs_src_path, config)}: this name is the book's generated whole-book page "
            f"({print_book.PRINT_PATH}): rename the page"
        )
    files.append(print_book.print_file(config))  # the whole book on one page: hooks/site/print_book.py
    if _stylesheet is not None:
        stylesheets.serve(_stylesheet, files, config)
    if _math_on:
        dist = _katex(config).assets
        # the package's stylesheet with each font's woff2 alone, and those fonts only: hooks/site/katex_fonts.py
        stylesheet = katex_fonts.woff2_only((dist / STYLESHEET).read_text(encoding="utf-8"), str(dist / STYLESHEET))
        files.append(File.generated(config, KATEX_URL + STYLESHEET, content=stylesheet))
        for font in katex_fonts.files_named(stylesheet, dist):
            files.append(File.generated(config, KATEX_URL + font, abs_src_path=str(dist / font)))
    included = [file for file in files if file.inclusion.value > InclusionLevel.DRAFT.value]  # is_included(), untyped
    published = {file.dest_uri for file in included} | set(config.theme.static_templates) | set(print_book.BOOK_FILES)
    pages = {file.src_uri: file.dest_uri for file in included if file.is_documentation_page()}
    _published = local_addresses.Site(frozenset(published), pages)  # what a page's addresses may name
    return files


def on_nav(nav: Navigation, config: MkDocsConfig, files: Files) -> Navigation:
    """Under `make serve`, before any page is read: the pages this build rebuilds are marked for MkDocs' dirty
    build, the others get back what their last build made (hooks/site/incremental.py)."""
    if not _incremental:
        return nav
    state = incremental.state(_kept)
    pages = [file.page for file in files.documentation_pages() if file.page is not None]
    _order[:] = [(p.file.src_uri, p.url) for p in pages if not print_book.is_print_page(p)]
    candidates = [
        incremental.Candidate(p.file.src_uri, _with_snippets(_text(p, config), config), Path(p.file.abs_dest_path))
        for p in pages
        if not print_book.is_print_page(p)
    ]
    by_uri = {page.file.src_uri: page for page in pages}

    def expands_as(uri: str, record: incremental.PageRecord) -> bool:
        report, markdown = Report(), _body(by_uri[uri], config)
        checked = check_page(markdown, by_uri[uri], config, report)
        _planned[uri] = (markdown, checked, report)  # if it is rebuilt, on_page_markdown takes this
        return not len(report) and checked.markdown == record.expanded

    def guard_clear(uri: str, record: incremental.PageRecord) -> bool:
        page = by_uri[uri]
        source = checks.Source(_source_path(page, config), _text(page, config))
        return not checks.drift_findings(_body(page, config), source, record.used)

    plan = incremental.plan(
        state,
        candidates,
        world=_stamps[0],
        code=_stamps[1],
        data=_stamps[2],
        subjects=checks.fingerprints,
        expands_as=expands_as,
        guard_clear=guard_clear,
    )
    if plan.everything:
        log.info(f"building all {len(candidates)} pages")
        state.pages.clear()
        clean_directory(config.site_dir)
        return nav
    log.info(f"rebuilding {len(plan.rebuilt)} of {len(candidates)} pages: {', '.join(sorted(plan.rebuilt)) or 'none'}")
    for candidate in candidates:
        if candidate.uri in plan.rebuilt:
            incremental.mark_for_rebuild(candidate.output)
        else:
            incremental.restore(by_uri[candidate.uri], state.pages[candidate.uri], files)
    return nav


def _with_snippets(source: str, config: MkDocsConfig) -> str:
    """The page's file and, after it, each file its snippet lines paste: what the page is made from."""
    if "8<" not in source:  # no snippet line: the page is its file
        return source
    pasted = checks.pasted_files(source, "", _project(config), Report())  # check_page reports their problems
    return "\0".join([source, *(path.read_text(encoding="utf-8", errors="replace") for path in pasted)])


def _body(page: Page, config: MkDocsConfig) -> str:
    """The page's Markdown without its front matter, as MkDocs hands it to on_page_markdown."""
    return get_data(_text(page, config))[0]


def _text(page: Page, config: MkDocsConfig) -> str:
    """The page's file as text. MkDocs' own reading stops the build with a traceback on a file that is not UTF-8:
    such a file is reported at its line (hooks/checks.py page_text) and read with its bad bytes replaced."""
    try:
        return page.file.content_string
    except UnicodeDecodeError:
        if page.file.abs_src_path is None:  # a page the book makes (the whole book), never of an author's file
            raise
        return checks.page_text(Path(page.file.abs_src_path).read_bytes(), _source_path(page, config), _report)


def on_page_read_source(page: Page, config: MkDocsConfig) -> str:
    """The page's file as text, read once, as every hook reads it (_text)."""
    return _text(page, config)


def check_page(markdown: str, page: Page, config: MkDocsConfig, report: Report) -> checks.Checked:
    """The page through hooks/checks.py (the same function `make check` calls): its Markdown expanded, its
    problems into the report."""
    source = checks.Source(_source_path(page, config), _text(page, config))
    try:
        return checks.check_page(markdown, source, _project(config), report, math=_math_on)
    except checks.BookError as error:
        raise PluginError(str(error)) from None


def on_page_markdown(markdown: str, page: Page, config: MkDocsConfig, files: Files) -> str:
    """The page checked and expanded; its problems wait in the build's report, which on_env prints. A page
    with problems is built as a stand-in, its title and a line (what the Markdown would make of a broken
    formula is not safe to build); under `mkdocs serve` the overlay lists the problems over it."""
    planned = _planned.pop(page.file.src_uri, None)  # expanded already, by on_nav's plan, from this same text
    if planned is not None and planned[0] == markdown:
        _, result, own = planned
    else:
        own = Report()  # the page's own problems: a data problem another page already reported counts here too
        result = check_page(markdown, page, config, own)
    _report.merge(own)
    if _incremental and not print_book.is_print_page(page):
        source = _with_snippets(_text(page, config), config)
        _pending[page.file.src_uri] = incremental.PageRecord(source, result.used, result.read, result.markdown)
    time_limit.start(_source_path(page, config))  # Markdown converts the page next; on_page_content stops it
    if not len(own):
        return result.markdown
    # The stand-in keeps of the front matter only what it shows: Material's templates would stop on a key that
    # holds what they cannot read (`hide: 5`), under `mkdocs serve`, which goes on to show the problems.
    page.meta = {key: value for key, value in page.meta.items() if key in ("title", "description")}
    _stand_ins.add(page.file.src_uri)
    return error_overlay.stand_in(markdown)


def on_env(env: Any, config: MkDocsConfig, files: Files) -> Any:
    """Every page has been checked: the build stops on the problems of every page and data file at once,
    sorted, with a count. Under `mkdocs serve` it goes on, and every page shows them (hooks/site/error_overlay.py)
    until a save fixes them; the terminal shows them too."""
    global _overlay
    try:
        checks.check_data(_report)
    except checks.BookError as error:
        raise PluginError(str(error)) from None
    _check_anchors(files, config)
    _overlay = ""
    if len(_report) and not _serving:
        raise PluginError(_report.text())
    if len(_report):
        log.error("the book has problems; every page shows them until they are fixed:\n" + _report.text())
        _overlay = error_overlay.overlay(_report)
    if _incremental:
        _rebuild_all_if_shown_everywhere(files)
    return env


def _check_anchors(files: Files, config: MkDocsConfig) -> None:
    """Every link to a place on a page names an id that page holds (hooks/site/anchors.py), now that every page is
    read: MkDocs checks them after writing every page, with no line, and under `make serve` only in the terminal.
    A stand-in holds none of its page's ids, and links to it wait for its problems to be fixed."""
    pages = []
    for file in files.documentation_pages():
        page = file.page
        if (
            page is None
            or page.present_anchor_ids is None
            or print_book.is_print_page(page)
            or file.src_uri in _stand_ins
        ):
            continue
        links = {target.src_uri: dict(found) for target, found in (page.links_to_anchors or {}).items()}
        pages.append(anchors.Linked(file.src_uri, frozenset(page.present_anchor_ids), links))
    for missing in anchors.missing_anchors(pages):
        linking = files.get_file_from_path(missing.source)
        assert linking is not None and linking.page is not None  # one of the pages above
        source = checks.Source(_source_path(linking.page, config), _text(linking.page, config))
        _report.add(Problem(source.path, source.line_of(missing.link), 0, missing.message, missing.link))


def _rebuild_all_if_shown_everywhere(files: Files) -> None:
    """A page whose title or front matter changed shows in every page's nav, and problems show over every
    page: then every page this build kept is written again (from what on_nav restored)."""
    kept = incremental.state(_kept).pages
    for uri, pending in _pending.items():
        file = files.get_file_from_path(uri)
        pending.nav_view = incremental.nav_view(file.page if file is not None else None)
    if len(_report) or any(uri not in kept or kept[uri].nav_view != p.nav_view for uri, p in _pending.items()):
        for file in files.documentation_pages():
            if file.src_uri not in _pending and file.page is not None and not print_book.is_print_page(file.page):
                incremental.mark_for_rebuild(Path(file.abs_dest_path))


def on_post_page(output: str, page: Page, config: MkDocsConfig) -> str:
    """Under `mkdocs serve` with problems standing, the page carries the overlay that lists them. The print page
    is kept for on_post_build, which writes it with the book in it (hooks/site/print_book.py)."""
    global _print_page
    output = error_overlay.inject(output, _overlay) if _overlay else output
    if print_book.is_print_page(page):
        _print_page = (output, page.file.abs_dest_path)
    return output


def on_page_content(html: str, page: Page, config: MkDocsConfig, files: Files) -> str:
    """No placeholder is left in the page as a comment (hooks/checks.py check_html), and each address of the site's
    own names a file it publishes (check_addresses); the page's date is its sources' (hooks/site/build_date.py), its
    description is checked and escaped, an element that holds only a formula is named for screen readers
    (hooks/site/math_labels.py), and each table comes in the box Material's script would otherwise move it into on
    every load (hooks/site/tables.py), and each computed value opens its provenance on a tap or a key
    (hooks/site/provenance.py), and a long name in inline code wraps at its dots and slashes on a phone
    (hooks/site/code_breaks.py)."""
    time_limit.stop()  # Markdown is done with the page (hooks/site/time_limit.py)
    source = checks.Source(_source_path(page, config), _text(page, config))
    checks.check_html(html, source, _report)
    checks.check_addresses(html, source, (page.file.dest_uri, page.file.src_uri), _published, _report)
    page.update_date = _sources_date or page.update_date
    page_meta.describe(page, _source_path(page, config))
    name = page.file.src_uri.removesuffix(".md").replace("/", "-")
    return code_breaks.breakable(tables.wrap(math_labels.label_lone_formulas(provenance.disclose(html, name))))


def before_search(context: dict[str, Any], page: Page, config: MkDocsConfig, nav: Navigation) -> dict[str, Any]:
    """Material's search plugin, which reads the page next, is handed each formula as its MathML text, to index it
    once (hooks/site/math_labels.py); on_page_context gives the page back whole."""
    _unsearched[page.file.src_uri] = page.content or ""
    page.content = math_labels.searchable(page.content or "")
    return context


def on_page_context(context: dict[str, Any], page: Page, config: MkDocsConfig, nav: Navigation) -> dict[str, Any]:
    """After the search plugin's turn: the page is whole again (before_search). The print page gets the whole book,
    now that every page's HTML exists; each page names the KaTeX fonts most of its formulas use, which
    overrides/partials/katex-fonts.html preloads (hooks/site/katex_fonts.py)."""
    global _whole_book
    # The search plugin takes valued data-search-* attributes out of the page it has read (mkdocs-material 9.8.1,
    # material/plugins/search/plugin.py, on_page_context): the page given back loses them too.
    page.content = _SEARCH_ATTRIBUTE.sub("", _unsearched.pop(page.file.src_uri))
    chapters = [page.content or ""]
    if print_book.is_print_page(page):
        page.content = print_book.page_content(config.site_name)
        _whole_book = print_book.whole_book(nav)
        chapters = [p.content for p in nav.pages if p.content is not None and not print_book.is_print_page(p)]
    if _math_on and _font_rules is not None:
        fonts = katex_fonts.fonts_to_preload(chapters, *_font_rules)
        page.meta["katex_fonts"] = [KATEX_URL + font for font in fonts]
    if _incremental and not print_book.is_print_page(page):
        uri = page.file.src_uri
        before = _pending.get(uri) or incremental.state(_kept).pages[uri]
        index = _search_index(config)
        entries = incremental.page_entries(index.entries, page.url) if index is not None else []
        _pending[uri] = incremental.record(page, before, entries)
        _written.add(uri)
    return context


def _search_index(config: MkDocsConfig) -> Any:
    """Material's search index of this build (its plugin keeps it across the builds of `mkdocs serve`)."""
    plugin = config.plugins.get("material/search") or config.plugins.get("search")
    return getattr(plugin, "search_index", None)


def on_build_error(error: Exception) -> None:
    """A build that stops while Markdown converts a page leaves no alarm behind."""
    time_limit.stop()


def on_post_build(config: MkDocsConfig) -> None:
    """Write the whole-book page; keep the formulas rendered in this build for the next process
    (hooks/site/katex_cache.py); a cache that cannot be written is a warning (the site is whole; `mkdocs build
    --strict` stops on it)."""
    if _print_page is not None:
        output, path = _print_page
        try:
            print_book.write(output, _whole_book, path)
        except print_book.PrintPageError as error:
            raise PluginError(str(error)) from None
    if (problem := checks.save()) is not None:
        log.warning(problem)
    if _incremental:
        _keep_for_next_build(config)


def _keep_for_next_build(config: MkDocsConfig) -> None:
    """Under `make serve`: the search index of every page, in the order a full build writes it (Material's
    plugin, which runs next, writes what it is given), and this build's records for the next."""
    state = incremental.state(_kept)
    state.pages.update({uri: record for uri, record in _pending.items() if uri in _written})
    plugin = config.plugins.get("material/search") or config.plugins.get("search")
    index = _search_index(config)
    if plugin is not None and index is not None:
        index.entries = incremental.search_entries(_order, index.entries, _written, state)
        plugin.search_index_prev = None  # its own merge of a dirty build's entries: ours replaces it
    state.world, state.code, state.data = _stamps
    state.subjects = checks.fingerprints()
    state.whole = not len(_report) and all(uri in state.pages for uri, _ in _order)


def _project(config: MkDocsConfig) -> Path:
    """The book's folder: the one that holds mkdocs.yml."""
    return Path(config.config_file_path).resolve().parent


def _source_path(page: Page, config: MkDocsConfig) -> str:
    """The page's file as an author names it: relative to the project, e.g. docs/grpo.md."""
    return _source_path_of(page.file.abs_src_path or page.file.src_uri, config)


def _source_path_of(path: str | None, config: MkDocsConfig) -> str:
    return checks.shown_path(Path(path or "").resolve(), _project(config))


def data_changed(edited: set[Path]) -> None:
    """Only data files changed since the last build (hooks/entry.py): what was read from them is read again."""
    checks.data_changed(edited)


def shutdown() -> None:
    """Stop the KaTeX process (at the end of a build, or before this module is re-imported)."""
    checks.shutdown()
