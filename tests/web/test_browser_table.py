"""The table on a 360 px phone, the card counter on the table, and keyboard play in learn-from-your-mistakes.

Real Chromium (tests/web/conftest.py's browser, and a server and store of this file's own, so it
runs beside the other browser files; helpers in tests/web/browser.py).  The hit areas
are measured with ``elementFromPoint`` — what a finger's tap would reach —
never judged by eye.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.browser import fresh_deal, needs_browser, open_mistakes, ready
from tests.web.test_browser_phone import accessibility

pytestmark = needs_browser

#: For each card of the hand: the box of the points where a tap lands on that card, and whether some
#: width × height rectangle is all that card's (sampled every 2 px; a summed-area table finds it).
HIT_AREAS = """([width, height]) => {
    document.getElementById('hand').scrollIntoView({block: 'center'});
    const step = 2, wide = width / step, side = height / step;
    return [...document.querySelectorAll('#hand .card')].map((card) => {
        const box = card.getBoundingClientRect();
        const xs = [], ys = [];
        for (let x = Math.ceil(box.left); x < box.right; x += step) xs.push(x);
        for (let y = Math.ceil(box.top); y < box.bottom; y += step) ys.push(y);
        const sum = Array.from({length: ys.length + 1}, () => new Array(xs.length + 1).fill(0));
        let left = Infinity, top = Infinity, right = -Infinity, bottom = -Infinity;
        ys.forEach((y, j) => xs.forEach((x, i) => {
            const at = document.elementFromPoint(x, y);
            const hit = !!at && at.closest('.card') === card ? 1 : 0;
            if (hit) { left = Math.min(left, x); top = Math.min(top, y);
                       right = Math.max(right, x + step); bottom = Math.max(bottom, y + step); }
            sum[j + 1][i + 1] = hit + sum[j][i + 1] + sum[j + 1][i] - sum[j][i];
        }));
        let square = false;
        for (let j = 0; j + side <= ys.length && !square; j++)
            for (let i = 0; i + wide <= xs.length && !square; i++)
                square = sum[j + side][i + wide] - sum[j][i + wide] - sum[j + side][i] + sum[j][i] === side * wide;
        return {rank: card.dataset.rank, width: right - left, height: bottom - top, square,
                inside: box.left >= 0 && box.right <= window.innerWidth};
    });
}"""


@pytest.fixture()
def phone(page: Any) -> Any:
    """The lent page (tests/web/conftest.py) at 360×640."""
    page.set_viewport_size({"width": 360, "height": 640})
    return page


def _landlord_on_deal_42(page: Any, server: str) -> None:
    """Deal 42: the learner may bid 3 and takes the kitty: a 20-card hand (resumed when already started)."""
    fresh_deal(page, server, 42)
    if page.locator("#bid-buttons").is_visible():  # else the game on this deal is resumed, past the auction
        page.get_by_role("button", name="Bid 3").click()
        ready(page)
    page.get_by_role("button", name="Play", exact=True).wait_for()


#: The smallest part of a card a finger must be able to tap: a strip at least 24 px wide (WCAG 2.5.8's
#: minimum target) and 40 px tall. A 20-card hand in two rows on a 360 px phone shows ~30 px strips.
TARGET = (24, 40)


def test_every_card_of_a_20_card_hand_is_a_finger_target_in_two_rows_on_a_360_px_phone(phone: Any, server: str) -> None:
    _landlord_on_deal_42(phone, server)
    hand = phone.locator("#hand .card")
    assert hand.count() == 20
    tops = phone.evaluate("new Set([...document.querySelectorAll('#hand .card')].map((c) => c.getBoundingClientRect().top)).size")
    assert tops == 2, f"20 cards in {tops} rows at 360 px"
    areas = phone.evaluate(HIT_AREAS, TARGET)
    small = [area for area in areas if not (area["square"] and area["inside"])]
    assert not small, small
    print(f"\nnarrowest tappable strip at 360 px: {min(a['width'] for a in areas)} × "
          f"{min(a['height'] for a in areas)} px")

    # A card raised by a tap keeps the cards around it finger targets too.
    hand.nth(7).tap()
    ready(phone)
    assert phone.locator("#hand .card[aria-pressed='true']").count() == 1
    areas = phone.evaluate(HIT_AREAS, TARGET)
    assert all(area["square"] for area in areas), areas

    # A swipe along a row still raises the run (pointer drag over three neighbours).
    phone.keyboard.press("Escape")
    ready(phone)
    boxes = [hand.nth(i).bounding_box() for i in range(3)]
    assert boxes[0]["y"] == boxes[2]["y"]  # one row
    phone.mouse.move(boxes[0]["x"] + 8, boxes[0]["y"] + 30)
    phone.mouse.down()
    for box in boxes[1:]:
        phone.mouse.move(box["x"] + 8, box["y"] + 30)
    phone.mouse.up()
    ready(phone)
    assert phone.locator("#hand .card[aria-pressed='true']").count() == 3


def test_the_card_counter_is_switched_on_the_table(phone: Any, server: str, context: Any) -> None:
    from playwright.sync_api import expect

    from tutor.store import Store

    _landlord_on_deal_42(phone, server)
    toggle = phone.get_by_role("button", name="Card counter")
    counter = phone.locator("#counter")
    expect(toggle).to_have_attribute("aria-pressed", "false")
    expect(counter).to_be_hidden()
    toggle.click()
    ready(phone)
    expect(toggle).to_have_attribute("aria-pressed", "true")
    expect(counter).to_be_visible()
    expect(counter).to_contain_text("2:")
    with Store.open(context.store_path) as store:
        assert store.get_setting("counter", False) is True
    phone.goto(f"{server}/settings")
    ready(phone)
    expect(phone.locator("#set-counter")).to_be_checked()
    phone.locator("#set-counter").uncheck()
    ready(phone)
    phone.goto(f"{server}/play")
    ready(phone)
    expect(phone.get_by_role("button", name="Card counter")).to_have_attribute("aria-pressed", "false")
    expect(phone.locator("#counter")).to_be_hidden()


def test_learning_from_mistakes_by_keyboard(phone: Any, server: str, context: Any) -> None:
    from playwright.sync_api import expect

    from tests.web.test_mistakes import store_blunder_game

    game_id = store_blunder_game(context.store_path.parent)
    board = open_mistakes(phone, server, game_id)
    expect(board.locator(".keys").last).to_contain_text("Enter")
    status = board.get_by_role("status")
    phone.keyboard.type("5")
    ready(phone)
    expect(board.locator(".hand .card[aria-pressed='true']")).to_have_count(1)
    phone.keyboard.press("Enter")
    ready(phone)
    expect(status).to_contain_text("there is better")
    phone.keyboard.press("Escape")
    expect(board.locator(".hand .card[aria-pressed='true']")).to_have_count(0)
    phone.keyboard.type("a")
    ready(phone)
    phone.keyboard.press("Enter")
    ready(phone)
    expect(board).to_contain_text("Good: A wins 100%")

    # H shows the better move (and the replay goes on: here it ends); N skips a moment without it,
    # read by its place on the keyboard: with a Russian layout on, N types «т».
    for key, shown in (("h", True), ("т", False)):
        open_mistakes(phone, server, game_id)
        expect(board.locator(".hand")).to_be_visible()
        if key.isascii():
            phone.keyboard.press(key)
        else:
            phone.evaluate("""(key) => document.body.dispatchEvent(new KeyboardEvent('keydown',
                {key, code: 'KeyN', bubbles: true}))""", key)
        ready(phone)
        expect(board.locator(".hand")).to_have_count(0)
        assert (board.get_by_text("Better move").count() > 0) is shown


def test_a_server_out_of_reach_is_said_in_the_learners_language(phone: Any, server: str) -> None:
    """The page's words come with the page: with the server gone, the line is still Russian."""
    from playwright.sync_api import expect

    phone.goto(f"{server}/play?lang=ru")
    ready(phone)
    toggle = phone.get_by_role("button", name="Счётчик карт")
    expect(toggle).to_be_visible()
    phone.route("**/api/**", lambda route: route.abort())
    toggle.click()
    ready(phone)
    expect(phone.locator("#status")).to_contain_text("не отвечает")
    phone.unroute("**/api/**")


#: What of a view is not Russian or does not fit: Latin words in visible text or in an accessible name
#: (single letters are card ranks: J Q K A; a puzzle's id such as 00ae67 is a number, not a word),
#: and a page wider than the screen (or taller, on the table).
NOT_RUSSIAN = """(table) => {
    const out = [], words = /[A-Za-z]{2,}/, ids = /\\b(?=[0-9a-f]*[0-9])[0-9a-f]{6,}\\b/g;
    const latin = { test: (text) => words.test(text.replace(ids, '')) };
    // a label's own words: not the options of the control inside it (the language list names "English")
    const labelText = (label) => [...label.childNodes].filter((n) => !n.matches || !n.matches('select, input'))
        .map((n) => n.textContent).join('');
    const shown = (n) => n && n.getClientRects().length && !n.closest('[hidden], [aria-hidden="true"]');
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode())
        if (shown(n.parentElement) && latin.test(n.textContent)) out.push(`text: ${n.textContent.trim().slice(0, 40)}`);
    for (const c of document.querySelectorAll('button, a, select, input, [role], h1, h2')) {
        if (!shown(c)) continue;
        const labelled = c.getAttribute('aria-labelledby');
        const name = c.getAttribute('aria-label') || (labelled && document.getElementById(labelled)?.textContent)
            || (c.labels && c.labels[0] && labelText(c.labels[0])) || c.textContent;
        if (!name.trim() && c.matches('button, a, select, input')) out.push(`no name: ${c.outerHTML.slice(0, 60)}`);
        if (latin.test(name)) out.push(`name: ${name.trim().slice(0, 40)}`);
    }
    const root = document.scrollingElement;
    if (root.scrollWidth > innerWidth) out.push(`wider than the screen: ${root.scrollWidth}`);
    if (table && root.scrollHeight > innerHeight) out.push(`the table scrolls: ${root.scrollHeight}`);
    // (a row that scrolls sideways inside itself, within the screen — the puzzle's bar — holds its overflow)
    const scroller = (n) => { for (let p = n.parentElement; p; p = p.parentElement) {
        if (['auto', 'scroll'].includes(getComputedStyle(p).overflowX)) return p.getBoundingClientRect().right <= innerWidth + 0.5; }
        return false; };
    for (const n of document.querySelectorAll('body *')) {
        const r = n.getBoundingClientRect();
        if (shown(n) && r.width && (r.right > innerWidth + 0.5 || r.left < -0.5) && !scroller(n)) out.push(`overflows: ${n.tagName} ${n.className} ${Math.round(r.right)}`);
    }
    return out;
}"""


def test_the_page_in_russian_on_a_360_px_phone(phone: Any, server: str) -> None:
    """Every view at 360×640 in Russian: nothing wider than the screen, the table without scrolling,
    no English word left on the page or in an accessible name, the top bar's last tab clear of the edge."""
    for view, table in (("play", True), ("learn", False), ("puzzle", False), ("history", False), ("settings", False)):
        phone.goto(f"{server}/{view}?lang=ru" + ("&deal=46&level=easy" if view == "play" else ""))
        ready(phone)
        if view == "play":
            abandon = phone.get_by_role("button", name="Бросить и начать новую")
            if abandon.count():
                abandon.click()
                ready(phone)
            phone.locator("#hand .card").first.wait_for()
            edge = phone.evaluate("innerWidth - document.querySelector('.top a:last-child').getBoundingClientRect().right")
            assert edge >= 4, f"the last tab is {edge} px from the screen's edge"
            more = phone.get_by_role("button", name="ещё", exact=True)
            cut = "(s => s.scrollHeight > s.clientHeight + 1)(document.getElementById('status'))"
            assert more.is_visible() == phone.evaluate(cut), "a line cut short has its «ещё», a whole one none"
            if more.is_visible():  # a long bidding estimate: its first lines, and "ещё" opens the rest
                found = phone.evaluate(NOT_RUSSIAN, table)
                assert found == [], (view, found)
                more.click()
                assert not phone.evaluate(cut)
                table = False  # opened on request, the line may push the page down
        if view == "puzzle":
            phone.locator(".library-row").first.wait_for()
        found = phone.evaluate(NOT_RUSSIAN, table)
        assert found == [], (view, found)
        if view == "puzzle":  # a puzzle's table: Russian through and through, and no contrast or name violation
            phone.get_by_role("button", name="Задача дня").click()
            ready(phone)
            phone.locator("#puzzle .felt").first.wait_for()
            found = phone.evaluate(NOT_RUSSIAN, False)
            assert found == [], ("the daily puzzle", found)
            accessibility(phone, "a puzzle")
