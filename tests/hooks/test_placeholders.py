"""Each placeholder form expands as documented; each bad one fails with the page, the line and the text.

The easy group is [1, 1, 1, 1, 0] and the hard one [1, 0, 0, 0, 0] (grpo_examples/data/groups.toml, as the
chapter's spec has them): mean 0.8, variance 0.8 x 0.2 = 0.16, std 0.4, advantages (1 - 0.8) / 0.4 = +0.5 and
(0 - 0.8) / 0.4 = -2.0; the split group [1, 1, 0, 0] has deviations +-0.5, std 0.5, advantages +-1.0.
"""

from __future__ import annotations

import html
import importlib
import json
import re
from pathlib import Path

import pytest

import grpo_examples as gx
from grpo_examples.data import load
from grpo_examples.group import GROUPS_FILE, GroupData
from hooks import checks
from hooks.engine.numbers import MINUS
from hooks.engine.placeholders import expand
from tests.chapter_pipeline import (
    VALUE,
    PluginError,
    book_with,
    model_subject,
    page_html,
    page_markdown,
    problems,
    swap_book,
    value_span,
)


def expanded(markdown: str) -> str:
    return page_markdown(markdown)


def test_value_is_formatted_and_says_where_it_came_from() -> None:
    out = expanded("The wrong answer gets <!-- grpo:value easy.advantage.wrong -->.")
    title, shown = value_span(out)
    assert shown == f"{MINUS}2.0"
    assert html.unescape(title) == "Computed at build time: grpo_examples.group('easy').advantage['wrong']"
    assert out.startswith("The wrong answer gets <span") and out.endswith("</span>.")
    assert "<!--" not in out


@pytest.mark.parametrize(
    ("placeholder", "shown"),
    [
        ("easy.advantage.correct", "+0.5"),  # signed: its declared type says so
        ("easy.deviation.wrong", f"{MINUS}0.8"),
        ("easy.mean", "0.8"),
        ("easy.std", "0.4"),
        ("easy.G", "5"),
        ("easy.count.correct as=words", "four"),
        ("easy.G as=words", "five"),
        ("easy.rare-to-common as=words", "four times"),  # 2.0 / 0.5
        ("hard.rare-to-common as=words", "four times"),
        ("split.rare-to-common as=words", "as much as"),
        ("easy.std-sample", "≈\u00a00.4472"),  # sqrt(0.8 / 4) = sqrt(0.2)
        ("easy.question", "What is 7 × 8?"),
        ("hard.question", "What is the remainder when 2^100 is divided by 7?"),  # '^' is not Markdown
    ],
)
def test_values_signs_and_words(placeholder: str, shown: str) -> None:
    assert value_span(expanded(f"<!-- grpo:value {placeholder} -->"))[1] == shown


def test_trainer_conventions_are_rounded_with_a_sign_that_says_so() -> None:
    # TRL: (0 - 0.8) / (sqrt(0.2) + 1e-4) = -1.78845..., shown rounded to four places.
    assert value_span(expanded("<!-- grpo:value easy.variants.trl.advantage.wrong -->"))[1] == f"≈\u00a0{MINUS}1.7885"


def test_a_rounded_field_keeps_its_places() -> None:
    # Run.methods[...].final_reward is Annotated[float, Rounded(2)]: two decimals at most, rounded with "≈".
    shown = value_span(expanded("<!-- grpo:value run.methods.grpo.final-reward -->"))[1]
    assert re.fullmatch(r"(≈\u00a0)?\d\.\d{1,2}", shown), shown


def test_text_values_are_escaped() -> None:
    assert "What is 7 × 8?" in expanded("<!-- grpo:value easy.question -->")
    # the fractions group's answer as written, and one as the checker normalises it
    assert ">1/2<" in expanded("<!-- grpo:value fractions.answer -->")


# A question and a title an author could write into groups.toml: HTML, and Markdown that would act as such.
HOSTILE_QUESTION = "Is <think>2 < 3</think> & *so* [so](x) `so`?"
HOSTILE_TITLE = "a <b>bold</b> _title_"


def _group_from_a_copied_groups_toml(tmp_path: Path) -> gx.Group:
    """The fractions group, read from a copy of groups.toml whose [fractions] asks HOSTILE_QUESTION."""
    text = GROUPS_FILE.read_text(encoding="utf-8")
    table = text.index("[fractions]")
    question = text.index("question = ", table)
    title = text.index("title = ", table)
    assert title < question < text.index("\n[", table)  # both lines belong to [fractions]
    end_of_title, end_of_question = text.index("\n", title), text.index("\n", question)
    edited = (
        text[:title]
        + f"title = {json.dumps(HOSTILE_TITLE)}"
        + text[end_of_title:question]
        + f"question = {json.dumps(HOSTILE_QUESTION)}"
        + text[end_of_question:]
    )
    copied = tmp_path / "groups.toml"
    copied.write_text(edited, encoding="utf-8")
    module = importlib.import_module("grpo_examples.group")
    tables = load(copied, dict[str, GroupData])
    with pytest.MonkeyPatch.context() as patch:  # groups.toml is the copy only while the group is made
        patch.setattr(module, "_tables", lambda: tables)
        made: gx.Group = gx.group.__wrapped__("fractions")  # not the cache: the book's own group stays as it is
    return made


def test_a_text_from_groups_toml_shows_as_written(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    edited = _group_from_a_copied_groups_toml(tmp_path)
    assert (edited.question, edited.title) == (HOSTILE_QUESTION, HOSTILE_TITLE)
    swap_book(
        monkeypatch, book_with({"fractions": model_subject("fractions", edited, "grpo_examples.group('fractions')")})
    )
    question = value_span(expanded("<!-- grpo:value fractions.question -->"))[1]
    # HTML escaped, Markdown's specials backslashed (hooks/engine/markdown.py)
    assert question == r"Is &lt;think&gt;2 &lt; 3&lt;/think&gt; &amp; \*so\* \[so\]\(x\) \`so\`?"
    assert value_span(expanded("<!-- grpo:value fractions.title -->"))[1] == r"a &lt;b&gt;bold&lt;/b&gt; \_title\_"
    # and through the build's Markdown, the reader sees the text as written: no tag, emphasis, link or code
    shown = VALUE.findall(page_html("The question: <!-- grpo:value fractions.question -->."))
    assert [html.unescape(text) for _, text in shown] == [HOSTILE_QUESTION]


def test_inline_formula_is_filled_in() -> None:
    out = expanded("So <!-- grpo:formula easy.advantage.wrong --> here.")
    assert out == (
        r"So $`A_{\text{wrong}} = \frac{r - \mu}{\sigma} = \frac{0 - 0.8}{0.4} = \frac{-0.8}{0.4} = -2.0`$ here."
    )


def test_display_formula_is_a_math_fence() -> None:
    out = expanded("<!-- grpo:formula easy.mean display -->")
    assert out == "```math\n\\mu = \\frac{1+1+1+1+0}{5} = \\frac{4}{5} = 0.8\n```"


def test_bernoulli_variance_and_std() -> None:
    assert r"p(1-p) = 0.8 \times 0.2 = 0.16" in expanded("<!-- grpo:formula easy.variance -->")
    assert r"\sqrt{0.16} = 0.4" in expanded("<!-- grpo:formula easy.std -->")
    assert expanded("<!-- grpo:formula hard.rewards -->") == r"$`(r_1, \dots, r_G) = (1, 0, 0, 0, 0)`$"


def test_an_all_equal_group_has_advantage_zero_and_says_why() -> None:
    assert expanded("<!-- grpo:formula solved.advantage.correct -->") == (
        r"$`A_{\text{correct}} = 0 \quad (\sigma = 0\text{: every reward is the same})`$"
    )


def test_worked_example_block() -> None:
    out = expanded("<!-- grpo:block worked-example easy -->")
    assert "Bernoulli group" in out
    assert r"\frac{4}{5} = 0.8" in out
    assert r"\frac{-0.8}{0.4} = -2.0" in out
    assert "each of the four correct responses" in out and "the one wrong response" in out
    assert "four times a correct response's" in out
    assert "being wrong was rare in this group (one of five)" in out
    assert '??? abstract "How these numbers were computed"' in out
    assert "- ` grpo_examples.group('easy') `" in out
    assert "The data: ` grpo_examples/data/groups.toml [easy] `." in out


def test_worked_example_of_the_hard_group_turns_the_sentence_around() -> None:
    out = expanded("<!-- grpo:block worked-example hard -->")
    assert "four times a wrong response's" in out
    assert "being right was rare in this group (one of five)" in out


def test_compare_block_is_a_table_of_both_groups() -> None:
    out = expanded("<!-- grpo:block compare easy hard -->")
    rows = [line for line in out.splitlines() if line.startswith("| the ")]
    assert rows[0].split(" | ")[1:] == ["1, 1, 1, 1, 0", "4 of 5", "0.8", "0.4", "+0.5", f"{MINUS}2.0 |"]
    assert rows[1].split(" | ")[1:] == ["1, 0, 0, 0, 0", "1 of 5", "0.2", "0.4", "+2.0", f"{MINUS}0.5 |"]
    assert "- ` grpo_examples.group('easy') `\n    - ` grpo_examples.group('hard') `" in out


def test_deviations_block_shows_both_scales() -> None:
    out = expanded("<!-- grpo:block deviations easy split -->")
    easy, split = (line for line in out.splitlines() if line.startswith(("| the easy", "| an even")))
    assert f"+0.2, {MINUS}0.8 | 0.4 | +0.5, {MINUS}2.0 | 1.0" in easy
    assert f"+0.5, {MINUS}0.5 | 0.5 | +1.0, {MINUS}1.0 | 1.0" in split


def test_block_keeps_the_indentation_of_its_line() -> None:
    out = expanded("!!! note\n    <!-- grpo:block compare easy hard -->")
    assert all(line.startswith("    ") for line in out.splitlines()[1:] if line)


def test_check_renders_nothing_when_true() -> None:
    assert expanded("Rare. <!-- grpo:check easy.claims.wrong-is-rare -->") == "Rare. "


def test_check_fails_the_page_when_false() -> None:
    with pytest.raises(PluginError) as caught:
        expanded("Being wrong is rare.\n<!-- grpo:check hard.claims.wrong-is-rare -->")
    assert str(caught.value).startswith("docs/fuzz.md:2: the prose claims hard.claims.wrong-is-rare")


def test_code_is_left_as_written() -> None:
    source = "```markdown\n<!-- grpo:value easy.mean -->\n```\nInline `<!-- grpo:value easy.mean -->` too."
    assert expanded(source) == source


def test_line_numbers_follow_the_source_through_blocks() -> None:
    result = expand(checks.book(), "<!-- grpo:block compare easy hard -->\n\nlast line")
    assert result.source_lines[-1] == 3
    assert result.source_lines[0] == 1 and len(result.source_lines) == len(result.markdown.split("\n"))
    assert result.markdown.endswith("last line")
    assert result.used == {"easy", "hard"}


def test_the_subjects_a_page_uses_are_collected() -> None:
    result = expand(checks.book(), "<!-- grpo:value easy.mean --> and <!-- grpo:value bandit.K -->\n")
    assert result.used == {"easy", "bandit"}


@pytest.mark.parametrize(
    ("source", "message"),
    [
        ("<!-- grpo:value eazy.mean -->", "unknown name 'eazy': a path starts with one of easy, hard,"),
        ("<!-- grpo:value eazy.mean -->", ", verifier; did you mean 'easy'?\n"),
        ("<!-- grpo:value easy.maen -->", "easy has no 'maen' (it has rewards,"),
        ("<!-- grpo:value easy.maen -->", ", rare-to-common); did you mean 'mean'?\n"),
        (
            "<!-- grpo:value easy.std.sample -->",
            "easy.std is a number: it has no 'sample'; did you mean 'easy.std-sample'?",
        ),
        ("<!-- grpo:value easy.std_sample -->", "); did you mean 'std-sample'?\n"),
        ("<!-- grpo:value easy.responses.4.answer -->", "easy.responses is a list of 5 values, which a path does not"),
        ("<!-- grpo:valeu easy.mean -->", "unknown placeholder kind 'valeu'; did you mean 'value'?"),
        ("<!-- GRPO:value easy.mean -->", "malformed placeholder: write <!-- grpo:kind arguments --> (grpo in lower"),
        ("<!-- grpoo:value easy.mean -->", "malformed placeholder"),
        ("<!-- grpo:block compair easy hard -->", "unknown block 'compair'; did you mean 'compare'?"),
        ("<!-- grpo:value easy.mean easy.std -->", "grpo:value takes 1 path(s), got 2: 'easy.mean easy.std'; write"),
        ("<!-- grpo:value easy.mean as=roman -->", "unknown format as='roman'"),
        ("<!-- grpo:value easy.mean colour=red -->", "grpo:value has no option 'colour' (options: as)"),
        ("<!-- grpo:value mean -->", "unknown name 'mean': a path starts with one of easy, hard,"),
        ("<!-- grpo:formula easy.mean inline -->", "grpo:formula takes 1 path(s), got 2: 'easy.mean inline'"),
        ("<!-- grpo:block worked-example easy hard -->", "block 'worked-example' draws 1 Group, got 2 path(s)"),
        ("Text <!-- grpo:block compare easy hard -->", "grpo:block makes a block: put it on a line of its own"),
        ("Text <!-- grpo:formula easy.mean display -->", "grpo:formula makes a block: put it on a line of its own"),
        ("<!-- grpo:value easy.mean", "unclosed placeholder: it needs '-->' on the same line"),
        ("<!-- grpo: -->", "empty placeholder: name a kind after 'grpo:' (value, formula, block, widget, check)"),
        ("$`x = <!-- grpo:value easy.mean -->`$", "placeholders do not expand inside math"),
        ("```math\n<!-- grpo:value easy.mean -->\n```", "placeholders do not expand inside math"),
        ("<!-- grpo:value hard.variants.trll.advantage.correct -->", "did you mean 'trl'?"),
        ("<!-- grpo:check easy.claims.all-right -->", "easy.claims has no 'all-right'"),
    ],
)
def test_errors_name_the_page_the_line_and_the_text(source: str, message: str) -> None:
    with pytest.raises(PluginError) as caught:
        expanded("Intro line.\n\n" + source)
    text = str(caught.value)
    line = 4 if source.startswith("```math") else 3
    assert text.startswith(f"docs/fuzz.md:{line}: ")
    assert message in text
    assert re.search(r"\n    <!-- (grpo|GRPO)", text), "the offending placeholder is quoted"


def test_the_usage_of_a_placeholder_is_in_its_message() -> None:
    with pytest.raises(PluginError) as caught:
        expanded("<!-- grpo:formula easy.mean inline -->")
    [(_, message)] = problems(caught.value)
    assert message.endswith("write <!-- grpo:formula easy.mean --> or <!-- grpo:formula easy.mean display -->")


def test_line_numbers_count_the_front_matter() -> None:
    # MkDocs hands the hook the page without its front matter; the message names the line in the file.
    front = "---\ntitle: Scratch\ndescription: A page with front matter.\n---\n"
    source = front + "\n# Scratch\n\n<!-- grpo:value eazy.mean -->\n"
    markdown = source.split("---\n", 2)[2]
    with pytest.raises(PluginError) as caught:
        page_markdown(markdown, source=source)
    assert str(caught.value).startswith("docs/fuzz.md:8: unknown name 'eazy':")
