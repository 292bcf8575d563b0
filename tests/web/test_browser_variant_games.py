"""Whole coached games of the two new variants in real Chromium (RULES §12.1, §12.3, §12.4), to the final card: the
wildcard game and four players, each alone and with rob the landlord, the three levels spread over them so that
each level and each variant is played.  The learner answers the auction on the buttons the rules show
(``#bid-buttons`` for 1-2-3, ``#rob-buttons`` for call/rob), then for :data:`BROWSER_TURNS` turns asks for the
coach's hint and taps it (its cards, or a pass); the rest of the game is played through the page's own API
(:func:`tests.web.browser.play_on_by_api`: the same hint-and-play each turn) and the page, reloaded, shows the
final card.  The coach judges on the suite's tiny budget, the hard bots play on the light one
(``light_hard_bot``).  Then ``ddz history --json`` reads the game with its ``rules`` (``players``, ``wild_rank``,
``auction``, ``open_hand``) and ``multipliers``.

Why not every turn in the browser (as before round 11): a turn drawn and tapped costs Chromium, Playwright's
driver and the test ~0.25 s of CPU, and the middle of a game tapped turn by turn is played elsewhere —
tests/web/test_browser_phone.py (a whole three-player game, every turn looked at) and
tests/web/test_browser_four.py (a whole four-player game, every turn at five sizes).  What only this file
showed in the browser and now shows in the first turns only: a wildcard game's plays (a reading offered twice,
``#options``, when the hint's cards read two ways).

One page for the four games (the browser's CPU), the file's own server and store.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from click.testing import CliRunner

from tests.web.browser import fresh_deal, needs_browser, open_page, play_on_by_api, ready, relaid, walk_game
from tutor.cli.main import main

pytestmark = needs_browser


@pytest.fixture(scope="module")
def table(browser: Any) -> Iterator[Any]:
    """One phone page (390×844, touch, reduced motion) for every game of this file."""
    with open_page(browser) as page:
        yield page


#: (settings, deal, level, the rules ``history --json`` must record).  Each level plays each variant once.
GAMES = [
    ({"wildcard": True, "auction": "bid", "players": 3}, 3, "easy",
     {"players": 3, "auction": "bid", "open_hand": "off", "wild": "random_rank"}),
    ({"wildcard": True, "auction": "rob", "players": 3}, 42, "medium",
     {"players": 3, "auction": "rob", "open_hand": "off", "wild": "random_rank"}),
    ({"wildcard": False, "auction": "bid", "players": 4}, 4, "hard",
     {"players": 4, "auction": "bid", "open_hand": "off", "decks": 2, "wild_rank": -1}),
    ({"wildcard": False, "auction": "rob", "players": 4}, 11, "easy",
     {"players": 4, "auction": "rob", "open_hand": "off", "decks": 2, "wild_rank": -1}),
]


#: The opponents' boxes the game value covers (a wildcard game's «Game: 10 × 1 = 10 (no rob) · wild rank 4» on one
#: line was wider than the middle column of a phone on its side).
CELL_OVER_SEATS = """() => {
    const g = document.querySelector('#game-cell').getBoundingClientRect();
    return [...document.querySelectorAll('#felt > .seat:not(.me)')].filter((seat) => {
        const r = seat.getBoundingClientRect();
        return g.right > r.left + 0.5 && g.left < r.right - 0.5 && g.bottom > r.top + 0.5 && g.top < r.bottom - 0.5;
    }).map((seat) => seat.id);
}"""

#: The turns (the auction's answers included) tapped in the browser before the rest is played through the API.
BROWSER_TURNS = 4

#: The classic values of the variant fields, which the stored rules leave out.
UNSET = {"auction": "bid", "open_hand": "off", "wild": "off", "wild_rank": -1, "decks": 1}


def _auction(page: Any, words: list[str]) -> bool:
    """Answer the auction on the buttons it shows: call or rob when we may (no redeal), else the lowest bid."""
    robs = page.locator("#rob-buttons button:enabled:visible")
    if robs.count():
        names = [b.inner_text() for b in robs.all()]
        word = next(w for w in ("Rob", "Call", "Pass") if w in names)
        robs.nth(names.index(word)).click()
    else:
        bids = page.locator("#bid-buttons button:enabled:visible")
        if not bids.count():
            return False
        word = bids.first.inner_text()  # the lowest bid left, or Pass when none is
        bids.first.click()
    words.append(word)
    ready(page)
    return True


@pytest.mark.parametrize(("settings", "deal", "level", "rules"), GAMES,
                         ids=["wild-easy", "wild-rob-medium", "four-hard", "four-rob-easy"])
def test_rules_12_a_whole_coached_variant_game_in_the_browser_is_stored_with_its_rules(
    table: Any, server: str, context: Any, tiny_coach: None, light_hard_bot: None, monkeypatch: pytest.MonkeyPatch,
    settings: dict[str, Any], deal: int, level: str, rules: dict[str, Any],
) -> None:
    with context.store() as store:
        for key, value in settings.items():
            store.set_setting(key, value)
        store.set_setting("open_hand", False)
    try:
        fresh_deal(table, server, deal, level)
        cell = table.locator("#game-cell").inner_text().lower()
        assert ("wild rank" in cell) == settings["wildcard"], cell  # the deal's wild rank, public from the start
        if settings["wildcard"]:  # round 14: on its side the long game value covered both opponents' counts
            size = table.viewport_size
            table.set_viewport_size({"width": 640, "height": 360})
            relaid(table)
            assert table.evaluate(CELL_OVER_SEATS) == [], "the game value covers a seat at 640×360"
            table.set_viewport_size(size)
        if settings["players"] == 4:
            assert table.locator("#felt.seats-4").count() == 1  # three opponents
        words: list[str] = []

        def visit(turn: int) -> bool:
            """The auction on its buttons; the first turns' hints tapped (walk_game); then the rest by the API."""
            if _auction(table, words):
                return True
            if turn >= BROWSER_TURNS and words:
                play_on_by_api(table, server)
                return True
            return False

        walk_game(table, visit, turns=200)
        final = table.locator("#final")
        assert final.is_visible()
        assert words, "the auction was never ours"
        if settings["auction"] == "rob":
            assert set(words) <= {"Call", "Rob", "Pass"}, words
        else:
            assert not {"Call", "Rob"} & set(words), words
    finally:
        with context.store() as store:
            store.set_setting("players", 3)
            store.set_setting("auction", "bid")
            store.set_setting("wildcard", False)
    monkeypatch.setenv("DDZ_HOME", str(context.store_path.parent))
    rows = json.loads(CliRunner().invoke(main, ["history", "--json"], catch_exceptions=False).output)
    game = rows[0]
    recorded = {**UNSET, **game["rules"]}  # a variant field at its classic value is left out (Rules.to_json)
    assert {key: recorded[key] for key in rules} == rules, game["rules"]
    assert game["level"] == level and not game["abandoned"]
    if settings["wildcard"]:
        assert 0 <= recorded["wild_rank"] <= 12  # the deal's drawn rank, 3 … 2
    multipliers = game["multipliers"]
    assert isinstance(multipliers, list) and all(isinstance(m, str) for m in multipliers)
    assert words.count("Rob") <= multipliers.count("rob")  # each of our robs doubled the game
    if settings["auction"] == "bid":
        assert "rob" not in multipliers
