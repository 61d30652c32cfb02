"""The resolver (hooks/engine/tree.py): a path walked through a model's tree, the expression it derives, the
meaning it reads off the declared types, its errors, and walk() over a whole subject.

Expected values are worked by hand from the data files: the easy group is [1, 1, 1, 1, 0] (four right answers
of five, grpo_examples/data/groups.toml), the PPO chapter's GAE response has rewards (0, 0, 0, 1) and values
V(s_0..s_4) = (0.5, 0.4, 0.7, 0.9, 0) with gamma = 1 (grpo_examples/data/ppo.toml).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Annotated

import pytest

import grpo_examples as gx
from grpo_examples import Rounded, Signed, Undefined
from grpo_examples.quantities import SIGN
from hooks import checks
from hooks.engine.tree import Meaning, PathError, Subject, describe, meaning, resolve, subject, walk


def _resolve(path: str) -> object:
    return resolve(checks.book().subjects, path).value


def _error(path: str, subjects: Mapping[str, Subject] | None = None) -> str:
    with pytest.raises(PathError) as caught:
        resolve(subjects if subjects is not None else checks.book().subjects, path)
    return str(caught.value)


# ---------------------------------------------------------------- each kind of step


def test_an_attribute_is_written_with_dashes() -> None:
    found = resolve(checks.book().subjects, "easy.std-sample")
    # sqrt((4 x 0.2^2 + 0.8^2) / 4) = sqrt(0.8 / 4) = sqrt(0.2)
    assert found.value == pytest.approx(0.2**0.5, rel=1e-15)
    assert found.expression == "grpo_examples.group('easy').std_sample"
    assert (type(found.owner), found.field, found.keys) == (gx.Group, "std_sample", ())


def test_a_mapping_key_is_a_word_of_the_path() -> None:
    found = resolve(checks.book().subjects, "easy.count.correct")
    assert found.value == 4
    assert found.expression == "grpo_examples.group('easy').count['correct']"
    assert (found.field, found.keys) == ("count", ("correct",))


def test_an_integer_key_numbers_from_one_as_the_page_does() -> None:
    # delta_1 = r_1 + gamma V(s_2) - V(s_1) = 0 + 0.4 - 0.5; delta_4 = 1 + 0 - 0.9 (the page numbers tokens from 1)
    first = resolve(checks.book().subjects, "ppo.gae.tokens.1.delta")
    assert first.value == pytest.approx(-0.1, abs=1e-15)
    assert first.expression == "grpo_examples.chapter('ppo').gae.tokens[1].delta"
    assert _resolve("ppo.gae.tokens.4.delta") == pytest.approx(0.1, abs=1e-15)
    assert _resolve("ppo.gae.tokens.1.token") == "7 × 8"
    # The bandit's first candidate reasons in tags and answers 180: accuracy 1 + format 1.
    assert _resolve("bandit.candidates.1.reward") == 2
    assert "ppo.gae.tokens has no '0' (it has 1, 2, 3, 4)" in _error("ppo.gae.tokens.0.delta")


def test_an_integer_key_is_found_as_the_mapping_holds_it() -> None:
    # ppo.gae.tokens is a Mapping[int, GaeToken]: the path's "2" is the int 2, which a layout is handed as such
    found = resolve(checks.book().subjects, "ppo.gae.tokens.2")
    assert (type(found.owner), found.field, found.keys) == (gx.Gae, "tokens", (2,))
    assert found.value is gx.chapter("ppo").gae.tokens[2]
    assert resolve(checks.book().subjects, "easy.advantage.wrong").keys == ("wrong",)
    # walk() names the node with the same key
    [named] = [n for n in walk(checks.book().subjects["ppo"]) if n.path == "ppo.gae.tokens.2"]
    assert named.keys == (2,) and type(named.keys[0]) is int


LIST_ERROR = (
    "{} is a list of {} values, which a path does not index (where a page numbers things, its model keys them by "
    "that number): name a single value, or draw the list with a block"
)


@pytest.mark.parametrize(
    ("path", "where", "length"),
    [
        ("easy.responses.4.answer", "easy.responses", 5),  # a tuple of five Responses
        ("easy.rewards.0", "easy.rewards", 5),
        ("easy.rewards.5", "easy.rewards", 5),
        ("easy.rewards.last", "easy.rewards", 5),
        ("easy.variants.trl.advantages.1", "easy.variants.trl.advantages", 5),
        ("fractions.responses.0.text", "fractions.responses", 7),  # seven responses in groups.toml
    ],
)
def test_a_path_does_not_index_a_tuple(path: str, where: str, length: int) -> None:
    # A number in a path is only ever a mapping key, numbered as the page numbers things (ppo.gae.tokens.1):
    # a tuple's 0-based index would be a second numbering.
    assert _error(path) == LIST_ERROR.format(where, length)


def test_the_expression_of_a_chapter_starts_with_its_call() -> None:
    found = resolve(checks.book().subjects, "run.methods.grpo.final-reward")
    assert found.expression == "grpo_examples.chapter('run').methods['grpo'].final_reward"
    found = resolve(checks.book().subjects, "practice.kl.worked.k3")
    assert found.expression == "grpo_examples.chapter('practice').kl.worked.k3"
    found = resolve(checks.book().subjects, "easy.variants.trl.advantage.wrong")
    assert found.expression == "grpo_examples.group('easy').variants['trl'].advantage['wrong']"


def test_a_subjects_expression_is_derived_from_the_function_it_calls() -> None:
    made = subject("easy", gx.group, "easy", data="groups.toml [easy]")
    assert made.expression == "grpo_examples.group('easy')"
    assert made.call() is gx.group("easy")


def test_a_property_is_a_name_too() -> None:
    # |A_wrong| / |A_right| = 2.0 / 0.5: the rare wrong answer is pushed four times as hard
    assert _resolve("easy.rare-to-common") == Fraction(4)
    assert _resolve("easy.is-binary") is True
    assert _resolve("easy.q") == Fraction(1, 5)


# ---------------------------------------------------------------- what the declared types mean


def test_the_meaning_is_read_through_mappings_unions_and_annotations() -> None:
    subjects = checks.book().subjects
    # Mapping[str, SignedExact]: each value is signed
    assert resolve(subjects, "easy.advantage.wrong").meaning == Meaning(signed=True)
    # Mapping[str, Signed] inside a model reached through a mapping (easy.variants is a Mapping[str, Variant])
    assert resolve(subjects, "easy.variants.trl.advantage.wrong").meaning == Meaning(signed=True)
    # tuple[Signed, ...] | Undefined: a tuple of signed values is not itself signed (no path reaches its items)
    assert resolve(subjects, "easy.variants.trl.advantages").meaning == Meaning()
    # Annotated[float, Rounded(2)]
    assert resolve(subjects, "run.methods.grpo.final-reward").meaning == Meaning(places=2)
    # Annotated[float, Rounded(1)] | Undefined
    assert resolve(subjects, "run.methods.grpo.sweep.median").meaning == Meaning(places=1)
    # Mapping[int, GaeToken], then the token's field, Signed
    assert resolve(subjects, "ppo.gae.tokens.1.delta").meaning == Meaning(signed=True)
    # plain numbers mean nothing more
    assert resolve(subjects, "easy.mean").meaning == Meaning()
    assert resolve(subjects, "easy.count.correct").meaning == Meaning()


@dataclass(frozen=True)
class _Inner:
    level: Signed


@dataclass(frozen=True)
class _Toy:
    """A model whose fields carry every form of annotation the resolver reads."""

    plain: float
    signed: Signed
    rounded: Annotated[float, Rounded(3)]
    by_key: Mapping[str, Annotated[float, Rounded(1), SIGN]]
    maybe: Annotated[float, Rounded(2)] | Undefined
    items: tuple[Signed, ...] | Undefined
    numbered: Mapping[int, _Inner]
    missing: _Inner | Undefined


_TOY = _Toy(
    plain=1.0,
    signed=-0.5,
    rounded=1 / 3,
    by_key={"a": 0.25},
    maybe=Undefined("not computed in this toy"),
    items=(0.5, -0.5),
    numbered={1: _Inner(0.1), 2: _Inner(-0.2)},
    missing=Undefined("the toy has no inner here"),
)
_TOYS = {"toy": Subject("toy", lambda: _TOY, "make_toy()", "nowhere")}


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        ("toy.plain", Meaning()),
        ("toy.signed", Meaning(signed=True)),
        ("toy.rounded", Meaning(places=3)),
        ("toy.by-key.a", Meaning(signed=True, places=1)),
        ("toy.maybe", Meaning(places=2)),
        ("toy.items", Meaning()),  # the tuple, not its items: a path does not index it
        ("toy.numbered.2.level", Meaning(signed=True)),
        ("toy.numbered.2", Meaning()),
    ],
)
def test_each_form_of_annotation_on_a_model_of_its_own(path: str, expected: Meaning) -> None:
    assert resolve(_TOYS, path).meaning == expected


def test_meaning_of_bare_types() -> None:
    assert meaning(Signed) == Meaning(signed=True)
    assert meaning(Annotated[float, Rounded(2)] | None) == Meaning(places=2)
    assert meaning(int | Annotated[float, SIGN]) == Meaning(signed=True)
    assert meaning(float) == Meaning()
    # a tuple of signed values is not itself signed: its items are
    assert meaning(tuple[Signed, ...]) == Meaning()


def test_the_toys_expressions_and_keys() -> None:
    numbered = resolve(_TOYS, "toy.numbered.2")
    assert numbered.expression == "make_toy().numbered[2]"
    assert (numbered.field, numbered.keys) == ("numbered", (2,))  # the int key, as the mapping holds it
    by_key = resolve(_TOYS, "toy.by-key.a")
    assert (by_key.expression, by_key.keys) == ("make_toy().by_key['a']", ("a",))
    # through the mapping to a model: the keys start again at the model's field
    level = resolve(_TOYS, "toy.numbered.2.level")
    assert (level.expression, level.owner, level.field, level.keys) == (
        "make_toy().numbered[2].level",
        _Inner(-0.2),
        "level",
        (),
    )
    assert _error("toy.items.1", _TOYS) == LIST_ERROR.format("toy.items", 2)


# ---------------------------------------------------------------- errors


def test_an_unknown_first_word_lists_the_subjects_then_the_closest() -> None:
    subjects = ", ".join(checks.book().subjects)
    assert "bandit" in subjects and "solved" in subjects
    assert _error("eazy.mean") == f"unknown name 'eazy': a path starts with one of {subjects}; did you mean 'easy'?"
    # nothing close: no suggestion
    assert _error("mean") == f"unknown name 'mean': a path starts with one of {subjects}"


def test_an_unknown_field_lists_the_fields_with_dashes_then_the_closest() -> None:
    message = _error("easy.maen")
    assert message.startswith("easy has no 'maen' (it has rewards, G, total, mean,")
    assert message.endswith(", rare-to-common); did you mean 'mean'?")
    assert "answer-normalised" in message and "_" not in message


@pytest.mark.parametrize(
    ("path", "start", "end"),
    [
        ("easy.std_sample", "easy has no 'std_sample' (it has rewards, G,", "); did you mean 'std-sample'?"),
        (
            "easy.claims.wrong_is_rare",
            "easy.claims has no 'wrong_is_rare' (it has binary,",
            "); did you mean 'wrong-is-rare'?",
        ),
        # a mapping key too: the count's keys are written with '-'
        (
            "easy.count.no_answer",
            "easy.count has no 'no_answer' (it has correct, wrong,",
            "); did you mean 'no-answer'?",
        ),
    ],
)
def test_a_step_written_with_underscores_is_refused_with_its_dashes(path: str, start: str, end: str) -> None:
    # One spelling for each name: '_' is Python's, the page writes '-' (the attribute exists: std_sample)
    assert hasattr(gx.group("easy"), "std_sample")
    message = _error(path)
    assert message.startswith(start) and message.endswith(end), message
    # and the spelling suggested resolves
    resolve(checks.book().subjects, path.rsplit(".", 1)[0] + "." + end.split("'")[1])


def test_an_unknown_key_lists_the_keys_then_the_closest() -> None:
    assert (
        _error("easy.advantage.wrnog") == "easy.advantage has no 'wrnog' (it has correct, wrong); did you mean 'wrong'?"
    )
    # the solved group has no wrong answer: its advantages have one key
    assert _error("solved.advantage.wrong") == "solved.advantage has no 'wrong' (it has correct)"


def test_a_leaf_has_nothing_under_it() -> None:
    assert _error("easy.mean.numerator") == "easy.mean is a number: it has no 'numerator'"
    assert _error("easy.question.upper") == "easy.question is a text: it has no 'upper'"
    assert _error("easy.claims.binary.x") == "easy.claims.binary is a claim (true or false): it has no 'x'"


@pytest.mark.parametrize(
    ("old", "message", "new"),
    [
        ("easy.std.sample", "easy.std is a number: it has no 'sample'", "easy.std-sample"),
        ("easy.answer.normalised", "easy.answer is a text: it has no 'normalised'", "easy.answer-normalised"),
        ("practice.clip.eps.high", "practice.clip.eps is a number: it has no 'high'", "practice.clip.eps-high"),
    ],
)
def test_an_old_dotted_name_is_pointed_to_its_dashed_one(old: str, message: str, new: str) -> None:
    assert _error(old) == f"{message}; did you mean {new!r}?"
    resolve(checks.book().subjects, new)  # the name suggested is one


@dataclass(frozen=True)
class _Joined:
    """A model with a mapping whose key, joined to a step with '-', spells one of the model's own fields."""

    by_key: Mapping[str, float]
    a_b: float


_JOINED = {"joined": Subject("joined", lambda: _Joined({"a": 1.0}, 2.0), "make_joined()", "nowhere")}


def test_the_dotted_name_hint_through_a_mapping_names_a_path_that_exists() -> None:
    message = _error("joined.by-key.a.b", _JOINED)
    assert message.startswith("joined.by-key.a is a number: it has no 'b'")
    if "did you mean " in message:
        suggested = message.rsplit("did you mean ", 1)[1].rstrip("?")
        resolve(_JOINED, suggested)


def test_undefined_on_the_way_says_why() -> None:
    # the solved group has one distinct reward, so the ratio of two outcomes does not exist
    message = _error("solved.rare-to-common.numerator")
    assert message == (
        "solved.rare-to-common is not defined here: the ratio needs exactly two distinct rewards, and this group has 1"
    )
    assert _error("toy.missing.level", _TOYS) == "toy.missing is not defined here: the toy has no inner here"


def test_undefined_at_the_leaf_is_found_with_its_reason() -> None:
    found = resolve(checks.book().subjects, "solved.std-scale")
    assert isinstance(found.value, Undefined)
    assert found.value.reason == "every reward is the same: sigma is 0"
    assert isinstance(resolve(_TOYS, "toy.maybe").value, Undefined)


@pytest.mark.parametrize(
    "path", ["easy.__class__", "easy.__dict__", "easy._tables", "easy.outcome", "easy.mean.__class__", "easy.-"]
)
def test_only_public_fields_and_properties_resolve(path: str) -> None:
    # Nothing on a page is called: a method (outcome) or a private or dunder name is not a step.
    assert "has no" in _error(path)


# ---------------------------------------------------------------- walk


def test_walk_enumerates_a_subject_in_field_order_without_its_root_or_tuples() -> None:
    paths = [named.path for named in walk(checks.book().subjects["easy"])]
    assert paths[:4] == ["easy.rewards", "easy.G", "easy.total", "easy.mean"]
    for path in (
        "easy.count.correct",
        "easy.count.no-answer",
        "easy.advantage.wrong",
        "easy.variants.trl.advantage.wrong",
        "easy.leave-one-out.wrong.from-dr-grpo",
        "easy.claims.wrong-is-rare",
        "easy.rare-to-common",
    ):
        assert path in paths, path
    assert "easy" not in paths
    assert not any(p.startswith(("easy.rewards.", "easy.responses.", "easy.outcomes.")) for p in paths)
    assert len(paths) == len(set(paths))


@pytest.mark.parametrize("name", ["easy", "solved", "bandit", "ppo", "practice", "run", "verifier"])
def test_every_walked_path_resolves_to_the_same_node(name: str) -> None:
    subjects = checks.book().subjects
    for named in walk(subjects[name]):
        found = resolve(subjects, named.path)
        assert found.value == named.value or found.value is named.value, named.path
        assert found.meaning == named.meaning, named.path
        assert (found.owner, found.field, found.keys) == (named.owner, named.field, named.keys), named.path


def test_walk_stops_at_an_undefined_value() -> None:
    named = {n.path: n for n in walk(checks.book().subjects["solved"])}
    assert isinstance(named["solved.std-scale"].value, Undefined)
    assert not any(path.startswith("solved.std-scale.") for path in named)
    assert not any(path.startswith("toy.missing.") for path in (n.path for n in walk(_TOYS["toy"])))


def test_a_fields_docstring_describes_it() -> None:
    group = gx.group("easy")
    assert describe(group, "mean") == "mu = (1/G) sum_i r_i: the group's own baseline."
    assert describe(group, "wrong_is_rare") == ""  # a field of GroupClaims, not of Group
    assert describe(group.claims, "wrong_is_rare") == "Some responses are wrong, but fewer than are right."
    # a property's docstring, to its first blank line
    assert describe(group, "rare_to_common") == (
        "|A_rare| / |A_common| = |r_rare - mu| / |r_common - mu| for a group with two outcomes."
    )
