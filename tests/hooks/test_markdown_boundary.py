"""The one boundary data text crosses (hooks/engine/markdown.py): a `Markdown` is the hooks' own and passes as it
is; any other str is text and is shown as written wherever it meets Markdown: in md(), join(), a table's cell,
and as what a block or a widget hands the engine. So a layout that forgets to mark its own Markdown shows it
escaped (a visible slip), never data acting as markup. tests/hooks/test_data_boundary.py drives every real block
and widget with hostile data; this file pins the rule itself.
"""

from __future__ import annotations

import pytest

import grpo_examples as gx
from hooks.engine.markdown import Markdown, as_markdown, code, join, md, table
from hooks.engine.widget import Widget
from tests.chapter_pipeline import book_with, page_markdown, swap_book

HOSTILE = "<img src=x onerror=alert(1)> *a* [l](u) `c` | \\"
SHOWN = "&lt;img src=x onerror=alert\\(1\\)&gt; \\*a\\* \\[l\\]\\(u\\) \\`c\\` \\| \\\\"  # each character as written


def test_text_is_shown_as_written_and_markdown_passes() -> None:
    assert as_markdown(HOSTILE) == SHOWN
    ours = Markdown("**bold** <br> $`\\mu`$")
    assert as_markdown(ours) is ours
    # quotes are element content: kept (an apostrophe in a question reads as one)
    assert as_markdown('DAPO\'s "dynamic" sampling') == 'DAPO\'s "dynamic" sampling'


def test_str_methods_on_markdown_give_text_which_the_boundary_escapes() -> None:
    # the reason to compose with md() and join(): '+', f-strings and replace() drop the mark
    joined = Markdown("**a**") + "**b**"
    assert type(joined) is str and as_markdown(joined) == "\\*\\*a\\*\\*\\*\\*b\\*\\*"


def test_md_fills_the_hooks_template_with_text_fields_escaped() -> None:
    assert md("**{}** (reference answer: {})", HOSTILE, "4") == f"**{SHOWN}** (reference answer: 4)"
    assert md("**{}** of {}", Markdown("*kept*"), 5) == "***kept*** of 5"
    assert isinstance(md("{}", "x"), Markdown)


def test_join_keeps_its_separator_and_escapes_each_text_part() -> None:
    assert join("\n\n", [Markdown("| a |"), "*b*"]) == "| a |\n\n\\*b\\*"


def test_a_table_shows_text_cells_as_written_and_keeps_markdown_cells() -> None:
    drawn = table(["i", Markdown("π<sub>θ</sub>")], [["1", HOSTILE], ["2", code("a|b")]])
    assert drawn.split("\n") == [
        "| i | π<sub>θ</sub> |",
        "|---|---|",
        f"| 1 | {SHOWN} |",
        "| 2 | ` a\\|b ` |",
    ]


def _unmarked(group: gx.Group) -> str:
    """A layout that forgot to mark its Markdown (and puts data in it)."""
    return f"**{group.question}** <b>{group.answer}</b>"


def _marked(group: gx.Group) -> Markdown:
    return md("**{}** <b>{}</b>", group.question, "<i>")


def test_what_a_block_hands_back_unmarked_is_shown_as_text(monkeypatch: pytest.MonkeyPatch) -> None:
    blocks = {"unmarked": _unmarked, "marked": _marked}  # mypy stops the unmarked one too (Blocks want Markdown)
    swap_book(monkeypatch, book_with(blocks=blocks))  # type: ignore[arg-type]
    question = gx.group("easy").question
    unmarked = page_markdown("<!-- grpo:block unmarked easy -->")
    assert unmarked.startswith(f"\\*\\*{as_markdown(question)}\\*\\* &lt;b&gt;")
    marked = page_markdown("<!-- grpo:block marked easy -->")
    assert marked.startswith(f"**{as_markdown(question)}** <b>&lt;i&gt;</b>")


def _unmarked_widget(group: gx.Group) -> Widget:
    text = f"<b>{group.title}</b>"
    return Widget("group", text, {}, text, text)  # type: ignore[arg-type]  # what mypy stops; the engine too


def test_what_a_widget_hands_back_unmarked_is_shown_as_text(monkeypatch: pytest.MonkeyPatch) -> None:
    swap_book(monkeypatch, book_with(widgets={"unmarked": _unmarked_widget}))
    page = page_markdown("<!-- grpo:widget unmarked easy -->")
    assert "<b>" not in page and page.count("&lt;b&gt;") == 3
