"""Server-side KaTeX: markdown-katex's syntax, rendered by one KaTeX process kept for the whole build.

markdown-katex as published starts a new `katex` process for every formula and looks for that
command again each time (about 1 s per formula where Node.js is installed; shared/reference/
toolchain.md). Here one Node.js process loads the KaTeX that npm installed from package-lock.json
and renders every formula in about a millisecond; the same package's CSS and fonts are served with
the site, so the HTML and the stylesheet always come from one KaTeX version.
"""

from __future__ import annotations

import atexit
import json
import shutil
import subprocess
from pathlib import Path

import markdown_katex.extension
from markdown import Markdown
from markdown.extensions import Extension
from markdown_katex.extension import KatexExtension, KatexPostprocessor, KatexPreprocessor, make_marker_id

from hooks import scan

# markdown-katex's preprocessor looks its inline scan up by this name at every line: give it the one that
# cannot fail at the end of a line (hooks/scan.py inline_math says how the original does).
markdown_katex.extension.iter_inline_katex = scan.inline_math

RENDERER_SCRIPT = Path(__file__).with_name("katex_render.js")
STYLESHEET = "katex-swap.min.css"  # font-display: swap, so text shows before the math fonts arrive
# What the build takes from the package: the renderer (package.json's "main"), the stylesheet, the fonts.
ASSETS = ("dist/katex.js", f"dist/{STYLESHEET}", "dist/fonts")


class KatexError(Exception):
    """KaTeX rejected a formula, or KaTeX could not be started."""


class KatexRenderer:
    """A long-lived `node katex_render.js` process, and the HTML of every formula it has rendered."""

    def __init__(self, katex_dir: Path) -> None:
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
        self._process = subprocess.Popen(
            [node, str(RENDERER_SCRIPT), str(katex_dir)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            encoding="utf-8",
        )
        self.version = str(self._read()["version"])
        self._html: dict[tuple[str, bool], str] = {}
        atexit.register(self.close)

    def render(self, tex: str, display: bool) -> str:
        """KaTeX's HTML (with MathML) for one formula; KatexError with KaTeX's message if it rejects it."""
        key = (tex, display)
        if key not in self._html:
            assert self._process.stdin is not None
            self._process.stdin.write(json.dumps({"tex": tex, "display": display}) + "\n")
            self._process.stdin.flush()
            answer = self._read()
            if "error" in answer:
                raise KatexError(str(answer["error"]))
            self._html[key] = str(answer["html"])
        return self._html[key]

    def _read(self) -> dict[str, object]:
        assert self._process.stdout is not None
        line = self._process.stdout.readline()
        if not line:
            raise KatexError(f"the KaTeX process ({RENDERER_SCRIPT.name}) stopped; exit code {self._process.poll()}")
        answer: dict[str, object] = json.loads(line)
        return answer

    def close(self) -> None:
        """End the KaTeX process (at the end of the build, or when the hooks are reloaded)."""
        if self._process.poll() is None:
            assert self._process.stdin is not None
            self._process.stdin.close()
            self._process.wait(timeout=5)

    @property
    def assets(self) -> Path:
        """KaTeX's dist folder: the stylesheet and fonts that match the HTML it renders."""
        return self.katex_dir / "dist"


class _Preprocessor(KatexPreprocessor):  # type: ignore[misc]
    """markdown-katex's scan of the page (fences, inline $`...`$), with our renderer behind it."""

    ext: KatexMath

    def _make_tag_for_block(self, block_lines: list[str]) -> str:
        indent = block_lines[0][: len(block_lines[0]) - len(block_lines[0].lstrip())]
        tex = scan.block_tex(block_lines)
        marker = "tmp_block_md_katex_" + str(make_marker_id("block" + tex))
        self.ext.math_html[marker] = "<p>" + self.ext.renderer.render(tex, display=True) + "</p>"
        return indent + marker

    def _make_tag_for_inline(self, inline_text: str) -> str:
        tex = scan.inline_tex(inline_text)
        marker = "tmp_inline_md_katex_" + str(make_marker_id("inline" + tex))
        self.ext.math_html[marker] = self.ext.renderer.render(tex, display=False)
        return marker


class KatexMath(KatexExtension):  # type: ignore[misc]
    """The Markdown extension: markdown-katex's pre- and postprocessor, our renderer, no CDN stylesheet."""

    def __init__(self, renderer: KatexRenderer) -> None:
        Extension.__init__(self)  # not KatexExtension's: it would go looking for a katex binary
        self.renderer = renderer
        self.options = {"insert_fonts_css": False}
        self.math_html: dict[str, str] = {}

    def extendMarkdown(self, md: Markdown) -> None:  # noqa: N802 (Markdown's name)
        self.math_html.clear()  # MkDocs makes one Markdown per page; markers are per page
        md.preprocessors.register(_Preprocessor(md, self), "katex_fenced_code_block", 50)
        md.postprocessors.register(KatexPostprocessor(md, self), "katex_fenced_code_block", 0)
        md.registerExtension(self)
