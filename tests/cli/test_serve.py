"""``ddz serve``: it starts on the port asked for, answers its own page, and Ctrl-C stops it (exit 130, one line)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import urllib.error
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


def test_serve_refuses_an_empty_or_unusable_host_in_one_line() -> None:
    from click.testing import CliRunner

    from tutor.cli.main import main

    for host in ("", " ", "\udcff\udcfe", "h" * 5000, "bad\x00host", "ex\u00e4mple..com"):
        result = CliRunner().invoke(main, ["serve", "--no-open", "--port", "0", "--host", host])
        assert result.exit_code == 2, (host[:20], result.output)
        lines = result.output.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("error: ") and len(lines[0]) < 200, result.output
    short = CliRunner().invoke(main, ["serve", "--no-open", "--host", "0.0.0.0", "--token", "short"])
    assert short.exit_code == 2 and "--token" in short.output


def test_serve_beyond_loopback_warns_and_wants_its_token(tmp_path: Path) -> None:
    server = subprocess.Popen(
        [sys.executable, "-c", "from tutor.cli.main import main; main()", "serve", "--no-open", "--port", "0",
         "--host", "0.0.0.0"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env={**os.environ, "DDZ_HOME": str(tmp_path)},
    )
    try:
        assert server.stdout is not None and server.stderr is not None
        warning = server.stderr.readline()
        assert warning.startswith("WARNING: ddz serve listens on 0.0.0.0"), warning
        url = server.stdout.readline().split()[2]
        assert "?token=" in url and len(url.split("?token=")[1]) >= 32
        base = url.split("?")[0].replace("0.0.0.0", "127.0.0.1")
        request = urllib.request.Request(base + "api/history", headers={"origin": base.rstrip("/")})
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(request, timeout=60)
        assert refused.value.code == 401
        server.send_signal(signal.SIGINT)
        server.communicate(timeout=60)
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()
    assert not (tmp_path / "ddz.sqlite3").exists(), "the refused request created or changed nothing"
