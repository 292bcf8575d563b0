"""The four-player table on a phone on its side (RULES §12.4), in real Chromium, at the first turns of a fresh deal 7
in Russian: the trick's tag on the cards' line (a single beside the kitty of eight wrapped under «◀ Левый ·
Одиночная» and ran into the status line) and the opponents' boxes one line each (two last plays wrapped two boxes,
the middle fell to 29 px and the trick's cards to 20 px wide).  Found in round 13 (docs/testing.md); a module of its
own so that its store is fresh and the game goes the way it went when the defects were seen.

Round 14: the same game's turn 21 (the turns between played through the page's API): a five-card straight beside the
game value and the kitty of eight was drawn 21 px wide, and your own five-card last play ran under the status line.
Round 15: turn 23, your own ten-card last play widened the first column and cut the other two names at 640 px."""

from __future__ import annotations

from typing import Any

from tests.web.browser import game_api, needs_browser, play_the_hint, ready, relaid
from tests.web.test_browser_four import CLIPPED, NAME_CUT, TRICK_OUTSIDE, deal_7_on_its_side, play_one_turn

pytestmark = needs_browser


def play_by_api(page: Any, server: str, turns: int) -> None:
    """``turns`` of the learner's turns through the page's own API, as :func:`play_one_turn` taps them (the hint's
    cards, or a pass; the first reading of cards read several ways), then the page reloaded: the turns between
    the looks are not what this test checks (each costs the browser ~0.2-0.3 s drawn)."""
    post, data = game_api(page, server)
    for _turn in range(turns):
        assert data["game"]["waiting"] == "play", data["game"]["waiting"]
        data = play_the_hint(post, data)
    page.reload()
    ready(page)


def test_rules_12_4_a_short_play_on_its_side_stays_on_its_line(page: Any, server: str, context: Any,
                                                                small_coach: None) -> None:
    from tests.web.test_browser_landscape import set_lang
    from tests.web.test_browser_phone import card_sizes

    def look(at: str, least: float) -> dict[str, Any]:
        assert page.evaluate(CLIPPED) == [], at
        assert page.evaluate(TRICK_OUTSIDE) == 0, at
        sizes = card_sizes(page)
        assert sizes["trick"] is None or sizes["trick"][0] >= least, f"{at}: {sizes}"
        return sizes

    try:
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
                    seen += look(f"turn {turn} at {width}×360", 24)["trick"] is not None
                play_one_turn(page)
            assert seen, "no trick was on the table at the sizes checked"
            play_by_api(page, server, 14)  # to turn 21: a straight of five to beat, your own straight of five shown
            assert page.locator("#trick .mini").count() == 5 and page.locator("#kitty .mini").count() == 8
            assert page.locator("#seat-0 .last .mini").count() == 5
            for width in (640, 740):
                page.set_viewport_size({"width": width, "height": 360})
                relaid(page)
                # beside the game value and the kitty of eight the straight's cards had 21 px; now the value
                # stands above the kitty and the trick has the rest of the row
                look(f"turn 21 at {width}×360", 40)
            play_by_api(page, server, 2)  # to turn 23: your own ten-card last play beside the others' names
            assert page.locator("#seat-0 .last .mini").count() == 10
            for width in (640, 740):
                page.set_viewport_size({"width": width, "height": 360})
                relaid(page)
                # round 15: your line of ten cards had taken 216 px, «Напротив» and «Правый» were cut to «На…», «Пра…»
                look(f"turn 23 at {width}×360", 24)
                assert page.evaluate(NAME_CUT) == [], f"turn 23 at {width}×360"
    finally:
        set_lang(page, server, "en")
