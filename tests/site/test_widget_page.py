"""The group widget as the real build publishes it, and the contributor's page that documents its contract.

What the placeholder writes is tests/hooks/test_widget.py's; what the widget does in a browser is
tests/browser/test_widget_browser.py's. Here: the built GRPO chapter holds the figure with its tables, its data
and its caption, the site serves the scripts the loader adds and the widget's styles, and the built widgets
guide names the contract the browser tests rely on.

Expected numbers come from the chapter's spec: easy [1, 1, 1, 1, 0] has mean 0.8 and std 0.4, so advantages
(1 - 0.8) / 0.4 = +0.5 and (0 - 0.8) / 0.4 = -2.0; hard [1, 0, 0, 0, 0] has mean 0.2 and std 0.4, so +2.0 and
-0.5.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from tests.conftest import ROOT
from tests.site_html import article, code_texts, page_html

# Python-Markdown may reorder the attributes of raw HTML: match the script whatever their order.
DATA = re.compile(r'<script (?=[^>]*type="application/json")[^>]*class="grpo-widget__data"[^>]*>(.*?)</script>', re.S)
GROUP_FIGURE = re.compile(r'<figure class="grpo-widget" data-widget-kind="group"[^>]*>.*?</figure>', re.S)
SCRIPTS = Path("assets") / "javascripts"
MINUS = "\u2212"


def _group_figure(site: Path) -> str:
    [figure] = GROUP_FIGURE.findall(page_html(site, "grpo"))  # the chapter places one group widget
    return str(figure)


def _advantage_column(table: str) -> list[str]:
    """The last cell of each body row of a table: the advantage A_i of each response."""
    body = table[table.index("<tbody>") :]
    return [re.findall(r"<td\b[^>]*>(.*?)</td>", row, re.S)[-1] for row in re.findall(r"<tr>(.*?)</tr>", body, re.S)]


def test_the_built_chapter_carries_the_widget_its_table_and_its_assets(built_site: Path) -> None:
    page = page_html(built_site, "grpo")
    figure = _group_figure(built_site)
    static = figure[: figure.index("grpo-widget__data")]  # the tables before the data: what shows without JS
    tables = re.split(r'<table class="grpo-table[^"]*">', static)[1:]
    assert len(tables) == 2, static  # one for each group named, in the order named
    assert "What is 7 × 8?" in re.split(r'<table class="grpo-table[^"]*">', static)[0]
    assert _advantage_column(tables[0]) == ["+0.5"] * 4 + [f"{MINUS}2.0"]
    assert _advantage_column(tables[1]) == ["+2.0"] + [f"{MINUS}0.5"] * 4
    note = static[static.index("How these numbers were computed") :]  # the engine's note, for both groups
    assert {"grpo_examples.group('easy')", "grpo_examples.group('hard')"} <= set(code_texts(note))

    [data] = json.loads(DATA.findall(figure)[0])  # an array of one object: see hooks/engine/widget.py
    assert [group["name"] for group in data["groups"]] == ["easy", "hard"]
    assert [response["reward"] for response in data["groups"][0]["responses"]] == [1, 1, 1, 1, 0]
    assert "<figcaption>" in figure

    # The loader is on the page; the runtime and the group's script are not, the loader adds them (the browser
    # tests watch it do so): both must be served beside it, as the docs/ folder has them.
    assert 'data-widget-script="group-widget.js"' in figure
    assert 'src="../assets/javascripts/widgets.js"' in page
    loader = (built_site / SCRIPTS / "widgets.js").read_text(encoding="utf-8")
    assert re.findall(r'\badd\("([a-z0-9-]+\.js)"\)', loader) == ["widget-runtime.js"]  # before each kind's script
    for script in ("widget-runtime.js", "group-widget.js"):
        assert f'{script}"></script>' not in page
        built = built_site / SCRIPTS / script
        assert built.read_bytes() == (ROOT / "docs" / SCRIPTS / script).read_bytes(), script

    # Its styles arrive in the book's one stylesheet (hooks/site/stylesheets.py).
    book_css = re.search(r'href="\.\./(assets/stylesheets/book\.[0-9a-f]{8}\.css)"', page)
    assert book_css is not None
    joined = (built_site / book_css.group(1)).read_text(encoding="utf-8")
    for stylesheet in ("widgets.css", "group-widget.css"):
        own = (ROOT / "docs" / "assets" / "stylesheets" / stylesheet).read_text(encoding="utf-8").strip()
        assert own in joined, stylesheet


def _exported(script: str, name: str) -> list[str]:
    """The names a widget script puts on window: `window.<name> = { a, b, c };`."""
    found = re.search(rf"window\.{name} = \{{([^}}]*)\}};", script)
    assert found is not None, f"the script no longer sets window.{name}"
    return [word.strip() for word in found.group(1).split(",")]


def test_the_contributor_page_documents_the_contract(built_site: Path) -> None:
    code = code_texts(article(page_html(built_site, "guide/widgets")))
    everything = "\n".join(code)
    for term in (
        "<!-- grpo:widget group easy hard -->",
        'figure.grpo-widget[data-widget-kind="group"]',
        "data-reward",
        "data-advantage",
        'aria-live="polite"',
        "window.grpoWidgets",
        "docs/assets/javascripts/widget-runtime.js",
        "window.grpoWidget.advantages(rewards, ddof, eps, rtol)",
    ):
        assert term in everything, term

    def documented(name: str) -> bool:
        """Written in code on the page: alone (`el`), called (`boot(kind, init)`), or on its object."""
        return any(text == name or text.startswith((f"{name}(", f"window.grpoWidget.{name}(")) for text in code)

    # Every helper the runtime shares, and every function of the group's port, as the served scripts name them.
    runtime = (built_site / SCRIPTS / "widget-runtime.js").read_text(encoding="utf-8")
    group = (built_site / SCRIPTS / "group-widget.js").read_text(encoding="utf-8")
    missing = [
        name for name in _exported(runtime, "grpoWidgets") + _exported(group, "grpoWidget") if not documented(name)
    ]
    assert not missing, f"docs/guide/widgets.md does not document {missing}"
