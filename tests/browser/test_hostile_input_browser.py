"""Text that comes from the book's data is shown as text and never run, through a real build and a real Chromium.

A group in the data file (grpo_examples/data/groups.toml) is text an author, or a contributor's pull request,
controls: its title, its question and its responses reach the page through a value, a block and the group
widget's JSON, which the widget's script then writes into the page. Here a copy of the book gets a group whose
texts are markup and script, a page shows it all three ways, and Chromium loads the built page: no script of the
data runs, no dialog opens, no image is requested, and the reader sees the texts exactly as written.
(The hook's escaping of any text is tests/hooks/test_hostile_input.py's.)
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from playwright.sync_api import Dialog

from scripts.local_server import serve
from scripts.page_ready import LAID_OUT
from tests.browser.conftest import WatchedPage
from tests.conftest import Server, add_pages, copy_project, mkdocs_build

HOSTILE_TITLE = "a hostile <i>title</i>"
HOSTILE_QUESTION = (
    'What is <b>1</b> & "2"? </script><script>window.pwned = 1</script><img src=x onerror="window.pwned = 2">'
)
RIGHT_RESPONSE = "\\boxed{1}"
# wrong (the answer is 1); its TeX once broke the widget's JSON (markdown-katex rendered it inside the <script>)
HOSTILE_RESPONSE = "\\boxed{2} <script>window.pwned = 3</script> $`x^2`$ and `code`"
TEMPLATES = "{{ 7 * 7 }} and {% if true %}yes{% endif %}"  # MkDocs runs no template in a page's Markdown
# a page's title, from its front matter or its heading: Material printed the first as typed, the second with its
# `&lt;` turned back into `<` (striptags), in the tab's <title>: both ran their script
PAGE_TITLE = 'Hostile </title><script>window.pwned = 4</script><img src=x onerror="window.pwned = 5"> & <think>'
HEADING = "A &lt;/title&gt;&lt;script&gt;window.pwned = 6&lt;/script&gt; heading"
PAGE = (
    f"---\ntitle: {json.dumps(PAGE_TITLE)}\n"
    "description: A page whose group's texts are hostile, to see them shown and never run.\n---\n\n"
    "# Hostile\n\nThe question: <!-- grpo:value hostile.question -->.\n\n"
    "<!-- grpo:block group-table hostile -->\n\n<!-- grpo:widget group hostile -->\n\n"
    f"Templates are not run: {TEMPLATES}.\n"
)


def _with_hostile_group(project: Path) -> None:
    """Add the group [hostile] to the copy's groups.toml (JSON's strings and arrays of them are TOML's too)."""
    groups = project / "grpo_examples" / "data" / "groups.toml"
    table = "\n".join(
        [
            "",
            "[hostile]",
            f"title = {json.dumps(HOSTILE_TITLE, ensure_ascii=False)}",
            f"question = {json.dumps(HOSTILE_QUESTION, ensure_ascii=False)}",
            'answer = "1"',
            f"responses = {json.dumps([RIGHT_RESPONSE, HOSTILE_RESPONSE], ensure_ascii=False)}",
            "",
        ]
    )
    groups.write_text(groups.read_text(encoding="utf-8") + table, encoding="utf-8")


@pytest.mark.slow
def test_text_from_the_examples_is_shown_as_text_never_run(tmp_path: Path, page: WatchedPage) -> None:
    project = copy_project(tmp_path / "book")
    _with_hostile_group(project)
    add_pages(project, {"hostile.md": PAGE, "heading.md": f"---\ndescription: A title.\n---\n\n# {HEADING}\n"})
    site = tmp_path / "site"
    result = mkdocs_build(project, site)
    assert result.returncode == 0, result.stderr
    built = (site / "hostile" / "index.html").read_text(encoding="utf-8")
    assert "<script>window.pwned" not in built and "<img src=x" not in built and "<i>title</i>" not in built
    assert TEMPLATES in built

    dialogs: list[str] = []

    def dismiss(dialog: Dialog) -> None:
        dialogs.append(dialog.message)
        dialog.dismiss()

    page.page.on("dialog", dismiss)
    with serve(site) as address:
        server = Server(address)
        page.page.goto(f"{server.url}hostile/")
        widget = page.page.locator("figure.grpo-widget .gw")
        widget.wait_for()  # the widget's script ran, on the data of the hostile group
        page.page.wait_for_function(LAID_OUT)  # a block not laid out yet has no innerText
        assert page.page.evaluate("() => typeof window.pwned") == "undefined" and dialogs == []
        article = page.page.locator("article")
        # Shown as the text it is: in the prose, in the widget's question, in its response and its problem's name.
        prose = article.locator("p", has_text="The question:")
        assert prose.inner_text() == f"The question: {HOSTILE_QUESTION}."
        assert HOSTILE_QUESTION in widget.locator(".gw-question").inner_text()
        assert widget.locator("li.gw-response").nth(1).locator(".gw-text").inner_text() == HOSTILE_RESPONSE
        assert "A hostile <i>title</i>" in widget.inner_text()  # the title, capitalised, names the problem
        assert f"Templates are not run: {TEMPLATES}." in article.inner_text()
        # Nothing of it became markup: no image, no bold 1, no italic title.
        assert page.page.locator("img[src='x']").count() == 0
        assert article.locator("b", has_text="1").count() == 0 and article.locator("i", has_text="title").count() == 0
        assert not [url for url in page.requests if url.endswith("/x")]
        assert page.console_errors == [] and page.external_requests(server) == []
        # The titles, in the tab and the page's header, as typed.
        assert page.page.title() == f"{PAGE_TITLE} - GRPO, computed"
        assert page.page.locator("[data-md-component=header-topic]").inner_text() == PAGE_TITLE
        page.page.goto(f"{server.url}heading/")
        shown = "A </title><script>window.pwned = 6</script> heading"
        assert page.page.title() == f"{shown} - GRPO, computed"
        assert page.page.locator("[data-md-component=header-topic]").inner_text() == shown
        assert page.page.evaluate("() => typeof window.pwned") == "undefined" and dialogs == []
        assert page.page.locator("img[src='x']").count() == 0
