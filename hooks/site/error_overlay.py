"""Under `mkdocs serve`, the book's problems on every page, over the page, until a save fixes them.

MkDocs' own server stops answering while a build fails (the open tab keeps the old numbers, and says
nothing), and does not start at all if the first build fails. So, when it serves the book, the build goes on
(hooks/events.py on_env): each page with a problem is built as a stand-in, its title and a line, and every
page carries this overlay, the report the terminal prints: file:line:column, the message with its fix, the
text as written, the places a data problem breaks. The server's live-reload script reloads the page after
the next save, and a build without problems has no overlay. `mkdocs build` never gets here: it stops with the
same report. The overlay has its own style (in the book's palette), so the published stylesheet has none of
it, and no script: its button closes it (a dialog's form).
"""

from __future__ import annotations

from hooks.engine.markdown import as_markdown, escape_html
from hooks.engine.report import Report, by_file, lines_of, shown, where

ID = "grpo-build-problems"

# Material's palette variables, so the overlay follows the reader's light or dark scheme; the red is
# Material's own for a failure admonition.
STYLE = f"""
#{ID} {{
  position: fixed; inset: 0; z-index: 10; width: auto; max-width: none; height: auto; max-height: none;
  margin: 0; padding: 1rem; border: 0; border-top: 0.3rem solid #ff5252; overflow: auto; box-sizing: border-box;
  background: var(--md-default-bg-color, #fff); color: var(--md-default-fg-color, #000);
  font: 0.8rem/1.5 var(--md-text-font-family, sans-serif);
}}
#{ID} > div {{ max-width: 50rem; margin: 0 auto; }}
#{ID} h2 {{ margin: 0 0 0.5em; font-size: 1.25em; color: inherit; }}
#{ID} ol {{ padding-left: 1.25em; }}
#{ID} li {{ margin: 0 0 1em; overflow-wrap: anywhere; }}
#{ID} code, #{ID} pre {{ font-family: var(--md-code-font-family, monospace); font-size: 0.85em; }}
#{ID} pre {{
  margin: 0.25em 0; padding: 0.5em; white-space: pre-wrap; overflow-wrap: anywhere;
  background: var(--md-code-bg-color, #f5f5f5); color: var(--md-code-fg-color, inherit);
}}
#{ID} .grpo-where {{ font-weight: 700; }}
#{ID} button {{
  font: inherit; padding: 0.4em 0.9em; border: 0.1rem solid currentcolor; border-radius: 0.2rem;
  background: transparent; color: inherit; cursor: pointer;
}}
"""


def overlay(report: Report) -> str:
    """The report as HTML: a dialog over the page, each problem with its place, message, text and breaks."""
    items = []
    for problem, breaks in report.problems():
        parts = [
            f'<span class="grpo-where"><code>{escape_html(where(problem))}</code></span>',
            f"<p>{escape_html(problem.message)}</p>",
        ]
        if lines := shown(problem):
            parts.append(f"<pre>{escape_html(chr(10).join(lines))}</pre>")
        if breaks:
            places = "".join(
                f"<li><code>{escape_html(file)}</code>: {lines_of(numbers)}</li>"
                for file, numbers in by_file(breaks).items()
            )
            parts.append(
                f"<p>This breaks {len(breaks)} place{'s' * (len(breaks) != 1)} of the book:</p><ul>{places}</ul>"
            )
        items.append(f"<li>{''.join(parts)}</li>")
    return (
        f'<dialog id="{ID}" open aria-labelledby="{ID}-title"><style>{STYLE}</style><div>'
        f'<h2 id="{ID}-title">The book has {escape_html(report.count())}</h2>'
        "<p>Fix them and save: this page reloads by itself. The terminal that runs <code>make serve</code> "
        "lists them too.</p>"
        f"<ol>{''.join(items)}</ol>"
        '<form method="dialog"><button>Hide until the next save</button></form>'
        "</div></dialog>"
    )


def inject(page_html: str, overlay_html: str) -> str:
    """The page with the overlay as the last element of its body."""
    end = page_html.rfind("</body>")
    return page_html + overlay_html if end < 0 else page_html[:end] + overlay_html + page_html[end:]


def stand_in(markdown: str) -> str:
    """What a page with problems is built as while they stand: its title, as written, and a line."""
    title = next((line[2:].strip() for line in markdown.splitlines() if line.startswith("# ")), "This page")
    return f"# {as_markdown(title)}\n\nThis page has problems, listed above; it is built again once they are fixed.\n"
