"""The policy-gradient chapter's namespace: `<!-- grpo:value bandit.variance.none -->`, formulas, claims.

Each value picks a number out of what grpo_examples computed on grpo_examples/bandit.toml; each formula
writes its general form once and then the numbers that fill it. The formatting is numbers.py's.

Baselines are named as in grpo_examples.bandit_simulation: `none` (b = 0), `expected` (b = J, the exact
expected reward), `optimal` (b*, the constant of least variance) and, in the simulation only,
`leave-one-out`. Candidates are numbered from 1, as the page numbers them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from grpo_examples import reinforce
from grpo_examples.bandit import Bandit, load_bandit
from grpo_examples.bandit_simulation import BASELINES as SIMULATED_BASELINES
from grpo_examples.bandit_simulation import Simulation, simulate
from hooks.namespaces import Namespace
from hooks.numbers import Decimal, decimal
from hooks.quantities import Quantity, QuantityError

ARGS = "bandit.policy, bandit.rewards"  # every source names the settings as bandit = load_bandit()
SIMULATION = "grpo_examples.bandit_simulation.simulate(bandit)"
EXACT_BASELINES = ("none", "expected", "optimal")
BASELINE_CALLS = {"none": "0", "expected": f"expected_reward({ARGS})", "optimal": f"optimal_baseline({ARGS})"}
# Names exist for candidates 1..MAX_CANDIDATES; the settings file decides how many there are.
MAX_CANDIDATES = 8


def current_bandit() -> Bandit:
    """The bandit in grpo_examples/bandit.toml, read afresh (a rebuild under `mkdocs serve` sees edits)."""
    return load_bandit()


def current_simulation() -> Simulation:
    """The seeded simulation on the current settings (cached on them by grpo_examples)."""
    return simulate(current_bandit())


def baseline_value(name: str) -> float:
    """The constant b that a baseline's name stands for, on the current bandit."""
    bandit = current_bandit()
    if name == "none":
        return 0.0
    if name == "expected":
        return reinforce.expected_reward(bandit.policy, bandit.rewards)
    if name == "optimal":
        return reinforce.optimal_baseline(bandit.policy, bandit.rewards)
    raise ValueError(f"no constant baseline is called {name!r} (known: {', '.join(EXACT_BASELINES)})")


def _exact(call: str, value: Callable[[Bandit], float]) -> Callable[[], Quantity]:
    return lambda: Quantity(value(current_bandit()), f"grpo_examples.reinforce.{call}")


def _setting(key: str, value: Callable[[Bandit], int | str]) -> Callable[[], Quantity]:
    return lambda: Quantity(value(current_bandit()), f"grpo_examples/bandit.toml: {key}")


def _per_baseline(name: str) -> dict[str, Callable[[], Quantity]]:
    call = BASELINE_CALLS[name]
    return {
        f"variance.{name}": _exact(
            f"estimator_variance({ARGS}, {call})",
            lambda b: reinforce.estimator_variance(b.policy, b.rewards, baseline_value(name)),
        ),
        f"group-variance.{name}": _exact(
            f"group_variance({ARGS}, {call}, bandit.group_size)",
            lambda b: reinforce.group_variance(b.policy, b.rewards, baseline_value(name), b.group_size),
        ),
    }


def _simulated(name: str) -> dict[str, Callable[[], Quantity]]:
    return {
        f"simulated.mean.{name}": lambda: Quantity(
            float(current_simulation().mean(name)[current_bandit().best]),
            f"{SIMULATION}.mean({name!r})[bandit.best]",
            signed=True,
        ),
        f"simulated.variance.{name}": lambda: Quantity(
            current_simulation().variance(name), f"{SIMULATION}.variance({name!r})"
        ),
        f"not-raising.{name}": lambda: Quantity(
            round(100 * current_simulation().share_not_raising(name, current_bandit().best)),
            f"{SIMULATION}.share_not_raising({name!r}, bandit.best), as a whole percent",
        ),
    }


def _whole(reward: float) -> int | float:
    """A reward as the checker gives it, 0, 1 or 2, shown as the whole number it is."""
    return int(reward) if reward.is_integer() else reward


def _numbered(number: int) -> Callable[[Bandit], int]:
    """The index (0-based) of candidate `number` (1-based, as the page numbers them), if the bandit has it."""

    def index(bandit: Bandit) -> int:
        if number > len(bandit.texts):
            raise QuantityError(
                f"the bandit has {len(bandit.texts)} candidates, there is no candidate {number} "
                "(grpo_examples/bandit.toml)"
            )
        return number - 1

    return index


def _per_candidate(label: str, index_of: Callable[[Bandit], int]) -> dict[str, Callable[[], Quantity]]:
    """The values of one candidate, named `<value>.<label>`: its number on the page, or `best`."""

    def quantity(
        value: Callable[[Bandit, int], float | int], call: str, signed: bool = False
    ) -> Callable[[], Quantity]:
        def make() -> Quantity:
            bandit = current_bandit()
            index = index_of(bandit)
            return Quantity(value(bandit, index), call.replace("{c}", str(index)), signed=signed)

        return make

    def own_entry(name: str) -> Callable[[], Quantity]:
        """The entry of that candidate's one-sample estimate for its own logit: how hard it pushes itself."""
        return quantity(
            lambda b, c: float(reinforce.estimates(b.policy, b.rewards, baseline_value(name))[c, c]),
            f"grpo_examples.reinforce.estimates({ARGS}, {BASELINE_CALLS[name]})[{{c}}, {{c}}]",
            signed=True,
        )

    return {
        f"probability.{label}": quantity(lambda b, c: b.probabilities[c], "bandit.probabilities[{c}]"),
        f"reward.{label}": quantity(
            lambda b, c: _whole(float(b.rewards[c])), "bandit.rewards[{c}]: accuracy + format, by the checker"
        ),
        f"gradient.{label}": quantity(
            lambda b, c: float(reinforce.true_gradient(b.policy, b.rewards)[c]),
            f"grpo_examples.reinforce.true_gradient({ARGS})[{{c}}]",
            signed=True,
        ),
        f"own.none.{label}": own_entry("none"),
        f"own.expected.{label}": own_entry("expected"),
    }


VALUES: dict[str, Callable[[], Quantity]] = {
    "question": _setting("question", lambda b: b.question),
    "answer": _setting("answer", lambda b: b.reference),
    "seed": _setting("seed", lambda b: b.seed),
    "G": _setting("group_size", lambda b: b.group_size),
    "batches": _setting("batches", lambda b: b.batches),
    "candidates": lambda: Quantity(len(current_bandit().texts), "len(bandit.texts)"),
    "best": lambda: Quantity(current_bandit().best + 1, "bandit.best + 1 (numbered from 1)"),
    "max-reward": lambda: Quantity(_whole(float(current_bandit().rewards.max())), "bandit.rewards.max()"),
    "expected-reward": _exact(f"expected_reward({ARGS})", lambda b: reinforce.expected_reward(b.policy, b.rewards)),
    "signal": _exact(f"gradient_squared_norm({ARGS})", lambda b: reinforce.gradient_squared_norm(b.policy, b.rewards)),
    "optimal-baseline": _exact(f"optimal_baseline({ARGS})", lambda b: reinforce.optimal_baseline(b.policy, b.rewards)),
    "reduction": _exact(
        f"variance_reduction({ARGS}, expected_reward({ARGS}))",
        lambda b: reinforce.variance_reduction(b.policy, b.rewards, reinforce.expected_reward(b.policy, b.rewards)),
    ),
}
for _name in EXACT_BASELINES:
    VALUES.update(_per_baseline(_name))
for _name in SIMULATED_BASELINES:
    VALUES.update(_simulated(_name))
VALUES.update(_per_candidate("best", lambda bandit: bandit.best))
for _number in range(1, MAX_CANDIDATES + 1):
    VALUES.update(_per_candidate(str(_number), _numbered(_number)))


# ---- Formulas: the general form once, then the numbers that fill it ('\approx' after a rounded one).


def _relation(*shown: Decimal) -> str:
    return "=" if all(number.exact for number in shown) else r"\approx"


def _term(value: float) -> str:
    """A number inside a sum or a product: a negative one in parentheses."""
    shown = decimal(value)
    return f"({shown.tex()})" if shown.negative else shown.tex()


def _reward(value: float) -> str:
    """A reward as the checker gives it (0, 1 or 2): written as the whole number it is."""
    return f"{value:g}"


def _weighted_sum(
    weights: Sequence[float], values: Sequence[float], result: float, write: Callable[[float], str] | None = None
) -> str:
    """'0.3 \\times 2 + 0.4 \\times 1 + ... = 1.2': each weight times its value, and the sum they make."""
    write = write or _term
    terms = " + ".join(f"{_term(w)} \\times {write(v)}" for w, v in zip(weights, values, strict=True))
    shown = decimal(result)
    return f"{terms} {_relation(*(decimal(x) for x in (*weights, *values)), shown)} {shown.tex()}"


def _two_lines(left: str, general: str, filled: str, relation: str = "=", centred: bool = False) -> str:
    """The general form on one line, the numbers that fill it on the next: short enough for a page column.

    Aligned on the '=' by default; centred when the left side is too wide to leave room for the numbers.
    """
    if centred:
        return rf"\begin{{gathered}}{left} = {general} \\ {{}}{relation} {filled}\end{{gathered}}"
    return rf"\begin{{aligned}}{left} &= {general} \\ &{relation} {filled}\end{{aligned}}"


def expected_reward_tex() -> str:
    """J(theta) = sum_c pi(c) r(c) = 0.3 x 2 + ... = 1.2."""
    bandit = current_bandit()
    filled = _weighted_sum(
        bandit.probabilities,
        bandit.rewards.tolist(),
        reinforce.expected_reward(bandit.policy, bandit.rewards),
        write=_reward,
    )
    return _two_lines(r"J(\theta)", r"\sum_c \pi_\theta(c \mid q)\, r(c)", filled)


def gradient_tex() -> str:
    """Each entry of grad J, pi(c) (r(c) - J), on a line of its own."""
    bandit = current_bandit()
    policy, rewards = bandit.policy, bandit.rewards
    expected = decimal(reinforce.expected_reward(policy, rewards))
    lines = []
    for c, (p, r, g) in enumerate(zip(policy, rewards, reinforce.true_gradient(policy, rewards), strict=True), 1):
        shown = decimal(float(g))
        relation = _relation(decimal(float(p)), decimal(float(r)), expected, shown)
        lines.append(
            rf"\frac{{\partial J}}{{\partial \theta_{c}}} &= \pi_\theta({c} \mid q)\,\big(r({c}) - J\big) "
            rf"= {_term(float(p))} \times ({_reward(float(r))} - {expected.tex()}) {relation} {shown.tex(signed=True)}"
        )
    return r"\begin{aligned}" + r" \\[10pt] ".join(lines) + r"\end{aligned}"


def score_mean_tex() -> str:
    """E[d log pi(c) / d theta_best] = sum_c pi(c) (1[c = best] - pi(best)) = 0, for the best candidate's logit."""
    bandit = current_bandit()
    column = reinforce.score(bandit.policy)[:, bandit.best]
    filled = _weighted_sum(bandit.probabilities, column.tolist(), float(bandit.policy @ column))
    best = bandit.best + 1
    left = rf"\mathbb{{E}}_c\big[\partial \log \pi_\theta(c \mid q) / \partial \theta_{best}\big]"
    general = rf"\sum_c \pi_\theta(c \mid q)\,\big(\mathbf{{1}}[c = {best}] - \pi_\theta({best} \mid q)\big)"
    return _two_lines(left, general, filled, centred=True)


VARIANCE_ARGUMENT = {"none": "0", "expected": "J"}  # the baseline as the left side names it: Var(0), Var(J)


def variance_tex(name: str) -> Callable[[], str]:
    """Var = sum_c pi(c) ||g_b(c) - grad J||^2 = 0.3 x 2.0 + ... = 1.14, for one named baseline."""

    def tex() -> str:
        bandit = current_bandit()
        b = baseline_value(name)
        misses = reinforce.squared_misses(bandit.policy, bandit.rewards, b).tolist()
        filled = _weighted_sum(
            bandit.probabilities, misses, reinforce.estimator_variance(bandit.policy, bandit.rewards, b)
        )
        return _two_lines(
            rf"\operatorname{{Var}}({VARIANCE_ARGUMENT[name]})",
            r"\sum_c \pi_\theta(c \mid q)\,\big\lVert \hat{g}(c) - \nabla_\theta J \big\rVert^2",
            filled,
        )

    return tex


def quadratic_tex() -> str:
    """Var(b) = Var(0) - 2 b E[r ||s||^2] + b^2 E[||s||^2], with the bandit's three numbers."""
    bandit = current_bandit()
    policy, rewards = bandit.policy, bandit.rewards
    at_zero = decimal(reinforce.estimator_variance(policy, rewards, 0.0))
    cross = decimal(reinforce.reward_score_weight(policy, rewards))
    square = decimal(reinforce.score_weight(policy))
    general = (
        r"\operatorname{Var}(0) - 2b\,\mathbb{E}\big[r \lVert \nabla_\theta \log \pi_\theta \rVert^2\big] "
        r"+ b^2\,\mathbb{E}\big[\lVert \nabla_\theta \log \pi_\theta \rVert^2\big]"
    )
    filled = f"{at_zero.tex()} - 2 \\times {cross.tex()}\\, b + {square.tex()}\\, b^2"
    return _two_lines(r"\operatorname{Var}(b)", general, filled, _relation(at_zero, cross, square))


def optimal_baseline_tex() -> str:
    """b* = E[r ||s||^2] / E[||s||^2] = 0.8 / 0.7 = 1.1429."""
    bandit = current_bandit()
    policy, rewards = bandit.policy, bandit.rewards
    cross = decimal(reinforce.reward_score_weight(policy, rewards))
    square = decimal(reinforce.score_weight(policy))
    best = decimal(reinforce.optimal_baseline(policy, rewards))
    return (
        r"b^* = \frac{\mathbb{E}\big[r \lVert \nabla_\theta \log \pi_\theta \rVert^2\big]}"
        r"{\mathbb{E}\big[\lVert \nabla_\theta \log \pi_\theta \rVert^2\big]} "
        rf"{_relation(cross, square)} \frac{{{cross.tex()}}}{{{square.tex()}}} {best.relation} {best.tex()}"
    )


FORMULAS: dict[str, Callable[[], str]] = {
    "expected-reward": expected_reward_tex,
    "gradient": gradient_tex,
    "score-mean": score_mean_tex,
    "variance.none": variance_tex("none"),
    "variance.expected": variance_tex("expected"),
    "variance.quadratic": quadratic_tex,
    "optimal-baseline": optimal_baseline_tex,
}


# ---- Claims the prose makes about the bandit: `<!-- grpo:check bandit <claim> -->` prints nothing,
# and fails the build if the numbers say otherwise.

SIMULATION_TOLERANCE = 0.1  # "the simulation agrees": each simulated variance within 10 % of the exact one


def _variances() -> dict[str, float]:
    bandit = current_bandit()
    return {
        name: reinforce.estimator_variance(bandit.policy, bandit.rewards, baseline_value(name))
        for name in EXACT_BASELINES
    }


def _expected_gets_most() -> bool:
    """b = J achieves at least nine tenths of the reduction that the best constant baseline achieves."""
    v = _variances()
    return v["none"] - v["expected"] >= 0.9 * (v["none"] - v["optimal"])


def _simulation_agrees() -> bool:
    """The simulated variance of a group's estimate is within SIMULATION_TOLERANCE of Var(b) / G."""
    bandit, simulation = current_bandit(), current_simulation()
    for name in ("none", "expected"):
        exact = reinforce.group_variance(bandit.policy, bandit.rewards, baseline_value(name), bandit.group_size)
        if abs(simulation.variance(name) - exact) > SIMULATION_TOLERANCE * exact:
            return False
    return True


def _below_average(index: int) -> Callable[[], bool]:
    """Candidate `index` earns less than the expected reward, r(c) < J: the true gradient lowers its logit."""

    def claim() -> bool:
        bandit = current_bandit()
        if index >= len(bandit.texts):
            return False
        return float(bandit.rewards[index]) < reinforce.expected_reward(bandit.policy, bandit.rewards)

    return claim


def _earns_something(index: int) -> Callable[[], bool]:
    """Candidate `index` earns a positive reward: REINFORCE without a baseline raises its logit when it is drawn."""

    def claim() -> bool:
        bandit = current_bandit()
        return index < len(bandit.texts) and float(bandit.rewards[index]) > 0

    return claim


def _only_best_above_average() -> bool:
    """The true gradient raises the best candidate's logit and lowers every other one."""
    bandit = current_bandit()
    gradient = reinforce.true_gradient(bandit.policy, bandit.rewards)
    return bool(gradient[bandit.best] > 0 and (np.delete(gradient, bandit.best) < 0).all())


def _leave_one_out_close_to_expected() -> bool:
    """The simulated leave-one-out variance lies between b = J's and no baseline's, nearer to b = J's."""
    v = {name: current_simulation().variance(name) for name in SIMULATED_BASELINES}
    return v["expected"] < v["leave-one-out"] < v["none"] and (
        v["leave-one-out"] - v["expected"] < v["none"] - v["leave-one-out"]
    )


def _not_raising(name: str) -> float:
    return current_simulation().share_not_raising(name, current_bandit().best)


CLAIMS: dict[str, Callable[[], bool]] = {
    "baseline-reduces-variance": lambda: _variances()["expected"] < _variances()["none"],
    "expected-gets-most-of-the-reduction": _expected_gets_most,
    "only-best-above-average": _only_best_above_average,
    "best-is-unique": lambda: int((current_bandit().rewards == current_bandit().rewards.max()).sum()) == 1,
    "simulation-agrees": _simulation_agrees,
    "baseline-raises-best-more-often": lambda: _not_raising("expected") < _not_raising("none"),
    "leave-one-out-close-to-expected": _leave_one_out_close_to_expected,
}
for _index in range(MAX_CANDIDATES):
    CLAIMS[f"below-average.{_index + 1}"] = _below_average(_index)
    CLAIMS[f"earns-something.{_index + 1}"] = _earns_something(_index)

BANDIT = Namespace("bandit", "the bandit", "hooks/bandit_values.py", VALUES, formulas=FORMULAS, claims=CLAIMS)
