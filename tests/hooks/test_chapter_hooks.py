"""What the verifiable-rewards and training-run chapters show, through the page hook, on their real inputs.

Expected values are read off the data by hand: the fractions group's seven responses in
grpo_examples/data/groups.toml, the spellings of grpo_examples/data/verifier.toml, the run's settings in
grpo_examples/data/run.toml, the toy task's twelve questions (grpo_examples/toy_task.py FACTORS).
"""

from __future__ import annotations

import dataclasses
import re
import tomllib
import xml.etree.ElementTree as ET

import pytest

import grpo_examples as gx
from grpo_examples.chapters import run as run_chapter
from grpo_examples.data import DATA, load
from grpo_examples.training import training_run
from hooks import checks
from tests.chapter_pipeline import (
    PluginError,
    block,
    book_with,
    model_subject,
    page_markdown,
    problems,
    refusal,
    swap_book,
    value,
)

SVG = "{http://www.w3.org/2000/svg}"


def _rows(markdown: str) -> dict[str, str]:
    """The table rows that start with a number, by that number."""
    return {line.split(" | ")[0].strip("| "): line for line in markdown.splitlines() if re.match(r"\| \d+ \|", line)}


# ---------------------------------------------------------------- the verifier


def test_verifier_steps_has_one_row_per_response() -> None:
    assert len(_rows(block("verifier-steps fractions"))) == 7  # seven responses in groups.toml


def test_verifier_steps_rows_by_hand() -> None:
    """Row 2 answers "Answer: 6/12.", extracted as '6/12.' and normalised to 1/2, right and in tags; row 3 has no
    tags; row 5 gives no answer; row 6's tags are empty."""
    rows = _rows(block("verifier-steps fractions"))
    assert rows["2"].endswith("| ` 6/12. ` | ` 1/2 ` | 1 | 1 |")
    assert rows["3"].endswith("| ` 0.5 ` | ` 1/2 ` | 1 | 0 |")
    assert rows["5"].endswith("| (none) | (none) | 0 | 1 |")
    assert rows["6"].endswith("| ` 1/2 ` | ` 1/2 ` | 1 | 0 |")
    assert rows["4"].endswith("| 0 | 1 |")  # the wrong fraction still has its reasoning in tags
    assert "Reference answer ` 1/2 `, normalised to ` 1/2 `." in block("verifier-steps fractions")


def test_verifier_steps_takes_one_group() -> None:
    message = refusal("<!-- grpo:block verifier-steps easy hard -->")
    assert "block 'verifier-steps' draws 1 Group, got 2 path(s): write <!-- grpo:block verifier-steps easy -->" in (
        message
    )


def test_normalise_table_by_hand() -> None:
    table = block("normalise-table verifier")
    assert "| ` 1,000 ` | ` 1000 ` |" in table  # a thousands separator goes
    assert "| ` 1,2 ` | ` 1,2 ` |" in table  # a decimal comma is not read as one
    assert "| ` \\frac{1}{2} ` | ` 1/2 ` |" in table
    assert "| ` $56$. ` | ` 56 ` |" in table
    spellings = tomllib.loads((DATA / "verifier.toml").read_text(encoding="utf-8"))["spellings"]
    assert len([line for line in table.splitlines() if line.startswith("| ` ")]) == len(spellings) == 18
    assert "- ` grpo_examples.chapter('verifier') `" in table


def test_verdict_counts_by_hand() -> None:
    """fractions: reasoning in tags in responses 1, 2, 4, 5 and 7 (6's tags are empty); no answer in 5; both
    rewards in 1 and 2; right answers in 1, 2, 3 and 6."""
    assert [value(f"fractions.count.{c}") for c in ("format", "no-format", "no-answer", "both", "correct")] == [
        "5",
        "2",
        "1",
        "2",
        "4",
    ]


def test_the_fractions_group_still_shows_what_the_chapter_says() -> None:
    """The verifiable-rewards chapter describes kinds of rows of this group in words; if the texts change,
    this test says which sentence to revisit."""
    responses = gx.group("fractions").responses
    hedges = [r for r in responses if r.answer and " or " in r.answer]
    assert hedges and all(r.reward == 0 for r in hedges), "'Hedging does not pay'"
    assert any("half a cup" in r.text and r.answer is None for r in responses), "'Right but unreadable scores 0'"
    empty = [r for r in responses if "<think></think>" in r.text]
    assert empty and all(r.format == 0 for r in empty), "'Empty <think></think> tags earn no format reward'"
    assert any(r.reward == 1 and r.format == 0 for r in responses), "'a correct answer without tags'"


# ---------------------------------------------------------------- the training run


def _settings() -> run_chapter.Settings:
    return load(DATA / "run.toml", run_chapter.Settings)


def test_run_values_follow_the_settings_file() -> None:
    settings = tomllib.loads((DATA / "run.toml").read_text(encoding="utf-8"))
    assert value("run.steps") == str(settings["steps"]) == "60"
    assert value("run.G") == str(settings["group_size"]) == "8"
    assert value("run.seed") == str(settings["seed"])
    assert value("run.threshold") == "1.8"
    assert value("run.questions as=words") == "twelve"  # toy_task.FACTORS
    assert value("run.advantages-per-method") == str(60 * 12 * 8)


def test_run_values_match_the_run() -> None:
    settings = _settings()
    run = training_run(settings)
    for method in ("grpo", "critic", "reinforce"):
        step = run.traces[method].steps_to(settings.threshold)
        shown = value(f"run.methods.{method}.steps-to-threshold") if step is not None else None
        assert shown == (str(step) if step is not None else None)
    # the final reward is declared Rounded(2): shown to two decimals at most, within half a hundredth
    final = float(run.traces["grpo"].mean_reward[-1])
    shown = value("run.methods.grpo.final-reward")
    assert re.fullmatch(r"(≈\u00a0)?\d\.\d{1,2}", shown), shown
    assert abs(float(shown.removeprefix("≈\u00a0")) - final) <= 0.005


def test_run_value_errors_name_the_page_and_line() -> None:
    message = refusal("fine\nThe <!-- grpo:value run.methods.ppo.final-reward --> here.")
    assert message.startswith("docs/fuzz.md:2: run.methods has no 'ppo' (it has grpo, critic, reinforce)")
    assert "run.claims has no 'nothing'" in refusal("<!-- grpo:check run.claims.nothing -->")
    assert "grpo:value takes 1 path(s), got 2" in refusal("<!-- grpo:value run.steps run.G -->")
    assert refusal("<!-- grpo:value rn.steps -->").splitlines()[0] == (
        "docs/fuzz.md:1: unknown name 'rn': a path starts with one of "
        "easy, hard, split, fractions, solved, bandit, ppo, practice, run, verifier; did you mean 'run'?"
    )


def test_a_false_claim_of_the_run_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    real = gx.chapter("run")
    other = dataclasses.replace(real, claims=dataclasses.replace(real.claims, grpo_first_in_most_seeds=False))
    swap_book(monkeypatch, book_with({"run": model_subject("run", other, "grpo_examples.chapter('run')", "run.toml")}))
    message = refusal("<!-- grpo:check run.claims.grpo-first-in-most-seeds -->")
    assert "the prose claims run.claims.grpo-first-in-most-seeds (GRPO reaches the threshold first in more than" in (
        message
    )
    assert message.splitlines()[0].endswith("rewrite the sentence, or the data (run.toml)")
    assert page_markdown("<!-- grpo:check run.claims.grpo-all-equal-rises -->") == ""


def test_a_threshold_the_run_never_reaches_fails_with_the_reason(monkeypatch: pytest.MonkeyPatch) -> None:
    # The highest reward is 2 (right, with reasoning): no mean reward reaches 2.5.
    unreachable = run_chapter.build(dataclasses.replace(_settings(), threshold=2.5))
    subject = model_subject("run", unreachable, "grpo_examples.chapter('run')", "run.toml")
    swap_book(monkeypatch, book_with({"run": subject}))
    with pytest.raises(PluginError) as caught:
        page_markdown("GRPO gets there after <!-- grpo:value run.methods.grpo.steps-to-threshold --> steps.")
    assert problems(caught.value) == [
        (
            1,
            "run.methods.grpo.steps-to-threshold is not defined here: "
            "grpo never reaches the threshold 2.5 in this run: rewrite the sentence",
        )
    ]
    # and the tables that show it say "never" rather than fail
    assert "never (most seeds miss it)" in block("training-sweep run")


def test_a_group_may_not_take_a_chapters_name(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(gx, "group_names", lambda: ("easy", "run"))
    with pytest.raises(checks.BookError, match=r"groups\.toml: the group \[run\] has the name of a chapter: rename"):
        checks.book.__wrapped__()


@pytest.mark.parametrize("name", ["training-reward", "training-all-equal", "training-advantages"])
def test_figure_blocks_are_accessible_svg(name: str) -> None:
    figure = ET.fromstring(block(f"{name} run").split("\n\n")[0])
    svg = figure.find(f"{SVG}svg")
    assert svg is not None and svg.get("role") == "img"
    title = svg.find(f"{SVG}title")
    assert title is not None and title.text
    caption = figure.find("figcaption")
    assert caption is not None and caption.text


def test_the_advantage_histogram_signs_its_axis_as_the_book_signs_advantages() -> None:
    svg = ET.fromstring(block("training-advantages run").split("\n\n")[0]).find(f"{SVG}svg")
    assert svg is not None
    labels = [t.text or "" for t in svg.iter(f"{SVG}text")]
    assert {"−2", "−1", "0", "+1", "+2"} <= set(labels) and not any(re.fullmatch(r"-\d.*", t) for t in labels)
    desc = svg.find(f"{SVG}desc")
    assert desc is not None and re.search(r"advantages from −\d+ to \+\d+, zeros left out", desc.text or "")


def test_training_blocks_take_the_run() -> None:
    assert (
        "block 'training-reward' draws a Run, and easy is a Group: write <!-- grpo:block training-reward run -->"
        in (refusal("<!-- grpo:block training-reward easy -->"))
    )


def test_first_step_shows_the_group_every_method_drew() -> None:
    text = block("training-first-step run")
    run = training_run(_settings())
    rows = [line for line in text.splitlines() if re.match(r"\| \d+ \| \d+ \|", line)]
    # the group of G = 8 samples, then the change of each of the question's candidates
    assert len(rows) == run.config.group_size + run.task.shape[1]
    assert "\\mu" in text and "\\sigma" in text
    # a candidate nobody drew keeps its logit under GRPO, as the sentence after the table says: 0.0, not round-off
    drawn = {int(c) + 1 for c in run.traces["grpo"].samples[0, 0]}
    changes = rows[run.config.group_size :]
    grpo_column = 3  # candidate c, reward, pi_0(c | q), then GRPO's change
    assert len(drawn) < len(changes)
    for row in changes:
        cells = [cell.strip() for cell in row.strip("|").split("|")]
        if int(cells[0]) not in drawn:
            assert cells[grpo_column] == "0.0", row
    # the learning rate as the chapter's table of symbols shows it (run.toml: learning_rate = 2.0), not as a count
    assert "(η = 2.0):" in text


def test_reward_plot_describes_the_run_in_its_alt_text() -> None:
    desc = ET.fromstring(block("training-reward run").split("\n\n")[0]).find(f".//{SVG}desc")
    assert desc is not None and desc.text
    assert "threshold is 1.8" in desc.text
    for label in ("GRPO", "learned critic", "REINFORCE, no baseline"):
        assert label in desc.text


def test_toy_question_shows_the_first_question() -> None:
    text = block("toy-question run")
    assert text.startswith("**What is 7 × 8?** (reference answer: 56)")  # FACTORS[0] = (7, 8)
