"""The KaTeX fonts most of a page's formulas are set in, so the page can ask for them beside its stylesheets.

A browser asks for a web font only once it lays out text set in it. When the font arrives, Chromium
restyles and re-lays every element set in that family, and in a formula that is every span: on a chapter
of 5,000 elements, each of KaTeX's fonts arriving late cost a full restyle (40-140 ms on this machine,
four times that on Lighthouse's phone). Preloading a font lets it arrive with the stylesheets, before the
first layout; but every preloaded byte shares a slow network with the stylesheets that the first paint
waits for. So a page preloads the fonts at least half its formulas need (on every chapter: KaTeX_Main and
KaTeX_Math, in nearly every formula), and a font few formulas use (a big delimiter's, blackboard bold's) loads
when laid out (benchmarks/rationale.md has the measurements). Which class sets which font is read from
the KaTeX stylesheet the build serves, so the list follows the KaTeX version that renders the HTML.

The site ships each font as woff2 only, and that stylesheet names only those files: `woff2_only` makes it
from the package's own.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from mkdocs.exceptions import PluginError

FONT_FACE = re.compile(r"@font-face\{([^}]*)\}")
RULE = re.compile(r"([^{}@]+)\{([^{}]*)\}")
DECLARATION = re.compile(r"(font-family|font-weight|font-style):([^;]+)")
WOFF2 = re.compile(r"url\(([^)]+\.woff2)\)")
WOFF2_SOURCE = re.compile(r'url\(([^)"\']+\.woff2)\) format\("woff2"\)')  # one source of an @font-face's src
URL = re.compile(r"url\(([^)]*)\)")
CLASS_ATTRIBUTE = re.compile(r'class="([^"]+)"')
COMBINATOR = re.compile(r"\s*[\s>+~]\s*")
FORMULA_START = '<span class="katex">'
PRELOAD_SHARE = 0.5  # a font at least this share of a page's formulas need is preloaded


@dataclass(frozen=True)
class FontRule:
    """A KaTeX rule that sets its elements in one font: the classes it needs, the font file it picks."""

    compounds: tuple[frozenset[str], ...]  # each compound's classes, as one element must carry them
    font: str  # the woff2 file, relative to the stylesheet: fonts/KaTeX_Math-Italic.woff2


def font_rules(stylesheet: str) -> tuple[str, list[FontRule]]:
    """KaTeX's base font (every formula's: `.katex` sets KaTeX_Main) and the rules that change it."""
    faces = {}
    for face in FONT_FACE.finditer(stylesheet):
        declarations = dict(DECLARATION.findall(face.group(1)))
        faces[_face_key(declarations)] = WOFF2.search(face.group(1)).group(1)  # type: ignore[union-attr]
    rules = []
    for rule in RULE.finditer(FONT_FACE.sub("", stylesheet)):
        declarations = dict(DECLARATION.findall(rule.group(2)))
        font = faces.get(_face_key(declarations)) if declarations else None
        if font is None:
            continue
        for selector in rule.group(1).split(","):
            compounds = [frozenset(re.findall(r"\.([\w-]+)", part)) for part in COMBINATOR.split(selector.strip())]
            compounds = [compound - {"katex"} for compound in compounds if compound - {"katex"}]
            if compounds:
                rules.append(FontRule(tuple(compounds), font))
    return faces[_face_key({})], rules


def woff2_only(stylesheet: str, origin: str) -> str:
    """KaTeX's stylesheet with each @font-face naming its woff2 file alone, made from the package's own at build time.

    KaTeX's package holds each font three times (.woff2, .woff, .ttf) and its stylesheet names all three; a
    browser takes the first source it can read, and every browser the book serves reads woff2 (Chrome 36,
    Firefox 39, Edge 14, Safari 12 and later), so the .woff and .ttf files, two thirds of the fonts, were never
    fetched. The site ships the woff2 files only, and this stylesheet must then name no other. It is made from
    the stylesheet of the KaTeX that renders the formulas, never kept as a copy, so it follows that KaTeX; if
    that stylesheet no longer has the shape read here (no @font-face, or one without exactly one woff2 source),
    the build stops (origin names the file) rather than ship a stylesheet that names fonts the site lacks.
    """

    def one_source(face: re.Match[str]) -> str:
        declarations = face.group(1).split(";")
        sources = [d for d in declarations if d.strip().startswith("src:")]
        woff2 = WOFF2_SOURCE.findall(sources[0]) if len(sources) == 1 else []
        if len(woff2) != 1:
            raise PluginError(
                f"{origin}: an @font-face without exactly one woff2 source (the site ships KaTeX's fonts as woff2 "
                f"only: hooks/site/katex_fonts.py woff2_only): {face.group(0)}"
            )
        kept = [f'src:url({woff2[0]}) format("woff2")' if d in sources else d for d in declarations]
        return "@font-face{" + ";".join(kept) + "}"

    if not FONT_FACE.search(stylesheet):
        raise PluginError(
            f"{origin} has no @font-face rule: hooks/site/katex_fonts.py woff2_only reads KaTeX's fonts there"
        )
    return FONT_FACE.sub(one_source, stylesheet)


def files_named(stylesheet: str, folder: Path) -> list[str]:
    """Every file the stylesheet's url()s name, relative to it (its fonts); PluginError if folder lacks one."""
    names = sorted({url for url in URL.findall(stylesheet) if not url.startswith("data:")})
    missing = [name for name in names if not (folder / name).is_file()]
    if missing:
        raise PluginError(
            f"KaTeX's stylesheet names {', '.join(missing)}, which {folder} lacks: reinstall KaTeX with `npm ci`"
        )
    return names


def fonts_used(html: str, base_font: str, rules: list[FontRule]) -> list[str]:
    """The font files a page's formulas need: KaTeX's base font, and each font whose rule its elements meet."""
    if 'class="katex' not in html:
        return []
    class_lists = {frozenset(value.split()) for value in CLASS_ATTRIBUTE.findall(html)}
    every_class = frozenset().union(*class_lists)
    used = {base_font}
    for rule in rules:
        if not all(compound <= every_class for compound in rule.compounds):
            continue  # a class the rule needs is on no element: the quick test, true of most rules
        if all(any(compound <= classes for classes in class_lists) for compound in rule.compounds):
            used.add(rule.font)
    return sorted(used)


def fonts_to_preload(html: str | Sequence[str], base_font: str, rules: list[FontRule]) -> list[str]:
    """The font files at least PRELOAD_SHARE of the page's formulas need, each formula read on its own; html is
    the page's, or each chapter's for the whole-book page (counted per chapter, which `make serve` keeps)."""
    needs: Counter[str] = Counter()
    formulas = 0
    for part in [html] if isinstance(html, str) else html:
        counted, found = _font_counts(part, base_font, tuple(rules))
        needs.update(counted)
        formulas += found
    return sorted(font for font, count in needs.items() if count >= PRELOAD_SHARE * formulas)


@lru_cache(maxsize=4096)
def _font_counts(html: str, base_font: str, rules: tuple[FontRule, ...]) -> tuple[Counter[str], int]:
    """How many of the page's formulas need each font, and how many formulas it has."""
    formulas = html.split(FORMULA_START)[1:]  # each from its start to the next formula's
    needs = Counter(font for formula in formulas for font in _formula_fonts(formula, base_font, rules))
    return needs, len(formulas)


@lru_cache(maxsize=1 << 16)  # a formula recurs on its page and in every rebuild of `make serve`
def _formula_fonts(formula: str, base_font: str, rules: tuple[FontRule, ...]) -> list[str]:
    return fonts_used(FORMULA_START + formula, base_font, list(rules))


def _face_key(declarations: dict[str, str]) -> tuple[str, str, str]:
    """A font face as a rule names it; what the rule leaves out is KaTeX's default (KaTeX_Main, 400, normal)."""
    weight = declarations.get("font-weight", "400").strip().replace("bold", "700").replace("normal", "400")
    return (
        declarations.get("font-family", "KaTeX_Main").split(",")[0].strip(),
        weight,
        declarations.get("font-style", "normal").strip(),
    )
