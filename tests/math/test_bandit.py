"""The policy-gradient chapter's bandit: its settings file, the checker's rewards, and the seeded simulation."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pytest

from grpo_examples import reinforce
from grpo_examples.bandit import BANDIT_FILE, Bandit, load_bandit
from grpo_examples.bandit_simulation import BASELINES, Simulation, group_estimates, histogram, simulate
from grpo_examples.training import softmax

SETTINGS = """\
question = "What is 2 + 2?"
answer = "4"
seed = 3
group_size = 4
batches = 10

[[candidates]]
text = "<think>2 + 2 = 4.</think> \\\\boxed{4}"
probability = 0.5

[[candidates]]
text = "Answer: 5"
probability = 0.5
"""


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "bandit.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_the_books_bandit_is_scored_by_the_checker() -> None:
    """From the texts in bandit.toml: 1 is right with its reasoning in tags (1 + 1), 2 right without tags
    (1 + 0), 3 wrong with tags (0 + 1), 4 wrong without (0 + 0)."""
    bandit = load_bandit()
    assert bandit.accuracy == (1.0, 1.0, 0.0, 0.0)
    assert bandit.format == (1.0, 0.0, 1.0, 0.0)
    np.testing.assert_array_equal(bandit.rewards, [2.0, 1.0, 1.0, 0.0])
    assert bandit.best == 0
    np.testing.assert_allclose(softmax(bandit.logits), bandit.policy)  # the logits are the log-probabilities


def test_a_small_settings_file(tmp_path: Path) -> None:
    bandit = load_bandit(_write(tmp_path, SETTINGS))
    assert (bandit.question, bandit.reference, bandit.seed, bandit.group_size, bandit.batches) == (
        "What is 2 + 2?",
        "4",
        3,
        4,
        10,
    )
    np.testing.assert_array_equal(bandit.rewards, [2.0, 0.0])  # right in tags: 1 + 1; wrong, no tags: 0 + 0


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ("batches = 10\n", "", r"bandit.toml: missing keys \['batches'\]"),
        ("seed = 3\n", "seed = 3\nseeds = 4\n", r"unknown keys \['seeds'\]"),
        ("probability = 0.5\n\n", "probability = 0.6\n\n", r"add up to 1, got \[0.6, 0.5\]"),
        ('text = "Answer: 5"\n', 'text = "Answer: 5"\nreward = 1\n', r"candidate 2 needs exactly 'text' and"),
        ("group_size = 4", "group_size = 1", "group_size and batches must be at least 2"),
    ],
)
def test_bad_settings_say_what_is_wrong(tmp_path: Path, old: str, new: str, message: str) -> None:
    assert old in SETTINGS
    with pytest.raises(ValueError, match=message):
        load_bandit(_write(tmp_path, SETTINGS.replace(old, new, 1)))


def test_one_candidate_is_not_a_bandit(tmp_path: Path) -> None:
    text = SETTINGS.split("[[candidates]]")
    with pytest.raises(ValueError, match="at least two candidates, got 1"):
        load_bandit(_write(tmp_path, text[0] + "[[candidates]]" + text[1].replace("0.5", "1.0")))


def test_group_estimates_by_hand() -> None:
    """The chapter's bandit, one group of G = 2: candidates 1 and 2 (rewards 2 and 1)."""
    bandit = load_bandit()
    samples = np.array([[0, 1]])
    # Scores: candidate 1 (0.7, -0.4, -0.2, -0.1), candidate 2 (-0.3, 0.6, -0.2, -0.1).
    # No baseline: (2 x score_1 + 1 x score_2) / 2 = ((1.4, -0.8, -0.4, -0.2) + (-0.3, 0.6, -0.2, -0.1)) / 2.
    np.testing.assert_allclose(
        group_estimates(bandit.policy, bandit.rewards, samples, "none")[0], [0.55, -0.1, -0.3, -0.15]
    )
    # b = J = 1.2: (0.8 x score_1 - 0.2 x score_2) / 2 = ((0.56, -0.32, -0.16, -0.08) + (0.06, -0.12, 0.04, 0.02)) / 2.
    np.testing.assert_allclose(
        group_estimates(bandit.policy, bandit.rewards, samples, "expected")[0], [0.31, -0.22, -0.06, -0.03]
    )
    # Leave-one-out: each baseline is the other reward, so the weights are 2 - 1 = 1 and 1 - 2 = -1:
    # (score_1 - score_2) / 2 = (0.5, -0.5, 0, 0).
    np.testing.assert_allclose(
        group_estimates(bandit.policy, bandit.rewards, samples, "leave-one-out")[0], [0.5, -0.5, 0.0, 0.0], atol=1e-15
    )
    with pytest.raises(ValueError, match="unknown baseline 'mean'"):
        group_estimates(bandit.policy, bandit.rewards, samples, "mean")


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
    bandit = load_bandit()
    first = simulate(bandit)
    simulate.cache_clear()
    again = simulate(bandit)
    np.testing.assert_array_equal(first.samples, again.samples)
    other = simulate(dataclasses.replace(bandit, seed=bandit.seed + 1))
    assert not np.array_equal(first.samples, other.samples)
    assert first.samples.shape == (bandit.batches, bandit.group_size)


def test_the_simulation_converges_to_the_exact_values() -> None:
    """With 20,000 groups of 8 from seed 0, each baseline's mean estimate lies within 4 standard errors of the
    true gradient in every entry (leave-one-out too: its baseline ignores the sample it is subtracted from),
    and the variances of b = 0 and b = J lie within 5 % of the exact Var(b) / G."""
    bandit = dataclasses.replace(load_bandit(BANDIT_FILE), seed=0, group_size=8, batches=20_000)
    simulation = simulate(bandit)
    truth = reinforce.true_gradient(bandit.policy, bandit.rewards)
    for name in BASELINES:
        standard_error = simulation.estimates[name].std(axis=0, ddof=1) / np.sqrt(bandit.batches)
        assert np.all(np.abs(simulation.mean(name) - truth) <= 4 * standard_error), name
    for name, b in (("none", 0.0), ("expected", reinforce.expected_reward(bandit.policy, bandit.rewards))):
        exact = reinforce.group_variance(bandit.policy, bandit.rewards, b, bandit.group_size)
        assert simulation.variance(name) == pytest.approx(exact, rel=0.05), name
    assert simulation.variance("expected") < simulation.variance("leave-one-out") < simulation.variance("none")


def test_the_bandit_is_hashable_for_the_cache() -> None:
    bandit: Bandit = load_bandit()
    assert hash(bandit) == hash(load_bandit())
