"""How the engine dispatches a placeholder to its layout, and what it says when it cannot: through the page hook.

Formulas are looked up by (the type that owns the field, the field); blocks and widgets by name, their paths
checked against the layout's signature; claims by path. The claims quoted are the fields' docstrings in
grpo_examples/group.py and grpo_examples/chapters/ppo.py; the data files are those hooks/events.py names.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import pytest

from hooks.engine.contract import LayoutError
from tests.chapter_pipeline import (
    PluginError,
    book_with,
    model_subject,
    page_markdown,
    problems,
    refusal,
    swap_book,
)


def _one_problem(text: str) -> str:
    """The message of the page's only problem (a one-line page)."""
    with pytest.raises(PluginError) as caught:
        page_markdown(text)
    found = problems(caught.value)
    assert len(found) == 1 and found[0][0] == 1, str(caught.value)
    return found[0][1]


# ---------------------------------------------------------------- formulas


def test_a_formula_on_a_field_with_no_layout_lists_the_formulas_there_are() -> None:
    message = _one_problem("<!-- grpo:formula easy.std-sample -->")
    assert (
        message
        == "no formula computes easy.std-sample (its formulas: advantage, mean, rewards, std, variance, after easy.)"
    )


def test_a_formula_where_the_owner_has_none_says_so() -> None:
    message = _one_problem("<!-- grpo:formula easy.variants.trl.advantage.wrong -->")
    assert message.startswith("no formula computes easy.variants.trl.advantage.wrong (it has none")


def test_a_formula_is_found_along_the_owners_classes() -> None:
    # Group's mean is declared on GroupWorking, whose layout draws it: mu = (1+1+1+1+0)/5 = 4/5 = 0.8
    assert page_markdown("<!-- grpo:formula easy.mean -->") == r"$`\mu = \frac{1+1+1+1+0}{5} = \frac{4}{5} = 0.8`$"


def test_a_layout_that_refuses_says_why_with_the_path() -> None:
    message = _one_problem("<!-- grpo:formula practice.kl.mean.k1 -->")
    assert message == "practice.kl.mean.k1: the mean's formula is drawn for k3 only, not k1"


@dataclass(frozen=True)
class _Dial:
    """A toy model: one number per named setting."""

    setting: Mapping[str, float]
    """The dial's settings, by name."""
    on: bool
    """The dial is on."""


_DIAL = _Dial({"low": 0.25, "high": 0.75}, on=False)


def _setting_tex(dial: _Dial, name: str) -> str:
    if name == "high":
        raise LayoutError("the high setting is not drawn")
    return rf"s_{{\text{{{name}}}}} = {dial.setting[name]}"


def _dial_block(dial: _Dial) -> str:
    return f"| setting | value |\n|---|---|\n| low | {dial.setting['low']} |"


def test_a_formula_layout_is_called_with_its_owner_and_the_keys_after_its_field(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    dial = model_subject("dial", _DIAL, "make_dial()")
    swap_book(monkeypatch, book_with({"dial": dial}, formulas={(_Dial, "setting"): _setting_tex}))
    assert page_markdown("<!-- grpo:formula dial.setting.low -->") == r"$`s_{\text{low}} = 0.25`$"
    assert _one_problem("<!-- grpo:formula dial.setting.high -->") == "dial.setting.high: the high setting is not drawn"
    assert _one_problem("<!-- grpo:formula dial.on -->").startswith(
        "no formula computes dial.on (its formulas: setting"
    )


@pytest.mark.xfail(
    strict=True, raises=TypeError, reason="bug: a formula path that stops short of the layout's keys raises TypeError"
)
def test_a_formula_path_with_too_few_keys_is_a_located_error() -> None:
    # advantage_tex(group, outcome) needs the outcome: the path names the whole mapping
    assert "easy.advantage" in _one_problem("<!-- grpo:formula easy.advantage -->")


@pytest.mark.xfail(
    strict=True, raises=TypeError, reason="bug: a formula path that goes past the layout's keys raises TypeError"
)
def test_a_formula_path_with_too_many_keys_is_a_located_error() -> None:
    # rewards_tex(group) draws all the rewards: a path to one of them passes the index on as a key
    assert "easy.rewards.0" in _one_problem("<!-- grpo:formula easy.rewards.0 -->")


# ---------------------------------------------------------------- blocks and widgets


def test_a_block_given_too_many_paths_names_the_type_and_an_example() -> None:
    message = _one_problem("<!-- grpo:block worked-example easy hard -->")
    assert message == (
        "block 'worked-example' takes one path(s) to a Group, got 2: write <!-- grpo:block worked-example easy -->"
    )


def test_a_block_given_too_few_paths_says_how_many_it_takes() -> None:
    message = _one_problem("<!-- grpo:block compare easy -->")
    assert message.startswith("block 'compare' takes two or more path(s) to a Group")
    assert "got 1: write <!-- grpo:block compare " in message


def test_a_block_given_a_path_of_the_wrong_type_names_both_types_and_an_example() -> None:
    assert _one_problem("<!-- grpo:block ppo-gae ppo -->") == (
        "block 'ppo-gae' draws a Gae, and ppo is a PPO: write <!-- grpo:block ppo-gae ppo.gae -->"
    )
    assert _one_problem("<!-- grpo:block bandit-menu easy -->") == (
        "block 'bandit-menu' draws a Bandit, and easy is a Group: write <!-- grpo:block bandit-menu bandit -->"
    )
    assert _one_problem("<!-- grpo:block worked-example easy.mean -->").startswith(
        "block 'worked-example' draws a Group, and easy.mean is a Fraction: write"
    )


def test_a_widget_given_a_path_of_the_wrong_type_names_both_types_and_an_example() -> None:
    assert _one_problem("<!-- grpo:widget kl practice -->") == (
        "widget 'kl' draws a Kl, and practice is a Practice: write <!-- grpo:widget kl practice.kl -->"
    )
    assert _one_problem("<!-- grpo:widget group ppo -->") == (
        "widget 'group' draws a Group, and ppo is a PPO: write <!-- grpo:widget group easy -->"
    )


def test_a_layout_that_refuses_its_nodes_says_why() -> None:
    assert _one_problem("<!-- grpo:block deviations solved -->") == (
        "block 'deviations': it needs groups whose rewards differ; solved is all equal"
    )


def test_an_unknown_block_or_widget_lists_the_names_there_are() -> None:
    message = _one_problem("<!-- grpo:block compair easy hard -->")
    assert message.startswith("unknown block 'compair'; did you mean 'compare'? (blocks: ")
    for name in ("worked-example", "bandit-menu", "ppo-gae", "kl-estimators", "training-reward", "names"):
        assert name in message
    message = _one_problem("<!-- grpo:widget kll practice.kl -->")
    assert message.startswith("unknown widget 'kll'; did you mean 'kl'? (widgets: ")
    assert all(name in message for name in ("group", "clip", "kl"))


def test_a_block_of_the_book_is_drawn_from_a_model_of_its_own(monkeypatch: pytest.MonkeyPatch) -> None:
    dial = model_subject("dial", _DIAL, "make_dial()", "dial.toml")
    swap_book(monkeypatch, book_with({"dial": dial}, blocks={"dial-table": _dial_block}))
    text = page_markdown("<!-- grpo:block dial-table dial -->")
    assert text.startswith("| setting | value |\n|---|---|\n| low | 0.25 |\n\n")
    # the engine's note: the expression of the node the path names, and its data
    assert '??? abstract "How these numbers were computed"' in text
    assert "    - ` make_dial() `" in text and "The data: ` dial.toml `." in text
    assert _one_problem("<!-- grpo:block dial-table easy -->") == (
        "block 'dial-table' draws a _Dial, and easy is a Group: write <!-- grpo:block dial-table dial -->"
    )


# ---------------------------------------------------------------- checks and values


def test_a_false_claim_quotes_the_claims_docstring_and_names_the_data_file() -> None:
    assert _one_problem("Wrong answers are rare. <!-- grpo:check hard.claims.wrong-is-rare -->") == (
        "the prose claims hard.claims.wrong-is-rare (Some responses are wrong, but fewer than are right), "
        "but the model says otherwise: rewrite the sentence, or the data (grpo_examples/data/groups.toml [hard])"
    )


def test_a_false_claim_of_a_chapter_quotes_a_field_or_a_property() -> None:
    # positive-inside: rho = 0.22 / 0.2 = 1.1, inside [0.8, 1.2]: the clip does not bind, the ratio is not above
    message = _one_problem("<!-- grpo:check ppo.cases.positive-inside.binds -->")
    assert "(The clip binds: the min takes the clipped term, and the gradient is 0)" in message
    assert message.endswith("(grpo_examples/data/ppo.toml)")
    message = _one_problem("<!-- grpo:check ppo.cases.positive-inside.above -->")
    assert "the prose claims ppo.cases.positive-inside.above (The ratio lies above 1 + eps)" in message


def test_a_true_claim_writes_nothing() -> None:
    assert page_markdown("Wrong answers are rare. <!-- grpo:check easy.claims.wrong-is-rare -->") == (
        "Wrong answers are rare. "
    )
    assert page_markdown("<!-- grpo:check ppo.cases.positive-inside.inside -->") == ""


def test_a_check_of_something_that_is_not_a_claim_says_what_a_claim_is() -> None:
    assert _one_problem("<!-- grpo:check easy.mean -->") == (
        "easy.mean is not a claim (true or false): grpo:check takes a claim, such as easy.claims.binary"
    )
    assert _one_problem("<!-- grpo:check solved.std-scale -->") == (
        "solved.std-scale is not defined here: every reward is the same: sigma is 0"
    )


def test_a_claim_in_a_value_says_write_check() -> None:
    assert _one_problem("<!-- grpo:value easy.claims.binary -->") == (
        "easy.claims.binary is a claim (true or false): write <!-- grpo:check easy.claims.binary -->"
    )


def test_a_value_that_is_not_one_number_says_what_it_is() -> None:
    assert _one_problem("<!-- grpo:value solved.std-scale -->") == (
        "solved.std-scale is not defined here: every reward is the same: sigma is 0"
    )
    assert _one_problem("<!-- grpo:value easy.advantage -->") == (
        "easy.advantage holds several values: name one (correct, wrong)"
    )
    message = _one_problem("<!-- grpo:value easy.claims -->")
    assert message == (
        "easy.claims is a GroupClaims: name one of its fields "
        "(binary, rewards-differ, wrong-is-rare, right-is-rare, evenly-split)"
    )
    assert _one_problem("<!-- grpo:value easy.responses -->").startswith("easy.responses is a tuple")


# ---------------------------------------------------------------- every problem of a page at once


def test_every_mistake_of_a_page_is_reported_at_once_sorted_by_line() -> None:
    page = "\n".join(
        [
            "# A page with five mistakes",  # 1
            "A formula KaTeX rejects: $`\\fracc{1}{2}`$.",  # 2: found after every placeholder
            "Fine: <!-- grpo:value easy.mean -->.",  # 3
            "Two on one line: <!-- grpo:value eazy.mean --> and <!-- grpo:check hard.claims.wrong-is-rare -->.",  # 4
            "",  # 5
            "<!-- grpo:formula easy.std-sample -->",  # 6
            "A typed number: 0.8.",  # 7: the drift guard's, after the rest
        ]
    )
    message = refusal(page)
    found = problems(PluginError(message))
    assert [line for line, _ in found] == [2, 4, 4, 6, 7]
    assert found[0][1].startswith("KaTeX cannot render this formula")
    assert found[1][1].startswith("unknown name 'eazy'")
    assert found[2][1].startswith("the prose claims hard.claims.wrong-is-rare")
    assert found[3][1].startswith("no formula computes easy.std-sample")
    assert found[4][1].startswith("typed number 0.8 (decimal)")
    # each placeholder problem quotes its offending text on the next line, indented
    assert "\n    <!-- grpo:value eazy.mean -->\n" in message
    assert "\n    <!-- grpo:check hard.claims.wrong-is-rare -->\n" in message
    assert "\n    \\fracc{1}{2}\n" in message
