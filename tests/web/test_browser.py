"""The page in a real browser: Debian's headless Chromium driven by Playwright (auto-waiting, no sleeps).

Covers what a learner does with a mouse or a finger: bid, tap and swipe cards,
hint twice, undo, play a whole game to the final card and the same deal again;
solve a puzzle; pass a lesson step; switch the language.  The page weight and
the time to interactive are printed (``-s`` shows them), never asserted.

The browser, the server on this file's own store and the page are tests/web/conftest.py's, the
gestures tests/web/browser.py's (skipped, loudly, without Chromium or Playwright).
"""

from __future__ import annotations

import re
from typing import Any

from tests.web.browser import card_name, fresh_deal, needs_browser, open_mistakes, pressed, ready, tap

pytestmark = needs_browser


def test_a_whole_game_by_tapping_and_swiping(page: Any, server: str, small_coach: None) -> None:
    """The page's flow around the coach (its words are tests/coach's): the coach judges on a small budget
    (tiny_coach weighs one candidate: the second hint would have no second idea to show)."""
    from playwright.sync_api import expect

    page.goto(f"{server}/play?deal=42&level=easy")
    ready(page)
    figures = page.evaluate("""() => {
        const entries = performance.getEntriesByType('resource').concat(performance.getEntriesByType('navigation'));
        return {bytes: entries.reduce((sum, e) => sum + (e.transferSize || e.encodedBodySize || 0), 0),
                files: entries.length, ready: Number(document.body.dataset.readyAt)};
    }""")
    print(f"\npage weight: {figures['bytes'] / 1024:.1f} KiB in {figures['files']} requests; "
          f"time to interactive: {figures['ready']:.0f} ms")

    # The auction: the bid buttons are named "Bid 1", "Bid 2", "Bid 3" and "Pass".
    for name in ("Bid 1", "Bid 2", "Bid 3"):
        expect(page.get_by_role("button", name=name)).to_be_visible()
    bid3 = page.get_by_role("button", name="Bid 3")
    (bid3 if bid3.is_enabled() else page.locator("#bid-buttons").get_by_role("button", name="Pass")).click()
    ready(page)
    play = page.get_by_role("button", name="Play", exact=True)
    expect(play).to_be_visible()
    status = page.get_by_role("status").first

    # Tap: a card is a button named by its rank, aria-pressed when raised; the status line answers.
    hand = page.locator("#hand .card")
    first = hand.first
    tap(first)
    expect(first).to_have_attribute("aria-pressed", "true")
    ready(page)
    expect(status).not_to_be_empty()
    tap(first)
    expect(first).to_have_attribute("aria-pressed", "false")
    ready(page)

    # Swipe: a pointer drag across three cards raises the run.
    boxes = [hand.nth(i).bounding_box() for i in range(3)]
    page.mouse.move(boxes[0]["x"] + 5, boxes[0]["y"] + 20)
    page.mouse.down()
    page.mouse.move(boxes[1]["x"] + 5, boxes[1]["y"] + 20)
    page.mouse.move(boxes[2]["x"] + 5, boxes[2]["y"] + 20)
    page.mouse.up()
    ready(page)
    assert pressed(page) == 3
    page.keyboard.press("Escape")
    ready(page)
    assert pressed(page) == 0

    # Hint twice: each time the suggested cards are raised and the status line says which idea it is.
    page.get_by_role("button", name="Hint").click()
    ready(page)
    expect(status).to_contain_text("1")
    page.get_by_role("button", name="Hint").click()
    ready(page)
    expect(status).to_contain_text("2")

    cards_before = hand.count()
    undone = False
    for _turn in range(40):
        game_over = page.locator("#final")
        if game_over.is_visible():
            break
        if not play.is_visible():
            ready(page)
            continue
        if pressed(page) == 0:
            page.get_by_role("button", name="Hint").click()
            ready(page)
        if pressed(page) == 0:
            page.locator("#play-buttons").get_by_role("button", name="Pass").click()
        else:
            play.click()
        ready(page)
        if page.locator("#options").is_visible():
            page.locator("#options button").first.click()
            ready(page)
        if not undone and play.is_visible():
            page.get_by_role("button", name="Undo").click()
            ready(page)
            assert hand.count() == cards_before
            undone = True
    final = page.locator("#final")
    expect(final).to_be_visible()
    expect(final).to_contain_text("42")
    expect(final).to_contain_text("undos 1")
    expect(final.get_by_role("button", name="Learn from your mistakes", exact=True)).to_be_visible()
    page.get_by_role("button", name="Same deal").click()
    ready(page)
    expect(page.locator("#game-title")).to_contain_text("Deal 42")
    expect(page.locator("#game-title")).to_contain_text("not scored")
    expect(page.get_by_role("button", name="New deal").first).to_be_visible()


def test_keyboard_play(page: Any, server: str) -> None:
    from playwright.sync_api import expect

    fresh_deal(page, server, 5)
    if page.locator("#bid-buttons").is_visible():
        page.keyboard.press("3" if page.get_by_role("button", name="Bid 3").is_enabled() else "0")
        ready(page)
    expect(page.get_by_role("button", name="Play", exact=True)).to_be_visible()
    lowest = page.locator("#hand .card").first.get_attribute("data-rank")
    page.locator("body").press("h")
    ready(page)
    assert pressed(page) >= 0
    page.keyboard.press("Escape")
    page.keyboard.type(lowest.lower())
    ready(page)
    assert pressed(page) == 1
    expect(page.get_by_role("status").first).to_contain_text("·")


def test_a_puzzle_says_one_result_everywhere(page: Any, server: str, context: Any) -> None:
    """A wrong move first, then the position played out with hints: the page never says "Solved!" beside
    a rating loss — its words, the rating line, the stats and the library all say "not solved"."""
    from playwright.sync_api import expect

    from tutor.puzzles.progress import PuzzleProgress
    from tutor.store import Store

    page.goto(f"{server}/puzzle")
    ready(page)
    expect(page.get_by_role("heading", name="Puzzle library")).to_be_visible()  # nothing open: the library
    page.get_by_role("button", name="Daily puzzle").click()
    ready(page)
    session = context.puzzle.slot.session
    right = session.puzzle.first_move
    pos = session.attempt.position
    wrong = next(m for m in pos.legal_moves() if m is not None and len(m.text) == 1
                 and m.text != right)  # the puzzle's winning first move is its only one
    hand = page.locator("#puzzle-hand")
    tap(hand.get_by_role("button", name=card_name(wrong.text), exact=True).first)
    ready(page)
    page.locator("#puzzle").get_by_role("button", name="Play", exact=True).click()
    ready(page)
    expect(page.locator("#puzzle")).to_contain_text("Not the winning move")
    for _move in range(20):
        if page.locator("#puzzle .log").get_by_text(re.compile("Solved|not solved|Not solved|not rated")).count():
            break
        hint = page.locator("#puzzle").get_by_role("button", name="Hint")
        hint.click()
        ready(page)
        page.locator("#puzzle").get_by_role("button", name="Hint").click()
        ready(page)
        if page.locator("#puzzle-hand .card[aria-pressed='true']").count():
            page.locator("#puzzle").get_by_role("button", name="Play", exact=True).click()
        else:
            page.locator("#puzzle").get_by_role("button", name="Pass").click()
        ready(page)
        options = page.locator("#puzzle .options button")
        if options.count():
            options.first.click()
            ready(page)
    board = page.locator("#puzzle")
    expect(board).to_contain_text("counted as not solved")
    expect(board).not_to_contain_text("Solved!")
    expect(board).to_contain_text(re.compile(r"→ \d+ \([-−]\d"))  # the rating line: a loss
    with Store.open(context.store_path) as store:
        stats = PuzzleProgress(store).stats(__import__("datetime").date.today())
    assert stats.failed >= 1 and session.puzzle.id in stats.to_replay
    page.get_by_role("button", name="Library").click()
    ready(page)
    page.get_by_label("Result").select_option("again")
    expect(page.locator(".library-row").filter(has_text=session.puzzle.id)).to_contain_text("to try again")


def test_a_lesson_step_is_passed_in_the_browser(page: Any, server: str, context: Any) -> None:
    from playwright.sync_api import expect

    page.goto(f"{server}/learn")
    ready(page)
    page.get_by_role("button", name="Start: The cards and their order").click()
    ready(page)
    while page.get_by_role("button", name="Next", exact=True).count():
        page.get_by_role("button", name="Next", exact=True).click()
        ready(page)
    expect(page.locator("#lesson .hand")).to_be_visible()
    solution = context.lesson.slot.session.solution()  # the step's proven answer: one card here
    tap(page.locator("#lesson .hand").get_by_role("button", name=card_name(solution), exact=True).first)
    page.locator("#lesson").get_by_role("button", name="Play", exact=True).click()
    ready(page)
    expect(page.locator("#lesson .good").first).to_be_visible()


def test_learning_from_mistakes_in_the_browser(page: Any, server: str, context: Any) -> None:
    from playwright.sync_api import expect

    from tests.web.test_mistakes import store_blunder_game

    game_id = store_blunder_game(context.store_path.parent)
    board = open_mistakes(page, server, game_id)
    expect(board).to_contain_text("you played 5")
    tap(board.locator(".hand").get_by_role("button", name="5", exact=True).first)
    board.get_by_role("button", name="Play", exact=True).click()
    ready(page)
    expect(board.get_by_role("status")).to_contain_text("there is better")
    tap(board.locator(".hand").get_by_role("button", name="A", exact=True))
    board.get_by_role("button", name="Play", exact=True).click()
    ready(page)
    expect(board).to_contain_text("Good: A wins 100%")


def test_switching_the_language(page: Any, server: str) -> None:
    from playwright.sync_api import expect

    page.goto(f"{server}/settings")
    ready(page)
    page.get_by_label("Language").select_option("ru")
    ready(page)
    expect(page.get_by_role("link", name="Игра")).to_be_visible()
    page.get_by_role("link", name="Игра").click()
    ready(page)
    expect(page.get_by_role("button", name="Подсказка").or_(page.get_by_role("button", name="Ставка 1"))).to_be_visible()
    page.goto(f"{server}/settings")
    ready(page)
    page.get_by_label("Язык").select_option("en")
    ready(page)
    expect(page.get_by_role("link", name="Play")).to_be_visible()


def test_the_insights_page_on_a_phone(page: Any, server: str, context: Any) -> None:
    """Your habits across games (issue 29) at 390×844: reachable from the menu, no sideways scroll, both
    languages; a small cost's moment opens its game's replay."""
    from playwright.sync_api import expect

    from tests.web.test_insights import store_habit_games

    first, _ = store_habit_games(context.store_path.parent)
    page.goto(f"{server}/history")
    ready(page)
    page.get_by_role("link", name="Habits", exact=True).click()
    ready(page)
    habit = page.locator("#insights .habit[data-code='plays_into_bomb']")
    expect(habit.get_by_role("heading", name="played into a possible bomb")).to_be_visible()
    expect(habit).to_contain_text("points of win chance lost in all")
    assert page.evaluate("document.scrollingElement.scrollWidth <= innerWidth")
    box = habit.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390
    habit.get_by_role("button", name=f"game {first} move 2", exact=True).click()  # a small cost: the replay
    ready(page)
    expect(page.locator("#history .replay")).to_be_visible()
    page.goto(f"{server}/insights?lang=ru")
    ready(page)
    expect(page.get_by_role("heading", name="Ваши привычки по всем партиям")).to_be_visible()
    expect(page.get_by_role("heading", name="сыграл под возможную бомбу").first).to_be_visible()


def test_a_script_error_in_the_lent_page_fails_its_test(browser: Any, _held_page: dict[str, Any]) -> None:
    """The page lent from test to test (tests/web/browser.py's reused_page) still fails a test whose page
    throws, and the next test gets it clean and at its own size."""
    import pytest

    from tests.web.browser import reused_page

    with pytest.raises(AssertionError, match="script errors in the page: .*boom"), \
            reused_page(_held_page, browser, 360, 640) as page, page.expect_event("pageerror"):
        page.evaluate("() => { setTimeout(() => { throw new Error('boom'); }); }")
    with reused_page(_held_page, browser) as page:
        assert page.url == "about:blank" and page.viewport_size == {"width": 390, "height": 844}


def test_a_wait_on_the_page_fails_instead_of_hanging(page: Any, server: str) -> None:
    """tests/web/browser.py's waits on the page's own promises (two animation frames after a resize, the running
    animations) have no Playwright timeout: each fails with what it waited for instead of holding the worker and
    the CI run for ever (a run in round 11 hung ten minutes at the start of the phone game)."""
    import pytest

    from tests.web.browser import relaid, settled

    fresh_deal(page, server, 5)
    relaid(page)  # frames come and nothing runs: both return
    settled(page)
    page.evaluate("() => { document.body.animate([{opacity: 1}, {opacity: 0.9}], {duration: 1000, iterations: Infinity,"
                  " id: 'endless'}); window.requestAnimationFrame = () => 0; }")
    with pytest.raises(Exception, match="animations still running after 0.3 s: endless"):
        settled(page, 300)
    with pytest.raises(Exception, match="no animation frame in 0.3 s"):
        relaid(page, 300)
