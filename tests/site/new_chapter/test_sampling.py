"""The sampling chapter's model, against numbers worked by hand."""

from __future__ import annotations

import pytest

import grpo_examples as gx


def test_pass_at_4_of_16_with_3_correct_is_1105_over_1820() -> None:
    # C(13, 4) = 715 and C(16, 4) = 1820: 1 - 715/1820 = 1105/1820.
    assert gx.chapter("sampling").pass_at_k == pytest.approx(1105 / 1820, rel=1e-15)
