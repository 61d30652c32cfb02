"""scripts/migrate_placeholders.py: the old placeholder names become paths by its rules, an unknown name stops
it with the file and the line, templates are left alone, and it alone made the chapters as they stand.

The expected paths below were worked from the script's rule tables and the models' fields (grpo_examples/group.py,
grpo_examples/chapters/), not from a run; each is then resolved in the book, so a rule that led nowhere would
show.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from hooks import checks
from hooks.engine.tree import resolve
from scripts.migrate_placeholders import migrate_text
from tests.conftest import ROOT

OLD_COMMIT = "ab814f4"  # the last commit with the old names (scripts/migrate_placeholders.py's docstring)
# The commit that rewrote the placeholders ("172 of them, none by hand"). The chapters' prose has been edited
# since (the files they name moved), so the script's output is compared with the pages of that commit.
MIGRATION_COMMIT = "4911107"
SCRIPT = ROOT / "scripts" / "migrate_placeholders.py"

BY_HAND = [
    ("<!-- grpo:value easy.mean -->", "<!-- grpo:value easy.mean -->"),
    ("<!-- grpo:value easy.std.sample -->", "<!-- grpo:value easy.std-sample -->"),
    ("<!-- grpo:value easy.advantage.wrong.trl -->", "<!-- grpo:value easy.variants.trl.advantage.wrong -->"),
    ("<!-- grpo:value hard.count.correct as=words -->", "<!-- grpo:value hard.count.correct as=words -->"),
    (
        "<!-- grpo:formula easy.advantage.wrong.rloo display -->",
        "<!-- grpo:formula easy.leave-one-out.wrong.advantage display -->",
    ),
    (
        "<!-- grpo:formula split.rloo-identity.correct -->",
        "<!-- grpo:formula split.leave-one-out.correct.from-dr-grpo -->",
    ),
    ("<!-- grpo:check easy wrong-is-rare -->", "<!-- grpo:check easy.claims.wrong-is-rare -->"),
    ("<!-- grpo:value bandit.gradient.best -->", "<!-- grpo:value bandit.best.gradient -->"),
    ("<!-- grpo:value bandit.own.none.2 -->", "<!-- grpo:value bandit.candidates.2.own.none -->"),
    ("<!-- grpo:value bandit.candidates as=words -->", "<!-- grpo:value bandit.K as=words -->"),
    ("<!-- grpo:value bandit.variance.expected -->", "<!-- grpo:value bandit.baselines.expected.variance -->"),
    ("<!-- grpo:check bandit below-average.2 -->", "<!-- grpo:check bandit.candidates.2.below-average -->"),
    ("<!-- grpo:check bandit best-is-unique -->", "<!-- grpo:check bandit.claims.best-is-unique -->"),
    ("<!-- grpo:value run.final.reward.grpo -->", "<!-- grpo:value run.methods.grpo.final-reward -->"),
    ("<!-- grpo:value run.sweep.median.critic -->", "<!-- grpo:value run.methods.critic.sweep.median -->"),
    ("<!-- grpo:value run.all-equal.first.grpo -->", "<!-- grpo:value run.methods.grpo.all-equal-first -->"),
    ("<!-- grpo:value practice.kl.k3 -->", "<!-- grpo:value practice.kl.worked.k3 -->"),
    ("<!-- grpo:formula practice.kl.k3 display -->", "<!-- grpo:formula practice.kl.worked.k3 display -->"),
    (
        "<!-- grpo:value practice.loss.token-level.total.wrong -->",
        "<!-- grpo:value practice.loss.aggregations.token-level.whole.wrong -->",
    ),
    ("<!-- grpo:value practice.clip.symmetric -->", "<!-- grpo:value practice.clip.symmetric.value -->"),
    ("<!-- grpo:value ppo.case.positive-above.objective -->", "<!-- grpo:value ppo.cases.positive-above.objective -->"),
    ("<!-- grpo:value ppo.gae.delta.2 -->", "<!-- grpo:value ppo.gae.tokens.2.delta -->"),
    ("<!-- grpo:value ppo.gae.tokens as=words -->", "<!-- grpo:value ppo.gae.T as=words -->"),
    (
        "<!-- grpo:formula ppo.clip.negative-above display -->",
        "<!-- grpo:formula ppo.cases.negative-above.objective display -->",
    ),
    ("<!-- grpo:check ppo binds.positive-above -->", "<!-- grpo:check ppo.cases.positive-above.binds -->"),
    ("<!-- grpo:check ppo gae.raises.2 -->", "<!-- grpo:check ppo.gae.tokens.2.raises -->"),
    ("<!-- grpo:block compare easy hard -->", "<!-- grpo:block compare easy hard -->"),
    ("<!-- grpo:block kl-estimators -->", "<!-- grpo:block kl-estimators practice.kl -->"),
    ("<!-- grpo:block ppo-gae -->", "<!-- grpo:block ppo-gae ppo.gae -->"),
    ("<!-- grpo:widget easy hard -->", "<!-- grpo:widget group easy hard -->"),
    ("<!-- grpo:widget ppo.clip -->", "<!-- grpo:widget clip ppo -->"),
    ("<!-- grpo:widget practice.kl -->", "<!-- grpo:widget kl practice.kl -->"),
]


@pytest.mark.parametrize(("old", "new"), BY_HAND, ids=[old for old, _ in BY_HAND])
def test_an_old_placeholder_becomes_its_path(old: str, new: str) -> None:
    text, count = migrate_text(f"Before {old} after.", "docs/x.md")
    assert text == f"Before {new} after."
    assert count == (old != new)


@pytest.mark.parametrize(
    "new", [new for _, new in BY_HAND if " grpo:value " in new or " grpo:formula " in new or " grpo:check " in new]
)
def test_each_migrated_path_names_a_node_of_the_book(new: str) -> None:
    path = new.split()[2]
    resolve(checks.book().subjects, path)


def test_placeholders_in_code_are_migrated_too_and_templates_are_left_alone() -> None:
    source = "\n".join(
        [
            "Write `<!-- grpo:value easy.std.sample -->` in a sentence.",  # in code: the guide documents it
            "A placeholder is `<!-- grpo:kind arguments -->`.",
            "A widget: `<!-- grpo:widget <name> -->`, a value: `<!-- grpo:value ... -->`.",
            "<!-- grpo: -->",
            "<!-- a comment, grpo:value easy.std.sample -->",
        ]
    )
    text, count = migrate_text(source, "docs/guide/x.md")
    assert text.splitlines()[0] == "Write `<!-- grpo:value easy.std-sample -->` in a sentence."
    assert text.splitlines()[1:] == source.splitlines()[1:]
    assert count == 1


def test_the_spacing_inside_a_placeholder_is_kept() -> None:
    assert migrate_text("<!--grpo:value easy.std.sample-->", "x")[0] == "<!--grpo:value easy.std-sample-->"
    assert migrate_text("<!--  grpo:check easy binary  -->", "x")[0] == "<!--  grpo:check easy.claims.binary  -->"


def _run(folder: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(SCRIPT), str(folder)], capture_output=True, text=True, check=False, timeout=60
    )


@pytest.mark.parametrize(
    ("line", "complaint"),
    [
        ("<!-- grpo:value nowhere.mean -->", "no rules for the namespace 'nowhere'"),
        ("<!-- grpo:formula ppo.clip.sideways display -->", "no rule for the formula 'clip.sideways'"),
        ("<!-- grpo:check verifier all-good -->", "no rules for the claims of 'verifier'"),
    ],
)
def test_an_unknown_name_stops_it_with_the_file_and_line(tmp_path: Path, line: str, complaint: str) -> None:
    page = tmp_path / "docs" / "chapter.md"
    page.parent.mkdir()
    source = f"# A chapter\n\nIts mean: <!-- grpo:value easy.std.sample -->.\n\n{line}\n"
    page.write_text(source, encoding="utf-8")
    result = _run(tmp_path / "docs")
    assert result.returncode == 1
    assert result.stderr.strip() == f"{page.as_posix()}:5: {complaint}: {line}"
    assert page.read_text(encoding="utf-8") == source  # nothing of the page is half-migrated


def test_an_unknown_name_on_one_page_leaves_every_page_as_it_was(tmp_path: Path) -> None:
    # a.md migrates and comes first (the script goes through the pages in sorted order); b.md stops it. Every
    # page migrates or none does: a folder half in the old names and half in the new would build neither way.
    fine = "<!-- grpo:value easy.std.sample -->\n"
    stops = "<!-- grpo:value nowhere.mean -->\n"
    (tmp_path / "a.md").write_text(fine, encoding="utf-8")
    (tmp_path / "b.md").write_text(stops, encoding="utf-8")
    result = _run(tmp_path)
    assert result.returncode == 1
    assert (
        result.stderr.strip()
        == f"{(tmp_path / 'b.md').as_posix()}:1: no rules for the namespace 'nowhere': {stops.strip()}"
    )
    assert (tmp_path / "a.md").read_text(encoding="utf-8") == fine
    assert (tmp_path / "b.md").read_text(encoding="utf-8") == stops
    assert result.stdout == ""


def test_the_script_rewrites_a_folder_in_place_and_counts(tmp_path: Path) -> None:
    (tmp_path / "guide").mkdir()
    (tmp_path / "a.md").write_text("<!-- grpo:value easy.std.sample --> <!-- grpo:value easy.mean -->\n")
    (tmp_path / "guide" / "b.md").write_text("<!-- grpo:check hard right-is-rare -->\n")
    result = _run(tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "2 placeholders rewritten"
    assert (tmp_path / "a.md").read_text() == "<!-- grpo:value easy.std-sample --> <!-- grpo:value easy.mean -->\n"
    assert (tmp_path / "guide" / "b.md").read_text() == "<!-- grpo:check hard.claims.right-is-rare -->\n"


def _git(*arguments: str) -> str:
    result = subprocess.run(["git", *arguments], cwd=ROOT, capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr
    return result.stdout


# The chapters of the old commit (not the guide, which may be edited by hand since).
OLD_CHAPTERS = [
    name
    for name in _git("ls-tree", "--name-only", OLD_COMMIT, "docs/").split()
    if name.endswith(".md") and name.count("/") == 1
]


def test_the_old_commit_has_the_chapters() -> None:
    assert {"docs/grpo.md", "docs/ppo.md", "docs/policy-gradients.md", "docs/grpo-in-practice.md"} <= set(OLD_CHAPTERS)


@pytest.mark.parametrize("page", OLD_CHAPTERS)
def test_the_script_alone_made_each_chapter_of_the_migration(page: str) -> None:
    # This proves that no placeholder of a chapter was migrated by hand: the script's output is the whole page.
    old = _git("show", f"{OLD_COMMIT}:{page}")
    migrated, _ = migrate_text(old, page)
    now = _git("show", f"{MIGRATION_COMMIT}:{page}")
    differing = [
        f"{page}:{number}: {a!r} != {b!r}"
        for number, (a, b) in enumerate(zip(migrated.splitlines(), now.splitlines(), strict=False), start=1)
        if a != b
    ]
    assert not differing, "\n".join(differing)
    assert migrated == now
