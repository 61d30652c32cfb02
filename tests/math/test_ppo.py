"""The PPO chapter's math: the clipped objective, its gradient, GAE and the critic's memory.

Expected numbers are worked out by hand in the comments; the properties are the ones the chapter states
(the objective never exceeds rho A, equals it inside the clip range, has zero gradient exactly where the
clip binds; GAE at lambda = 1 is the return minus V, at lambda = 0 the TD error).
"""

from __future__ import annotations

import math
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import grpo_examples as gx
from grpo_examples.chapters import ppo
from grpo_examples.data import DATA, DataError, load

EPS = 0.2


@pytest.mark.parametrize(
    ("ratio", "advantage", "objective", "gradient", "binds"),
    [
        (1.5, 1.0, 1.2, 0.0, True),  # min(1.5 x 1, 1.2 x 1) = min(1.5, 1.2) = 1.2; flat: gradient 0
        (1.1, 1.0, 1.1, 1.0, False),  # inside [0.8, 1.2]: min(1.1, 1.1) = 1.1, gradient A = 1
        (0.5, 1.0, 0.5, 1.0, False),  # wrong way: min(0.5, 0.8) = 0.5, the unclipped term, gradient 1
        (0.5, -1.0, -0.8, 0.0, True),  # min(-0.5, 0.8 x -1) = min(-0.5, -0.8) = -0.8; flat: gradient 0
        (1.5, -1.0, -1.5, -1.0, False),  # wrong way: min(-1.5, -1.2) = -1.5, gradient A = -1
        (1.5, 2.0, 2.4, 0.0, True),  # min(3.0, 1.2 x 2) = 2.4
        (0.6, -1.0, -0.8, 0.0, True),  # min(-0.6, -0.8) = -0.8
        (1.2, 1.0, 1.2, 1.0, False),  # on the edge 1 + eps: both terms 1.2, the clip does not bind
        (0.8, -1.0, -0.8, -1.0, False),  # on the edge 1 - eps: both terms -0.8
        (3.0, 0.0, 0.0, 0.0, False),  # A = 0: nothing to push
    ],
)
def test_the_clipped_objective_by_hand(
    ratio: float, advantage: float, objective: float, gradient: float, binds: bool
) -> None:
    assert float(gx.clipped_surrogate(ratio, advantage, EPS)) == pytest.approx(objective, abs=1e-12)
    assert float(gx.surrogate_gradient(ratio, advantage, EPS)) == gradient
    assert bool(gx.clip_binds(ratio, advantage, EPS)) is binds


def test_the_ratio_comes_from_log_probabilities() -> None:
    # 0.3 / 0.2 = 1.5; exp(log 0.02 - log 0.04) = 0.5
    assert float(gx.probability_ratio(math.log(0.3), math.log(0.2))) == pytest.approx(1.5, rel=1e-15)
    np.testing.assert_allclose(gx.probability_ratio([math.log(0.02), 0.0], [math.log(0.04), 0.0]), [0.5, 1.0])


def test_every_function_takes_a_batch_of_tokens() -> None:
    ratios, advantages = np.array([1.5, 1.5, 0.6]), np.array([2.0, -1.0, -1.0])
    # min(3.0, 2.4), min(-1.5, -1.2), min(-0.6, -0.8)
    np.testing.assert_allclose(gx.clipped_surrogate(ratios, advantages, EPS), [2.4, -1.5, -0.8])
    np.testing.assert_array_equal(gx.surrogate_gradient(ratios, advantages, EPS), [0.0, -1.0, 0.0])
    np.testing.assert_array_equal(gx.clip_binds(ratios, advantages, EPS), [True, False, True])


@pytest.mark.parametrize("epsilon", [0.0, 1.0, -0.2, 1.5])
def test_a_clip_range_outside_0_1_is_refused(epsilon: float) -> None:
    with pytest.raises(ValueError, match=r"must lie in \(0, 1\)"):
        gx.clipped_surrogate(1.0, 1.0, epsilon)


ratios = st.floats(min_value=0.0, max_value=10.0, allow_nan=False)
advantages = st.floats(min_value=-10.0, max_value=10.0, allow_nan=False)
epsilons = st.floats(min_value=0.01, max_value=0.99, allow_nan=False)


# No deadline on this file's property tests: each example takes well under a millisecond, and a machine busy
# with the other layers' builds can stall one for longer than Hypothesis's 200 ms, which says nothing
# about the math.
@settings(deadline=None)
@given(ratios, advantages, epsilons)
def test_the_objective_is_a_pessimistic_bound(ratio: float, advantage: float, epsilon: float) -> None:
    objective = float(gx.clipped_surrogate(ratio, advantage, epsilon))
    assert objective <= float(gx.unclipped_term(ratio, advantage))
    assert objective <= float(gx.clipped_term(ratio, advantage, epsilon))


@settings(deadline=None)
@given(st.floats(min_value=0.0, max_value=1.0), advantages, epsilons)
def test_inside_the_clip_range_the_objective_is_rho_a(share: float, advantage: float, epsilon: float) -> None:
    low, high = gx.clip_range(epsilon)
    ratio = min(high, low + share * (high - low))
    assert float(gx.clipped_surrogate(ratio, advantage, epsilon)) == ratio * advantage
    assert float(gx.surrogate_gradient(ratio, advantage, epsilon)) == advantage


@settings(deadline=None)
@given(ratios, advantages, epsilons)
def test_the_clip_binds_exactly_where_the_min_takes_the_flat_clipped_term(
    ratio: float, advantage: float, epsilon: float
) -> None:
    # In exact arithmetic: the clip binds iff clip(rho) A < rho A, i.e. the min takes the clipped term, which
    # does not depend on rho. (Floats convert to Fractions exactly, so this is independent of round-off.)
    low, high = gx.clip_range(epsilon)
    clipped = min(max(Fraction(ratio), Fraction(low)), Fraction(high)) * Fraction(advantage)
    assert bool(gx.clip_binds(ratio, advantage, epsilon)) == (clipped < Fraction(ratio) * Fraction(advantage))


@settings(deadline=None)
@given(ratios, advantages, epsilons)
def test_the_gradient_is_zero_exactly_where_the_clip_binds(ratio: float, advantage: float, epsilon: float) -> None:
    gradient = float(gx.surrogate_gradient(ratio, advantage, epsilon))
    binds = bool(gx.clip_binds(ratio, advantage, epsilon))
    assert (gradient == 0.0) == (binds or advantage == 0.0)
    # And it is the slope: a central difference, away from the corners at 1 - eps and 1 + eps.
    h = 1e-6
    if all(abs(ratio - end) > 10 * h for end in gx.clip_range(epsilon)) and ratio > h:
        slope = (
            gx.clipped_surrogate(ratio + h, advantage, epsilon) - gx.clipped_surrogate(ratio - h, advantage, epsilon)
        ) / (2 * h)
        assert gradient == pytest.approx(float(slope), abs=1e-6 * max(1.0, abs(advantage)))


def test_gae_by_hand() -> None:
    # rewards [0, 0, 1], values V(s_1..s_4) = [0.5, 0.6, 0.8, 0], gamma 1, lambda 0.5:
    # delta = [0.6 - 0.5, 0.8 - 0.6, 1 + 0 - 0.8] = [0.1, 0.2, 0.2]
    # A_3 = 0.2, A_2 = 0.2 + 0.5 x 0.2 = 0.3, A_1 = 0.1 + 0.5 x 0.3 = 0.25
    rewards, values = [0.0, 0.0, 1.0], [0.5, 0.6, 0.8, 0.0]
    np.testing.assert_allclose(gx.td_errors(rewards, values, 1.0), [0.1, 0.2, 0.2])
    np.testing.assert_allclose(gx.gae_advantages(rewards, values, 1.0, 0.5), [0.25, 0.3, 0.2])


def test_gae_discounts_with_gamma() -> None:
    # rewards [1, 2], values all 0, gamma 0.5: delta = [1, 2]; at lambda = 1, A = [1 + 0.5 x 2, 2] = [2, 2],
    # the discounted returns; at lambda = 0.5, A_1 = 1 + 0.25 x 2 = 1.5.
    np.testing.assert_allclose(gx.gae_advantages([1.0, 2.0], [0.0, 0.0, 0.0], 0.5, 1.0), [2.0, 2.0])
    np.testing.assert_allclose(gx.discounted_returns([1.0, 2.0], 0.5), [2.0, 2.0])
    np.testing.assert_allclose(gx.gae_advantages([1.0, 2.0], [0.0, 0.0, 0.0], 0.5, 0.5), [1.5, 2.0])


def test_the_chapters_response_by_hand() -> None:
    # ppo.toml: rewards [0, 0, 0, 1], V = [0.5, 0.4, 0.7, 0.9, 0], gamma 1, lambda 0.95.
    # delta = [-0.1, 0.3, 0.2, 0.1]; A_4 = 0.1, A_3 = 0.2 + 0.095 = 0.295, A_2 = 0.3 + 0.95 x 0.295 = 0.58025,
    # A_1 = -0.1 + 0.95 x 0.58025 = 0.4512375; at lambda = 1: 1 - V = [0.5, 0.6, 0.3, 0.1].
    gae = gx.chapter("ppo").gae
    tokens = [gae.tokens[t] for t in range(1, gae.T + 1)]
    assert [token.delta for token in tokens] == pytest.approx([-0.1, 0.3, 0.2, 0.1])
    assert [token.advantage for token in tokens] == pytest.approx([0.4512375, 0.58025, 0.295, 0.1])
    assert [token.monte_carlo for token in tokens] == pytest.approx([0.5, 0.6, 0.3, 0.1])


trajectories = st.integers(min_value=1, max_value=12).flatmap(
    lambda n: st.tuples(
        st.lists(st.floats(-5, 5), min_size=n, max_size=n), st.lists(st.floats(-5, 5), min_size=n + 1, max_size=n + 1)
    )
)


@settings(deadline=None)
@given(trajectories, st.floats(min_value=0.0, max_value=1.0))
def test_gae_at_lambda_1_is_the_return_minus_the_value(
    trajectory: tuple[list[float], list[float]], gamma: float
) -> None:
    rewards, values = trajectory
    values[-1] = 0.0  # nothing follows the last token
    expected = gx.discounted_returns(rewards, gamma) - np.asarray(values[:-1])
    np.testing.assert_allclose(gx.gae_advantages(rewards, values, gamma, 1.0), expected, atol=1e-9)


@settings(deadline=None)
@given(trajectories, st.floats(min_value=0.0, max_value=1.0))
def test_gae_at_lambda_0_is_the_td_error(trajectory: tuple[list[float], list[float]], gamma: float) -> None:
    rewards, values = trajectory
    np.testing.assert_array_equal(gx.gae_advantages(rewards, values, gamma, 0.0), gx.td_errors(rewards, values, gamma))


def test_gae_needs_one_value_more_than_rewards() -> None:
    with pytest.raises(ValueError, match="needs 4 values"):
        gx.td_errors([0.0, 0.0, 1.0], [0.5, 0.5, 0.5], 1.0)


def test_the_critics_memory_by_hand() -> None:
    # 7e9 parameters x (2 + 2 + 4 + 4 + 4) = 7e9 x 16 bytes = 112e9 bytes; the weights alone 7e9 x 2 = 14e9.
    parts = gx.training_memory(7_000_000_000, {"weights": 2, "gradients": 2, "master": 4, "m": 4, "v": 4})
    assert [p.total_bytes for p in parts] == [14e9, 14e9, 28e9, 28e9, 28e9]
    assert gx.total_bytes(parts) == 112_000_000_000
    assert gx.bytes_per_parameter(parts) == 16
    with pytest.raises(ValueError, match="positive number of parameters"):
        gx.training_memory(0, {"weights": 2})


def test_the_settings_file_holds_what_the_chapter_says() -> None:
    # The chapter quotes eps = 0.2 from the PPO paper, and sizes the critic as ZeRO counts mixed-precision Adam.
    model = gx.chapter("ppo")
    assert model.epsilon == 0.2
    assert model.memory.bytes_per_parameter == 16
    assert model.memory.critic_billions == model.memory.policy_billions
    worked = model.cases["positive-above"]
    assert worked.ratio == pytest.approx(1.5)
    assert (worked.objective, worked.gradient, worked.binds) == (2.4, 0.0, True)


def test_a_case_with_an_impossible_probability_is_refused(tmp_path: Path) -> None:
    text = (DATA / "ppo.toml").read_text(encoding="utf-8")
    bad = tmp_path / "ppo.toml"
    bad.write_text(text.replace("p_new = 0.3", "p_new = 1.3", 1), encoding="utf-8")
    # p_new = 0.3 is first written in the second case, positive-above.
    with pytest.raises(DataError, match=r"cases\[2\]: case 'positive-above' needs probabilities p_old and p_new in"):
        load(bad, ppo.Settings)


# The ranges of the clip widget's sliders, as hooks/chapters/ppo.py sets them (EPSILON and RATIO) and the
# page passes them to clip_check_points: eps from 0.05 to 0.5 around the chapter's 0.2, rho from 0 to 2.5.
WIDGET_EPSILONS = (0.2, 0.05, 0.5)
WIDGET_RATIOS = (0.0, 2.5)


def test_the_widget_is_checked_on_the_ends_of_the_clip_range() -> None:
    advantage = gx.chapter("ppo").plot.curves[0].advantage
    points = {
        (p.ratio, p.advantage, p.epsilon): p for p in gx.clip_check_points(WIDGET_RATIOS, (advantage,), WIDGET_EPSILONS)
    }
    for epsilon in WIDGET_EPSILONS:
        for end in gx.clip_range(epsilon):
            assert (end, advantage, epsilon) in points
            assert (float(np.nextafter(end, np.inf)), advantage, epsilon) in points
            assert (float(np.nextafter(end, -np.inf)), advantage, epsilon) in points
        # A > 0: at 1 + eps exactly the two terms are equal and the clip does not bind; one float above, it binds.
        high = 1 + epsilon
        assert not points[(high, advantage, epsilon)].binds
        assert points[(float(np.nextafter(high, np.inf)), advantage, epsilon)].binds
        assert points[(float(np.nextafter(high, np.inf)), advantage, epsilon)].gradient == 0.0
    assert {p.ratio for p in points.values()} >= {0.0, 1.0, 2.5}
    narrower = gx.clip_check_points(WIDGET_RATIOS, (0.5,), WIDGET_EPSILONS)
    assert {p.advantage for p in narrower} == {0.5}


def test_each_check_point_is_the_clip_at_its_own_ratio_advantage_and_epsilon() -> None:
    """The points are computed a row of ratios at a time: each must still be the clip's functions at that one point."""
    points = gx.clip_check_points(WIDGET_RATIOS, (2.0, -1.0, 0.0), WIDGET_EPSILONS)
    assert len({(p.advantage, p.epsilon) for p in points}) == 9 and len(points) > 9 * 26  # the grid and the ends
    for p in points:
        rho, a, eps = p.ratio, p.advantage, p.epsilon
        assert p.unclipped == float(gx.unclipped_term(rho, a))
        assert p.clipped == float(gx.clipped_term(rho, a, eps))
        assert p.objective == float(gx.clipped_surrogate(rho, a, eps))
        assert p.gradient == float(gx.surrogate_gradient(rho, a, eps))
        assert p.binds is bool(gx.clip_binds(rho, a, eps))
