"""grpo_examples' advantages against the spec's numbers, an outside oracle, and the formula's properties."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import grpo_examples as gx

# tests/data/README.md: computed outside the project, never regenerated with its code.
ORACLE = json.loads((Path(__file__).parents[1] / "data" / "advantage-vectors.json").read_text())["groups"]
ORACLE_KEYS = {"population": "population", "trl": "trl_sample_eps_1e-4", "verl": "verl_sample_eps_1e-6"}


def test_easy_group_matches_the_spec() -> None:
    # The spec: mean 4/5 = 0.8, std 0.4, +0.5 for each correct response and -2.0 for the wrong one.
    rewards = [1, 1, 1, 1, 0]
    assert gx.group_mean(rewards) == pytest.approx(0.8)
    assert gx.group_std(rewards) == pytest.approx(0.4)
    np.testing.assert_allclose(gx.advantages(rewards), [0.5, 0.5, 0.5, 0.5, -2.0])


def test_hard_group_matches_the_spec() -> None:
    np.testing.assert_allclose(gx.advantages([1, 0, 0, 0, 0]), [2.0, -0.5, -0.5, -0.5, -0.5])


def test_split_group_gets_unit_advantages() -> None:
    np.testing.assert_allclose(gx.advantages([1, 1, 0, 0]), [1.0, 1.0, -1.0, -1.0])


@pytest.mark.parametrize("group", ORACLE, ids=lambda g: str(g["rewards"]))
def test_statistics_match_the_oracle(group: dict[str, Any]) -> None:
    rewards = group["rewards"]
    assert gx.group_mean(rewards) == pytest.approx(group["mean"], abs=1e-12)
    assert gx.group_std(rewards) == pytest.approx(group["std_population"], abs=1e-12)
    if len(rewards) > 1:
        assert gx.group_std(rewards, ddof=1) == pytest.approx(group["std_sample"], abs=1e-12)


@pytest.mark.parametrize("convention", sorted(ORACLE_KEYS))
@pytest.mark.parametrize("group", ORACLE, ids=lambda g: str(g["rewards"]))
def test_conventions_match_the_oracle(group: dict[str, Any], convention: str) -> None:
    computed = gx.CONVENTIONS[convention].advantages(group["rewards"])
    np.testing.assert_allclose(computed, group[ORACLE_KEYS[convention]], rtol=1e-9, atol=1e-12)


def test_trainer_epsilons_are_the_documented_ones() -> None:
    # TRL 1.10.0.dev0 (trl/trainer/grpo_trainer.py): (r - mean) / (nanstd + 1e-4), nanstd Bessel-corrected;
    # verl b178a3c (verl/trainer/ppo/core_algos.py, compute_grpo_outcome_advantage): torch.std + 1e-6.
    assert (gx.TRL.ddof, gx.TRL.eps) == (1, 1e-4)
    assert (gx.VERL.ddof, gx.VERL.eps) == (1, 1e-6)
    assert (gx.POPULATION.ddof, gx.POPULATION.eps) == (0, 0.0)


def test_equal_rewards_give_zeros_not_nan() -> None:
    for rewards in ([1, 1, 1], [0, 0], [0.3, 0.3, 0.3], [7.0]):
        for convention in gx.CONVENTIONS.values():
            if convention.ddof and len(rewards) == 1:
                continue
            assert convention.advantages(rewards).tolist() == [0.0] * len(rewards)


def test_round_off_is_not_blown_up_into_unit_advantages() -> None:
    # Equal in all but the last bit: without the tolerance this would give advantages of size 1.
    rewards = [0.1 + 0.2, 0.3, 0.3]
    assert rewards[0] != rewards[1]
    assert gx.rewards_all_equal(rewards)
    assert gx.advantages(rewards).tolist() == [0.0, 0.0, 0.0]


def test_bad_groups_are_refused() -> None:
    with pytest.raises(ValueError, match="non-empty"):
        gx.advantages([])
    with pytest.raises(ValueError, match="finite"):
        gx.advantages([1.0, float("nan")])
    with pytest.raises(ValueError, match="ddof=1"):
        gx.group_std([1.0], ddof=1)


# Rewards on a grid of 1/8 keep the generated groups away from the all-equal tolerance, so the
# properties below are about the formula, not about round-off.
grid_rewards = st.lists(st.integers(-40, 40).map(lambda k: k / 8), min_size=2, max_size=16)


# No deadline on this file's property tests: each example takes well under a millisecond, and a machine busy
# with the other layers' builds can stall one for longer than Hypothesis's 200 ms, which says nothing
# about the math.
@settings(deadline=None)
@given(grid_rewards)
def test_advantages_sum_to_zero(rewards: list[float]) -> None:
    assert abs(gx.advantages(rewards).sum()) <= 1e-9 * len(rewards)


@settings(deadline=None)
@given(grid_rewards)
def test_population_advantages_have_unit_spread(rewards: list[float]) -> None:
    assume(len(set(rewards)) > 1)
    assert float(np.std(gx.advantages(rewards))) == pytest.approx(1.0, rel=1e-9)


@settings(deadline=None)
@given(grid_rewards, st.floats(0.01, 100), st.floats(-100, 100))
def test_invariant_under_positive_affine_maps(rewards: list[float], scale: float, shift: float) -> None:
    assume(len(set(rewards)) > 1)
    moved = [scale * r + shift for r in rewards]
    np.testing.assert_allclose(gx.advantages(moved), gx.advantages(rewards), atol=1e-7)


@settings(deadline=None)
@given(st.floats(-1e6, 1e6, allow_nan=False), st.integers(1, 16))
def test_equal_rewards_always_give_zeros(value: float, size: int) -> None:
    assert gx.advantages([value] * size).tolist() == [0.0] * size


@settings(deadline=None)
@given(grid_rewards)
def test_sample_std_advantages_are_population_ones_times_sqrt_g_minus_1_over_g(rewards: list[float]) -> None:
    g = len(rewards)
    np.testing.assert_allclose(
        gx.advantages(rewards, ddof=1), gx.advantages(rewards) * math.sqrt((g - 1) / g), rtol=1e-9, atol=1e-12
    )
