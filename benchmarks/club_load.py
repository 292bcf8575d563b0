"""Club load: N simulated learners sign in and play coached games, lessons and puzzles on a club server.

Starts ``ddz serve --db … --workers W`` on a free loopback port (as a user would), against ``--db`` or a
throw-away PostgreSQL cluster (tests/pgcluster.py: durability off, so commits are cheaper than on a real
server), creates the accounts, and runs N learners for ``--duration`` seconds.  Each learner is a
closed loop with a think time (``--think`` seconds on average, as a person between taps): mostly a coached
game (bid, hint now and then, play or pass), sometimes a lesson (start, steps, hints) or a puzzle (start,
hint, solution), and page loads.  Prints, per kind of request: count, throughput, p50/p95/p99 latency; for
plays also the latency without the bots' thinking (the server reports that apart in ``Server-Timing``);
the database's connection count (peak); the server's and this client's CPU time; the load average::

    python benchmarks/club_load.py --learners 50 --workers 2 --analysis-workers 1 [--duration 60] [--think 1.0]

On PostgreSQL the coach's thinking runs on ``ddz worker`` processes (``--analysis-workers``, issue 35): a play
answers with the move and the bots' replies, and the learner asks for the table again (as the page does,
every second) until the coach's verdicts are in.  Each job's CPU and queue wait are reported per kind (the
workers write them to a file: ``DDZ_WORKER_STATS``).  ``--coach-inline`` runs the coach in the requests
instead (the old way), for comparison.

Everything runs on this machine: the load generator's own CPU is reported, since it competes with the server.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import signal
import ssl
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
PASSWORD = "load-test-password"
#: The server's own log (warnings, errors) during a run.
LOG = os.path.join(os.environ.get("TMPDIR", "/tmp"), "ddz-club-load-server.log")
#: (status, path) of every refused request, for the report.
REFUSED: dict[str, int] = {}
#: The 1-minute load average, sampled every 2 s during the run.
LOADS: list[float] = []
#: The coach's jobs waiting or running, sampled every 2 s during the measured part.
QUEUED: list[int] = []
#: (cause) of every answer tried again (a 503 with Retry-After, a lost connection) during the measured part.
RETRIED: dict[str, int] = {}
#: How many times a 503 or a lost connection is tried again (after Retry-After, doubling, with jitter).
RETRIES = 5
#: Seconds the learners get after the measured part to end their step (then their requests are dropped).
GRACE = 20.0
#: The wall-clock time (epoch) the measured part began at.
MEASURED_FROM: list[float] = []
#: A person at a card table: a tap every 2.5–7.5 s (mean 5 s: read the table, choose, raise the cards, play).
#: The capacity plan of docs/club.md assumes the same.
THINK = 5.0
#: Each learner's activities and how often they pick each.
ACTIVITIES = (("game", 0.7), ("lesson", 0.15), ("puzzle", 0.15))


def percentiles(values: list[float]) -> dict[str, float]:
    if not values:
        return {"n": 0}
    ordered = sorted(values)

    def at(q: float) -> float:
        return round(ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000, 1)

    return {"n": len(ordered), "p50_ms": at(0.50), "p95_ms": at(0.95), "p99_ms": at(0.99)}


def cpu_seconds(pid: int) -> float:
    """User + system CPU of ``pid`` and its children (alive or reaped), from /proc."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    tick = os.sysconf("SC_CLK_TCK")
    own = (int(fields[11]) + int(fields[12]) + int(fields[13]) + int(fields[14])) / tick
    children = 0.0
    for task in Path(f"/proc/{pid}/task").glob("*/children"):
        for child in task.read_text().split():
            children += cpu_seconds(int(child))
    return own + children


#: One TLS context for every learner's client, with no certificates loaded (never used: plain http on loopback).
_NO_TLS = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)


class Learner:
    """One simulated learner: a cookie jar, the page's CSRF token, and a loop of activities."""

    def __init__(self, name: str, base: str, stats: dict[str, list[float]], rng: random.Random,
                 think: float, level: str, measure_from: float, waiting: str = "held") -> None:
        import httpx

        self.name = name
        self.base = base
        self.stats = stats
        self.rng = rng
        self.think = think
        self.level = level
        # a connection idle for 2 s is not reused: the server closes idle ones after 5 s (tutor/web/guard.py),
        # and reusing one it is closing is a dropped request a browser would retry, not the server's fault
        # plain http on loopback: no certificate store to load (200 clients each loading one took a minute)
        self.client = httpx.AsyncClient(base_url=base, headers={"origin": base}, timeout=600, verify=_NO_TLS,
                                        limits=httpx.Limits(keepalive_expiry=2.0))
        self.csrf = ""
        self.errors = 0
        self.signed_out = False
        #: Requests before this moment warm the server up (each worker loads the course, the library…): not counted.
        self.measure_from = measure_from
        #: How the page waits for the coach's answers (``--waiting``), what it waits for, and its wake-up.
        self.waiting = waiting
        self.wait_for: dict[str, Any] | None = None
        self.wake = asyncio.Event()
        self.hint_seen: dict[str, Any] | None = None

    async def send(self, path: str, body: dict[str, Any] | None) -> Any:
        """One request as the page sends it: a 503 (the server busy, or its database) or a lost connection is
        tried again after the server's ``Retry-After`` (else 1 s), doubled each time, with jitter — at most
        :data:`RETRIES` times, as the page's own script does (tutor/web/static/js/api.js).  Each retried
        answer is counted apart (``retried``); the caller times the whole, as the learner waits."""
        import httpx

        for attempt in range(RETRIES + 1):
            try:
                if body is None:
                    response = await self.client.get(path)
                else:
                    response = await self.client.post(path, json=body, headers={"x-ddz-csrf": self.csrf})
            except httpx.TransportError as error:
                if attempt == RETRIES:
                    raise
                cause = f"transport {path.split('?')[0]}: {type(error).__name__}"
                after = 1.0
            else:
                if response.status_code != 503 or attempt == RETRIES:
                    return response
                cause = f"503 {path.split('?')[0]}"
                try:
                    after = float(response.headers.get("retry-after") or 1)
                except ValueError:
                    after = 1.0
            if time.perf_counter() >= self.measure_from:
                RETRIED[cause] = RETRIED.get(cause, 0) + 1
            await asyncio.sleep(min(30.0, after * 2 ** attempt) * self.rng.uniform(0.5, 1.5))
        raise AssertionError("unreachable")

    async def call(self, kind: str, path: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
        import httpx

        started = time.perf_counter()
        try:
            response = await self.send(path, body)
        except httpx.TransportError as error:  # a dropped connection, tried again and lost: counted apart
            self.errors += 1
            cause = f"transport {path.split('?')[0]}: {type(error).__name__}"
            REFUSED[cause] = REFUSED.get(cause, 0) + 1
            self.stats.setdefault("error_transport", []).append(time.perf_counter() - started)
            return {"error": "transport"}
        took = time.perf_counter() - started
        json_answer = "json" in response.headers.get("content-type", "")
        if response.status_code == 401:
            self.signed_out = True
        if started < self.measure_from:
            data: dict[str, Any] = response.json() if json_answer else {"html": response.text}
            self.note_hint(data)
            return data
        if response.status_code >= 400:  # refused: counted apart, by cause, never as a served request's latency
            self.errors += 1
            why = response.json().get("error", "") if json_answer else response.text
            where = f"{response.status_code} {path.split('?')[0]}: {str(why).splitlines()[0][:60] if why else ''}"
            REFUSED[where] = REFUSED.get(where, 0) + 1
            self.stats.setdefault(f"error_{response.status_code}", []).append(took)
            return response.json() if json_answer else {"html": response.text, "error": response.status_code}
        self.stats.setdefault(kind, []).append(took)
        timing = dict(re.findall(r"(\w+);dur=([\d.]+)", response.headers.get("server-timing", "")))
        if "cpu" in timing:  # the server's CPU for this request's work (its thread), bots included
            self.stats.setdefault(f"cpu_{kind}", []).append(float(timing["cpu"]) / 1000)
        if "bots" in timing and kind == "play":
            bots = float(timing["bots"]) / 1000
            self.stats.setdefault("bots", []).append(bots)
            self.stats.setdefault("cpu_bots", []).append(float(timing["botscpu"]) / 1000)
            self.stats.setdefault("play_without_bots", []).append(max(0.0, took - bots))
        if not json_answer:
            return {"html": response.text}
        answer: dict[str, Any] = response.json()
        self.note_hint(answer)
        return answer

    def note_hint(self, answer: dict[str, Any]) -> None:
        """The last hint the page showed (from any answer: a hint's job arrives with a later request)."""
        for event in answer.get("events") or []:
            if isinstance(event, dict) and event.get("type") == "hint":
                self.hint_seen = event

    async def pause(self) -> None:
        await asyncio.sleep(self.rng.uniform(0.5, 1.5) * self.think)

    async def sign_in(self, until: float) -> bool:
        """Sign in as a person does: again after a pause when the answer was lost or refused, until the page
        (and its CSRF token) is in.  Round 3 went on without the token after a refused page: 287 of its 403s."""
        while time.perf_counter() < until:
            await self.call("page", "/signin")
            answer = await self.call("signin", "/api/club/signin", {"name": self.name, "password": PASSWORD})
            if "next" in answer:
                page = await self.call("page", "/")
                found = re.search(r'name="ddz-csrf" content="(\w+)"', page.get("html", ""))
                if found:
                    self.csrf = found.group(1)
                    self.signed_out = False
                    return True
            await self.pause()
        return False

    def saw(self, state: dict[str, Any]) -> None:
        """A game's table came: the page's wait for the coach starts, goes on or ends with it."""
        game = state.get("game") if isinstance(state, dict) else None
        if not isinstance(game, dict):
            return
        pending = game.get("coach_pending") or 0
        self.wait_for = (game.get("coach_wait") or {"key": "", "jobs": []}) if pending else None
        if self.wait_for is not None:
            self.wake.set()

    async def waiter(self, until: float) -> None:
        """The page's side of waiting for the coach, beside the learner's own actions (as the page runs it):

        * ``table`` — the table asked for again every second (the page before this change);
        * ``cheap`` — ``/api/game/coach`` every second, the table only when an answer is in;
        * ``held`` — ``/api/game/coach?wait=1``, held by the server until an answer is announced (the page now).
        """
        while time.perf_counter() < until:
            if self.wait_for is None:
                self.wake.clear()
                try:
                    await asyncio.wait_for(self.wake.wait(), max(0.01, until - time.perf_counter()))
                except TimeoutError:
                    return
                continue
            wait = self.wait_for
            if self.waiting == "table" or not wait.get("key"):
                await asyncio.sleep(1.0)
                self.saw(await self.call("poll", "/api/game"))
                continue
            held = self.waiting == "held"
            asked = f"/api/game/coach?key={wait['key']}&jobs={','.join(wait['jobs'])}" + ("&wait=1" if held else "")
            if not held:
                await asyncio.sleep(1.0)
            answer = await self.call("wait_held" if held else "wait", asked)
            if self.wait_for is not wait:
                continue  # the learner acted meanwhile: wait for what the new table waits for
            if answer.get("ready"):
                self.saw(await self.call("poll", "/api/game"))
            elif not answer.get("held"):
                await asyncio.sleep(1.0)

    async def run(self, until: float) -> None:
        if not await self.sign_in(until):
            await self.client.aclose()
            return
        waiting = asyncio.create_task(self.waiter(until))
        await self.actions(until)
        self.wait_for = None
        self.wake.set()
        await waiting
        await self.client.aclose()

    async def actions(self, until: float) -> None:
        while time.perf_counter() < until:
            roll, total = self.rng.random(), 0.0
            for activity, weight in ACTIVITIES:
                total += weight
                if roll < total:
                    break
            errors = self.errors
            await getattr(self, activity)(until)
            if self.signed_out:  # a lost sign-in (counted among the 401s): signed in again, as a person would
                await self.sign_in(until)
            elif self.errors > errors:  # a refused request ended the activity: a person reads the line first
                await self.pause()

    async def game(self, until: float) -> None:
        state = await self.call("page", "/api/game")
        if not state.get("game") or state["game"]["waiting"] == "over":
            state = await self.call("play", "/api/game/new", {"level": self.level, "abandon": True})
        for _ in range(12):  # a stretch of one game, then maybe another activity
            self.saw(state)  # the page waits for the coach's answers meanwhile (waiter)
            if time.perf_counter() >= until or not state.get("game"):
                return
            await self.pause()
            game = state["game"]
            if game["waiting"] == "over":
                return
            rev = state.get("rev")
            if game["waiting"] == "bid":
                bids = game["bids"]
                state = await self.call("play", "/api/game/bid", {"rev": rev, "bid": bids["suggested"]})
            elif self.rng.random() < 0.3:
                self.hint_seen = None
                hinted = await self.call("hint", "/api/game/hint", {"rev": rev})
                if self.hint_seen is None and (hinted.get("game") or {}).get("coach_pending"):
                    # the hint is a job: the page shows it when its answer comes (the waiter's requests)
                    self.saw(hinted)
                await self.pause()  # the learner reads the hint (or, the coach still weighing, plays their own)
                shown = self.hint_seen
                if shown is not None:
                    cards = "".join((shown.get("move") or {}).get("cards") or [])  # a hint may say "pass"
                    path = "/api/game/play" if cards else "/api/game/pass"
                    state = await self.call("play", path, {"rev": hinted.get("rev", rev), "cards": cards})
                else:
                    state = await self.own_move(game, hinted.get("rev", rev))
            elif game.get("can_pass") and self.rng.random() < 0.5:
                state = await self.call("play", "/api/game/pass", {"rev": rev})
            else:
                state = await self.own_move(game, rev)
            if "error" in state:  # a refused move (a stale page, an unplayable card): redraw as the page does
                state = await self.call("page", "/api/game")

    async def own_move(self, game: dict[str, Any], rev: Any) -> dict[str, Any]:
        """Pass when following, else lead the lowest card."""
        hand = game.get("hand") or []
        if not hand or game.get("can_pass"):
            return await self.call("play", "/api/game/pass", {"rev": rev})
        return await self.call("play", "/api/game/play", {"rev": rev, "cards": hand[0]})

    async def lesson(self, until: float) -> None:
        course = await self.call("page", "/api/lessons")
        rows = course.get("course") or []
        if not rows:
            return
        state = await self.call("lesson", "/api/lesson/start", {"id": self.rng.choice(rows)["id"]})
        for _ in range(4):
            if time.perf_counter() >= until or "rev" not in state:
                return
            await self.pause()
            path = "/api/lesson/hint" if self.rng.random() < 0.3 else "/api/lesson/next"
            state = await self.call("lesson", path, {"rev": state["rev"]})

    async def puzzle(self, until: float) -> None:
        state = await self.call("puzzle", "/api/puzzle/start", {"kind": self.rng.choice(("daily", "random"))})
        for path in ("/api/puzzle/hint", "/api/puzzle/solution"):
            if time.perf_counter() >= until or "rev" not in state:
                return
            await self.pause()
            state = await self.call("puzzle", path, {"rev": state["rev"]})


def start_server(db: str, workers: int, inline: bool = False) -> tuple[subprocess.Popen[str], str]:
    """``ddz serve --db … --workers W --port 0`` as a user starts it; its address."""
    command = [sys.executable, "-c", "from tutor.cli.main import main; main()", "serve", "--db", db,
               "--workers", str(workers), "--port", "0", "--no-open", *(["--coach-inline"] if inline else [])]
    log = open(LOG, "w")  # never a pipe nobody reads: a full pipe would stall the server's logging
    server = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=log, text=True)
    assert server.stdout is not None
    line = server.stdout.readline()
    found = re.search(r"(http://\S+?)/?\s", line + " ")
    if not found:
        server.kill()
        raise SystemExit(f"the server did not start: {line!r} (see {LOG})")
    return server, found.group(1).rstrip("/")


#: Where the analysis workers write each job's kind, CPU and queue wait (tutor/web/coachqueue.py).
JOB_STATS = os.path.join(os.environ.get("TMPDIR", "/tmp"), "ddz-club-load-jobs.jsonl")


def start_analysis(db: str, count: int, nice: int | None = None) -> list[subprocess.Popen[str]]:
    """``count`` ``ddz worker`` processes taking the coach's jobs (``nice``: their ``--nice``; None: its default)."""
    Path(JOB_STATS).write_text("")
    env = {**os.environ, "DDZ_WORKER_STATS": JOB_STATS}
    command = [sys.executable, "-c", "from tutor.cli.main import main; main()", "worker", "--db", db,
               *(["--nice", str(nice)] if nice is not None else [])]
    return [subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=open(LOG + f".worker{i}", "w"),
                             text=True) for i in range(count)]


def job_report(measure_from_epoch: float) -> dict[str, Any]:
    """Per kind of job: how many, CPU p50/p95 and queue wait p50/p95 (jobs sent after the warm-up)."""
    kinds: dict[str, dict[str, list[float]]] = {}
    for line in Path(JOB_STATS).read_text().splitlines():
        item = json.loads(line)
        if item.get("wait_ms") is None or float(item.get("sent") or 0) < measure_from_epoch:
            continue  # the warm-up's jobs are not counted
        kinds.setdefault(item["kind"], {"cpu": [], "wait": []})
        kinds[item["kind"]]["cpu"].append(item["cpu_ms"] / 1000)
        kinds[item["kind"]]["wait"].append(item["wait_ms"] / 1000)
    return {kind: {"n": len(v["cpu"]), "cpu": percentiles(v["cpu"]), "wait": percentiles(v["wait"]),
                   "waits_ms": [w * 1000 for w in v["wait"]]}
            for kind, v in sorted(kinds.items())}


def connections(db: str) -> int:
    import psycopg

    with psycopg.connect(db) as conn:
        row = conn.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()").fetchone()
    return int(row[0]) - 1 if row else 0  # this probe's own connection left out


def queued(db: str) -> int:
    """The coach's jobs waiting or running (procrastinate's table; 0 before it exists)."""
    import psycopg

    with psycopg.connect(db) as conn:
        try:
            row = conn.execute("SELECT count(*) FROM procrastinate_jobs WHERE status IN ('todo', 'doing')").fetchone()
        except psycopg.Error:
            return 0
    return int(row[0]) if row else 0


async def drive(args: argparse.Namespace, base: str, db: str) -> tuple[dict[str, list[float]], int, int]:
    stats: dict[str, list[float]] = {}
    rng = random.Random(args.seed)
    learners = [Learner(f"l{i:04d}", base, stats, random.Random(rng.random()), args.think, args.level, 0.0,
                        args.waiting) for i in range(args.learners)]
    # the clock starts once the learners exist (a thousand HTTP clients take a while to make on a busy machine)
    measure_from = time.perf_counter() + args.warmup
    MEASURED_FROM.append(time.time() + args.warmup)
    until = measure_from + args.duration
    for learner in learners:
        learner.measure_from = measure_from
    peak = 0

    async def watch() -> None:
        nonlocal peak
        started, shown = time.perf_counter(), 0.0
        while time.perf_counter() < until:
            peak = max(peak, await asyncio.to_thread(connections, db))
            LOADS.append(os.getloadavg()[0])
            if time.perf_counter() >= measure_from:
                QUEUED.append(await asyncio.to_thread(queued, db))
            now = time.perf_counter()
            if now - shown >= 10:  # progress on standard error: signed in, answers counted, retried, refused
                shown = now
                print(f"{now - started:5.0f} s: {sum(1 for one in learners if one.csrf)}/{len(learners)} signed in, "
                      f"{sum(len(v) for k, v in stats.items() if not k.startswith(('cpu', 'bots', 'play_w')))} answers "
                      f"counted, {sum(RETRIED.values())} retried, {sum(REFUSED.values())} refused, load "
                      f"{LOADS[-1]:.1f}", file=sys.stderr, flush=True)
            await asyncio.sleep(2)

    async def staggered(index: int, learner: Learner) -> None:
        # a class arrives over --arrive seconds (each at their own moment), not all in the same second
        await asyncio.sleep((index + learner.rng.random()) * args.arrive / max(1, args.learners))
        await learner.run(until)

    tasks = [asyncio.ensure_future(staggered(i, learner)) for i, learner in enumerate(learners)]
    await watch()
    # the learners end their last step; a request still unanswered GRACE s after the end is dropped, not counted
    _, late = await asyncio.wait(tasks, timeout=GRACE)
    for task in late:
        task.cancel()
    await asyncio.gather(*late, return_exceptions=True)
    for learner in learners:
        await learner.client.aclose()
    if late:
        print(f"{len(late)} learners still waiting {GRACE:.0f} s after the end: their requests dropped",
              file=sys.stderr)
    return stats, peak, sum(learner.errors for learner in learners)


def parser() -> argparse.ArgumentParser:
    found = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    found.add_argument("--learners", type=int, default=50)
    found.add_argument("--workers", type=int, default=1)
    found.add_argument("--duration", type=float, default=60.0, help="seconds measured (after the warm-up)")
    found.add_argument("--arrive", type=float, default=None,
                       help="seconds over which the learners arrive and sign in (default: N/5, 10-120: a class)")
    found.add_argument("--warmup", type=float, default=None,
                       help="seconds of load not counted first (default: the arrival + 20)")
    found.add_argument("--think", type=float, default=THINK,
                       help="mean seconds between a learner's taps (uniform, 0.5-1.5 × this; default: a person)")
    found.add_argument("--waiting", choices=("held", "cheap", "table"), default="held",
                       help="how the page waits for the coach: held /api/game/coach (now), the same asked every "
                            "second, or the table asked every second (before)")
    found.add_argument("--level", default="easy")
    found.add_argument("--db", default=None, help="postgresql://… (default: a throw-away cluster)")
    found.add_argument("--seed", type=int, default=1)
    found.add_argument("--analysis-workers", type=int, default=1, help="ddz worker processes (PostgreSQL)")
    found.add_argument("--analysis-nice", type=int, default=None,
                       help="the analysis workers' --nice (default: ddz worker's, 10: the web's requests first)")
    found.add_argument("--coach-inline", action="store_true", help="the coach in the requests, no workers")
    found.add_argument("--cheap-hashes", action="store_true",
                       help="accounts hashed with argon2's smallest cost (sign-ins are in the warm-up, not measured)")
    found.add_argument("--table", default=None, metavar="ROWS",
                       help="the load table of docs/club.md: one run per row, e.g. 50,200,1000,200x2,200x3 "
                            "(N learners, x analysis workers; 1 by default); prints the table in Markdown, then "
                            "each run's report (JSON)")
    return found


def rows_of(text: str) -> list[tuple[int, int]]:
    """``50,200,1000,200x2`` → [(50, 1), (200, 1), (1000, 1), (200, 2)]."""
    rows = []
    for item in text.split(","):
        learners, _, workers = item.strip().partition("x")
        rows.append((int(learners), int(workers or 1)))
    return rows


def main() -> int:
    args = parser().parse_args()
    sys.path.insert(0, str(ROOT))
    rows = rows_of(args.table) if args.table else [(args.learners, args.analysis_workers)]
    if args.table:
        args.cheap_hashes = True  # the sign-ins are in the warm-up: the table measures the play, not argon2
    cluster = None
    db = args.db
    if db is None:
        from tests.pgcluster import Cluster, binaries

        found = binaries()
        if found is None:
            raise SystemExit("no PostgreSQL binaries (initdb, pg_ctl): give --db postgresql://…")
        cluster = Cluster(found)
        db = str(cluster.url())
    try:
        add_accounts(db, max(n for n, _ in rows), args.cheap_hashes)
        reports = []
        for learners, analysis_workers in rows:
            one = argparse.Namespace(**vars(args))
            one.learners, one.analysis_workers = learners, analysis_workers
            one.arrive = args.arrive if args.arrive is not None else min(120.0, max(10.0, learners / 5))
            one.warmup = args.warmup if args.warmup is not None else one.arrive + 20
            reports.append(run(one, db))
            if not args.table:
                print(json.dumps(reports[-1], indent=1))
    finally:
        if cluster is not None:
            cluster.stop()
    if args.table:
        print(table(reports))
        for report in reports:
            print(json.dumps(report))
    return 0


def add_accounts(db: str, count: int, cheap: bool) -> None:
    from tutor.store.club import Club

    if cheap:
        from argon2 import PasswordHasher

        from tutor.store import users

        users._hasher = lambda: PasswordHasher(time_cost=1, memory_cost=64, parallelism=1)  # type: ignore[attr-defined]
    club = Club.open(db)
    existing = {user.name for user in club.users.list()}
    for i in range(count):
        if f"l{i:04d}" not in existing:
            club.users.add(f"l{i:04d}", PASSWORD)
    club.close()


def run(args: argparse.Namespace, db: str) -> dict[str, Any]:
    """One run: a server and its analysis workers, N learners, the report."""
    for kept in (REFUSED, RETRIED):
        kept.clear()
    del LOADS[:], MEASURED_FROM[:], QUEUED[:]
    load_before = os.getloadavg()
    server, base = start_server(db, args.workers, args.coach_inline)
    analysis = [] if args.coach_inline else start_analysis(db, args.analysis_workers, args.analysis_nice)
    cpu_client, wall = time.process_time(), time.perf_counter()
    try:
        stats, peak, errors = asyncio.run(drive(args, base, db))
        server_cpu = cpu_seconds(server.pid)
        analysis_cpu = sum(cpu_seconds(worker.pid) for worker in analysis)
    finally:
        for worker in analysis:
            worker.send_signal(signal.SIGINT)
            try:
                worker.wait(timeout=60)
            except subprocess.TimeoutExpired:
                worker.kill()
        server.send_signal(signal.SIGINT)  # as Ctrl-C: the workers end with it
        try:
            server.wait(timeout=60)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
    wall = time.perf_counter() - wall - args.warmup  # the rates are over the measured part
    jobs = job_report(MEASURED_FROM[0]) if analysis else {}
    return {
        "learners": args.learners, "workers": args.workers, "cheap_hashes": args.cheap_hashes,
        "duration_s": args.duration, "think_s": args.think, "arrive_s": args.arrive,
        "level": args.level, "cores": os.cpu_count(), "warmup_s": args.warmup,
        "requests_per_s": round(sum(len(v) for k, v in stats.items() if not k.startswith(("bots", "play_w", "error", "cpu")))
                                / wall, 1),
        "kinds": {kind: {**percentiles(values), "per_s": round(len(values) / wall, 2)}
                  for kind, values in sorted(stats.items())},
        # the figures at a glance, per kind of request: rate, latency (wall, as the learner waits, retries
        # included) and the server's CPU on the request's thread (Server-Timing); "wait_held" is held on purpose
        "table": {kind: {"per_s": round(len(values) / wall, 2), **percentiles(values),
                         "cpu": percentiles(stats.get(f"cpu_{kind}", []))}
                  for kind, values in sorted(stats.items()) if not kind.startswith(("bots", "play_w", "error", "cpu"))},
        "verdict_queue_wait": percentiles([w / 1000 for kind, item in jobs.items() if kind in ("move", "bid", "open")
                                           for w in item["waits_ms"]]),
        "waiting": args.waiting,
        "errors": errors,
        # every refusal by status, path and the server's one line (401/403/409/429/503 apart from served requests)
        "refused": dict(sorted(REFUSED.items(), key=lambda item: -item[1])),
        # every answer tried again (503 with Retry-After, lost connection) by cause: the learner waited, then it came
        "retried": dict(sorted(RETRIED.items(), key=lambda item: -item[1])),
        "server_log": LOG,
        "db_connections_peak": peak,
        "server_cpu_s": round(server_cpu, 1),
        "analysis_workers": len(analysis),
        "analysis_nice": args.analysis_nice,
        # the verdicts' backlog: jobs waiting or running during the measured part (a growing one never drains)
        "jobs_queued": {"start": QUEUED[0], "max": max(QUEUED), "end": QUEUED[-1]} if QUEUED else {},
        "analysis_cpu_s": round(analysis_cpu, 1),
        "jobs": {kind: {key: value for key, value in item.items() if key != "waits_ms"} for kind, item in jobs.items()},
        "loadavg_during": {"min": round(min(LOADS), 1), "mean": round(sum(LOADS) / len(LOADS), 1),
                           "max": round(max(LOADS), 1)} if LOADS else {},
        "client_cpu_s": round(time.process_time() - cpu_client, 1),
        "wall_s": round(wall, 1),
        "loadavg_before": [round(x, 2) for x in load_before],
        "loadavg_after": [round(x, 2) for x in os.getloadavg()],
    }


def table(reports: list[dict[str, Any]]) -> str:
    """The load table of docs/club.md (Markdown), one line per run."""

    def pair(figures: dict[str, Any]) -> str:
        if not figures.get("n"):
            return "—"
        return f"{fmt(figures['p50_ms'])} / {fmt(figures['p95_ms'])}"

    head = ("| N | analysis workers | load avg during (min–max) | req/s | play p50 / p95 | page p50 / p95 | "
            "CPU per play in the request p50 / p95 | verdict queue wait p50 / p95 (n; jobs queued) | analysis CPU s | "
            "DB connections (peak) | refused | retried |")
    lines = [head, "| " + " | ".join(["---"] * 12) + " |"]
    for report in reports:
        kinds = report["table"]
        play, page = kinds.get("play", {}), kinds.get("page", {})
        load = report["loadavg_during"]
        wait = report["verdict_queue_wait"]
        refused = sum(report["refused"].values())
        lines.append(
            f"| {report['learners']} | {report['analysis_workers']} | {load.get('min', '?')}–{load.get('max', '?')} | "
            f"{report['requests_per_s']} | {pair(play)} | {pair(page)} | {pair(play.get('cpu', {}))} | "
            f"{pair(wait)} ({wait.get('n', 0)}{backlog(report)}) | {report['analysis_cpu_s']} | {report['db_connections_peak']} | "
            f"{refused or 'none'} | {sum(report['retried'].values()) or 'none'} |")
    return "\n".join(lines)


def backlog(report: dict[str, Any]) -> str:
    """The jobs queued at the start and the end of the measured part, when there were any."""
    queue = report.get("jobs_queued") or {}
    return f"; queued {queue['start']} → {queue['end']}" if queue.get("max") else ""


def fmt(ms: float) -> str:
    """Milliseconds as the docs write them: 84 ms, 1.3 s."""
    return f"{ms:.0f} ms" if ms < 1000 else f"{ms / 1000:.1f} s"


if __name__ == "__main__":
    sys.exit(main())
