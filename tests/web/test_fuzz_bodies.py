"""Fuzzing the web API's bodies (issue 23): whatever JSON (or not-JSON) a page or a script
sends to any route, the answer is a status under 500 with a one-line error, and a refused
request changes nothing.  Routes that open a session on a valid body (a new game, puzzle,
lesson or review) get the hostile bodies of test_hardening.py instead: a random ``{}`` would
start a game on every example."""

from __future__ import annotations

import json
import warnings
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.web.conftest import BASE, snapshot
from tutor.web import api

STARTS = {"/api/game/new", "/api/puzzle/start", "/api/lesson/start", "/api/mistakes/start"}
ROUTES = [path for path, method, _ in api.ROUTES if method == "POST" and path not in STARTS]
FIELDS = ["rev", "cards", "bid", "n", "deal", "resume_deal", "lang", "level", "coach", "counter", "answer", "id",
          "kind", "theme", "same", "abandon", "index", "move", "step"]

scalars = (st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=50)
           | st.sampled_from(["9" * 5000, "\udcff", "-1", "1" * 25, "x" * 70_000]))
values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                                              max_size=4), max_leaves=12)
bodies = (st.dictionaries(st.sampled_from(FIELDS), values, max_size=4).map(lambda d: json.dumps(d).encode())
          | st.binary(max_size=300)
          | st.integers(1, 20_000).map(lambda n: b"[" * n)
          | st.integers(1, 5_000).map(lambda n: b'{"rev": ' + b"9" * n + b"}")
          | st.sampled_from([b'{"rev": NaN}', b'{"n": Infinity}', b'{"bid": 1e999}', b"\xff\xfe", b"{", b"null"]))


@settings(max_examples=40, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(route=st.sampled_from(ROUTES), body=bodies, lang=st.sampled_from(["", "?lang=ru", "?lang=xx"]))
def test_no_body_makes_a_500_or_changes_anything_when_refused(home: Path, route: str, body: bytes, lang: str) -> None:
    from starlette.testclient import TestClient

    from tutor.web.app import create_app
    from tutor.web.context import Context

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        client = _client(home, create_app, Context, TestClient)
    before = snapshot(home)
    answer = client.post(route + lang, content=body, headers={"content-type": "application/json"})
    assert answer.status_code < 500, (route, body[:60], answer.text[:200])
    if answer.status_code >= 400:
        line = answer.json()["error"]
        assert "\n" not in line and len(line) < 300 and "9" * 41 not in line and "x" * 41 not in line
        assert snapshot(home) == before


_CLIENTS: dict[str, Any] = {}


def _client(home: Path, create_app: Any, context: Any, test_client: Any) -> Any:
    """One app per store for the whole run (an app per example would cost more than the requests)."""
    key = str(home)
    if key not in _CLIENTS:
        _CLIENTS.clear()
        client = test_client(create_app(context(store_path=home / "ddz.sqlite3")), base_url=BASE,
                             headers={"origin": BASE})
        for path in [path for path, method, _ in api.ROUTES if method == "GET" and "{" not in path]:
            client.get(path)  # every area's tables made first: creating them is not a change of data
        client.post("/api/game/pass", json={})
        _CLIENTS[key] = client
    return _CLIENTS[key]
