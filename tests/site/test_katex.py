"""The one-process KaTeX renderer: KaTeX's own output, its errors, its version, its cache on disk."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import markdown
import pytest

from hooks.site import katex as katex_module
from hooks.site.katex import RENDERER_SCRIPT, STYLESHEET, KatexError, KatexProcessError, KatexRenderer
from hooks.site.katex_cache import CACHE_FILE, FormulaCache, renderer_fingerprint
from tests.conftest import ROOT

KATEX = ROOT / "node_modules" / "katex"


@pytest.fixture(scope="module")
def renderer() -> KatexRenderer:
    return KatexRenderer(KATEX)


def test_version_is_the_pinned_one(renderer: KatexRenderer) -> None:
    assert renderer.version == json.loads((ROOT / "package.json").read_text())["dependencies"]["katex"]


def test_inline_and_display(renderer: KatexRenderer) -> None:
    inline = renderer.render(r"\frac{4}{5}", display=False)
    assert inline.startswith('<span class="katex">')
    assert "<mfrac>" in inline, "MathML is kept for screen readers"
    assert renderer.render(r"\frac{4}{5}", display=True).startswith('<span class="katex-display">')


def test_rejected_tex_raises_with_katex_message(renderer: KatexRenderer) -> None:
    with pytest.raises(KatexError, match="KaTeX parse error"):
        renderer.render(r"\frac{1}{", display=False)
    with pytest.raises(KatexError, match="Undefined control sequence"):
        renderer.render(r"\notacommand", display=False)
    assert renderer.render("x", display=False), "the process survives an error"


def test_missing_katex_says_what_to_run(tmp_path: object) -> None:
    with pytest.raises(KatexError, match="run `npm ci`"):
        KatexRenderer(ROOT / "no_such_folder" / "katex")


def katex_directly(formulas: list[tuple[str, bool]]) -> list[str]:
    """Each formula as KaTeX renders it when called on its own, with the book's options, in a fresh Node.js."""
    script = (
        "const katex = require(process.argv[1]);"
        "const formulas = JSON.parse(require('node:fs').readFileSync(0, 'utf8'));"
        "process.stdout.write(JSON.stringify(formulas.map(([tex, display]) => katex.renderToString(tex,"
        " {displayMode: display, throwOnError: true, strict: 'error', maxSize: 10, output: 'htmlAndMathml'}))));"
    )
    result = subprocess.run(
        ["node", "-e", script, str(KATEX)], input=json.dumps(formulas), capture_output=True, text=True, check=True
    )
    html: list[str] = json.loads(result.stdout)
    return html


FORMULAS = [(r"\hat{A}_i = \frac{r_i - \mu}{\sigma}", False), (r"\sum_{i=1}^{G} r_i", True), ("x", False)]


def test_output_is_byte_identical_to_katex(renderer: KatexRenderer) -> None:
    assert [renderer.render(tex, display) for tex, display in FORMULAS] == katex_directly(FORMULAS)


def test_a_size_written_in_tex_is_at_most_ten_em(renderer: KatexRenderer) -> None:
    # KaTeX's default maxSize is Infinity: a \rule a million em wide made the page scroll sideways, on a phone too
    for tex in (r"\rule{1000000em}{1em}", r"a\hspace{500em}b", r"a\kern{80em}b"):
        html = re.sub(r"<annotation.*?</annotation>", "", renderer.render(tex, display=False))  # the TeX as written
        sizes = [float(size) for size in re.findall(r"(-?[\d.]+)em", html)]
        assert sizes and max(sizes) <= 10, (tex, html)
    assert "border-right-width:2em" in renderer.render(r"\rule{2em}{1em}", display=False)  # a size under it stays


def test_disk_cache_serves_katex_html_without_starting_katex(tmp_path: Path) -> None:
    first = KatexRenderer(KATEX, tmp_path)
    rendered = [first.render(tex, display) for tex, display in FORMULAS]
    first.close()  # saves the cache
    assert first.rendered == len(FORMULAS)

    second = KatexRenderer(KATEX, tmp_path)  # a new build process
    assert [second.render(tex, display) for tex, display in FORMULAS] == rendered == katex_directly(FORMULAS)
    assert second.rendered == 0, "every formula came from the disk cache"
    assert second._process is None, "no KaTeX process was started"


def test_disk_cache_keys_on_display_mode(tmp_path: Path) -> None:
    first = KatexRenderer(KATEX, tmp_path)
    first.render("x", display=False)
    first.close()
    second = KatexRenderer(KATEX, tmp_path)
    assert second.render("x", display=True).startswith('<span class="katex-display">')
    assert second.rendered == 1


def test_disk_cache_from_another_katex_version_is_ignored(tmp_path: Path) -> None:
    renderer = KatexRenderer(KATEX, tmp_path)
    stale = FormulaCache(tmp_path, "0.15.1", renderer_fingerprint(RENDERER_SCRIPT))
    stale.put("x", False, "<span>HTML of an older KaTeX</span>")
    stale.save()
    fresh = KatexRenderer(KATEX, tmp_path)
    assert fresh.render("x", display=False) == katex_directly([("x", False)])[0]
    assert fresh.rendered == 1
    fresh.close()
    assert json.loads((tmp_path / CACHE_FILE).read_text())["katex"] == renderer.version, "replaced at the next save"


def test_disk_cache_from_other_renderer_options_is_ignored(tmp_path: Path) -> None:
    version = KatexRenderer(KATEX).version
    other_options = FormulaCache(tmp_path, version, "a-different-script")
    other_options.put("x", False, "<span>HTML rendered with other options</span>")
    other_options.save()
    assert KatexRenderer(KATEX, tmp_path).render("x", display=False) == katex_directly([("x", False)])[0]


def test_damaged_disk_cache_is_rendered_again(tmp_path: Path) -> None:
    (tmp_path / CACHE_FILE).write_text('{"katex": "0.19', encoding="utf-8")
    assert KatexRenderer(KATEX, tmp_path).render("x", display=False) == katex_directly([("x", False)])[0]


def test_rejected_formula_is_never_cached(tmp_path: Path) -> None:
    first = KatexRenderer(KATEX, tmp_path)
    with pytest.raises(KatexError):
        first.render(r"\frac{1}{", display=False)
    first.close()
    with pytest.raises(KatexError, match="KaTeX parse error"):
        KatexRenderer(KATEX, tmp_path).render(r"\frac{1}{", display=False)


def _fake_katex(folder: Path, script: str) -> Path:
    """A KaTeX package whose katex.js is the given script (its stylesheet and fonts copied from the real one)."""
    fake = folder / "katex"
    (fake / "dist").mkdir(parents=True)
    shutil.copy2(KATEX / "package.json", fake / "package.json")
    shutil.copy2(KATEX / "dist" / STYLESHEET, fake / "dist" / STYLESHEET)
    (fake / "dist" / "fonts").mkdir()
    (fake / "dist" / "katex.js").write_text(script, encoding="utf-8")
    return fake


@pytest.mark.parametrize(
    ("script", "said"),
    [
        ("throw new Error('a broken install')\n", "it ended (exit code 1)"),
        ("while (true) {}\n", "it gave no answer in 1 s and was stopped"),
        ("process.stdout.write('not json\\n'); setInterval(() => {}, 1000);\n", "it answered 'not json'"),
    ],
    ids=["crashes", "hangs", "babbles"],
)
def test_a_failing_katex_process_is_blamed_not_the_formula(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, script: str, said: str
) -> None:
    monkeypatch.setattr(katex_module, "ANSWER_SECONDS", 1)
    renderer = KatexRenderer(_fake_katex(tmp_path, script), None)
    with pytest.raises(KatexProcessError) as caught:
        renderer.render("x", display=False)
    assert said in str(caught.value)
    assert "This is not a problem of a formula" in str(caught.value)
    renderer.close()


def _page(renderer: KatexRenderer, text: str) -> str:
    return str(markdown.Markdown(extensions=[katex_module.KatexMath(renderer)]).convert(text))


def test_a_formula_is_held_with_the_text_it_touches(renderer: KatexRenderer) -> None:
    """No space between a formula and a parenthesis, a comma or a suffix: one span, which book.css keeps on one
    line; a formula with spaces (or a tag) on both sides is left as it is."""
    x, y = renderer.render("x", display=False), renderer.render("y", display=False)
    glued = '<span class="grpo-glued">{}</span>'.format
    assert _page(renderer, "as a baseline ($`x`$): the mean") == f"<p>as a baseline {glued(f'({x}):')} the mean</p>"
    assert _page(renderer, "the $`x`$-th and $`x`$, then") == f"<p>the {glued(f'{x}-th')} and {glued(f'{x},')} then</p>"
    assert _page(renderer, "pairs $`x`$,$`y`$ here") == f"<p>pairs {glued(f'{x},{y}')} here</p>"
    assert _page(renderer, "a $`x`$ b") == f"<p>a {x} b</p>"
    assert _page(renderer, "**$`x`$**, b") == f"<p><strong>{x}</strong>, b</p>"


# A page with a word of a million letters and a formula after it, converted in a process of its own.
LONG_WORD = """
import markdown
from pathlib import Path
from hooks.site.katex import KatexMath, KatexRenderer
book = markdown.Markdown(extensions=[KatexMath(KatexRenderer(Path(KATEX)))])
page = book.convert("w" * 1_000_000 + " and $`x`$, then")
print(page.count('class="grpo-glued"'), len(page) > 1_000_000)
"""


def test_a_long_word_beside_a_formula_does_not_hang_the_build() -> None:
    """Each formula's neighbours are found once, by splitting the page at spaces and tags: a first version's
    regular expression went back over a long word for each of its characters (a page of five words of 20,000
    letters took 3.8 s; this one, hours). A chapter must not be able to hang the build."""
    script = f"KATEX = {str(KATEX)!r}" + LONG_WORD
    result = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=120, check=False
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["1", "True"]
