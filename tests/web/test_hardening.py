"""Issue 23, the web server: bounded JSON, a body limit kept while streaming, security headers,
one Origin, quiet disconnects, a token beyond loopback, deal numbers as strings."""

from __future__ import annotations

import logging
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.web.conftest import BASE, run_async, snapshot
from tutor.web import api
from tutor.web.app import MAX_BODY, create_app
from tutor.web.context import Context
from tutor.web.security import CSP

POSTS = [path for path, method, _ in api.ROUTES if method == "POST"]
HOSTILE_BODIES = [b"[" * 30_000, b'{"a":' * 10_000, b'{"n": ' + b"9" * 5000 + b"}", b'{"n": NaN}',
                  b'{"n": -Infinity}', b'{"n": 1e999}', b'{"deal": 1' + b"0" * 400 + b"}"]
TOKEN = "t0ken-for-the-tests-0123456789"


@pytest.mark.parametrize("path", POSTS)
def test_deep_json_and_huge_numbers_are_400_on_every_route(client: Any, home: Path, path: str) -> None:
    before = snapshot(home)
    for body in HOSTILE_BODIES:
        answer = client.post(path, content=body, headers={"content-type": "application/json"})
        assert answer.status_code == 400, (path, body[:20], answer.text[:200])
        line = answer.json()["error"]
        assert "\n" not in line and len(line) < 200 and "9" * 41 not in line
    assert snapshot(home) == before


def _asgi_post(app: Any, path: str, chunks: Iterator[bytes], headers: list[tuple[bytes, bytes]] | None = None,
               method: str = "POST", query: bytes = b"", host: bytes = b"127.0.0.1:8765",
               ) -> tuple[list[dict[str, Any]], int]:
    """POST straight to the ASGI app, the body in chunks; returns what it sent and how many chunks it read."""
    pulled = 0
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        nonlocal pulled
        chunk = next(chunks, None)
        if chunk is None:
            return {"type": "http.disconnect"}
        pulled += 1
        return {"type": "http.request", "body": chunk, "more_body": True}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    scope = {
        "type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": method, "scheme": "http",
        "path": path, "raw_path": path.encode(), "root_path": "", "query_string": query,
        "headers": [(b"host", host), (b"origin", b"http://" + host), (b"content-type", b"application/json"),
                    (b"transfer-encoding", b"chunked"), *(headers or [])],
        "client": ("127.0.0.1", 5000), "server": ("127.0.0.1", 8765),
    }
    run_async(app(scope, receive, send))
    return sent, pulled


def test_a_chunked_gigabyte_is_refused_after_reading_64_kb(home: Path) -> None:
    app = create_app(Context(store_path=home / "ddz.sqlite3"))
    megabyte = b" " * (1 << 20)
    sent, pulled = _asgi_post(app, "/api/settings", iter([megabyte] * 1024))
    assert sent[0]["status"] == 413 and pulled == 1  # 1 MB read of the 1 GB, not all of it
    sent, pulled = _asgi_post(app, "/api/settings", iter([b" " * 1000] * 1000))
    assert sent[0]["status"] == 413 and pulled == MAX_BODY // 1000 + 1
    sent, _ = _asgi_post(app, "/api/settings", iter([]), [(b"content-length", b"1000000000")])
    assert sent[0]["status"] == 413
    assert snapshot(home) == {}


def test_a_client_that_goes_away_is_one_quiet_log_line(home: Path, caplog: pytest.LogCaptureFixture) -> None:
    app = create_app(Context(store_path=home / "ddz.sqlite3"))
    with caplog.at_level(logging.INFO):
        _asgi_post(app, "/api/settings", iter([b'{"lev']))  # then the client disconnects
    lines = [r for r in caplog.records if r.name.startswith(("tutor", "uvicorn"))]
    assert len(lines) == 1 and lines[0].exc_info is None and "went away" in lines[0].getMessage()
    assert snapshot(home) == {}


def test_every_answer_carries_the_security_headers(client: Any) -> None:
    answers = [client.get("/"), client.get("/play"), client.get("/static/app.js"), client.get("/api/settings"),
               client.get("/nothing"), client.post("/api/settings", content=b"[" * 100,
                                                    headers={"content-type": "application/json"}),
               client.get("/api/settings", headers={"origin": "http://evil.example"}),
               client.post("/api/settings", content=b" " * (MAX_BODY + 1), headers={"content-type": "application/json"})]
    assert [a.status_code for a in answers] == [200, 200, 200, 200, 404, 400, 403, 413]
    for answer in answers:
        assert answer.headers["content-security-policy"] == CSP
        assert answer.headers["x-content-type-options"] == "nosniff"
        assert answer.headers["referrer-policy"] == "no-referrer"
        assert answer.headers["x-frame-options"] == "DENY"
    assert "frame-ancestors 'none'" in CSP and "unsafe-inline" not in CSP


def test_a_request_with_two_origins_or_two_hosts_is_refused(client: Any, home: Path) -> None:
    assert client.post("/api/settings", json={"level": "easy"}).status_code == 200
    before = snapshot(home)
    for doubled in ([("origin", "http://evil.example"), ("origin", BASE)], [("origin", BASE), ("origin", BASE)],
                    [("host", "127.0.0.1:8765"), ("host", "evil.example")]):
        headers = [("content-type", "application/json"), *doubled]
        answer = client.post("/api/settings", content=b'{"level": "hard"}', headers=headers)
        assert answer.status_code == 403, doubled
    assert snapshot(home) == before


@pytest.fixture()
def remote(home: Path) -> Iterator[Any]:
    """A server bound to every interface (``--host 0.0.0.0``), seen from another machine."""
    from starlette.testclient import TestClient

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        app = create_app(Context(store_path=home / "ddz.sqlite3"), host="0.0.0.0", port=8765, token=TOKEN)
        with TestClient(app, base_url="http://192.168.1.5:8765", follow_redirects=False) as test_client:
            yield test_client


def test_beyond_loopback_every_request_needs_the_token(remote: Any, home: Path) -> None:
    origin = {"origin": "http://192.168.1.5:8765"}
    for path in ("/", "/play", "/static/app.js", "/api/history", "/api/settings", f"/?token={TOKEN[:-1]}x"):
        answer = remote.get(path, headers=origin)
        assert answer.status_code == 401, path
        assert answer.headers["content-security-policy"] == CSP
    assert remote.post("/api/settings", json={"level": "hard"}, headers=origin).status_code == 401
    assert remote.post(f"/api/settings?token={TOKEN}", json={"level": "hard"}, headers=origin).status_code == 401
    assert snapshot(home) == {}, "a refused request changes nothing"

    opened = remote.get(f"/play?token={TOKEN}&lang=ru")
    assert opened.status_code == 303 and opened.headers["location"] == "/play?lang=ru"
    cookie = opened.headers["set-cookie"]
    assert cookie.startswith(f"ddz_token_8765={TOKEN};") and "HttpOnly" in cookie and "SameSite=Strict" in cookie
    assert remote.get("/play").status_code == 200  # the client keeps the cookie
    assert remote.post("/api/settings", json={"level": "hard"}, headers=origin).status_code == 200
    other = remote.post("/api/settings", json={"level": "easy"}, headers={"origin": "http://evil.example"})
    assert other.status_code == 403, "the cookie does not let another site in"
    app = create_app(Context(store_path=home / "ddz.sqlite3"), host="0.0.0.0", port=8765, token=TOKEN)
    sent, _ = _asgi_post(app, "//evil.example/", iter([]), method="GET", query=f"token={TOKEN}".encode(),
                         host=b"192.168.1.5:8765")
    assert sent[0]["status"] == 303 and dict(sent[0]["headers"])[b"location"] == b"/evil.example/"


def test_no_app_beyond_loopback_without_a_token(home: Path) -> None:
    with pytest.raises(ValueError):
        create_app(Context(store_path=home / "ddz.sqlite3"), host="0.0.0.0")


@pytest.mark.usefixtures("small_coach")
def test_deal_numbers_travel_as_strings_up_to_2_64(client: Any) -> None:
    top = 2**64 - 1  # 18446744073709551615: as a JSON number a browser reads 18446744073709552000
    answer = client.post("/api/game/new", json={"resume_deal": str(top)})
    assert answer.status_code == 200, answer.text
    assert answer.json()["game"]["deal"] == str(top) and answer.json()["game"]["deal_seed"] == str(top)
    assert client.post("/api/game/new", json={"resume_deal": top}).status_code == 200  # a number still works
    for bad in (str(2**64), "-1", "1e5", 2**64, "１２"):
        refused = client.post("/api/game/new", json={"resume_deal": bad, "abandon": True})
        assert refused.status_code == 400, bad
