"""Screenshots of the web table on phones (390×844, 360×640, 640×360 on its side …) and at 1280×800, for a reviewer's eye.

Starts ``ddz serve`` on a free port with a throw-away ``DDZ_HOME``, opens each
view in Debian's headless Chromium (Playwright for Python drives it) and
writes PNG files; nothing is committed.  Usage::

    python benchmarks/screenshots.py [--out DIR] [--chromium /usr/bin/chromium] [--lang ru] [--sizes narrow,phone]

``--lang ru`` photographs the Russian page (the learner's setting, as Settings sets it);
``--sizes`` picks among phone (390×844), narrow (360×740), short (360×640), landscape (640×360, a small phone on
its side), wide (844×390) and desktop (1280×800); the default is phone, short, landscape and desktop. Each size
gives the auction, the first turn, mid-game, the final card, a lesson step, a puzzle and the four-player table
(and the other views).
"""

from __future__ import annotations

import argparse
import os
import socket
import subprocess
import sys
import tempfile
import time
import json
import urllib.request
from pathlib import Path
from typing import Any

ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
SIZES = {"phone": (390, 844), "narrow": (360, 740), "short": (360, 640), "landscape": (640, 360), "wide": (844, 390),
         "desktop": (1280, 800)}
DEFAULT_SIZES = "phone,short,landscape,desktop"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def label(args: argparse.Namespace, key: str, **values: object) -> str:
    """A button's name on the page in the language photographed (the catalogue the server uses)."""
    from tutor.i18n import lookup

    return (lookup(f"web.{key}", args.lang) or key).format(**values)


def set_language(base: str, lang: str) -> None:
    """Settings → language, as the page does it (same origin, JSON)."""
    set_setting(base, "lang", lang)


def set_setting(base: str, key: str, value: object) -> None:
    """One setting changed as the Settings view does it (same origin, JSON)."""
    request = urllib.request.Request(f"{base}/api/settings", data=json.dumps({key: value}).encode(),
                                     headers={"content-type": "application/json", "origin": base}, method="POST")
    urllib.request.urlopen(request, timeout=10).close()


def play_out(page: Any, args: argparse.Namespace, until_trick: bool = False, below: int = 17) -> None:
    """Play the hinted move (or pass) until the final card shows (``until_trick``: until a play is to beat and the
    hand has fewer than ``below`` cards: the learner has played)."""
    idle = "body:not([aria-busy])"  # a selector: the page's CSP refuses wait_for_function's string eval
    for _turn in range(60):
        page.wait_for_selector(idle, state="attached")
        if page.locator("#final").is_visible():
            return
        if until_trick and page.locator("#trick .mini").count() and page.locator("#hand .card").count() < below:
            return
        if page.locator("#hand .card[aria-pressed='true']").count() == 0:
            page.locator("#btn-hint").click()
            page.wait_for_selector(idle, state="attached")
        if page.locator("#hand .card[aria-pressed='true']").count():
            page.locator("#btn-play").click()
        else:
            page.locator("#btn-pass").click()
        page.wait_for_selector(idle, state="attached")
        if page.locator("#options").is_visible():
            page.locator("#options button").first.click()


def lesson_step(page: Any, args: argparse.Namespace) -> None:
    """The first lesson, stepped on to its first position drawn as a table."""
    page.locator("#course button").first.click()
    idle = "body:not([aria-busy])"  # a selector: the page's CSP refuses wait_for_function's string eval
    page.wait_for_selector(idle, state="attached")
    for _step in range(10):
        if page.locator("#lesson .felt").count():
            break
        page.get_by_role("button", name=label(args, "next_step"), exact=True).click()
        page.wait_for_selector(idle, state="attached")
    page.locator("#lesson .felt").last.scroll_into_view_if_needed()


def shoot(browser: Any, args: argparse.Namespace, name: str, width: int, height: int) -> None:
    """One size: a fresh server on a fresh store, each view drawn and photographed."""
    port = free_port()
    home = tempfile.mkdtemp(prefix="ddz-shots-")
    server = subprocess.Popen([sys.executable, "-c", "from tutor.cli.main import main; main()", "serve", "--no-open",
                               "--port", str(port)], env={**os.environ, "DDZ_HOME": home})
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(300):
            try:
                urllib.request.urlopen(base + "/api/settings", timeout=1).close()
                break
            except OSError:
                time.sleep(0.1)
        set_language(base, args.lang)
        page = browser.new_page(viewport={"width": width, "height": height})
        page.set_default_timeout(180_000)  # a loaded machine: a pace, not a sign of life
        page.goto(f"{base}/play?deal={args.deal}&level=easy")
        page.wait_for_selector("body[data-ready]")
        page.screenshot(path=str(args.out / f"{name}-bid.png"), animations="disabled")
        bid = page.get_by_role("button", name=label(args, "bid", n=3))
        if bid.is_enabled():
            bid.click()
        else:
            page.locator("#bid-buttons [data-bid='0']").click()
        page.locator("#btn-play").wait_for()
        page.locator("#btn-hint").click()
        page.wait_for_selector("body:not([aria-busy])", state="attached")
        page.screenshot(path=str(args.out / f"{name}-play.png"), full_page=True)
        play_out(page, args, until_trick=True)
        page.screenshot(path=str(args.out / f"{name}-midgame.png"), full_page=True, animations="disabled")
        play_out(page, args)
        page.screenshot(path=str(args.out / f"{name}-final.png"), full_page=True)
        page.locator("#final").get_by_role("button", name=label(args, "learn_mistakes")).click()
        page.wait_for_selector("body:not([aria-busy])", state="attached")
        page.screenshot(path=str(args.out / f"{name}-mistakes.png"), full_page=True)
        for view in ("learn", "puzzle", "history", "settings"):
            page.goto(f"{base}/{view}")
            page.wait_for_selector("body[data-ready]")
            if view == "puzzle":  # the library opens when no puzzle is in progress
                page.locator(".library-row").first.wait_for()
                page.screenshot(path=str(args.out / f"{name}-library.png"))
                page.locator("#puzzle-daily").click()
                page.get_by_role("button", name=label(args, "solution")).wait_for()
            page.screenshot(path=str(args.out / f"{name}-{view}.png"), full_page=True)
            if view == "learn":  # a lesson step: its position drawn as a table
                lesson_step(page, args)
                page.screenshot(path=str(args.out / f"{name}-lesson-step.png"))
            if view == "puzzle":  # the solution, stepped: the table after the second move
                page.get_by_role("button", name=label(args, "solution")).click()
                page.get_by_role("button", name=label(args, "next_move")).wait_for()
                page.locator("body").press("ArrowRight")
                page.locator("body").press("ArrowRight")
                page.locator(".stepper-panel").scroll_into_view_if_needed()
                page.screenshot(path=str(args.out / f"{name}-puzzle-solution.png"))
        # the four-player table (RULES §12.4): three opponents, a kitty of eight, 25 cards in the hand
        set_setting(base, "players", 4)
        page.goto(f"{base}/play?deal={args.deal}&level=easy")
        page.wait_for_selector("body[data-ready]")
        abandon = page.get_by_role("button", name=label(args, "abandon_start"))
        if abandon.count():
            abandon.click()
        page.locator("#controls .buttons:not([hidden])").wait_for()
        page.wait_for_selector("body:not([aria-busy])", state="attached")
        page.screenshot(path=str(args.out / f"{name}-four.png"), animations="disabled")
        # … and in play: the trick, the seats' last plays and yours (issue 34: they were 28 and 16 px wide on its side)
        while page.locator("#bid-buttons:not([hidden])").count():
            page.locator("#bid-buttons button:enabled").first.click()
            page.wait_for_selector("body:not([aria-busy])", state="attached")
        play_out(page, args, until_trick=True, below=25)
        page.screenshot(path=str(args.out / f"{name}-four-play.png"), animations="disabled")
        if height < width <= 700:  # a small phone on its side: the four-player table at 740×360 as well
            page.set_viewport_size({"width": 740, "height": height})
            page.evaluate("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")
            page.screenshot(path=str(args.out / f"{name}-four-play-740.png"), animations="disabled")
        set_setting(base, "players", 3)
        page.close()
    finally:
        server.terminate()
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("screenshots"))
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    parser.add_argument("--deal", type=int, default=42)
    parser.add_argument("--lang", default="en", choices=("en", "ru"))
    parser.add_argument("--sizes", default=DEFAULT_SIZES, help="comma-separated: " + ", ".join(SIZES))
    args = parser.parse_args()
    sizes = [name.strip() for name in args.sizes.split(",") if name.strip()]
    unknown = [name for name in sizes if name not in SIZES]
    if unknown:
        parser.error(f"unknown size {unknown[0][:20]!r} (one of: {', '.join(SIZES)})")
    from playwright.sync_api import sync_playwright

    args.out.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=args.chromium, args=ARGS)
        for name in sizes:
            shoot(browser, args, f"{name}-{args.lang}" if args.lang != "en" else name, *SIZES[name])
        browser.close()
    print(f"screenshots in {args.out}/: " + ", ".join(sorted(p.name for p in args.out.glob("*.png"))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
