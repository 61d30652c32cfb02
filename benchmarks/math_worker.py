"""One measured conversion of a Markdown document full of formulas, in its own process.

    python benchmarks/math_worker.py PIPELINE FORMULAS.json [CACHE_FOLDER]

PIPELINE is one of:
  stock       markdown-katex as published: its extension, its binary lookup, its cache in $TMPDIR
  memoised    the same with markdown_katex.wrapper.get_bin_cmd memoised (its open issue #22)
  book        the book's KatexMath: one KaTeX process, in-memory cache (CACHE_FOLDER: also on disk)
  pykatex     KaTeX embedded in Python (QuickJS), run from a throwaway venv that has the pykatex package

Prints JSON: the seconds of each conversion of the document (the book converts it twice in the same
process: cold, then warm from memory, as `mkdocs serve` rebuilds), and what rendered it.
"""

from __future__ import annotations

import functools
import json
import sys
import time
from pathlib import Path


def document(formulas: list[tuple[str, bool]]) -> str:
    """Each formula in its own paragraph, in markdown-katex's syntax."""
    parts = [f"```math\n{tex}\n```" if display else f"Inline $`{tex}`$ here." for tex, display in formulas]
    return "\n\n".join(parts) + "\n"


def timed(convert: object, text: str) -> float:
    start = time.perf_counter()
    convert(text)  # type: ignore[operator]
    return time.perf_counter() - start


def main() -> None:
    pipeline, formulas_file = sys.argv[1], Path(sys.argv[2])
    formulas = [(tex, bool(display)) for tex, display in json.loads(formulas_file.read_text(encoding="utf-8"))]
    text = document(formulas)
    if pipeline == "pykatex":
        import pykatex  # type: ignore[import-not-found]  # only in the throwaway venv

        def render_all(_: str) -> None:
            for tex, display in formulas:
                pykatex.renderToString(
                    tex, displayMode=display, output=pykatex.OUTPUT_HTML_AND_MATHML, strict=pykatex.STRICT_ERROR
                )

        print(json.dumps({"seconds": [timed(render_all, text)], "renderer": "pykatex (QuickJS)"}))
        return

    import markdown

    if pipeline in {"stock", "memoised"}:
        from markdown_katex import wrapper

        if pipeline == "memoised":
            wrapper.get_bin_cmd = functools.cache(wrapper.get_bin_cmd)  # the fix its issue #22 asks for
        seconds = [timed(lambda t: markdown.markdown(t, extensions=["markdown_katex"]), text)]
        print(json.dumps({"seconds": seconds, "renderer": " ".join(wrapper.get_bin_cmd())}))
        return

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from hooks.site.katex import KatexMath, KatexRenderer

    start = time.perf_counter()  # renderer set-up (checks, reading the disk cache) included
    cache_folder = Path(sys.argv[3]) if len(sys.argv) > 3 else None
    renderer = KatexRenderer(Path(__file__).resolve().parent.parent / "node_modules" / "katex", cache_folder)
    extension = KatexMath(renderer)
    markdown.markdown(text, extensions=[extension])
    cold = time.perf_counter() - start
    warm = timed(lambda t: markdown.markdown(t, extensions=[extension]), text)
    renderer.close()  # saves the disk cache, as the end of a build does (not timed: after the pages)
    print(json.dumps({"seconds": [cold, warm], "renderer": f"KaTeX {renderer.version}", "rendered": renderer.rendered}))


if __name__ == "__main__":
    main()
