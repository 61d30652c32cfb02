"""The book's named groups, scored and worked through: `grpo_examples.group('easy')`.

A group is one prompt q and the G responses sampled for it, written in grpo_examples/data/groups.toml. The
verifier scores every response (rewards are never written by hand), and everything a page says about the
group, from its mean reward to RLOO's advantage of its wrong answer, is a field of the Group returned here.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Annotated

from grpo_examples.advantage_variants import (
    LeaveOneOut,
    dr_grpo_advantages,
    leave_one_out,
    rloo_advantages,
    rloo_scale,
    sample_std_factor,
    std_scale,
)
from grpo_examples.advantages import advantages, group_std
from grpo_examples.conventions import OPENRLHF, POPULATION, TRL, VERL
from grpo_examples.data import DATA, SAID, DataError, Length, load, name_of, read_from_files
from grpo_examples.dynamic_sampling import dynamic_sampling_keeps
from grpo_examples.quantities import Signed, SignedExact, Undefined, read_only
from grpo_examples.verifier import OUTCOMES, verify
from grpo_examples.worked import GroupWorking, work_group

GROUPS_FILE = DATA / "groups.toml"


@dataclass(frozen=True)
class GroupData:
    """One table of groups.toml: what an author writes about a group."""

    title: Annotated[str, SAID]
    question: Annotated[str, SAID]
    answer: Annotated[str, SAID]
    responses: Annotated[tuple[str, ...], Length(1, 64)]  # G: DeepSeekMath samples 64 outputs per question

    def __post_init__(self) -> None:
        if not self.responses:
            raise ValueError("responses: a group needs at least one response")


@dataclass(frozen=True)
class Response:
    """One sampled response o_i, every step of the verifier on it, and the advantage GRPO gives it."""

    text: str
    """The response as sampled."""
    answer: str | None
    """The final answer the verifier extracts: the last \\boxed{...}, else the last 'Answer:' line; None if neither."""
    normalised: str | None
    """That answer in canonical form (1/2 for 0.5 and \\frac{1}{2}), as compared with the reference."""
    reward: float
    """r_i: the accuracy reward, 1 if the normalised answer equals the reference's, else 0."""
    format: float
    """The format reward: 1 if the reasoning is between <think> and </think>, else 0."""
    advantage: Signed
    """A_i = (r_i - mu) / sigma, the book's convention (population std, no epsilon)."""


@dataclass(frozen=True)
class Variant:
    """GRPO's advantage as one trainer or paper computes it, on this group."""

    advantages: tuple[Signed, ...] | Undefined
    """A_1, ..., A_G under this variant."""
    advantage: Mapping[str, Signed]
    """The advantage of a correct and of a wrong response (an outcome no response has is left out)."""
    std: float | Undefined
    """The std the variant divides by (population or sample), or Undefined where it divides by none."""


@dataclass(frozen=True)
class GroupClaims:
    """What the prose says of a group's rewards, each true or false."""

    binary: bool
    """Every reward is 0 or 1."""
    rewards_differ: bool
    """Not every reward is the same."""
    wrong_is_rare: bool
    """Some responses are wrong, but fewer than are right."""
    right_is_rare: bool
    """Some responses are right, but fewer than are wrong."""
    evenly_split: bool
    """As many responses are right as wrong, and some are."""


@dataclass(frozen=True)
class Group(GroupWorking):
    """One prompt q and its group of G sampled responses, scored by the verifier and worked through."""

    name: str
    """Its name in groups.toml."""
    title: str
    """How the prose names the group: 'the easy problem'."""
    question: str
    """The prompt q."""
    answer: str
    """The reference answer, as written."""
    answer_normalised: str
    """The reference answer in canonical form."""
    responses: tuple[Response, ...]
    """o_1, ..., o_G, each as the verifier reads it."""
    count: Mapping[str, int]
    """How many responses are correct, wrong, have the format reward (format), lack it (no-format), give no
    answer the verifier can read (no-answer), or earn both rewards (both)."""
    deviation: Mapping[str, SignedExact]
    """r - mu for a correct and for a wrong response."""
    advantage: Mapping[str, SignedExact]
    """A = (r - mu) / sigma for a correct and for a wrong response."""
    std_sample: float | Undefined
    """sigma_s = sqrt((1/(G - 1)) sum_i (r_i - mu)^2): the sample std, what TRL and verl divide by."""
    variants: Mapping[str, Variant]
    """The advantage under population (the book's), trl, verl and openrlhf (sample std plus their epsilon),
    dr-grpo (no std) and rloo (leave-one-out)."""
    leave_one_out: Mapping[str, LeaveOneOut]
    """RLOO's advantage of a correct and of a wrong response, with every term of it."""
    rloo_scale: Fraction | Undefined
    """G/(G-1): RLOO's advantage is this times Dr. GRPO's."""
    std_scale: float | Undefined
    """1/sigma: GRPO's advantage is this times Dr. GRPO's; the weight GRPO gives this group."""
    sample_std_factor: float | Undefined
    """sqrt((G-1)/G): an advantage over the sample std is this times the one over the population std."""
    spread_of_advantages: float
    """The population std of A_1, ..., A_G: exactly 1 unless every reward is the same."""
    kept: bool
    """DAPO's dynamic sampling keeps the group: its rewards are not all equal."""
    claims: GroupClaims
    """What the prose says of the group's rewards."""


# A group's name is the first word of a placeholder's path: easy.mean.
GroupName = Annotated[str, name_of("a group's name")]


@read_from_files
def _tables() -> dict[str, GroupData]:
    tables: dict[str, GroupData] = load(GROUPS_FILE, dict[GroupName, GroupData])
    return tables


def groups_file_error(problem: str) -> DataError:
    """A problem of groups.toml found by a model that reads the groups (`easy: ...`, `the top level: ...`): a data
    error at the line of the table it names, reported there once, with the places it breaks listed under it."""
    return DataError(GROUPS_FILE, [problem], GROUPS_FILE.read_text(encoding="utf-8"))


def group_names() -> tuple[str, ...]:
    """The names of the groups in groups.toml, in the order written."""
    return tuple(_tables())


def _by_outcome(values: tuple[float, ...], rewards: list[float]) -> dict[str, float]:
    """The value of the first response with each outcome (correct, wrong) that the group has."""
    return {o: values[rewards.index(r)] for o, r in OUTCOMES.items() if r in rewards}


def _variants(rewards: list[float]) -> dict[str, Variant]:
    variants = {}
    for convention in (POPULATION, TRL, VERL, OPENRLHF):
        if len(rewards) > convention.ddof:
            values = tuple(convention.advantages(rewards).tolist())
            std = group_std(rewards, convention.ddof)
            variants[convention.key] = Variant(values, _by_outcome(values, rewards), std)
        else:  # the sample std of one reward divides by G - 1 = 0
            one = Undefined("the sample std of a single reward is not defined")
            variants[convention.key] = Variant(one, {}, one)
    no_std = Undefined("this variant divides by no std")
    dr_grpo = tuple(dr_grpo_advantages(rewards).tolist())
    variants["dr-grpo"] = Variant(dr_grpo, _by_outcome(dr_grpo, rewards), no_std)
    if len(rewards) > 1:
        rloo = tuple(rloo_advantages(rewards).tolist())
        variants["rloo"] = Variant(rloo, _by_outcome(rloo, rewards), no_std)
    else:
        variants["rloo"] = Variant(Undefined("RLOO needs at least two responses"), {}, no_std)
    return variants


@read_from_files
def group(name: str) -> Group:
    """The named group of groups.toml, scored and worked; KeyError lists the names there are."""
    tables = _tables()
    if name not in tables:
        raise KeyError(f"no group named {name!r} in groups.toml; the groups are {', '.join(tables)}")
    data = tables[name]
    verdicts = [verify(text, data.answer) for text in data.responses]
    rewards = [v.accuracy for v in verdicts]
    working = work_group(rewards)
    grpo = advantages(rewards)
    found = {o: working.outcome(r) for o, r in OUTCOMES.items()}
    present = {o: outcome for o, outcome in found.items() if outcome is not None}
    counts = {
        "correct": found["correct"].count if found["correct"] else 0,
        "wrong": found["wrong"].count if found["wrong"] else 0,
    }
    several = len(rewards) > 1
    return read_only(
        Group(
            rewards=working.rewards,
            G=working.G,
            total=working.total,
            mean=working.mean,
            variance=working.variance,
            std=working.std,
            outcomes=working.outcomes,
            name=name,
            title=data.title,
            question=data.question,
            answer=data.answer,
            answer_normalised=verdicts[0].reference,
            responses=tuple(
                Response(text, v.answer, v.normalised, v.accuracy, v.format, float(a))
                for text, v, a in zip(data.responses, verdicts, grpo, strict=True)
            ),
            count={
                **counts,
                "format": sum(v.format == 1 for v in verdicts),
                "no-format": sum(v.format == 0 for v in verdicts),
                "no-answer": sum(v.answer is None for v in verdicts),
                "both": sum(v.accuracy == 1 and v.format == 1 for v in verdicts),
            },
            deviation={o: outcome.deviation for o, outcome in present.items()},
            advantage={o: outcome.advantage for o, outcome in present.items()},
            std_sample=group_std(rewards, ddof=1) if several else Undefined("the sample std of one reward"),
            variants=_variants(rewards),
            leave_one_out={o: leave_one_out(rewards, rewards.index(r)) for o, r in OUTCOMES.items() if r in rewards}
            if several
            else {},
            rloo_scale=rloo_scale(len(rewards)) if several else Undefined("RLOO needs at least two responses"),
            std_scale=Undefined("every reward is the same: sigma is 0") if working.all_equal else std_scale(rewards),
            sample_std_factor=sample_std_factor(len(rewards)) if several else Undefined("the sample std of one reward"),
            spread_of_advantages=group_std(grpo),
            kept=dynamic_sampling_keeps(rewards),
            claims=GroupClaims(
                binary=working.is_binary,
                rewards_differ=not working.all_equal,
                wrong_is_rare=0 < counts["wrong"] < counts["correct"],
                right_is_rare=0 < counts["correct"] < counts["wrong"],
                evenly_split=0 < counts["correct"] == counts["wrong"],
            ),
        )
    )
