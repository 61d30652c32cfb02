"""The PPO chapter's namespace: `<!-- grpo:value ppo.case.positive-above.objective -->`, its formulas and claims.

Every value picks a number out of what grpo_examples computed on grpo_examples/ppo_examples.toml; the
formatting is numbers.py's. Cases are named in that file; GAE's tokens are numbered from 1, as the page
writes them.
"""

from __future__ import annotations

from collections.abc import Callable

import grpo_examples as gx
from grpo_examples.ppo_examples import PPOExamples, WorkedClip, WorkedGae
from hooks.clip_widget import clip_widget
from hooks.formulas import FormulaError
from hooks.namespaces import Namespace
from hooks.numbers import Decimal, billions, decimal, gigabytes
from hooks.quantities import Quantity, QuantityError

SETTINGS = "grpo_examples/ppo_examples.toml"


def settings() -> PPOExamples:
    return gx.load_ppo_examples()


def worked_case(name: str) -> WorkedClip:
    chapter = settings()
    try:
        case = chapter.case(name)
    except KeyError as error:
        raise QuantityError(str(error.args[0])) from None
    return gx.work_clip_case(case, chapter.epsilon)


def case_call(name: str) -> str:
    return f"grpo_examples.work_clip_case(load_ppo_examples().case({name!r}), epsilon={settings().epsilon:g})"


def worked_gae() -> WorkedGae:
    return gx.work_gae(settings().gae)


GAE_CALL = "grpo_examples.work_gae(load_ppo_examples().gae)"


def _relation(*shown: Decimal) -> str:
    return "=" if all(number.exact for number in shown) else r"\approx"


def _tex(value: float) -> str:
    """A number in a formula: (-1.0) in parentheses when negative, so that '× (-1.0)' reads right."""
    shown = decimal(value).tex()
    return f"({shown})" if shown.startswith("-") else shown


# ---------------------------------------------------------------- the clip, case by case

CASE_FIELDS = ("advantage", "ratio", "unclipped", "clipped", "objective", "gradient")


def _case_values(name: str) -> dict[str, Callable[[], Quantity]]:
    def field(attribute: str, signed: bool) -> Callable[[], Quantity]:
        return lambda: Quantity(getattr(worked_case(name), attribute), f"{case_call(name)}.{attribute}", signed=signed)

    values = {f"case.{name}.{f}": field(f, signed=f in {"advantage", "gradient"}) for f in CASE_FIELDS}
    values[f"case.{name}.p-old"] = lambda: Quantity(worked_case(name).case.p_old, f"{SETTINGS}: p_old of {name}")
    values[f"case.{name}.p-new"] = lambda: Quantity(worked_case(name).case.p_new, f"{SETTINGS}: p_new of {name}")
    return values


def ratio_tex(case: WorkedClip) -> str:
    """rho = pi_theta / pi_theta_old = p_new / p_old = rho."""
    new, old, ratio = decimal(case.case.p_new), decimal(case.case.p_old), decimal(case.ratio)
    return (
        r"\rho = \frac{\pi_\theta(o_t)}{\pi_{\theta_{\text{old}}}(o_t)} "
        rf"{_relation(new, old)} \frac{{{new.tex()}}}{{{old.tex()}}} {ratio.relation} {ratio.tex()}"
    )


def clip_tex(case: WorkedClip) -> str:
    """L = min(rho A, clip(rho, 1 - eps, 1 + eps) A) = min(1.5 x 2.0, clip(1.5, 0.8, 1.2) x 2.0) = min(3.0, 2.4),
    one step per line (a displayed formula: on a phone the three steps would not fit on one)."""
    low, high = (decimal(end) for end in gx.clip_range(case.epsilon))
    ratio, advantage = decimal(case.ratio), decimal(case.case.advantage)
    unclipped, clipped, objective = decimal(case.unclipped), decimal(case.clipped), decimal(case.objective)
    a = _tex(case.case.advantage)
    return (
        r"\begin{aligned} L^{\text{CLIP}} "
        r"&= \min\bigl(\rho A,\ \operatorname{clip}(\rho, 1-\epsilon, 1+\epsilon)\, A\bigr) "
        rf"\\ &{_relation(ratio, advantage, low, high)} \min\bigl({ratio.tex()} \times {a},\ "
        rf"\operatorname{{clip}}({ratio.tex()}, {low.tex()}, {high.tex()}) \times {a}\bigr) "
        rf"\\ &{_relation(unclipped, clipped)} \min({unclipped.tex()},\ {clipped.tex()}) "
        rf"{objective.relation} {objective.tex()} \end{{aligned}}"
    )


def gradient_tex(case: WorkedClip) -> str:
    """dL/drho = 0 where the clip binds (and why), else = A = its value."""
    low, high = (decimal(end).tex() for end in gx.clip_range(case.epsilon))
    ratio = decimal(case.ratio)
    head = r"\frac{\partial L^{\text{CLIP}}}{\partial \rho}"
    if case.binds:
        side = rf"{ratio.tex()} > 1+\epsilon = {high}" if case.ratio > 1 else rf"{ratio.tex()} < 1-\epsilon = {low}"
        sign = "A > 0" if case.case.advantage > 0 else "A < 0"
        why = rf"(\rho {ratio.relation} {side},\ {sign}\text{{: the clip binds}})"
        return rf"\begin{{gathered}} {head} = 0 \\ {why} \end{{gathered}}"
    gradient = decimal(case.gradient)
    return rf"{head} = A {gradient.relation} {gradient.tex(signed=True)}"


def _case_formulas(name: str) -> dict[str, Callable[[], str]]:
    def formula(builder: Callable[[WorkedClip], str]) -> Callable[[], str]:
        def tex() -> str:
            try:
                return builder(worked_case(name))
            except QuantityError as error:
                raise FormulaError(str(error)) from None

        return tex

    return {
        f"ratio.{name}": formula(ratio_tex),
        f"clip.{name}": formula(clip_tex),
        f"gradient.{name}": formula(gradient_tex),
    }


def _case_claims(name: str) -> dict[str, Callable[[], bool]]:
    return {
        f"binds.{name}": lambda: worked_case(name).binds,
        f"free.{name}": lambda: not worked_case(name).binds,
        f"inside.{name}": lambda: worked_case(name).position == "inside",
        f"above.{name}": lambda: worked_case(name).position == "above",
        f"below.{name}": lambda: worked_case(name).position == "below",
        f"unclipped-kept.{name}": lambda: (
            worked_case(name).position != "inside" and worked_case(name).objective == worked_case(name).unclipped
        ),
    }


# ---------------------------------------------------------------- GAE, token by token


def _token(t: int) -> int:
    """The 0-based index of the page's token t (numbered from 1), or QuantityError if there is none."""
    tokens = len(settings().gae.tokens)
    if not 1 <= t <= tokens:
        raise QuantityError(f"the GAE response has tokens 1 to {tokens}, not {t} ({SETTINGS})")
    return t - 1


def delta_tex(t: int) -> str:
    """delta_t = r_t + gamma V(s_{t+1}) - V(s_t) = ... = delta."""
    worked = worked_gae()
    example, i = worked.example, _token(t)
    reward, gamma = decimal(example.rewards[i]), decimal(example.gamma)
    following, current, delta = decimal(example.values[i + 1]), decimal(example.values[i]), decimal(worked.deltas[i])
    return (
        rf"\delta_{{{t}}} = r_{{{t}}} + \gamma V(s_{{{t + 1}}}) - V(s_{{{t}}}) "
        rf"{_relation(reward, gamma, following, current)} "
        rf"{reward.tex()} + {gamma.tex()} \times {following.tex()} - {current.tex()} {delta.relation} {delta.tex()}"
    )


def advantage_tex(t: int) -> str:
    """A_t = delta_t + gamma lambda A_{t+1} = ... (the last token: A_T = delta_T)."""
    worked = worked_gae()
    example, i = worked.example, _token(t)
    delta, advantage = decimal(worked.deltas[i]), decimal(worked.advantages[i])
    if i == len(example.tokens) - 1:
        return rf"\hat{{A}}_{{{t}}} = \delta_{{{t}}} {advantage.relation} {advantage.tex()}"
    gamma, lam, following = decimal(example.gamma), decimal(example.lam), decimal(worked.advantages[i + 1])
    return (
        rf"\hat{{A}}_{{{t}}} = \delta_{{{t}}} + \gamma\lambda\, \hat{{A}}_{{{t + 1}}} "
        rf"{_relation(delta, gamma, lam, following)} "
        rf"{_tex(worked.deltas[i])} + {gamma.tex()} \times {lam.tex()} \times {_tex(worked.advantages[i + 1])} "
        rf"{advantage.relation} {advantage.tex()}"
    )


def _td_sign(t: int, sign: int) -> Callable[[], bool]:
    """A claim that token t raised (sign +1) or lowered (sign -1) the critic's estimate: delta_t has that sign."""
    return lambda: worked_gae().deltas[_token(t)] * sign > 0


def _bound(builder: Callable[[int], str], t: int) -> Callable[[], str]:
    return lambda: builder(t)


def _token_values(t: int) -> dict[str, Callable[[], Quantity]]:
    """Token t's value before it, TD error, GAE advantage and Monte Carlo advantage (lambda = 1)."""
    i = t - 1

    def pick(field: str, signed: bool = True) -> Callable[[], Quantity]:
        return lambda: Quantity(getattr(worked_gae(), field)[_token(t)], f"{GAE_CALL}.{field}[{i}]", signed=signed)

    return {
        f"gae.value.{t}": lambda: Quantity(settings().gae.values[_token(t)], f"{SETTINGS}: [gae] values[{i}]"),
        f"gae.delta.{t}": pick("deltas"),
        f"gae.advantage.{t}": pick("advantages"),
        f"gae.monte-carlo.{t}": pick("returns_minus_values"),
    }


def _gae_names() -> tuple[dict[str, Callable[[], Quantity]], dict[str, Callable[[], str]]]:
    values: dict[str, Callable[[], Quantity]] = {
        "gae.gamma": lambda: Quantity(settings().gae.gamma, f"{SETTINGS}: [gae] gamma"),
        "gae.lambda": lambda: Quantity(settings().gae.lam, f"{SETTINGS}: [gae] lam"),
        "gae.tokens": lambda: Quantity(len(settings().gae.tokens), f"{SETTINGS}: [gae] tokens"),
        "gae.reward": lambda: Quantity(settings().gae.rewards[-1], f"{SETTINGS}: [gae] rewards[-1]"),
    }
    formulas: dict[str, Callable[[], str]] = {}
    for t in range(1, len(settings().gae.tokens) + 1):
        values.update(_token_values(t))
        CLAIMS[f"gae.raises.{t}"] = _td_sign(t, +1)
        CLAIMS[f"gae.lowers.{t}"] = _td_sign(t, -1)
        formulas[f"gae.delta.{t}"] = _bound(delta_tex, t)
        formulas[f"gae.advantage.{t}"] = _bound(advantage_tex, t)
    return values, formulas


def _reward_only_at_the_end() -> bool:
    rewards = settings().gae.rewards
    return rewards[-1] != 0 and not any(rewards[:-1])


def _first_token_below_monte_carlo() -> bool:
    """The first token's GAE advantage is smaller than the Monte Carlo one: the critic's doubt is held against it."""
    worked = worked_gae()
    return worked.advantages[0] < worked.returns_minus_values[0]


# ---------------------------------------------------------------- the critic's memory

MEMORY_CALL = "grpo_examples.training_memory(load_ppo_examples().memory.critic_parameters, bytes_per_parameter)"


def _memory_values() -> dict[str, Callable[[], Quantity]]:
    return {
        "memory.policy-billions": lambda: Quantity(
            billions(settings().memory.policy_parameters), f"{SETTINGS}: [memory] policy_parameters, in billions"
        ),
        "memory.critic-billions": lambda: Quantity(
            billions(settings().memory.critic_parameters), f"{SETTINGS}: [memory] critic_parameters, in billions"
        ),
        "memory.bytes-per-parameter": lambda: Quantity(
            gx.bytes_per_parameter(settings().memory.critic()), f"grpo_examples.bytes_per_parameter({MEMORY_CALL})"
        ),
        "memory.critic-gb": lambda: Quantity(
            gigabytes(gx.total_bytes(settings().memory.critic())), f"grpo_examples.total_bytes({MEMORY_CALL}), in GB"
        ),
        "memory.critic-weights-gb": lambda: Quantity(
            gigabytes(settings().memory.critic()[0].total_bytes), f"{MEMORY_CALL}[0].total_bytes, in GB"
        ),
    }


def _critic_as_large_as_policy() -> bool:
    memory = settings().memory
    return gx.total_bytes(memory.critic()) == gx.total_bytes(memory.policy())


# ---------------------------------------------------------------- the namespace

VALUES: dict[str, Callable[[], Quantity]] = {
    "epsilon": lambda: Quantity(settings().epsilon, f"{SETTINGS}: epsilon"),
    "clip.low": lambda: Quantity(gx.clip_range(settings().epsilon)[0], "grpo_examples.clip_range(epsilon)[0]"),
    "clip.high": lambda: Quantity(gx.clip_range(settings().epsilon)[1], "grpo_examples.clip_range(epsilon)[1]"),
}
FORMULAS: dict[str, Callable[[], str]] = {}
CLAIMS: dict[str, Callable[[], bool]] = {
    "gae.reward-only-at-the-end": _reward_only_at_the_end,
    "gae.first-token-below-monte-carlo": _first_token_below_monte_carlo,
    "critic-as-large-as-policy": _critic_as_large_as_policy,
}
for _case in settings().cases:
    VALUES.update(_case_values(_case.name))
    FORMULAS.update(_case_formulas(_case.name))
    CLAIMS.update(_case_claims(_case.name))
_gae_values, _gae_formulas = _gae_names()
VALUES.update(_gae_values)
FORMULAS.update(_gae_formulas)
VALUES.update(_memory_values())

PPO = Namespace(
    "ppo",
    "the PPO chapter's worked cases",
    "hooks/ppo_values.py",
    VALUES,
    formulas=FORMULAS,
    claims=CLAIMS,
    widgets={"clip": clip_widget},
)
