"""Every link to a place on a page names an id that page holds (hooks/site/anchors.py).

The ids and links are as MkDocs records them for each page (present_anchor_ids, links_to_anchors); the closest ids
offered were worked out by hand from difflib's ratio (the-ideas against the-idea: 2 * 8 / 17 = 0.94).
"""

from __future__ import annotations

from hooks.site.anchors import Linked, missing_anchors

GRPO = frozenset({"the-idea", "the-definition", "three-ideas-in-one-formula", "sources"})


def test_a_link_to_an_id_the_page_holds_passes() -> None:
    pages = [
        Linked("grpo.md", GRPO, {"grpo.md": {"sources": "#sources"}}),
        Linked("ppo.md", frozenset({"gae"}), {"grpo.md": {"the-idea": "grpo.md#the-idea"}}),
    ]
    assert missing_anchors(pages) == []


def test_a_link_to_an_id_its_page_lacks_is_reported_with_the_closest() -> None:
    pages = [
        Linked("grpo.md", GRPO, {"grpo.md": {"sorces": "#sorces"}}),
        Linked("ppo.md", frozenset({"gae"}), {"grpo.md": {"the-ideas": "grpo.md#the-ideas", "the-idea": "grpo.md"}}),
    ]
    found = [(missing.source, missing.link, missing.message) for missing in missing_anchors(pages)]
    assert [(source, link) for source, link, _ in found] == [("grpo.md", "#sorces"), ("ppo.md", "grpo.md#the-ideas")]
    assert found[0][2].startswith("there is no #sorces on this page")
    assert found[0][2].endswith("link to one of its ids: #sources")
    assert found[1][2].startswith("there is no #the-ideas on the page of grpo.md")
    assert "#the-idea, " in found[1][2]  # the closest first


def test_with_nothing_close_the_fix_says_how_ids_are_made() -> None:
    [missing] = missing_anchors([Linked("ppo.md", frozenset({"gae"}), {"ppo.md": {"zzz": "#zzz"}})])
    assert missing.message.endswith("a heading's id is its words in lower case, joined by '-'")


def test_a_page_not_in_the_list_is_not_judged() -> None:
    # a page built as a stand-in for its problems holds none of its ids: links to it wait until it is fixed
    assert missing_anchors([Linked("ppo.md", frozenset(), {"grpo.md": {"nowhere": "grpo.md#nowhere"}})]) == []
