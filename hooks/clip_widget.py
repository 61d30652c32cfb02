"""The interactive clip: `<!-- grpo:widget ppo.clip -->` (docs/assets/javascripts/clip-widget.js draws it).

Without JavaScript, and in print, it is the table of the chapter's worked cases. Its script reads the
starting values, ranges and steps of its controls from grpo_examples/ppo_examples.toml, and numpy's
results on a grid that holds the ends of the clip range exactly, which it checks its port against.
"""

from __future__ import annotations

import grpo_examples as gx
from grpo_examples.ppo_examples import widget_check_points
from hooks.numbers import MAX_DECIMALS
from hooks.ppo_blocks import cases_table
from hooks.widget import Widget

CAPTION = (
    "**The clip, to poke.** Set the token's advantage A, the clip range ε and the ratio ρ (with the sliders or "
    "by typing a value); the readout shows both terms of the min, which one wins, whether the clip binds, and the "
    "gradient that reaches the policy. Printed or without JavaScript, the figure is the table of the worked cases "
    "grpo_examples computed when the book was built; interactive, your browser recomputes every number."
)


def numpy_points() -> list[list[float | bool]]:
    """[rho, A, eps, rho A, clip(rho) A, L, dL/drho, binds] at every check point, as numpy computes them."""
    points = widget_check_points(gx.load_ppo_examples())
    rows: list[list[float | bool]] = []
    for ratio, advantage, epsilon in points:
        rows.append(
            [
                ratio,
                advantage,
                epsilon,
                float(gx.unclipped_term(ratio, advantage)),
                float(gx.clipped_term(ratio, advantage, epsilon)),
                float(gx.clipped_surrogate(ratio, advantage, epsilon)),
                float(gx.surrogate_gradient(ratio, advantage, epsilon)),
                bool(gx.clip_binds(ratio, advantage, epsilon)),
            ]
        )
    return rows


def widget_data() -> dict[str, object]:
    """What clip-widget.js reads: its controls' settings, the number format, and numpy's check points."""
    chapter = gx.load_ppo_examples()
    controls = chapter.widget
    return {
        "advantage": {"value": controls.advantage, "range": controls.advantage_range, "step": controls.advantage_step},
        "epsilon": {"value": chapter.epsilon, "range": controls.epsilon_range, "step": controls.epsilon_step},
        "ratio": {"value": controls.ratio, "range": controls.ratio_range, "step": controls.ratio_step},
        "max_decimals": MAX_DECIMALS,
        "numpy_points": numpy_points(),
    }


def clip_widget() -> Widget:
    return Widget("clip", cases_table(), widget_data(), CAPTION)
