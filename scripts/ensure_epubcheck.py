"""Find epubcheck (and the Java it runs on) for the book's EPUB, or install it.

`make build` checks the EPUB it writes with epubcheck (scripts/books/), which must find no error and no
warning, and the tests run it again. It is, in order: the `epubcheck` command on PATH, with `java`; Debian's
`epubcheck` package (which brings a Java), installed when run as root. Otherwise it stops and says what to
install.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

from scripts.apt import apt_install

HOW_TO_INSTALL = (
    "No epubcheck (or no Java to run it) found to check the book's EPUB. Install it, then run the command again:\n"
    "  Debian/Ubuntu: sudo apt-get install epubcheck   (brings a Java runtime)\n"
    "  macOS:         brew install epubcheck\n"
    "  elsewhere:     a Java runtime (11+) and https://github.com/w3c/epubcheck/releases, with an `epubcheck`\n"
    '                 script on PATH that runs `java -jar epubcheck.jar "$@"`'
)


def find_epubcheck() -> list[str] | None:
    """The command that runs epubcheck on this machine, or None. Debian's /usr/bin/epubcheck is the jar itself
    (run by binfmt_misc where it is set up, which a container often is not): a jar is run with `java -jar`."""
    command, java = shutil.which("epubcheck"), shutil.which("java")
    if command is None or java is None:
        return None
    with open(command, "rb") as file:
        is_jar = file.read(2) == b"PK"
    return [java, "-jar", str(Path(command).resolve())] if is_jar else [command]


def install_epubcheck() -> list[str] | None:
    """Debian's package (which brings a Java), when run as root with apt-get; the command found afterwards, or
    None."""
    return find_epubcheck() if apt_install("epubcheck") else None


def main() -> int:
    command = find_epubcheck() or install_epubcheck()
    if command is None:
        print(HOW_TO_INSTALL, file=sys.stderr)
        return 1
    print(f"epubcheck for the book's EPUB: {' '.join(command)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
