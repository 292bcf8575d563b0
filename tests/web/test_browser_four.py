"""The four-player table on a phone (RULES §12.4), in real Chromium: three opponents with their card
backs and counts, the trick, the status line and a 25-card hand on one screen at 390×844 and 360×740."""

from __future__ import annotations

import os
from pathlib import Path
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from tests.web.browser import fresh_deal, needs_browser, relaid, sized
from tests.web.browser import OFF_SCREEN

pytestmark = needs_browser
#: DDZ_SHOTS=dir keeps screenshots of the table (for a look by eye); unset in the suite.
SHOTS = Path(os.environ["DDZ_SHOTS"]) if os.environ.get("DDZ_SHOTS") else None

ON_SCREEN = {
    "#seat-1": "right opponent", "#seat-2": "opponent across", "#seat-3": "left opponent",
    "#seat-1 .fan": "right opponent's backs", "#seat-2 .fan": "backs across", "#seat-3 .fan": "left opponent's backs",
    "#trick": "the trick", "#game-cell": "the game value", "#status": "the status line", "#hand": "the hand",
    "#controls .buttons:not([hidden])": "the buttons",
}


def test_rules_12_4_the_four_player_table_fits_a_phone(page: Any, server: str, context: Any) -> None:
    with context.store() as store:
        store.set_setting("players", 4)
    with sized(page):
        fresh_deal(page, server, 7)
        page.locator("#controls .buttons:not([hidden])").first.wait_for()  # visible (no handle)
        assert page.locator("#felt.seats-4").count() == 1
        assert page.locator("#hand .card").count() in (25, 33)  # a farmer's 25, or the landlord's 33
        names = [page.locator(f"#seat-{s} .name").inner_text() for s in (1, 2, 3)]
        assert names == ["Right", "Across", "Left"]
        assert "25" in page.locator("#seat-2").inner_text() or "33" in page.locator("#seat-2").inner_text()
        assert page.locator("#kitty .fan-count").inner_text() == "8"  # the kitty of eight
        assert page.evaluate(OFF_SCREEN, ON_SCREEN) == []
        assert page.evaluate(NAME_CUT) == []
        page.screenshot(path=str(SHOTS / "four-390.png")) if SHOTS else None
        page.set_viewport_size({"width": 360, "height": 740})
        relaid(page)
        page.screenshot(path=str(SHOTS / "four-360.png")) if SHOTS else None
        assert page.evaluate(OFF_SCREEN, ON_SCREEN) == []
        assert page.evaluate(NAME_CUT) == []
    with context.store() as store:
        store.set_setting("players", 3)


#: Cards of the hand cut off by the felt's edge, and the trick, the kitty or your own last play running into the
#: status line (round 14: your five-card last play at 640×360 ran under it, late in deal 7's game).
CLIPPED = """() => {
    const out = [];
    const felt = document.querySelector('#felt').getBoundingClientRect();
    for (const card of document.querySelectorAll('#hand .card')) {
        const r = card.getBoundingClientRect();
        if (r.left < felt.left - 0.5 || r.right > felt.right + 0.5 || r.bottom > felt.bottom + 0.5) {
            out.push(`a card of the hand cut off at ${Math.round(r.left)}–${Math.round(r.right)}`);
            break;
        }
    }
    const status = document.querySelector('#felt .status-box').getBoundingClientRect();
    for (const sel of ['#trick .mini', '#kitty .mini, #kitty .back', '#seat-0 .last .mini']) {
        for (const node of document.querySelectorAll(sel)) {
            const r = node.getBoundingClientRect();
            if (r.bottom > status.top + 0.5 && r.top < status.bottom && r.right > status.left && r.left < status.right) {
                out.push(`${sel} runs into the status line`);
                break;
            }
        }
    }
    return out;
}"""


#: The opponents' names cut: the text wider than its box (an ellipsis), or running out of the seat's name line or under
#: its card backs (round 14: «Напротив» showed as «Напро» at 360 and 390 px upright, the rest under the backs).
NAME_CUT = """() => {
    const out = [];
    for (const s of [1, 2, 3]) {
        const name = document.querySelector(`#seat-${s} .name`), who = name.closest('.who').getBoundingClientRect();
        const range = document.createRange();
        range.selectNodeContents(name);
        const text = range.getBoundingClientRect(), fan = document.querySelector(`#seat-${s} .fan`);
        const under = fan && [...fan.querySelectorAll('.back, .fan-count')].some((n) => {
            const r = n.getBoundingClientRect();
            return r.width && r.left < text.right - 0.5 && r.right > text.left + 0.5 && r.top < text.bottom && r.bottom > text.top;
        });
        // a name shrunk by a fraction of a pixel is drawn with an ellipsis («Прав…») while its whole-pixel
        // scrollWidth still equals its clientWidth (round 15): the text's own width against its box's
        const box = name.getBoundingClientRect();
        if (name.scrollWidth > name.clientWidth || text.width > box.width + 0.01 || text.right > who.right + 0.5
            || text.left < who.left - 0.5 || under)
            out.push(`${name.textContent}: ${Math.round(text.width)} px of text in ${Math.round(name.clientWidth)}${under ? ', under the backs' : ''}`);
    }
    return out;
}"""


#: The trick's cards that spill out of the felt's middle (a zone squeezed to nothing still drew 44 px cards).
TRICK_OUTSIDE = """() => {
    const m = document.querySelector('#felt .middle').getBoundingClientRect();
    return [...document.querySelectorAll('#felt .trick .mini')].filter((c) => {
        const r = c.getBoundingClientRect();
        return r.top < m.top - 2 || r.bottom > m.bottom + 2;
    }).length;
}"""


@contextmanager
def deal_7_on_its_side(page: Any, server: str, context: Any) -> Iterator[None]:
    """Deal 7 to four players on a phone on its side (640×360), its buttons shown; three players again after."""
    with context.store() as store:
        store.set_setting("players", 4)
    try:
        with sized(page, 640, 360):
            fresh_deal(page, server, 7)
            page.locator("#controls .buttons:not([hidden])").first.wait_for()  # visible (no handle)
            yield
    finally:
        with context.store() as store:
            store.set_setting("players", 3)


def play_one_turn(page: Any) -> None:
    """The learner's turn as a learner taps it: the first bid offered, else the hint's cards played (or a pass)."""
    from tests.web.browser import ready

    if page.locator("#bid-buttons:not([hidden])").count():
        page.locator("#bid-buttons button:enabled").first.click()
    else:
        page.locator("#btn-hint").click()
        ready(page)
        page.locator("#btn-play" if page.locator("#hand .card[aria-pressed='true']").count() else "#btn-pass").click()
    ready(page)


def test_rules_12_4_the_four_player_table_on_a_phone_on_its_side(page: Any, server: str, context: Any) -> None:
    """Issue 34: on its side (640×360, 740×360) and upright (360×640, 360×740, 390×844), a whole four-player game (the landlord's 33 cards, then 25; from
    the fourth turn in Russian) on one screen at every turn — three opponents, the trick inside the middle, the
    status, the buttons and every card whole — and the final card too."""
    from tests.web.browser import off_screen, ready
    from tests.web.test_browser_landscape import set_lang
    from tests.web.test_browser_phone import card_sizes

    try:
        with deal_7_on_its_side(page, server, context):
            counts = set()
            seen: set[str] = set()
            languages: set[str] = set()
            for turn in range(120):  # a whole game, every turn at the three sizes
                if page.locator("#final").is_visible():
                    break
                if turn == 3:  # from here on in Russian: the longest words
                    set_lang(page, server, "ru")
                    page.reload()
                    ready(page)
                languages.add(page.evaluate("document.documentElement.lang"))
                counts.add(page.locator("#hand .card").count())
                # on its side, and the shortest phone upright (360×640), where the landlord's 33 cards in three rows
                # left the trick's cards 21 px wide: the trick as large as the middle's strip allows
                for width, height, least in ((640, 360, 24), (740, 360, 24), (360, 640, 26), (360, 740, 26), (390, 844, 26)):
                    page.set_viewport_size({"width": width, "height": height})
                    relaid(page)  # the hand laid out again for the new width (game.js, on resize)
                    at = f"turn {turn} at {width}×{height}"
                    found = off_screen(page, ON_SCREEN) + page.evaluate(CLIPPED)
                    assert found == [], f"{at}: {found}"
                    sizes = card_sizes(page)  # the trick's cards and your last play legible (they were 28 and 16 px wide)
                    assert sizes["trick"] is None or sizes["trick"][0] >= least, f"{at}: {sizes}"
                    assert page.evaluate(TRICK_OUTSIDE) == 0, f"{at}: the trick's cards spill out of the middle"
                    assert sizes["own"] is None or sizes["own"] >= 24, f"{at}: {sizes}"
                    assert sizes["unreadable"] == [], f"{at}: {sizes}"
                    seen |= {key for key in ("trick", "own") if sizes[key]}
                play_one_turn(page)
            assert {25, 33} & counts, counts  # a whole four-player hand was among those checked
            assert seen == {"trick", "own"}, seen
            assert page.locator("#final").is_visible() and languages == {"en", "ru"}, (turn, languages)  # played to its end
            for width, height in ((640, 360), (740, 360), (360, 640), (360, 740), (390, 844)):  # the final card too
                page.set_viewport_size({"width": width, "height": height})
                assert page.evaluate("document.scrollingElement.scrollHeight") <= height, f"the final card at {width}×{height}"
    finally:
        set_lang(page, server, "en")
