"""The hooks behind the verifiable-rewards and training-run chapters, on their real inputs."""

from __future__ import annotations

import re
import tomllib
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

import grpo_examples as gx
from grpo_examples.training import load_config, training_run
from hooks.placeholders import PageError, expand
from hooks.run_values import RUN
from hooks.training_figures import TRAINING_BLOCKS
from hooks.verdicts import SPELLINGS, VERDICT_BLOCKS

ROOT = Path(__file__).resolve().parent.parent


def _shown(html: str) -> str:
    """The visible text of one grpo-value span."""
    match = re.fullmatch(r'<span class="grpo-value" title="[^"]*">(.*)</span>', html)
    assert match, html
    return match.group(1)


def test_verifier_steps_has_one_row_per_response() -> None:
    block = VERDICT_BLOCKS["verifier-steps"]([gx.get_example("fractions")])
    rows = [line for line in block.splitlines() if re.match(r"\| \d+ \|", line)]
    assert len(rows) == len(gx.get_example("fractions").responses)


def test_verifier_steps_rows_by_hand() -> None:
    """From the texts in examples.toml: row 2 extracts '6/12.' and normalises it to 1/2; row 5 has no answer."""
    block = VERDICT_BLOCKS["verifier-steps"]([gx.get_example("fractions")])
    rows = {line.split(" | ")[0].strip("| "): line for line in block.splitlines() if re.match(r"\| \d+ \|", line)}
    assert "`` 6/12. `` | `` 1/2 `` | 1 | 1" in rows["2"]
    assert "(none) | (none) | 0 | 1" in rows["5"]
    assert rows["4"].endswith("| 0 | 1 |")  # the wrong fraction still has its reasoning in tags


def test_verifier_steps_takes_one_example() -> None:
    from hooks.blocks import BlockError

    with pytest.raises(BlockError, match="one example"):
        VERDICT_BLOCKS["verifier-steps"]([])


def test_normalise_table_by_hand() -> None:
    table = VERDICT_BLOCKS["normalise-table"]([])
    assert "| `` 1,000 `` | `` 1000 `` |" in table
    assert "| `` 1,2 `` | `` 1,2 `` |" in table
    assert "| `` \\frac{1}{2} `` | `` 1/2 `` |" in table
    assert len([line for line in table.splitlines() if line.startswith("| ``")]) == len(SPELLINGS)


def test_verdict_counts_by_hand() -> None:
    """fractions: reasoning in tags in responses 1, 2, 4, 5 and 7; no answer in 5; both rewards in 1 and 2."""
    page = (
        "<!-- grpo:value fractions.count.format --> <!-- grpo:value fractions.count.no-answer --> "
        "<!-- grpo:value fractions.count.both --> <!-- grpo:value fractions.count.correct -->"
    )
    spans = re.findall(r"<span.*?</span>", expand(page, "t.md").markdown)
    assert [_shown(s) for s in spans] == ["5", "1", "2", "4"]


def _value(name: str) -> str:
    """What `<!-- grpo:value name -->` shows in a sentence."""
    return _shown(expand(f"<!-- grpo:value {name} -->", "t.md").markdown)


def test_run_values_follow_the_settings_file() -> None:
    with (ROOT / "grpo_examples" / "training_run.toml").open("rb") as handle:
        settings = tomllib.load(handle)
    assert _value("run.steps") == str(settings["steps"])
    assert _value("run.G") == str(settings["group_size"])
    assert _value("run.seed") == str(settings["seed"])


def test_run_values_match_the_run() -> None:
    run = training_run(load_config())
    step = run.traces["grpo"].steps_to(run.config.threshold)
    assert step is not None
    assert _value("run.steps-to-threshold.grpo") == str(step)
    assert _shown(expand("<!-- grpo:value run.questions as=words -->", "t.md").markdown) == "twelve"  # toy_task.FACTORS


def test_run_value_errors_name_the_page_and_line() -> None:
    with pytest.raises(PageError, match=r"page.md:2: unknown run value 'final.reward.ppo'.*hooks/run_values.py"):
        expand("fine\nThe <!-- grpo:value run.final.reward.ppo --> here.", "page.md")
    with pytest.raises(PageError, match=r"unknown run claim 'nothing'"):
        expand("<!-- grpo:check run nothing -->", "page.md")
    with pytest.raises(PageError, match=r"takes 1 name"):
        expand("<!-- grpo:value run.steps run.G -->", "page.md")
    with pytest.raises(PageError, match=r"unknown example 'rn'; did you mean 'run'\?"):
        expand("<!-- grpo:value rn.steps -->", "page.md")


def test_a_false_claim_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(RUN.claims, "always-false", lambda: False)
    with pytest.raises(PageError, match="the training run says otherwise"):
        expand("<!-- grpo:check run always-false -->", "page.md")
    monkeypatch.setitem(RUN.claims, "always-true", lambda: True)
    assert expand("<!-- grpo:check run always-true -->", "page.md").markdown == ""


def test_a_value_the_run_lacks_fails_with_the_reason(monkeypatch: pytest.MonkeyPatch) -> None:
    run = training_run(load_config())
    monkeypatch.setattr(type(run.traces["grpo"]), "steps_to", lambda self, threshold: None)
    with pytest.raises(PageError, match="GRPO never reaches the threshold"):
        expand("<!-- grpo:value run.steps-to-threshold.grpo -->", "page.md")


def test_an_example_may_not_hide_a_namespace(monkeypatch: pytest.MonkeyPatch) -> None:
    examples = {**gx.load_examples(), "run": gx.get_example("easy")}
    monkeypatch.setattr(gx, "load_examples", lambda: examples)
    with pytest.raises(PageError, match=r"the example \[run\].*hides the namespace 'run'"):
        expand("<!-- grpo:value run.steps -->", "page.md")


@pytest.mark.parametrize("name", ["training-reward", "training-all-equal", "training-advantages"])
def test_figure_blocks_are_accessible_svg(name: str) -> None:
    block = TRAINING_BLOCKS[name]([])
    figure_html = block.split("\n\n")[0]
    figure = ET.fromstring(figure_html)
    svg = figure.find("{http://www.w3.org/2000/svg}svg")
    assert svg is not None and svg.get("role") == "img"
    title = svg.find("{http://www.w3.org/2000/svg}title")
    assert title is not None and title.text
    caption = figure.find("figcaption")
    assert caption is not None and caption.text


def test_training_blocks_take_no_example() -> None:
    with pytest.raises(PageError, match="takes no example"):
        expand("<!-- grpo:block training-reward easy -->", "page.md")


def test_first_step_shows_the_group_every_method_drew() -> None:
    block = TRAINING_BLOCKS["training-first-step"]([])
    run = training_run(load_config())
    rows = [line for line in block.splitlines() if re.match(r"\| \d+ \| \d+ \|", line)]
    assert len(rows) == run.config.group_size + run.task.shape[1]  # the group, then every candidate's change
    assert "\\mu" in block and "\\sigma" in block


def test_reward_plot_describes_the_run_in_its_alt_text() -> None:
    block = TRAINING_BLOCKS["training-reward"]([])
    desc = ET.fromstring(block.split("\n\n")[0]).find(".//{http://www.w3.org/2000/svg}desc")
    assert desc is not None and desc.text
    run = training_run(load_config())
    assert f"threshold is {run.config.threshold:g}" in desc.text
    for label in ("GRPO", "learned critic", "REINFORCE, no baseline"):
        assert label in desc.text


def test_the_fractions_group_still_shows_what_the_chapter_says() -> None:
    """The verifiable-rewards chapter describes kinds of rows of this group in words; if the texts change,
    this test says which sentence to revisit."""
    example = gx.get_example("fractions")
    verdicts = [gx.verify(r.text, example.reference) for r in example.responses]
    hedges = [v for v in verdicts if v.answer and " or " in v.answer]
    assert hedges and all(v.accuracy == 0 for v in hedges), "'Hedging does not pay'"
    unreadable = [r for r, v in zip(example.responses, verdicts, strict=True) if v.answer is None]
    assert any("half a cup" in r.text for r in unreadable), "'Right but unreadable scores 0' quotes 'about half a cup'"
    empty_think = [v for r, v in zip(example.responses, verdicts, strict=True) if "<think></think>" in r.text]
    assert empty_think and all(v.format == 0 for v in empty_think), "'Empty <think></think> tags earn no format reward'"
    assert any(v.accuracy == 1 and v.format == 0 for v in verdicts), "'a correct answer without tags'"


def test_a_chapter_value_whose_example_is_gone_names_the_page_the_line_and_the_chapter(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    examples = {name: example for name, example in gx.load_examples().items() if name != "easy"}
    monkeypatch.setattr(gx, "load_examples", lambda: examples)
    with pytest.raises(PageError, match=r"page.md:2: the GRPO-in-practice chapter .* uses the example \[easy\]"):
        expand("Prose.\nThe clip keeps <!-- grpo:value practice.clip.symmetric -->.", "page.md")
