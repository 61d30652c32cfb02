"""What travels with a page: its description (search engines, link previews), and the licences of the book.

Every page of docs/ says in its front matter what it is about; the build writes that description into the
page's <meta name="description"> and its Open Graph and Twitter card tags, escaped; a page without one
fails the strict build, naming the file. LICENSE covers both the text and the code, and every page's
footer says which licence is which.
"""

from __future__ import annotations

import html
import json
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from mkdocs.config import load_config
from mkdocs.utils.meta import get_data

from tests.conftest import ROOT, PublishedSite, add_pages, copy_project
from tests.site_html import page_html, site_pages

DOCS = ROOT / "docs"


def _meta(page: str, attribute: str, name: str) -> list[str]:
    return [html.unescape(m) for m in re.findall(rf'<meta {attribute}="{re.escape(name)}" content="([^"]*)">', page)]


def _source(site_page: str) -> Path:
    """The Markdown file a built page comes from: 'guide/' from docs/guide/index.md, 'grpo/' from docs/grpo.md."""
    stem = site_page.rstrip("/")
    candidates = [DOCS / f"{stem}.md", DOCS / stem / "index.md"] if stem else [DOCS / "index.md"]
    return next(path for path in candidates if path.is_file())


def test_every_page_of_docs_has_a_description_of_its_own() -> None:
    pages = sorted(DOCS.rglob("*.md"))
    assert len(pages) >= 10
    descriptions = {}
    for path in pages:
        _, meta = get_data(path.read_text(encoding="utf-8-sig"))
        description = meta.get("description")
        assert isinstance(description, str) and 40 <= len(description) <= 300, f"{path.relative_to(ROOT)}: {meta}"
        descriptions[path] = description
    assert len(set(descriptions.values())) == len(pages), "two pages share a description"


def test_every_built_page_carries_its_description_for_previews(published_site: PublishedSite) -> None:
    site = published_site.site
    for page in site_pages(site):
        built = page_html(site, page.rstrip("/"))
        canonical = re.search(r'<link rel="canonical" href="([^"]+)">', built)
        assert canonical is not None and canonical.group(1) == published_site.url + page
        if page == "print/":
            expected = "Every page of the book on one page, in the order of the site, to print or to save as a PDF."
        else:
            _, meta = get_data(_source(page).read_text(encoding="utf-8-sig"))
            expected = " ".join(str(meta["description"]).split())
        assert _meta(built, "name", "description") == [expected], page
        assert _meta(built, "property", "og:description") == [expected], page
        assert _meta(built, "name", "twitter:description") == [expected], page
        assert _meta(built, "property", "og:url") == [canonical.group(1)], page
        assert _meta(built, "property", "og:site_name") == ["GRPO, computed"], page
        title = re.search(r"<title>(.*?)</title>", built)
        assert title is not None and _meta(built, "property", "og:title") == [html.unescape(title.group(1))], page
        assert _meta(built, "name", "twitter:card") == ["summary"], page


@pytest.mark.slow
def test_a_description_is_escaped_and_a_missing_one_is_reported(tmp_path: Path) -> None:
    project = copy_project(tmp_path / "book")
    description = 'Why the "group" matters when A < B & the <script>alert(1)</script> tag stays text.'
    quoted = f"---\ndescription: '{description}'\n---\n\n# Quoted\n\nText.\n"
    add_pages(project, {"quoted.md": quoted, "bare.md": "# Bare\n\nA page without front matter.\n"})
    site = tmp_path / "site"
    command = [sys.executable, "-m", "mkdocs", "build", "--site-dir", str(site)]  # not strict: see it all
    result = subprocess.run(command, cwd=project, capture_output=True, text=True, timeout=300, check=False)
    assert result.returncode == 0, result.stderr
    assert "docs/bare.md: no description in the front matter" in result.stderr
    assert "docs/quoted.md" not in result.stderr
    quoted = page_html(site, "quoted")
    assert "<script>alert(1)</script>" not in quoted
    assert _meta(quoted, "name", "description") == [description]
    assert _meta(quoted, "property", "og:description") == [description]
    strict = subprocess.run([*command, "--strict"], cwd=project, capture_output=True, text=True, timeout=300)
    assert strict.returncode != 0 and "docs/bare.md: no description" in strict.stderr


def test_the_licence_covers_the_text_and_the_code() -> None:
    licence = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert "MIT License" in licence and "Permission is hereby granted, free of charge" in licence
    assert "Creative Commons Attribution 4.0 International" in licence
    assert "https://creativecommons.org/licenses/by/4.0/" in licence
    code, text = licence.split("The text of the book", 1)
    # Every folder that holds code is named under the MIT part; the chapters under CC BY 4.0.
    for folder in ("grpo_examples/", "hooks/", "scripts/", "tests/", "overrides/", ".github/"):
        assert (ROOT / folder).is_dir() and folder in code, folder
    assert "Markdown chapters under docs/" in text
    assert tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["license"] == "MIT AND CC-BY-4.0"
    assert json.loads((ROOT / "package.json").read_text())["license"] == "MIT"


def test_every_page_footer_names_both_licences(published_site: PublishedSite) -> None:
    copyright = load_config(str(ROOT / "mkdocs.yml")).copyright  # read as MkDocs reads it, tags and all
    assert copyright is not None and "CC BY 4.0" in copyright and "MIT" in copyright
    for page in [*site_pages(published_site.site), "404.html"]:
        path = published_site.site / (page if page.endswith(".html") else page + "index.html")
        footer = path.read_text(encoding="utf-8").split('<div class="md-copyright">', 1)[1].split("</div>", 2)
        text = re.sub(r"<[^>]+>", " ", footer[0] + footer[1])
        assert "CC BY 4.0" in text and "MIT" in text, page
        assert 'href="https://creativecommons.org/licenses/by/4.0/"' in footer[0], page
