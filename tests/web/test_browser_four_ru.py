"""The four-player table in Russian on a 390×844 phone (RULES §12.4): each opponent's marks stay inside its box, and
(round 14) each opponent's name whole at 390 and 360 px; (round 15) rob the landlord's auction on a phone on its side.

Russian words are longer: «крестьянин» was clipped in the opponents' boxes and the landlord's «помещик» ran out
of the right one's box (the short phones already left the farmer's mark out; now every phone upright does)."""

from __future__ import annotations

from typing import Any

from tests.web.browser import fresh_deal, needs_browser, off_screen, ready, relaid, sized
from tests.web.test_browser_four import CLIPPED, NAME_CUT, ON_SCREEN

pytestmark = needs_browser

#: Each opponent's visible role mark that reaches outside its seat's box.
ROLE_OUTSIDE = """() => {
    const out = [];
    for (const s of [1, 2, 3]) {
        const seat = document.querySelector(`#seat-${s}`).getBoundingClientRect();
        for (const role of document.querySelectorAll(`#seat-${s} .role`)) {
            const r = role.getBoundingClientRect();
            if (r.width === 0) continue;  // left out
            if (r.left < seat.left - 0.5 || r.right > seat.right + 0.5) out.push(`#seat-${s} ${role.textContent}`);
        }
    }
    return out;
}"""


#: The middle's game value and kitty that reach past the felt's padding.
HEAD_OUTSIDE = """() => {
    const felt = document.querySelector('#felt').getBoundingClientRect();
    return ['#game-cell', '#kitty'].filter((sel) => {
        const r = document.querySelector(sel).getBoundingClientRect();
        return r.left < felt.left + 4 || r.right > felt.right - 4;
    });
}"""

#: Any two of the table's boxes (the seats, the middle, the status line, the hand, the buttons) drawn over each other.
OVERLAPPING = """() => {
    const boxes = [...document.querySelectorAll('#felt > .seat, #felt .middle, #felt .status-box, #hand, #controls')]
        .filter((n) => n.getBoundingClientRect().width).map((n) => [n.id || n.className, n.getBoundingClientRect()]);
    const out = [];
    for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
        const [a, r] = boxes[i], [b, q] = boxes[j];
        if (Math.min(r.right, q.right) - Math.max(r.left, q.left) > 1 && Math.min(r.bottom, q.bottom) - Math.max(r.top, q.top) > 1)
            out.push(`${a} over ${b}`);
    }
    return out;
}"""


def test_opponents_marks_stay_inside_their_boxes_in_russian(page: Any, server: str, context: Any) -> None:
    from tutor.i18n import lookup

    with context.store() as store:
        store.set_setting("players", 4)
        store.set_setting("lang", "ru")
    try:
        with sized(page):
            for deal in (42,):
                fresh_deal(page, server, deal)
                page.locator("#controls .buttons:not([hidden])").first.wait_for()
                assert page.locator("#seat-2 .name").inner_text() == "Напротив"
                page.get_by_role("button", name="Ставка 3", exact=True).click()  # the roles are known from here
                ready(page)
                assert page.locator("#seat-1 .role").count() and page.evaluate(ROLE_OUTSIDE) == [], deal
                # round 14: «Напротив» was cut to «Напро» at 390 and 360 px (its third of the row)
                for width, height in ((390, 844), (360, 640)):
                    page.set_viewport_size({"width": width, "height": height})
                    relaid(page)
                    assert page.evaluate(NAME_CUT) == [], f"{width}×{height}"
        # round 14: rob the landlord, the game value «Партия: 10 × 4 = 40 (перехваты: 2, ×4)» and the kitty of eight
        # ran past both edges of the felt at 360 px (deal 11, the learner's first call)
        with context.store() as store:
            store.set_setting("auction", "rob")
        with sized(page, 360, 640):
            page.goto(f"{server}/play?deal=11&level=easy")
            ready(page)
            page.get_by_role("button", name=lookup("web.abandon_start", "ru")).click()  # deal 42's game, in progress
            ready(page)
            page.locator("#controls .buttons:not([hidden])").first.wait_for()
            assert "перехват" in page.locator("#game-cell").inner_text()
            assert page.evaluate(HEAD_OUTSIDE) == []
        # round 15: the same auction on a phone on its side (640 and 740 px; round 14 looked at it by eye only): one
        # screen, each name whole, the value and the kitty inside the felt, no two of the table's boxes over each other
        for width in (640, 740):
            with sized(page, width, 360):
                relaid(page)
                at = f"rob the landlord at {width}×360"
                assert off_screen(page, ON_SCREEN) == [], at
                assert page.evaluate(NAME_CUT) == [], at  # «Прав…», «Напрот…» at 640 px (a word beside each)
                assert page.evaluate(HEAD_OUTSIDE) == [] and page.evaluate(CLIPPED) == [], at
                assert page.evaluate(OVERLAPPING) == [], at
    finally:
        with context.store() as store:
            store.set_setting("players", 3)
            store.set_setting("lang", "en")
            store.set_setting("auction", "bid")
