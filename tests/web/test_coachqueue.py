"""The coach's thinking off the play path (issue 35, point 5): a club game's verdicts are jobs on the
PostgreSQL queue (procrastinate), done by ``ddz worker`` processes and delivered to the table afterwards.

Real PostgreSQL (the session's cluster), real worker processes.  Waiting for a worker is polling with a
generous cap, never a timed assertion.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.web.test_club import PASSWORD, cheap_hashes, make_app, signed_in

DDZ = [sys.executable, "-c", "from tutor.cli.main import main; main()"]


@pytest.fixture()
def coached(pg_cluster: Any, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[str, Any]]:
    """A club on a fresh schema whose server sends the coach's work to the queue; ann signed in."""
    from tutor.store.club import Club
    from tutor.web.coachqueue import CoachQueue

    cheap_hashes(monkeypatch)
    url = pg_cluster.url()
    club = Club.open(url)
    club.users.add("ann", PASSWORD)
    queue = CoachQueue(url)
    try:
        yield url, signed_in(make_app(club, coach_queue=queue), "ann")
    finally:
        queue.close()
        club.close()


def worker(url: str, tmp_path: Path, name: str, **env: str) -> subprocess.Popen[str]:
    return subprocess.Popen([*DDZ, "worker", "--db", url, "--stalled-after", "2"], text=True,
                            stdout=subprocess.DEVNULL, stderr=(tmp_path / f"{name}.log").open("w"),
                            env={**os.environ, **env}, preexec_fn=default_sigint)


def default_sigint() -> None:
    """Ctrl-C as a terminal gives it: a suite started in the background (CI) ignores SIGINT, and a child
    inherits that — the worker, which takes Python's own Ctrl-C, would never hear the test's SIGINT."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def wait_for_coach(client: Any, rounds: int = 600) -> list[dict[str, Any]]:
    """Ask for the table until the coach's answers are all in; every event said meanwhile."""
    said: list[dict[str, Any]] = []
    for _ in range(rounds):
        answer = client.get("/api/game").json()
        said += answer["events"]
        if answer["game"]["coach_pending"] == 0:
            return said
        time.sleep(0.2)
    raise AssertionError(f"the coach's answers never came: {said}")


def jobs(url: str) -> list[tuple[str, int]]:
    import psycopg

    with psycopg.connect(url) as connection:
        return [(str(s), int(a)) for s, a in connection.execute(
            "SELECT status, attempts FROM procrastinate_jobs ORDER BY id").fetchall()]


def test_a_play_answers_at_once_and_a_worker_process_brings_the_verdict(coached: Any, tmp_path: Path,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    url, ann = coached
    monkeypatch.setattr("tutor.web.club.COACH_WAIT", 300.0)  # a generous cap: a worker starting on a busy machine
    started = ann.post("/api/game/new", json={"deal": "7", "level": "easy"}).json()
    game = started["game"]
    assert game["waiting"] == "bid" and game["coach_pending"] == 1  # the auction's expected-score line: a job
    assert "expected score" not in game["opening"]["text"]  # the hand's facts at once (the rule of thumb)
    asked = ann.post("/api/game/hint", json={"rev": started["rev"]}).json()  # the bids' hints come with that job
    assert [e["text"] for e in asked["events"]] == ["The coach is weighing the bids: the hint follows in a moment."]
    assert asked["game"]["coach_pending"] == 1
    bid = ann.post("/api/game/bid", json={"rev": started["rev"], "bid": 3}).json()
    assert not [e for e in bid["events"] if e["type"] == "remark"]  # the play did not wait for the verdict
    assert bid["game"]["coach_pending"] >= 1 and [s for s, _ in jobs(url)].count("todo") >= 2
    hint = ann.post("/api/game/hint", json={"rev": bid["rev"]}).json()  # the hints' evaluation: a job too
    assert [e["type"] for e in hint["events"]] == ["say"] and hint["game"]["coach_pending"] >= 2
    # the page's cheap wait: a question about the pending jobs, no table built
    waits = hint["game"]["coach_wait"]
    asked = f"/api/game/coach?key={waits['key']}&jobs={','.join(waits['jobs'])}"
    assert len(waits["jobs"]) == hint["game"]["coach_pending"]
    assert ann.get(asked).json() == {"ready": False, "held": False}
    refused = ann.get("/api/game/coach?key=nothex&jobs=1")
    assert refused.status_code == 400 and refused.json()["error"].startswith("this wait names no game")
    process = worker(url, tmp_path, "one")
    try:
        # held until a worker's answer is announced (NOTIFY, tests/store/test_notices.py), then looked at
        assert ann.get(asked + "&wait=1").json() == {"ready": True, "held": True}
        said = wait_for_coach(ann)
    finally:
        process.send_signal(signal.SIGINT)
        assert process.wait(timeout=60) == 130  # Ctrl-C: one line, exit 130
    remarks = [e["text"] for e in said if e["type"] == "remark"]
    assert any("Blunder in the auction: bid 3" in text for text in remarks), said
    shown = [e for e in said if e["type"] == "hint"]
    assert len(shown) == 1 and shown[0]["text"].startswith("Hint 1"), said
    assert [s for s, _ in jobs(url)].count("todo") == 0
    log = (tmp_path / "one.log").read_text().strip().splitlines()
    assert log[-1].startswith("interrupted") and "Traceback" not in "".join(log)


def test_a_job_whose_worker_is_killed_is_retried_by_another(coached: Any, tmp_path: Path) -> None:
    url, ann = coached
    hold = tmp_path / "hold"
    ann.post("/api/game/new", json={"deal": "7", "level": "easy"})
    first = worker(url, tmp_path, "first", DDZ_WORKER_HOLD=str(hold))
    try:
        for _ in range(600):
            if Path(f"{hold}.taken").exists():
                break
            time.sleep(0.1)
        assert Path(f"{hold}.taken").exists(), (tmp_path / "first.log").read_text()
        assert jobs(url) == [("doing", 0)]
        os.kill(first.pid, signal.SIGKILL)  # kill -9 in the middle of the job
    finally:
        first.wait(timeout=30)
    second = worker(url, tmp_path, "second")
    try:
        said = wait_for_coach(ann)
    finally:
        second.send_signal(signal.SIGINT)
        second.wait(timeout=60)
    assert any(e["type"] == "say" and "expected score" in e["text"] for e in said), said
    assert "retried" in (tmp_path / "second.log").read_text()


def test_making_the_queue_s_tables_waits_for_the_lock_without_blocking(pg_cluster: Any, monkeypatch: Any) -> None:
    """Another process holding the tables' lock too long is one error, not a hang Ctrl-C cannot stop."""
    import psycopg

    from tutor.store import StoreError, queue

    url = pg_cluster.url()
    monkeypatch.setattr(queue, "LOCK_TRIES", 2)
    with psycopg.connect(url, autocommit=True) as holder:
        holder.execute("SELECT pg_advisory_lock(%s)", (queue.SCHEMA_LOCK,))
        with pytest.raises(StoreError, match="being made by another process"):
            queue.ensure_schema(url)
        holder.execute("SELECT pg_advisory_unlock(%s)", (queue.SCHEMA_LOCK,))
    queue.ensure_schema(url)  # free: the tables are made
    with psycopg.connect(url, autocommit=True) as holder:
        holder.execute("SELECT pg_advisory_lock(%s)", (queue.SCHEMA_LOCK,))
        queue.ensure_schema(url)  # made already: no lock asked for
