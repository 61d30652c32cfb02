"""The theme's Jinja environment, without the work a build throws away.

MkDocs copies the theme's static files into the site: it lists every file of the theme's folders
(`Files.add_files_from_theme`, through the Jinja loader's `list_templates`), then drops each name with a part
that starts with a dot. Material keeps its 14,000 icons in `templates/.icons/` (its emoji extension reads them
from there; none is copied), so every build listed and pattern-matched 14,500 names to keep 43: 0.14 s, about a
third of the rebuild of a chapter under `make serve`. The loader here does not go into a folder whose name starts
with a dot (or list such a file); the names MkDocs keeps are the same, and so is every template it loads.

Under `make serve` every environment made from the theme also shares the compiled templates that outlive a
build (hooks/site/incremental.py `templates`): MkDocs' own, and the search plugin's, which compiles Material's
language file at every build to read its defaults (0.01-0.02 s). hooks/entry.py runs on_config before that
plugin's, so that its environment is made here too.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

import jinja2


class _Loader(jinja2.FileSystemLoader):
    def list_templates(self) -> list[str]:
        """jinja2's own listing, less the names MkDocs' filter drops (a part starting with a dot) unseen."""
        found: set[str] = set()
        for searchpath in self.searchpath:
            for folder, subfolders, names in os.walk(searchpath, followlinks=self.followlinks):
                subfolders[:] = [name for name in subfolders if not name.startswith(".")]
                relative = os.path.relpath(folder, searchpath)
                for name in names:
                    if not name.startswith("."):
                        path = name if relative == "." else os.path.join(relative, name)
                        found.add(path.replace(os.path.sep, "/"))
        return sorted(found)


def use(theme: Any, compiled: jinja2.BytecodeCache | None = None) -> None:
    """Every Jinja environment this build makes from the theme (config.theme) lists its files with the loader
    above, and uses compiled (under `make serve`) for its compiled templates."""
    make: Callable[[], jinja2.Environment] = type(theme).get_env.__get__(theme)  # MkDocs' own, if use() ran before

    def get_env() -> jinja2.Environment:
        env = make()
        env.loader = _Loader(theme.dirs)
        if compiled is not None:
            env.bytecode_cache = compiled
        return env

    theme.get_env = get_env
