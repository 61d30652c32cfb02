"""How the GRPO-in-practice chapter is drawn: the KL estimators, the loss aggregations and the clip, as tables,
filled-in formulas and the interactive KL widget. Every number is a field of grpo_examples.chapter('practice').
"""

from __future__ import annotations

import grpo_examples as gx
from hooks.engine.contract import (
    MAX_DECIMALS,
    Blocks,
    Formulas,
    LayoutError,
    Markdown,
    Widget,
    Widgets,
    code,
    decimal,
    join,
    md,
    prose,
    relation,
    table,
)

# ---------------------------------------------------------------- formulas


def _tex(value: float) -> str:
    return decimal(value).tex()


def _relation(*values: float) -> str:
    return relation(*(decimal(v) for v in values))


def k3_tex(token: gx.KlToken) -> str:
    """k3 = pi_ref/pi_theta - log(pi_ref/pi_theta) - 1, filled in for one token (two lines)."""
    theta, ref = _tex(token.pi_theta), _tex(token.pi_ref)
    return (
        r"\begin{aligned} k_3 &= \frac{\pi_{\text{ref}}}{\pi_\theta} - \log\frac{\pi_{\text{ref}}}{\pi_\theta} - 1 "
        r"\\ &= "
        rf"\frac{{{ref}}}{{{theta}}} - \log\frac{{{ref}}}{{{theta}}} - 1 \\ &{_relation(token.ratio, token.log_ratio)} "
        rf"{_tex(token.ratio)} - ({_tex(token.log_ratio)}) - 1 {_relation(token.k3)} {_tex(token.k3)} \end{{aligned}}"
    )


def _lines(terms: list[str], per_line: int = 2) -> str:
    """Terms joined with '+', a line break after every `per_line` of them (for an aligned display)."""
    rows = [" + ".join(terms[i : i + per_line]) for i in range(0, len(terms), per_line)]
    return r" \\ &\quad + ".join(rows)


def exact_kl_tex(kl: gx.Kl) -> str:
    """D_KL = sum_x pi_theta(x) log(pi_theta(x)/pi_ref(x)), term by term, two terms a line."""
    terms = [rf"{_tex(p)}\log\frac{{{_tex(p)}}}{{{_tex(q)}}}" for p, q in zip(kl.pi_theta, kl.pi_ref, strict=True)]
    return (
        r"\begin{aligned} D_{\text{KL}}(\pi_\theta \,\Vert\, \pi_{\text{ref}}) &= \sum_x \pi_\theta(x) "
        rf"\log\frac{{\pi_\theta(x)}}{{\pi_{{\text{{ref}}}}(x)}} \\ &= {_lines(terms)} \\ "
        rf"&{_relation(kl.exact)} {_tex(kl.exact)} \end{{aligned}}"
    )


def mean_tex(kl: gx.Kl, name: str) -> str:
    """E_{x ~ pi_theta}[k3] = sum_x pi_theta(x) k3(x), term by term, two terms a line."""
    if name != "k3":
        raise LayoutError(f"the mean's formula is drawn for k3 only, not {name}")
    terms = [rf"{_tex(token.pi_theta)} \times {_tex(token.k3)}" for token in kl.tokens]
    return (
        rf"\begin{{aligned}} \mathbb{{E}}_{{x \sim \pi_\theta}}[k_3] &= \sum_x \pi_\theta(x)\, k_3(x) \\ "
        rf"&{_relation(*(token.k3 for token in kl.tokens))} {_lines(terms)} \\ "
        rf"&{_relation(kl.mean['k3'])} {_tex(kl.mean['k3'])} \end{{aligned}}"
    )


def clip_tex(clipped: gx.Clipped) -> str:
    """min(rho A, clip(rho, 1 - eps_low, 1 + eps_high) A), filled in with the clip example's token (two lines)."""
    low, high = (
        (r"\epsilon", r"\epsilon") if clipped.symmetric else (r"\epsilon_{\text{low}}", r"\epsilon_{\text{high}}")
    )
    ratio, advantage = _tex(clipped.ratio), _tex(clipped.advantage)
    return (
        rf"\begin{{aligned}} &\min\big(\rho A,\ \operatorname{{clip}}(\rho, 1-{low}, 1+{high})\, A\big) \\ "
        rf"&\quad = \min({ratio} \times {advantage},\ {_tex(clipped.clipped_ratio)} \times {advantage}) "
        rf"{_relation(clipped.unclipped, clipped.clipped)} \min({_tex(clipped.unclipped)},\ {_tex(clipped.clipped)}) "
        rf"{_relation(clipped.value)} {_tex(clipped.value)} \end{{aligned}}"
    )


FORMULAS: Formulas = {
    (gx.KlToken, "k3"): k3_tex,
    (gx.Kl, "exact"): exact_kl_tex,
    (gx.Kl, "mean"): mean_tex,
    (gx.Clipped, "value"): clip_tex,
}

# ---------------------------------------------------------------- blocks


def kl_estimators(kl: gx.Kl) -> Markdown:
    """Each candidate token's k1, k2, k3; their means and spreads under pi_theta; a Monte-Carlo average; the KL."""
    rows: list[list[str]] = [
        [
            md("“{}”", token.token),
            prose(token.pi_theta),
            prose(token.pi_ref),
            prose(token.ratio),
            prose(token.k1, signed=True),
            prose(token.k2),
            prose(token.k3),
        ]
        for token in kl.tokens
    ]
    names = ("k1", "k2", "k3")
    rows.append([Markdown("**mean under π<sub>θ</sub>**"), "", "", "", *(prose(kl.mean[n]) for n in names)])
    rows.append([Markdown("std under π<sub>θ</sub>"), "", "", "", *(prose(kl.std[n]) for n in names)])
    rows.append([f"mean of {kl.samples} samples", "", "", "", *(prose(kl.monte_carlo[n]) for n in names)])
    header = [
        "token x",
        Markdown("π<sub>θ</sub>(x)"),
        Markdown("π<sub>ref</sub>(x)"),
        Markdown("r = π<sub>ref</sub> / π<sub>θ</sub>"),
        "k1",
        "k2",
        "k3",
    ]
    exact = decimal(kl.exact)
    after = md(
        "The exact divergence the estimators estimate: D<sub>KL</sub>(π<sub>θ</sub> ‖ π<sub>ref</sub>) {}{}.",
        "= " if exact.exact else "",
        exact.prose(),
    )
    return join("\n\n", [table(header, rows), after])


NORMALISERS = {"per-sequence": "1 / (G · |oᵢ|)", "token-level": "1 / Σⱼ |oⱼ|", "constant": "1 / (G · L)"}
SUBSCRIPTS = "₁₂₃₄₅₆₇₈₉"


def loss_aggregation(loss: gx.Loss) -> Markdown:
    """How each aggregation weighs a token of the short and of the long response, and each response whole."""
    responses = loss.responses
    order = ["correct" if r.right else "wrong" for r in responses]
    rows = [
        [
            md("{} ({})", a.name, a.paper.split(",")[0]),
            NORMALISERS[key],
            *(prose(a.per_token[o], signed=True) for o in order),
            *(prose(a.whole[o], signed=True) for o in order),
        ]
        for key, a in loss.aggregations.items()
    ]
    names = [f"o{SUBSCRIPTS[r.number - 1]}" for r in responses]
    header = [
        "aggregation",
        "weight wᵢ of a token",
        *(
            f"a token of {n} ({'right' if r.right else 'wrong'}, {r.length} tokens)"
            for n, r in zip(names, responses, strict=True)
        ),
        *(f"all of {n}" for n in names),
    ]
    advantages = join(
        ", ", (md("A{} = {}", SUBSCRIPTS[r.number - 1], prose(r.advantage, signed=True)) for r in responses)
    )
    intro = md(
        "G = {} responses; GRPO advantages {}; Dr. GRPO's constant L = {} tokens. Each cell is what multiplies "
        "∇ log π<sub>θ</sub> of a token (or the sum over a response) at ρ = 1: Aᵢ wᵢ.",
        loss.G,
        advantages,
        loss.max_length,
    )
    trainers = join(
        "\n",
        (
            md("- {}: {}; {}.", a.name, a.paper, join(", ", (_setting(*setting) for setting in a.settings)))
            for a in loss.aggregations.values()
        ),
    )
    read = md("The trainer settings were read in {} and {}.", gx.TRL_READ, gx.VERL_READ)
    return join("\n\n", [intro, table(header, rows), trainers, read])


def _setting(trainer: str, setting: str, remark: str) -> Markdown:
    """A trainer, the setting that selects an aggregation in it (as code), and a remark if it has one."""
    return md("{} {}{}", trainer, code(setting), md(" ({})", remark) if remark else "")


def clip_higher(clip: gx.ClipPractice) -> Markdown:
    """The highest probability a token with a positive advantage can reach before the upper clip stops it."""

    def ceiling(value: float) -> str:
        return Markdown("1.0 (the clip never binds)") if value == 1.0 else prose(value)

    rows = [[prose(c.pi_old), ceiling(c.symmetric), ceiling(c.higher)] for c in clip.ceilings]
    header = [
        Markdown("π<sub>θold</sub>(token)"),
        md("highest π<sub>θ</sub>, clip at 1 + ε (ε = {})", prose(clip.eps)),
        md("highest π<sub>θ</sub>, clip-higher (ε<sub>high</sub> = {})", prose(clip.eps_high)),
    ]
    return join("\n\n", [table(header, rows), Markdown("The probabilities are DAPO's own illustration.")])


def kl_gradients(kl: gx.Kl) -> Markdown:
    """Per token's logit: k3's average gradient in the loss beside the gradients of the two divergences."""
    rows = [
        [
            md("“{}”", token.token),
            prose(token.pi_theta),
            prose(token.pi_ref),
            md("**{}**", prose(k3, signed=True)),
            prose(ref_theta, signed=True),
            prose(theta_ref, signed=True),
        ]
        for token, k3, ref_theta, theta_ref in zip(
            kl.tokens, kl.k3_gradient, kl.kl_ref_theta_gradient, kl.kl_theta_ref_gradient, strict=True
        )
    ]
    header = [
        "logit of token x",
        Markdown("π<sub>θ</sub>(x)"),
        Markdown("π<sub>ref</sub>(x)"),
        Markdown("E[∇ k3], k3 in the loss"),
        Markdown("∇ D<sub>KL</sub>(π<sub>ref</sub> ‖ π<sub>θ</sub>)"),
        Markdown("∇ D<sub>KL</sub>(π<sub>θ</sub> ‖ π<sub>ref</sub>)"),
    ]
    after = Markdown(
        "Each column is a gradient with respect to the four logits of a softmax policy: the average over tokens x "
        "drawn from π<sub>θ</sub> of the gradient of k3(x), then the exact gradients of the two divergences."
    )
    return join("\n\n", [table(header, rows), after])


BLOCKS: Blocks = {
    "kl-estimators": kl_estimators,
    "kl-gradients": kl_gradients,
    "loss-aggregation": loss_aggregation,
    "clip-higher": clip_higher,
}

# ---------------------------------------------------------------- the interactive KL estimators

# The reader types probabilities down to a millionth (ratios up to a million); the slider moves in
# thousandths. The drawing spans log ratios from -3 to 3 (r from about 1/20 to 20) and estimates from
# -3 to 5, where k3 has left the frame on both sides and k1's sign is plain.
MIN_PROBABILITY = 1e-6
SLIDER_STEP = 0.001
LOG_RATIO_RANGE = (-3, 3)
ESTIMATE_RANGE = (-3.0, 5.0)
# The probabilities whose every pair the script's port is checked against numpy on: 64 points, from ratios
# of a millionth to a million, both probabilities 1, and the slider's ends.
CHECK_PROBABILITIES = (MIN_PROBABILITY, SLIDER_STEP, 0.05, 0.25, 0.5, 0.8, 0.999, 1.0)

CAPTION = Markdown(
    "**One token, three estimators.** Move the probability that the policy in training, π<sub>θ</sub>, and the "
    "frozen reference, π<sub>ref</sub>, give the next token: k1 follows the log ratio down below zero, k3 never "
    "goes there. Your browser recomputes them from the probabilities shown."
)
STATIC_CAPTION = Markdown(
    "**One token, three estimators.** k1, k2 and k3 of the worked token, then of whole log ratios along the "
    "drawing's axis: k1 follows the log ratio down below zero, k3 never goes there. As grpo_examples computed "
    "them when the book was built."
)


def _row(point: gx.KlPoint) -> list[str]:
    return [
        prose(point.log_ratio, signed=True),
        prose(point.ratio),
        prose(point.k1, signed=True),
        prose(point.k2),
        prose(point.k3),
    ]


def static_table(kl: gx.Kl) -> Markdown:
    """The estimators for the worked token, then at every whole log ratio along the drawing's axis."""
    low, high = LOG_RATIO_RANGE
    worked = kl.worked
    points = gx.kl_points((worked.log_ratio, *(float(x) for x in range(low, high + 1))))
    header = [
        "log r",
        Markdown("r = π<sub>ref</sub> / π<sub>θ</sub>"),
        "k1 = −log r",
        "k2 = (log r)² / 2",
        "k3 = r − 1 − log r",
    ]
    rows = [_row(point) for point in points]
    rows[0][0] = md("**{}** (token “{}”)", rows[0][0], worked.token)
    after = Markdown("Every estimator depends on the token only through its log ratio.")
    return join("\n\n", [table(header, rows), after])


def kl_widget(kl: gx.Kl) -> Widget:
    """The KL widget, `<!-- grpo:widget kl practice.kl -->` (docs/assets/javascripts/kl-widget.js draws it)."""
    data = {
        "context": kl.context,
        "tokens": [{"token": t.token, "pi_theta": t.pi_theta, "pi_ref": t.pi_ref} for t in kl.tokens],
        "min_probability": MIN_PROBABILITY,
        "slider_step": SLIDER_STEP,
        "log_ratio_range": [float(end) for end in LOG_RATIO_RANGE],
        "estimate_range": list(ESTIMATE_RANGE),
        "max_decimals": MAX_DECIMALS,
        "numpy_points": [list(row) for row in gx.kl_check_points(CHECK_PROBABILITIES)],
    }
    return Widget("kl", static_table(kl), data, CAPTION, STATIC_CAPTION)


WIDGETS: Widgets = {"kl": kl_widget}
