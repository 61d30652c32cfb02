"""The exact worked example and the named groups, checked against the spec by hand."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import grpo_examples as gx


def exact(*rewards: int) -> tuple[Fraction, ...]:
    return tuple(Fraction(r) for r in rewards)


def outcome(working: gx.GroupWorking, reward: int) -> gx.Outcome:
    found = working.outcome(reward)
    assert found is not None, f"no response has reward {reward}"
    return found


def test_easy_group_exact_forms() -> None:
    # The spec: 4/5 = 0.8; p(1-p) = 0.8 x 0.2 = 0.16; sqrt(0.16) = 0.4; (1-0.8)/0.4 = 0.5; (0-0.8)/0.4 = -2.0.
    working = gx.work_group([1, 1, 1, 1, 0])
    assert working.mean == Fraction(4, 5)
    assert working.is_binary
    assert working.variance == Fraction(4, 5) * Fraction(1, 5) == Fraction(16, 100)
    assert working.std == Fraction(2, 5)
    assert outcome(working, 1).deviation == Fraction(1, 5)
    assert outcome(working, 1).advantage == Fraction(1, 2)
    assert outcome(working, 0).advantage == -2
    assert working.q == Fraction(1, 5)
    assert working.rare_to_common == 4  # "four times the magnitude"


def test_irrational_std_stays_a_float() -> None:
    working = gx.work_group([1, 1, 1, 0, 0])  # variance 6/25: sqrt is irrational
    assert working.variance == Fraction(6, 25)
    assert isinstance(working.std, float)
    assert working.std == pytest.approx(0.24**0.5)


def test_all_equal_group_has_zero_advantage() -> None:
    working = gx.work_group([0, 0, 0])
    assert working.all_equal
    assert working.outcomes[0].advantage == 0
    # With one outcome there is no rare one: the ratio is a value the model does not have, and says why.
    ratio = working.rare_to_common
    assert isinstance(ratio, gx.Undefined)
    assert "two distinct rewards" in ratio.reason


# No deadline on this file's property tests: each example takes well under a millisecond, and a machine busy
# with the other layers' builds can stall one for longer than Hypothesis's 200 ms, which says nothing
# about the math.
@settings(deadline=None)
@given(st.lists(st.integers(0, 1), min_size=2, max_size=16))
def test_exact_working_agrees_with_numpy(bits: list[int]) -> None:
    working = gx.work_group(bits)
    np.testing.assert_allclose(float(working.mean), gx.group_mean(bits))
    np.testing.assert_allclose(float(working.std), gx.group_std(bits), atol=1e-12)
    for reward, advantage in zip(bits, gx.advantages(bits), strict=True):
        assert float(outcome(working, reward).advantage) == pytest.approx(advantage, abs=1e-12)


def test_named_groups_are_scored_by_the_verifier() -> None:
    # The spec's groups: four of five correct on the easy problem, one of five on the hard one.
    assert gx.group("easy").rewards == exact(1, 1, 1, 1, 0)
    assert gx.group("hard").rewards == exact(1, 0, 0, 0, 0)
    assert gx.group("split").rewards == exact(1, 1, 0, 0)
    for name in gx.group_names():
        group = gx.group(name)
        for response in group.responses:
            assert response.reward == gx.accuracy_reward(response.text, group.answer)


def test_unknown_group_lists_the_known_ones() -> None:
    with pytest.raises(KeyError, match="the groups are easy, hard"):
        gx.group("eazy")
