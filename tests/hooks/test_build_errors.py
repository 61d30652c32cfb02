"""A bad edit stops the page hook (so `mkdocs build`) with the page, the line and the offending text.

The same slips through a real `mkdocs build` of an edited copy of the book are tests/site's; here the hook is
called as the build calls it (tests/chapter_pipeline.py), with the book's KaTeX.
"""

from __future__ import annotations

import pytest

from tests.chapter_pipeline import PluginError, page_markdown, problems


def _refusal(text: str, source: str | None = None) -> str:
    with pytest.raises(PluginError) as caught:
        page_markdown(text, source=source)
    message = str(caught.value)
    assert "Traceback" not in message
    return message


def test_unknown_group() -> None:
    message = _refusal("# Scratch\n\nThe mean is <!-- grpo:value eazy.mean -->.\n")
    assert message.startswith("docs/fuzz.md:3: unknown name 'eazy': a path starts with one of easy, hard,")
    assert message.splitlines()[0].endswith("; did you mean 'easy'?")
    assert message.splitlines()[1] == "    <!-- grpo:value eazy.mean -->"


def test_malformed_display_formula_names_its_opening_line_and_its_tex() -> None:
    message = _refusal("# Scratch\n\nText.\n\n```math\n\\frac{1}{\n```\n")
    assert message.startswith("docs/fuzz.md:5: KaTeX cannot render this formula")
    assert message.splitlines()[1] == "    \\frac{1}{"


def test_malformed_inline_formula() -> None:
    message = _refusal("# Scratch\n\nA broken $`\\sqrt{2`$ formula.\n")
    assert message.startswith("docs/fuzz.md:3: KaTeX cannot render this formula")


def test_a_filled_in_formula_is_rendered_too() -> None:
    # the formula a placeholder writes goes through KaTeX like a typed one: a good one passes
    assert page_markdown("<!-- grpo:formula easy.mean display -->").startswith("```math\n")


def test_unclosed_placeholder() -> None:
    assert _refusal("# Scratch\n\n\nThe mean is <!-- grpo:value easy.mean\n").startswith(
        "docs/fuzz.md:4: unclosed placeholder"
    )


def test_unclosed_math_block_and_formula() -> None:
    assert _refusal("# Scratch\n\n```math\n\\frac{a}{b}\n").startswith(
        "docs/fuzz.md:3: unclosed math block: end it with a line holding only ```"
    )
    assert _refusal("Half a formula: x^{a}`$ here.").startswith(
        "docs/fuzz.md:1: unclosed formula: write $`...`$, both ends on one line"
    )


def test_line_numbers_count_the_front_matter() -> None:
    source = "---\ntitle: Scratch\ndescription: A page with front matter.\n---\n\n# Scratch\n\n$`\\frac{1}{`$\n"
    message = _refusal(source.split("---\n", 2)[2], source=source)
    assert message.startswith("docs/fuzz.md:8: KaTeX cannot render this formula")


def test_a_malformed_formula_fails_every_time_it_is_rendered() -> None:
    # the renderer keeps what it rendered (hooks/site/katex_cache.py): an error is never kept as a success
    for _ in range(2):
        [(line, message)] = problems(PluginError(_refusal("A broken $`\\frac{1}{`$ formula.")))
        assert line == 1 and message.startswith("KaTeX cannot render this formula")
