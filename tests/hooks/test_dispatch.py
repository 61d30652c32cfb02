"""How the engine dispatches a placeholder to its layout, and what it says when it cannot: through the page hook.

Formulas are looked up by (the type that owns the field, the field); blocks and widgets by name, their paths
checked against the layout's signature; claims by path. The claims quoted are the fields' docstrings in
grpo_examples/group.py and grpo_examples/chapters/ppo.py; the data files are those hooks/checks.py names.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import pytest

from grpo_examples import Undefined
from hooks import checks
from hooks.engine.contract import LayoutError, Markdown, table
from hooks.engine.tree import resolve
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
    # hooks/chapters/groups.py draws GroupWorking's rewards, mean, variance and std, and Group's advantage of one
    # outcome (a key after the field, written <key>); the sample std has no layout
    message = _one_problem("<!-- grpo:formula easy.std-sample -->")
    assert message == (
        "no formula computes easy.std-sample; the formulas there are: "
        "easy.advantage.<key>, easy.mean, easy.rewards, easy.std, easy.variance"
    )
    # each path listed, with its <key> filled in, draws
    for path in ("easy.advantage.wrong", "easy.mean", "easy.rewards", "easy.std", "easy.variance"):
        assert page_markdown(f"<!-- grpo:formula {path} -->").startswith("$`"), path


def test_a_formula_where_the_owner_has_none_says_so() -> None:
    # the owner is the Variant easy.variants.trl, whose fields no layout draws
    message = _one_problem("<!-- grpo:formula easy.variants.trl.advantage.wrong -->")
    assert message == "no formula computes easy.variants.trl.advantage.wrong; easy.variants.trl has none"


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


def _dial_block(dial: _Dial) -> Markdown:
    return table(["setting", "value"], [["low", str(dial.setting["low"])]])


def test_a_formula_layout_is_called_with_its_owner_and_the_keys_after_its_field(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    dial = model_subject("dial", _DIAL, "make_dial()")
    swap_book(monkeypatch, book_with({"dial": dial}, formulas={(_Dial, "setting"): _setting_tex}))
    assert page_markdown("<!-- grpo:formula dial.setting.low -->") == r"$`s_{\text{low}} = 0.25`$"
    assert _one_problem("<!-- grpo:formula dial.setting.high -->") == "dial.setting.high: the high setting is not drawn"
    assert _one_problem("<!-- grpo:formula dial.on -->") == (
        "no formula computes dial.on; the formulas there are: dial.setting.<key>"
    )


@dataclass(frozen=True)
class _Track:
    """A toy model whose entries are numbered from 1, as a page numbers them (ppo.gae.tokens)."""

    position: Mapping[int, float]
    """Where the track is at each step."""


def test_a_formula_layout_is_handed_an_integer_key_as_the_mapping_holds_it(monkeypatch: pytest.MonkeyPatch) -> None:
    handed: list[object] = []

    def position_tex(track: _Track, step: int) -> str:
        handed.append(step)
        return rf"x_{{{step}}} = {track.position[step]}"

    track = model_subject("track", _Track({1: 0.5, 2: 0.75}), "make_track()")
    swap_book(monkeypatch, book_with({"track": track}, formulas={(_Track, "position"): position_tex}))
    assert page_markdown("<!-- grpo:formula track.position.2 -->") == "$`x_{2} = 0.75`$"
    assert handed == [2] and type(handed[0]) is int  # the int 2, not the path's text "2"


def test_a_formula_path_with_too_few_keys_is_a_located_error() -> None:
    # advantage_tex(group, outcome) needs the outcome: the path names the whole mapping; easy has both outcomes
    assert _one_problem("<!-- grpo:formula easy.advantage -->") == (
        "easy.advantage: its formula is drawn for one entry at a time: "
        "name one (easy.advantage.correct, easy.advantage.wrong)"
    )
    # the solved group has no wrong answer: only its one entry is offered
    assert _one_problem("<!-- grpo:formula solved.advantage -->") == (
        "solved.advantage: its formula is drawn for one entry at a time: name one (solved.advantage.correct)"
    )
    # practice.kl.mean's layout takes the estimator; it draws k3 (test_a_layout_that_refuses_says_why_with_the_path)
    assert _one_problem("<!-- grpo:formula practice.kl.mean -->") == (
        "practice.kl.mean: its formula is drawn for one entry at a time: "
        "name one (practice.kl.mean.k1, practice.kl.mean.k2, practice.kl.mean.k3)"
    )


def _whole_setting_tex(dial: _Dial) -> str:
    return rf"s = ({dial.setting['low']}, {dial.setting['high']})"


def test_a_formula_path_with_too_many_keys_is_a_located_error(monkeypatch: pytest.MonkeyPatch) -> None:
    # No layout of the book takes fewer keys than its field's mapping has levels (a path no longer indexes a
    # tuple, easy.rewards.0): a toy layout draws the dial's settings all at once.
    dial = model_subject("dial", _DIAL, "make_dial()")
    swap_book(monkeypatch, book_with({"dial": dial}, formulas={(_Dial, "setting"): _whole_setting_tex}))
    assert page_markdown("<!-- grpo:formula dial.setting -->") == "$`s = (0.25, 0.75)`$"
    assert _one_problem("<!-- grpo:formula dial.setting.low -->") == (
        "dial.setting.low: its formula is drawn for dial.setting: write <!-- grpo:formula dial.setting -->"
    )


@dataclass(frozen=True)
class _Unset:
    """A toy model whose settings may be missing."""

    setting: Mapping[str, float] | Undefined
    """The settings, by name, where there are any."""


def _unset_setting_tex(unset: _Unset, name: str) -> str:
    assert not isinstance(unset.setting, Undefined)
    return rf"s_{{\text{{{name}}}}} = {unset.setting[name]}"


def test_a_keyed_formula_on_an_undefined_field_says_why_it_is_missing(monkeypatch: pytest.MonkeyPatch) -> None:
    unset = model_subject("unset", _Unset(Undefined("the dial has no settings yet")), "make_unset()")
    swap_book(monkeypatch, book_with({"unset": unset}, formulas={(_Unset, "setting"): _unset_setting_tex}))
    assert _one_problem("<!-- grpo:formula unset.setting -->") == (
        "unset.setting is not defined here: the dial has no settings yet"
    )


# ---------------------------------------------------------------- blocks and widgets


def test_a_block_given_too_many_paths_names_the_type_and_an_example() -> None:
    message = _one_problem("<!-- grpo:block worked-example easy hard -->")
    assert message == (
        "block 'worked-example' draws 1 Group, got 2 path(s): write <!-- grpo:block worked-example easy -->"
    )


def test_a_block_given_too_few_paths_says_how_many_it_takes_with_different_paths() -> None:
    # compare(first, second, *more): two groups at least, and the example names two different ones
    for written, got in (("easy", 1), ("", 0)):
        assert _one_problem(f"<!-- grpo:block compare {written} -->".replace("  ", " ")) == (
            f"block 'compare' draws 2 or more Groups, got {got} path(s): write <!-- grpo:block compare easy hard -->"
        )
    assert page_markdown("<!-- grpo:block compare easy hard -->").startswith("|")  # the example works


def test_a_widget_given_too_few_paths_names_its_own_model_in_the_example() -> None:
    assert _one_problem("<!-- grpo:widget clip -->") == (
        "widget 'clip' draws 1 PPO, got 0 path(s): write <!-- grpo:widget clip ppo -->"
    )
    assert _one_problem("<!-- grpo:block ppo-gae -->") == (
        "block 'ppo-gae' draws 1 Gae, got 0 path(s): write <!-- grpo:block ppo-gae ppo.gae -->"
    )


def test_a_block_given_a_path_of_the_wrong_type_names_both_types_and_an_example() -> None:
    assert _one_problem("<!-- grpo:block ppo-gae ppo -->") == (
        "block 'ppo-gae' draws a Gae, and ppo is a PPO: write <!-- grpo:block ppo-gae ppo.gae -->"
    )
    assert _one_problem("<!-- grpo:block bandit-menu easy -->") == (
        "block 'bandit-menu' draws a Bandit, and easy is a Group: write <!-- grpo:block bandit-menu bandit -->"
    )
    assert _one_problem("<!-- grpo:block worked-example easy.mean -->") == (
        "block 'worked-example' draws a Group, and easy.mean is a Fraction: "
        "write <!-- grpo:block worked-example easy -->"
    )
    assert _one_problem("<!-- grpo:block worked-example ppo -->") == (
        "block 'worked-example' draws a Group, and ppo is a PPO: write <!-- grpo:block worked-example easy -->"
    )
    # one wrong path of several: the example keeps the number of paths, each a different group
    assert _one_problem("<!-- grpo:block compare easy ppo -->") == (
        "block 'compare' draws a Group, and ppo is a PPO: write <!-- grpo:block compare easy hard -->"
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
    # the example is a claim the prose can make of the subject and that holds: a true one under its claims
    assert _one_problem("<!-- grpo:check easy.mean -->") == (
        "easy.mean is not a claim (true or false): grpo:check takes a claim, such as easy.claims.binary"
    )
    assert _one_problem("<!-- grpo:check solved.mean -->") == (
        "solved.mean is not a claim (true or false): grpo:check takes a claim, such as solved.claims.binary"
    )
    assert page_markdown("<!-- grpo:check easy.kept -->") == ""  # a claim, and true of easy
    # a chapter's: a claim of that chapter
    message = _one_problem("<!-- grpo:check ppo.gae.T -->")
    prefix = "ppo.gae.T is not a claim (true or false): grpo:check takes a claim, such as "
    assert message.startswith(prefix + "ppo.")
    assert resolve(checks.book().subjects, message.removeprefix(prefix)).value is True
    # a model with no claim at all offers none
    assert _one_problem("<!-- grpo:check verifier -->") == (
        "verifier is not a claim (true or false): grpo:check takes a claim"
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
            "# A page of mistakes",  # 1
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
