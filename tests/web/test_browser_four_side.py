"""The four-player table on a phone on its side (RULES §12.4), in real Chromium, at the first turns of a fresh deal 7
in Russian: the trick's tag on the cards' line (a single beside the kitty of eight wrapped under «◀ Левый ·
Одиночная» and ran into the status line) and the opponents' boxes one line each (two last plays wrapped two boxes,
the middle fell to 29 px and the trick's cards to 20 px wide).  Found in round 13 (docs/testing.md); a module of its
own so that its store is fresh and the game goes the way it went when the defects were seen."""

from __future__ import annotations

from typing import Any

from tests.web.browser import needs_browser, ready, relaid
from tests.web.test_browser_four import CLIPPED, TRICK_OUTSIDE, deal_7_on_its_side, play_one_turn

pytestmark = needs_browser


def test_rules_12_4_a_short_play_on_its_side_stays_on_its_line(page: Any, server: str, context: Any,
                                                                small_coach: None) -> None:
    from tests.web.test_browser_landscape import set_lang
    from tests.web.test_browser_phone import card_sizes

    with deal_7_on_its_side(page, server, context):
        seen = 0
        for turn in range(7):
            if turn == 3:  # in Russian: the longest tags and names
                set_lang(page, server, "ru")
                page.reload()
                ready(page)
            for width in (640, 740):
                page.set_viewport_size({"width": width, "height": 360})
                relaid(page)
                at = f"turn {turn} at {width}×360"
                assert page.evaluate(CLIPPED) == [], at
                assert page.evaluate(TRICK_OUTSIDE) == 0, at
                sizes = card_sizes(page)
                assert sizes["trick"] is None or sizes["trick"][0] >= 24, f"{at}: {sizes}"
                seen += sizes["trick"] is not None
            play_one_turn(page)
        assert seen, "no trick was on the table at the sizes checked"
