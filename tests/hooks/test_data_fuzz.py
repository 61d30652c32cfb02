"""Example data from strangers, generated: every group either builds into pages that show its text as written, or
is refused with a message that names groups.toml and a line (issue 21).

Hypothesis writes a group (title, question, reference answer, responses) out of the pieces a hostile or careless
contributor would type: HTML and scripts, inline and display TeX, Markdown, snippet lines, placeholders, line
breaks, huge and long numbers, unbalanced boxes. The group is appended to a copy of groups.toml and read by the
real loader; a page that shows it the ways the book does (the group widget, the verifier's steps, a value) goes
through the book's page hook and Markdown with its KaTeX (tests/chapter_pipeline.py). Then: no markup from the
data is live in the HTML, the text is in the widget's JSON exactly as written, and that JSON is valid.
"""

from __future__ import annotations

import importlib
import json
import re
from collections.abc import Callable

from hypothesis import HealthCheck, event, example, given, settings
from hypothesis import strategies as st

import grpo_examples as gx
from tests.chapter_pipeline import PluginError, page_html

GROUP_MODULE = importlib.import_module("grpo_examples.group")
GROUPS_TEXT = (gx.DATA / "groups.toml").read_text(encoding="utf-8")
WIDGET_DATA = re.compile(r'<script[^>]*class="grpo-widget__data"[^>]*>(.*?)</script>', re.DOTALL)
PAGE = (
    "# Fuzz\n\n<!-- grpo:widget group fz -->\n\n<!-- grpo:block verifier-steps fz -->\n\n"
    "Mean: <!-- grpo:value fz.mean -->.\n"
)

# What must never be live in the page: each is written by the data below, and may reach the page only escaped.
LIVE = ["<b class=fz>", "<script>fz", "<img src=x onerror=fz", '<a href="javascript:fz', "<!-- grpo:value easy"]
_piece = st.sampled_from(
    [
        "<b class=fz>bold</b>",
        "<script>fz()</script>",
        "<img src=x onerror=fz()>",
        '<a href="javascript:fz()">x</a>',
        "<!-- grpo:value easy.mean -->",
        "$`x^2`$",
        "$`\\frac{1}{2`$",
        "```math",
        "`code`",
        "**bold** _it_ [link](https://example.org) ![img](x.png)",
        "| a | b |",
        '--8<-- "README.md"',
        "--8<--",
        "{: .fz }",
        "&amp; &lt;b&gt;",
        "\\boxed{56}",
        "\\boxed{\\frac{1}{2}}",
        "\\boxed{1e100000000}",
        "\\boxed{" + "9" * 120 + "}",
        "\\boxed{",
        "}",
        "Answer: 56",
        "<think>x</think>",
        "\n",
        "\t",
        "\u2028",
        "7 × 8 = 56",
        "−2.0 and 0.8",
        "é 你好 😀",
        " ",
    ]
)
_text = st.lists(_piece, min_size=1, max_size=6).map("".join)


def _toml_string(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)  # a JSON string is a TOML basic string (control characters escaped)


def _group(title: str, question: str, answer: str, responses: list[str]) -> str:
    quoted = ", ".join(_toml_string(r) for r in responses)
    return (
        f"\n[fz]\ntitle = {_toml_string(title)}\nquestion = {_toml_string(question)}\n"
        f"answer = {_toml_string(answer)}\nresponses = [{quoted}]\n"
    )


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(title=_text, question=_text, answer=_text, responses=st.lists(_text, min_size=1, max_size=4))
@example(title="t", question="q", answer="56", responses=["\\boxed{5\n<img src=x onerror=fz()>6}"])
@example(
    title="$`x`$", question="<b class=fz>q</b>", answer="56", responses=["$`x^2`$ \\boxed{56}", "\\boxed{1e100000000}"]
)
def test_generated_data_shows_as_written_or_is_refused_with_its_line(
    use_groups: Callable[[str], None], title: str, question: str, answer: str, responses: list[str]
) -> None:
    use_groups(GROUPS_TEXT + _group(title, question, answer, responses))
    try:
        html = page_html(PAGE)
    except PluginError as error:
        message = str(error)
        event("refused")
        assert "Traceback" not in message
        located = re.search(r"^(grpo_examples/data/)?\S*groups\.toml:\d+:\d+: |^docs/fuzz\.md:\d+", message, re.M)
        assert located, message
        return
    event("built")
    for live in LIVE:
        assert live not in html, live
    [data] = WIDGET_DATA.findall(html)
    widget = json.loads(data)  # valid JSON, or this raises
    [fz] = [g for g in widget[0]["groups"] if g["name"] == "fz"]
    assert (fz["title"], fz["question"], fz["reference"]) == (title, question, answer)
    assert [r["text"] for r in fz["responses"]] == responses
