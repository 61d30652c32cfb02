"""The three loss aggregations: by hand on a short and a long response, and equal whenever the lengths are."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import grpo_examples as gx

# A group of two: a right answer of 5 tokens (A = +1) and a wrong one of 20 tokens (A = -1); L = 50.
LENGTHS = [5, 20]
ADVANTAGES = [1.0, -1.0]


def test_per_sequence_weights_by_hand() -> None:
    # w_i = 1 / (G |o_i|): 1 / (2 x 5) = 0.1 and 1 / (2 x 20) = 0.025.
    weights = gx.per_sequence_weights(LENGTHS)
    np.testing.assert_allclose(weights, [0.1, 0.025])
    np.testing.assert_allclose(gx.token_coefficients(ADVANTAGES, weights), [0.1, -0.025])
    # Each response as a whole: 5 x 0.1 = 0.5 and 20 x 0.025 = 0.5: the same, whatever the length.
    np.testing.assert_allclose(gx.response_coefficients(ADVANTAGES, weights, LENGTHS), [0.5, -0.5])
    # A token of the short answer weighs 0.1 / 0.025 = 4 times a token of the long one.
    assert gx.token_weight_ratio(weights, 0, 1) == pytest.approx(4.0)


def test_token_level_weights_by_hand() -> None:
    # w_i = 1 / (5 + 20) = 0.04 for every token; as wholes, 5 x 0.04 = 0.2 and 20 x 0.04 = 0.8.
    weights = gx.token_level_weights(LENGTHS)
    np.testing.assert_allclose(weights, [0.04, 0.04])
    np.testing.assert_allclose(gx.response_coefficients(ADVANTAGES, weights, LENGTHS), [0.2, -0.8])


def test_constant_weights_by_hand() -> None:
    # w_i = 1 / (G L) = 1 / (2 x 50) = 0.01; as wholes, 0.05 and 0.2.
    weights = gx.constant_weights(LENGTHS, 50)
    np.testing.assert_allclose(weights, [0.01, 0.01])
    np.testing.assert_allclose(gx.response_coefficients(ADVANTAGES, weights, LENGTHS), [0.05, -0.2])


def test_the_registry_names_the_papers_and_trainer_settings() -> None:
    assert list(gx.AGGREGATIONS) == ["per-sequence", "token-level", "constant"]
    settings = {key: dict((t, s) for t, s, _ in a.settings) for key, a in gx.AGGREGATIONS.items()}
    # TRL 1.10.0.dev0 grpo_trainer.py: 'grpo' divides each sequence by its length, 'dapo' by the batch's tokens,
    # 'dr_grpo' by batch size x max_completion_length; verl's agg_loss modes at commit b178a3c.
    assert settings["per-sequence"] == {"TRL": 'loss_type="grpo"', "verl": 'loss_agg_mode="seq-mean-token-mean"'}
    assert settings["token-level"] == {"TRL": 'loss_type="dapo"', "verl": 'loss_agg_mode="token-mean"'}
    assert settings["constant"] == {"TRL": 'loss_type="dr_grpo"', "verl": 'loss_agg_mode="seq-mean-token-sum-norm"'}
    for key, aggregation in gx.AGGREGATIONS.items():
        np.testing.assert_allclose(
            aggregation.weights(LENGTHS, 50),
            {"per-sequence": [0.1, 0.025], "token-level": [0.04, 0.04], "constant": [0.01, 0.01]}[key],
        )


# No deadline on this file's property tests: each example takes well under a millisecond, and a machine busy
# with the other layers' builds can stall one for longer than Hypothesis's 200 ms, which says nothing
# about the math.
@settings(deadline=None)
@given(st.integers(1, 4096), st.integers(1, 64))
def test_with_equal_lengths_the_three_aggregations_agree(length: int, group_size: int) -> None:
    lengths = [length] * group_size
    per_sequence = gx.per_sequence_weights(lengths)
    np.testing.assert_allclose(gx.token_level_weights(lengths), per_sequence, rtol=1e-12)
    np.testing.assert_allclose(gx.constant_weights(lengths, length), per_sequence, rtol=1e-12)


@settings(deadline=None)
@given(st.lists(st.integers(1, 500), min_size=2, max_size=16))
def test_per_sequence_pushes_every_response_as_hard_whatever_its_length(lengths: list[int]) -> None:
    ones = np.ones(len(lengths))
    totals = gx.response_coefficients(ones, gx.per_sequence_weights(lengths), lengths)
    np.testing.assert_allclose(totals, 1 / len(lengths), rtol=1e-12)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: gx.per_sequence_weights([]), "non-empty"),
        (lambda: gx.token_level_weights([3, 0]), "at least 1"),
        (lambda: gx.per_sequence_weights(np.array([2.5, 3.0])), "whole number"),
        (lambda: gx.constant_weights([5, 20], 10), "shorter than a response"),
    ],
)
def test_bad_lengths_are_refused_with_a_reason(call: object, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        call()  # type: ignore[operator]
