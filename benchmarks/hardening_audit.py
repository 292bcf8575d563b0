"""The hardening audit of issues 23 and 32, rerunnable: web probes against a real ``ddz serve``,
parent-kill runs of every worker pool, and (issue 32) hostile JSON bodies, half-sent requests,
non-ASCII digits, devices and FIFOs as targets, YAML floats and long values, and the store on a
full disk and on read-only media.  Prints counts (probes, 500s, tracebacks, orphans, lost data,
lines over 400 characters) and the CPU of the 64 KB hostile body.

    python benchmarks/hardening_audit.py [--kills N]

Linux only (it reads /proc).  It starts its own servers and commands in a temporary DDZ_HOME.
As root it also mounts a tiny tmpfs for a real full disk and remounts it read-only (else those
probes are skipped and say so).
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
from tests.rawsocket import read_all  # the server-guard tests' reader

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


# ------------------------------------------------------------------------------------------ issue 32
HOSTILE_64K = b'"' + b'\\"' * 32_767


def _old_depth(raw: bytes) -> int:
    """The depth check before issue 32 (its string pattern restarted a scan at every quote)."""
    import re

    strings = re.compile(rb'"(?:[^"\\]|\\.)*"')
    brackets = bytes(range(256)).translate(None, b"[]{}")
    deepest = level = 0
    for byte in strings.sub(b"", raw).translate(None, brackets):
        level += 1 if byte in b"[{" else -1
        deepest = max(deepest, level)
    return deepest


def body_cpu() -> dict[str, object]:
    """CPU of the body parser on the 64 KB hostile body, now; the old scan on 16 KB (64 KB cost 22-33 s)."""
    from tutor.web.errors import ApiError, depth_scan, parse_body

    cpu = time.process_time()
    for _ in range(10):
        try:
            parse_body(HOSTILE_64K)
        except ApiError:
            pass
    now = (time.process_time() - cpu) / 10
    cpu = time.process_time()
    _old_depth(HOSTILE_64K[:16_384])
    old16 = time.process_time() - cpu
    return {"hostile_64kb_cpu_ms_now": round(now * 1000, 2), "hostile_16kb_cpu_s_old_scan": round(old16, 2),
            "hostile_64kb_steps": depth_scan(HOSTILE_64K)[1]}


def _raw(host: str, payload: bytes, wait: float = 120.0) -> tuple[bytes, bool]:
    """Send ``payload``; everything answered until the server closes (data, closed by the server)."""
    name, port = host.rsplit(":", 1)
    with socket.create_connection((name, int(port)), timeout=wait) as sock:
        try:
            sock.sendall(payload)
        except OSError:
            pass
        return read_all(sock)


def guard_audit() -> dict[str, object]:
    """Hostile bodies on every route, non-ASCII ids, half-sent requests, 413 then close, CL + chunked."""
    import threading

    home = Path(tempfile.mkdtemp())
    proc, _, host = start_server(home)
    origin = [("Origin", f"http://{host}")]
    head = f"Host: {host}\r\nOrigin: http://{host}\r\n"
    statuses: list[int] = []
    hostile = [HOSTILE_64K, b'["' + b'\\"' * 32_766 + b'"', b'"\\"' * 21_845, b'{"a":"' + b"\\\\" * 32_760 + b'"}']
    for route in ("/api/settings", "/api/game/new", "/api/game/play", "/api/puzzle/move", "/api/lesson/answer"):
        for body in hostile:
            statuses.append(request(host, "POST", route, body, origin))
    # A GET while a hostile body is being parsed: answered (the parse no longer holds the GIL for seconds).
    waited: list[float] = []

    def slow_post() -> None:
        statuses.append(request(host, "POST", "/api/settings", HOSTILE_64K, origin))

    poster = threading.Thread(target=slow_post)
    poster.start()
    started = time.perf_counter()
    statuses.append(request(host, "GET", "/api/settings", None, origin))
    waited.append(time.perf_counter() - started)
    poster.join()
    for ident in ("%C2%B2", "%E2%91%A0", "%EF%BC%91%EF%BC%92", "%D9%A3", "1_0", "-1", "9999999999999"):
        statuses.append(request(host, "GET", f"/api/history/{ident}", None, origin))
    # Half-sent requests: every one closed by the server (408), none held.
    half = [f"GET /api/settings HTTP/1.1\r\n{head}".encode(),
            f"POST /api/settings HTTP/1.1\r\n{head}Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n"
            '{"lev'.encode(), b""]
    results: list[tuple[bytes, bool]] = []
    threads = [threading.Thread(target=lambda p=p: results.append(_raw(host, p))) for p in half * 10]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    held = sum(not closed for _, closed in results)
    # 413 on a chunked upload, then the connection is closed, not read to its end.
    chunked = (f"POST /api/settings HTTP/1.1\r\n{head}Content-Type: application/json\r\n"
               "Transfer-Encoding: chunked\r\n\r\n").encode()
    frame = b"10000\r\n" + b" " * 65536 + b"\r\n"
    name, port = host.rsplit(":", 1)
    sent = 0
    with socket.create_connection((name, int(port)), timeout=60) as sock:
        sock.sendall(chunked)
        try:
            for _ in range(16_384):
                sock.sendall(frame)
                sent += 1
        except OSError:
            pass
    both, both_closed = _raw(host, (f"POST /api/settings HTTP/1.1\r\n{head}Content-Type: application/json\r\n"
                                     "Content-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n"
                                     "2\r\n{}\r\n0\r\n\r\n").encode())  # valid JSON: only the framing is wrong
    statuses.append(request(host, "GET", "/api/settings", None, origin))  # still answering
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    return {
        "guard_probes": len(statuses) + len(results) + 2, "guard_500s": sum(s >= 500 for s in statuses),
        "guard_statuses": sorted(set(statuses)), "get_during_hostile_post_wall_s": round(max(waited), 3),
        "half_sent_held": held, "half_sent_answered_408": sum(d.startswith(b"HTTP/1.1 408") for d, _ in results),
        "chunked_frames_sent_before_close_of_16384": sent,
        "cl_and_chunked": (both[:12].decode("latin-1"), both_closed),
        "guard_tracebacks": err.count("Traceback") + err.count("Fatal error"),
    }


def _cli(args: list[str], home: Path, stdin: str = "") -> tuple[int, str]:
    run = subprocess.run([sys.executable, "-c", ENTRY, *args], input=stdin, capture_output=True, text=True,
                         env={**os.environ, "DDZ_HOME": str(home)}, timeout=600, check=False)
    return run.returncode, run.stdout + run.stderr


def cli_audit() -> dict[str, object]:
    """Non-ASCII digits, empty themes, --token on loopback, a club in a missing folder, devices and
    FIFOs as export targets, YAML floats, long values: exit codes, tracebacks, long lines, things replaced."""
    import stat

    from click.testing import CliRunner

    from tutor.cli.main import main as ddz

    work = Path(tempfile.mkdtemp())
    home = work / "home"
    runs: list[tuple[list[str], str, set[int]]] = []
    for text in ("²", "①", "１２", "٣", "⑨9", "1²"):
        runs += [(["learn", text], "", {2}), (["mistakes", text], "", {2}), (["analyze", text, "--at", "0"], "", {2}),
                 (["play", "--deal", "5", "--level", "easy"], f"{text}\nquit\n", {0}),
                 (["deal", text], "", {2}), (["puzzle", "random", "--rating", text], "", {2})]
    runs += [(["puzzle", "random", "--theme", ""], "", {2}), (["puzzles", "generate", "-n", "1", "--theme", ""], "", {2}),
             (["puzzle", "replay", "--theme", " "], "", {2}),
             (["serve", "--no-open", "--db", str(work / "no" / "such" / "club.sqlite3")], "", {2})]
    (work / "y").mkdir()
    floats = {"plus.yaml": "puzzles:\n- {id: x, rating: !!float ++1}\n", "sup.yaml": "puzzles:\n- {id: x, rating: !!float ²}\n",
              "lesson.yaml": "id: x\nx: !!float ++1\n"}
    import yaml

    from tutor.paths import puzzles_dir

    first = yaml.safe_load((puzzles_dir() / "composed.yaml").read_text(encoding="utf-8"))["puzzles"][0]
    for name, players in (("long3.yaml", "F:9AA L:5577TTQQ2 F:" + "3" * 100_000),
                          ("longz.yaml", "F:9AA L:5577TTQQ2 F:" + "Z" * 100_000)):
        first["position"]["players"] = players
        floats[name] = yaml.safe_dump({"puzzles": [first]}, width=10**7)
    for name, text in floats.items():
        (work / "y" / name).write_text(text, encoding="utf-8")
        runs += [(["puzzles", "validate", "--schema-only", str(work / "y" / name)], "", {1}),
                 (["puzzles", "validate", str(work / "y" / name)], "", {1}),
                 (["lessons", "validate", str(work / "y" / name)], "", {1})]
    targets = {"fifo": work / "fifo", "link_to_fifo": work / "link"}
    os.mkfifo(targets["fifo"])
    targets["link_to_fifo"].symlink_to(targets["fifo"])
    try:
        os.mknod(work / "full", 0o600 | stat.S_IFCHR, os.makedev(1, 7))  # a /dev/full of our own
        targets["device"] = work / "full"
        targets["link_to_device"] = work / "link-full"
        targets["link_to_device"].symlink_to(work / "full")
    except OSError:
        pass
    before = {name: os.lstat(path).st_ino for name, path in targets.items()}
    for path in targets.values():
        runs.append((["store", "export", str(path)], "", {2}))
    bad_exit = tracebacks = long_lines = 0
    unexpected: list[str] = []
    for args, stdin, codes in runs:
        result = CliRunner().invoke(ddz, args, input=stdin, env={"DDZ_HOME": str(home)})
        crashed = result.exception is not None and not isinstance(result.exception, SystemExit)
        tracebacks += int(crashed or "Traceback" in result.output or "int()" in result.output)
        long_lines += sum(len(line) > 400 for line in result.output.splitlines())
        if result.exit_code not in codes:
            bad_exit += 1
            unexpected.append(f"{' '.join(a[:30] for a in args)[:80]} -> {result.exit_code}")
    with socket.socket() as taken:  # a port in use: serve prints its note, then fails to listen (one line)
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        code, out = _cli(["serve", "--no-open", "--port", str(taken.getsockname()[1]), "--token",
                          "abcdefghijklmnopqrstu"], home)
    replaced = [name for name, path in targets.items() if os.lstat(path).st_ino != before[name]
                or stat.S_ISREG(os.stat(path).st_mode)]
    return {"cli_runs": len(runs) + 1, "cli_unexpected_exit": bad_exit, "cli_unexpected": unexpected,
            "cli_tracebacks": tracebacks, "cli_long_lines": long_lines, "devices_or_fifos_replaced": replaced,
            "token_on_loopback_note": "--token is ignored" in out and code == 2, "club_folder_made": (work / "no").exists()}


def store_audit() -> dict[str, object]:
    """The store on a real full disk (a tiny tmpfs) and on read-only media (remounted ro): root only."""
    if os.geteuid() != 0:
        return {"store_runs": 0, "store_tracebacks": 0, "store_long_lines": 0, "store_lost": 0,
                "store_note": "not root: the real full-disk and read-only probes are skipped (the tests simulate them)"}
    import sqlite3

    mount = Path(tempfile.mkdtemp())
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(mount)], check=True)
    home = mount / "home"
    outcomes: list[tuple[str, str, int, str]] = []
    try:
        _cli(["play", "--deal", "3", "--level", "easy"], home, "pass\nquit\n")
        _cli(["play", "--deal", "4", "--level", "easy"], home, "pass\nquit\n")

        def rows() -> list[tuple[object, ...]]:
            db = sqlite3.connect(f"file:{home / 'ddz.sqlite3'}?immutable=1", uri=True)
            try:
                return db.execute("SELECT id, state FROM open_games ORDER BY id").fetchall()
            finally:
                db.close()

        kept = rows()
        commands = [["stats"], ["history"], ["store", "export", str(Path(tempfile.mkdtemp()) / "x.jsonl")],
                    ["play", "--deal", "9", "--level", "easy"], ["puzzle", "stats"], ["learn"]]
        filler = mount / "filler"
        subprocess.run(["dd", "if=/dev/zero", f"of={filler}", "bs=4k"], capture_output=True, check=False)
        for args in commands:
            code, out = _cli(args, home, "y\npass\nquit\n")
            outcomes.append(("full", " ".join(args[:2]), code, out))
        full_side_files = sorted(p.name for p in home.iterdir() if p.name.startswith("ddz.sqlite3-"))
        filler.unlink()
        subprocess.run(["mount", "-o", "remount,ro", str(mount)], check=True)
        for args in commands:
            code, out = _cli(args, home, "y\npass\nquit\n")
            outcomes.append(("read-only", " ".join(args[:2]), code, out))
        lost = int(rows() != kept)
    finally:
        subprocess.run(["umount", str(mount)], check=False)
    tracebacks = sum("Traceback" in out for *_, out in outcomes)
    long_lines = sum(len(line) > 400 for *_, out in outcomes for line in out.splitlines())
    reads = {f"{where}/{name}": code for where, name, code, _ in outcomes if name in ("stats", "history", "store export")}
    blamed = {f"{where}/{name}": [line for line in out.splitlines() if line.startswith("error:")][-1][:90]
              for where, name, code, out in outcomes if code != 0 and "error:" in out}
    return {"store_runs": len(outcomes), "store_tracebacks": tracebacks, "store_long_lines": long_lines,
            "store_lost": lost, "store_reads_exit": reads, "store_errors": blamed,
            "full_disk_side_files_left": full_side_files}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kills", type=int, default=2, help="rounds of parent kills (each: 4 commands)")
    args = parser.parse_args()
    load = os.getloadavg()[0]
    cpu = time.process_time()
    report: dict[str, object] = {"load_before": round(load, 1)}
    for section in (body_cpu, web_audit, guard_audit, cli_audit, store_audit, lambda: kill_audit(args.kills)):
        found = section()
        print(json.dumps(found), file=sys.stderr, flush=True)  # each section as it ends (a long run keeps them)
        report.update(found)
    report["totals"] = {
        "tracebacks": sum(int(report.get(k, 0)) for k in ("server_tracebacks", "worker_tracebacks",  # type: ignore[call-overload]
                                                           "guard_tracebacks", "cli_tracebacks", "store_tracebacks")),
        "500s": int(report["500s"]) + int(report["guard_500s"]),  # type: ignore[call-overload]
        "orphans": report["orphans"], "lost_data": report["store_lost"],
        "lines_over_400": int(report["cli_long_lines"]) + int(report["store_long_lines"]),  # type: ignore[call-overload]
    }
    report["load_after"] = round(os.getloadavg()[0], 1)
    report["audit_cpu_s"] = round(time.process_time() - cpu, 1)
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
