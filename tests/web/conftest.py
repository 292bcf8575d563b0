"""Fixtures for the web tests: an app on a throw-away store, and a snapshot of everything stored."""

from __future__ import annotations

import shutil
import sqlite3
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

BASE = "http://127.0.0.1:8765"

try:  # Playwright's expect() waits 5 s by default, its own clock apart from the context's default timeout:
    # on a loaded 2-core machine (argon2 hashing, a bot thinking) that is a pace, not a sign of life.
    from playwright.sync_api import expect as _expect

    _expect.set_options(timeout=60_000)
except ImportError:  # pragma: no cover - the browser tests skip themselves without Playwright
    pass

#: Requests a page on another site could make: another origin, the opaque "null" origin of a
#: sandboxed frame or file, and a browser's own cross-site marker.  Every API must refuse them.
FOREIGN_HEADERS: list[dict[str, str]] = [
    {"origin": "http://evil.example"},
    {"origin": "http://127.0.0.1:9999"},
    {"origin": "null"},
    {"sec-fetch-site": "cross-site"},
]


@pytest.fixture()
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("DDZ_HOME", str(tmp_path))
    return tmp_path


@pytest.fixture()
def client(home: Path) -> Iterator[Any]:
    from starlette.testclient import TestClient

    from tutor.web.app import create_app
    from tutor.web.context import Context

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        app = create_app(Context(store_path=home / "ddz.sqlite3"))
        with TestClient(app, base_url=BASE, headers={"origin": BASE}) as test_client:
            yield test_client


def run_async(coroutine: Any) -> Any:
    """``asyncio.run(coroutine)`` in a thread of its own: once a browser test has run in this process,
    Playwright's sync API keeps an event loop marked running on the main thread, and ``asyncio.run`` there
    refuses ("cannot be called from a running event loop": test_hardening and test_proxy failed after the
    browser tests in one process)."""
    import asyncio
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(1) as thread:
        return thread.submit(asyncio.run, coroutine).result()


def snapshot(home: Path) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of the learner's data (what "changes nothing" compares).

    An area's empty tables, created on first use, and the schema bookkeeping (with the local
    learner's row in ``users``) are not data.
    """
    path = home / "ddz.sqlite3"
    if not path.exists():
        return {}
    db = sqlite3.connect(path)
    try:
        tables = [row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]
        rows = {name: sorted(db.execute(f"SELECT * FROM {name}").fetchall(), key=repr)
                for name in tables if name not in ("schema_version", "meta", "users")}
        # The local learner's row (users, made with the store: bookkeeping, not the learner's data).
        rows["sqlite_sequence"] = [row for row in rows.get("sqlite_sequence", []) if row[0] != "users"]
        return {name: found for name, found in rows.items() if found}
    finally:
        db.close()


# ------------------------------------------------------------------ the browser tests (tests/web/browser.py)


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """One headless Chromium for every browser test of this process (each test opens its own context)."""
    from playwright.sync_api import sync_playwright

    from tests.web.browser import ARGS, CHROMIUM, MISSING

    if MISSING:
        pytest.skip(f"BROWSER TESTS SKIPPED: {MISSING}")
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=shutil.which(CHROMIUM) or CHROMIUM, args=ARGS)
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture(scope="module")
def context(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """The web table's context on a throw-away store of this test file's own."""
    from tutor.web.context import Context

    return Context(store_path=tmp_path_factory.mktemp("web-home") / "ddz.sqlite3")


@pytest.fixture(scope="module")
def server(context: Any) -> Iterator[str]:
    """``ddz serve``'s app on a free port in a thread, on this file's store."""
    from tutor.web.app import create_app

    with served(lambda port: create_app(context, port=port)) as url:
        yield url


@pytest.fixture(scope="session")
def _held_page() -> dict[str, Any]:
    """Where :func:`page` keeps the page it lends from test to test (tests/web/browser.py's reused_page)."""
    return {}


@pytest.fixture()
def page(browser: Any, _held_page: dict[str, Any]) -> Iterator[Any]:
    """A phone-sized page (390×844, touch) as a fresh one starts, lent from test to test (one page for the
    process: tests/web/browser.py's reused_page); the test fails on a script error in it."""
    from tests.web.browser import reused_page

    with reused_page(_held_page, browser) as lent:
        yield lent


@contextmanager
def served(make_app: Callable[[int], Any]) -> Iterator[str]:
    """An app (``make_app(port)``) under uvicorn on a free loopback port, in a thread: its base URL."""
    import socket
    import threading

    import uvicorn

    listener = socket.create_server(("127.0.0.1", 0))
    port = listener.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(make_app(port), log_level="warning", lifespan="off"))
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
