"""What the browser tests share (tests/web/test_browser*.py, test_club_browser.py): Chromium, a server in a
thread, pages that fail on a script error, and the gestures (tap, wait until ready).

The fixtures built on these are in tests/web/conftest.py: one Chromium per test process (``browser``,
session-scoped: starting one costs about a second of CPU), one page lent from test to test (``page``:
:func:`reused_page`; :func:`sized` for another size; :func:`open_page` still makes a context of its own), and
per test file its own store (``context``) and server (``server``), so that the files run beside each other.

Skipped, loudly, only when there is no Chromium (``DDZ_CHROMIUM`` names another binary) or no
Playwright; ``.ci/run`` installs both.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = os.environ.get("DDZ_CHROMIUM", "/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def _why_no_browser() -> str | None:
    if not (Path(CHROMIUM).exists() or shutil.which(CHROMIUM)):
        return f"no Chromium at {CHROMIUM} (apt-get install chromium)"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "Playwright for Python is not installed (pip install -e '.[test]')"
    return None


MISSING = _why_no_browser()
if MISSING:
    print(f"\n!!!!!!!! BROWSER TESTS SKIPPED: {MISSING} !!!!!!!!\n")
#: ``pytestmark = needs_browser`` in every browser test file.
needs_browser = pytest.mark.skipif(MISSING is not None, reason=f"BROWSER TESTS SKIPPED: {MISSING}")

#: A card's accessible name by its rank letter.
CARD_NAMES = {"T": "10", "X": "small joker", "D": "big joker"}


def card_name(rank: str) -> str:
    return CARD_NAMES.get(rank, rank)


class PageErrors:
    """What fails a browser test: a script error in the page (a module that fails to load or throws) and a
    Content-Security-Policy refusal of something of the page's own."""

    def __init__(self, page: Any) -> None:
        self.found: list[str] = []
        page.on("pageerror", lambda error: self.found.append(str(error)))
        page.on("console", lambda message: self.found.append(message.text)
                if "Content Security Policy" in message.text else None)


@contextmanager
def open_page(browser: Any, width: int = 390, height: int = 844, touch: bool = True,
              motion: bool = False) -> Iterator[Any]:
    """A page of its own (a fresh browser context: no cookies or storage of another test) at a phone's size.

    Fails the test on a script error in the page or a Content-Security-Policy refusal of the page's own files.
    The page asks for reduced motion unless ``motion``: the tests check where things end up (after the
    animations, see :data:`SETTLED`), and without the plays flying in and the spinner turning Chromium
    renders less (tests/web/test_browser_four.py: 10.5 -> 9.1 s CPU with the browser's own).
    """
    context = browser.new_context(viewport={"width": width, "height": height}, has_touch=touch,
                                  reduced_motion="no-preference" if motion else "reduce")
    context.set_default_timeout(60_000)  # a hard bot on a busy machine: auto-waiting, not a pace
    page = context.new_page()
    errors = PageErrors(page)
    try:
        yield page
    finally:
        context.close()
    assert not errors.found, f"script errors in the page: {errors.found[:3]}"


@contextmanager
def reused_page(held: dict[str, Any], browser: Any, width: int = 390, height: int = 844) -> Iterator[Any]:
    """:func:`open_page`'s phone page (touch, reduced motion), kept in ``held`` and lent to test after test.

    A browser context and its first page cost Chromium about 0.6 s of CPU (a new renderer process, the page's
    scripts parsed again), a navigation in a page already open about 0.15 s (measured: 6 contexts 5.1 s, one
    page navigated 6 times 3.0 s).  Between tests the page is left the way a fresh one starts: its origin's
    storage (the table's log) cleared, no cookie, no route, the size asked for, reduced motion, a blank
    document; a page that crashed or was closed is replaced.  Fails the test on a script error, as
    :func:`open_page` does.
    """
    page = held.get("page")
    if page is None or page.is_closed():
        context = browser.new_context(viewport={"width": width, "height": height}, has_touch=True,
                                      reduced_motion="reduce")
        context.set_default_timeout(60_000)
        page = held["page"] = context.new_page()
        held["errors"] = PageErrors(page)
    errors: PageErrors = held["errors"]
    errors.found.clear()
    page.context.clear_cookies()
    page.set_viewport_size({"width": width, "height": height})
    page.emulate_media(reduced_motion="reduce")
    try:
        yield page
    finally:
        if not page.is_closed():
            page.unroute_all(behavior="ignoreErrors")
            if page.url.startswith("http"):
                page.evaluate("() => { try { localStorage.clear(); sessionStorage.clear(); } catch (e) { /* none */ } }")
            page.goto("about:blank")  # off the server before the test's fixtures stop it
    assert not errors.found, f"script errors in the page: {errors.found[:3]}"


@contextmanager
def sized(page: Any, width: int = 390, height: int = 844) -> Iterator[Any]:
    """The lent ``page`` fixture at ``width`` × ``height``: a drop-in for ``open_page(browser, width, height)``
    in a test that takes ``page`` (a context of its own costs Chromium ~0.6 s: :func:`reused_page`)."""
    page.set_viewport_size({"width": width, "height": height})
    yield page


#: The page's body once it has no request in flight (the script marks the body while it waits).
READY = "body[data-ready='true']:not([aria-busy])"


def ready(page: Any) -> None:
    """Wait until the page has no request in flight (the script marks the body while it waits).

    One query when the page is ready already (most calls: the answer came while the test looked), else a wait
    for the selector.  Not ``page.wait_for_selector``: it returns an element handle (never disposed, adopted into
    the page's main world: five protocol round trips), which cost Chromium, Playwright's driver and this process
    ~17 ms of CPU a call against ~4 ms for the query (measured: 200 calls on a ready table, 3.4 s against 0.9 s),
    and a whole game calls it hundreds of times.  The same condition either way: the wait, too, returns at once
    when the selector already matches.
    """
    # A selector, not wait_for_function: that evaluates a string, which the page's CSP (no unsafe-eval) refuses.
    body = page.locator(READY)
    if not body.count():
        body.wait_for(state="attached")


def tap(card: Any) -> None:
    """Tap a card where a finger would: on its visible left edge (the next card overlaps the rest)."""
    card.click(position={"x": 6, "y": 30})


def pressed(page: Any) -> int:
    return int(page.locator("#hand .card[aria-pressed='true']").count())


def fresh_deal(page: Any, server: str, deal: int, level: str = "easy") -> None:
    """The table on ``deal``: a game left in progress (by another test) is abandoned when the page asks."""
    page.goto(f"{server}/play?deal={deal}&level={level}")
    ready(page)
    abandon = page.get_by_role("button", name="Abandon it and start")
    if abandon.count():
        abandon.click()
        ready(page)


def open_mistakes(page: Any, server: str, game_id: int) -> Any:
    """History → "Learn from your mistakes" on game ``game_id``; the board it is drawn on."""
    page.goto(f"{server}/history")
    ready(page)
    row = page.get_by_role("row").filter(has=page.get_by_role("cell", name=str(game_id), exact=True))
    row.get_by_role("button", name="Learn from your mistakes", exact=True).click()
    ready(page)
    return page.locator("#history")


# ------------------------------------------------------------------ a whole game, turn by turn

#: Selectors (``{selector: what}``) whose box is outside the viewport (or empty), and whether the page scrolls.
OFF_SCREEN = """(need) => {
    const out = [];
    for (const [sel, what] of Object.entries(need)) {
        const node = document.querySelector(sel);
        if (!node) { out.push(`${what}: missing`); continue; }
        const r = node.getBoundingClientRect();
        if (!r.width || !r.height || r.top < 0 || r.left < 0 || r.bottom > innerHeight + 0.5 || r.right > innerWidth + 0.5)
            out.push(`${what}: ${Math.round(r.left)},${Math.round(r.top)}–${Math.round(r.right)},${Math.round(r.bottom)}`);
    }
    const root = document.scrollingElement;
    if (root.scrollHeight > innerHeight || root.scrollWidth > innerWidth || scrollY || scrollX)
        out.push(`the page scrolls: ${root.scrollWidth}×${root.scrollHeight} in ${innerWidth}×${innerHeight}`);
    return out;
}"""

#: Wait for every running animation (a play flying in) to finish; fails after 60 s naming what still runs.
#: ``page.evaluate`` has no timeout of its own: a promise that never settles (an infinite animation, a page
#: that draws no frame) would hold the test, its worker and the CI run until the run's own limit.
SETTLED = """(ms) => new Promise((done, fail) => {
    const running = document.getAnimations();
    const late = setTimeout(() => fail(new Error(`animations still running after ${ms / 1000} s: ${running.map((a) =>
        a.animationName || a.transitionProperty || a.id || 'an animation').join(', ')}`)), ms);
    Promise.all(running.map((a) => a.finished.catch(() => null))).then(() => { clearTimeout(late); done(); });
})"""

#: Two animation frames: the page's resize handler (it lays the hand out again in an animation frame) has run.
#: Fails after 60 s instead of waiting for ever (:data:`SETTLED`): round 11 saw a whole-suite run hang for
#: ten minutes at the start of the phone game, the worker idle, right where these waits are.
RELAID = """(ms) => new Promise((done, fail) => {
    const late = setTimeout(() => fail(new Error(`no animation frame in ${ms / 1000} s: the page is not drawn`)), ms);
    requestAnimationFrame(() => requestAnimationFrame(() => { clearTimeout(late); done(); }));
})"""


#: How long :data:`RELAID` and :data:`SETTLED` wait before they fail (ms): Playwright's own timeout, 60 s.
PAGE_WAIT_MS = 60_000


def relaid(page: Any, ms: int = PAGE_WAIT_MS) -> None:
    """Wait two animation frames (:data:`RELAID`): the page has laid itself out again after a resize."""
    page.evaluate(RELAID, ms)


def settled(page: Any, ms: int = PAGE_WAIT_MS) -> None:
    """Wait until every running animation has finished (:data:`SETTLED`)."""
    page.evaluate(SETTLED, ms)


def off_screen(page: Any, need: dict[str, str]) -> list[str]:
    """What of ``need`` lies outside the screen once the animations have settled (empty: all inside, no scroll)."""
    settled(page)
    return list(page.evaluate(OFF_SCREEN, need))


def act(page: Any) -> None:
    """One turn the way a learner on a phone would: the hint's cards (or a pass), then Play."""
    if pressed(page) == 0:
        page.locator("#btn-hint").click()
        ready(page)
    page.locator("#btn-play" if pressed(page) else "#btn-pass").click()
    ready(page)
    if page.locator("#options").is_visible():  # a play read two ways: the first reading
        page.locator("#options button").first.click()
        ready(page)


def walk_game(page: Any, visit: Callable[[int], bool], turns: int = 80) -> None:
    """Play to the final card: each turn ``visit(turn)`` looks first (and returns True when it played the
    turn itself); otherwise, when it is the learner's turn, :func:`act` plays the hint."""
    play = page.locator("#btn-play")
    for turn in range(turns):
        ready(page)
        if page.locator("#final").is_visible():
            return
        if not visit(turn) and play.is_visible() and play.is_enabled():
            act(page)
    raise AssertionError(f"the game did not end in {turns} turns")


def game_api(page: Any, server: str) -> tuple[Callable[[str, dict[str, Any]], dict[str, Any]], dict[str, Any]]:
    """The page's own game API (its session and cookies, its origin): a ``post(path, body)`` that asserts the answer
    is ok and returns its JSON, and the game's state now (``GET /api/game``)."""
    headers = {"origin": server}

    def post(path: str, body: dict[str, Any]) -> dict[str, Any]:
        answer = page.request.post(f"{server}{path}", data=body, headers=headers)
        assert answer.ok, f"{path}: {answer.status} {answer.text()[:300]}"
        return dict(answer.json())

    answer = page.request.get(f"{server}/api/game", headers=headers)
    assert answer.ok, answer.text()
    return post, dict(answer.json())


def play_the_hint(post: Callable[[str, dict[str, Any]], dict[str, Any]], data: dict[str, Any]) -> dict[str, Any]:
    """One of the learner's turns as the page plays the hint (a pass when it says pass; the first reading when the
    cards read several ways) through :func:`game_api`'s ``post``; the game's state after it."""
    hint = post("/api/game/hint", {"rev": data["rev"]})
    move = next(e for e in hint["events"] if e["type"] == "hint")["move"]
    if move is None:
        return post("/api/game/pass", {"rev": hint["rev"]})
    data = post("/api/game/play", {"rev": hint["rev"], "cards": "".join(move["cards"])})
    if any(e["type"] == "options" for e in data["events"]):  # read several ways: the first reading
        data = post("/api/game/play", {"rev": data["rev"], "cards": "".join(move["cards"]), "n": 1})
    return data


def play_on_by_api(page: Any, server: str, turns: int = 200) -> int:
    """Play the rest of the page's game through its own API (the page's session and cookies), then reload the page
    on the final card; the number of the learner's turns played so.

    What the page sends, without drawing each turn: the hint's move each turn (a pass when it says pass), the first
    reading when the cards read several ways, the suggested bid in an auction (tests/web/test_api.py's whole game).
    For a whole-game browser test whose middle another test already plays in the browser (say which in the
    test): the turns in the browser cost Chromium, Playwright's driver and this process ~0.2-0.3 s each (the
    bots' and the coach's own CPU is spent either way).
    """
    post, data = game_api(page, server)
    played = 0
    while data["game"]["waiting"] in ("bid", "play") and played < turns:
        if data["game"]["waiting"] == "bid":
            data = post("/api/game/bid", {"rev": data["rev"], "bid": data["game"]["bids"]["suggested"]})
            continue
        data = play_the_hint(post, data)
        played += 1
    assert data["game"]["final"] is not None, f"the game did not end in {turns} turns through the API"
    page.reload()
    ready(page)
    return played
