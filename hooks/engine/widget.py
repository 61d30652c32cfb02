"""Widgets: computed figures the reader can poke, each placed by one line, `<!-- grpo:widget <kind> <path>... -->`.

Every widget is the same <figure class="grpo-widget">, written by `figure()`. It holds three things. First
what a reader without JavaScript sees and what prints: Markdown computed at build time, and the note on how
it was computed. Then, in a <script type="application/json">, everything the widget's script needs to redraw
it interactively, numpy's own results among them, which the script checks its port of the formula against
on load; nothing the script uses is typed in it. Last, the caption. `data-widget-script` names the script,
which docs/assets/javascripts/widgets.js loads on the pages that hold such a figure, and only there.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from hooks.engine.markdown import Markdown, as_markdown


@dataclass(frozen=True)
class Widget:
    """One interactive figure: its kind, what shows without JavaScript, what its script reads, its caption.

    kind names the script, docs/assets/javascripts/<kind>-widget.js, and is the figure's data-widget-kind,
    which the script looks for.
    """

    kind: str
    static: Markdown  # tables or figures computed at build time
    data: dict[str, object]
    caption: Markdown  # one paragraph, for the drawn widget: it may speak of its controls
    static_caption: (
        Markdown  # the same for the tables alone: in print, without JavaScript, and on the whole book's page
    )

    @property
    def script(self) -> str:
        return f"{self.kind}-widget.js"


# Characters of a JSON text that the page's Markdown would act on before the browser sees the <script>: '<', '>'
# and '&' could end the element; '`' and '$' could make markdown-katex render "$`...`$" inside it (a preprocessor,
# it reads raw HTML too), which leaves invalid JSON and a widget that never starts.
_SCRIPT_ESCAPES = {ord(c): f"\\u{ord(c):04x}" for c in "<>&`$"}


def script_json(data: object) -> str:
    """JSON that reaches the widget's script as written: the characters above as \\u escapes (the same string
    to JSON.parse), and no line break (json.dumps escapes those inside strings)."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"), allow_nan=False)  # NaN is not JSON
    return text.translate(_SCRIPT_ESCAPES)


def figure(widget: Widget, note: str) -> str:
    """The widget as a page holds it: the static part and its note (Markdown, inside md_in_html), the JSON,
    the caption in two wordings, one for the drawn widget and one for its tables (hooks' CSS shows one).

    The JSON is an array of one object, not the object itself: Material's instant navigation (off in this
    book, see mkdocs.yml, but one line away) re-creates every <script> of the new page without its type and
    runs it, and an array is both JSON and a JS expression that does nothing, where an object would be a
    syntax error.
    """
    return "\n".join(
        [
            f'<figure class="grpo-widget" data-widget-kind="{widget.kind}" data-widget-script="{widget.script}" '
            'markdown="1">',
            '<div class="grpo-widget__static" markdown="1">',
            "",
            as_markdown(widget.static),
            "",
            note,
            "",
            "</div>",
            f'<script type="application/json" class="grpo-widget__data">{script_json([widget.data])}</script>',
            f'<figcaption markdown="span"><span class="grpo-interactive">{as_markdown(widget.caption)}</span>'
            f'<span class="grpo-static">{as_markdown(widget.static_caption)}</span></figcaption>',
            "</figure>",
        ]
    )
