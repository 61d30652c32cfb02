"""The policy-gradient chapter's bandit: its settings file, the checker's rewards, and the seeded simulation."""

from __future__ import annotations

import tomllib
from pathlib import Path

import numpy as np
import pytest
from numpy.typing import NDArray

import grpo_examples as gx
from grpo_examples import reinforce
from grpo_examples.bandit_simulation import BASELINES, Simulation, group_estimates, histogram, simulate
from grpo_examples.chapters import bandit
from grpo_examples.data import DATA, DataError, load

SETTINGS = """\
question = "What is 2 + 2?"
answer = "4"
seed = 3
group_size = 4
batches = 10

[[candidates]]
text = "<think>2 + 2 = 4.</think> \\\\boxed{4}"
probability = 0.6

[[candidates]]
text = "Answer: 5"
probability = 0.4
"""


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "bandit.toml"
    path.write_text(text, encoding="utf-8")
    return path


def _policy_and_rewards(model: gx.Bandit) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """pi(c) and r(c) of the model's candidates, in their order, as the simulation takes them."""
    candidates = [model.candidates[c] for c in sorted(model.candidates)]
    return np.array([c.probability for c in candidates]), np.array([float(c.reward) for c in candidates])


def test_the_books_bandit_is_scored_by_the_checker() -> None:
    """From the texts in bandit.toml: 1 is right with its reasoning in tags (1 + 1), 2 right without tags
    (1 + 0), 3 wrong with tags (0 + 1), 4 wrong without (0 + 0)."""
    model = gx.chapter("bandit")
    candidates = [model.candidates[c] for c in (1, 2, 3, 4)]
    assert [c.accuracy for c in candidates] == [1.0, 1.0, 0.0, 0.0]
    assert [c.format for c in candidates] == [1.0, 0.0, 1.0, 0.0]
    assert [c.reward for c in candidates] == [2, 1, 1, 0]
    assert model.best.number == 1 and model.max_reward == 2
    # The policy is the file's, read here without the book's loader.
    written = tomllib.loads((DATA / "bandit.toml").read_text(encoding="utf-8"))["candidates"]
    assert [c.probability for c in candidates] == [c["probability"] for c in written]
    assert model.baselines["none"].probabilities == tuple(c["probability"] for c in written)


def test_a_small_settings_file(tmp_path: Path) -> None:
    model = bandit.build(load(_write(tmp_path, SETTINGS), bandit.Settings))
    assert (model.question, model.answer, model.seed, model.G, model.batches, model.K) == (
        "What is 2 + 2?",
        "4",
        3,
        4,
        10,
        2,
    )
    assert [model.candidates[c].reward for c in (1, 2)] == [2, 0]  # right in tags: 1 + 1; wrong, no tags: 0 + 0
    # J = 0.6 x 2 + 0.4 x 0 = 1.2
    assert model.expected_reward == pytest.approx(1.2)


FAIR_COIN = SETTINGS.replace("probability = 0.6", "probability = 0.5").replace("probability = 0.4", "probability = 0.5")
EQUAL_REWARDS = SETTINGS.replace('text = "Answer: 5"', 'text = "<think>2 + 2 = 4.</think> \\\\boxed{4}"')


@pytest.mark.parametrize("text", [FAIR_COIN, EQUAL_REWARDS], ids=["fair-coin", "equal-rewards"])
def test_a_bandit_with_no_variance_left_under_b_equal_j_still_builds(tmp_path: Path, text: str) -> None:
    # Fair coin, rewards (2, 0): J = 1, and g_J(1) = (2 - 1)(0.5, -0.5) = (0.5, -0.5) = grad J = g_J(2): Var(J) = 0.
    # Both candidates earning 2: J = 2 and every weight r - J is 0: Var(J) = Var(0) = 0.
    assert text != SETTINGS
    model = bandit.build(load(_write(tmp_path, text), bandit.Settings))
    # Var(0) / Var(J) has no value here: the model should say so (or the loader refuse the file), not crash.
    assert isinstance(model.reduction, gx.Undefined)


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ("batches = 10\n", "", r"bandit\.toml:1:1: the top level: missing key 'batches': add it"),
        ("seed = 3\n", "seed = 3\nseeds = 4\n", r"the top level: unknown key 'seeds' \(the keys are .*\): remove"),
        ("probability = 0.6\n\n", "probability = 0.7\n\n", r"add up to 1, got \[0.7, 0.4\]"),
        ('text = "Answer: 5"\n', 'text = "Answer: 5"\nreward = 1\n', r"candidates\[2\]: unknown key 'reward'"),
        ("group_size = 4", "group_size = 1", r"group_size: 1 is outside the range the book allows, 2 to 64"),
    ],
)
def test_bad_settings_say_what_is_wrong(tmp_path: Path, old: str, new: str, message: str) -> None:
    assert old in SETTINGS
    with pytest.raises(DataError, match=message):
        load(_write(tmp_path, SETTINGS.replace(old, new, 1)), bandit.Settings)


def test_one_candidate_is_not_a_bandit(tmp_path: Path) -> None:
    text = SETTINGS.split("[[candidates]]")
    with pytest.raises(DataError, match="a bandit has 2 to 8 candidates, got 1"):
        load(_write(tmp_path, text[0] + "[[candidates]]" + text[1].replace("0.6", "1.0")), bandit.Settings)


def test_group_estimates_by_hand() -> None:
    """The chapter's bandit, one group of G = 2: candidates 1 and 2 (rewards 2 and 1)."""
    policy, rewards = _policy_and_rewards(gx.chapter("bandit"))
    samples = np.array([[0, 1]])
    # Scores: candidate 1 (0.7, -0.4, -0.2, -0.1), candidate 2 (-0.3, 0.6, -0.2, -0.1).
    # No baseline: (2 x score_1 + 1 x score_2) / 2 = ((1.4, -0.8, -0.4, -0.2) + (-0.3, 0.6, -0.2, -0.1)) / 2.
    np.testing.assert_allclose(group_estimates(policy, rewards, samples, "none")[0], [0.55, -0.1, -0.3, -0.15])
    # b = J = 1.2: (0.8 x score_1 - 0.2 x score_2) / 2 = ((0.56, -0.32, -0.16, -0.08) + (0.06, -0.12, 0.04, 0.02)) / 2.
    np.testing.assert_allclose(group_estimates(policy, rewards, samples, "expected")[0], [0.31, -0.22, -0.06, -0.03])
    # Leave-one-out: each baseline is the other reward, so the weights are 2 - 1 = 1 and 1 - 2 = -1:
    # (score_1 - score_2) / 2 = (0.5, -0.5, 0, 0).
    np.testing.assert_allclose(
        group_estimates(policy, rewards, samples, "leave-one-out")[0], [0.5, -0.5, 0.0, 0.0], atol=1e-15
    )
    with pytest.raises(ValueError, match="unknown baseline 'mean'"):
        group_estimates(policy, rewards, samples, "mean")


def test_share_not_raising_and_histogram_by_hand() -> None:
    estimates = np.array([[0.5, -0.5], [0.0, 0.0], [-0.25, 0.25], [0.75, -0.75]])
    simulation = Simulation(np.zeros((4, 2), dtype=np.int64), {"none": estimates})
    assert simulation.share_not_raising("none", 0) == 0.5  # 0.0 and -0.25 do not raise the first logit
    np.testing.assert_allclose(histogram(simulation, "none", 0, np.array([-0.5, 0.0, 0.5, 1.0])), [25, 25, 50])
    np.testing.assert_allclose(simulation.mean("none"), [0.25, -0.25])
    # Spread of the first entry: deviations (0.25, -0.25, -0.5, 0.5), sum of squares 0.625, over 3 = 0.208333;
    # the second entry mirrors it: total 0.416666...
    assert simulation.variance("none") == pytest.approx(2 * 0.625 / 3)


def test_the_simulation_is_seeded() -> None:
    model = gx.chapter("bandit")
    policy, rewards = _policy_and_rewards(model)
    first = simulate(policy, rewards, model.G, model.batches, model.seed)
    again = simulate(policy, rewards, model.G, model.batches, model.seed)
    np.testing.assert_array_equal(first.samples, again.samples)
    other = simulate(policy, rewards, model.G, model.batches, model.seed + 1)
    assert not np.array_equal(first.samples, other.samples)
    assert first.samples.shape == (model.batches, model.G)
    # The chapter's numbers are this simulation's: the same seed gives the same variances.
    for name in BASELINES:
        assert model.simulation[name].variance == first.variance(name)


def test_the_simulation_converges_to_the_exact_values() -> None:
    """With 20,000 groups of 8 from seed 0, each baseline's mean estimate lies within 4 standard errors of the
    true gradient in every entry (leave-one-out too: its baseline ignores the sample it is subtracted from),
    and the variances of b = 0 and b = J lie within 5 % of the exact Var(b) / G."""
    policy, rewards = _policy_and_rewards(gx.chapter("bandit"))
    group_size, batches = 8, 20_000
    simulation = simulate(policy, rewards, group_size, batches, 0)
    truth = reinforce.true_gradient(policy, rewards)
    for name in BASELINES:
        standard_error = simulation.estimates[name].std(axis=0, ddof=1) / np.sqrt(batches)
        assert np.all(np.abs(simulation.mean(name) - truth) <= 4 * standard_error), name
    for name, b in (("none", 0.0), ("expected", reinforce.expected_reward(policy, rewards))):
        exact = reinforce.group_variance(policy, rewards, b, group_size)
        assert simulation.variance(name) == pytest.approx(exact, rel=0.05), name
    assert simulation.variance("expected") < simulation.variance("leave-one-out") < simulation.variance("none")


def test_the_chapter_is_built_once_from_settings_that_compare_equal() -> None:
    # The model is cached on the chapter's name, and the settings are frozen: loaded twice, equal and hashable.
    assert gx.chapter("bandit") is gx.chapter("bandit")
    settings = load(DATA / "bandit.toml", bandit.Settings)
    assert settings == load(DATA / "bandit.toml", bandit.Settings)
    assert hash(settings) == hash(load(DATA / "bandit.toml", bandit.Settings))
