"""A page whose Markdown would take minutes stops `mkdocs build`, named, instead of holding CI for an hour.

The book's own scans of a page are linear in its length; Python-Markdown's are not all, and they are not ours to
change. Measured with the book's extensions (Python-Markdown 3.11.3, a page holding 4,000 of each): '[' in one
paragraph 2.5 s, '<div ' with no '>' after it 2.9 s, references to one footnote 9.9 s; ten times as many take a
hundred times as long. A chapter holds a few of each. MkDocs converts a page between on_page_markdown and
on_page_content; an alarm set at the first and cleared at the second stops a page that takes LIMIT_SECONDS, more
than a hundred times the longest page of the book. It rings again every second, in case a `try` inside Markdown
catches it once.

Signals reach only the main thread: `mkdocs build` converts there, `mkdocs serve` in a thread of its own, where
there is no alarm (an author sees a slow page and stops the server).
"""

from __future__ import annotations

import signal
import threading
from types import FrameType

from mkdocs.exceptions import PluginError

LIMIT_SECONDS = 10.0
TOO_LONG = (
    "{path}: Markdown took more than {limit:g} s on this page and was stopped (a chapter takes well under one): its "
    "time grows with the square of some text repeated thousands of times, such as '[' or '<div ' without '>' in "
    "one paragraph, or references to one footnote; find what the page repeats, and remove it or split it up"
)


def _can_ring() -> bool:
    return hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()


def start(path: str) -> None:
    """Ring in LIMIT_SECONDS, raising PluginError for the page at path, unless stop() comes first."""
    if not _can_ring():
        return

    def ring(number: int, frame: FrameType | None) -> None:
        raise PluginError(TOO_LONG.format(path=path, limit=LIMIT_SECONDS))

    signal.signal(signal.SIGALRM, ring)
    signal.setitimer(signal.ITIMER_REAL, LIMIT_SECONDS, 1.0)


def stop() -> None:
    """The page is converted (or the build failed): no alarm."""
    if _can_ring():
        signal.setitimer(signal.ITIMER_REAL, 0)
