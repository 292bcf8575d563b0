"""A password given by someone else (``ddz users passwd``, ``ddz users import``) is changed at the next sign-in
(issue 35): until then every page leads to /password and the API refuses in one line."""

from __future__ import annotations

from typing import Any

from tests.web.test_club import PASSWORD, browser_of, club, make_app, signed_in  # noqa: F401 - the club fixture

GIVEN = "given-by-teacher-1"
OWN = "my-own-password-2"


def test_a_given_password_is_changed_before_anything_else(club: Any) -> None:  # noqa: F811 - the fixture
    club.users.set_password("ann", GIVEN, one_time=True)
    app = make_app(club)
    stranger = browser_of(app)
    assert stranger.post("/api/club/signin", json={"name": "ann", "password": GIVEN}).status_code == 200
    page = stranger.get("/", follow_redirects=False)
    assert page.status_code == 303 and page.headers["location"] == "/password"
    ann = signed_in(app, "ann", stranger.cookies["ddz_session"])  # the CSRF token from the /password page
    refused = ann.post("/api/game/new", json={"deal": "7", "level": "easy"})
    assert refused.status_code == 403 and "password" in refused.json()["error"]
    form = ann.get("/password")
    assert form.status_code == 200 and 'method="post"' in form.text and 'autocomplete="new-password"' in form.text
    assert ann.post("/api/club/password", json={"password": OWN, "again": OWN + "x"}).status_code == 400
    short = ann.post("/api/club/password", json={"password": "short", "again": "short"})
    assert short.status_code == 400 and short.json()["error"]
    changed = ann.post("/api/club/password", json={"password": OWN, "again": OWN})
    assert changed.status_code == 200 and changed.json()["next"] == "/"
    cookie = changed.headers["set-cookie"].split(";")[0].split("=", 1)[1]
    assert ann.get("/api/game").status_code == 401  # the sign-in with the given password has ended
    ann = signed_in(app, "ann", cookie)  # the new sign-in the answer gave, and the page's token for it
    assert ann.get("/", follow_redirects=False).status_code == 200
    assert ann.post("/api/game/new", json={"deal": "7", "level": "easy"}).status_code == 200
    assert club.users.verify("ann", GIVEN) is None and club.users.verify("ann", OWN) is not None
    # a password set with one_time=False (ddz users passwd --keep, or the learner's own) leads nowhere else
    club.users.set_password("bob", PASSWORD)
    bob = signed_in(app, "bob")
    assert bob.get("/", follow_redirects=False).status_code == 200


def test_an_imported_account_chooses_its_password(club: Any) -> None:  # noqa: F811 - the fixture
    user = club.users.add("cid", GIVEN, one_time=True)
    assert user.must_change
    app = make_app(club)
    cid = browser_of(app)
    assert cid.post("/api/club/signin", json={"name": "cid", "password": GIVEN}).status_code == 200
    assert cid.get("/api/game").status_code == 403
