"""`make serve` at an address it cannot listen on (one that a `make serve` left running in another terminal holds)
stops at once with the address and what to do. MkDocs built the whole book first and then ended in OSError's
traceback."""

from __future__ import annotations

import errno
import ipaddress
import os
import socket


class ServeAddressError(Exception):
    """`mkdocs serve` cannot listen on its address: the message says which, why and what to do."""


def check_free(host: str, port: int) -> None:
    """Listen on the address for a moment, as MkDocs' server will (its socket reuses an address in TIME_WAIT, so
    only a server that listens there now stops it)."""
    try:
        family = socket.AF_INET6 if isinstance(ipaddress.ip_address(host), ipaddress.IPv6Address) else socket.AF_INET
    except ValueError:  # a name (localhost): MkDocs listens on IPv4 for it
        family = socket.AF_INET
    try:
        socket.create_server((host, port), family=family).close()
    except OSError as error:
        why = os.strerror(error.errno) if error.errno else str(error)
        if error.errno == errno.EADDRINUSE:
            what = (
                f"another `make serve` may be running there: stop it (Ctrl-C in its terminal), or serve at {port + 1}"
            )
            fix = f"make serve ADDR={host}:{port + 1}"
        else:
            what, fix = "serve at an address of this machine", "make serve ADDR=127.0.0.1:8000"
        raise ServeAddressError(f"cannot serve the book at {host}:{port}: {why}; {what}: {fix}") from None
