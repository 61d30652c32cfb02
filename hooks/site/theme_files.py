"""What of the theme's files the site leaves out: those a reader's browser never loads.

MkDocs copies every file of the theme into the site. Two kinds of Material's are never loaded by a reader:

- Source maps, beside its script, its search worker and its two stylesheets (1.3 MB, the script's alone 1 MB,
  more than all the book's pages). Only a browser's developer tools fetch one, the one a file's last line names
  (`//# sourceMappingURL=bundle.….min.js.map`). The maps are left out, and that line too (Material's scripts
  carry it; its stylesheets do not), so that no file of the site names a file the site lacks.
- Lunr's language support (`assets/javascripts/lunr/`, 0.9 MB in 34 files): the search worker imports from it only
  for a language other than English (`n!=="en"&&r.push(...)`, then `r.length&&importScripts(...)`, in
  workers/search.*.min.js), so a book searched in English alone leaves the folder out.
"""

from __future__ import annotations

import re
from pathlib import Path

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File, Files

# A last line naming a map: `//# sourceMappingURL=x.js.map` (a script), `/*# sourceMappingURL=x.css.map */`
MAP_COMMENT = re.compile(r"\n?(?://[#@] sourceMappingURL=[^\s*]+|/\*[#@] sourceMappingURL=[^\s*]+\s*\*/)\s*\Z")


LUNR_LANGUAGES = "assets/javascripts/lunr/"


def drop(files: Files, config: MkDocsConfig) -> None:
    """Take every .map out of the site's files, and serve each script or stylesheet without the line naming one;
    take out lunr's languages when the search is in English alone."""
    english_only = _search_languages(config) == ["en"]
    for file in list(files):
        if file.src_uri.endswith(".map") or (english_only and file.src_uri.startswith(LUNR_LANGUAGES)):
            files.remove(file)
        elif file.src_uri.endswith((".js", ".css")) and file.abs_src_path is not None:
            data = Path(file.abs_src_path).read_bytes()
            if b"sourceMappingURL=" in data and MAP_COMMENT.search(text := data.decode("utf-8")):
                files.remove(file)
                files.append(File.generated(config, file.src_uri, content=MAP_COMMENT.sub("\n", text)))


def _search_languages(config: MkDocsConfig) -> list[str] | None:
    """The languages the search plugin indexes (set by its on_config from the theme's language), or None."""
    search = next((plugin for name, plugin in config.plugins.items() if name.endswith("search")), None)
    languages = getattr(getattr(search, "config", None), "lang", None)
    return list(languages) if isinstance(languages, list | tuple) else None
