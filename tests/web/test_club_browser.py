"""Club mode in a real browser (Debian's Chromium, Playwright): sign in, play a move, sign out.

The browser, the page checks (no script error, no CSP refusal) and the helpers are tests/web/conftest.py's and browser.py's; the
server is ``ddz serve --db``'s app over the test PostgreSQL cluster, in a thread.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.web.browser import needs_browser, ready

pytestmark = needs_browser
PASSWORD = "correct-horse-1"


@pytest.fixture(scope="module")
def server(pg_cluster: Any) -> Iterator[str]:
    from tests.web.conftest import served
    from tutor.store.club import Club
    from tutor.web.app import create_app
    from tutor.web.club import ClubContext

    from tests.web.test_club import cheap_hashes

    with pytest.MonkeyPatch.context() as patch:
        cheap_hashes(patch)
        club = Club.open(pg_cluster.url())
        club.users.add("ann", PASSWORD)
        try:
            with served(lambda port: create_app(ClubContext(club, thinkers=2), port=port)) as base:
                yield base
        finally:
            club.close()


def test_sign_in_play_a_move_sign_out(page: Any, server: str, small_coach: None) -> None:
    from playwright.sync_api import expect

    page.goto(f"{server}/play?deal=42&level=easy")
    expect(page).to_have_url(f"{server}/signin", timeout=60_000)  # a busy machine: waited for, never a pace
    page.get_by_label("Name").fill("ann")
    page.get_by_label("Password").fill("not-her-password")
    page.get_by_role("button", name="Sign in").click()
    expect(page.get_by_role("alert")).to_have_text("Wrong name or password.", timeout=60_000)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    expect(page).to_have_url(f"{server}/", timeout=60_000)
    ready(page)
    expect(page.get_by_title("Signed in as ann")).to_be_visible(timeout=60_000)
    page.goto(f"{server}/play?deal=42&level=easy")  # a fixed deal: "New deal" deals at random, and a bot's
    ready(page)  # bid of 3 before the learner's turn would leave no bid button to press
    bid3 = page.get_by_role("button", name="Bid 3")
    play = page.get_by_role("button", name="Play", exact=True)
    # The table as it comes: the learner's bid, or (the auction already over) the play; waited for, never a
    # pace (the fresh-clone run with a busy loop once took over a minute to draw the bid buttons here).
    expect(bid3.or_(play).first).to_be_visible(timeout=180_000)
    if bid3.is_visible():
        (bid3 if bid3.is_enabled() else page.locator("#bid-buttons").get_by_role("button", name="Pass")).click()
        ready(page)
    expect(play).to_be_visible(timeout=60_000)
    hand = page.locator("#hand .card")
    before = hand.count()
    page.get_by_role("button", name="Hint").click()  # the coach's move: always playable
    ready(page)
    if page.locator("#hand .card[aria-pressed='true']").count():
        play.click()
        ready(page)
        expect(hand).not_to_have_count(before, timeout=60_000)  # a move made, by a worker that keeps nothing of it in memory
    else:  # following a play the coach would pass: passing is the move
        page.locator("#play-buttons").get_by_role("button", name="Pass").click()
        ready(page)
    page.reload()
    ready(page)
    assert hand.count() <= before
    page.get_by_role("button", name="Sign out").click()
    expect(page).to_have_url(f"{server}/signin", timeout=60_000)
    page.goto(f"{server}/play")
    expect(page).to_have_url(f"{server}/signin", timeout=60_000)
