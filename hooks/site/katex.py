"""Server-side KaTeX: markdown-katex's syntax, rendered by one KaTeX process kept for the whole build.

markdown-katex as published starts a new `katex` process for every formula and looks for that
command again each time (about 1 s per formula where Node.js is installed; measured in
benchmarks/RESULTS.md). Here one Node.js process loads the KaTeX that npm installed from package-lock.json
and renders every formula in about a millisecond; the same package's CSS and fonts are served with
the site (the fonts as woff2 only: hooks/site/katex_fonts.py), so the HTML and the stylesheet always come
from one KaTeX version. Rendered formulas are
also kept on disk (hooks/site/katex_cache.py), so a new build process starts KaTeX only for new formulas.
The measurements behind this design are in benchmarks/RESULTS.md.
"""

from __future__ import annotations

import atexit
import html
import json
import re
import select
import shutil
import subprocess
from pathlib import Path

import markdown_katex.extension
from markdown import Markdown
from markdown.extensions import Extension
from markdown_katex.extension import KatexExtension, KatexPostprocessor, KatexPreprocessor, make_marker_id

from hooks.engine import scan
from hooks.site.katex_cache import FormulaCache, renderer_fingerprint

# markdown-katex's preprocessor looks its inline scan up by this name at every line: give it the one that
# cannot fail at the end of a line (hooks/engine/scan.py inline_math says how the original does).
markdown_katex.extension.iter_inline_katex = scan.inline_math

RENDERER_SCRIPT = Path(__file__).with_name("katex_render.js")
UNRENDERED_CLASS = "book-math-off"  # a formula left as TeX by a build with math switched off
STYLESHEET = "katex-swap.min.css"  # font-display: swap, so text shows before the math fonts arrive
# What the build takes from the package: the renderer (package.json's "main"), the stylesheet, the fonts.
ASSETS = ("dist/katex.js", f"dist/{STYLESHEET}", "dist/fonts")


ANSWER_SECONDS = 30  # a formula renders in about 1 ms, KaTeX loads in about 0.1 s: a process this slow is stuck


class KatexProcessError(Exception):
    """The KaTeX process failed (it ended, hung or answered nonsense): the install, not a formula, is at fault."""


class KatexError(Exception):
    """KaTeX rejected a formula, or KaTeX could not be started."""


class KatexRenderer:
    """A long-lived `node katex_render.js` process, and the HTML of every formula it has rendered.

    The process starts at the first formula that neither the in-memory nor the on-disk cache
    (hooks/site/katex_cache.py, when a folder is given) holds: a rebuild that renders nothing new starts
    no Node.js at all.
    """

    def __init__(self, katex_dir: Path, cache_folder: Path | None = None) -> None:
        node = shutil.which("node")
        if node is None:
            raise KatexError("Node.js is needed to render the math at build time: install it (apt-get install nodejs)")
        if not (katex_dir / "package.json").is_file():
            raise KatexError(f"KaTeX is not installed at {katex_dir}: run `npm ci` in the project folder")
        missing = [name for name in ASSETS if not (katex_dir / name).exists()]
        if missing:
            raise KatexError(
                f"KaTeX at {katex_dir} lacks {', '.join(missing)}: reinstall it with `npm ci` in the project folder"
            )
        self.katex_dir = katex_dir
        self._node = node
        self.version = str(json.loads((katex_dir / "package.json").read_text(encoding="utf-8"))["version"])
        self._process: subprocess.Popen[str] | None = None
        self._html: dict[tuple[str, bool], str] = {}
        self.disk = (
            FormulaCache(cache_folder, self.version, renderer_fingerprint(RENDERER_SCRIPT)) if cache_folder else None
        )
        self.rendered = 0  # formulas KaTeX rendered in this process (the rest came from a cache)
        atexit.register(self.close)

    def render(self, tex: str, display: bool) -> str:
        """KaTeX's HTML (with MathML) for one formula; KatexError with KaTeX's message if it rejects it."""
        key = (tex, display)
        if key not in self._html:
            stored = self.disk.get(tex, display) if self.disk is not None else None
            self._html[key] = stored if stored is not None else self._render(tex, display)
        return self._html[key]

    def _render(self, tex: str, display: bool) -> str:
        process = self._started()
        assert process.stdin is not None
        try:
            process.stdin.write(json.dumps({"tex": tex, "display": display}) + "\n")
            process.stdin.flush()
        except OSError as error:  # the process is gone (a broken pipe): not the formula's fault
            raise KatexProcessError(self._stopped(f"it stopped taking formulas ({error.strerror})")) from None
        answer = self._read()
        if "error" in answer:
            raise KatexError(str(answer["error"]))
        html = str(answer["html"])
        self.rendered += 1
        if self.disk is not None:
            self.disk.put(tex, display, html)
        return html

    def _started(self) -> subprocess.Popen[str]:
        if self._process is None:
            self._process = subprocess.Popen(
                [self._node, str(RENDERER_SCRIPT), str(self.katex_dir)],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                text=True,
                encoding="utf-8",
            )
            running = str(self._read()["version"])
            if running != self.version:
                loaded = f"{self.katex_dir} says KaTeX {self.version}, but Node.js loaded KaTeX {running}"
                raise KatexProcessError(loaded)
        return self._process

    def _read(self) -> dict[str, object]:
        """The next answer; KatexProcessError if the process gives none within ANSWER_SECONDS, ends, or writes
        something that is not an answer (a broken KaTeX install, a crashed Node.js)."""
        assert self._process is not None and self._process.stdout is not None
        ready, _, _ = select.select([self._process.stdout], [], [], ANSWER_SECONDS)
        if not ready:
            self._process.kill()
            raise KatexProcessError(self._stopped(f"it gave no answer in {ANSWER_SECONDS} s and was stopped"))
        line = self._process.stdout.readline()
        if not line:
            raise KatexProcessError(self._stopped(f"it ended (exit code {self._process.wait(timeout=5)})"))
        try:
            answer = json.loads(line)
        except ValueError:
            answer = None
        if not isinstance(answer, dict):
            self._process.kill()
            raise KatexProcessError(self._stopped(f"it answered {line.strip()[:80]!r}"))
        return answer

    def _stopped(self, what: str) -> str:
        return (
            f"the KaTeX process ({self._node} {RENDERER_SCRIPT.name}, KaTeX at {self.katex_dir}) failed: {what}. "
            "This is not a problem of a formula: see the Node.js error above, and reinstall KaTeX with `npm ci`"
        )

    def save(self) -> str | None:
        """Write the formulas rendered since the last save to the on-disk cache (end of every build); what went
        wrong, if it could not."""
        return self.disk.save() if self.disk is not None else None

    def close(self) -> None:
        """Save the cache and end the KaTeX process (at the end of the build, or when the hooks are reloaded)."""
        self.save()
        if self._process is not None and self._process.poll() is None:
            assert self._process.stdin is not None
            self._process.stdin.close()
            try:
                self._process.wait(timeout=5)
            except subprocess.TimeoutExpired:  # a process that does not end when its input does
                self._process.kill()
                self._process.wait()

    @property
    def assets(self) -> Path:
        """KaTeX's dist folder: the stylesheet and fonts that match the HTML it renders."""
        return self.katex_dir / "dist"


INLINE_MARKER = "tmp_inline_md_katex_"  # markdown-katex's, then an md5: a formula in the text, until it is put in
GLUED_CLASS = "grpo-glued"
_MARKER = re.compile(rf"{INLINE_MARKER}[0-9a-f]{{32}}")
_BETWEEN_WORDS = re.compile(r"([\s<>]+)")  # what a line may break at, and tags: what a formula may touch is between


class _Preprocessor(KatexPreprocessor):  # type: ignore[misc]
    """markdown-katex's scan of the page (fences, inline $`...`$), with our renderer behind it."""

    ext: KatexMath

    def _make_tag_for_block(self, block_lines: list[str]) -> str:
        indent = block_lines[0][: len(block_lines[0]) - len(block_lines[0].lstrip())]
        tex = scan.block_tex(block_lines)
        marker = "tmp_block_md_katex_" + str(make_marker_id("block" + tex))
        self.ext.math_html[marker] = "<p>" + self.ext.html(tex, display=True) + "</p>"
        return indent + marker

    def _make_tag_for_inline(self, inline_text: str) -> str:
        tex = scan.inline_tex(inline_text)
        marker = INLINE_MARKER + str(make_marker_id("inline" + tex))
        self.ext.math_html[marker] = self.ext.html(tex, display=False)
        return marker


class _Postprocessor(KatexPostprocessor):  # type: ignore[misc]
    """markdown-katex's: each marker replaced by its formula's HTML. Before that, a formula that touches text
    (no space between: '(b = J):', 'π_θ,') is held with it in one span, so that no line starts with its comma
    or ends on its parenthesis: a browser may break on either side of an inline formula, which KaTeX lays out
    as inline blocks. The span does not wrap (book.css), nor does its formula: Chromium takes the break after a
    formula's last part from the formula's own style, so an exception for the inside lets the comma go again
    (and a word joiner, U+2060, does not hold it either; both tried at 320 to 1280 px)."""

    def run(self, text: str) -> str:
        if INLINE_MARKER in text:
            words = _BETWEEN_WORDS.split(text)  # words at even places, what is between them at odd ones
            for index in range(0, len(words), 2):
                if INLINE_MARKER in words[index] and not _MARKER.fullmatch(words[index]):
                    words[index] = f'<span class="{GLUED_CLASS}">{words[index]}</span>'
            text = "".join(words)
        return str(super().run(text))


def unrendered(tex: str, display: bool) -> str:
    """The TeX itself, as code, where a build with math switched off (hooks/site/math_switch.py) puts a formula."""
    code = f'<code class="{UNRENDERED_CLASS}">{html.escape(tex, quote=False)}</code>'
    return f"<pre>{code}</pre>" if display else code


class KatexMath(KatexExtension):  # type: ignore[misc]
    """The Markdown extension: markdown-katex's pre- and postprocessor, our renderer, no CDN stylesheet.

    Without a renderer (math switched off) every formula stays as its TeX.
    """

    def __init__(self, renderer: KatexRenderer | None) -> None:
        Extension.__init__(self)  # not KatexExtension's: it would go looking for a katex binary
        self.renderer = renderer
        self.options = {"insert_fonts_css": False}
        self.math_html: dict[str, str] = {}

    def html(self, tex: str, display: bool) -> str:
        return self.renderer.render(tex, display) if self.renderer else unrendered(tex, display)

    def extendMarkdown(self, md: Markdown) -> None:  # noqa: N802 (Markdown's name)
        self.math_html.clear()  # MkDocs makes one Markdown per page; markers are per page
        md.preprocessors.register(_Preprocessor(md, self), "katex_fenced_code_block", 50)
        md.postprocessors.register(_Postprocessor(md, self), "katex_fenced_code_block", 0)
        md.registerExtension(self)
