"""API latency of the web table: how long a learner's play takes to answer when the bots are hard.

Runs the app under uvicorn on a free loopback port with a throw-away store and
plays whole games over HTTP as the page does (bid the suggestion, then hint and
play the hinted move each turn).  Each ``/api/game/play`` answer includes both
hard bots thinking until it is the learner's turn again.  Prints the median and
the maximum, and the machine's load (the figures move with it)::

    python benchmarks/web_latency.py [--games 3] [--level hard] [--first-deal 1] [--page]

``--page`` also loads the page in Debian's headless Chromium (Playwright) three times, cold then
cached, and prints the bytes moved (compressed, as sent), the requests and the time to interactive
(the script's own mark, ``body[data-ready-at]``): medians of the cold loads and of the cached ones.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--level", default="hard")
    parser.add_argument("--first-deal", type=int, default=1)
    parser.add_argument("--page", action="store_true", help="also measure page weight and time to interactive")
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    args = parser.parse_args()
    cpu_start, wall_start = time.process_time(), time.perf_counter()
    import uvicorn

    from tutor.web.app import create_app
    from tutor.web.context import Context

    home = Path(tempfile.mkdtemp(prefix="ddz-latency-"))
    listener = socket.create_server(("127.0.0.1", 0))
    port = listener.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(create_app(Context(store_path=home / "ddz.sqlite3"), port=port),
                                           log_level="warning", lifespan="off"))
    threading.Thread(target=server.run, kwargs={"sockets": [listener]}, daemon=True).start()
    base = f"http://127.0.0.1:{port}"

    def call(path: str, body: dict[str, Any] | None = None) -> tuple[dict[str, Any], float]:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(base + path, data=data, headers={
            "content-type": "application/json", "origin": base})
        started = time.perf_counter()
        with urllib.request.urlopen(request, timeout=600) as response:
            answer = json.loads(response.read())
        return answer, time.perf_counter() - started

    for _ in range(200):
        try:
            call("/api/settings")
            break
        except OSError:
            time.sleep(0.05)
    if args.page:
        page_figures(base, args.chromium)
    plays: list[float] = []
    for deal in range(args.first_deal, args.first_deal + args.games):
        data, _ = call("/api/game/new", {"deal": deal, "level": args.level, "abandon": True})
        while data["game"]["waiting"] == "bid":
            data, _ = call("/api/game/bid", {"rev": data["rev"], "bid": data["game"]["bids"]["suggested"]})
        while data["game"]["waiting"] == "play":
            hint, _ = call("/api/game/hint", {"rev": data["rev"]})
            move = next(e for e in hint["events"] if e["type"] == "hint")["move"]
            if move is None:
                data, seconds = call("/api/game/pass", {"rev": data["rev"]})
            else:
                data, seconds = call("/api/game/play", {"rev": data["rev"], "cards": "".join(move["cards"])})
            plays.append(seconds)
    server.should_exit = True
    load = os.getloadavg()
    print(f"web API, play with {args.level} bots: {len(plays)} plays in {args.games} games; "
          f"median {statistics.median(plays) * 1000:.0f} ms, max {max(plays) * 1000:.0f} ms "
          f"(load average {load[0]:.1f} on {os.cpu_count()} cores); this process: "
          f"{time.process_time() - cpu_start:.1f} s CPU in {time.perf_counter() - wall_start:.1f} s wall")
    return 0


WEIGHT = """() => {
    const entries = performance.getEntriesByType('resource').concat(performance.getEntriesByType('navigation'));
    const paint = performance.getEntriesByType('paint').find((e) => e.name === 'first-contentful-paint');
    const first = paint ? paint.startTime : Infinity;
    const end = (part) => { const e = entries.find((x) => x.name.includes(part)); return e ? e.responseEnd : NaN; };
    const before = entries.filter((e) => e.responseEnd <= first);
    return {sent: entries.reduce((sum, e) => sum + (e.transferSize || 0), 0),
            body: entries.reduce((sum, e) => sum + (e.decodedBodySize || 0), 0),
            files: entries.length, ready: Number(document.body.dataset.readyAt),
            names: entries.map((e) => new URL(e.name).pathname.replace(/[/]v[0-9a-f]+[/]/, '/')),
            // the critical path: the page, its style sheet and its script answered, the first paint
            html: performance.getEntriesByType('navigation')[0].responseEnd, css: end('app.css'), js: end('app.js'),
            paint: first, before: before.reduce((sum, e) => sum + (e.transferSize || 0), 0), beforeFiles: before.length};
}"""


def page_figures(base: str, chromium: str) -> None:
    """The page's weight and time to interactive, cold (empty cache) and cached (a second visit)."""
    from playwright.sync_api import sync_playwright

    args = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"]
    cold: list[dict[str, Any]] = []
    cached: list[dict[str, Any]] = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=args)
        for _ in range(3):
            context = browser.new_context(viewport={"width": 390, "height": 844})
            page = context.new_page()
            for into in (cold, cached):
                page.goto(f"{base}/play")
                page.wait_for_selector("body[data-ready='true']", state="attached")
                into.append(page.evaluate(WEIGHT))
            context.close()
        browser.close()
    for name, runs in (("cold", cold), ("cached", cached)):
        print(f"page ({name}): {statistics.median(r['sent'] for r in runs) / 1024:.1f} KiB sent "
              f"({statistics.median(r['body'] for r in runs) / 1024:.1f} KiB uncompressed) in "
              f"{runs[0]['files']} requests; time to interactive {statistics.median(r['ready'] for r in runs):.0f} ms "
              f"(median of {len(runs)})")
        med = {key: statistics.median(r[key] for r in runs) for key in ("html", "css", "js", "paint", "before", "beforeFiles")}
        print(f"  requests: {', '.join(runs[0]['names'])}; before the first paint: {med['before'] / 1024:.1f} KiB "
              f"in {med['beforeFiles']:.0f} requests; page answered {med['html']:.0f} ms, app.css {med['css']:.0f} ms, "
              f"app.js {med['js']:.0f} ms, first paint {med['paint']:.0f} ms (medians)")


if __name__ == "__main__":
    sys.exit(main())
