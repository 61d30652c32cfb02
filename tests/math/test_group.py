"""The book's named groups, grpo_examples.group(name): every number checked by hand or against the outside oracle.

Rewards are never written in groups.toml: the verifier scores each response, so the hand checks below start
from the texts (a boxed 54 where 56 is asked is wrong, and so on).
"""

from __future__ import annotations

import importlib
import json
import math
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import grpo_examples as gx
from tests.math.fields import undocumented_fields

# `grpo_examples.group` is the function (the package re-exports it), so the module is fetched by its full name.
GROUP_MODULE = importlib.import_module("grpo_examples.group")

# tests/data/README.md: computed outside the project, never regenerated with its code.
ORACLE: list[dict[str, Any]] = json.loads(
    (Path(__file__).parents[1] / "data" / "advantage-vectors.json").read_text(encoding="utf-8")
)["groups"]
ORACLE_VARIANTS = {
    "population": "population",
    "trl": "trl_sample_eps_1e-4",
    "verl": "verl_sample_eps_1e-6",
    "dr-grpo": "dr_grpo",
    "rloo": "rloo",
}


def exact(*rewards: int) -> tuple[Fraction, ...]:
    return tuple(Fraction(r) for r in rewards)


def defined(value: float | Fraction | gx.Undefined) -> float:
    """The value as a float, failing the test if the model says it has none."""
    assert not isinstance(value, gx.Undefined), value
    return float(value)


def vector(variant: gx.Variant) -> tuple[float, ...]:
    assert not isinstance(variant.advantages, gx.Undefined), variant.advantages
    return variant.advantages


# ---------------------------------------------------------------- the shipped groups, by hand


def test_the_groups_are_those_of_groups_toml_in_order() -> None:
    assert gx.group_names() == ("easy", "hard", "split", "fractions", "solved")


def test_easy_by_hand() -> None:
    # Four boxed 56s and one boxed 54 (7 x 8 = 49 + 5): rewards 1, 1, 1, 1, 0; no <think> block anywhere.
    easy = gx.group("easy")
    assert easy.rewards == exact(1, 1, 1, 1, 0)
    assert easy.G == 5 and easy.total == 4
    assert easy.mean == Fraction(4, 5)
    assert easy.q == Fraction(1, 5)
    assert easy.variance == Fraction(4, 25)  # p(1 - p) = 4/5 x 1/5
    assert easy.std == Fraction(2, 5)  # sqrt(4/25), exactly
    assert easy.deviation == {"correct": Fraction(1, 5), "wrong": Fraction(-4, 5)}
    assert easy.advantage == {"correct": Fraction(1, 2), "wrong": -2}  # 1/5 / 2/5 and -4/5 / 2/5
    assert easy.rare_to_common == 4  # |-2| / |1/2|: four times as hard, as four right answers to one wrong
    assert [r.answer for r in easy.responses] == ["56", "56", "56", "56", "54"]
    assert [r.advantage for r in easy.responses] == pytest.approx([0.5, 0.5, 0.5, 0.5, -2.0])
    assert easy.count == {"correct": 4, "wrong": 1, "format": 0, "no-format": 5, "no-answer": 0, "both": 0}
    # Sample std: sum of squared deviations 4 x 1/25 + 16/25 = 4/5, over G - 1 = 4: sqrt(1/5).
    assert defined(easy.std_sample) == pytest.approx(math.sqrt(1 / 5))
    assert defined(easy.std_scale) == pytest.approx(2.5)  # 1 / (2/5)
    assert easy.rloo_scale == Fraction(5, 4)
    assert defined(easy.sample_std_factor) == pytest.approx(math.sqrt(4 / 5))
    assert easy.spread_of_advantages == pytest.approx(1.0)  # sqrt((4 x 1/4 + 4) / 5)
    assert easy.kept and easy.is_binary and not easy.all_equal


def test_easy_variants_and_leave_one_out_by_hand() -> None:
    easy = gx.group("easy")
    variants = easy.variants
    assert set(variants) == {"population", "trl", "verl", "openrlhf", "dr-grpo", "rloo"}
    assert variants["population"].advantage == pytest.approx({"correct": 0.5, "wrong": -2.0})
    assert defined(variants["population"].std) == pytest.approx(0.4)
    # TRL: (0 - 0.8) / (sqrt(0.2) + 1e-4); OpenRLHF the same with 1e-9.
    assert variants["trl"].advantage["wrong"] == pytest.approx(-0.8 / (math.sqrt(0.2) + 1e-4), rel=1e-12)
    assert variants["openrlhf"].advantage["wrong"] == pytest.approx(-0.8 / (math.sqrt(0.2) + 1e-9), rel=1e-12)
    assert defined(variants["trl"].std) == pytest.approx(math.sqrt(0.2))
    # Dr. GRPO: r - mu = +0.2 and -0.8; RLOO: 1 - 3/4 = +0.25 and 0 - 4/4 = -1.
    assert variants["dr-grpo"].advantage == pytest.approx({"correct": 0.2, "wrong": -0.8})
    assert variants["rloo"].advantage == pytest.approx({"correct": 0.25, "wrong": -1.0})
    for name in ("dr-grpo", "rloo"):
        assert isinstance(variants[name].std, gx.Undefined)
    wrong, right = easy.leave_one_out["wrong"], easy.leave_one_out["correct"]
    assert (wrong.reward, wrong.others, wrong.baseline) == (0.0, (1.0, 1.0, 1.0, 1.0), 1.0)
    assert wrong.advantage == pytest.approx(-1.0) and wrong.from_dr_grpo == pytest.approx(-1.0)
    assert right.baseline == pytest.approx(0.75) and right.advantage == pytest.approx(0.25)
    assert right.scale == Fraction(5, 4) and right.deviation == pytest.approx(0.2)


def test_hard_by_hand() -> None:
    # One right answer (2^100 = 2 mod 7), four wrong ones: 1, 4, 4, 6.
    hard = gx.group("hard")
    assert hard.rewards == exact(1, 0, 0, 0, 0)
    assert [r.answer for r in hard.responses] == ["2", "1", "4", "4", "6"]
    assert (hard.mean, hard.variance, hard.std) == (Fraction(1, 5), Fraction(4, 25), Fraction(2, 5))
    assert hard.advantage == {"correct": 2, "wrong": Fraction(-1, 2)}  # 4/5 / 2/5 and -1/5 / 2/5
    assert hard.rare_to_common == 4
    assert (hard.count["correct"], hard.count["wrong"]) == (1, 4)
    assert hard.claims.right_is_rare and not hard.claims.wrong_is_rare


def test_split_by_hand() -> None:
    # 91 = 7 x 13, so "no": two say no, two say yes, each on an 'Answer:' line.
    split = gx.group("split")
    assert split.rewards == exact(1, 1, 0, 0)
    assert [r.answer for r in split.responses] == ["no", "no", "yes", "yes"]
    assert (split.mean, split.variance, split.std) == (Fraction(1, 2), Fraction(1, 4), Fraction(1, 2))
    assert split.advantage == {"correct": 1, "wrong": -1}
    assert split.rare_to_common == 1  # as many of each: neither is pushed harder
    assert defined(split.std_sample) == pytest.approx(math.sqrt(1 / 3))  # (4 x 1/4) / 3
    assert split.variants["rloo"].advantage == pytest.approx({"correct": 2 / 3, "wrong": -2 / 3})
    assert split.claims.evenly_split and not split.claims.wrong_is_rare and not split.claims.right_is_rare


def test_solved_by_hand() -> None:
    # Four ways of writing 42, all right: nothing to learn from.
    solved = gx.group("solved")
    assert solved.rewards == exact(1, 1, 1, 1)
    assert solved.all_equal and not solved.kept
    assert solved.variance == 0 and solved.std == 0
    std_scale = solved.std_scale
    assert isinstance(std_scale, gx.Undefined) and "sigma is 0" in std_scale.reason
    assert isinstance(solved.rare_to_common, gx.Undefined)
    # Only the outcome the group has is listed, and its advantage is exactly 0 under every variant.
    assert solved.advantage == {"correct": 0} and solved.deviation == {"correct": 0}
    for name, variant in solved.variants.items():
        assert variant.advantage == {"correct": 0.0}, name
        assert vector(variant) == (0.0, 0.0, 0.0, 0.0), name
    assert [r.advantage for r in solved.responses] == [0.0] * 4
    assert solved.spread_of_advantages == 0.0
    # Only the third wraps its reasoning in <think> tags.
    assert solved.count == {"correct": 4, "wrong": 0, "format": 1, "no-format": 3, "no-answer": 0, "both": 1}
    assert not solved.claims.rewards_differ and not solved.claims.wrong_is_rare


def test_fractions_by_hand() -> None:
    """1/2 written as \\frac{1}{2}, 6/12., 0.5 and 1/2 is right; 17/12, no answer and "1/2 or 17/12" are not.
    <think> blocks: all but the third (none) and the sixth (empty)."""
    fractions = gx.group("fractions")
    assert fractions.answer_normalised == "1/2"
    assert [r.answer for r in fractions.responses] == [
        "\\frac{1}{2}",
        "6/12.",
        "0.5",
        "\\dfrac{17}{12}",
        None,
        "1/2",
        "1/2 or 17/12",
    ]
    assert [r.normalised for r in fractions.responses] == ["1/2", "1/2", "1/2", "17/12", None, "1/2", "1/2or17/12"]
    assert fractions.rewards == exact(1, 1, 1, 0, 0, 1, 0)
    assert [r.format for r in fractions.responses] == [1.0, 1.0, 0.0, 1.0, 1.0, 0.0, 1.0]
    assert fractions.count == {"correct": 4, "wrong": 3, "format": 5, "no-format": 2, "no-answer": 1, "both": 2}
    # mu = 4/7, sigma^2 = 4/7 x 3/7 = 12/49: sigma = sqrt(12)/7 is irrational, so a float.
    assert fractions.variance == Fraction(12, 49)
    assert isinstance(fractions.std, float) and fractions.std == pytest.approx(math.sqrt(12) / 7)
    # A = (3/7) / (sqrt(12)/7) = sqrt(3)/2 and (-4/7) / (sqrt(12)/7) = -2/sqrt(3).
    assert float(fractions.advantage["correct"]) == pytest.approx(math.sqrt(3) / 2)
    assert float(fractions.advantage["wrong"]) == pytest.approx(-2 / math.sqrt(3))
    assert fractions.claims.wrong_is_rare  # 3 wrong, 4 right


@pytest.mark.parametrize("name", gx.group_names())
def test_the_counts_add_up(name: str) -> None:
    group = gx.group(name)
    count = group.count
    assert count["correct"] + count["wrong"] == group.G
    assert count["format"] + count["no-format"] == group.G
    assert count["both"] <= min(count["correct"], count["format"])
    assert count["no-answer"] == sum(r.answer is None for r in group.responses) <= count["wrong"]
    assert group.claims.binary


@pytest.mark.parametrize("name", gx.group_names())
def test_every_response_is_scored_by_the_verifier_and_advantaged_by_grpo(name: str) -> None:
    group = gx.group(name)
    for response in group.responses:
        verdict = gx.verify(response.text, group.answer)
        assert (response.answer, response.normalised, response.reward, response.format) == (
            verdict.answer,
            verdict.normalised,
            verdict.accuracy,
            verdict.format,
        )
    np.testing.assert_allclose(
        [r.advantage for r in group.responses], gx.advantages([r.reward for r in group.responses])
    )


# ---------------------------------------------------------------- against the outside oracle


def test_the_groups_that_coincide_with_the_oracle_match_it() -> None:
    matched = []
    for name in gx.group_names():
        group = gx.group(name)
        rewards = [float(r) for r in group.rewards]
        found = [entry for entry in ORACLE if entry["rewards"] == rewards]
        if not found:
            continue
        matched.append(name)
        oracle = found[0]
        assert float(group.mean) == pytest.approx(oracle["mean"], abs=1e-12)
        assert float(group.std) == pytest.approx(oracle["std_population"], abs=1e-12)
        assert defined(group.std_sample) == pytest.approx(oracle["std_sample"], abs=1e-12)
        for variant, key in ORACLE_VARIANTS.items():
            np.testing.assert_allclose(vector(group.variants[variant]), oracle[key], rtol=1e-9, atol=1e-12)
    # The oracle holds the easy, hard and split groups' rewards in the same order; fractions and solved differ.
    assert matched == ["easy", "hard", "split"]


# ---------------------------------------------------------------- groups built from a copy of groups.toml


GROUPS_TEXT = (gx.DATA / "groups.toml").read_text(encoding="utf-8")


def table(name: str, *responses: str, answer: str = "2") -> str:
    quoted = ", ".join(json.dumps(r) for r in responses)  # a JSON string is a TOML basic string
    return f'[{name}]\ntitle = "t"\nquestion = "What is 1 + 1?"\nanswer = "{answer}"\nresponses = [{quoted}]\n\n'


def test_a_group_of_one_response_has_undefined_values(use_groups: Callable[[str], None]) -> None:
    # A copy of groups.toml with one more group, of a single response: the shipped groups are unchanged by it.
    use_groups(GROUPS_TEXT + "\n" + table("one", "\\boxed{2}"))
    assert gx.group_names() == ("easy", "hard", "split", "fractions", "solved", "one")
    assert gx.group("easy").advantage == {"correct": Fraction(1, 2), "wrong": -2}
    one = gx.group("one")
    assert one.rewards == exact(1) and one.G == 1 and one.all_equal
    for value in (one.std_sample, one.rloo_scale, one.std_scale, one.sample_std_factor, one.rare_to_common):
        assert isinstance(value, gx.Undefined) and value.reason
    assert isinstance(one.variants["rloo"].advantages, gx.Undefined)
    assert one.variants["rloo"].advantage == {}
    assert isinstance(one.variants["trl"].std, gx.Undefined)
    assert one.leave_one_out == {}
    assert one.advantage == {"correct": 0}
    assert not one.kept


def test_a_group_of_one_response_has_no_sample_std_advantages(use_groups: Callable[[str], None]) -> None:
    use_groups(table("one", "\\boxed{2}"))
    for name in ("trl", "verl", "openrlhf"):
        assert isinstance(gx.group("one").variants[name].advantages, gx.Undefined), name


def test_a_group_with_no_right_answer(use_groups: Callable[[str], None]) -> None:
    use_groups(table("wrong", "\\boxed{3}", "Answer: 4", "It is two."))
    wrong = gx.group("wrong")
    assert wrong.rewards == exact(0, 0, 0)
    assert wrong.count["correct"] == 0 and wrong.count["no-answer"] == 1
    assert wrong.advantage == {"wrong": 0} and set(wrong.leave_one_out) == {"wrong"}
    assert isinstance(wrong.std_scale, gx.Undefined)
    assert not wrong.claims.right_is_rare and not wrong.claims.evenly_split and not wrong.claims.rewards_differ


def test_a_small_group_file_is_read_in_order(use_groups: Callable[[str], None]) -> None:
    use_groups(table("x-1", "\\boxed{2}", "\\boxed{3}") + table("b2", "\\boxed{2}"))
    assert gx.group_names() == ("x-1", "b2")
    assert gx.group("x-1").rewards == exact(1, 0)
    with pytest.raises(KeyError, match="the groups are x-1, b2"):
        gx.group("easy")


@pytest.mark.parametrize("name", ["Easy", "2hard", "my_group", '"a.b"', '"with space"', '"-lead"', '"é"'])
def test_a_name_that_breaks_the_rule_is_refused(use_groups: Callable[[str], None], name: str) -> None:
    use_groups(table("fine", "\\boxed{2}") + table(name, "\\boxed{2}"))
    with pytest.raises(gx.DataError) as caught:
        gx.group_names()
    shown = name.strip('"')
    assert caught.value.problems == [
        f"[{shown}]: {shown!r} is not a group's name: lower-case letters, digits and '-', from a letter: rename it"
    ]
    with pytest.raises(gx.DataError):
        gx.group("fine")  # the whole file is refused, not only the badly named group


def test_a_group_with_an_empty_answer_is_refused_at_its_key(use_groups: Callable[[str], None]) -> None:
    # an empty reference scores every response 0, and the pages stopped on all-equal rewards, far from the key
    use_groups(table("blank", "\\boxed{2}", answer=""))
    with pytest.raises(gx.DataError) as caught:
        gx.group("blank")
    assert str(caught.value).endswith(":4:1: blank.answer: 0 characters; the book allows 1 to 2000"), str(caught.value)


def test_a_group_without_responses_is_refused(use_groups: Callable[[str], None]) -> None:
    use_groups(table("empty"))
    needs = r"groups\.toml:\d+:\d+: empty\.responses: 0 items; the book allows 1 to 64"
    with pytest.raises(gx.DataError, match=needs):
        gx.group("empty")


def test_a_bad_name_is_reported_with_the_files_other_problems(use_groups: Callable[[str], None]) -> None:
    use_groups(table("Bad", "\\boxed{2}") + table("fine", "\\boxed{2}").replace('title = "t"', "title = 3"))
    with pytest.raises(gx.DataError) as caught:
        gx.group_names()
    assert len(caught.value.problems) == 2, caught.value.problems  # [Bad]'s name and fine.title


def test_the_shipped_groups_are_read_again_after_those_tests() -> None:
    # The fixture above points group() at other files; it must leave groups.toml in place for every later test.
    assert GROUP_MODULE.GROUPS_FILE == gx.DATA / "groups.toml"
    assert "easy" in gx.group_names()


# ---------------------------------------------------------------- the model's shape


def test_a_group_is_cached_and_unknown_names_list_the_groups() -> None:
    assert gx.group("easy") is gx.group("easy")
    with pytest.raises(KeyError, match=r"no group named 'nope' in groups\.toml; the groups are easy, hard, split"):
        gx.group("nope")


# A page's tooltip, the guide and the message of a claim that fails show a field's docstring: each has one.
@pytest.mark.parametrize("klass", [gx.Group, gx.GroupWorking, gx.Outcome, gx.Response, gx.Variant, gx.GroupClaims])
def test_every_field_of_a_group_has_a_docstring(klass: type) -> None:
    assert undocumented_fields(klass) == set()


def test_a_chapter_that_reads_a_group_says_what_it_needs_of_it(use_groups: Callable[[str], None]) -> None:
    # the practice chapter's clip example takes a correct response's advantage from [easy]; with none it said
    # KeyError: 'correct', in a traceback (issue 21)
    use_groups(GROUPS_TEXT.replace('answer = "56"', 'answer = "57"', 1))
    with pytest.raises(gx.DataError, match=r"groups\.toml:4:2: easy: the practice chapter's clip example takes the "):
        gx.chapter("practice")
    use_groups(GROUPS_TEXT[: GROUPS_TEXT.index("[solved]")])
    with pytest.raises(gx.DataError, match=r"the practice chapter reads the group \[solved\], which is gone: restore"):
        gx.chapter("practice")
