"""Dr. GRPO, RLOO and OpenRLHF's advantages: by hand, against the outside oracle, and their identities as properties."""

from __future__ import annotations

import json
import math
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import grpo_examples as gx

# tests/data/README.md: computed outside the project, never regenerated with its code.
ORACLE = json.loads((Path(__file__).parents[1] / "data" / "advantage-vectors.json").read_text())["groups"]

rewards_01 = st.lists(st.sampled_from([0.0, 1.0]), min_size=2, max_size=32)
rewards_real = st.lists(st.floats(-10, 10, allow_nan=False).map(lambda x: round(x, 3)), min_size=2, max_size=32)


def test_easy_group_by_hand() -> None:
    # [1, 1, 1, 1, 0]: mu = 4/5. Dr. GRPO: 1 - 0.8 = +0.2 and 0 - 0.8 = -0.8. RLOO: a right answer's others are
    # three 1s and a 0, mean 3/4, so 1 - 0.75 = +0.25; the wrong answer's others are four 1s, so 0 - 1 = -1.0.
    rewards = [1, 1, 1, 1, 0]
    np.testing.assert_allclose(gx.dr_grpo_advantages(rewards), [0.2, 0.2, 0.2, 0.2, -0.8])
    np.testing.assert_allclose(gx.leave_one_out_baselines(rewards), [0.75, 0.75, 0.75, 0.75, 1.0])
    np.testing.assert_allclose(gx.rloo_advantages(rewards), [0.25, 0.25, 0.25, 0.25, -1.0])
    # The identity's factor G/(G-1) = 5/4, exactly: 5/4 x (-0.8) = -1.0.
    assert gx.rloo_scale(5) == Fraction(5, 4)
    np.testing.assert_allclose(gx.rloo_from_dr_grpo(rewards), [0.25, 0.25, 0.25, 0.25, -1.0])


def test_split_group_by_hand() -> None:
    # [1, 1, 0, 0]: mu = 1/2, sigma = 1/2. Dr. GRPO +-0.5; RLOO: 1 - 1/3 = 2/3 and 0 - 2/3 = -2/3; 1/sigma = 2.
    np.testing.assert_allclose(gx.dr_grpo_advantages([1, 1, 0, 0]), [0.5, 0.5, -0.5, -0.5])
    np.testing.assert_allclose(gx.rloo_advantages([1, 1, 0, 0]), [2 / 3, 2 / 3, -2 / 3, -2 / 3])
    assert gx.std_scale([1, 1, 0, 0]) == pytest.approx(2.0)
    assert gx.std_scale([1, 1, 1, 1, 0]) == pytest.approx(2.5)  # sigma = sqrt(0.8 x 0.2) = 0.4


def test_leave_one_out_working_of_the_easy_wrong_answer() -> None:
    loo = gx.leave_one_out([1, 1, 1, 1, 0], 4)
    assert loo.reward == 0.0 and loo.others == (1.0, 1.0, 1.0, 1.0)
    assert loo.baseline == pytest.approx(1.0) and loo.advantage == pytest.approx(-1.0)
    assert loo.scale == Fraction(5, 4) and loo.deviation == pytest.approx(-0.8)
    # The identity's side of it: 5/4 x (-0.8) = -1.0, RLOO's advantage again.
    assert loo.from_dr_grpo == pytest.approx(-1.0)
    # A right answer: the others are 1, 1, 1, 0 (b = 3/4), so 1 - 3/4 = +0.25 = 5/4 x (1 - 0.8).
    right = gx.leave_one_out([1, 1, 1, 1, 0], 0)
    assert right.others == (1.0, 1.0, 1.0, 0.0) and right.baseline == pytest.approx(0.75)
    assert right.advantage == pytest.approx(0.25) and right.from_dr_grpo == pytest.approx(0.25)
    with pytest.raises(IndexError):
        gx.leave_one_out([1, 0], 2)


def test_openrlhf_divides_by_the_sample_std_plus_one_billionth() -> None:
    # OpenRLHF v0.11.0, experience_maker.py: (r - mean) / (std + 1e-9), torch's std (ddof=1).
    # Easy group: sigma_s = sqrt(0.2) = 0.4472136; the wrong answer: -0.8 / (0.4472136 + 1e-9) = -1.7888544.
    assert (gx.OPENRLHF.ddof, gx.OPENRLHF.eps) == (1, 1e-9)
    assert gx.OPENRLHF.advantages([1, 1, 1, 1, 0])[4] == pytest.approx(-0.8 / (math.sqrt(0.2) + 1e-9), rel=1e-12)
    assert "OPENRLHF" not in [c.key.upper() for c in gx.CONVENTIONS.values()]  # the group widget offers three


@pytest.mark.parametrize("group", ORACLE, ids=lambda g: str(g["rewards"]))
def test_variants_match_the_outside_oracle(group: dict[str, Any]) -> None:
    rewards = group["rewards"]
    np.testing.assert_allclose(gx.dr_grpo_advantages(rewards), group["dr_grpo"], rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(gx.rloo_advantages(rewards), group["rloo"], rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(gx.rloo_from_dr_grpo(rewards), group["rloo"], rtol=1e-9, atol=1e-12)
    for key, convention in (("population", gx.POPULATION), ("trl_sample_eps_1e-4", gx.TRL)):
        np.testing.assert_allclose(convention.advantages(rewards), group[key], rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(gx.VERL.advantages(rewards), group["verl_sample_eps_1e-6"], rtol=1e-9, atol=1e-12)


def test_the_oracle_holds_all_twenty_groups() -> None:
    assert len(ORACLE) == 20


# No deadline on this file's property tests: each example takes well under a millisecond, and a machine busy
# with the other layers' builds can stall one for longer than Hypothesis's 200 ms, which says nothing
# about the math.
@settings(deadline=None)
@given(st.one_of(rewards_01, rewards_real))
def test_rloo_is_g_over_g_minus_one_times_dr_grpo(rewards: list[float]) -> None:
    g = len(rewards)
    np.testing.assert_allclose(
        gx.rloo_advantages(rewards), g / (g - 1) * gx.dr_grpo_advantages(rewards), rtol=1e-9, atol=1e-9
    )


@settings(deadline=None)
@given(st.one_of(rewards_01, rewards_real))
def test_dr_grpo_and_rloo_advantages_sum_to_zero(rewards: list[float]) -> None:
    scale = max(1.0, max(abs(r) for r in rewards))
    assert abs(float(np.sum(gx.dr_grpo_advantages(rewards)))) <= 1e-9 * scale * len(rewards)
    assert abs(float(np.sum(gx.rloo_advantages(rewards)))) <= 1e-9 * scale * len(rewards)


@settings(deadline=None)
@given(rewards_01)
def test_sample_std_advantages_are_the_factor_times_population_ones(rewards: list[float]) -> None:
    expected = gx.sample_std_factor(len(rewards)) * gx.advantages(rewards)
    np.testing.assert_allclose(gx.advantages(rewards, ddof=1), expected, rtol=1e-12, atol=1e-12)


@settings(deadline=None)
@given(rewards_01)
def test_grpo_is_dr_grpo_over_sigma_and_removing_sigma_never_grows_01_advantages(rewards: list[float]) -> None:
    if gx.rewards_all_equal(rewards):
        with pytest.raises(ValueError, match="all equal"):
            gx.std_scale(rewards)
        return
    np.testing.assert_allclose(gx.advantages(rewards), gx.std_scale(rewards) * gx.dr_grpo_advantages(rewards))
    # For 0/1 rewards sigma = sqrt(p(1-p)) <= 1/2, so 1/sigma >= 2.
    assert gx.std_scale(rewards) >= 2.0 - 1e-12


@pytest.mark.parametrize("rewards", [[1.0, 1.0, 1.0], [0.0, 0.0], [0.9, 0.9 + 1e-15, 0.9 - 1e-15]])
def test_all_equal_groups_get_exact_zeros(rewards: list[float]) -> None:
    assert gx.dr_grpo_advantages(rewards).tolist() == [0.0] * len(rewards)
    assert gx.rloo_advantages(rewards).tolist() == [0.0] * len(rewards)


def test_rloo_needs_two_responses() -> None:
    with pytest.raises(ValueError, match="at least two"):
        gx.rloo_advantages([1.0])
    with pytest.raises(ValueError, match="at least two"):
        gx.rloo_scale(1)
    with pytest.raises(ValueError, match="at least two"):
        gx.sample_std_factor(1)
