"""Where a long name in running text may wrap: after a dot, a slash, an underscore or an opening bracket.

A path such as `practice.clip.symmetric.advantage`, a file such as `tests/browser/test_widget_browser.py` or a
call such as `window.grpoClip.surrogate(rho, A, eps)` is one word to the browser's line breaker. On a phone it
did not fit a table cell or a line, and Material's `word-break: break-word` on code cut it wherever the line ran out:
"practice.clip.symmetric.advant" then "age", read as two words. In inline code (not a code block, which
scrolls), each run of LONG characters or more without a space gets a `<wbr>` after each separator that is
followed by a name, so a line ends at a separator and the one before it says the name goes on. A shorter name
has none: it fits any line, and the browser moves it to the next whole rather than part it at its last
separator. A number keeps its decimal point ("0.5" does not part); copying the text copies no break.
"""

from __future__ import annotations

import re

# A code block, to pass by whole, or an inline code element's text (entities and tags as Markdown wrote them).
_CODE = re.compile(r"<pre\b.*?</pre>|(<code\b[^>]*>)(.*?)(</code>)", re.DOTALL)
_TAG = re.compile(r"(<[^>]*>)")
# The value column of the guide's tables on a 320 px phone, the narrowest screen the book is tested at
# (tests/browser/test_phone_browser.py), holds 23 characters of code (160 px at 6.55 px a character, measured in
# Chromium); a shorter run fits there whole. Counted as Markdown escaped them: "&lt;key&gt;" counts 11.
LONG = 20
_LONG_RUN = re.compile(rf"[^\s]{{{LONG},}}")
# A separator after a character that is not one (nor a space), before a letter or an opening quote or angle
# bracket, as Markdown escapes them: "a.b", "x/y", "test_widget", "f(rho", "cases['x']" and "&lt;key&gt;" part
# there; "0.5", "__init__" and "../" do not.
_SEPARATOR = re.compile(r"(?<=[^\s./_(\[][./_(\[])(?=[A-Za-z'\"]|&(?:lt|quot|#x27|#39);)")


def breakable(html: str) -> str:
    """The page, its inline code given a `<wbr>` after each separator in a name."""
    return _CODE.sub(_code, html)


def _code(match: re.Match[str]) -> str:
    opening, text, closing = match.group(1, 2, 3)
    if opening is None:
        return match.group()
    parts = _TAG.split(text)  # text at even places, tags (a highlighted span, a link) at odd ones
    parts[::2] = [_LONG_RUN.sub(lambda run: _SEPARATOR.sub("<wbr>", run.group()), part) for part in parts[::2]]
    return opening + "".join(parts) + closing
