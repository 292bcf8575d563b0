"""A club under a crowd (issue 35, the load table): a class signing in at once neither blocks the event loop
nor queues in front of the plays, and a full sign-in queue answers a one-line 503 with ``Retry-After``.

By ordering, never by timing: a password check is held on an event while other requests are answered; the
test fails (its bounded waits run out) if the held check sat on the event loop or on the think pool.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import pytest

from tests.web.browser import needs_browser
from tests.web.test_club import PASSWORD, cheap_hashes


@pytest.fixture()
def crowd(pg_cluster: Any, monkeypatch: pytest.MonkeyPatch, small_coach: None) -> Iterator[tuple[Any, str]]:
    """A club app under uvicorn (one event loop, as a worker of ``ddz serve``): one hasher, a queue of one."""
    from tests.web.conftest import served
    from tutor.store.club import Club
    from tutor.web.app import create_app
    from tutor.web.club import ClubContext

    cheap_hashes(monkeypatch)
    club = Club.open(pg_cluster.url())
    for name in ("ann", "bob", "cid"):
        club.users.add(name, PASSWORD)
    try:
        with served(lambda port: create_app(ClubContext(club, thinkers=1, hashers=1, signin_queue=1),
                                            port=port)) as base:
            yield club, base
    finally:
        club.close()


def client_of(base: str) -> Any:
    import httpx

    return httpx.Client(base_url=base, headers={"origin": base}, timeout=120)


def test_a_slow_password_check_holds_neither_the_loop_nor_the_plays(crowd: tuple[Any, str],
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    from tutor.store.users import Users

    _club, base = crowd
    ann = client_of(base)
    assert ann.post("/api/club/signin", json={"name": "ann", "password": PASSWORD}).status_code == 200
    entered, release = threading.Event(), threading.Event()
    verify = Users.verify

    def slow(self: Any, name: str, password: str) -> Any:
        if name == "bob":  # bob's check is held until the others have been answered
            entered.set()
            assert release.wait(120), "never released"
        return verify(self, name, password)

    monkeypatch.setattr(Users, "verify", slow)
    outcome: list[int] = []
    bob = client_of(base)
    signing = threading.Thread(target=lambda: outcome.append(
        bob.post("/api/club/signin", json={"name": "bob", "password": PASSWORD}).status_code))
    signing.start()
    try:
        assert entered.wait(120), "bob's sign-in never reached the password check"
        # bob's check holds the only hasher: ann's table (the think pool) and the sign-in page are answered
        assert ann.get("/api/game").status_code == 200
        assert ann.get("/signin").status_code in (200, 303)
        # the sign-in queue (one) is full: cid is told to come back, in one line, with Retry-After
        busy = client_of(base).post("/api/club/signin", json={"name": "cid", "password": PASSWORD})
        assert busy.status_code == 503 and busy.headers["retry-after"] == "2", busy.text
        assert busy.json() == {"error": "Many are signing in just now: trying again in a moment."}
        assert not outcome, "bob's sign-in was answered before its check ended"
    finally:
        release.set()
        signing.join(120)
    assert outcome == [200]
    again = client_of(base).post("/api/club/signin", json={"name": "cid", "password": PASSWORD})
    assert again.status_code == 200, again.text  # the queue drained: cid is in


@needs_browser
def test_the_page_tries_a_503_again_with_a_busy_note_and_keeps_the_tap(page: Any, server: str) -> None:
    """The table's request refused with 503 (the server busy: nothing done) is sent again after Retry-After,
    with the one-line note meanwhile; the learner's tap ("Abandon it and start") is not lost."""
    from playwright.sync_api import expect

    from tests.web.browser import fresh_deal, ready

    fresh_deal(page, server, 9, "easy")
    tries: list[str] = []
    held: list[Any] = []

    def busy_once(route: Any) -> None:
        if '"abandon":true' not in (route.request.post_data or "").replace(" ", ""):
            route.continue_()
            return
        tries.append(route.request.url)
        if len(tries) == 1:  # the first try: refused as uvicorn past its limit does (tutor/web/guard.py)
            route.fulfill(status=503, headers={"retry-after": "0", "content-type": "text/plain"},
                          body="Service Unavailable")
        else:  # the second: held until the note has been seen
            held.append(route)

    page.route("**/api/game/new*", busy_once)
    page.locator("#new-game").click()
    page.get_by_role("button", name="Abandon it and start").click()
    note = page.locator("#busy-note")
    expect(note).to_have_text("The server is busy: trying again in a moment…", timeout=60_000)
    expect(note).to_be_visible()
    for _ in range(600):  # a poll for the second try (the page's own), never a pace
        if held:
            break
        page.wait_for_timeout(100)
    assert len(tries) == 2 and len(held) == 1  # the tap sent again, by itself
    held[0].continue_()
    ready(page)
    expect(note).to_be_hidden()
    expect(page.locator("#game-title")).to_contain_text("easy")
    assert len(tries) == 2


def test_a_pool_with_every_connection_in_use_is_busy_not_down(pg_cluster: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """The pool's wait ran out while every connection was in use: the server is busy (503, Retry-After 2, "busy"),
    not the database unreachable, which the page would wrongly tell the learner to wait a minute for."""
    from tutor.store import postgres
    from tutor.web.club import is_busy, unavailable

    monkeypatch.setattr(postgres, "REQUEST_TIMEOUT", 0.2)  # the pool's wait, made once: nothing else is timed
    engine = postgres.PostgresEngine(pg_cluster.url(), min_size=1, max_size=1)
    try:
        with engine.pool.connection():  # the only connection, in use
            with pytest.raises(postgres.PoolBusyError) as caught:
                engine.execute(None, "SELECT 1")
    finally:
        engine.close()
    assert is_busy(caught.value)
    scope = {"type": "http", "path": "/api/game", "method": "GET", "headers": [], "query_string": b"lang=ru"}
    answer = unavailable(scope, busy=is_busy(caught.value))
    assert answer.status_code == 503 and answer.headers["retry-after"] == "2"
    assert b"\xd0\xb7\xd0\xb0\xd0\xbd\xd1\x8f\xd1\x82" in answer.body  # "занят": the learner's language
