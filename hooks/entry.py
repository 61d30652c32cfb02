"""The one hook file that mkdocs.yml names; it forwards MkDocs' events to hooks/events.py.

MkDocs imports a hook file once per process, so under `mkdocs serve` an edit to the book's code
would never be seen. This file therefore holds no logic of its own: at the start of every build it
checks the files of grpo_examples/ and hooks/ and, if any changed, re-imports those packages (or, when
only the data files changed, has the models read again), so the next reload shows the new numbers without
restarting the server.
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

from mkdocs.exceptions import PluginError
from mkdocs.plugins import CombinedEvent, event_priority

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("grpo_examples", "hooks")
DATA = ROOT / "grpo_examples" / "data"  # an edit here only: the models are read again, the code is not re-imported

_stamp: tuple[tuple[str, int], ...] = ()
_ITSELF = Path(__file__).resolve()
_loaded = _ITSELF.read_bytes()  # this file as MkDocs loaded it: `mkdocs serve` never loads it again
_startup: dict[str, Any] = {}  # MkDocs' on_startup arguments (serve or build), told again to a re-imported module
_kept: dict[str, Any] = {}  # what the hooks keep from one build of `make serve` to the next, re-imports included


def _source_stamp() -> tuple[tuple[str, int], ...]:
    files = (p for package in PACKAGES for p in (ROOT / package).rglob("*") if p.suffix in {".py", ".toml", ".js"})
    return tuple(sorted((str(p), p.stat().st_mtime_ns) for p in files))


def _events(reload: bool = False) -> ModuleType:
    global _stamp
    if str(ROOT) not in sys.path:  # not at import: MkDocs restores sys.path after importing a hook file
        sys.path.insert(0, str(ROOT))
    if reload and _stamp != (stamp := _source_stamp()):
        edited = {Path(path) for path, _ in set(stamp) ^ set(_stamp)}
        if _stamp and "hooks.events" in sys.modules and all(path.is_relative_to(DATA) for path in edited):
            sys.modules["hooks.events"].data_changed(edited)  # the code is as it was: models are read again
        else:
            if "hooks.events" in sys.modules:
                sys.modules["hooks.events"].shutdown()
            for name in [n for n in sys.modules if n.split(".")[0] in PACKAGES]:
                del sys.modules[name]
        _stamp = stamp
    try:
        fresh = "hooks.events" not in sys.modules
        events = importlib.import_module("hooks.events")
        if fresh and _startup:
            events.on_startup(**_startup, kept=_kept)
        return events
    except ModuleNotFoundError as error:
        if error.name is None or error.name.split(".")[0] in PACKAGES:
            raise  # the book's own code is broken: that traceback is for whoever broke it
        raise PluginError(
            f"the book's hooks need the Python package {error.name!r}, which this Python ({sys.executable}) "
            "does not have. Run `make build` or `make serve`: they install requirements/dev.txt into .venv/ "
            "and use it (or install requirements/book.txt into the Python you use)."
        ) from None


def on_startup(command: str, dirty: bool) -> None:
    _startup.update(command=command, dirty=dirty)
    _events().on_startup(command=command, dirty=dirty, kept=_kept)


def _check_itself() -> None:
    """Under `mkdocs serve`, an edit of this file is never loaded (MkDocs loads a hook file once per process):
    a syntax error in it stops the build with its line, and a valid edit says to restart, rather than a build
    that reports success with the old file."""
    source = _ITSELF.read_bytes()
    if source == _loaded:
        return
    where = _ITSELF.relative_to(ROOT).as_posix()
    try:
        compile(source, str(_ITSELF), "exec")
    except SyntaxError as error:
        raise PluginError(f"{where}:{error.lineno}: {error.msg}: fix it, then restart `make serve`") from None
    raise PluginError(f"{where} changed: MkDocs loads it once, when it starts; restart `make serve` to use it")


@event_priority(50)  # before Material's search plugin makes its Jinja environment: events.py sets how one is made
def on_config(config: Any) -> Any:
    _check_itself()
    return _events(reload=True).on_config(config)


def on_files(files: Any, config: Any) -> Any:
    return _events().on_files(files, config)


def on_nav(nav: Any, config: Any, files: Any) -> Any:
    return _events().on_nav(nav, config, files)


def on_serve(server: Any, config: Any, builder: Any) -> Any:
    return _events().on_serve(server, config, builder)


def on_pre_build(config: Any) -> None:
    _events().on_pre_build(config)


def on_page_read_source(page: Any, config: Any) -> str:
    result: str = _events().on_page_read_source(page, config)
    return result


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    result: str = _events().on_page_markdown(markdown, page, config, files)
    return result


def on_page_content(html: str, page: Any, config: Any, files: Any) -> str:
    result: str = _events().on_page_content(html, page, config, files)
    return result


def on_env(env: Any, config: Any, files: Any) -> Any:
    return _events().on_env(env, config, files)


@event_priority(50)  # before Material's search plugin reads the page: it reads each formula as text
def _before_search(context: Any, page: Any, config: Any, nav: Any) -> Any:
    return _events().before_search(context, page, config, nav)


@event_priority(-50)  # after it: the page whole again, and what search made of it recorded for `make serve`
def _after_search(context: Any, page: Any, config: Any, nav: Any) -> Any:
    return _events().on_page_context(context, page, config, nav)


on_page_context = CombinedEvent(_before_search, _after_search)


def on_post_page(output: str, page: Any, config: Any) -> str:
    result: str = _events().on_post_page(output, page, config)
    return result


@event_priority(50)  # before Material's search plugin writes its index: events.py hands it every page's entries
def on_post_build(config: Any) -> None:
    _events().on_post_build(config)


def on_build_error(error: Any) -> None:
    _events().on_build_error(error)


def on_shutdown() -> None:
    _events().shutdown()
