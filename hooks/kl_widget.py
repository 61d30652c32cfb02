"""The KL-estimator widget, `<!-- grpo:widget practice.kl -->`: one token's k1, k2 and k3, and a drawing of them.

What shows without JavaScript and in print: the estimators computed by grpo_examples at build time for the
worked token and along the drawing's log-ratio axis. What the script reads: the example's tokens, the
constants of its controls and drawing, and numpy's estimates on a grid of probabilities that reaches ratios
of a million either way, which docs/assets/javascripts/kl-widget.js checks its port against on load.
"""

from __future__ import annotations

import itertools

import numpy as np

import grpo_examples as gx
from grpo_examples.kl_estimators import ratio_from_log
from hooks.markdown_text import escape_markdown
from hooks.numbers import MAX_DECIMALS, decimal
from hooks.widget import Widget

# The reader types probabilities down to a millionth (ratios up to a million); the slider moves in
# thousandths. The drawing spans log ratios from -3 to 3 (r from about 1/20 to 20) and estimates from
# -3 to 5, where k3 has left the frame on both sides and k1's sign is plain.
MIN_PROBABILITY = 1e-6
SLIDER_STEP = 0.001
LOG_RATIO_RANGE = (-3.0, 3.0)
ESTIMATE_RANGE = (-3.0, 5.0)
# The probabilities whose every pair the script's port is checked against numpy on: 64 points, from ratios
# of a millionth to a million, both probabilities 1, and the slider's ends.
CHECK_PROBABILITIES = (MIN_PROBABILITY, SLIDER_STEP, 0.05, 0.25, 0.5, 0.8, 0.999, 1.0)

CAPTION = (
    "**One token, three estimators.** Move the probability that the policy in training, π<sub>θ</sub>, and the "
    "frozen reference, π<sub>ref</sub>, give the next token: k1 follows the log ratio down below zero, k3 never "
    "goes there. Printed or without JavaScript, the table shows the estimators grpo_examples computed when the "
    "book was built; interactive, your browser recomputes them from the probabilities shown."
)


def _row(log_r: float) -> list[str]:
    estimates = [float(gx.ESTIMATORS[name](log_r)) for name in ("k1", "k2", "k3")]
    r = float(ratio_from_log(log_r))
    return [
        decimal(log_r).prose(signed=True),
        decimal(r).prose(),
        decimal(estimates[0]).prose(signed=True),
        decimal(estimates[1]).prose(),
        decimal(estimates[2]).prose(),
    ]


def static_table() -> str:
    """The estimators for the worked token, then along the drawing's axis, with how they were computed."""
    kl = gx.load_practice_examples().kl
    worked = float(gx.log_ratio(kl.pi_theta[0], kl.pi_ref[0]))
    low, high = LOG_RATIO_RANGE
    axis = [float(x) for x in np.arange(low, high + 1)]
    header = ["log r", "r = π<sub>ref</sub> / π<sub>θ</sub>", "k1 = −log r", "k2 = (log r)² / 2", "k3 = r − 1 − log r"]
    rows = [_row(worked)] + [_row(x) for x in axis]
    rows[0][0] = f"**{rows[0][0]}** (token “{escape_markdown(kl.tokens[0])}”)"
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header), *("| " + " | ".join(r) + " |" for r in rows)]
    note = "\n".join(
        [
            '??? abstract "How these numbers were computed"',
            "    Computed when the book was built by `grpo_examples.k1`, `k2` and `k3` of the log ratio: first for "
            "the first token of `[kl]` in `grpo_examples/practice_examples.toml` "
            "(`grpo_examples.log_ratio(pi_theta, pi_ref)`), then for whole log ratios along the drawing's axis. "
            "Every estimator depends on the token only through its log ratio.",
        ]
    )
    return "\n".join(lines) + "\n\n" + note


def widget_data() -> dict[str, object]:
    """Everything kl-widget.js reads: the tokens, its constants, and numpy's estimates to check its port against."""
    kl = gx.load_practice_examples().kl
    points = []
    for theta, ref in itertools.product(CHECK_PROBABILITIES, repeat=2):
        x = float(gx.log_ratio(theta, ref))
        points.append([theta, ref, x, *(float(gx.ESTIMATORS[name](x)) for name in ("k1", "k2", "k3"))])
    return {
        "context": kl.context,
        "tokens": [
            {"token": token, "pi_theta": theta, "pi_ref": ref}
            for token, theta, ref in zip(kl.tokens, kl.pi_theta, kl.pi_ref, strict=True)
        ],
        "min_probability": MIN_PROBABILITY,
        "slider_step": SLIDER_STEP,
        "log_ratio_range": list(LOG_RATIO_RANGE),
        "estimate_range": list(ESTIMATE_RANGE),
        "max_decimals": MAX_DECIMALS,
        "numpy_points": points,
    }


def kl_widget() -> Widget:
    """The widget as the `practice` namespace offers it: `<!-- grpo:widget practice.kl -->`."""
    return Widget("kl", static_table(), widget_data(), CAPTION)
