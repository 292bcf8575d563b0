"""The phone table's other views and sizes, in real Chromium: a lesson step on one screen (upright and on its
side), the level picker, and an 844×390 phone on its side (the whole game at 390×844, 360×640, 640×360 and
740×360 is tests/web/test_browser_phone.py's).

A file of its own so that the suite's two workers share the phone tests (whole files go to one worker).
"""

from __future__ import annotations

from typing import Any

from tests.web.browser import card_name, fresh_deal, needs_browser, off_screen, ready, sized, tap
from tests.web.test_browser_phone import accessibility, on_screen

pytestmark = needs_browser


def test_the_level_is_kept_and_picked_at_the_table(page: Any, server: str) -> None:
    """``/play?…&level=easy`` then "New deal": still easy (the settings say medium); the picker changes it."""
    from playwright.sync_api import expect

    with sized(page):
        fresh_deal(page, server, 9, "easy")
        title = page.locator("#game-title")
        expect(title).to_contain_text("easy")
        for level, shown in ((None, "easy"), ("hard", "hard")):
            if level:
                page.get_by_label("Computer level").select_option(level)
            page.locator("#new-game").click()
            ready(page)
            page.get_by_role("button", name="Abandon it and start").click()
            ready(page)
            expect(title).to_contain_text(shown)
            expect(page.get_by_label("Computer level")).to_have_value(shown)


def lesson_until(page: Any, server: str, title: str, shown: str) -> None:
    """The course → lesson ``title``, stepped on with Next until ``shown`` (a selector) is on the page."""
    page.goto(f"{server}/learn")
    ready(page)
    page.get_by_role("button", name=f"Start: {title}").click()
    ready(page)
    while not page.locator(shown).count():
        page.get_by_role("button", name="Next", exact=True).click()
        ready(page)


def test_a_lesson_step_starts_with_no_card_raised(page: Any, server: str, context: Any) -> None:
    from playwright.sync_api import expect

    with sized(page):
        lesson_until(page, server, "The cards and their order", "#lesson .task-controls .hand .card:enabled")
        # a lesson step is one screen: its table first (the hand and Play in view), its text a caption
        assert page.evaluate("document.scrollingElement.scrollHeight") <= 844
        assert page.evaluate("document.querySelector('#lesson .task-controls .controls').getBoundingClientRect().bottom") <= 844
        # a phone on its side: the table at the left, the text and the buttons beside it, nothing scrolls
        page.set_viewport_size({"width": 640, "height": 360})
        assert off_screen(page, {"#lesson .felt": "the table", "#lesson .task-controls .controls": "Play and Pass",
                                 "#lesson .step-caption": "the caption"}) == [], "a lesson step at 640×360"
        page.set_viewport_size({"width": 390, "height": 844})
        solution = context.lesson.slot.session.solution()
        hand = page.locator("#lesson .task-controls .hand")
        tap(hand.get_by_role("button", name=card_name(solution), exact=True).first)
        expect(hand.locator(".card[aria-pressed='true']")).to_have_count(1)
        page.locator("#lesson").get_by_role("button", name="Play", exact=True).click()
        ready(page)
        tables = page.locator("#lesson .felt")
        expect(page.locator("#lesson .answered.ok")).to_have_count(1)
        accessibility(page, "a lesson step")
        expect(tables.last.locator(".card[aria-pressed='true']")).to_have_count(0)  # the next step's table
        for _step in range(6):  # the next tables drawn: none with the last step's card raised
            before = tables.count()
            following = page.get_by_role("button", name="Next", exact=True)
            if not following.count():
                break
            following.click()
            ready(page)
            if tables.count() > before:
                expect(tables.last.locator(".card[aria-pressed='true']")).to_have_count(0)
        # On its side, a 17-card hand (the first lesson's deal) in the table's column: two rows inside the table,
        # the caption and Next beside it, nothing scrolls.
        page.set_viewport_size({"width": 640, "height": 360})
        lesson_until(page, server, "How a game goes", "#lesson .felt .hand .card")
        assert off_screen(page, {"#lesson .felt": "the table", "#lesson .step-caption": "the caption",
                                 "#lesson .task-controls button": "Next"}) == [], "the first lesson at 640×360"
        assert page.evaluate(INSIDE_THE_TABLE) == [], "the hand runs out of the table"


#: The hand's cards that stick out of their table (a hand laid out for a wider table than it got).
INSIDE_THE_TABLE = """() => {
    const table = document.querySelector('#lesson .felt').getBoundingClientRect();
    return [...document.querySelectorAll('#lesson .felt .hand .card')].map((c) => c.getBoundingClientRect())
        .filter((r) => r.right > table.right + 0.5 || r.bottom > table.bottom + 0.5).map((r) => Math.round(r.right));
}"""


def test_a_phone_on_its_side_shows_the_whole_table(page: Any, server: str) -> None:
    """844×390: the auction and the first plays, everything inside the viewport (the hand in one row)."""
    with sized(page, 844, 390):
        fresh_deal(page, server, 42)
        assert on_screen(page) == [], "bidding"
        page.get_by_role("button", name="Bid 3").click()
        ready(page)
        rows = page.evaluate("new Set([...document.querySelectorAll('#hand .card')].map((c) => c.getBoundingClientRect().top)).size")
        assert rows == 1  # 20 cards in one row, each a 40 px strip
        for turn in range(3):
            assert on_screen(page) == [], f"turn {turn}"
            page.locator("#btn-hint").click()
            ready(page)
            page.locator("#btn-play").click()
            ready(page)
