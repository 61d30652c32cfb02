"""hooks/site/incremental.py's decisions, on records made by hand (the whole path through `mkdocs serve` is
tests/site/test_incremental.py)."""

from __future__ import annotations

from pathlib import Path

from hooks.site.incremental import Candidate, PageRecord, State, plan, search_entries


def _state(**pages: frozenset[str]) -> State:
    records = {
        f"{name}.md": PageRecord(f"text of {name}", read, read, f"expanded {name}") for name, read in pages.items()
    }
    return State(world="w", code="c", data="d", subjects={"easy": "1", "ppo": "2"}, pages=records, whole=True)


def _pages(*names: str, edited: str = "") -> list[Candidate]:
    return [
        Candidate(f"{n}.md", f"text of {n}" + ("!" if n == edited else ""), Path(f"/site/{n}/index.html"))
        for n in names
    ]


def _plan(state: State, pages: list[Candidate], *, world: str = "w", code: str = "c", data: str = "d", **kw: object):  # type: ignore[no-untyped-def]
    options = {
        "subjects": lambda: {"easy": "1", "ppo": "2"},
        "expands_as": lambda uri, record: False,
        "guard_clear": lambda uri, record: True,
        **kw,
    }
    return plan(state, pages, world=world, code=code, data=data, **options)  # type: ignore[arg-type]


def test_a_chapter_edit_rebuilds_that_page_alone() -> None:
    state = _state(grpo=frozenset({"easy"}), ppo=frozenset({"ppo"}), glossary=frozenset())
    result = _plan(state, _pages("grpo", "ppo", "glossary", edited="glossary"))
    assert not result.everything and result.rebuilt == {"glossary.md"}


def test_anything_that_can_change_every_page_rebuilds_every_page() -> None:
    pages = _pages("grpo", "ppo")
    assert _plan(_state(grpo=frozenset(), ppo=frozenset()), pages, world="other").everything
    assert _plan(_state(grpo=frozenset()), pages).everything  # a page more than last time
    problems = _state(grpo=frozenset(), ppo=frozenset())
    problems.whole = False  # the last build had problems: every page showed them
    assert _plan(problems, pages).everything


def test_a_data_edit_rebuilds_the_pages_whose_models_changed_and_whose_text_differs() -> None:
    state = _state(grpo=frozenset({"easy"}), ppo=frozenset({"ppo"}), examples=frozenset({"easy", "ppo"}))
    asked = []

    def expands_as(uri: str, record: PageRecord) -> bool:
        asked.append(uri)
        return uri == "examples.md"  # its text came out the same

    result = _plan(
        state,
        _pages("grpo", "ppo", "examples"),
        data="d2",
        subjects=lambda: {"easy": "1", "ppo": "3"},
        expands_as=expands_as,
    )
    assert sorted(asked) == ["examples.md", "ppo.md"]  # not grpo.md: the easy group's model is as it was
    assert result.rebuilt == {"ppo.md"}


def test_after_a_data_edit_the_drift_guard_reads_every_kept_page_again() -> None:
    state = _state(grpo=frozenset({"easy"}), glossary=frozenset())
    result = _plan(state, _pages("grpo", "glossary"), data="d2", guard_clear=lambda uri, record: uri != "glossary.md")
    assert result.rebuilt == {"glossary.md"}
    assert _plan(state, _pages("grpo", "glossary"), guard_clear=lambda uri, record: False).rebuilt == set()


def test_a_code_edit_expands_every_page_that_reads_a_model() -> None:
    state = _state(grpo=frozenset({"easy"}), glossary=frozenset())
    asked: list[str] = []

    def expands_as(uri: str, record: PageRecord) -> bool:
        asked.append(uri)
        return True

    _plan(state, _pages("grpo", "glossary"), code="c2", expands_as=expands_as)
    assert asked == ["grpo.md", "glossary.md"]


def test_the_search_index_lists_every_page_in_the_order_of_the_pages() -> None:
    state = _state(a=frozenset(), b=frozenset(), c=frozenset())
    state.pages["a.md"].search = [{"location": "a/"}]
    state.pages["b.md"].search = [{"location": "b/"}, {"location": "b/#old"}]
    state.pages["c.md"].search = [{"location": "c/"}]
    fresh = [{"location": "b/"}, {"location": "b/#new"}]
    order = [("a.md", "a/"), ("b.md", "b/"), ("c.md", "c/")]
    entries = search_entries(order, fresh, {"b.md"}, state)
    assert [e["location"] for e in entries] == ["a/", "b/", "b/#new", "c/"]
