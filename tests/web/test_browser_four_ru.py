"""The four-player table in Russian on a 390×844 phone (RULES §12.4): each opponent's marks stay inside its box.

Russian words are longer: «крестьянин» was clipped in the opponents' boxes and the landlord's «помещик» ran out
of the right one's box (the short phones already left the farmer's mark out; now every phone upright does)."""

from __future__ import annotations

from typing import Any

from tests.web.browser import fresh_deal, needs_browser, ready, sized

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


def test_opponents_marks_stay_inside_their_boxes_in_russian(page: Any, server: str, context: Any) -> None:
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
    finally:
        with context.store() as store:
            store.set_setting("players", 3)
            store.set_setting("lang", "en")
