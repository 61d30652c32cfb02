"""The author's guide shows each placeholder's source beside its live result, and its guard example is real."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest

import grpo_examples as gx
from hooks import drift_guard
from hooks.placeholders import CLAIMS
from hooks.registry import BLOCKS, FORMULAS, NAMESPACES, QUANTITIES
from tests.conftest import ROOT

GUIDE = ROOT / "docs" / "guide"


def _cells(page: str) -> dict[str, str]:
    """For each row of the guide's 'you write | the page shows' tables: the source shown, and the HTML beside it."""
    rows = re.findall(r"<tr>\s*<td><code>(.*?)</code></td>\s*<td>(.*?)</td>\s*</tr>", page, flags=re.S)
    return {html.unescape(source): shown for source, shown in rows}


def test_each_value_in_the_guide_is_rendered_by_the_placeholder_it_shows(built_site: Path) -> None:
    cells = _cells((built_site / "guide" / "placeholders" / "index.html").read_text(encoding="utf-8"))
    # The easy group's rewards are [1, 1, 1, 1, 0] (spec): mean 4/5, std 0.4, advantages (1-0.8)/0.4 and
    # (0-0.8)/0.4; sample std sqrt(0.8 * 0.2 * 5 / 4) = sqrt(0.2) = 0.44721...; four correct, four times as hard.
    expected = {
        "<!-- grpo:value easy.mean -->": ">0.8<",
        "<!-- grpo:value easy.advantage.wrong -->": ">\u22122.0<",
        "<!-- grpo:value easy.advantage.correct -->": ">+0.5<",
        "<!-- grpo:value easy.std.sample -->": ">\u2248 0.4472<",
        "<!-- grpo:value easy.G -->": ">5<",
        "<!-- grpo:value easy.count.correct as=words -->": ">four<",
        "<!-- grpo:value easy.rare-to-common as=words -->": ">four times<",
    }
    for source, shown in expected.items():
        assert 'class="grpo-value"' in cells[source]
        assert shown in cells[source], source
    assert "katex" in cells["<!-- grpo:formula easy.mean -->"]


def test_the_guide_shows_the_placeholders_literally_and_expands_the_live_ones(built_site: Path) -> None:
    page = (built_site / "guide" / "placeholders" / "index.html").read_text(encoding="utf-8")
    assert "&lt;!-- grpo:block compare easy hard --&gt;" in page  # the source, in a code block
    assert "How these numbers were computed" in page  # the block it renders
    assert "<!-- grpo:" not in page  # no live placeholder left unexpanded
    assert 'class="katex-display"' in page


@pytest.mark.parametrize("name", ["index", "placeholders", "examples", "drift-guard"])
def test_every_guide_page_is_built_and_in_the_nav(built_site: Path, name: str) -> None:
    page = built_site / "guide" / ("" if name == "index" else name) / "index.html"
    assert page.is_file()
    assert "Writing the book" in page.read_text(encoding="utf-8")


def test_the_guard_example_in_the_guide_is_what_the_guard_says(built_site: Path) -> None:
    page = (built_site / "guide" / "drift-guard" / "index.html").read_text(encoding="utf-8")
    with pytest.raises(drift_guard.DriftError) as error:
        drift_guard.guard("The baseline is 0.8 for the group above.", "docs/example.md", first_line=12)
    message = str(error.value)
    # The spec's easy group has mean 4/5 = 0.8: the guard must name the placeholder that prints it.
    assert message.startswith(
        "docs/example.md:12:17: typed number 0.8 (decimal) is the easy problem's mean: "
        "write <!-- grpo:value easy.mean -->"
    )
    shown = html.unescape(re.sub(r"<[^>]+>", "", page))
    assert "The baseline is 0.8 for the group above." in shown and message in shown


def test_contributing_points_to_the_guide() -> None:
    contributing = (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")
    for page in ("index", "placeholders", "examples", "drift-guard"):
        assert f"docs/guide/{page}.md" in contributing


def _documented(page: str) -> set[str]:
    """The names a guide page writes as inline code (`name`), in its source."""
    return set(re.findall(r"`([^`\s]+)`", (GUIDE / page).read_text(encoding="utf-8")))


@pytest.mark.parametrize(
    ("registry", "page"),
    [(FORMULAS, "placeholders.md"), (BLOCKS, "placeholders.md"), (CLAIMS, "placeholders.md")],
    ids=["formulas", "blocks", "claims"],
)
def test_the_guide_lists_every_registered_name(registry: dict[str, object], page: str) -> None:
    missing = set(registry) - _documented(page)
    assert not missing, f"docs/guide/{page} does not list {sorted(missing)}: add them where the others are listed"


def test_the_guide_lists_every_quantity() -> None:
    documented = _documented("examples.md")
    conventions = "|".join(c.key for c in gx.CONVENTIONS.values())
    patterns = [
        re.escape(name).replace("<outcome>", "(correct|wrong)").replace("<convention>", f"({conventions})")
        for name in documented
    ]
    missing = [name for name in QUANTITIES if not any(re.fullmatch(p, name) for p in patterns)]
    assert not missing, f"docs/guide/examples.md does not list the quantities {missing}: add them to its table"


def test_the_guide_lists_every_namespace_and_its_names() -> None:
    documented = _documented("examples.md")
    # `final.reward.<method>` documents final.reward.grpo, final.reward.critic, ...
    patterns = [
        re.sub(r"<[a-z-]+>", "[a-z0-9-]+", re.escape(name).replace(r"\<", "<").replace(r"\>", ">"))
        for name in documented
    ]
    for namespace in NAMESPACES.values():
        assert namespace.name in documented, f"docs/guide/examples.md does not list the namespace {namespace.name!r}"
        names = [*namespace.values, *namespace.formulas]
        missing = [name for name in names if not any(re.fullmatch(p, name) for p in patterns)]
        assert not missing, f"docs/guide/examples.md does not list {namespace.name}'s names {missing}"
