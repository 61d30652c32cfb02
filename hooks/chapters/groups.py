"""How a group is drawn: its formulas filled in, its worked example, its tables and its interactive figure.

Every number comes from grpo_examples.group(name) (a gx.Group); this module lays the numbers out and
computes none of them.
"""

from __future__ import annotations

from collections.abc import Sequence

import grpo_examples as gx
from hooks.engine.contract import (
    MAX_DECIMALS,
    NBSP,
    Blocks,
    Formulas,
    LayoutError,
    Markdown,
    Widget,
    Widgets,
    code,
    count_words,
    decimal,
    join,
    math_block,
    md,
    prose,
    relation,
    short,
    short_tex,
    table,
    times_words,
)

# ---------------------------------------------------------------- formulas: the general form, then the numbers


def rewards_tex(group: gx.GroupWorking) -> str:
    """(r_1, ..., r_G) = (1, 1, 1, 1, 0)."""
    return r"(r_1, \dots, r_G) = (" + ", ".join(short_tex(r) for r in group.rewards) + ")"


def mean_tex(group: gx.GroupWorking) -> str:
    """mu = (r_1 + ... + r_G) / G = total / G = mean."""
    terms = "+".join(short_tex(r) for r in group.rewards)
    mean = decimal(group.mean)
    steps = [rf"\mu = \frac{{{terms}}}{{{group.G}}}"]
    if group.total.denominator == 1:  # 0/1 rewards: show the count over G, as 4/5
        steps.append(rf"\frac{{{group.total.numerator}}}{{{group.G}}}")
    return " = ".join(steps) + f" {mean.relation} {mean.tex()}"


def variance_tex(group: gx.GroupWorking) -> str:
    """sigma^2 = p(1 - p) for a Bernoulli group, else (1/G) sum_i (r_i - mu)^2."""
    mu, variance = decimal(group.mean), decimal(group.variance)
    if group.is_binary:
        q = decimal(group.q)
        return rf"\sigma^2 = p(1-p) {relation(mu, q)} {mu.tex()} \times {q.tex()} {variance.relation} {variance.tex()}"
    squares = "+".join(f"({short_tex(r)}-{mu.tex()})^2" for r in group.rewards)
    return (
        rf"\sigma^2 = \frac{{1}}{{G}}\sum_{{i=1}}^{{G}} (r_i-\mu)^2 {relation(mu)} "
        rf"\frac{{{squares}}}{{{group.G}}} {variance.relation} {variance.tex()}"
    )


def std_tex(group: gx.GroupWorking) -> str:
    """sigma = sqrt(sigma^2)."""
    variance, std = decimal(group.variance), decimal(group.std)
    return rf"\sigma = \sqrt{{{variance.tex()}}} {relation(variance, std)} {std.tex()}"


def _outcome(group: gx.GroupWorking, outcome: str) -> gx.Outcome:
    found = group.outcome(gx.OUTCOMES[outcome]) if outcome in gx.OUTCOMES else None
    if found is None:
        raise LayoutError(f"no response is {outcome}: the rewards are {_rewards(group)}")
    return found


def _rewards(group: gx.GroupWorking) -> str:
    return "[" + ", ".join(short(r) for r in group.rewards) + "]"


def advantage_tex(group: gx.GroupWorking, outcome: str) -> str:
    """A = (r - mu) / sigma = deviation / sigma = A, for the responses with this outcome."""
    label = rf"A_{{\text{{{outcome}}}}}"
    if group.all_equal:
        return rf"{label} = 0 \quad (\sigma = 0\text{{: every reward is the same}})"
    found = _outcome(group, outcome)
    mu, std = decimal(group.mean), decimal(group.std)
    deviation, advantage = decimal(found.deviation), decimal(found.advantage)
    return (
        rf"{label} = \frac{{r - \mu}}{{\sigma}} {relation(mu, std)} "
        rf"\frac{{{short_tex(found.reward)} - {mu.tex()}}}{{{std.tex()}}} {relation(deviation, std)} "
        rf"\frac{{{deviation.tex(signed=False)}}}{{{std.tex()}}} {advantage.relation} {advantage.tex(signed=True)}"
    )


def _label(reward: float) -> str:
    outcome = next(name for name, r in gx.OUTCOMES.items() if r == reward)
    return rf"A_{{\text{{{outcome}}}}}"


def rloo_tex(loo: gx.LeaveOneOut) -> str:
    """A = r_i - (1/(G-1)) sum_{j != i} r_j = r - (sum of the others)/(G-1) = r - b = A."""
    baseline, advantage = decimal(loo.baseline), decimal(loo.advantage)
    others = "+".join(short_tex(r) for r in loo.others)
    return (
        rf"{_label(loo.reward)} = r_i - \frac{{1}}{{G-1}}\sum_{{j \ne i}} r_j = "
        rf"{short_tex(loo.reward)} - \frac{{{others}}}{{{len(loo.others)}}} {baseline.relation} "
        rf"{short_tex(loo.reward)} - {baseline.tex()} {advantage.relation} {advantage.tex(signed=True)}"
    )


def rloo_identity_tex(loo: gx.LeaveOneOut) -> str:
    """A = G/(G-1) (r_i - mu) = (G/(G-1)) x deviation = A: the same advantage, from Dr. GRPO's."""
    deviation, advantage = decimal(loo.deviation), decimal(loo.from_dr_grpo)
    return (
        rf"{_label(loo.reward)} = \frac{{G}}{{G-1}}\,(r_i - \mu) = "
        rf"\frac{{{loo.scale.numerator}}}{{{loo.scale.denominator}}} \times ({deviation.tex(signed=True)}) "
        rf"{relation(deviation, advantage)} {advantage.tex(signed=True)}"
    )


FORMULAS: Formulas = {
    (gx.GroupWorking, "rewards"): rewards_tex,
    (gx.GroupWorking, "mean"): mean_tex,
    (gx.GroupWorking, "variance"): variance_tex,
    (gx.GroupWorking, "std"): std_tex,
    (gx.Group, "advantage"): advantage_tex,
    (gx.LeaveOneOut, "advantage"): rloo_tex,
    (gx.LeaveOneOut, "from_dr_grpo"): rloo_identity_tex,
}


# ---------------------------------------------------------------- blocks


def _signed(value: gx.Outcome | None) -> str:
    return "—" if value is None else prose(value.advantage, signed=True)


def _weight_sentence(group: gx.Group) -> str:
    """What the two advantages' sizes say, in words that follow the numbers."""
    if group.all_equal or len(group.outcomes) != 2:
        return "Every response earned the same reward, so every advantage is 0: this prompt teaches nothing."
    if group.claims.evenly_split:
        return "The group is split evenly, so a right and a wrong answer are pushed equally hard."
    ratio = group.rare_to_common
    assert not isinstance(ratio, gx.Undefined)
    rare = "wrong" if group.claims.wrong_is_rare else "right"
    other = "a correct response's" if rare == "wrong" else "a wrong response's"
    rare_count = group.count["wrong" if rare == "wrong" else "correct"]
    return (
        f"Its magnitude is {times_words(ratio)} {other}, only because being {rare} was rare in this group "
        f"({count_words(rare_count)} of {count_words(group.G)})."
    )


def worked_example(group: gx.Group) -> Markdown:
    """The step-by-step statistics and both advantages of one group."""
    if group.is_binary:
        variance_intro = (
            "Every reward is 0 or 1, so this is a Bernoulli group: with $`p = \\mu`$ the fraction of correct "
            "responses, the variance is $`p(1-p)`$:"
        )
    else:
        variance_intro = "The rewards are not all 0 or 1, so the variance is the mean squared deviation:"
    steps = [
        "1. **Group statistics.**",
        "",
        "    - The mean:",
        *math_block(mean_tex(group), indent=8),
        f"    - {variance_intro}",
        *math_block(variance_tex(group), indent=8),
        "    - The standard deviation:",
        *math_block(std_tex(group), indent=8),
    ]
    number = 2
    for outcome, reward in gx.OUTCOMES.items():
        found = group.outcome(reward)
        if found is None:
            continue
        who = (
            f"the one {outcome} response"
            if found.count == 1
            else f"each of the {count_words(found.count)} {outcome} responses"
        )
        steps += ["", f"{number}. **The advantage of {who}.**", *math_block(advantage_tex(group, outcome), indent=4)]
        number += 1
    steps += ["", f"    {_weight_sentence(group)}"]
    return Markdown("\n".join(steps))  # the hooks' own words and numbers: no data text


def _rewards_cell(group: gx.Group) -> str:
    return ", ".join(short(r) for r in group.rewards)


def compare(first: gx.Group, second: gx.Group, *more: gx.Group) -> Markdown:
    """Two or more groups side by side: the same formula, different training signals."""
    rows = [
        [
            group.title,
            _rewards_cell(group),
            f"{group.count['correct']} of {group.G}",
            prose(group.mean),
            prose(group.std),
            _signed(group.outcome(gx.OUTCOMES["correct"])),
            _signed(group.outcome(gx.OUTCOMES["wrong"])),
        ]
        for group in (first, second, *more)
    ]
    return table(["group", "rewards r", "correct", "mean μ", "std σ", "A, correct", "A, wrong"], rows)


def deviations(first: gx.Group, *more: gx.Group) -> Markdown:
    """r − μ before and after dividing by σ: the division puts every group on the same scale."""
    rows = []
    for group in (first, *more):
        if group.all_equal:
            raise LayoutError(f"it needs groups whose rewards differ; {group.name} is all equal")
        rows.append(
            [
                group.title,
                _rewards_cell(group),
                join(", ", (prose(o.deviation, signed=True) for o in group.outcomes)),
                prose(group.std),
                join(", ", (prose(o.advantage, signed=True) for o in group.outcomes)),
                prose(group.spread_of_advantages),
            ]
        )
    header = [
        "group",
        "rewards r",
        "deviations r − μ",
        "their spread σ",
        "advantages (r − μ)/σ",
        "spread of the advantages",
    ]
    return table(header, rows)


def group_table(group: gx.Group) -> Markdown:
    """Every response of one group: its text, its extracted answer, its reward and its advantage."""
    rows = [
        [
            str(i),
            response.text,
            response.answer or "none",
            short(response.reward),
            prose(response.advantage, signed=True),
        ]
        for i, response in enumerate(group.responses, start=1)
    ]
    intro = md("**{}** (reference answer: {})", group.question, group.answer)
    return join("\n\n", [intro, table(["i", "response oᵢ", "final answer", "reward rᵢ", "advantage Aᵢ"], rows)])


def conventions(group: gx.Group) -> Markdown:
    """One group's advantages under the book's population std and under TRL's and verl's sample std."""
    rows = []
    for key, convention in gx.CONVENTIONS.items():
        variant = group.variants[key]
        std = variant.std
        rows.append(
            [
                convention.label,
                "G" if convention.ddof == 0 else "G − 1",
                "—" if isinstance(std, gx.Undefined) else prose(std),
                *(prose(variant.advantage[o], signed=True) if o in variant.advantage else "—" for o in gx.OUTCOMES),
            ]
        )
    return table(["convention", "std divides by", "std σ", "A, correct", "A, wrong"], rows)


def _answer_code(text: str | None) -> Markdown:
    """An answer as the checker sees it, in code so that TeX stays literal; '(none)' when there is none."""
    return Markdown("(none)") if text is None else code(text)


def verifier_steps(group: gx.Group) -> Markdown:
    """One row per response: the text, what extraction found, its normalised form, accuracy and format rewards."""
    rows = [
        [
            str(i),
            response.text,
            _answer_code(response.answer),
            _answer_code(response.normalised),
            short(response.reward),
            short(response.format),
        ]
        for i, response in enumerate(group.responses, start=1)
    ]
    intro = md(
        "**{}** Reference answer {}, normalised to {}.",
        group.question,
        _answer_code(group.answer),
        _answer_code(group.answer_normalised),
    )
    header = ["i", "response oᵢ", "extracted", "normalised", "accuracy rᵢ", "format"]
    return join("\n\n", [intro, table(header, rows)])


# Who computes each variant, and its formula in words: (key in Group.variants, label, formula).
VARIANTS = (
    ("population", "GRPO, this book", "(r − μ) / σ"),
    ("trl", "TRL", "(r − μ) / (σₛ + 10⁻⁴)"),
    ("verl", "verl", "(r − μ) / (σₛ + 10⁻⁶)"),
    ("openrlhf", "OpenRLHF", "(r − μ) / (σₛ + 10⁻⁹)"),
    ("dr-grpo", "Dr. GRPO", "r − μ"),
    ("rloo", "RLOO", "r − mean of the others"),
)


def _variant_cell(variant: gx.Variant) -> Markdown:
    """✓ the advantage of a correct response, ✗ of a wrong one, one per line; — where the group has none."""
    lines = []
    for mark, outcome in (("✓", "correct"), ("✗", "wrong")):
        value = variant.advantage.get(outcome)
        shown = "—" if value is None else prose(value, signed=True)
        lines.append(f"{mark} {shown}".replace(" ", NBSP))  # one line each: a sign never parts from its number
    return Markdown("<br>".join(lines))


def _who(label: str, formula: str) -> Markdown:
    """A row's name in bold, and under it the formula on one line."""
    return md("**{}**<br>{}", label, formula.replace(" ", NBSP))


def advantage_variants(first: gx.Group, *more: gx.Group) -> Markdown:
    """Every variant's advantages (rows) on every named group (columns), and which groups DAPO keeps."""
    groups = (first, *more)
    for group in groups:
        if not group.is_binary:
            raise LayoutError(f"it shows 0/1 rewards; {group.name} has {_rewards(group)}")
    header = ["who computes it, and how", *(md("{} ({} of {} right)", g.name, g.count["correct"], g.G) for g in groups)]
    rows: list[list[str]] = [
        [_who(label, formula), *(_variant_cell(g.variants[key]) for g in groups)] for key, label, formula in VARIANTS
    ]
    rows.append(
        [
            _who("DAPO's dynamic sampling", "keep if 0 < right < G"),
            *("kept" if g.kept else Markdown("**dropped**") for g in groups),
        ]
    )
    return join("\n\n", [table(header, rows), "✓ is the advantage of a correct response, ✗ of a wrong one."])


def normalise_table(verifier: gx.Verifier) -> Markdown:
    """Each spelling and the checker's canonical form of it."""
    rows = [[_answer_code(s.written), _answer_code(s.normalised)] for s in verifier.spellings]
    return table(["answer as written", "normalised"], rows)


BLOCKS: Blocks = {
    "worked-example": worked_example,
    "compare": compare,
    "deviations": deviations,
    "group-table": group_table,
    "conventions": conventions,
    "verifier-steps": verifier_steps,
    "normalise-table": normalise_table,
    "advantage-variants": advantage_variants,
}


# ---------------------------------------------------------------- the interactive group

# The reader may shrink a group to two responses (the least a sample std is defined for) and grow
# it to sixteen (DeepSeek-R1-Zero's group size; the bars stay legible at 360 px).
MIN_GROUP = 2
MAX_GROUP = 16

CAPTION = Markdown(
    "**One prompt, one group.** Each row is one sampled response with its verifiable reward "
    "(1 correct, 0 wrong) and the advantage GRPO computes from the rewards of its own group, "
    "and from nothing else. Flip a response, add or remove one, or change the std convention: "
    "your browser recomputes every number from the rewards shown."
)
STATIC_CAPTION = Markdown(
    "**One prompt, one group.** Each row is one sampled response with its verifiable reward "
    "(1 correct, 0 wrong) and the advantage GRPO computes from the rewards of its own group, "
    "and from nothing else, as grpo_examples computed them when the book was built."
)


def _widget_group(group: gx.Group) -> dict[str, object]:
    return {
        "name": group.name,
        "title": group.title,
        "question": group.question,
        "reference": group.answer,
        "responses": [{"text": r.text, "answer": r.answer, "reward": r.reward} for r in group.responses],
        # under each convention that defines them (a sample std needs two rewards): what the script checks its port by
        "numpy_advantages": {
            key: list(variant.advantages)
            for key in gx.CONVENTIONS
            if not isinstance((variant := group.variants[key]).advantages, gx.Undefined)
        },
    }


def widget_data(groups: Sequence[gx.Group]) -> dict[str, object]:
    """What the group widget's script reads: the groups, the conventions and the constants of grpo_examples."""
    return {
        "groups": [_widget_group(group) for group in groups],
        "conventions": [
            {"key": c.key, "label": c.label, "ddof": c.ddof, "eps": c.eps, "source": c.source}
            for c in gx.CONVENTIONS.values()
        ],
        "equal_rewards_rtol": gx.EQUAL_REWARDS_RTOL,
        "max_decimals": MAX_DECIMALS,
        "min_group": MIN_GROUP,
        "max_group": MAX_GROUP,
    }


def group_widget(first: gx.Group, *more: gx.Group) -> Widget:
    """The interactive group over these groups: `<!-- grpo:widget group easy hard -->`."""
    groups = (first, *more)
    tables = join("\n\n", (group_table(group) for group in groups))
    return Widget("group", tables, widget_data(groups), CAPTION, STATIC_CAPTION)


WIDGETS: Widgets = {"group": group_widget}
