"""Reading a raw socket to its end: how the server-guard tests and the hardening audit see what ``ddz serve`` sends.

Shared by tests/cli/test_serve_guard.py and benchmarks/hardening_audit.py (the benchmark already takes the
suite's view of a process tree from tests/; a reader for hostile-client probes is test tooling, not part
of the program, so it lives here rather than in tutor/).
"""

from __future__ import annotations

import socket


def read_all(sock: socket.socket) -> tuple[bytes, bool]:
    """Everything the server sends until it closes the connection; (data, closed by the server).

    A reset or broken pipe counts as closed by the server; the socket's timeout running out counts as
    still open (the server held the connection), so set a timeout on ``sock`` first.
    """
    data = b""
    try:
        while True:
            chunk = sock.recv(65536)
            if not chunk:
                return data, True
            data += chunk
    except (ConnectionResetError, BrokenPipeError):
        return data, True
    except TimeoutError:
        return data, False
