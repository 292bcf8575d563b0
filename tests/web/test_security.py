"""The server's guard and its plain routes: other origins refused, bad requests 4xx that change nothing."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.web.conftest import FOREIGN_HEADERS, snapshot


def test_the_page_and_its_files_are_served(client: Any) -> None:
    page = client.get("/play")
    assert page.status_code == 200 and "app.js" in page.text
    assert client.get("/static/app.js").status_code == 200
    assert client.get("/static/nothing.js").status_code == 404


@pytest.mark.parametrize("headers", FOREIGN_HEADERS)
def test_requests_from_another_origin_are_refused_and_change_nothing(
        client: Any, home: Path, headers: dict[str, str]) -> None:
    assert client.post("/api/settings", json={"level": "easy"}).status_code == 200
    before = snapshot(home)
    answer = client.post("/api/settings", json={"level": "hard"}, headers=headers)
    assert answer.status_code == 403 and "refused" in answer.json()["error"].lower()
    assert client.get("/api/settings", headers=headers).status_code == 403
    assert snapshot(home) == before


def test_another_host_name_is_refused(home: Path) -> None:
    """DNS rebinding: a page at evil.example resolved to 127.0.0.1 sends Host: evil.example."""
    from starlette.testclient import TestClient

    from tutor.web.app import create_app
    from tutor.web.context import Context

    client = TestClient(create_app(Context(store_path=home / "ddz.sqlite3")), base_url="http://evil.example:8765")
    answer = client.get("/api/settings")
    assert answer.status_code == 403 and "host" in answer.json()["error"]
    assert not (home / "ddz.sqlite3").exists()


def test_a_form_post_is_refused(client: Any, home: Path) -> None:
    answer = client.post("/api/settings", content=b"lang=ru",
                         headers={"content-type": "application/x-www-form-urlencoded"})
    assert answer.status_code == 403
    assert snapshot(home) == {}


@pytest.mark.parametrize("body", [b"{", b"[1, 2]", b'"text"', b"\xff\xfe", b'{"lang": 5}', b'{"coach": "yes"}',
                                  b'{"lang": "' + b"e" * 500 + b'"}', b"{" * 100_000])
def test_malformed_requests_get_4xx_and_change_nothing(client: Any, home: Path, body: bytes) -> None:
    assert client.post("/api/settings", json={"level": "easy"}).status_code == 200
    before = snapshot(home)
    answer = client.post("/api/settings", content=body, headers={"content-type": "application/json"})
    assert 400 <= answer.status_code < 500, (body[:40], answer.text)
    assert answer.json()["error"]
    assert snapshot(home) == before


def test_unknown_routes_and_methods_are_4xx_json(client: Any) -> None:
    assert client.get("/api/nothing").json()["error"]
    assert client.get("/api/nothing").status_code == 404
    assert client.put("/api/settings", json={}).status_code == 405


def test_settings_are_checked_and_shared_with_the_terminal(client: Any, home: Path) -> None:
    from tutor.store import Store

    client.get("/api/settings")
    before = snapshot(home)
    for bad in ({"lang": "de"}, {"level": "expert"}, {"coach": "yes"}, {"colour": "red"}, {"lang": "ru", "level": "x"}):
        assert client.post("/api/settings", json=bad).status_code == 400
    assert snapshot(home) == before
    answer = client.post("/api/settings", json={"lang": "ru", "counter": True})
    assert answer.status_code == 200
    with Store.open(home / "ddz.sqlite3") as store:
        assert store.get_setting("lang") == "ru" and store.get_setting("counter") is True
    strings = client.get("/api/strings").json()["strings"]
    assert strings["play"] == "Сходить" and strings["bid"] == "Ставка {n}"
    assert client.get("/api/strings?lang=en").json()["strings"]["play"] == "Play"
    assert client.get("/api/strings?lang=de").status_code == 400


def test_every_web_label_exists_in_both_languages() -> None:
    from tutor.i18n import catalogue

    english = {k for k in catalogue("en") if k.startswith("web.")}
    russian = {k for k in catalogue("ru") if k.startswith("web.")}
    assert english == russian and len(english) > 40


def test_only_this_servers_hosts_are_its_own() -> None:
    from tutor.web.security import own_hosts

    assert own_hosts("127.0.0.1", 8765) >= {"127.0.0.1:8765", "localhost:8765", "[::1]:8765"}
    assert "localhost:8765" not in own_hosts("192.0.2.7", 8765)
    assert own_hosts("::1", 80) >= {"[::1]:80", "[::1]"}
