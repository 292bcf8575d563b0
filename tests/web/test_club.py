"""Club mode over a real PostgreSQL (tests/conftest.py's cluster): sign-in, CSRF, rate limit, isolation,
the teacher's page and assignments, and two workers on one learner's game.

Each "worker" here is an app of its own on the same database (what ``ddz serve --workers 2`` runs in two
processes); tests/web/test_club_server.py runs the real command.  Cheap on purpose: a handful of argon2
hashes, easy bots, no whole games.
"""

from __future__ import annotations

import threading
import warnings
from collections.abc import Iterator
from typing import Any

import pytest


from tests.web.conftest import BASE

PASSWORD = "correct-horse-1"


def cheap_hashes(monkeypatch: pytest.MonkeyPatch) -> None:
    """argon2 with the smallest parameters: the tests check who signs in, not the hash's cost (the store's do)."""
    from argon2 import PasswordHasher

    from tutor.store import users

    monkeypatch.setattr(users, "_hasher", lambda: PasswordHasher(time_cost=1, memory_cost=64, parallelism=1))


@pytest.fixture()
def club(pg_cluster: Any, monkeypatch: pytest.MonkeyPatch, small_coach: None) -> Iterator[Any]:
    from tutor.store.club import Club

    cheap_hashes(monkeypatch)
    opened = Club.open(pg_cluster.url())
    for name, teacher in (("ann", False), ("bob", False), ("tea", True)):
        opened.users.add(name, PASSWORD, teacher=teacher)
    try:
        yield opened
    finally:
        opened.close()


def make_app(club: Any, **options: Any) -> Any:
    from tutor.web.app import create_app
    from tutor.web.club import ClubContext

    return create_app(ClubContext(club, thinkers=2, **options))


def browser_of(app: Any) -> Any:
    from starlette.testclient import TestClient

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        return TestClient(app, base_url=BASE, headers={"origin": BASE})


def signed_in(app: Any, name: str, cookie: str | None = None) -> Any:
    """A client of ``app`` signed in as ``name`` (or carrying ``cookie``), with the page's CSRF header set."""
    import re

    client = browser_of(app)
    if cookie is None:
        answer = client.post("/api/club/signin", json={"name": name, "password": PASSWORD})
        assert answer.status_code == 200, answer.text
        cookie = client.cookies["ddz_session"]
    else:
        client.cookies.set("ddz_session", cookie)
    page = client.get("/")
    token = re.search(r'name="ddz-csrf" content="(\w+)"', page.text)
    assert token is not None, page.text[:200]
    client.headers["x-ddz-csrf"] = token.group(1)
    return client


def lesson_id(number: int) -> str:
    from tutor.web.lessons import course

    return course()[number - 1].id


@pytest.fixture()
def app(club: Any) -> Any:
    return make_app(club)


def test_signed_out_browsers_are_sent_to_sign_in_and_the_api_refuses_them(app: Any) -> None:
    client = browser_of(app)
    page = client.get("/", follow_redirects=False)
    assert page.status_code == 303 and page.headers["location"] == "/signin"
    answer = client.get("/api/game")
    assert answer.status_code == 401 and answer.json() == {"error": "Sign in first: this page needs your account."}
    signin = client.get("/signin?lang=ru")
    assert signin.status_code == 200 and "Пароль" in signin.text and "<script>" not in signin.text
    assert "style=" not in signin.text and client.get("/static/club.js").status_code == 200


def test_sign_in_wrong_password_sign_out(app: Any, club: Any) -> None:
    client = browser_of(app)
    wrong = client.post("/api/club/signin", json={"name": "ann", "password": "not-her-password"})
    assert wrong.status_code == 401 and wrong.json()["error"] == "Wrong name or password."
    assert "set-cookie" not in wrong.headers
    right = client.post("/api/club/signin", json={"name": "ann", "password": PASSWORD})
    cookie = right.headers["set-cookie"]
    assert right.json() == {"next": "/"}
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie and "Path=/" in cookie
    assert "Secure" not in cookie  # plain http on loopback: a browser would drop a Secure cookie
    learner = signed_in(app, "ann", client.cookies["ddz_session"])
    assert "Signed in as ann" in learner.get("/").text
    token = client.cookies["ddz_session"]
    assert learner.post("/api/club/signout", json={}).json() == {"next": "/signin"}
    assert club.users.user_for_session(token) is None  # ended in the store: worthless on every worker
    stale = browser_of(app)
    stale.cookies.set("ddz_session", token)
    assert stale.get("/api/game").status_code == 401


def test_beyond_loopback_the_cookie_is_secure_and_host_only(club: Any) -> None:
    client = browser_of(make_app(club, beyond_loopback=True))
    cookie = client.post("/api/club/signin", json={"name": "bob", "password": PASSWORD}).headers["set-cookie"]
    assert cookie.startswith("__Host-ddz_session=") and "; Secure" in cookie


def test_failed_sign_ins_are_limited_per_name_and_address_across_workers(club: Any) -> None:
    from tutor.web.auth import Limits

    limits = Limits(per_name=2, per_address=3, delay=600, max_delay=600)
    first = browser_of(make_app(club, limits=limits))
    second = browser_of(make_app(club, limits=limits))  # another worker process
    for client in (first, second):
        assert client.post("/api/club/signin", json={"name": "ann", "password": "guess-guess"}).status_code == 401
    blocked = second.post("/api/club/signin", json={"name": "ann", "password": PASSWORD})  # even the right one
    assert blocked.status_code == 429 and blocked.json()["error"] == (
        "Too many failed sign-ins for this name: wait 600 seconds, then try again.")
    assert first.post("/api/club/signin", json={"name": "bob", "password": "guess-guess"}).status_code == 401
    by_address = first.post("/api/club/signin", json={"name": "tea", "password": PASSWORD})
    assert by_address.status_code == 429 and "this address" in by_address.json()["error"]


def test_state_changing_requests_need_the_pages_csrf_token(app: Any) -> None:
    ann = signed_in(app, "ann")
    bob = signed_in(app, "bob")
    for headers in ({"x-ddz-csrf": ""}, {"x-ddz-csrf": "0" * 32}, {"x-ddz-csrf": bob.headers["x-ddz-csrf"]}):
        refused = ann.post("/api/game/new", json={"deal": "5", "level": "easy"}, headers=headers)
        assert refused.status_code == 403 and "security token" in refused.json()["error"]
    assert ann.get("/api/game").json()["game"] is None  # nothing was done
    assert ann.post("/api/game/new", json={"deal": "5", "level": "easy"}).status_code == 200


def test_two_learners_never_see_each_others_data(app: Any) -> None:
    ann, bob = signed_in(app, "ann"), signed_in(app, "bob")
    assert ann.post("/api/game/new", json={"deal": "9", "level": "easy"}).json()["game"]["deal"] == "9"
    assert ann.post("/api/settings", json={"lang": "ru"}).status_code == 200
    assert ann.post("/api/lesson/start", json={"id": "01"}).status_code == 200
    assert bob.get("/api/game").json()["game"] is None
    assert bob.get("/api/settings").json()["settings"]["lang"] == "en"
    assert bob.get("/api/lessons").json()["lesson"] is None
    assert ann.get("/api/lessons").json()["lesson"]["id"] == lesson_id(1)
    assert "Signed in as bob" in bob.get("/").text and "ann" not in bob.get("/").text.split("club-bar")[1][:300]
    assert bob.get("/class").status_code == 403  # the class page is the teacher's alone
    assert bob.post("/api/club/assign", json={"kind": "lesson", "ref": lesson_id(1)}).status_code == 403


def test_the_teacher_sees_the_class_and_assigns_lessons_and_themes(app: Any, club: Any) -> None:
    ann, bob, tea = signed_in(app, "ann"), signed_in(app, "bob"), signed_in(app, "tea")
    ann_id = next(user.id for user in club.users.list() if user.name == "ann")
    page = tea.get("/class")
    assert page.status_code == 200 and "ann" in page.text and "bob" in page.text and ">tea<" not in page.text
    assert "0 of " in page.text and "Most frequent mistakes" in page.text
    given = tea.post("/api/club/assign", json={"kind": "lesson", "ref": lesson_id(3), "learner": ann_id})
    assert given.json() == {"ok": True, "text": "Assigned."}
    themed = tea.post("/api/club/assign", json={"kind": "puzzle_theme", "ref": "as_landlord"})
    assert themed.status_code == 200, themed.text
    bad = tea.post("/api/club/assign", json={"kind": "lesson", "ref": "no-such-lesson"})
    assert bad.status_code == 404 and "no-such-lesson" in bad.json()["error"]
    assert tea.post("/api/club/assign", json={"kind": "homework", "ref": "01"}).status_code == 400
    ann_page, bob_page = ann.get("/").text, bob.get("/").text
    assert "2 tasks" in ann_page and f'data-assigned-lesson="{lesson_id(3)}"' in ann_page
    assert "1 task<" in bob_page and 'data-assigned-lesson' not in bob_page
    assert 'data-assigned-theme="as_landlord"' in bob_page
    listed = tea.get("/class?lang=ru").text
    assert "Выданные задания" in listed and "всему классу" in listed
    first = int(listed.split('data-unassign="')[1].split('"')[0])
    assert tea.post("/api/club/unassign", json={"id": first}).status_code == 200
    assert tea.post("/api/club/unassign", json={"id": first}).status_code == 404


def test_two_workers_on_one_learners_game_never_double_a_move(club: Any) -> None:
    one, two = make_app(club), make_app(club)  # two worker processes' apps on the same database
    first = signed_in(one, "ann")
    second = signed_in(two, "ann", first.cookies["ddz_session"])
    started = first.post("/api/game/new", json={"deal": "12", "level": "easy"}).json()
    assert started["game"]["waiting"] == "bid"
    rev = started["rev"]
    assert second.get("/api/game").json()["rev"] == rev  # any worker continues any learner's game
    answers: list[Any] = []
    gate = threading.Barrier(2)

    def bid(client: Any) -> None:
        gate.wait()
        answers.append(client.post("/api/game/bid", json={"rev": rev, "bid": 3}))

    threads = [threading.Thread(target=bid, args=(client,)) for client in (first, second)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(answer.status_code for answer in answers) == [200, 409]
    after = second.get("/api/game").json()
    assert after["rev"] == rev + 1 and after["game"]["waiting"] == "play"
    assert len(after["game"]["hand"]) == 20  # the learner bid 3 once and took the kitty once


def test_a_tampered_session_row_runs_nothing(tmp_path: Any) -> None:
    """A saved session is read by a restricted unpickler: a crafted row is dropped, never executed."""
    import pickle

    from tutor.web.holder import SNAPSHOT_FORMAT, Shared

    marker = tmp_path / "ran"

    class Evil:
        def __reduce__(self) -> Any:
            return (open, (str(marker), "w"))

    shared = Shared(lambda: None, lambda: [], lambda: [])
    assert shared.loads(pickle.dumps((SNAPSHOT_FORMAT, 3, Evil()))) == (0, None)
    assert not marker.exists()
    assert shared.loads(b"not a pickle") == (0, None)
    assert shared.loads(shared.dumps(7, {"kept": [1, 2]})) == (7, {"kept": [1, 2]})


def test_every_mistake_code_has_a_name_on_the_class_page() -> None:
    import re
    from pathlib import Path

    from tutor.i18n import speaking
    from tutor.web.club import mistake_name

    source = (Path(__file__).resolve().parents[2] / "tutor" / "coach" / "mistakes.py").read_text()
    codes = set(re.findall(r'Finding\("(\w+)"', source))
    assert len(codes) >= 10
    for lang in ("en", "ru"):
        with speaking(lang):
            assert [code for code in codes if mistake_name(code) == code] == []


def test_the_name_limit_is_a_growing_delay_not_a_long_lockout() -> None:
    from tutor.web.auth import Limits

    limits = Limits()  # the defaults: 5 free tries, then 1 s after the last failure, doubling, at most a minute
    assert [limits.wait(n, 0.0) for n in (0, 4, 5, 6, 7, 10, 50)] == [0, 0, 1, 2, 4, 32, 60]
    assert limits.wait(6, 1.5) == 0.5 and limits.wait(6, 2.0) == 0 and limits.wait(500, 60.0) == 0


def test_thirty_parallel_guesses_at_one_name_get_at_most_the_limit_checked(club: Any,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    from concurrent.futures import ThreadPoolExecutor

    from tutor.store.users import Users
    from tutor.web.auth import Limits
    from tutor.web.club import ClubContext, _sign_in

    checked: list[str] = []
    verify = Users.verify

    def counted(self: Any, name: str, password: str) -> Any:
        checked.append(password)
        return verify(self, name, password)

    monkeypatch.setattr(Users, "verify", counted)
    context = ClubContext(club, thinkers=1, limits=Limits(per_name=3, delay=600, max_delay=600))
    try:
        with ThreadPoolExecutor(max_workers=30) as pool:
            outcomes = list(pool.map(lambda n: _sign_in(context, "Ann", f"guess-{n:04}", f"10.0.0.{n}"), range(30)))
    finally:
        context.thinkers.shutdown()
    statuses = sorted(getattr(outcome, "status", 200) for outcome in outcomes)
    assert len(checked) == 3 and statuses == [401] * 3 + [429] * 27


def test_a_password_in_the_address_is_refused_and_the_form_posts(app: Any) -> None:
    client = browser_of(app)
    form = client.get("/signin").text
    assert '<form id="signin" class="panel" method="post" action="/api/club/signin">' in form
    for path in ("/signin?name=ann&password=correct-horse-1", "/api/club/signin?Password=x", "/?lang=ru&password=x"):
        answer = client.get(path, follow_redirects=False)
        assert answer.status_code == 400 and "correct-horse" not in answer.text, path
    assert "пароль никогда" in client.get("/?lang=ru&password=x").json()["error"]


def test_classes_a_teacher_sees_and_assigns_only_their_own(app: Any, club: Any) -> None:
    """Classes: a teacher in class 7a sees its learners only, with last active, assignments done or not, every
    mistake counted (the "—" bug: mistakes without a named pattern were not counted), and each game's replay."""
    from tests.coach.positions import puzzle_game
    from tutor.store.games import FinishedGame, GameStore
    from tutor.store.lessons import LessonRows
    from tutor.store.mistakes import MistakeStore, StoredMistake

    ids = {user.name: user.id for user in club.users.list()}
    club.users.join(ids["ann"], "7a")
    club.users.join(ids["tea"], "7a")
    club.users.join(ids["bob"], "7b")
    game = puzzle_game("F:55A L:9 F:3")
    game.play(next(m for m in game.legal_moves() if m.text == "5"))
    game.play(next(m for m in game.legal_moves() if m.text == "9"))
    score = game.score()
    with club.store_for(ids["ann"]) as store:
        game_id = GameStore(store).finish(FinishedGame(
            deal=3, level="hard", role="farmer", won=False, bid=1, multiplier=score.multiplier, cost=score.cost,
            delta=score.deltas[0], scored=False, hints=0, undos=0, record=game.record().to_dict()))  # fmt: skip
        coded = {"code": "overkill", "values": {}}
        MistakeStore(store).save_analysis(game_id, [
            StoredMistake(game_id, 0, "bid 3", "pass", 0.1, 0.3, 0.2, "hard"),
            StoredMistake(game_id, 1, "5", "A", 0.1, 0.9, 0.8, "hard"),
            *(StoredMistake(game_id, n, "K", "Q", 0.4, 0.6, 0.2, "hard", coded) for n in (2, 3, 4))])
        LessonRows(store).record(lesson_id(1), 3, 0, 0, "2026-01-01T00:00:00+00:00")
    tea, ann = signed_in(app, "tea"), signed_in(app, "ann")
    assert ann.get("/").status_code == 200  # ann is active now
    assert tea.post("/api/club/assign", json={"kind": "lesson", "ref": lesson_id(1), "learner": ids["ann"]}).status_code == 200
    assert tea.post("/api/club/assign", json={"kind": "lesson", "ref": lesson_id(2), "class": "7a"}).status_code == 200
    assert tea.post("/api/club/assign", json={"kind": "lesson", "ref": lesson_id(2), "learner": ids["bob"]}).status_code == 404
    refused = tea.post("/api/club/assign", json={"kind": "lesson", "ref": lesson_id(2), "class": "7b"})
    assert refused.status_code == 400 and "not one of your classes" in refused.json()["error"]
    page = tea.get("/class").text
    assert f'href="/class/learner/{ids["ann"]}"' in page and ">bob<" not in page
    assert "5 (0 practised): beat higher than needed (3×), a bidding choice (1×), a weaker play (1×)" in page
    assert 'class="done"' in page and 'class="open"' in page  # lesson 1 done, lesson 2 not yet
    assert "UTC" in page.split(">ann<")[1].split("</tr>")[0]  # last active
    assert 'value="class:7a"' in page and "class 7a, everyone" in page
    assert "2 tasks" in ann.get("/").text and "tasks" not in signed_in(app, "bob").get("/").text.split("club-bar")[1][:400]
    learner = tea.get(f"/class/learner/{ids['ann']}")
    assert learner.status_code == 200 and f'/class/learner/{ids["ann"]}/game/{game_id}' in learner.text
    assert "Top habits" in learner.text and ("beat higher than needed</strong>: 3 times at 20 points each, 60 points"
                                             in learner.text)  # issue 29: the learner's top habits  # fmt: skip
    replay = tea.get(f"/class/learner/{ids['ann']}/game/{game_id}?lang=ru")
    assert replay.status_code == 200 and "сыграно 5; лучше: A" in replay.text and "На руках после раздачи" in replay.text
    assert tea.get(f"/class/learner/{ids['bob']}").status_code == 404  # not this teacher's class
    assert tea.get(f"/class/learner/{ids['ann']}/game/{game_id + 99}").status_code == 404
    assert ann.get(f"/class/learner/{ids['ann']}").status_code == 403  # a learner never sees the teacher's pages
