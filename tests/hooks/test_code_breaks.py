"""Where a long name in inline code may wrap (hooks/site/code_breaks.py): expected strings written by hand."""

from __future__ import annotations

import pytest

from hooks.site.code_breaks import LONG, breakable


@pytest.mark.parametrize(
    ("html", "expected"),
    [
        # a long path parts after each dot, before the next name
        (
            "<code>practice.clip.symmetric.advantage</code>",
            "<code>practice.<wbr>clip.<wbr>symmetric.<wbr>advantage</code>",
        ),
        # slashes and underscores too; the dot of a suffix as well
        (
            "<code>tests/browser/test_widget_browser.py</code>",
            "<code>tests/<wbr>browser/<wbr>test_<wbr>widget_<wbr>browser.<wbr>py</code>",
        ),
        # an escaped angle bracket or quote starts a name; a bracket opens one
        (
            "<code>easy.variants.&lt;key&gt;.advantage</code>",
            "<code>easy.<wbr>variants.<wbr>&lt;key&gt;.<wbr>advantage</code>",
        ),
        (
            "<code>grpo_examples.chapter(&#x27;ppo&#x27;).cases</code>",
            "<code>grpo_<wbr>examples.<wbr>chapter(<wbr>&#x27;ppo&#x27;).<wbr>cases</code>",
        ),
        # a number keeps its point, "__init__" and "../" stay whole
        ("<code>0.5 + 0.25 + 0.125 + 0.0625 + 0.03125</code>", "<code>0.5 + 0.25 + 0.125 + 0.0625 + 0.03125</code>"),
        ("<code>../../grpo_examples/__init__.py</code>", "<code>../../grpo_<wbr>examples/__init__.py</code>"),
        # a short name fits any line: it moves whole
        ("<code>grpo_examples.group</code>", "<code>grpo_examples.group</code>"),
        # a code block scrolls: left as it is
        (
            "<pre><code>practice.clip.symmetric.advantage</code></pre>",
            "<pre><code>practice.clip.symmetric.advantage</code></pre>",
        ),
        # a tag inside the code is passed by; its attributes are not text
        (
            '<code><span class="n">practice.clip.symmetric.advantage</span></code>',
            '<code><span class="n">practice.<wbr>clip.<wbr>symmetric.<wbr>advantage</span></code>',
        ),
    ],
)
def test_break_points(html: str, expected: str) -> None:
    assert breakable(html) == expected


def test_a_name_just_shorter_than_long_has_none() -> None:
    name = "a.b" + "c" * (LONG - 4)  # LONG - 1 characters
    assert breakable(f"<code>{name}</code>") == f"<code>{name}</code>"
    assert breakable(f"<code>{name}d</code>") == f"<code>a.<wbr>b{'c' * (LONG - 4)}d</code>"
