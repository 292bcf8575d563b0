"""The hardening audit of issue 23, rerunnable: web probes against a real ``ddz serve``, and
parent-kill runs of every worker pool.  Prints counts (probes, 500s, tracebacks, orphans) and
the server's memory before and after a chunked 1 GB upload.

    python benchmarks/hardening_audit.py [--kills N]

Linux only (it reads /proc).  It starts its own servers and commands in a temporary DDZ_HOME.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from tests.cli.test_interrupt import alive, children  # noqa: E402 - the suite's view of a process tree

ENTRY = "import sys; from tutor.cli.main import main; sys.exit(main())"
RUNAWAY = "L:335779TTJJJQKKAAX467 F:3446688999TJQQQ2D F:345556788TKKAA222"


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def start_server(home: Path, *extra: str) -> tuple[subprocess.Popen[str], str, str]:
    proc = subprocess.Popen([sys.executable, "-c", ENTRY, "serve", "--no-open", "--port", "0", *extra],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "DDZ_HOME": str(home)})
    assert proc.stdout is not None
    url = proc.stdout.readline().split()[2]
    host = url.split("/")[2]
    return proc, url, host


def request(host: str, method: str, path: str, body: bytes | None = None,
            headers: list[tuple[str, str]] | None = None) -> int:
    name, port = host.rsplit(":", 1)
    conn = http.client.HTTPConnection(name.replace("0.0.0.0", "127.0.0.1"), int(port), timeout=120)
    conn.putrequest(method, path, skip_host=True, skip_accept_encoding=True)
    sent = {k.lower() for k, _ in headers or []}
    if "host" not in sent:
        conn.putheader("Host", host)
    for key, value in headers or []:
        conn.putheader(key, value)
    if body is not None:
        conn.putheader("Content-Type", "application/json")
        conn.putheader("Content-Length", str(len(body)))
    conn.endheaders(body)
    status = conn.getresponse().status
    conn.close()
    return status


def chunked_gigabyte(host: str) -> int:
    name, port = host.rsplit(":", 1)
    with socket.create_connection((name, int(port)), timeout=120) as sock:
        sock.sendall(f"POST /api/settings HTTP/1.1\r\nHost: {host}\r\nOrigin: http://{host}\r\n"
                     "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n".encode())
        chunk = b" " * (1 << 20)
        frame = f"{len(chunk):x}\r\n".encode() + chunk + b"\r\n"
        sent = 0
        try:
            for _ in range(1024):
                sock.sendall(frame)
                sent += 1
        except OSError:
            pass  # the server answered 413 and closed: it did not read the rest
        sock.settimeout(30)
        try:
            answer = sock.recv(200).decode("latin-1")
        except OSError:
            answer = ""
    return int(answer.split()[1]) if answer.startswith("HTTP/") else -sent


def disconnect_mid_upload(host: str) -> None:
    name, port = host.rsplit(":", 1)
    with socket.create_connection((name, int(port)), timeout=30) as sock:
        sock.sendall(f"POST /api/settings HTTP/1.1\r\nHost: {host}\r\nOrigin: http://{host}\r\n"
                     "Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{\"lev".encode())


def web_audit() -> dict[str, object]:
    home = Path(tempfile.mkdtemp())
    proc, url, host = start_server(home)
    origin = [("Origin", f"http://{host}")]
    routes = ["/api/settings", "/api/game/select", "/api/game/play", "/api/game/pass", "/api/game/hint",
              "/api/game/undo", "/api/game/bid", "/api/puzzle/select", "/api/puzzle/move", "/api/puzzle/pass",
              "/api/puzzle/hint", "/api/lesson/answer", "/api/lesson/next", "/api/mistakes/move", "/api/game/new"]
    bodies = [b"[" * 30_000, b'{"a":' * 10_000, b'{"n": ' + b"9" * 5000 + b"}", b'{"n": NaN}', b'{"n": 1e999}',
              b"\xff\xfe", b"{", b"null", b'{"resume_deal": "18446744073709551616"}', b" " * 70_000]
    statuses: list[int] = []
    for route in routes:
        for body in bodies:
            statuses.append(request(host, "POST", route, body, origin))
    statuses.append(request(host, "POST", "/api/game/new", b'{"resume_deal": "18446744073709551615"}', origin))
    deal_ok = statuses[-1] == 200
    for doubled in ([("Origin", "http://evil.example"), ("Origin", f"http://{host}")],
                    [("Host", host), ("Host", "evil.example")]):
        statuses.append(request(host, "POST", "/api/settings", b'{"level": "hard"}', doubled))
    for _ in range(20):
        disconnect_mid_upload(host)
    before = rss_mb(proc.pid)
    big = chunked_gigabyte(host)
    after = rss_mb(proc.pid)
    statuses.append(request(host, "GET", "/api/settings", None, origin))  # still answering
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    # Beyond loopback: nothing without the token.
    remote_home = Path(tempfile.mkdtemp())
    remote, rurl, rhost = start_server(remote_home, "--host", "0.0.0.0")
    token_statuses = [request(rhost, "GET", path, None, [("Origin", f"http://{rhost}")])
                      for path in ("/", "/play", "/static/app.js", "/api/history", "/api/settings", "/?token=wrong")]
    token_statuses.append(request(rhost, "POST", "/api/settings", b'{"level": "hard"}', [("Origin", f"http://{rhost}")]))
    token_statuses.append(request(rhost, "GET", "/?" + rurl.split("?")[1]))
    remote.send_signal(signal.SIGINT)
    _, rerr = remote.communicate(timeout=60)
    return {
        "probes": len(statuses) + 20 + 1 + len(token_statuses),
        "500s": sum(s >= 500 for s in statuses),
        "statuses": sorted(set(statuses)),
        "deal_2_64_minus_1_accepted": deal_ok,
        "chunked_1GB": big, "rss_mb_before_after": (round(before), round(after)),
        "server_tracebacks": err.count("Traceback") + rerr.count("Traceback"),
        "server_log_lines": len([x for x in err.splitlines() if x.strip()]),
        "without_token": token_statuses[:-1], "token_url": token_statuses[-1],
        "remote_store_created": (remote_home / "ddz.sqlite3").exists(),
    }


def kill_audit(runs: int) -> dict[str, object]:
    cases = {
        "solve": (["solve", RUNAWAY, "--max-seconds", "0"], 1),
        "arena": (["arena", "--landlord", "easy", "--farmers", "easy", "-n", "100000", "--workers", "2"], 2),
        "generate": (["puzzles", "generate", "-n", "5000", "--workers", "2", "--out", "{tmp}/o.yaml"], 2),
        "bench-solver": (["bench", "solver", "--only", "two-10"], 1),
    }
    orphans = tracebacks = done = 0
    for i in range(runs):
        for name, (args, workers) in cases.items():
            home = Path(tempfile.mkdtemp())
            proc = subprocess.Popen([sys.executable, "-c", ENTRY, *[a.replace("{tmp}", str(home)) for a in args]],
                                    stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                                    env={**os.environ, "DDZ_HOME": str(home)}, start_new_session=True)
            for _ in range(1200):
                if len(children(proc.pid)) >= workers or proc.poll() is not None:
                    break
                time.sleep(0.1)
            kids = children(proc.pid)
            grandkids = [g for k in kids for g in children(k)]
            proc.send_signal(signal.SIGKILL if i % 2 == 0 else signal.SIGHUP)
            _, err = proc.communicate(timeout=300)
            for _ in range(600):
                left = [k for k in kids + grandkids if alive(k)]
                if not left:
                    break
                time.sleep(0.1)
            orphans += len(left)
            for k in left:
                os.kill(k, signal.SIGKILL)
            tracebacks += err.count("Traceback")
            done += 1
    return {"parent_kill_runs": done, "orphans": orphans, "worker_tracebacks": tracebacks}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kills", type=int, default=2, help="rounds of parent kills (each: 4 commands)")
    args = parser.parse_args()
    load = os.getloadavg()[0]
    cpu = time.process_time()
    report = {"load_before": round(load, 1), **web_audit(), **kill_audit(args.kills)}
    report["load_after"] = round(os.getloadavg()[0], 1)
    report["audit_cpu_s"] = round(time.process_time() - cpu, 1)
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
