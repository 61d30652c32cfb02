"""The one-process KaTeX renderer: KaTeX's own output, its errors, its version."""

from __future__ import annotations

import json

import pytest

from hooks.katex import KatexError, KatexRenderer
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
