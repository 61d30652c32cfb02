"""The author's guide: its own blocks (hooks/engine/guide.py) are what the engine does, and its pages name what
there is. (That the built guide shows each placeholder beside its result is tests/site's.)
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import is_dataclass
from fractions import Fraction

import pytest

from grpo_examples import Undefined
from hooks import checks
from hooks.engine import drift_guard, guide
from hooks.engine.placeholders import expand
from hooks.engine.tree import walk
from tests.chapter_pipeline import PluginError, block, page_markdown, problems
from tests.conftest import ROOT

GUIDE = ROOT / "docs" / "guide"
EXAMPLE = "The baseline is 0.8 for the group above."


def test_the_guard_example_is_what_the_guard_says() -> None:
    shown = block("drift-guard-example")
    with pytest.raises(drift_guard.DriftError) as error:
        drift_guard.guard(checks.book(), EXAMPLE, "docs/example.md", first_line=12)
    message = str(error.value)
    # "The baseline is " is 16 characters: the 0.8 starts in column 17. The easy group's mean is 4/5 = 0.8.
    assert message.startswith("docs/example.md:12:17: typed number 0.8 (decimal) is easy.mean")
    assert "write <!-- grpo:value easy.mean -->" in message.splitlines()[0]
    assert f"```markdown\n{EXAMPLE}\n```" in shown
    assert f"```text\n{message}\n```" in shown


def test_the_guard_example_takes_no_path() -> None:
    with pytest.raises(PluginError) as caught:
        page_markdown("<!-- grpo:block drift-guard-example easy -->")
    assert problems(caught.value) == [(1, "block 'drift-guard-example' takes no path, got 1")]


def test_a_guide_block_reads_the_models_it_names_or_every_one() -> None:
    # under `make serve`, a page is expanded again after a data edit when it read a model that changed
    # (hooks/site/incremental.py): the list of ppo's paths has nothing to redraw after an edit of bandit.toml
    book = checks.book()
    assert expand(book, "<!-- grpo:block names ppo -->").read == {"ppo"}
    assert expand(book, "<!-- grpo:block drift-guard-example -->").read == set(book.subjects)  # it may match any


# ---------------------------------------------------------------- the names block


def _names_rows(subject: str) -> list[tuple[str, str, str, str]]:
    """(path, placeholder kinds, what it is, its value now) for each row of `<!-- grpo:block names subject -->`."""
    rows = []
    for line in block(f"names {subject}").splitlines():
        match = re.fullmatch(r"\| ` (?P<path>\S+) ` \| (?P<kind>[a-z, ()]*) \| (?P<said>.*) \| (?P<now>.*) \|", line)
        if match:
            rows.append((match["path"], match["kind"], match["said"], match["now"]))
    return rows


def _first_key_path(subject: str, path: str) -> str:
    """The path with each <key> replaced by the first key of its collection (the row's value is the first entry's)."""
    subjects = checks.book().subjects
    while "<key>" in path:
        before, _, after = path.partition(".<key>")
        node = {n.path: n.value for n in walk(subjects[subject])}[before]
        assert isinstance(node, Mapping), before
        path = f"{before}.{next(iter(node))}{after}"
    return path


SUBJECTS = list(checks.book().subjects)


@pytest.mark.parametrize("subject", SUBJECTS)
def test_every_row_of_the_names_block_works_as_it_says(subject: str) -> None:
    book = checks.book()
    for path, kind, _, now in _names_rows(subject):
        concrete = _first_key_path(subject, path)
        if kind == guide.NO_PLACEHOLDER:
            assert now.startswith("keys: "), path  # a collection: its entries have the paths
            continue
        kinds = [k.strip() for k in kind.split(",")]
        for placeholder in kinds:
            written = f"<!-- grpo:{placeholder} {concrete} -->"
            result = expand(book, written)
            if placeholder == "check":
                # a claim may be false (it is a row of the table, not a sentence of the book): it says so
                assert all("the prose claims" in p.message for p in result.problems), (written, result.problems)
                assert (now == "false") == bool(result.problems), written
            elif now.startswith("not defined:"):
                assert [p.message for p in result.problems] == [f"{concrete} is not defined here: {now[13:]}"]
            else:
                assert result.problems == [], (written, result.problems)


def _generic(path: str, collections: list[str]) -> str:
    """The path as the names block writes it: the entry of each collection it goes through written <key>."""
    for prefix in sorted(collections, key=len, reverse=True):
        if path.startswith(prefix + "."):
            rest = path[len(prefix) + 1 :].partition(".")[2]
            return _generic(prefix, collections) + ".<key>" + (f".{rest}" if rest else "")
    return path


@pytest.mark.parametrize("subject", ["easy", "solved", "bandit", "ppo", "practice", "run"])
def test_the_names_block_lists_every_number_text_and_claim_of_its_model(subject: str) -> None:
    # A collection is a mapping of models (ppo.cases, bandit.candidates): its entries' paths are listed once.
    listed = {path for path, *_ in _names_rows(subject)}
    collections: list[str] = []
    for named in walk(checks.book().subjects[subject]):
        if isinstance(named.value, Mapping) and named.value and all(is_dataclass(v) for v in named.value.values()):
            collections.append(named.path)
        if isinstance(named.value, bool | int | float | Fraction | str | Undefined):
            assert _generic(named.path, collections) in listed, named.path


def test_the_names_block_shows_each_value_as_a_page_would() -> None:
    rows = {path: (kind, said, now) for path, kind, said, now in _names_rows("easy")}
    assert rows["easy.mean"][::2] == ("value, formula", "0.8")
    docstring = "mu = \\(1/G\\) sum\\_i r\\_i: the group's own baseline."  # escaped as Markdown text
    assert docstring in rows["easy.mean"][1]
    assert rows["easy.advantage.wrong"][0] == "value, formula"
    assert rows["easy.advantage.wrong"][2] == "−2.0"  # signed, as its type says
    assert rows["easy.claims.wrong-is-rare"][::2] == ("check", "true")
    assert rows["easy.rewards"][0] == "formula"  # a tuple: a formula draws it, no sentence holds it
    solved = {path: now for path, _, _, now in _names_rows("solved")}
    assert solved["solved.std-scale"] == "not defined: every reward is the same: sigma is 0"


@pytest.mark.parametrize("subject", SUBJECTS)
def test_every_row_of_the_names_block_says_what_it_is(subject: str) -> None:
    # A field described once for several paths (easy.count's five counts) sends its later rows to the first.
    for path, _, said, _ in _names_rows(subject):
        assert said, path


@pytest.mark.parametrize("subject", SUBJECTS)
def test_every_row_of_the_names_block_says_which_placeholders_take_it(subject: str) -> None:
    rows = _names_rows(subject)
    assert all(kind for _, kind, _, _ in rows)
    assert [kind for _, kind, _, now in rows if now.startswith("keys: ")] == [
        guide.NO_PLACEHOLDER for _, _, _, now in rows if now.startswith("keys: ")
    ]


def test_a_field_of_several_paths_is_described_on_its_first_row_and_pointed_to_from_the_others() -> None:
    rows = {path: said for path, _, said, _ in _names_rows("easy")}
    assert rows["easy.count.correct"].startswith("How many responses are correct, wrong")
    for later in ("wrong", "format", "no-format", "no-answer", "both"):
        assert rows[f"easy.count.{later}"] == "As for ` easy.count.correct `."
    assert rows["easy.advantage.wrong"] == "As for ` easy.advantage.correct `."


def test_the_names_block_offers_a_formula_only_where_its_layout_draws_that_entry() -> None:
    # practice.kl.mean's layout takes the estimator and draws k3 only (it refuses k1 and k2)
    kinds = {path: kind for path, kind, _, _ in _names_rows("practice")}
    assert (kinds["practice.kl.mean.k1"], kinds["practice.kl.mean.k2"]) == ("value", "value")
    assert kinds["practice.kl.mean.k3"] == "value, formula"
    assert kinds["practice.kl.exact"] == "value, formula"
    easy = {path: kind for path, kind, _, _ in _names_rows("easy")}
    assert easy["easy.advantage.correct"] == "value, formula"


@pytest.mark.parametrize("wrong", ["", "eazy", "easy hard"])
def test_the_names_block_takes_one_subject(wrong: str) -> None:
    with pytest.raises(PluginError) as caught:
        page_markdown(f"<!-- grpo:block names {wrong} -->".replace("  ", " "))
    [(line, message)] = problems(caught.value)
    assert line == 1 and message.startswith("block 'names' takes one of easy, hard, split, fractions, solved, bandit")


# ---------------------------------------------------------------- the guide's pages


def _inline_code(page: str) -> set[str]:
    """The names a guide page writes as inline code (`name`), in its source."""
    return set(re.findall(r"`([a-z][a-z0-9-]*)`", (GUIDE / page).read_text(encoding="utf-8")))


def test_the_guide_lists_every_block() -> None:
    listed = _inline_code("placeholders.md")
    missing = sorted((set(checks.book().blocks) | set(guide.BLOCKS)) - listed)
    assert not missing, f"docs/guide/placeholders.md does not list the blocks {missing}: add them to its table"


def test_the_guide_shows_the_names_of_every_chapter() -> None:
    # every model whose names block has a row, and a group for all of them
    source = (GUIDE / "examples.md").read_text(encoding="utf-8")
    placed = set(re.findall(r"^<!-- grpo:block names (\S+) -->$", source, re.MULTILINE))
    wanted = {name for name in checks.book().subjects if _names_rows(name)} - {"hard", "split", "fractions", "solved"}
    assert placed == wanted


def _documented_placeholders() -> list[tuple[str, str]]:
    """(page, placeholder) for each placeholder the guide writes in inline code for an author to copy, that
    names the book's own models (not a template, nor a model the guide makes up: the tie group, a new chapter)."""
    found = []
    for page in sorted(GUIDE.glob("*.md")):
        for code in re.findall(r"`+\s*(<!--\s*grpo:[a-z]+ [^`]*?-->)\s*`+", page.read_text(encoding="utf-8")):
            words = code.split()[2:-1]
            heads = {word.split(".")[0] for word in words}
            template = any("<" in word or "..." in word for word in words)
            if not template and heads & set(SUBJECTS) and not heads & {"tie", "sampling"}:
                found.append((page.name, code))
    return found


DOCUMENTED = _documented_placeholders()


def test_the_guide_shows_placeholders_to_copy() -> None:
    assert len(DOCUMENTED) >= 20  # the placeholders page alone shows some twenty; none found would test nothing
    assert ("placeholders.md", "<!-- grpo:value easy.std-sample -->") in DOCUMENTED


@pytest.mark.parametrize(("page", "placeholder"), DOCUMENTED, ids=lambda x: str(x))
def test_every_placeholder_the_guide_shows_in_code_works(page: str, placeholder: str) -> None:
    assert expand(checks.book(), placeholder).problems == [], placeholder


def test_contributing_points_to_the_guide() -> None:
    contributing = (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")
    for page in ("index", "placeholders", "examples", "drift-guard"):
        assert f"docs/guide/{page}.md" in contributing
