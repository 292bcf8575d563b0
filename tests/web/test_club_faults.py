"""Club mode while PostgreSQL is down: one line and a 503 in the learner's language, never a 500, and the
server recovers by itself when the database is back (the test cluster is stopped and started under a running app).

The pool checks each connection as it leaves the pool (a database restart leaves stale ones behind) and a request
waits at most ``REQUEST_TIMEOUT`` (5 s) for one, each new connection at most ``CONNECT_TIMEOUT``.
"""

from __future__ import annotations

import time
from typing import Any

from tests.web.test_club import PASSWORD, browser_of, cheap_hashes, make_app, signed_in


def test_the_timeouts_keep_an_outage_within_five_seconds() -> None:
    from tutor.store import postgres

    assert postgres.REQUEST_TIMEOUT <= 5 and postgres.CONNECT_TIMEOUT < postgres.REQUEST_TIMEOUT


def test_a_database_outage_is_a_one_line_503_and_the_server_recovers(pg_cluster: Any, monkeypatch: Any) -> None:
    from tutor.store import postgres
    from tutor.store.club import Club

    cheap_hashes(monkeypatch)
    monkeypatch.setattr(postgres, "REQUEST_TIMEOUT", 1.0)  # the same path, a shorter outage to wait through
    club = Club.open(pg_cluster.url())
    try:
        club.users.add("ann", PASSWORD)
        app = make_app(club)
        ann = signed_in(app, "ann")
        assert ann.post("/api/game/new", json={"deal": "7", "level": "easy"}).status_code == 200
        stranger = browser_of(app)
        pg_cluster.pause()
        try:
            page = ann.get("/", headers={"accept-language": "ru-RU,ru;q=0.9"})
            assert page.status_code == 503 and "База данных клуба сейчас недоступна" in page.text
            assert page.text.count("<p>") == 1 and "Traceback" not in page.text
            api = ann.get("/api/game")
            assert api.status_code == 503 and set(api.json()) == {"error"} and len(api.json()["error"]) < 200
            move = ann.post("/api/game/bid", json={"rev": 1, "bid": 3})
            assert move.status_code == 503 and move.json()["error"]
            signin = stranger.post("/api/club/signin", json={"name": "ann", "password": PASSWORD})
            assert signin.status_code == 503
            assert stranger.get("/class?lang=ru").status_code == 200  # sent to the sign-in page, which needs no database
        finally:
            pg_cluster.resume()
        for _ in range(300):  # the pool reconnects by itself (polled; nothing is restarted by the test)
            answer = ann.get("/api/game")
            if answer.status_code == 200:
                break
            assert answer.status_code == 503
            time.sleep(0.2)
        assert answer.status_code == 200 and answer.json()["game"]["deal"] == "7"  # the game kept, the session too
        assert ann.get("/").status_code == 200
    finally:
        club.close()
