"""A build lists the theme's files without Material's icons, and copies the files MkDocs copies
(hooks/site/theme_env.py)."""

from __future__ import annotations

from mkdocs.config import load_config
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import Files

from hooks import events
from tests.conftest import ROOT


def _stock() -> MkDocsConfig:
    return load_config(str(ROOT / "mkdocs.yml"))


def _book() -> MkDocsConfig:
    return events.on_config(_stock())


def _dotted(name: str) -> bool:
    """A name MkDocs never copies from a theme: a part of it starts with a dot (its patterns '.*' and '*/.*')."""
    return any(part.startswith(".") for part in name.split("/"))


def _copied(config: MkDocsConfig) -> list[tuple[str, str | None]]:
    files = Files([])
    files.add_files_from_theme(config.theme.get_env(), config)
    return [(file.src_uri, file.abs_src_path) for file in files]


def test_the_build_copies_the_theme_files_mkdocs_copies() -> None:
    stock = _copied(_stock())
    assert len(stock) > 20 and any(uri.startswith("assets/javascripts/bundle.") for uri, _ in stock)
    assert _copied(_book()) == stock


def test_the_build_lists_the_theme_without_the_icons_it_never_copies() -> None:
    stock = _stock().theme.get_env().list_templates()
    icons = sum(map(_dotted, stock))
    assert icons > 10_000, "Material's icons (templates/.icons/) moved: check hooks/site/theme_env.py"
    assert _book().theme.get_env().list_templates() == [name for name in stock if not _dotted(name)]
