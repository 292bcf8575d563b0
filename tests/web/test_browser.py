"""The page in a real browser: Debian's headless Chromium driven by Playwright (auto-waiting, no sleeps).

Covers what a learner does with the page: switch the language in the settings.  The page weight and
the time to interactive are printed (``-s`` shows them), never asserted.

Skipped, loudly, only when there is no Chromium (``DDZ_CHROMIUM`` names another
binary) or no Playwright; ``.ci/run`` installs both.
"""

from __future__ import annotations

import os
import re
import shutil
import socket
import threading
import warnings
from collections.abc import Iterator
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
pytestmark = pytest.mark.skipif(MISSING is not None, reason=f"BROWSER TESTS SKIPPED: {MISSING}")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``ddz serve``'s app on a free port in a thread, on a throw-away store."""
    import uvicorn

    from tutor.web.app import create_app
    from tutor.web.context import Context

    home = tmp_path_factory.mktemp("web-home")
    listener = socket.create_server(("127.0.0.1", 0))
    port = listener.getsockname()[1]
    app = create_app(Context(store_path=home / "ddz.sqlite3"), port=port)
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="off"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [listener]}, daemon=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        thread.start()
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=30)
        listener.close()


@pytest.fixture(scope="module")
def browser(server: str) -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=shutil.which(CHROMIUM) or CHROMIUM, args=ARGS)
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture()
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True)
    context.set_default_timeout(60_000)  # a hard bot on a busy machine: auto-waiting, not a pace
    page = context.new_page()
    try:
        yield page
    finally:
        context.close()


def ready(page: Any) -> None:
    """Wait until the page has no request in flight (the script marks the body while it waits)."""
    page.wait_for_function("document.body.dataset.ready === 'true' && !document.body.hasAttribute('aria-busy')")


def tap(card: Any) -> None:
    """Tap a card where a finger would: on its visible left edge (the next card overlaps the rest)."""
    card.click(position={"x": 6, "y": 30})


def pressed(page: Any) -> int:
    return int(page.locator("#hand .card[aria-pressed='true']").count())


def test_the_page_loads_light_and_fast(page: Any, server: str) -> None:
    page.goto(f"{server}/settings")
    ready(page)
    figures = page.evaluate("""() => {
        const entries = performance.getEntriesByType('resource').concat(performance.getEntriesByType('navigation'));
        return {bytes: entries.reduce((sum, e) => sum + (e.transferSize || e.encodedBodySize || 0), 0),
                files: entries.length, ready: Number(document.body.dataset.readyAt)};
    }""")
    print(f"\npage weight: {figures['bytes'] / 1024:.1f} KiB in {figures['files']} requests; "
          f"time to interactive: {figures['ready']:.0f} ms")
    assert figures["files"] >= 3 and figures["bytes"] > 0


def test_switching_the_language(page: Any, server: str) -> None:
    from playwright.sync_api import expect

    page.goto(f"{server}/settings")
    ready(page)
    page.get_by_label("Language").select_option("ru")
    ready(page)
    expect(page.get_by_role("link", name="Игра")).to_be_visible()
    expect(page.get_by_label("Уровень компьютера")).to_be_visible()
    page.get_by_label("Язык").select_option("en")
    ready(page)
    expect(page.get_by_role("link", name="Play")).to_be_visible()
