"""``ddz serve``: it starts on the port asked for, answers its own page, and Ctrl-C stops it (exit 130, one line)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

pytest.importorskip("uvicorn")


def test_serve_answers_and_stops_on_ctrl_c(tmp_path: Path) -> None:
    server = subprocess.Popen(
        [sys.executable, "-c", "from tutor.cli.main import main; main()", "serve", "--no-open", "--port", "0"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env={**os.environ, "DDZ_HOME": str(tmp_path)},
    )
    try:
        assert server.stdout is not None
        line = server.stdout.readline()
        assert line.startswith("ddz serve: http://127.0.0.1:"), line
        url = line.split()[2]
        request = urllib.request.Request(url + "api/settings", headers={"origin": url.rstrip("/")})
        with urllib.request.urlopen(request, timeout=60) as answer:
            assert json.loads(answer.read())["settings"]["lang"] == "en"
        with urllib.request.urlopen(url + "play", timeout=60) as page:
            assert b"app.js" in page.read()
        server.send_signal(signal.SIGINT)
        _, err = server.communicate(timeout=60)
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()
    assert server.returncode == 130
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_serve_refuses_a_port_it_cannot_listen_on(tmp_path: Path) -> None:
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = subprocess.run(
            [sys.executable, "-c", "from tutor.cli.main import main; main()", "serve", "--no-open", "--port", str(port)],
            capture_output=True, text=True, env={**os.environ, "DDZ_HOME": str(tmp_path)}, timeout=120,
        )
    assert result.returncode == 2
    assert result.stderr.strip().count("\n") == 0 and "cannot listen" in result.stderr
