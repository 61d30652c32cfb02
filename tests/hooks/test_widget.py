"""The grpo:widget placeholder: the figure it writes, the JSON it embeds, the errors it raises.

Expected numbers are worked by hand (easy [1, 1, 1, 1, 0]: mean 0.8, population std 0.4, so +0.5 and -2.0;
hard [1, 0, 0, 0, 0]: +2.0 and -0.5), from the trainers' code (TRL 1.10.0.dev0, `trl/trainer/grpo_trainer.py`,
adds 1e-4 to the sample std; verl b178a3c, `verl/trainer/ppo/core_algos.py`, adds 1e-6) and from the outside
oracle tests/data/advantage-vectors.json.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

import pytest

from hooks.engine.markdown import Markdown
from hooks.engine.widget import Widget, figure, script_json
from tests.chapter_pipeline import (
    PluginError,
    book_with,
    model_subject,
    page_markdown,
    problems,
    swap_book,
)
from tests.conftest import ROOT

ORACLE = json.loads((ROOT / "tests" / "data" / "advantage-vectors.json").read_text())["groups"]
# Python-Markdown may reorder the attributes of raw HTML: match the script whatever their order.
DATA = re.compile(r'<script (?=[^>]*type="application/json")[^>]*class="grpo-widget__data"[^>]*>(.*?)</script>', re.S)


def _widget(line: str = "<!-- grpo:widget group easy hard -->") -> str:
    return page_markdown(f"Some prose.\n\n{line}\n\nMore prose.\n")


def _data(text: str) -> dict[str, object]:
    found = DATA.findall(text)
    assert len(found) == 1, text
    data = json.loads(found[0])
    assert isinstance(data, list) and len(data) == 1  # an array: see hooks/engine/widget.py
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


def test_the_static_part_ends_with_the_engines_note_on_both_groups() -> None:
    static = _widget()
    static = static[static.index("grpo-widget__static") : static.index("</div>")]
    note = static[static.index('??? abstract "How these numbers were computed"') :]
    assert "- ` grpo_examples.group('easy') `" in note and "- ` grpo_examples.group('hard') `" in note
    assert "` grpo_examples/data/groups.toml [easy] `" in note


def test_the_json_holds_the_groups_in_order_with_texts_answers_and_verifier_rewards() -> None:
    data = _data(_widget("<!-- grpo:widget group hard easy -->"))
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
    assert data["max_decimals"] == 4


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


def test_the_json_refuses_nan() -> None:
    with pytest.raises(ValueError, match="not JSON compliant"):
        script_json({"x": float("nan")})


def test_a_figure_is_one_block_of_html_around_its_markdown() -> None:
    text = figure(
        Widget(
            "dial",
            Markdown("| x |\n|---|\n| 1 |"),
            {"x": [1]},
            Markdown("Turn the *dial*."),
            Markdown("The *dial*'s table."),
        ),
        "the note",
    )
    lines = text.split("\n")
    assert lines[0].startswith(
        '<figure class="grpo-widget" data-widget-kind="dial" data-widget-script="dial-widget.js"'
    )
    assert lines[-1] == "</figure>" and lines[-2] == (
        '<figcaption markdown="span"><span class="grpo-interactive">Turn the *dial*.</span>'
        '<span class="grpo-static">The *dial*\'s table.</span></figcaption>'
    )
    assert lines[-3] == '<script type="application/json" class="grpo-widget__data">[{"x":[1]}]</script>'
    assert "| x |\n|---|\n| 1 |\n\nthe note\n\n</div>" in text


def test_an_unknown_group_names_the_page_the_line_and_the_known_names() -> None:
    with pytest.raises(PluginError) as caught:
        page_markdown("# Title\n\nProse.\n<!-- grpo:widget group easy hrad -->\n")
    message = str(caught.value)
    assert message.startswith("docs/fuzz.md:4: unknown name 'hrad': a path starts with one of easy, hard,")
    assert message.splitlines()[0].endswith("; did you mean 'hard'?")
    assert "\n    <!-- grpo:widget group easy hrad -->" in message


@pytest.mark.parametrize(
    ("line", "complaint"),
    [
        ("<!-- grpo:widget -->", "grpo:widget needs a widget name: group, clip, kl"),
        (
            "<!-- grpo:widget group -->",
            "widget 'group' draws 1 or more Groups, got 0 path(s): write <!-- grpo:widget group easy -->",
        ),
        (
            "<!-- grpo:widget group easy ppo -->",
            "widget 'group' draws a Group, and ppo is a PPO: write <!-- grpo:widget group easy hard -->",
        ),
        ("<!-- grpo:widget group easy shown=hard -->", "grpo:widget has no option 'shown' (options: none)"),
        ("Look: <!-- grpo:widget group easy -->", "grpo:widget makes a block: put it on a line of its own"),
        ("<!-- grpo:widget easy hard -->", "unknown widget 'easy'"),  # the old form, before the widget's name
    ],
)
def test_a_misused_widget_stops_the_build_with_its_line(line: str, complaint: str) -> None:
    with pytest.raises(PluginError) as caught:
        page_markdown(f"Prose.\n{line}\n")
    [(number, message)] = problems(caught.value)
    assert number == 2 and message.startswith(complaint), message


def test_in_code_the_placeholder_stays_as_written() -> None:
    text = page_markdown("Write `<!-- grpo:widget group easy -->` on its own line.\n")
    assert "grpo-widget" not in text and "`<!-- grpo:widget group easy -->`" in text


@dataclass(frozen=True)
class _Dial:
    """A toy model for a widget of its own."""

    positions: tuple[int, ...]


def _dial_widget(dial: _Dial) -> Widget:
    return Widget(
        "dial",
        Markdown("| x |\n|---|\n| 1 |"),
        {"x": list(dial.positions)},
        Markdown("Turn the dial."),
        Markdown("A dial."),
    )


def test_a_chapter_widget_is_the_same_figure_with_its_own_script(monkeypatch: pytest.MonkeyPatch) -> None:
    dial = model_subject("toy", _Dial((1, 2)), "make_dial()", "dial.toml")
    swap_book(monkeypatch, book_with({"toy": dial}, widgets={"dial": _dial_widget}))
    text = _widget("<!-- grpo:widget dial toy -->")
    assert '<figure class="grpo-widget" data-widget-kind="dial" data-widget-script="dial-widget.js"' in text
    static = text[text.index("grpo-widget__static") : text.index("</div>")]
    assert "| x |" in static and "- ` make_dial() `" in static and "` dial.toml `" in static
    assert _data(text) == {"x": [1, 2]}
    assert '<span class="grpo-interactive">Turn the dial.</span><span class="grpo-static">A dial.</span>' in text


@pytest.mark.parametrize(
    ("line", "complaint"),
    [
        ("<!-- grpo:widget dail toy -->", "unknown widget 'dail'; did you mean 'dial'?"),
        (
            "<!-- grpo:widget dial toy toy -->",
            "widget 'dial' draws 1 _Dial, got 2 path(s): write <!-- grpo:widget dial toy -->",
        ),
        ("<!-- grpo:widget dial easy -->", "widget 'dial' draws a _Dial, and easy is a Group"),
    ],
)
def test_a_misnamed_chapter_widget_stops_the_build(monkeypatch: pytest.MonkeyPatch, line: str, complaint: str) -> None:
    dial = model_subject("toy", _Dial((1, 2)), "make_dial()")
    swap_book(monkeypatch, book_with({"toy": dial}, widgets={"dial": _dial_widget}))
    with pytest.raises(PluginError) as caught:
        page_markdown(f"Prose.\n{line}\n")
    [(number, message)] = problems(caught.value)
    assert number == 2 and message.startswith(complaint), message
