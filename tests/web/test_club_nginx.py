"""Club mode deployed as a school would: Debian's nginx with TLS in front of ``ddz serve --db … --workers 2``.

One nginx (a throw-away prefix in a temp folder: its own configuration, pid, logs and temp files; a
self-signed certificate made by the ``openssl`` command) per module, in front of two ``ddz serve`` nodes on
one database (``--workers 2`` and ``--workers 1``; nginx takes turns between them, so consecutive requests of
one learner land on different nodes), on loopback ports chosen at run time.  A browser (Chromium, HTTPS errors ignored for the throw-away certificate) signs in,
plays and signs out through the proxy; plain requests check what the server believed of the proxy's
headers.  The nginx configuration is the one docs/club.md gives, with the test's ports and paths.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.web.browser import needs_browser, ready
from tests.web.test_coachqueue import default_sigint

PASSWORD = "correct-horse-1"
NGINX = shutil.which("nginx") or ("/usr/sbin/nginx" if os.access("/usr/sbin/nginx", os.X_OK) else None)

#: docs/club.md's nginx site, with the test's ports and files (kept in step by test_docs_give_this_configuration).
SITE = """\
upstream ddz {
    server 127.0.0.1:{app};
    server 127.0.0.1:{app2};
}
server {
    listen 127.0.0.1:{tls} ssl;
    server_name 127.0.0.1;
    ssl_certificate {folder}/cert.pem;
    ssl_certificate_key {folder}/key.pem;
    client_max_body_size 64k;
    location / {
        proxy_pass http://ddz;
        proxy_http_version 1.1;
        proxy_set_header Host $http_host;
        proxy_set_header X-Forwarded-Host $http_host;
        proxy_set_header X-Forwarded-Proto $scheme;
        proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
        proxy_read_timeout 120s;
    }
}
"""
#: What only the test needs: nginx in the foreground, every file it writes in the temp folder.
MAIN = """\
daemon off;
worker_processes 1;
pid {folder}/nginx.pid;
error_log {folder}/error.log warn;
events {{ worker_connections 64; }}
http {{
    log_format upstream '$request_method $uri $status $upstream_addr';
    access_log {folder}/access.log upstream;
    client_body_temp_path {folder}/body;
    proxy_temp_path {folder}/proxy;
    fastcgi_temp_path {folder}/fastcgi;
    uwsgi_temp_path {folder}/uwsgi;
    scgi_temp_path {folder}/scgi;
{site}
}}
"""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def certificate(folder: Path) -> None:
    """A throw-away self-signed certificate for 127.0.0.1 (an EC key: cheap to make)."""
    subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
                    "-nodes", "-keyout", str(folder / "key.pem"), "-out", str(folder / "cert.pem"), "-days", "2",
                    "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"],
                   check=True, capture_output=True, timeout=60)


def site(tls: int, apps: list[int], folder: Path) -> str:
    return (SITE.replace("{tls}", str(tls)).replace("{app}", str(apps[0])).replace("{app2}", str(apps[1]))
            .replace("{folder}", str(folder)))


class Client:
    """A cookie-keeping HTTPS client that trusts the throw-away certificate (what a page's fetch does)."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.cookies: dict[str, str] = {}
        self.csrf = ""
        self.tls = ssl.create_default_context()
        self.tls.check_hostname = False
        self.tls.verify_mode = ssl.CERT_NONE
        self.set_cookie = ""

    def call(self, path: str, body: dict[str, Any] | None = None,
             headers: dict[str, str] | None = None) -> tuple[int, Any]:
        sent = {"origin": self.base, "content-type": "application/json", "x-ddz-csrf": self.csrf,
                "cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items()), **(headers or {})}
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.base + path, data=data, headers=sent)
        try:
            with urllib.request.urlopen(request, timeout=120, context=self.tls) as response:
                status, raw, found = response.status, response.read(), response.headers.get("set-cookie")
        except urllib.error.HTTPError as error:
            status, raw, found = error.code, error.read(), error.headers.get("set-cookie")
        if found:
            self.set_cookie = found
            name, _, value = found.split(";")[0].partition("=")
            self.cookies[name] = value
        text = raw.decode()
        return status, json.loads(text) if text.startswith("{") else text


@pytest.fixture(scope="module")
def deployed(pg_cluster: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str, Path]]:
    """``ddz serve --db … --workers 2 --proxy 127.0.0.1 --public-url https://127.0.0.1:TLS`` behind nginx:
    (the public URL, the database's URL, nginx's folder)."""
    if NGINX is None:
        if os.environ.get("CI"):
            pytest.fail("CI=true but nginx is not installed: .ci/run installs it")
        pytest.skip("!!!!!!!! NGINX TESTS SKIPPED: no nginx (apt-get install nginx) !!!!!!!!")
    from tutor.store.club import Club

    folder = tmp_path_factory.mktemp("nginx")
    url = pg_cluster.url()
    with Club.open(url) as club:
        club.users.add("ann", PASSWORD)
    certificate(folder)
    tls = free_port()
    public = f"https://127.0.0.1:{tls}"
    env = {**os.environ, "DDZ_HOME": str(folder / "home")}
    log = (folder / "serve.log").open("w")  # never a pipe nobody reads
    servers = [subprocess.Popen([sys.executable, "-c", "from tutor.cli.main import main; main()", "serve", "--db", url,
                                 "--workers", str(workers), "--port", "0", "--no-open", "--proxy", "127.0.0.1",
                                 "--public-url", public],
                                stdout=subprocess.PIPE, stderr=log, text=True, env=env) for workers in (2, 1)]
    # the coach's thinking: one `ddz worker` for both nodes (issue 35), as a school would run it
    servers.append(subprocess.Popen([sys.executable, "-c", "from tutor.cli.main import main; main()", "worker",
                                     "--db", url], stdout=subprocess.DEVNULL, stderr=log, text=True, env=env,
                                    preexec_fn=default_sigint))
    nginx = None
    try:
        ports = []
        for server in servers[:2]:
            assert server.stdout is not None
            found = re.search(r"http://127\.0\.0\.1:(\d+)/", server.stdout.readline())
            assert found, (folder / "serve.log").read_text()
            ports.append(int(found.group(1)))
        (folder / "nginx.conf").write_text(MAIN.format(folder=folder, site=site(tls, ports, folder)))
        nginx = subprocess.Popen([NGINX, "-p", str(folder), "-c", str(folder / "nginx.conf"), "-e",
                                  str(folder / "error.log")], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        probe = Client(public)
        answered = 0
        for _ in range(600):  # nginx and both nodes start (polled: no sleep decides the outcome)
            try:
                answered = answered + 1 if probe.call("/signin")[0] == 200 else 0
                if answered >= 2:  # two in a row: one from each node
                    break
            except OSError:
                answered = 0
            assert nginx.poll() is None, nginx.stderr.read().decode() if nginx.stderr else ""
            time.sleep(0.1)
        yield public, url, folder
    finally:
        if nginx is not None:
            nginx.send_signal(signal.SIGQUIT)  # nginx's graceful stop
            try:
                nginx.wait(timeout=30)
            except subprocess.TimeoutExpired:
                nginx.kill()
        for server in servers:
            server.send_signal(signal.SIGINT)
        for server in servers:
            server.communicate(timeout=60)
        log.close()


def test_through_nginx_the_cookie_is_secure_and_the_real_client_is_counted(deployed: Any) -> None:
    from tutor.store.club import Club

    public, url, folder = deployed
    ann = Client(public)
    wrong = ann.call("/api/club/signin", {"name": "ann", "password": "not-her-password"},
                     headers={"x-forwarded-for": "198.51.100.7"})  # a client's own claim: nginx appends the truth
    assert wrong[0] == 401
    with Club.open(url) as club, club.scratch() as store:
        keys = {row[0] for row in store.db.execute("SELECT key FROM sign_in_failures")}
    assert "addr:127.0.0.1" in keys and not any("198.51.100.7" in key for key in keys)
    status, answer = ann.call("/api/club/signin", {"name": "ann", "password": PASSWORD})
    assert status == 200 and answer == {"next": "/"}
    assert ann.set_cookie.startswith("__Host-ddz_session=") and "; Secure" in ann.set_cookie
    page = ann.call("/")[1]
    ann.csrf = re.search(r'name="ddz-csrf" content="(\w+)"', page).group(1)  # type: ignore[union-attr]
    assert ann.call("/api/settings", {"coach": False})[0] == 200  # an https Origin is this server's own
    assert ann.call("/api/settings", {"coach": True}, headers={"origin": public.replace("https", "http")})[0] == 403
    for _ in range(4):  # one learner's requests, taken in turns by both nodes: nothing of them lives in a node
        assert ann.call("/api/game")[0] == 200
    served = {line.split()[-1] for line in (folder / "access.log").read_text().splitlines() if " /api/game " in line}
    assert len(served) == 2, served  # both nodes answered the signed-in learner
    assert PASSWORD not in (folder / "access.log").read_text()


@needs_browser
def test_sign_in_play_and_sign_out_in_chromium_through_nginx(deployed: Any, browser: Any) -> None:
    from playwright.sync_api import expect

    public = deployed[0]
    context = browser.new_context(ignore_https_errors=True, viewport={"width": 390, "height": 844}, has_touch=True)
    context.set_default_timeout(60_000)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda message: errors.append(message.text) if "Content Security Policy" in message.text else None)
    try:
        page.goto(f"{public}/play?deal=42&level=easy")
        expect(page).to_have_url(f"{public}/signin", timeout=60_000)
        page.get_by_label("Name").fill("ann")
        page.get_by_label("Password").fill(PASSWORD)
        page.get_by_role("button", name="Sign in").click()
        expect(page).to_have_url(f"{public}/", timeout=60_000)
        cookies = {cookie["name"]: cookie for cookie in context.cookies()}
        assert cookies["__Host-ddz_session"]["secure"] and cookies["__Host-ddz_session"]["httpOnly"]
        page.goto(f"{public}/play?deal=42&level=easy")
        ready(page)
        # The sign-in landed on the table, which dealt a game of a random deal: the link's deal 42 then asks
        # first (abandon that game, or continue it).  Start deal 42, so the test plays the same game every run
        # (before, it played on the random game: with a bot's bid of 3 before the learner's turn, no bid
        # button was left and the test failed).
        abandon = page.get_by_role("button", name="Abandon it and start")
        if abandon.count():
            abandon.click()
            ready(page)
        expect(page.locator("body")).to_contain_text("Deal 42", timeout=60_000)
        bid3 = page.get_by_role("button", name="Bid 3")
        (bid3 if bid3.is_enabled() else page.locator("#bid-buttons").get_by_role("button", name="Pass")).click()
        ready(page)
        hand = page.locator("#hand .card")
        before = hand.count()
        page.get_by_role("button", name="Hint").click()  # the coach's move: always playable
        ready(page)
        # the hint is a job of the `ddz worker`: the page asks again until it is in (waited for, never a pace)
        expect(page.locator("#status")).to_contain_text("Hint 1", timeout=180_000)
        if page.locator("#hand .card[aria-pressed='true']").count():
            page.get_by_role("button", name="Play", exact=True).click()
            ready(page)
            expect(hand).not_to_have_count(before, timeout=60_000)
        else:
            page.locator("#play-buttons").get_by_role("button", name="Pass").click()
            ready(page)
        page.get_by_role("button", name="Sign out").click()
        expect(page).to_have_url(f"{public}/signin", timeout=60_000)
        page.goto(f"{public}/play")
        expect(page).to_have_url(f"{public}/signin", timeout=60_000)
    finally:
        context.close()
    assert not errors, errors[:3]


def test_docs_give_this_configuration() -> None:
    """docs/club.md's nginx site is the one tested here (ports, names and certificate paths aside)."""
    docs = (Path(__file__).resolve().parents[2] / "docs" / "club.md").read_text()
    for line in SITE.splitlines():
        stripped = line.strip()
        if stripped.startswith(("proxy_", "location", "client_max_body_size", "upstream")):
            assert stripped in docs, stripped
