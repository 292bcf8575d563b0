"""``ddz serve`` holds no request forever (issue 32): raw sockets against one real server.

Half-sent headers or bodies get a 408 and are closed; an idle kept-alive connection is closed;
an answer given before the body was read to its end (a 413) closes the connection; a request
with both Content-Length and chunked framing is refused; past the concurrency limit, 503; and
the server logs no traceback.  The bounds are shortened for the test (``DDZ_SERVE_LIMITS``);
every wait is a poll that ends on the server's answer, never a timing assertion.
Also the small refusals of ``serve``: ``--token`` on loopback says it is ignored, and
``--db`` in a folder that does not exist is one line.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from tests.rawsocket import read_all
from tutor.cli.main import main

pytest.importorskip("uvicorn")

LIMIT = 6  # concurrent connections allowed in the test server
TOKEN = "abcdefghijklmnopqrstu"


class Server:
    def __init__(self, proc: subprocess.Popen[str], host: str, port: int) -> None:
        self.proc, self.host, self.port = proc, host, port

    def connect(self) -> socket.socket:
        sock = socket.create_connection((self.host, self.port), timeout=60)
        return sock

    def head(self, method: str = "GET", path: str = "/api/settings", extra: str = "") -> bytes:
        return (f"{method} {path} HTTP/1.1\r\nHost: {self.host}:{self.port}\r\n"
                f"Origin: http://{self.host}:{self.port}\r\n{extra}").encode()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    home = tmp_path_factory.mktemp("serve-guard")
    env = {**os.environ, "DDZ_HOME": str(home), "DDZ_SERVE_LIMITS": f"2,2,1,{LIMIT}"}
    proc = subprocess.Popen([sys.executable, "-c", "from tutor.cli.main import main; main()", "serve", "--no-open",
                             "--port", "0"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env=env)
    assert proc.stdout is not None and proc.stderr is not None
    url = proc.stdout.readline().split()[2]
    host, port = url.split("/")[2].rsplit(":", 1)
    try:
        yield Server(proc, host, int(port))
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            _, err = proc.communicate(timeout=60)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    assert "Traceback" not in err and "Fatal error" not in err, err[-3000:]


def test_loopback_says_the_token_is_ignored(tmp_path: Path) -> None:
    with socket.socket() as taken:  # a port in use: serve says its note, then cannot listen (one line, exit 2)
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        result = CliRunner().invoke(main, ["serve", "--no-open", "--port", str(taken.getsockname()[1]),
                                           "--token", TOKEN], env={"DDZ_HOME": str(tmp_path / "home")})
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert result.exit_code == 2 and len(lines) == 2 and "--token is ignored" in lines[0], result.output
    assert len(lines[0]) < 200


def test_half_sent_headers_get_408_and_are_closed(server: Server) -> None:
    with server.connect() as idle, server.connect() as half:
        half.sendall(server.head())  # the blank line that ends the headers never comes
        data, closed = read_all(half)
        assert closed and data.startswith(b"HTTP/1.1 408"), data[:200]
        _, closed = read_all(idle)  # sent nothing at all
        assert closed


def test_a_half_sent_body_gets_408_and_is_closed(server: Server) -> None:
    with server.connect() as sock:
        sock.sendall(server.head("POST", extra="Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n")
                     + b'{"lev')
        data, closed = read_all(sock)
        assert closed and data.startswith(b"HTTP/1.1 408"), data[:200]


def test_an_idle_kept_alive_connection_is_closed(server: Server) -> None:
    with server.connect() as sock:
        sock.sendall(server.head() + b"\r\n")
        data, closed = read_all(sock)
        assert closed and data.startswith(b"HTTP/1.1 200"), data[:200]


def test_after_a_413_the_connection_is_closed_not_read_to_the_end(server: Server) -> None:
    with server.connect() as sock:
        sock.sendall(server.head("POST", extra="Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"))
        chunk = b" " * (1 << 16)
        frame = f"{len(chunk):x}\r\n".encode() + chunk + b"\r\n"
        sent = 0
        try:
            for _ in range(16 * 1024):  # a gigabyte, if it were all read
                sock.sendall(frame)
                sent += 1
        except OSError:
            pass  # the server answered and closed
        data, closed = read_all(sock)
        assert data.startswith(b"HTTP/1.1 413") or sent < 16 * 1024, data[:200]
        assert closed and sent < 16 * 1024, (sent, data[:200])


def test_content_length_and_chunked_together_are_refused(server: Server) -> None:
    with server.connect() as sock:
        sock.sendall(server.head("POST", extra="Content-Type: application/json\r\nContent-Length: 2\r\n"
                                 "Transfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n"))  # valid JSON
        data, closed = read_all(sock)
        assert closed and data.startswith(b"HTTP/1.1 400"), data[:200]


def test_past_the_concurrency_limit_it_answers_503_then_recovers(server: Server) -> None:
    statuses = []
    for _ in range(50):  # poll: each round holds LIMIT fresh connections (the header timeout ends old ones)
        held = [server.connect() for _ in range(LIMIT)]
        try:
            with server.connect() as sock:
                sock.sendall(server.head() + b"Connection: close\r\n\r\n")
                data, _ = read_all(sock)
        finally:
            for sock in held:
                sock.close()
        statuses.append(data[9:12])
        if data.startswith(b"HTTP/1.1 503"):
            break
        time.sleep(0.05)
    assert statuses[-1] == b"503", statuses
    assert b"\r\nretry-after: 2\r\n" in data.lower(), data[:300]  # the page and the load benchmark wait that long
    for _ in range(200):
        with server.connect() as sock:
            sock.sendall(server.head() + b"Connection: close\r\n\r\n")
            data, _ = read_all(sock)
        if data.startswith(b"HTTP/1.1 200"):
            break
        time.sleep(0.05)
    assert data.startswith(b"HTTP/1.1 200"), data[:200]


def test_serve_refuses_a_database_in_a_missing_folder(tmp_path: Path) -> None:
    missing = tmp_path / "no" / "such" / "club.sqlite3"
    result = CliRunner().invoke(main, ["serve", "--no-open", "--port", "0", "--db", str(missing)],
                                env={"DDZ_HOME": str(tmp_path / "home")})
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert result.exit_code == 2 and len(lines) == 1 and "does not exist" in lines[0], result.output
    assert not (tmp_path / "no").exists(), "no folder was made"


@pytest.mark.parametrize("command", [["puzzle", "random"], ["puzzles", "generate", "-n", "1"], ["puzzle", "replay"]])
def test_an_empty_theme_is_refused(tmp_path: Path, command: list[str]) -> None:
    result = CliRunner().invoke(main, [*command, "--theme", ""], env={"DDZ_HOME": str(tmp_path / "home")})
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert result.exit_code == 2 and len(lines) == 1 and "empty" in lines[0], result.output
    assert not list(tmp_path.glob("*.yaml")) and not list(Path.cwd().glob("generated-*.yaml"))
