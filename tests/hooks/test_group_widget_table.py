"""The group widget's static table (what shows without JavaScript and in print): a rounded advantage keeps its
"≈" on the line of its number, as the drawn widget does (tests/browser/test_group_widget_browser.py)."""

from __future__ import annotations

import re

import grpo_examples as gx
from hooks.chapters.groups import group_table

NBSP = "\u00a0"


def test_a_rounded_advantage_in_the_static_table_keeps_its_approximately_sign() -> None:
    # The fractions group's advantages need more than four decimals, so its table writes "≈" before them.
    table = group_table(gx.group("fractions"))
    approximate = re.findall(r"≈.", table)
    assert approximate, "the fractions group no longer has a rounded advantage: pick a group that does"
    assert set(approximate) == {"≈" + NBSP}
