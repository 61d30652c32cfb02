"""Rendered formulas kept on disk between builds, so a new process (a cold `mkdocs serve`, a second
`mkdocs build`) does not start KaTeX again for formulas it has already rendered.

One JSON file holds {display + TeX: HTML} for one KaTeX version and one renderer script: a file
written by another version of KaTeX, or with other options in hooks/site/katex_render.js, is ignored and
replaced at the next save, so the HTML served is always what the installed KaTeX renders. Only
formulas KaTeX accepted are stored: a rejected one goes to KaTeX every time and fails the build.
The file is written whole to a temporary name and renamed over the old one, so two builds at once
can lose each other's new entries (they are rendered again next time) but never corrupt the file.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from pathlib import Path

CACHE_FILE = "katex-formulas.json"


def renderer_fingerprint(script: Path) -> str:
    """A short hash of the renderer script: its KaTeX options are part of what the HTML depends on."""
    return hashlib.sha256(script.read_bytes()).hexdigest()[:16]


class FormulaCache:
    """The HTML of formulas rendered by one KaTeX version with one renderer script, on disk."""

    def __init__(self, folder: Path, katex_version: str, fingerprint: str) -> None:
        self.path = folder / CACHE_FILE
        self.identity = {"katex": katex_version, "renderer": fingerprint}
        self._html: dict[str, str] = self._load()
        self._unsaved = False

    @staticmethod
    def key(tex: str, display: bool) -> str:
        return ("display:" if display else "inline:") + tex

    def get(self, tex: str, display: bool) -> str | None:
        return self._html.get(self.key(tex, display))

    def put(self, tex: str, display: bool, html: str) -> None:
        self._html[self.key(tex, display)] = html
        self._unsaved = True

    def __len__(self) -> int:
        return len(self._html)

    def _load(self) -> dict[str, str]:
        try:
            stored = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}  # no cache yet, or a damaged one: render again
        if not isinstance(stored, dict) or {k: stored.get(k) for k in self.identity} != self.identity:
            return {}  # another KaTeX version or renderer made these
        formulas = stored.get("formulas")
        if not isinstance(formulas, dict):
            return {}
        # an entry of another type is damaged: left out, rendered again
        return {k: v for k, v in formulas.items() if isinstance(k, str) and isinstance(v, str)}

    def save(self) -> str | None:
        """Write the file if anything was added since the last save (atomically: temp file, then rename); what
        went wrong, if it could not be written (the build is whole without it: the next one renders again)."""
        if not self._unsaved:
            return None
        content = json.dumps({**self.identity, "formulas": self._html}, ensure_ascii=False, sort_keys=True)
        temporary = None
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            handle, temporary = tempfile.mkstemp(prefix=".katex-", suffix=".json", dir=self.path.parent)
            with os.fdopen(handle, "w", encoding="utf-8") as file:
                file.write(content)
            os.replace(temporary, self.path)
        except OSError as error:
            if temporary is not None and os.path.exists(temporary):
                os.unlink(temporary)  # no temp file left behind
            return (
                f"the cache of rendered formulas cannot be written to {self.path} ({error.strerror}): remove what "
                f"stands in its way (the next build renders every formula again meanwhile)"
            )
        self._unsaved = False
        return None
