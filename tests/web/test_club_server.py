"""``ddz serve --db … --workers 2`` as a user runs it: two processes on one port, over a real PostgreSQL.

A worker killed in the middle of a learner's move loses nothing and doubles nothing (the move's transaction
is all or nothing; uvicorn's supervisor starts a new worker), and the workers end with their parent.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest


PASSWORD = "correct-horse-1"


def children(pid: int) -> list[int]:
    """The worker processes of ``pid`` (multiprocessing's resource tracker left out)."""
    found: list[int] = []
    for task in Path(f"/proc/{pid}/task").glob("*/children"):
        for child in task.read_text().split():
            command = Path(f"/proc/{child}/cmdline").read_bytes().replace(b"\0", b" ")
            if b"resource_tracker" not in command:
                found.append(int(child))
    return found


def serving(workers: list[int], server_port: int, client_port: int) -> int | None:
    """The worker that holds the connection from ``client_port`` (matched through /proc's socket inodes)."""
    wanted = None
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        local, remote = int(fields[1].split(":")[1], 16), int(fields[2].split(":")[1], 16)
        if local == server_port and remote == client_port:
            wanted = f"socket:[{fields[9]}]"
    for worker in workers:
        try:
            links = [os.readlink(fd) for fd in Path(f"/proc/{worker}/fd").iterdir()]
        except OSError:
            continue
        if wanted in links:
            return worker
    return None


class Browser:
    """A tiny cookie-keeping client (urllib: what a page does, without a browser)."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.cookie = ""
        self.csrf = ""

    def call(self, path: str, body: dict[str, Any] | None = None) -> tuple[int, Any]:
        headers = {"origin": self.base, "content-type": "application/json", "cookie": self.cookie,
                   "x-ddz-csrf": self.csrf}
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.base + path, data=data, headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=120) as response:
                status, raw, found = response.status, response.read(), response.headers.get("set-cookie")
        except urllib.error.HTTPError as error:
            status, raw, found = error.code, error.read(), None
        if found:
            self.cookie = found.split(";")[0]
        text = raw.decode()
        return status, json.loads(text) if text.startswith("{") else text


def test_two_workers_a_killed_worker_and_a_stopped_server(pg_cluster: Any, tmp_path: Path) -> None:
    from tutor.store.club import Club

    url = pg_cluster.url()
    with Club.open(url) as club:
        club.users.add("ann", PASSWORD)
    env = {**os.environ, "DDZ_HOME": str(tmp_path)}
    server = subprocess.Popen([sys.executable, "-c", "from tutor.cli.main import main; main()", "serve", "--db", url,
                               "--workers", "2", "--port", "0", "--no-open"],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        assert server.stdout is not None
        found = re.search(r"(http://127\.0\.0\.1:\d+)/", server.stdout.readline())
        assert found, server.stderr.read() if server.stderr else ""
        ann = Browser(found.group(1))
        for _ in range(200):  # the workers import and open the club (no sleep decides the outcome: polled)
            try:
                if ann.call("/api/club/signin", {"name": "ann", "password": PASSWORD})[0] == 200:
                    break
            except OSError:
                time.sleep(0.1)
        status, page = ann.call("/")
        assert status == 200
        ann.csrf = re.search(r'name="ddz-csrf" content="(\w+)"', page).group(1)  # type: ignore[union-attr]
        assert ann.call("/api/settings", {"coach": False})[0] == 200  # the bots and the store are what is tested
        status, state = ann.call("/api/game/new", {"deal": "21", "level": "hard"})
        assert status == 200 and state["game"]["waiting"] == "bid"
        workers = children(server.pid)
        assert len(workers) == 2
        # Kill the worker that serves the bid while it is serving it (or just after: either way the bid's
        # transaction is all or nothing); the other worker answers next, a new one is started for it.
        import http.client

        port = int(ann.base.rsplit(":", 1)[1])
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
        connection.connect()
        client_port = connection.sock.getsockname()[1]
        # a pass: the hard bots then bid and play until the learner's turn, in the request being killed
        connection.request("POST", "/api/game/bid", json.dumps({"rev": state["rev"], "bid": 0}),
                           {"origin": ann.base, "content-type": "application/json", "cookie": ann.cookie,
                            "x-ddz-csrf": ann.csrf})
        victim = None
        for _ in range(10_000):  # until a worker has accepted the connection (polled, not timed)
            victim = serving(workers, port, client_port)
            if victim is not None:
                break
        assert victim is not None
        os.kill(victim, signal.SIGKILL)
        try:
            connection.getresponse().read()
        except (OSError, http.client.HTTPException):
            pass  # the connection died with its worker
        connection.close()
        for _ in range(600):  # the supervisor starts new workers (polled, not timed)
            try:
                status, after = ann.call("/api/game")
                if status == 200:
                    break
            except OSError:
                time.sleep(0.1)
        assert status == 200
        if after["rev"] == state["rev"]:  # the pass was lost whole: the same table, and it can be made again
            assert after["game"]["waiting"] == "bid" and len(after["game"]["hand"]) == 17
            status, after = ann.call("/api/game/bid", {"rev": state["rev"], "bid": 0})
            assert status == 200
        assert after["rev"] == state["rev"] + 1  # made once ...
        assert ann.call("/api/game/bid", {"rev": state["rev"], "bid": 0})[0] == 409  # ... and never twice
        workers = children(server.pid)
    finally:
        server.send_signal(signal.SIGINT)
        _, err = server.communicate(timeout=60)
    assert server.returncode == 130 and err.strip().splitlines()[-1] == "interrupted (Ctrl-C): stopped, nothing left running"
    assert "Traceback" not in err
    for worker in workers:
        assert not Path(f"/proc/{worker}").exists() or "zombie" in Path(f"/proc/{worker}/status").read_text()
