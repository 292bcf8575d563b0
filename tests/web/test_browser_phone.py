"""The table on a phone: one whole game checked on one screen at four sizes, and the snags of issue 22, in real
Chromium (a lesson step and the level picker: tests/web/test_browser_phone_short.py; the restart on its side:
tests/web/test_browser_landscape.py).

One game is played by tapping at 390×844, where every turn is looked at; every third turn (and the first in each
language) the page is also looked at 360×640 (the shortest phone, where a 17–20 card hand must take two rows, not
three) and on its side at 640×360 and 740×360 (issue 34): the opponents (their card-back fans), the trick, the
status line, the game value, the hand and the buttons must lie inside the viewport and the page must not scroll.  (Four games, one per size, cost four
times the bots, the coach and Chromium's drawing for the same turns: one game looked at four ways checks the
same layouts.)  English for its first turns, Russian (the longest words) once the snags are checked.
Contrast and accessible names are checked twice: by axe-core (the
engine itself, run in the page from the ``axe-playwright-python`` test
dependency, never shipped) and by a contrast computation of our own that
also sees text on the felt's gradient (axe leaves text on a gradient "to
review").  Server, browser and helpers: tests/web/conftest.py, tests/web/browser.py.
"""

from __future__ import annotations

from typing import Any

from tests.web.browser import (
    fresh_deal,
    needs_browser,
    off_screen,
    pressed,
    ready,
    relaid,
    tap,
    walk_game,
)

pytestmark = needs_browser

#: What must be on the screen at every moment of a game (selector → what it is).
ON_SCREEN = {
    "#seat-2": "left opponent", "#seat-1": "right opponent", "#seat-2 .who": "left opponent's role",
    "#seat-1 .who": "right opponent's role", "#seat-2 .last": "left opponent's last play",
    "#seat-1 .last": "right opponent's last play", "#trick": "the trick", "#game-cell": "the game value",
    "#status": "the status line", "#hand": "the hand", "#controls .buttons:not([hidden])": "the buttons",
}

#: WCAG contrast of every visible text against what is really behind it: background colours
#: composited up the tree, and every colour of a gradient (the felt) as a possible background.
CONTRAST = """(root) => {
    const parse = (c) => { const m = /rgba?\\(([^)]+)\\)/.exec(c || ''); if (!m) return null;
        const p = m[1].split(',').map(Number); return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1]; };
    const lum = (c) => { const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
        return 0.2126 * f(c[0]) + 0.7152 * f(c[1]) + 0.0722 * f(c[2]); };
    const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
    const over = (top, under) => [0, 1, 2].map((i) => top[i] * top[3] + under[i] * (1 - top[3])).concat([1]);
    const behind = (node) => {
        const layers = [];
        for (let n = node; n && n.nodeType === 1; n = n.parentElement) {
            const cs = getComputedStyle(n);
            if (cs.backgroundImage && cs.backgroundImage !== 'none') {
                const colours = (cs.backgroundImage.match(/rgba?\\([^)]+\\)/g) || []).map(parse);
                if (colours.length) { layers.push(colours); if (colours.every((c) => c[3] >= 1)) break; }
            }
            const bg = parse(cs.backgroundColor);
            if (bg && bg[3] > 0) { layers.push([bg]); if (bg[3] >= 1) break; }
        }
        let under = [[255, 255, 255, 1]];
        for (const layer of layers.reverse()) under = layer.flatMap((c) => under.map((u) => over(c, u)));
        return under;
    };
    const bad = [];
    for (const node of (root || document.body).querySelectorAll('*')) {
        const text = [...node.childNodes].filter((c) => c.nodeType === 3).map((c) => c.textContent).join('').trim();
        if (!text || !node.getClientRects().length || node.closest('[hidden], button:disabled, [aria-hidden="true"]:not(.corner)')) continue;
        const cs = getComputedStyle(node);
        if (cs.visibility === 'hidden') continue;
        const fg = parse(cs.color);
        const size = parseFloat(cs.fontSize), bold = Number(cs.fontWeight) >= 700;
        const need = size >= 24 || (bold && size >= 18.66) ? 3 : 4.5;
        const worst = Math.min(...behind(node).map((b) => ratio(over(fg, b), b)));
        if (worst < need) bad.push(`${text.slice(0, 30)} (${node.tagName.toLowerCase()}.${node.className}): ${worst.toFixed(2)}`);
    }
    return bad;
}"""


#: What of the final card does not fit: an inner scroll, or a part outside the card or the viewport.
FINAL_FITS = """() => {
    const card = document.getElementById('final'), out = [];
    if (card.hidden) return ['no final card'];
    if (card.scrollHeight > card.clientHeight + 1) out.push(`inner scroll: ${card.scrollHeight} > ${card.clientHeight}`);
    const box = card.getBoundingClientRect();
    for (const part of card.querySelectorAll('h2, .shown-hand, .buttons button')) {
        const r = part.getBoundingClientRect();
        if (r.bottom > Math.min(box.bottom, innerHeight) + 0.5 || r.right > Math.min(box.right, innerWidth) + 0.5)
            out.push(`${part.textContent.slice(0, 20)}: ${Math.round(r.right)},${Math.round(r.bottom)}`);
    }
    return out;
}"""

#: The rows of the learner's hand (distinct card tops), its cards, and the narrowest strip a card shows.
HAND_ROWS = """() => {
    const cards = [...document.querySelectorAll('#hand .card')].map((c) => c.getBoundingClientRect());
    const tops = new Set(cards.map((r) => Math.round(r.top)));
    let strip = Infinity;
    for (let i = 1; i < cards.length; i++) if (Math.abs(cards[i].top - cards[i - 1].top) < 1) strip = Math.min(strip, cards[i].left - cards[i - 1].left);
    return [tops.size, cards.length, strip];
}"""


#: The cards' sizes as drawn (issue 34: "as large as the space allows, measured, not fixed"): the trick's first card,
#: your own last play's narrowest card, the hand's card and how much of the hand's width its rows fill, and
#: every rank (trick, seats, hand) that is too small to read or covered by the card after it.
CARD_SIZES = """(ranks) => {
    const box = (n) => n.getBoundingClientRect();
    const out = {trick: null, own: null, card: null, fill: 0, unreadable: []};
    const trick = document.querySelector('#trick .mini');
    if (trick) out.trick = [box(trick).width, box(trick).height];
    const own = [...document.querySelectorAll('#seat-0 .last .mini')].map(box);
    if (own.length) out.own = Math.min(...own.map((r) => r.width));
    const cards = [...document.querySelectorAll('#hand .card')].map(box), hand = box(document.getElementById('hand'));
    if (cards.length) {
        out.card = [cards[0].width, cards[0].height];
        out.fill = (Math.max(...cards.map((r) => r.right)) - Math.min(...cards.map((r) => r.left))) / hand.width;
        if (cards.some((r) => r.left < hand.left - 0.5 || r.right > hand.right + 0.5)) out.unreadable.push('the hand overflows its row');
    }
    for (const rank of document.querySelectorAll(ranks || '#trick .rank, #seat-0 .last .rank, #hand .rank')) {
        const r = box(rank), size = parseFloat(getComputedStyle(rank).fontSize);
        const card = rank.closest('.mini, .card'), next = card.nextElementSibling;
        const covered = next && next.matches('.mini, .card') && box(next).top <= r.top && box(next).left < r.right - 1;
        if (size < 11 || covered) out.unreadable.push(`${rank.textContent} in ${card.parentElement.closest('[id]').id}: ${size}px${covered ? ', covered' : ''}`);
    }
    return out;
}"""


def card_sizes(page: Any, ranks: str | None = None) -> dict[str, Any]:
    """The cards' sizes (:data:`CARD_SIZES`) once the page has relaid itself out for its size; ``ranks``: the
    ranks checked for legibility (a selector; the trick's, your last play's and the hand's by default)."""
    relaid(page)
    return dict(page.evaluate(CARD_SIZES, ranks))


def cards_grow_with_the_screen(page: Any) -> None:
    """Issue 34: the trick's cards grow with the screen (360×640, 390×844, 1280×800), the hand fills its row and never
    overflows it, your own last play is legible (cards >= 24 px wide, every rank >= 11 px and uncovered)."""
    trick, hand = [], []
    for width, height in ((360, 640), (390, 844), (1280, 800)):
        page.set_viewport_size({"width": width, "height": height})
        sizes = card_sizes(page)
        where = f"{width}×{height}: {sizes}"
        assert sizes["trick"] and sizes["trick"][0] >= 40, where
        assert sizes["own"] and sizes["own"] >= 24, where
        assert sizes["unreadable"] == [], where
        assert width > 600 or sizes["fill"] >= 0.9, where  # a phone's rows (12 cards or more) fill its width
        trick.append(sizes["trick"][1])
        hand.append(sizes["card"][1])
    # strictly: a fixed cap (the trick's 126 px at 390×844 and at 1280×800 alike) is not "as large as the space allows"
    assert trick[0] < trick[1] < trick[2], f"the trick's cards: {trick} px tall"
    assert hand[0] < hand[1] < hand[2], f"the hand's cards: {hand} px tall"
    page.set_viewport_size({"width": 390, "height": 844})


def hand_rows(page: Any) -> tuple[int, int]:
    """The hand's rows and cards; every card's visible strip is asserted ≥ 24 px (a finger's width)."""
    rows, count, strip = page.evaluate(HAND_ROWS)
    assert strip >= 24, f"a card shows only {strip} px"
    return rows, count


def on_screen(page: Any) -> list[str]:
    """What of the table lies outside the screen (or the page scrolls): empty when all is in view."""
    need = dict(ON_SCREEN)
    if page.locator("#seat-1 .fan").count():
        need.update({"#seat-1 .fan": "right opponent's card backs", "#seat-2 .fan": "left opponent's card backs"})
    return off_screen(page, need)


def accessibility(page: Any, where: str) -> None:
    """No contrast or name violation: axe-core's WCAG 2 A/AA rules, then our own contrast on the felt.

    ``resultTypes: ["violations"]``: every rule still runs and every violation comes back with all its nodes;
    only the passes and the "to review" are cut to one node each (axe-core's option; without it their details
    were 190 kB per run through the protocol, ~half of the run's CPU: 0.75-1.1 s -> 0.4-0.46 s measured).
    """
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page, options={"runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa"]},
                                       "resultTypes": ["violations"]})
    found = [(v["id"], [n["target"] for n in v["nodes"]][:3]) for v in results.response["violations"]]
    assert not found, f"{where}: {found}"
    low = page.evaluate(CONTRAST, None)
    assert not low, f"{where}: {low}"


#: Every time the "thinking" note shows: where it is (a MutationObserver writes into window.thinking).
WATCH_THINKING = """() => {
    window.thinking = [];
    const node = document.getElementById('thinking');
    new MutationObserver(() => { if (!node.hidden) {
        const r = node.getBoundingClientRect(), c = document.getElementById('controls').getBoundingClientRect();
        window.thinking.push({over: r.bottom > c.top && r.top < c.bottom && r.right > c.left && r.left < c.right,
                              inFelt: document.getElementById('felt').contains(node)});
    } }).observe(node, {attributes: true, attributeFilter: ['hidden']});
}"""


#: The phones upright every turn is looked at (the game itself is played at the first).
UPRIGHT = ((390, 844), (360, 640))


def resize(page: Any, width: int, height: int) -> None:
    page.set_viewport_size({"width": width, "height": height})
    relaid(page)


#: Every how many turns the table is also looked at the three other sizes (and the first turn in each language):
#: at every turn, 24 looks cost 13.7 s of the game's 41 s wall for layouts that repeat (round 8).
EVERY_SIZE_TURNS = 3


def every_size(page: Any, where: str) -> None:
    """The table at 390×844 and 360×640 (:func:`on_screen`), then on its side (test_browser_landscape's
    check at 640×360 and 740×360); back at 390×844, where the game is played."""
    from tests.web.test_browser_landscape import check

    for width, height in UPRIGHT[::-1]:
        resize(page, width, height)
        assert on_screen(page) == [], f"{where} at {width}×{height}"
    check(page, where)
    resize(page, *UPRIGHT[0])


def hand_rows_upright(page: Any) -> list[tuple[int, int]]:
    """:func:`hand_rows` at 360×640 and 390×844."""
    found = []
    for width, height in UPRIGHT[::-1]:
        resize(page, width, height)
        found.append(hand_rows(page))
    return found


def test_a_whole_game_on_a_phone_at_four_sizes(page: Any, server: str, context: Any, small_coach: None) -> None:
    """The layout, turn by turn, upright and on its side (the coach judges on a small budget: its words are
    tests/coach's)."""
    whole_game(page, server, context)


def whole_game(page: Any, server: str, context: Any) -> None:
    """A whole game by tapping on a phone upright at 390×844, every third turn also looked at 360×640, 640×360 and
    740×360 (:func:`every_size`, :data:`EVERY_SIZE_TURNS`)."""
    from playwright.sync_api import expect

    from tests.web.test_browser_landscape import SIZES, set_lang
    from tutor.i18n import lookup
    from tutor.store import Store
    from tutor.store.games import GameStore

    fresh_deal(page, server, 11)  # with the small coach, a deal whose hints include a play to a trick (the queued tap)
    page.evaluate(WATCH_THINKING)
    every_size(page, "bidding")
    assert hand_rows_upright(page) == [(2, 17)] * 2, "17 cards: two rows of overlapping cards"
    accessibility(page, "the auction")
    bid3 = page.get_by_role("button", name="Bid 3")
    (bid3 if bid3.is_enabled() else page.locator("#bid-buttons").get_by_role("button", name="Pass")).click()
    ready(page)
    assert [rows for rows, _ in hand_rows_upright(page)] == [2, 2], "after the auction (20 for the landlord): two rows"
    play = page.locator("#btn-play")
    status = page.locator("#status")
    checked = {"own play": False, "queued": False, "reload": False, "sizes": False}
    seen = {"trick": False, "own": False, "chip": False}
    languages: set[str] = set()

    def visit(turn: int) -> bool:
        """Every turn: all of the table in view at every size; the learner's turns: the snags, once each,
        then the hint; Russian from the turn after the snags on."""
        if all(checked.values()) and "ru" not in languages:
            set_lang(page, server, "ru")
            page.reload()
            ready(page)
        lang = page.evaluate("document.documentElement.lang")
        if turn % EVERY_SIZE_TURNS == 0 or lang not in languages:
            every_size(page, f"turn {turn}")
        else:
            assert on_screen(page) == [], f"turn {turn} at {UPRIGHT[0][0]}×{UPRIGHT[0][1]}"
        languages.add(lang)
        seen["trick"] |= bool(page.locator("#trick .mini").count())
        seen["own"] |= bool(page.locator("#seat-0 .last .mini, #seat-0 .on-table").count())
        seen["chip"] |= bool(page.locator("#status .card-chip .chip-face").count())
        if not checked["reload"] and checked["queued"] and page.locator("#log li").count() > 3:
            lines = page.locator("#log li").all_text_contents()
            page.reload()
            ready(page)
            page.get_by_role("button", name="Table talk").click()
            expect(page.locator("#talk")).to_be_visible()
            assert page.locator("#log li").all_text_contents() == lines  # the log survives a reload
            page.get_by_role("button", name="Close").click()
            expect(page.locator("#talk")).to_be_hidden()
            checked["reload"] = True
        if not play.is_visible() or not play.is_enabled():
            return True
        if not checked["own play"] and not page.locator("#trick .mini").count():
            # Leading: tap the lowest card (a single is always playable) — the status line reads it,
            # and after the play it no longer speaks of those cards (the snag: "… · can be played").
            page.evaluate("window.thinking = []")
            tap(page.locator("#hand .card").first)
            ready(page)
            expect(status).to_contain_text("can be played")
            assert page.evaluate("window.thinking") == [], "the thinking note showed for a selection"
            play.click()
            ready(page)
            expect(status).not_to_contain_text("can be played")
            shown = page.evaluate("window.thinking")
            assert shown and not any(s["over"] for s in shown) and all(s["inFelt"] for s in shown), shown
            accessibility(page, "mid-game")
            checked["own play"] = True
            return True
        if (not checked["sizes"] and page.locator("#trick .mini").count() and page.locator("#seat-0 .last .mini").count()
                and page.locator("#hand .card").count() >= 12):
            cards_grow_with_the_screen(page)
            checked["sizes"] = True
        if checked["queued"] or not page.locator("#btn-pass").is_enabled():
            return False  # walk_game plays the hint
        if pressed(page) == 0:
            page.locator("#btn-hint").click()
            ready(page)
        if not pressed(page):
            return False
        play.click()  # a second action sent while the first is answering waits for it: never "another tab"
        page.locator("#btn-pass").click()
        checked["queued"] = True
        ready(page)
        if page.locator("#options").is_visible():
            page.locator("#options button").first.click()
            ready(page)
        return True

    try:
        walk_game(page, visit, turns=60)
        assert all(checked.values()), checked
        assert all(seen.values()) and languages == {"en", "ru"}, (seen, languages)
        final = page.locator("#final")
        expect(final).to_be_visible()
        log = page.locator("#log").inner_text()
        assert lookup("web.stale", "en") not in log and lookup("web.stale", "ru") not in log
        # The final card lies on the table: its multipliers, everyone's cards and its buttons on the screen.
        assert off_screen(page, {"#final": "the final card", "#final .buttons": "its buttons"}) == []
        expect(final.locator(".shown-hand")).to_have_count(4)  # three hands and the kitty
        expect(status).to_contain_text(". ")  # "You lose. The landlord …": two sentences, each stopped
        for width in SIZES:  # on its side nothing scrolls (in Russian, the longest words)
            resize(page, width, 360)
            assert page.evaluate("document.scrollingElement.scrollHeight") <= 360
            # everyone's cards left in hand on the final card: each rank ("10" too) legible, none covered
            assert card_sizes(page, "#final .shown-hand .rank")["unreadable"] == [], f"the final card at {width}×360"
        accessibility(page, "the final card at 740×360")  # axe-core's rules and our own contrast on the felt
    finally:
        set_lang(page, server, "en")
    page.reload()
    ready(page)
    resize(page, 360, 640)  # the shortest phone: the final card fits, nothing scrolls inside it
    assert page.evaluate(FINAL_FITS) == [], "the final card at 360×640"
    resize(page, 390, 844)
    accessibility(page, "the final card")
    # A phone on its side: the final card in two columns, nothing scrolls inside it (the review folded).
    page.set_viewport_size({"width": 640, "height": 360})
    page.reload()
    ready(page)
    for width in SIZES:
        page.set_viewport_size({"width": width, "height": 360})
        assert page.evaluate(FINAL_FITS) == [], f"the final card at {width}×360"
    page.set_viewport_size({"width": 390, "height": 844})
    # "Same deal" is an unscored replay: left unfinished for a new deal, it is no game of the record.
    with Store.open(context.store_path) as store:
        before = len(GameStore(store).history(limit=1000))
    final.get_by_role("button", name="Same deal").click()
    ready(page)
    if page.locator("#bid-buttons").is_visible():
        page.locator("#bid-buttons button:enabled").first.click()
        ready(page)
    page.locator("#new-game").click()
    ready(page)
    expect(page.locator("#game-title")).to_contain_text("score")  # a scored game again, no question asked
    with Store.open(context.store_path) as store:
        after = GameStore(store).history(limit=1000)
    assert len(after) == before, [(g.deal, g.scored, g.abandoned) for g in after[: len(after) - before]]
