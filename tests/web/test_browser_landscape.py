"""The phone table on its side (issue 34), in real Chromium: what a whole game must show at 640×360 and 740×360
(:func:`check`), the controls' size, the favicon and reduced motion, and a restart.

At every turn, once the animations have settled, the page is no taller (nor wider) than the screen
at 640×360 and at 740×360, and the hand, the status line, the buttons and your own seat (its role and
last play) lie inside it; the play on the table is drawn once — in the middle of the felt, its seat
named — and the seat that made it says so instead of drawing it again. The whole game those checks run on
is tests/web/test_browser_phone.py's (one game looked at upright and on its side: the browser time is the
suite's costliest), English for its first turns and Russian (the longest words) after, so both languages
meet both sizes.

The restart: the server stops mid-game and a new one starts on the same store and port (what
``ddz serve`` does after a reboot); the very next tap plays, with no "another tab" line — once with
no tap while the server was away (the page learns the new revision from the refusal and sends the
tap again), once with a tap that met no server (the page asks for the table before the next one).
"""

from __future__ import annotations

import re
import socket
import threading
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from tests.web.browser import act, needs_browser, off_screen, ready, sized
from tests.web.test_browser_phone import card_sizes

pytestmark = needs_browser

#: What must be on the screen at every turn (selector → what it is).
ON_SCREEN = {
    "#hand": "the hand", "#status": "the status line", "#controls .buttons:not([hidden])": "the buttons",
    "#seat-0": "your seat", "#seat-0 .who": "your name and role", "#seat-1": "the right opponent",
    "#seat-2": "the left opponent", "#trick": "the trick", "#game-cell": "the game value",
}

#: Whether a play is drawn twice, its seat unnamed, or your own role and last play hidden.
DRAWN_ONCE = """() => {
    const out = [];
    const trick = document.querySelectorAll('#trick .mini').length;
    const marked = [...document.querySelectorAll('.seat .on-table')].map((n) => n.closest('.seat').id);
    if (trick && marked.length !== 1) out.push(`the trick's seat is marked ${marked.length} times`);
    for (const id of marked) if (document.querySelectorAll(`#${id} .last .mini`).length) out.push(`${id}: the trick drawn twice`);
    if (trick && !document.querySelector('#trick .trick-seat')?.textContent.trim()) out.push('the trick names no seat');
    const role = document.querySelector('#seat-0 .role');
    if (role && !role.getClientRects().length) out.push('your role is hidden');
    for (const mini of document.querySelectorAll('#seat-0 .last .mini')) {
        const r = mini.getBoundingClientRect();
        if (!r.width || r.bottom > innerHeight || r.right > innerWidth) out.push('your last play is off the screen');
    }
    return out;
}"""

#: The status line's class when it reports a failure.
BAD = re.compile(r"\bbad\b")

#: The two phones on their side every turn is checked at.
SIZES = (640, 740)


def check(page: Any, where: str) -> None:
    for width in SIZES:
        page.set_viewport_size({"width": width, "height": 360})
        found = off_screen(page, ON_SCREEN) + page.evaluate(DRAWN_ONCE)
        assert found == [], f"{where} at {width}×360: {found}"
        sizes = card_sizes(page)  # the trick's cards sized to the felt's middle, your last play and every rank legible
        assert sizes["trick"] is None or sizes["trick"][0] >= 24, f"{where} at {width}×360: {sizes}"
        assert sizes["own"] is None or sizes["own"] >= 24, f"{where} at {width}×360: {sizes}"
        assert sizes["unreadable"] == [], f"{where} at {width}×360: {sizes}"


def set_lang(page: Any, server: str, lang: str) -> None:
    answer = page.request.post(f"{server}/api/settings", data={"lang": lang}, headers={"origin": server})
    assert answer.ok, answer.text()


def test_targets_a_favicon_and_reduced_motion(page: Any, server: str) -> None:
    """Every control ≥ 44 px at 390×844 and 640×360, no request answered 404 (the favicon), no animation when the
    learner's system asks for reduced motion."""
    page.emulate_media(reduced_motion="no-preference")  # the lent page asks for less by default (browser.py)
    with sized(page, 390, 844):
        missing: list[str] = []
        page.on("response", lambda answer: missing.append(answer.url) if answer.status == 404 else None)
        page.goto(f"{server}/play")
        ready(page)
        spin = "getComputedStyle(document.querySelector('.spinner')).animationName"
        assert page.evaluate(spin) != "none"  # motion by default (the other browser tests ask for less: browser.py)
        page.emulate_media(reduced_motion="reduce")
        icon = page.locator("link[rel='icon']").get_attribute("href")
        assert icon and icon.startswith("data:image/svg+xml,"), icon  # in the page: no request of its own
        assert page.evaluate("(icon) => new Promise((done) => { const img = new Image(); img.onload = () => done(img.width > 0);"
                             " img.onerror = () => done(false); img.src = icon; })", icon), "the icon is no picture"
        for width, height in ((390, 844), (640, 360)):
            page.set_viewport_size({"width": width, "height": height})
            small = page.evaluate("() => { const r = (n) => n.getBoundingClientRect(); return [...document.querySelectorAll("
                                  "'button, a, select, summary, input')].filter((n) => !n.closest('[hidden]') && "
                                  "!n.classList.contains('card') && n.getClientRects().length && (r(n).height < 44 || r(n).width < 44))"
                                  ".map((n) => `${n.id || n.textContent.trim().slice(0, 20)}: ${Math.round(r(n).width)}×${Math.round(r(n).height)}`); }")
            assert small == [], f"{width}×{height}: {small}"
        assert page.evaluate(spin) == "none"
        assert missing == [], missing


# ------------------------------------------------------------------ the restart


@contextmanager
def serving(context: Any, port: int) -> Iterator[None]:
    """``ddz serve``'s app on ``port`` until the block ends; then the process "dies": its game is let go."""
    import uvicorn

    from tutor.web.app import create_app

    listener = socket.create_server(("127.0.0.1", port))
    server = uvicorn.Server(uvicorn.Config(create_app(context, port=port), log_level="warning", lifespan="off"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [listener]}, daemon=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        thread.start()
    try:
        yield
    finally:
        server.should_exit = True
        thread.join(timeout=30)
        listener.close()
        # what the operating system does when a server process ends: its game's lock and connection go
        table = context.game.slot.session
        if table is not None:
            context.game.executor.submit(table.close).result()
        context.game.slot.session = None


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def cards_in_hand(page: Any) -> int:
    return int(page.locator("#hand .card").count())


def test_the_next_tap_plays_after_the_server_restarts(page: Any, tmp_path: Path) -> None:
    from playwright.sync_api import expect

    from tutor.web.context import Context

    store = tmp_path / "ddz.sqlite3"
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with sized(page, 640, 360):
        with serving(Context(store_path=store), port):
            page.goto(f"{base}/play?deal=42&level=easy")
            ready(page)
            page.locator("#bid-buttons button:enabled").first.click()
            ready(page)
            act(page)
            page.locator("#btn-hint").click()  # the cards of the next play raised on the old server
            ready(page)
            assert page.locator("#hand .card[aria-pressed='true']").count()
        before = cards_in_hand(page)
        with serving(Context(store_path=store), port):
            page.locator("#btn-play").click()  # the first tap after the restart
            ready(page)
            expect(page.locator("#status")).not_to_have_class(BAD)
            assert cards_in_hand(page) < before, "the tap after the restart was lost"
            if page.locator("#options").is_visible():
                page.locator("#options button").first.click()
                ready(page)
            page.locator("#btn-hint").click()
            ready(page)
        # The server is away: a tap meets no one (one line says so); the next tap after it is back plays.
        before = cards_in_hand(page)
        pressed = page.locator("#hand .card[aria-pressed='true']").count()
        page.locator("#btn-play" if pressed else "#btn-pass").click()
        ready(page)
        expect(page.locator("#status")).to_have_class(BAD)
        with serving(Context(store_path=store), port):
            page.locator("#btn-play" if pressed else "#btn-pass").click()
            ready(page)
            expect(page.locator("#status")).not_to_have_class(BAD)
            if pressed:
                assert cards_in_hand(page) < before, "the tap after the lost connection was lost"
            else:
                expect(page.locator("#seat-0 .last")).to_contain_text("pass", ignore_case=True)
        assert "Another tab" not in page.locator("#log").inner_text()
