"""Each chapter's model, grpo_examples.chapter(name): it builds, it is frozen, its claims hold, its numbers are right.

The numbers are checked by hand from the data files (read here with tomllib, not with the book's loader) or
from a source; the claims are the ones the pages check with `grpo:check`, stated directly.
"""

from __future__ import annotations

import dataclasses
import math
import statistics
import struct
import tomllib
from collections.abc import Callable, Iterator, Mapping, MutableMapping
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import grpo_examples as gx
from grpo_examples import reinforce
from grpo_examples.chapters import run
from grpo_examples.data import DATA, DataError, load
from tests.math.fields import field_docstrings, undocumented_fields

MODELS: dict[str, type] = {
    "bandit": gx.Bandit,
    "ppo": gx.PPO,
    "practice": gx.Practice,
    "run": gx.Run,
    "verifier": gx.Verifier,
}


def data(name: str) -> dict[str, Any]:
    """grpo_examples/data/<name>.toml as plain TOML, independently of the loader under test."""
    return tomllib.loads((DATA / f"{name}.toml").read_text(encoding="utf-8"))


def defined(value: float | Fraction | gx.Undefined) -> float:
    assert not isinstance(value, gx.Undefined), value
    return float(value)


# ---------------------------------------------------------------- every chapter builds, as a frozen tree


def test_the_chapters_are_the_modules_and_each_has_its_data_file() -> None:
    assert gx.chapter_names() == tuple(sorted(MODELS))
    files = {path.stem for path in DATA.glob("*.toml")}
    assert files == {*MODELS, "groups"}


@pytest.mark.parametrize("name", sorted(MODELS))
def test_every_chapter_builds(name: str) -> None:
    model = gx.chapter(name)
    assert type(model) is MODELS[name]
    assert gx.chapter(name) is model  # built once, then cached


def test_an_unknown_chapter_lists_the_chapters() -> None:
    with pytest.raises(
        KeyError, match="no chapter named 'nope'; the chapters are bandit, ppo, practice, run, verifier"
    ):
        gx.chapter("nope")


def nodes(value: object, path: str) -> Iterator[tuple[str, object]]:
    """Every node of a model's tree with its path: dataclasses, mappings, tuples and the leaves."""
    yield path, value
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        for field in dataclasses.fields(value):
            yield from nodes(getattr(value, field.name), f"{path}.{field.name}")
    elif isinstance(value, Mapping):
        for key, item in value.items():
            yield from nodes(item, f"{path}[{key!r}]")
    elif isinstance(value, tuple):
        for index, item in enumerate(value):
            yield from nodes(item, f"{path}[{index}]")


MODEL_CALLS = [f"chapter({name!r})" for name in gx.chapter_names()] + [f"group({name!r})" for name in gx.group_names()]


def model_of(call: str) -> object:
    """The model a call such as "chapter('ppo')" returns."""
    function, name = call.rstrip(")").split("(")
    return gx.chapter(name.strip("'")) if function == "chapter" else gx.group(name.strip("'"))


def every_model() -> Iterator[tuple[str, object]]:
    for call in MODEL_CALLS:
        yield call, model_of(call)


LEAVES = (bool, int, float, Fraction, str, type(None))


@pytest.mark.parametrize("call", MODEL_CALLS)
def test_every_model_is_a_tree_of_frozen_dataclasses(call: str) -> None:
    tried: set[type] = set()
    for path, node in nodes(model_of(call), call):
        if dataclasses.is_dataclass(node):
            if type(node) in tried:
                continue
            tried.add(type(node))
            first = dataclasses.fields(node)[0].name
            with pytest.raises(dataclasses.FrozenInstanceError):
                setattr(node, first, getattr(node, first))
        elif not isinstance(node, Mapping | tuple):
            # Only plain Python values reach a page: no numpy scalar or array, no list.
            assert isinstance(node, LEAVES), f"{path}: {type(node).__name__}"
    assert tried, call


def test_no_part_of_a_model_can_be_changed() -> None:
    mutable = [
        path for label, model in every_model() for path, node in nodes(model, label) if isinstance(node, MutableMapping)
    ]
    assert mutable == []


# Fields without a docstring whose name says all a docstring would, by module and class: none at present.
SELF_EXPLANATORY: set[tuple[str, str]] = set()


def test_every_field_of_every_model_has_a_docstring_or_a_name_that_says_it_all() -> None:
    classes = {
        type(node)
        for label, model in every_model()
        for _, node in nodes(model, label)
        if dataclasses.is_dataclass(node) and not isinstance(node, gx.Undefined)
    }
    assert gx.Group in classes and gx.GaeToken in classes and gx.Sample in classes
    undocumented = {
        (f"{klass.__module__.rsplit('.', 1)[-1]}.{klass.__name__}", field)
        for klass in classes
        for field in undocumented_fields(klass)
    }
    assert undocumented <= SELF_EXPLANATORY


# ---------------------------------------------------------------- the claims the pages rely on


CLAIM_CLASSES = [gx.BanditClaims, gx.PracticeClaims, gx.RunClaims, gx.GroupClaims]


@pytest.mark.parametrize("name", ["bandit", "practice", "run"])
def test_every_claim_of_a_chapter_holds_for_the_shipped_data(name: str) -> None:
    claims = gx.chapter(name).claims
    false = [field.name for field in dataclasses.fields(claims) if getattr(claims, field.name) is not True]
    assert false == []


@pytest.mark.parametrize("klass", CLAIM_CLASSES)
def test_every_claim_says_what_it_claims(klass: type) -> None:
    # A page whose claim does not hold is stopped with the claim's docstring: each must have one.
    docstrings = field_docstrings(klass)
    assert docstrings and all(docstrings.values()), docstrings


# What the pages state with `grpo:check` besides the chapters' claims: each true for the shipped data.
PAGE_CHECKS: dict[str, Callable[[], bool]] = {
    "easy.claims.binary": lambda: gx.group("easy").claims.binary,
    "easy.claims.wrong-is-rare": lambda: gx.group("easy").claims.wrong_is_rare,
    "hard.claims.right-is-rare": lambda: gx.group("hard").claims.right_is_rare,
    "split.claims.evenly-split": lambda: gx.group("split").claims.evenly_split,
    "bandit.candidates.2.below-average": lambda: gx.chapter("bandit").candidates[2].below_average,
    "bandit.candidates.2.earns-something": lambda: gx.chapter("bandit").candidates[2].earns_something,
    "bandit.candidates.3.below-average": lambda: gx.chapter("bandit").candidates[3].below_average,
    "bandit.candidates.3.earns-something": lambda: gx.chapter("bandit").candidates[3].earns_something,
    "bandit.candidates.4.below-average": lambda: gx.chapter("bandit").candidates[4].below_average,
    "ppo.cases.negative-above.unclipped-kept": lambda: gx.chapter("ppo").cases["negative-above"].unclipped_kept,
    "ppo.cases.negative-below.binds": lambda: gx.chapter("ppo").cases["negative-below"].binds,
    "ppo.cases.negative-inside.inside": lambda: gx.chapter("ppo").cases["negative-inside"].inside,
    "ppo.cases.positive-above.binds": lambda: gx.chapter("ppo").cases["positive-above"].binds,
    "ppo.cases.positive-below.unclipped-kept": lambda: gx.chapter("ppo").cases["positive-below"].unclipped_kept,
    "ppo.cases.positive-inside.inside": lambda: gx.chapter("ppo").cases["positive-inside"].inside,
    "ppo.gae.first-token-below-monte-carlo": lambda: gx.chapter("ppo").gae.first_token_below_monte_carlo,
    "ppo.gae.reward-only-at-the-end": lambda: gx.chapter("ppo").gae.reward_only_at_the_end,
    "ppo.gae.tokens.1.lowers": lambda: gx.chapter("ppo").gae.tokens[1].lowers,
    "ppo.gae.tokens.2.raises": lambda: gx.chapter("ppo").gae.tokens[2].raises,
    "ppo.memory.critic-as-large-as-policy": lambda: gx.chapter("ppo").memory.critic_as_large_as_policy,
}


@pytest.mark.parametrize("check", sorted(PAGE_CHECKS))
def test_what_the_pages_check_holds_for_the_shipped_data(check: str) -> None:
    assert PAGE_CHECKS[check]() is True


# ---------------------------------------------------------------- ppo, by hand


@pytest.mark.parametrize(
    ("name", "ratio", "unclipped", "clipped", "objective", "gradient", "binds", "position"),
    [
        # 0.22 / 0.2 = 1.1, inside [0.8, 1.2]: 1.1 x 2 both ways; the gradient is A.
        ("positive-inside", 1.1, 2.2, 2.2, 2.2, 2.0, False, "inside"),
        # 0.3 / 0.2 = 1.5: min(1.5 x 2, 1.2 x 2) = min(3.0, 2.4) = 2.4, the clipped term: gradient 0.
        ("positive-above", 1.5, 3.0, 2.4, 2.4, 0.0, True, "above"),
        # 0.12 / 0.2 = 0.6: min(1.2, 0.8 x 2 = 1.6) = 1.2, the unclipped term: moved the wrong way, pulled back.
        ("positive-below", 0.6, 1.2, 1.6, 1.2, 2.0, False, "below"),
        ("negative-inside", 0.9, -0.9, -0.9, -0.9, -1.0, False, "inside"),  # 0.18 / 0.2
        # 0.6: min(-0.6, 0.8 x -1 = -0.8) = -0.8, the clipped term: gradient 0.
        ("negative-below", 0.6, -0.6, -0.8, -0.8, 0.0, True, "below"),
        # 1.5: min(-1.5, 1.2 x -1 = -1.2) = -1.5, the unclipped term: the gradient still pushes it down.
        ("negative-above", 1.5, -1.5, -1.2, -1.5, -1.0, False, "above"),
    ],
)
def test_ppo_cases_by_hand(
    name: str,
    ratio: float,
    unclipped: float,
    clipped: float,
    objective: float,
    gradient: float,
    binds: bool,
    position: str,
) -> None:
    case = gx.chapter("ppo").cases[name]
    assert case.ratio == pytest.approx(ratio)
    assert (case.unclipped, case.clipped, case.objective) == pytest.approx((unclipped, clipped, objective))
    assert (case.gradient, case.binds, case.position) == (gradient, binds, position)
    assert (case.low, case.high) == pytest.approx((0.8, 1.2))


def test_ppo_cases_are_the_files_in_order() -> None:
    written = data("ppo")["cases"]
    model = gx.chapter("ppo")
    assert list(model.cases) == [case["name"] for case in written]
    for case in written:
        worked = model.cases[case["name"]]
        assert (worked.advantage, worked.p_old, worked.p_new) == (case["advantage"], case["p_old"], case["p_new"])


def test_ppo_plot_by_hand() -> None:
    plot = gx.chapter("ppo").plot
    assert (plot.clip.low, plot.clip.high) == pytest.approx((0.8, 1.2))
    # The corners of both curves are drawn: 1 - eps and 1 + eps are among the ratios, from 0 to ratio_max = 2.
    assert plot.clip.low in plot.ratios and plot.clip.high in plot.ratios
    assert plot.ratios[0] == 0.0 and plot.ratios[-1] == 2.0 and list(plot.ratios) == sorted(plot.ratios)
    positive, negative = plot.curves
    assert (positive.advantage, negative.advantage) == (2.0, -1.0)
    # A = 2 runs flat at 1.2 x 2 = 2.4 above the range; A = -1 at 0.8 x -1 = -0.8 below it.
    assert positive.flat_at == pytest.approx(2.4) and negative.flat_at == pytest.approx(-0.8)
    # rho A over [0, 2]: from 2 x 2 = 4 down to -1 x 2 = -2.
    assert (plot.lowest, plot.highest) == pytest.approx((-2.0, 4.0))


def test_ppo_gae_by_hand() -> None:
    # ppo.toml: rewards [0, 0, 0, 1], V = [0.5, 0.4, 0.7, 0.9, 0], gamma 1, lambda 0.95.
    # delta_t = r_t + V(s_t+1) - V(s_t) = [0.4 - 0.5, 0.7 - 0.4, 0.9 - 0.7, 1 + 0 - 0.9] = [-0.1, 0.3, 0.2, 0.1];
    # A_4 = 0.1, A_3 = 0.2 + 0.95 x 0.1 = 0.295, A_2 = 0.3 + 0.95 x 0.295 = 0.58025,
    # A_1 = -0.1 + 0.95 x 0.58025 = 0.4512375; G_t - V(s_t) = 1 - V = [0.5, 0.6, 0.3, 0.1].
    written = data("ppo")["gae"]
    assert (written["rewards"], written["values"]) == ([0.0, 0.0, 0.0, 1.0], [0.5, 0.4, 0.7, 0.9, 0.0])
    gae = gx.chapter("ppo").gae
    assert (gae.gamma, gae.lam, gae.T, gae.reward, gae.final_value) == (1.0, 0.95, 4, 1.0, 0.0)
    tokens = [gae.tokens[t] for t in (1, 2, 3, 4)]
    assert [token.token for token in tokens] == written["tokens"]
    assert [token.delta for token in tokens] == pytest.approx([-0.1, 0.3, 0.2, 0.1])
    assert [token.advantage for token in tokens] == pytest.approx([0.4512375, 0.58025, 0.295, 0.1])
    assert [token.monte_carlo for token in tokens] == pytest.approx([0.5, 0.6, 0.3, 0.1])
    assert [token.value for token in tokens] == [0.5, 0.4, 0.7, 0.9]
    assert [token.next_value for token in tokens] == [0.4, 0.7, 0.9, 0.0]
    assert [defined(token.next_advantage) for token in tokens[:3]] == pytest.approx([0.58025, 0.295, 0.1])
    assert isinstance(tokens[3].next_advantage, gx.Undefined)


def test_ppo_memory_by_hand() -> None:
    # ZeRO (arXiv:1910.02054, section 3.1): 2 + 2 + 4 + 4 + 4 = 16 bytes per parameter; 7e9 x 16 = 112e9 bytes.
    memory = gx.chapter("ppo").memory
    assert memory.policy_billions == 7 and memory.critic_billions == 7
    assert memory.bytes_per_parameter == 16
    assert memory.part_gb == (14, 14, 28, 28, 28)
    assert (memory.critic_gb, memory.critic_weights_gb) == (112, 14)


# ---------------------------------------------------------------- bandit, by hand

# The checker's rewards, judged by hand from bandit.toml's texts: 1 right in <think> tags (1 + 1), 2 right
# without tags (1 + 0), 3 wrong in tags (0 + 1), 4 wrong without (0 + 0).
BANDIT_REWARDS = [2, 1, 1, 0]


def test_bandit_expected_reward_by_hand() -> None:
    probabilities = [candidate["probability"] for candidate in data("bandit")["candidates"]]
    assert probabilities == [0.3, 0.4, 0.2, 0.1]
    expected = sum(p * r for p, r in zip(probabilities, BANDIT_REWARDS, strict=True))  # 0.6 + 0.4 + 0.2 + 0 = 1.2
    model = gx.chapter("bandit")
    assert model.expected_reward == pytest.approx(expected) == pytest.approx(1.2)
    assert [model.candidates[c].reward for c in (1, 2, 3, 4)] == BANDIT_REWARDS
    assert (model.K, model.G, model.batches, model.seed) == (4, 8, 2000, 0)
    assert model.best.number == 1 and model.max_reward == 2


def test_bandit_gradient_and_variances_by_hand() -> None:
    model = gx.chapter("bandit")
    # grad J = pi (r - J) = (0.3 x 0.8, 0.4 x -0.2, 0.2 x -0.2, 0.1 x -1.2); its squared norm 0.08.
    assert model.gradient == pytest.approx((0.24, -0.08, -0.04, -0.12))
    assert model.gradient_norm_squared == pytest.approx(0.08)
    assert [model.candidates[c].gradient for c in (1, 2, 3, 4)] == pytest.approx([0.24, -0.08, -0.04, -0.12])
    # The best logit's entry of each score: 1[c = 1] - 0.3; it averages to 0.3 x 0.7 - 0.7 x 0.3 = 0.
    assert model.score_column == pytest.approx((0.7, -0.3, -0.3, -0.3))
    assert model.score_mean == pytest.approx(0.0, abs=1e-15)
    # A candidate's own entry: (r - b)(1 - pi): candidate 1, 2 x 0.7 = 1.4 and 0.8 x 0.7 = 0.56.
    assert model.candidates[1].own == pytest.approx({"none": 1.4, "expected": 0.56})
    # Var(0) = 1.14 and Var(J) = 0.228 (worked in tests/math/test_reinforce.py), five times smaller;
    # b* = E[r ||s||^2] / E[||s||^2] = 0.8 / 0.7 = 8/7.
    baselines = model.baselines
    assert baselines["none"].variance == pytest.approx(1.14)
    assert baselines["expected"].b == pytest.approx(1.2) and baselines["expected"].variance == pytest.approx(0.228)
    assert model.optimal_baseline == pytest.approx(8 / 7) == baselines["optimal"].b
    assert (model.quadratic.at_zero, model.quadratic.cross, model.quadratic.square) == pytest.approx((1.14, 0.8, 0.7))
    assert model.reduction == pytest.approx(5.0)
    assert baselines["none"].group_variance == pytest.approx(1.14 / 8)
    for baseline in baselines.values():
        assert baseline.mean == pytest.approx(model.gradient)  # any constant b leaves the mean alone
    curve = model.variance_curve
    assert curve.baselines[0] == 0.0 and curve.baselines[-1] == 2.0 and curve.variances[0] == pytest.approx(1.14)
    assert min(curve.variances) >= baselines["optimal"].variance - 1e-12
    # Var(b) = 1.14 - 2 x 0.8 b + 0.7 b^2 equals Var(0) again at b = 2 x 0.8 / 0.7 = 16/7 = 2 b*: any larger
    # constant baseline raises the variance above no baseline at all.
    assert model.harmful_above == pytest.approx(16 / 7)
    policy, rewards = np.array([0.3, 0.4, 0.2, 0.1]), np.array([2.0, 1.0, 1.0, 0.0])
    assert reinforce.estimator_variance(policy, rewards, 16 / 7) == pytest.approx(1.14)
    assert (
        reinforce.estimator_variance(policy, rewards, 16 / 7 + 0.01)
        > 1.14
        > reinforce.estimator_variance(policy, rewards, 2.28)
    )


def test_bandit_simulation_shapes() -> None:
    model = gx.chapter("bandit")
    assert set(model.simulation) == {"none", "expected", "leave-one-out"}
    for name, simulated in model.simulation.items():
        assert sum(simulated.shares) == pytest.approx(100.0), name  # every group falls in some bin
        assert len(simulated.shares) == len(model.histogram_edges) - 1
        assert simulated.lowest <= simulated.mean_best <= simulated.highest
        assert 0 <= simulated.not_raising <= 100
    assert model.histogram_edges[0] <= model.simulation["none"].lowest
    assert model.histogram_edges[-1] > model.simulation["none"].highest


# ---------------------------------------------------------------- practice, by hand


def test_practice_kl_by_hand() -> None:
    kl_data = data("practice")["kl"]
    pi_theta, pi_ref = kl_data["pi_theta"], kl_data["pi_ref"]
    exact = sum(p * math.log(p / q) for p, q in zip(pi_theta, pi_ref, strict=True))
    kl = gx.chapter("practice").kl
    assert kl.exact == pytest.approx(exact, rel=1e-12)
    assert exact == pytest.approx(0.202716, abs=1e-6)  # 0.8 ln 1.6 + 0.1 ln 0.5 + 0.05 ln 0.25 + 0.05 ln 0.5
    # The worked token "56": r = 0.5 / 0.8 = 0.625.
    worked = kl.worked
    log_r = math.log(0.625)
    assert (worked.token, worked.pi_theta, worked.pi_ref, worked.ratio) == ("56", 0.8, 0.5, pytest.approx(0.625))
    assert (worked.log_ratio, worked.k1, worked.k2, worked.k3) == pytest.approx(
        (log_r, -log_r, log_r**2 / 2, 0.625 - 1 - log_r)
    )
    # k1 < 0 wherever pi_ref > pi_theta: "54" (0.2 > 0.1), "48" (0.2 > 0.05) and "15" (0.1 > 0.05).
    assert kl.negative_count == 3
    assert not isinstance(kl.negative, gx.Undefined) and kl.negative.token == "54"
    assert kl.mean["k1"] == pytest.approx(exact) and kl.mean["k3"] == pytest.approx(exact)
    assert kl.mean["k2"] == pytest.approx(0.172441, abs=1e-6)  # worked in tests/math/test_kl_estimators.py
    for name in ("k1", "k2", "k3"):
        # The average of `samples` tokens strays from its mean by std / sqrt(samples): four of those at most.
        assert abs(kl.monte_carlo[name] - kl.mean[name]) <= 4 * kl.std[name] / math.sqrt(kl.samples), name
    assert (kl.count, kl.samples, kl.context) == (4, 1000, "7 × 8 =")


def test_practice_loss_by_hand() -> None:
    # A right response of 5 tokens and a wrong one of 20: A = +1 and -1 (a group of one 1 and one 0).
    loss = gx.chapter("practice").loss
    assert (loss.G, loss.max_length) == (2, 50)
    assert loss.length == {"correct": 5, "wrong": 20}
    assert loss.advantage == pytest.approx({"correct": 1.0, "wrong": -1.0})
    aggregations = loss.aggregations
    # 1 / (G |o_i|) = 1/10 and 1/40; 1 / (5 + 20) = 0.04; 1 / (G L) = 1/100.
    assert aggregations["per-sequence"].weights == pytest.approx((0.1, 0.025))
    assert aggregations["token-level"].weights == pytest.approx((0.04, 0.04))
    assert aggregations["constant"].weights == pytest.approx((0.01, 0.01))
    assert loss.aggregations["token-level"].whole == pytest.approx({"correct": 0.2, "wrong": -0.8})
    assert loss.per_sequence_ratio == 4  # 0.1 / 0.025


def test_practice_clip_and_dynamic_sampling_by_hand() -> None:
    practice = gx.chapter("practice")
    clip = practice.clip
    # The token of a right answer of the easy group: A = +1/2, rho = 1.25.
    assert clip.symmetric.advantage == 0.5 == float(gx.group("easy").advantage["correct"])
    # Symmetric: min(1.25 x 0.5, 1.2 x 0.5) = min(0.625, 0.6) = 0.6, clipped. Clip-higher: 1.25 < 1.28, 0.625.
    assert (clip.symmetric.value, clip.symmetric.binds) == (pytest.approx(0.6), True)
    assert (clip.higher.value, clip.higher.binds) == (pytest.approx(0.625), False)
    assert clip.symmetric.symmetric and not clip.higher.symmetric
    # DAPO's illustration: 0.01 x 1.2 = 0.012 and 0.01 x 1.28 = 0.0128; 0.9 x 1.2 > 1, so 1.
    assert clip.ceiling == pytest.approx({"symmetric": 0.012, "higher": 0.0128})
    unlikely, likely = clip.ceilings
    assert (unlikely.pi_old, unlikely.symmetric, unlikely.higher) == pytest.approx((0.01, 0.012, 0.0128))
    assert (likely.pi_old, likely.symmetric, likely.higher) == (0.9, 1.0, 1.0)
    # Five groups; only "solved" has rewards all equal.
    assert (practice.dynamic.groups, practice.dynamic.kept) == (5, 4)
    # The upper clip's ceiling pi_old (1 + eps) is below 1 for every pi_old below 1 / (1 + eps):
    # 1 / 1.2 = 0.8333... and 1 / 1.28 = 0.78125.
    assert clip.capped_below == pytest.approx({"symmetric": 1 / 1.2, "higher": 0.78125})
    assert practice.claims.likely_token_uncapped  # 0.9 > 0.8333: pushed all the way to 1


def test_practice_k3_gradient_by_hand() -> None:
    # E_{x ~ p}[(1 - q(x)/p(x)) (onehot(x) - p)] = sum_x (p(x) - q(x)) onehot(x) - p sum_x (p(x) - q(x)) = p - q,
    # since both sum to 1; and grad KL(q || p) = -sum_x q(x) (onehot(x) - p) = p - q too.
    # p - q = (0.8 - 0.5, 0.1 - 0.2, 0.05 - 0.2, 0.05 - 0.1).
    kl = gx.chapter("practice").kl
    assert kl.k3_gradient == pytest.approx((0.3, -0.1, -0.15, -0.05))
    assert kl.kl_ref_theta_gradient == pytest.approx((0.3, -0.1, -0.15, -0.05))
    # grad KL(p || q) = sum_x p(x) ln(p(x)/q(x)) (onehot(x) - p): its first entry, with KL = 0.202716,
    # is 0.8 ln 1.6 - 0.8 x 0.202716 = 0.376003 - 0.162173 = 0.213830.
    assert kl.worked_kl_theta_ref_gradient == pytest.approx(0.213830, abs=1e-6)
    assert kl.worked_k3_gradient == pytest.approx(0.3)
    assert practice_claims().k3_gradient_is_kl_ref_theta and practice_claims().k3_gradient_is_not_kl_theta_ref


def practice_claims() -> gx.PracticeClaims:
    claims: gx.PracticeClaims = gx.chapter("practice").claims
    return claims


def _f32(x: float) -> float:
    """x rounded to float32, by the struct module: an oracle that shares nothing with numpy."""
    return float(struct.unpack("f", struct.pack("f", x))[0])


def _float32_advantage_by_hand(reward: float, g: int, eps: float) -> float:
    """Every operation of (r - mu) / (sample std + eps) rounded to float32 in turn, the sums in order."""
    r = _f32(reward)
    total = 0.0
    for _ in range(g):
        total = _f32(total + r)
    mu = _f32(total / g)
    d = _f32(r - mu)
    square_sum = 0.0
    for _ in range(g):
        square_sum = _f32(square_sum + _f32(d * d))
    std = _f32(math.sqrt(_f32(square_sum / (g - 1))))
    return _f32(d / _f32(std + _f32(eps)))


def test_practice_roundoff_of_equal_rewards_in_float32() -> None:
    roundoff = gx.chapter("practice").roundoff
    assert (roundoff.reward, roundoff.G) == (0.7, 9)
    assert roundoff.exact_advantage == 0.0
    # verl's convention (eps 1e-6) and TRL's (eps 1e-4); verl's own function, run on nine 0.7s at b178a3c, gave
    # 0.056 to every response (huggingface/trl and volcengine/verl code read for the corrections of issue 17).
    assert roundoff.advantage["verl"] == pytest.approx(_float32_advantage_by_hand(0.7, 9, 1e-6), rel=1e-6)
    assert roundoff.advantage["trl"] == pytest.approx(_float32_advantage_by_hand(0.7, 9, 1e-4), rel=1e-6)
    assert round(roundoff.advantage["verl"], 3) == 0.056
    assert roundoff.advantage["trl"] == pytest.approx(6.0e-4, rel=0.01)
    assert roundoff.mean != _f32(0.7) and roundoff.deviation != 0
    assert practice_claims().roundoff_is_left_over


@pytest.mark.parametrize("reward", [0.0, 1.0, 0.5, 2.0])
def test_equal_rewards_that_float32_holds_leave_no_roundoff(reward: float) -> None:
    from grpo_examples.float32 import float32_advantages

    assert float32_advantages([reward] * 9, 1, 1e-6).tolist() == [0.0] * 9
    assert _float32_advantage_by_hand(reward, 9, 1e-6) == 0.0


# ---------------------------------------------------------------- run: the loader's bounds, and numbers by hand


@pytest.mark.parametrize(
    ("line", "broken", "problem"),
    [
        ("steps = 60", "steps = 0", "steps: 0 is outside the range the book allows, 1 to 1000"),
        ("steps = 60", "steps = 1001", "steps: 1001 is outside the range the book allows, 1 to 1000"),
        ("group_size = 8", "group_size = 1", "group_size: 1 is outside the range the book allows, 2 to 64"),
        ("group_size = 8", "group_size = 65", "group_size: 65 is outside the range the book allows, 2 to 64"),
        (
            "learning_rate = 2.0",
            "learning_rate = -1.0",
            "learning_rate: -1.0 is outside the range the book allows, 0 to 100",
        ),
        (
            "critic_learning_rate = 0.2",
            "critic_learning_rate = 101",
            "critic_learning_rate: 101 is outside the range the book allows, 0 to 100",
        ),
        ("prior_scale = 1.0", "prior_scale = 10.5", "prior_scale: 10.5 is outside the range the book allows, 0 to 10"),
        ("steps = 60", "steps = 60.0", "steps: expected a whole number, got 60.0"),
    ],
)
def test_run_toml_bounds_are_enforced_by_the_loader(tmp_path: Path, line: str, broken: str, problem: str) -> None:
    text = (DATA / "run.toml").read_text(encoding="utf-8")
    assert line in text
    path = tmp_path / "run.toml"
    path.write_text(text.replace(line, broken, 1), encoding="utf-8")
    with pytest.raises(DataError) as caught:
        load(path, run.Settings)
    assert caught.value.problems == [problem]


def test_run_toml_ends_of_the_ranges_are_allowed(tmp_path: Path) -> None:
    text = (DATA / "run.toml").read_text(encoding="utf-8")
    for old, new in [
        ("steps = 60", "steps = 1000"),
        ("group_size = 8", "group_size = 64"),
        ("prior_scale = 1.0", "prior_scale = 0"),
    ]:
        text = text.replace(old, new, 1)
    path = tmp_path / "run.toml"
    path.write_text(text, encoding="utf-8")
    settings = load(path, run.Settings)
    assert (settings.steps, settings.group_size, settings.prior_scale) == (1000, 64, 0.0)


def test_run_by_hand() -> None:
    written = data("run")
    model = gx.chapter("run")
    assert (model.seed, model.steps, model.G, model.threshold) == (
        written["seed"],
        written["steps"],
        written["group_size"],
        written["threshold"],
    )
    # The toy task: 12 multiplication questions, 8 candidates each, a right answer with reasoning earning 2.
    assert (model.questions, model.candidates, model.max_reward) == (12, 8, 2.0)
    assert model.advantages_per_method == 60 * 12 * 8
    assert (model.sweep_seeds, model.sweep_last_seed) == (20, 19)
    assert set(model.methods) == {"grpo", "critic", "reinforce"}
    # Every method starts from the same policy, so from the same mean reward.
    assert {method.start_reward for method in model.methods.values()} == {model.start_reward}
    for method in model.methods.values():
        assert method.mean_reward[0] == model.start_reward and method.final_reward == method.mean_reward[-1]
        assert len(method.mean_reward) == model.steps + 1
        step = method.steps_to_threshold
        assert not isinstance(step, gx.Undefined), method.key
        assert method.mean_reward[step] >= model.threshold > max(method.mean_reward[:step])
        assert sum(method.histogram) == pytest.approx(100.0)


def test_run_late_plateau_of_all_equal_groups() -> None:
    model = gx.chapter("run")
    grpo = model.methods["grpo"]
    assert model.late_steps == 10
    # all_equal_share holds one percentage per step: the plateau is the mean of the last ten, rounded.
    late = grpo.all_equal_share[-model.late_steps :]
    assert grpo.all_equal_late_percent == round(sum(late) / len(late))
    # The last step is a dip below the plateau (the sentence the chapter had to correct): 9 of 12 is 75 %.
    assert (grpo.all_equal_last, grpo.all_equal_last_percent) == (9, 75)
    assert grpo.all_equal_late_percent > grpo.all_equal_last_percent


def test_run_first_question_by_hand() -> None:
    model = gx.chapter("run")
    toy = model.toy_question
    # "What is 7 × 8?": 56 boxed with reasoning (2); 'Answer: 56.' (1); reasoning around an unreadable or wrong
    # answer (1, 1, 1); the rest (0, 0, 0). As in tests/math/test_training.py.
    assert (toy.question, toy.answer) == ("What is 7 × 8?", "56")
    assert [c.reward for c in toy.candidates] == [2.0, 1.0, 1.0, 1.0, 1.0, 0.0, 0.0, 0.0]
    assert sum(c.probability for c in toy.candidates) == pytest.approx(1.0)
    assert toy.start_expected_reward == pytest.approx(sum(c.probability * c.reward for c in toy.candidates))
    assert toy.right_with_reasoning == toy.candidates[0].probability


def test_run_first_step_by_hand() -> None:
    model = gx.chapter("run")
    first = model.first_step
    rewards = [sample.reward for sample in first.samples]
    by_number = {c.number: c.reward for c in model.toy_question.candidates}
    assert [sample.i for sample in first.samples] == list(range(1, first.G + 1))
    assert rewards == [by_number[sample.candidate] for sample in first.samples]
    # GRPO: (r - mean) / population std, computed here with the statistics module; REINFORCE: the reward itself.
    mean, sigma = statistics.fmean(rewards), statistics.pstdev(rewards)
    assert float(first.working.mean) == pytest.approx(mean)
    for sample in first.samples:
        grpo = 0.0 if sigma == 0 else (sample.reward - mean) / sigma
        assert sample.advantage["grpo"] == pytest.approx(grpo, abs=1e-12)
        assert sample.advantage["reinforce"] == sample.reward
    # An update moves each logit by eta x (1/G) sum_i A_i (1[o_i = c] - pi(c)) for every method. For GRPO, whose
    # advantages sum to 0, a candidate nobody drew does not move: exactly 0, which the page prints as 0.0 (a sum
    # of the rounded A_i leaves about 1e-17, which it would print as ≈ −1.39 × 10⁻¹⁷, under a sentence that says
    # the logit stays exactly where it was).
    drawn = {sample.candidate for sample in first.samples}
    assert drawn != {change.candidate for change in first.changes}  # some candidate was not drawn
    for change in first.changes:
        for method in ("grpo", "critic", "reinforce"):
            expected = (
                first.learning_rate
                * sum(
                    s.advantage[method] * ((s.candidate == change.candidate) - change.probability)
                    for s in first.samples
                )
                / first.G
            )
            assert change.delta[method] == pytest.approx(expected, abs=1e-12)
        if change.candidate not in drawn:
            assert change.delta["grpo"] == 0.0
            assert change.delta["reinforce"] < 0  # rewards as advantages pull every undrawn candidate down


# ---------------------------------------------------------------- verifier, by hand


def test_verifier_spellings_by_hand() -> None:
    model = gx.chapter("verifier")
    assert [s.written for s in model.spellings] == data("verifier")["spellings"]
    assert {s.written: s.normalised for s in model.spellings} == {
        "56": "56",
        "$56$.": "56",  # delimiters and the trailing period peeled off
        "**56**": "56",
        "1,000": "1000",  # a thousands separator
        "1\\,000": "1000",  # TeX's thin space as one
        "1,2": "1,2",  # not groups of three: left alone, not read as twelve
        "0.5": "1/2",
        "6/12": "1/2",
        "\\frac{1}{2}": "1/2",
        "x = 5": "5",
        "\\text{No}": "no",
        "\\(56\\)": "56",  # TeX's other math delimiters peeled off
        "{42}": "42",  # a brace group around the whole answer
        "1{,}000": "1000",  # TeX's thousands separator
        "\\tfrac12": "1/2",  # \frac without braces, as TeX reads it
        "50\\%": "50%",  # a percent sign stays, in either spelling
        "2 1/2": "2 1/2",  # a whole number beside a fraction: kept as text, not twenty-one halves
        "10^3": "10^3",  # a power is not read: a false negative the chapter shows
    }
