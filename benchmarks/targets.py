"""The targets of issue 6, each judged on the figures a run measured."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

WIDGET_JS_LIMIT = 15_000  # bytes, minified: "under 15 KB"
PERFORMANCE_TARGET = 95  # Lighthouse performance, mobile preset, median of runs
CHECK_LIMIT = 1.0  # seconds: `make check` of the whole book, every page and data file
LINEAR_TOLERANCE = 1.5  # the last interval's cost per page may be at most this times the first's
CHAPTER_EDIT_LIMIT = 0.5  # seconds, median, file saved -> edited page served, in the book and the 10x book
DATA_EDIT_LIMIT = 1.0  # seconds, median, in the 10x book


@dataclass(frozen=True)
class Verdict:
    target: str
    measured: str
    met: bool


def judge(results: dict[str, Any]) -> list[Verdict]:
    verdicts = []
    math = results.get("math")
    if math:
        ratio = math["stock_over_book_cold"]
        measured = (
            f"{ratio:.0f}× ({math['stock_ms_per_formula_cold']:.0f} ms against "
            f"{math['book_ms_per_formula_cold']:.1f} ms; "
            f"{math['stock_over_book_cold_same_formulas']:.0f}× if the book built only the stock run's formulas)"
        )
        verdicts.append(
            Verdict("math per formula ≥ 50× cheaper than stock markdown-katex, cold", measured, ratio >= 50)
        )
    builds = results.get("builds")
    if builds:
        ratio = builds["cold_over_cold_math_off"]
        verdicts.append(Verdict("cold build ≤ 2× the math-off build", f"{ratio:.2f}×", ratio <= 2))
    if builds and "check" in builds:
        check = builds["check"]["median"]
        verdicts.append(
            Verdict("`make check` of the whole book < 1 s (median, warm)", f"{check:.2f} s", check < CHECK_LIMIT)
        )
    rebuild = results.get("rebuild")
    if rebuild:
        ratio, served = rebuild["in_process_ratio"], rebuild["served_ratio"]
        verdicts.append(
            Verdict(
                "warm rebuild after a one-word edit ≤ 1.5× the math-free one",
                f"{ratio:.2f}× in-process ({served:.2f}× through a real `mkdocs serve`)",
                ratio <= 1.5,
            )
        )
    rows = results.get("incremental") or []
    shared = [row for row in rows if row.get("shared_data")]  # the 10x book whose copies read the same data
    for row in rows:
        if row.get("shared_data"):
            continue
        chapter = row["chapter"]["served"]["median"]
        verdicts.append(
            Verdict(
                f"`make serve`, {row['times']}x book ({row['pages']} pages): a one-word chapter edit served "
                f"≤ {CHAPTER_EDIT_LIMIT} s (median)",
                f"{chapter:.2f} s, {_rebuilt(row['chapter'])}",
                chapter <= CHAPTER_EDIT_LIMIT,
            )
        )
        if row["times"] >= 10:
            data = row["data"]["served"]["median"]
            verdicts.append(
                Verdict(
                    f"`make serve`, {row['times']}x book: a data edit served ≤ {DATA_EDIT_LIMIT} s (median)",
                    f"{data:.2f} s, {_rebuilt(row['data'])}"
                    + "".join(
                        f" (every copy reading ppo.toml: {other['data']['served']['median']:.2f} s, "
                        f"{_rebuilt(other['data'])})"
                        for other in shared
                    ),
                    data <= DATA_EDIT_LIMIT,
                )
            )
    synthetic = results.get("synthetic")
    if synthetic and len(synthetic["seconds_per_added_page"]) >= 2:
        first, last = synthetic["seconds_per_added_page"][0], synthetic["seconds_per_added_page"][-1]
        verdicts.append(
            Verdict(
                "build cost linear in pages and formulas (synthetic book of 10× the chapters; "
                f"cost per added page grows ≤ {LINEAR_TOLERANCE}×)",
                f"{1000 * first:.0f} ms then {1000 * last:.0f} ms per added page ({last / first:.2f}×)",
                last <= LINEAR_TOLERANCE * first,
            )
        )
    pages = results.get("pages")
    if pages:
        verdicts.extend(_page_verdicts(pages))
    return verdicts


def _rebuilt(edit: dict[str, Any]) -> str:
    counts = sorted(set(edit["pages_rebuilt"]))
    return f"{' or '.join(str(c) for c in counts)} page{'s' if counts != [1] else ''} rebuilt"


def _page_verdicts(pages: list[dict[str, Any]]) -> list[Verdict]:
    verdicts = []
    if all("lighthouse" in page for page in pages):
        performance = {page["page"]: page["lighthouse"]["median"]["performance"] for page in pages}
        worst = min(performance, key=lambda p: performance[p])
        verdicts.append(
            Verdict(
                f"every page: Lighthouse performance ≥ {PERFORMANCE_TARGET} (median of runs)",
                f"lowest {performance[worst]:.0f} ({worst})",
                performance[worst] >= PERFORMANCE_TARGET,
            )
        )
        accessibility = {page["page"]: page["lighthouse"]["median"]["accessibility"] for page in pages}
        below = sorted(p for p, score in accessibility.items() if score < 100)
        verdicts.append(
            Verdict(
                "every page: Lighthouse accessibility 100",
                f"{len(pages) - len(below)} of {len(pages)} pages at 100"
                + (f"; lowest {min(accessibility.values()):.0f}" if below else ""),
                not below,
            )
        )
        font_audit = all(page["lighthouse"]["details"]["font_display_audit"] in (1, None) for page in pages)
    else:
        font_audit = True
    widget = {page["page"]: sum(js["bytes_minified"] for js in page["js_beyond_material"]) for page in pages}
    heaviest = max(widget, key=lambda p: widget[p])
    verdicts.append(
        Verdict(
            "every page: the widgets' own JS < 15 KB minified",
            f"largest {widget[heaviest] / 1000:.1f} KB ({heaviest})",
            widget[heaviest] < WIDGET_JS_LIMIT,
        )
    )
    external = sum(len(page["external_requests"]) + len(page["external_blocking_tags"]) for page in pages)
    verdicts.append(
        Verdict(
            "no render-blocking script or stylesheet from outside the site",
            f"{external} requests or blocking tags off 127.0.0.1 on {len(pages)} pages",
            external == 0,
        )
    )
    hidden = sum(len(page["fonts_without_swap"]) for page in pages)
    verdicts.append(
        Verdict(
            "fonts without a flash of invisible text",
            f"{hidden} @font-face rules without font-display swap/fallback/optional"
            + ("; Lighthouse font-display audit passed on every page" if font_audit else "; Lighthouse flags fonts"),
            hidden == 0 and font_audit,
        )
    )
    return verdicts
