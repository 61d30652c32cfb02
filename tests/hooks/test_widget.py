"""The grpo:widget placeholder: the figure it writes, the JSON it embeds, the errors it raises.

Expected numbers come from the chapter's spec (shared/spec/grpo-chapter.md: easy [1, 1, 1, 1, 0] gives
+0.5 and -2.0, hard [1, 0, 0, 0, 0] gives +2.0 and -0.5; TRL adds 1e-4, verl 1e-6, both on the sample
std) and from the outside oracle tests/data/advantage-vectors.json.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from hooks.namespaces import Namespace
from hooks.placeholders import PageError, expand
from hooks.registry import NAMESPACES
from hooks.widget import Widget, script_json
from tests.conftest import ROOT

ORACLE = json.loads((Path(__file__).parent / "data" / "advantage-vectors.json").read_text())["groups"]
# Python-Markdown may reorder the attributes of raw HTML: match the script whatever their order.
DATA = re.compile(r'<script (?=[^>]*type="application/json")[^>]*class="grpo-widget__data"[^>]*>(.*?)</script>', re.S)


def _widget(line: str = "<!-- grpo:widget easy hard -->") -> str:
    return expand(f"Some prose.\n\n{line}\n\nMore prose.\n", "chapter.md").markdown


def _data(text: str) -> dict[str, object]:
    found = DATA.findall(text)
    assert len(found) == 1, text
    data = json.loads(found[0])
    assert isinstance(data, list) and len(data) == 1  # an array: see hooks/widget.py
    widget: dict[str, object] = data[0]
    return widget


def _oracle(rewards: list[float]) -> dict[str, object]:
    return next(group for group in ORACLE if group["rewards"] == rewards)


def test_the_widget_is_a_figure_with_the_static_tables_the_data_and_a_caption() -> None:
    text = _widget()
    opening = '<figure class="grpo-widget" data-widget-kind="group" data-widget-script="group-widget.js" markdown="1">'
    assert text.index(opening) < text.index("grpo-widget__static")
    assert text.index("grpo-widget__static") < text.index("application/json") < text.index("<figcaption")
    assert text.count("</figure>") == 1 and text.index("</figure>") < text.index("More prose.")
    # The static part is the group-table block of each group, in the order named: what shows without JS.
    static = text[text.index("grpo-widget__static") : text.index("</div>")]
    easy, hard = static.split("What is the remainder when 2^100 is divided by 7?")
    assert "What is 7 × 8?" in easy

    def advantage_column(table: str) -> list[str]:
        rows = [row for row in table.split("\n") if re.match(r"\| \d+ \|", row)]
        return [row.rsplit("|", 2)[-2].strip() for row in rows]

    assert advantage_column(easy) == ["+0.5"] * 4 + ["−2.0"]
    assert advantage_column(hard) == ["+2.0"] + ["−0.5"] * 4


def test_the_json_holds_the_groups_in_order_with_texts_answers_and_verifier_rewards() -> None:
    data = _data(_widget("<!-- grpo:widget hard easy -->"))
    groups = data["groups"]
    assert isinstance(groups, list)
    assert [g["name"] for g in groups] == ["hard", "easy"]
    easy = groups[1]
    assert easy["question"] == "What is 7 × 8?" and easy["reference"] == "56"
    assert [r["reward"] for r in easy["responses"]] == [1, 1, 1, 1, 0]
    assert [r["answer"] for r in easy["responses"]] == ["56", "56", "56", "56", "54"]
    assert easy["responses"][4]["text"].endswith(r"\boxed{54}")
    assert [r["reward"] for r in groups[0]["responses"]] == [1, 0, 0, 0, 0]


def test_the_json_holds_the_conventions_and_the_tolerance_the_script_must_not_type() -> None:
    data = _data(_widget())
    conventions = {c["key"]: (c["ddof"], c["eps"]) for c in data["conventions"]}  # type: ignore[attr-defined]
    assert conventions == {"population": (0, 0.0), "trl": (1, 1e-4), "verl": (1, 1e-6)}
    assert data["equal_rewards_rtol"] == 1e-9  # the tolerance stated in grpo_examples/advantages.py
    assert (data["min_group"], data["max_group"]) == (2, 16)


def test_the_json_holds_numpy_advantages_that_match_the_outside_oracle() -> None:
    data = _data(_widget())
    keys = {"population": "population", "trl": "trl_sample_eps_1e-4", "verl": "verl_sample_eps_1e-6"}
    for group in data["groups"]:  # type: ignore[attr-defined]
        oracle = _oracle([r["reward"] for r in group["responses"]])
        for ours, theirs in keys.items():
            assert group["numpy_advantages"][ours] == pytest.approx(oracle[theirs], rel=1e-12, abs=1e-12)
    easy = data["groups"][0]  # type: ignore[index]
    assert easy["numpy_advantages"]["population"] == pytest.approx([0.5, 0.5, 0.5, 0.5, -2.0])


def test_the_json_cannot_close_its_script_early() -> None:
    hostile = {"text": "</script><script>alert(1)</script> & <!-- x -->"}
    text = script_json(hostile)
    assert "<" not in text and ">" not in text and "&" not in text
    assert json.loads(text) == hostile


def test_an_unknown_example_names_the_page_the_line_and_the_known_names() -> None:
    with pytest.raises(PageError) as caught:
        expand("# Title\n\nProse.\n<!-- grpo:widget easy hrad -->\n", "chapter.md")
    message = str(caught.value)
    assert message.startswith("chapter.md:4: unknown example 'hrad'")
    assert "did you mean 'hard'" in message and "<!-- grpo:widget easy hrad -->" in message


@pytest.mark.parametrize(
    ("line", "complaint"),
    [
        ("<!-- grpo:widget -->", "needs one or more example names"),
        ("<!-- grpo:widget easy shown=hard -->", "has no options"),
        ("Look: <!-- grpo:widget easy -->", "on a line of its own"),
    ],
)
def test_a_misused_widget_stops_the_build_with_its_line(line: str, complaint: str) -> None:
    with pytest.raises(PageError) as caught:
        expand(f"Prose.\n{line}\n", "guide.md")
    assert str(caught.value).startswith("guide.md:2: ") and complaint in str(caught.value)


def test_in_code_the_placeholder_stays_as_written() -> None:
    text = expand("Write `<!-- grpo:widget easy -->` on its own line.\n", "guide.md").markdown
    assert "grpo-widget" not in text and "`<!-- grpo:widget easy -->`" in text


def test_the_built_chapter_carries_the_widget_its_table_and_its_assets(built_site: Path) -> None:
    page = (built_site / "grpo" / "index.html").read_text()
    figure = page[page.index('<figure class="grpo-widget"') : page.index("</figure>")]
    static = figure[: figure.index("grpo-widget__data")]  # the tables before the data
    assert static.count('<table class="grpo-table">') == 2 and "<td>−2.0</td>" in static and "<td>+2.0</td>" in static
    assert "How these numbers were computed" in static  # each table keeps its provenance note
    assert [g["name"] for g in _data(figure)["groups"]] == ["easy", "hard"]  # type: ignore[attr-defined]
    assert "<figcaption>" in figure
    assert 'data-widget-script="group-widget.js"' in figure  # the loader adds the script (test_widget_browser.py)
    assert 'src="../assets/javascripts/widgets.js"' in page and 'group-widget.js"></script>' not in page
    assert (built_site / "assets" / "javascripts" / "group-widget.js").is_file()
    # Its styles arrive in the book's one stylesheet (hooks/stylesheets.py).
    book_css = re.search(r'href="\.\./(assets/stylesheets/book\.[0-9a-f]{8}\.css)"', page)
    assert book_css is not None
    widget_css = (ROOT / "docs" / "assets" / "stylesheets" / "group-widget.css").read_text().strip()
    assert widget_css in (built_site / book_css.group(1)).read_text()


def test_the_contributor_page_documents_the_contract(built_site: Path) -> None:
    page = (built_site / "guide" / "widgets" / "index.html").read_text()
    for term in (
        "data-reward",
        "data-advantage",
        "aria-live",
        "grpoWidget.advantages",
        "&lt;!-- grpo:widget easy hard --&gt;",
    ):
        assert term in page, term


def _with_namespace_widget(monkeypatch: pytest.MonkeyPatch) -> None:
    """A chapter namespace `toy` with one widget, registered as hooks/registry.py registers the real ones."""
    toy = Namespace(
        "toy",
        "a toy",
        "tests/test_widget.py",
        values={},
        widgets={"dial": lambda: Widget("dial", "| x |\n|---|\n| 1 |", {"x": [1, 2]}, "A dial.")},
    )
    monkeypatch.setitem(NAMESPACES, "toy", toy)


def test_a_chapter_widget_is_the_same_figure_with_its_own_script(monkeypatch: pytest.MonkeyPatch) -> None:
    _with_namespace_widget(monkeypatch)
    text = _widget("<!-- grpo:widget toy.dial -->")
    assert '<figure class="grpo-widget" data-widget-kind="dial" data-widget-script="dial-widget.js"' in text
    assert "| x |" in text[text.index("grpo-widget__static") : text.index("</div>")]
    assert _data(text) == {"x": [1, 2]}
    assert '<figcaption markdown="span">A dial.</figcaption>' in text


@pytest.mark.parametrize(
    ("line", "complaint"),
    [
        ("<!-- grpo:widget toy.dail -->", "unknown toy widget 'dail'; did you mean 'dial'?"),
        ("<!-- grpo:widget toy.dial easy -->", "takes 1 name(s)"),
        ("<!-- grpo:widget easy.dial -->", "'easy' is an example"),
    ],
)
def test_a_misnamed_chapter_widget_stops_the_build(monkeypatch: pytest.MonkeyPatch, line: str, complaint: str) -> None:
    _with_namespace_widget(monkeypatch)
    with pytest.raises(PageError) as caught:
        expand(f"Prose.\n{line}\n", "page.md")
    assert str(caught.value).startswith("page.md:2: ") and complaint in str(caught.value)
