"""Hostile and broken chapter text: the build succeeds or stops with the page and the line, never anything else.

Hypothesis writes chapters out of the pieces an author types (prose, placeholders valid and mangled, inline and
display math, code, HTML) and runs each through the page hook and the Markdown of the real build
(tests/chapter_pipeline.py). Whatever it writes, the hook either returns a page whose HTML holds no
placeholder and no unrendered formula, or raises the build's error naming docs/fuzz.md and a line of it. A
few real `mkdocs build`s confirm the same at full size.
"""

from __future__ import annotations

import functools
import http.server
import re
import threading
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from playwright.sync_api import Browser
from pymdownx.snippets import SnippetMissingError  # type: ignore[import-untyped]

import grpo_examples as gx
from hooks.namespaces import Namespace
from hooks.placeholders import KINDS, PlaceholderError, parse
from hooks.quantities import Quantity
from hooks.registry import BLOCKS, FORMULAS, NAMESPACES, QUANTITIES
from tests.chapter_pipeline import PluginError, error_line, markdown_converter, page_html
from tests.conftest import add_pages, copy_project, mkdocs_build

EXAMPLES = list(gx.load_examples())
SUBJECTS = EXAMPLES + list(NAMESPACES)

# Placeholders an author could write, right...
_names = st.sampled_from(SUBJECTS).flatmap(
    lambda subject: st.sampled_from(
        [*QUANTITIES, *FORMULAS]
        if subject in EXAMPLES
        else [*NAMESPACES[subject].values, *NAMESPACES[subject].formulas] or ["x"]
    ).map(lambda item: f"{subject}.{item}")
)
_good_placeholder = st.one_of(
    _names.map(lambda name: f"<!-- grpo:value {name} -->"),
    _names.map(lambda name: f"<!-- grpo:value {name} as=words -->"),
    _names.map(lambda name: f"<!-- grpo:formula {name} -->"),
    _names.map(lambda name: f"<!-- grpo:formula {name} display -->"),
    st.tuples(st.sampled_from(list(BLOCKS)), st.lists(st.sampled_from(EXAMPLES), max_size=3)).map(
        lambda b: f"<!-- grpo:block {b[0]} {' '.join(b[1])} -->"
    ),
    st.tuples(st.sampled_from(SUBJECTS), st.sampled_from(["binary", "wrong-is-rare", "grpo-all-equal-rises"])).map(
        lambda c: f"<!-- grpo:check {c[0]} {c[1]} -->"
    ),
    st.lists(st.sampled_from(EXAMPLES), max_size=2).map(lambda e: f"<!-- grpo:widget {' '.join(e)} -->"),
)


# ...and wrong: a character dropped, doubled or swapped in, anywhere.
@st.composite
def _mangled(draw: st.DrawFn) -> str:
    text: str = draw(_good_placeholder)
    at = draw(st.integers(0, len(text) - 1))
    edit = draw(st.sampled_from(["drop", "double", "swap"]))
    swapped: str = draw(st.sampled_from(list("<>-!`$ .=:\"'&{}\\|")))
    if edit == "drop":
        return text[:at] + text[at + 1 :]
    if edit == "double":
        return text[:at] + text[at] + text[at:]
    return text[:at] + swapped + text[at + 1 :]


_words = st.text(alphabet="abcdefghij klmnopqrstuvwxyz,;.!?()'\"", max_size=30)
_markup = st.sampled_from(
    [
        "<!--", "-->", "grpo:", "<!-- grpo:", "<!--grpo:value easy.mean-->", "<!-- Grpo:value easy.mean -->",
        "`", "``", "$`", "`$", "$`x^{a}`$", "$`\\frac{a}{b}`$", "$`\\frac{a}{`$", "$`\\unknowncommand`$",
        "$``a`b``$", "$", "\\", "{", "}", "|", "| a | b |", "*", "_", "[^n]", "[link](#nowhere)",
        "<script>alert(1)</script>", '<img src=x onerror="alert(1)">', "&amp;", "&", "<", ">", "<div>", "</div>",
        "{{ config.site_name }}", "{% raw %}", "    ", "\t", "# ", "## ", "- ", "> ", "!!! note", "???+ note",
        "<!-- literal: a reason -->",
    ]
)  # fmt: skip
_fence = st.sampled_from(["```", "```math", "```python", "~~~", "````"])
_line = st.lists(st.one_of(_words, _markup, _good_placeholder, _mangled()), max_size=6).map("".join)
_tex = st.sampled_from(["x^2", "\\frac{a}{b}", "\\mu = \\sigma", "\\frac{a}{", "\\unknowncommand", "a_{i,t}", ""])
# A fenced block as authors write it (opened, some lines, closed), and a fence on its own (left open).
_block = st.tuples(_fence, st.lists(st.one_of(_line, _tex), max_size=3)).map(
    lambda b: "\n".join([b[0], *b[1], b[0].rstrip("mathpyon")])
)
_chapter = st.lists(st.one_of(_line, _line, _block, _fence, st.just("")), min_size=1, max_size=14).map("\n".join)

# What must never reach a reader: a placeholder, a formula's delimiters, markdown-katex's markers.
_LEFT_OVER = re.compile(r"<!--\s*grpo|\$`|`\$|```math|tmp_(?:inline|block)_md_katex", re.IGNORECASE)
_NOT_PROSE = re.compile(
    r"<(code|pre|script)\b.*?</\1>|<annotation\b.*?</annotation>|<!--\s*literal:.*?-->", re.DOTALL | re.IGNORECASE
)


def _check(text: str) -> None:
    """The property: a page whose HTML holds nothing left over, or the build's located error."""
    try:
        html = page_html(text)
    except PluginError as error:
        line = error_line(error)
        assert 1 <= line <= text.count("\n") + 1, f"line {line} is not in the page: {error}"
        return
    prose = _NOT_PROSE.sub(" ", html)
    left = _LEFT_OVER.search(prose)
    assert left is None, f"left in the HTML: {prose[max(0, left.start() - 80) : left.end() + 80]!r}"
    values = re.findall(r'<span class="grpo-value"[^>]*>(.*?)</span>', html)
    assert not any(re.search(r"\b(nan|inf)\b", v, re.IGNORECASE) for v in values), values


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_chapter)
@example("The mean is <!-- grpo:value easy.mean -->.\n\n<!-- grpo:formula easy.std display -->")
@example("```math\n<!-- grpo:value easy.mean -->\n```")
@example("A formula $`\\frac{a}{`$ that KaTeX rejects.")
@example("<!-- grpo:value easy.mean")
@example("Ends in an inline formula with no closing dollar: $`x`")  # markdown-katex's IndexError
@example("```math\n\\frac{a}{b}")  # a math block never closed: raw TeX on the page
@example("Half a formula: x^{a}`$ here.")
@example("<!-- GRPO:value easy.mean -->")  # a misspelt placeholder must not vanish as a comment
@example("<!-- grpoo:value easy.mean -->")
def test_any_chapter_builds_or_stops_with_its_page_and_line(text: str) -> None:
    _check(text)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=80))
def test_the_parser_accepts_or_refuses_any_text_with_a_reason(body: str) -> None:
    try:
        placeholder = parse(f"<!-- grpo:{body} -->")
    except PlaceholderError as error:
        assert str(error)
        return
    assert placeholder.kind and " " not in placeholder.kind


@settings(max_examples=200, deadline=None)
@given(
    st.sampled_from(list(KINDS)),
    st.text(alphabet=st.characters(codec="utf-8", exclude_categories=["Cs"]), min_size=1, max_size=40).filter(
        lambda s: any(c in s for c in "<>\"'&`/(")
    ),
)
def test_a_placeholder_cannot_carry_markup_or_code_into_the_page(kind: str, argument: str) -> None:
    # No registered name holds < > " ' & ` / or (: any argument that does is refused, never echoed or run.
    argument = argument.replace("-->", "").replace("\n", " ")
    with pytest.raises(PluginError) as refused:
        page_html(f"Text <!-- grpo:{kind} {argument} --> more.")
    assert error_line(refused.value) == 1


_ATTEMPTS = [
    "__class__",
    "easy.__class__",
    "easy.__dict__",
    "easy.mean.__class__.__init__",
    "__import__('os').system('touch${IFS}/tmp/grpo-book-pwned')",
    "eval(\"open('/tmp/grpo-book-pwned','w')\")",
    "os.system",
    "gx.load_examples",
    "run.__globals__",
    "easy.responses",
    "{{7*7}}",
]


@pytest.mark.parametrize("name", _ATTEMPTS)
@pytest.mark.parametrize("kind", ["value", "formula", "block", "check", "widget"])
def test_only_registered_names_resolve_nothing_is_evaluated(kind: str, name: str) -> None:
    marker = Path("/tmp/grpo-book-pwned")
    marker.unlink(missing_ok=True)
    source = f"<!-- grpo:{kind} {name} -->" if kind != "check" else f"<!-- grpo:check easy {name} -->"
    with pytest.raises(PluginError) as refused:
        page_html(source)
    assert error_line(refused.value) == 1
    assert "unknown" in str(refused.value) or "write" in str(refused.value) or "takes" in str(refused.value)
    assert not marker.exists()


HOSTILE_QUESTION = (
    'What is <b>1</b> & "2"? </script><script>window.pwned = 1</script><img src=x onerror="window.pwned = 2">'
)


@pytest.mark.slow
@pytest.mark.browser
def test_text_from_the_examples_is_shown_as_text_never_run(tmp_path: Path, browser: Browser) -> None:
    project = copy_project(tmp_path / "book")
    toml = project / "grpo_examples" / "examples.toml"
    question = HOSTILE_QUESTION.replace("\\", "\\\\").replace('"', '\\"')
    toml.write_text(
        toml.read_text(encoding="utf-8")
        + f'\n[hostile]\ntitle = "a hostile <i>title</i>"\nquestion = "{question}"\nanswer = "1"\n'
        + 'responses = ["\\\\boxed{1}", "\\\\boxed{2} <script>window.pwned = 3</script>"]\n',
        encoding="utf-8",
    )
    source = (
        "---\ndescription: A page whose example's text is hostile, to see it shown and never run.\n---\n\n"
        "# Hostile\n\nThe question: <!-- grpo:value hostile.question -->.\n\n"
        "<!-- grpo:block group-table hostile -->\n\n<!-- grpo:widget hostile -->\n\n"
        "Templates are not run: {{ 7 * 7 }} and {% if true %}yes{% endif %}.\n"
    )
    add_pages(project, {"hostile.md": source})
    site = tmp_path / "site"
    result = mkdocs_build(project, site)
    assert result.returncode == 0, result.stderr
    html = (site / "hostile" / "index.html").read_text(encoding="utf-8")
    assert "<script>window.pwned" not in html and "<img src=x" not in html
    assert "{{ 7 * 7 }}" in html and "{% if true %}" in html
    handler = functools.partial(_Quiet, directory=str(site))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    context = browser.new_context()
    page = context.new_page()
    dialogs: list[str] = []
    page.on("dialog", lambda dialog: dialogs.append(dialog.message))
    page.goto(f"http://127.0.0.1:{httpd.server_port}/hostile/")
    page.locator(".gw").first.wait_for()
    assert page.evaluate("() => window.pwned") is None and dialogs == []
    article = page.locator("article")
    assert HOSTILE_QUESTION in article.inner_text()  # shown as the text it is, in the prose and the widget
    injected = "() => [...document.querySelectorAll('article b')].some(b => b.textContent === '1')"
    assert page.locator("img[src='x']").count() == 0 and not page.evaluate(injected)
    assert page.locator(".gw-response").nth(1).inner_text().count("<script>window.pwned = 3</script>") == 1
    context.close()
    httpd.shutdown()


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.mark.slow
def test_a_snippet_cannot_pull_in_a_file_from_outside_the_book(tmp_path: Path) -> None:
    project = copy_project(tmp_path / "book")
    page = "---\ndescription: A page that tries to include a file from outside the project.\n---\n\n"
    add_pages(project, {"leak.md": page + '# Leak\n\n--8<-- "/etc/passwd"\n'})
    result = mkdocs_build(project, tmp_path / "site")
    assert result.returncode != 0 and "docs/leak.md:" in result.stderr
    assert "root:" not in result.stdout + result.stderr and "Traceback" not in result.stderr
    # Even past the hooks, pymdownx.snippets (restrict_base_path) refuses a path outside the project.
    with pytest.raises(SnippetMissingError, match="/etc/passwd"):
        markdown_converter().convert('--8<-- "/etc/passwd"\n')


def test_a_values_text_and_its_provenance_are_escaped(monkeypatch: pytest.MonkeyPatch) -> None:
    # A value's text and the call shown in its tooltip may come from an example's TOML: neither may close the
    # attribute or open a tag.
    hostile = Namespace(
        name="hostile",
        about="a test",
        defined_in="tests/test_hostile_input.py",
        values={"text": lambda: Quantity('<img src=x onerror="alert(1)">', 'f(x="1") onmouseover="alert(1)" <b>')},
    )
    monkeypatch.setitem(NAMESPACES, "hostile", hostile)
    html = page_html("Says <!-- grpo:value hostile.text --> here.")
    span = re.search(r'<span class="grpo-value" title="([^"]*)">(.*?)</span>', html)
    assert span is not None, html
    title, shown = span.groups()
    assert "&quot;" in title and "<" not in title and "onmouseover=" in title  # kept, as text inside the value
    assert "&lt;img" in shown
    assert "<img" not in html and "<b>" not in html
