"""The toy task and the training run: rewards from the checker, determinism, and what the methods do."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pytest

from grpo_examples.chapters import run
from grpo_examples.data import DATA, DataError, load
from grpo_examples.run_statistics import nonzero_advantage_histogram, seed_sweep, stuck_questions, zero_advantage_share
from grpo_examples.toy_task import candidates, toy_task
from grpo_examples.training import (
    METHODS,
    TrainingConfig,
    expected_reward,
    policy_gradient,
    sample_groups,
    softmax,
    train,
    train_seeds,
    training_run,
)

CONFIG = TrainingConfig(
    seed=0, steps=40, group_size=8, learning_rate=2.0, critic_learning_rate=0.2, prior_scale=1.0, threshold=1.8
)


def test_candidate_rewards_come_from_the_checker() -> None:
    """For 7 × 8, by hand: only the boxed 56 with reasoning earns both rewards; 'Answer: 56.' only accuracy;
    reasoning around an unreadable or wrong answer only format; the rest nothing."""
    task = toy_task(((7, 8),))
    assert task.rewards[0].tolist() == [2.0, 1.0, 1.0, 1.0, 1.0, 0.0, 0.0, 0.0]
    assert task.references == ("56",)


def test_thousands_separator_is_read_as_the_number() -> None:
    """'Answer: 1,000.' is the correct answer to 25 × 40 (accuracy 1, no reasoning block)."""
    menu = candidates(25, 40)
    assert menu[1] == "Answer: 1,000."
    assert toy_task(((25, 40),)).rewards[0, 1] == 1.0


def test_softmax_rows_are_distributions() -> None:
    policy = softmax(np.array([[0.0, 0.0], [1000.0, 0.0]]))
    assert policy[0].tolist() == [0.5, 0.5]
    assert policy[1, 0] == pytest.approx(1.0)  # no overflow from a large logit


def test_expected_reward_by_hand() -> None:
    """Uniform over [1, 0] and certain of [0, 1]'s second candidate: (0.5 + 1) / 2 = 0.75."""
    logits = np.array([[0.0, 0.0], [-1000.0, 0.0]])
    assert expected_reward(logits, np.array([[1.0, 0.0], [0.0, 1.0]])) == pytest.approx(0.75)


def test_sampling_follows_the_policy() -> None:
    policy = np.array([[0.25, 0.75], [1.0, 0.0]])
    picks = sample_groups(policy, np.random.default_rng(0).random((2, 20_000)))
    assert abs(np.mean(picks[0] == 1) - 0.75) < 0.02
    assert np.all(picks[1] == 0)  # a zero-probability response is never sampled


def test_sampling_inverts_the_cdf_by_hand() -> None:
    """pi = (0.2, 0.5, 0.3): the CDF is (0.2, 0.7, 1.0), so u in [0, 0.2] picks 0, (0.2, 0.7] picks 1, the rest 2."""
    policy = np.array([[0.2, 0.5, 0.3]])
    uniforms = np.array([[0.0, 0.19, 0.2, 0.21, 0.69, 0.71, 0.999]])
    assert sample_groups(policy, uniforms).tolist() == [[0, 0, 0, 1, 1, 2, 2]]


@pytest.mark.parametrize("method", METHODS)
def test_seeds_trained_together_are_each_the_seed_trained_alone(method: str) -> None:
    """The seed sweep trains its seeds as one batch: each seed keeps its own start and sampling stream, and no
    number of one seed leaks into another, so each trace is exactly the one train gives that seed alone."""
    task, seeds = toy_task(), (3, 0, 7)
    together = train_seeds(method, CONFIG, task, seeds)
    for seed, trace in zip(seeds, together, strict=True):
        alone = train(method, dataclasses.replace(CONFIG, seed=seed), task)
        for field in ("mean_reward", "all_equal", "samples", "advantages", "final_policy"):
            assert np.array_equal(getattr(trace, field), getattr(alone, field)), (seed, field)
    assert not np.array_equal(together[0].mean_reward, together[1].mean_reward)  # the seeds differ


def test_policy_gradient_by_hand() -> None:
    """One question, pi = (0.5, 0.5), samples (0, 1) with advantages (+1, -1):
    ((1 - 0.5) - (0 - 0.5)) / 2 = 0.5 for candidate 0, and -0.5 for candidate 1."""
    gradient = policy_gradient(np.array([[0.5, 0.5]]), np.array([[0, 1]]), np.array([[1.0, -1.0]]))
    assert gradient.tolist() == [[0.5, -0.5]]


def test_same_seed_same_curves() -> None:
    first, second = train("grpo", CONFIG, toy_task()), train("grpo", CONFIG, toy_task())
    assert np.array_equal(first.mean_reward, second.mean_reward)
    assert np.array_equal(first.advantages, second.advantages)


def test_another_seed_another_curve() -> None:
    other = dataclasses.replace(CONFIG, seed=1)
    assert not np.array_equal(
        train("grpo", CONFIG, toy_task()).mean_reward, train("grpo", other, toy_task()).mean_reward
    )


def test_every_method_starts_from_the_same_policy() -> None:
    run = training_run(CONFIG)
    starts = {run.traces[m].mean_reward[0] for m in METHODS}
    assert len(starts) == 1


def test_grpo_advantages_are_zero_exactly_on_all_equal_groups() -> None:
    trace = train("grpo", CONFIG, toy_task())
    zero_rows = np.all(trace.advantages == 0, axis=-1)  # (steps, questions)
    assert np.mean(zero_rows, axis=1).tolist() == pytest.approx(trace.all_equal.tolist())
    # a response whose reward equals its group's mean also gets exactly 0, so zeros are at least the all-equal share
    assert zero_advantage_share(trace) >= 100 * trace.all_equal.mean()


def test_grpo_advantages_are_standardised_where_rewards_differ() -> None:
    trace = train("grpo", CONFIG, toy_task())
    groups = trace.advantages.reshape(-1, CONFIG.group_size)
    varied = groups[np.any(groups != 0, axis=1)]
    assert np.allclose(varied.mean(axis=1), 0.0)
    assert np.allclose(varied.std(axis=1), 1.0)


def test_reinforce_advantage_is_the_reward() -> None:
    trace = train("reinforce", CONFIG, toy_task())
    assert set(np.unique(trace.advantages)) <= {0.0, 1.0, 2.0}


def test_training_improves_every_method() -> None:
    run = training_run(CONFIG)
    for method in METHODS:
        curve = run.traces[method].mean_reward
        assert curve[-1] > curve[0] + 0.5, method


def test_grpo_beats_reinforce_without_baseline_on_most_seeds() -> None:
    """On this toy, GRPO reaches a mean reward of 1.8 (of 2) first in most of 10 seeds, and its median is sooner."""
    sweep = seed_sweep(CONFIG, 10)
    grpo, reinforce = sweep.steps_to_threshold["grpo"], sweep.steps_to_threshold["reinforce"]
    sooner = sum(g is not None and (r is None or g < r) for g, r in zip(grpo, reinforce, strict=True))
    assert sooner >= 8
    grpo_median, reinforce_median = sweep.median_steps("grpo"), sweep.median_steps("reinforce")
    assert grpo_median is not None
    assert reinforce_median is None or grpo_median < reinforce_median


def test_steps_to_threshold_is_the_first_crossing() -> None:
    trace = train("grpo", CONFIG, toy_task())
    step = trace.steps_to(1.5)
    assert step is not None
    assert trace.mean_reward[step] >= 1.5 > trace.mean_reward[:step].max()
    assert trace.steps_to(2.5) is None


def test_stuck_questions_counts_mass_below_the_best() -> None:
    trace = train("grpo", dataclasses.replace(CONFIG, steps=0), toy_task())
    assert stuck_questions(trace, toy_task()) == 0  # the random start is settled nowhere


def test_run_is_cached_on_its_settings() -> None:
    assert training_run(CONFIG) is training_run(dataclasses.replace(CONFIG))
    assert training_run(CONFIG) is not training_run(dataclasses.replace(CONFIG, seed=5))


def test_config_file_names_every_setting(tmp_path: Path) -> None:
    # run.toml is read straight into the run's settings: the chapter's Settings is TrainingConfig itself.
    assert isinstance(load(DATA / "run.toml", run.Settings), TrainingConfig)
    bad = tmp_path / "run.toml"
    bad.write_text("seed = 1\nsteps = 3\n")
    with pytest.raises(DataError) as caught:
        load(bad, run.Settings)
    missing = ["group_size", "learning_rate", "critic_learning_rate", "prior_scale", "threshold"]
    assert caught.value.problems == [f"the top level: missing key {key!r}: add it" for key in sorted(missing)]


def test_unknown_method_is_an_error() -> None:
    with pytest.raises(ValueError, match="unknown method"):
        train("ppo", CONFIG, toy_task())


def test_advantage_histogram_leaves_out_zeros() -> None:
    """REINFORCE's advantages are its rewards 0, 1, 2: the non-zero ones fill the bins at 1 and 2, and
    the shares of those two bins add up to 100 % because the zeros are not counted."""
    trace = train("reinforce", CONFIG, toy_task())
    shares = nonzero_advantage_histogram(trace, np.array([-0.5, 0.5, 1.5, 2.5]))
    assert shares[0] == 0.0
    assert shares[1] > 0 and shares[2] > 0
    assert shares.sum() == pytest.approx(100.0)


def test_grpo_leaves_unsampled_candidates_alone_and_reinforce_does_not() -> None:
    """The chapter's reading of the first-step table: GRPO's advantages sum to 0 over the group, so the
    logit of a candidate nobody sampled does not move; with rewards as advantages, it moves down."""
    policy = np.array([[0.1, 0.2, 0.3, 0.4]])
    samples = np.array([[0, 0, 1, 3]])  # candidate 2 is never sampled
    rewards = np.array([[1.0, 1.0, 0.0, 2.0]])
    from grpo_examples.training import group_advantages

    grpo = policy_gradient(policy, samples, group_advantages(rewards))
    reinforce = policy_gradient(policy, samples, rewards)
    assert grpo[0, 2] == pytest.approx(0.0, abs=1e-15)
    assert reinforce[0, 2] == pytest.approx(-0.3 * (1 + 1 + 0 + 2) / 4)  # minus pi times the mean reward


def test_vectorised_group_advantages_match_the_book_formula() -> None:
    """Row by row, the training loop's GRPO advantages are exactly grpo_examples.advantages (and all-equal agrees)."""
    from grpo_examples.advantages import advantages, rewards_all_equal
    from grpo_examples.training import group_advantages, groups_all_equal

    rng = np.random.default_rng(7)
    groups = np.vstack(
        [
            rng.integers(0, 3, size=(200, 8)).astype(float),
            np.full((3, 8), 2.0),
            np.zeros((2, 8)),
            [[1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0 + 1e-12]],  # equal up to round-off
        ]
    )
    vectorised = group_advantages(groups)
    for row, values in zip(groups, vectorised, strict=True):
        assert np.allclose(values, advantages(row), rtol=0, atol=1e-12)
    assert groups_all_equal(groups).tolist() == [rewards_all_equal(row) for row in groups]
