"""Under `make serve`, a save is seen when it happens, not at the next look.

MkDocs 1.6 watches the book with watchdog's PollingObserver, which looks at every watched file every half
second: a save waits a quarter of a second on average, and up to half a second, before its rebuild starts,
which is as long as the rebuild of a chapter (hooks/site/incremental.py). watchdog's Observer takes the
operating system's notice of the change instead (inotify on Linux, FSEvents on macOS, ReadDirectoryChangesW on
Windows). The server's own wait for 0.1 s of quiet after a change stays.
"""

from __future__ import annotations

import logging
from typing import Any

from watchdog.events import (
    FileClosedEvent,
    FileCreatedEvent,
    FileDeletedEvent,
    FileModifiedEvent,
    FileMovedEvent,
    FileSystemEvent,
)
from watchdog.observers import Observer

_DIRTY_NOTICE = "A 'dirty' build is being performed"
CHANGES: tuple[type[FileSystemEvent], ...] = (
    FileCreatedEvent,
    FileDeletedEvent,
    FileModifiedEvent,
    FileMovedEvent,
    FileClosedEvent,  # closed after writing
)


def watch_natively(server: Any, paths: list[str]) -> Any:
    """The server, watching with the system's notices; paths: what `mkdocs serve` has already put under watch
    (the docs folder and mkdocs.yml), moved to the new observer. Entries of mkdocs.yml's `watch:` follow."""
    for path in paths:
        server.unwatch(path)
    server.observer = _Changes()
    for path in paths:
        server.watch(path)
    return server


class _Changes(Observer):  # type: ignore[misc,valid-type]
    """The system's notices of files written, made, deleted or moved. Not of a file opened or read: the build
    itself reads the watched files, and MkDocs rebuilds on any notice it gets, so it would build for ever."""

    def schedule(self, handler: Any, path: Any, *, recursive: bool = False, **options: Any) -> Any:
        options.setdefault("event_filter", list(CHANGES))
        return super().schedule(handler, path, recursive=recursive, **options)


class _NoDirtyNotice(logging.Filter):
    """MkDocs warns on every dirty build that its navigation may be wrong; the book's incremental build keeps it
    right (hooks/site/incremental.py), so under `make serve` the warning would only mislead."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not record.getMessage().startswith(_DIRTY_NOTICE)


def quiet_dirty_notice() -> None:
    logger = logging.getLogger("mkdocs.commands.build")
    if not any(isinstance(f, _NoDirtyNotice) for f in logger.filters):
        logger.addFilter(_NoDirtyNotice())
