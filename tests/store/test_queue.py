"""The coach's job queue (tutor/store/queue.py): a stalled job goes back to the queue, never a running one.

Real PostgreSQL (the session's cluster) and procrastinate's own job manager; the "worker" is registered and
takes its job through that manager, and its heartbeat is made late by hand, so no clock or load is involved.
"""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest


def jobs(url: str) -> list[tuple[str, int]]:
    import psycopg

    with psycopg.connect(url) as connection:
        return [(str(s), int(a)) for s, a in connection.execute(
            "SELECT status, attempts FROM procrastinate_jobs ORDER BY id").fetchall()]


async def _a_late_worker_s_job(url: str, own: bool) -> tuple[list[tuple[str, int]], list[tuple[str, int]], int]:
    """A worker takes a job, its heartbeat is an hour late, and the sweeper runs (in that worker when ``own``).

    Returns the jobs before and after the sweep, and how many the sweeper found stalled.
    """
    import procrastinate
    import psycopg

    from tutor.store import queue

    queue.ensure_schema(url)
    app = procrastinate.App(connector=procrastinate.PsycopgConnector(conninfo=url, min_size=1, max_size=2))
    running: set[int] = set()
    failed: list[tuple[int, str]] = []
    task = queue._register(app, lambda learner, game, data: None, running)
    async with app.open_async():
        await task.defer_async(learner=1, game="g", data={})
        worker_id = await app.job_manager.register_worker()
        job = await app.job_manager.fetch_job(queues=None, worker_id=worker_id)
        assert job is not None and job.id is not None
        if own:
            running.add(job.id)  # what the task does while the job runs in this process
        with psycopg.connect(url, autocommit=True) as connection:
            connection.execute("UPDATE procrastinate_workers SET last_heartbeat = now() - interval '1 hour'")
        before = jobs(url)
        found = await queue.recover_stalled(app, 2.0, lambda learner, game, data: failed.append((learner, game)),
                                            running)
        after = jobs(url)
    assert not failed
    return before, after, found


def _run(coroutine: Any) -> Any:
    """In a thread of its own: after a browser test in this process the main thread has a running loop."""
    with ThreadPoolExecutor(1) as thread:
        return thread.submit(asyncio.run, coroutine).result()


@pytest.mark.parametrize("own", [False, True], ids=["another-worker-s", "this-worker-s"])
def test_a_late_heartbeat_sends_the_job_back_unless_it_runs_in_this_process(pg_cluster: Any, own: bool) -> None:
    """On a loaded machine a worker's heartbeat can be late while its job runs: its own sweeper must not take the
    job from under it (it did: retried, or failed with no answer once retried before — the killed-worker test of
    tests/web/test_coachqueue.py at load 17).  Another process's late job is still sent back, once."""
    before, after, found = _run(_a_late_worker_s_job(pg_cluster.url(), own))
    assert before == [("doing", 0)]
    if own:
        assert (after, found) == ([("doing", 0)], 0)
    else:
        assert (after, found) == ([("todo", 1)], 1)


def test_the_task_counts_its_job_as_running_in_this_process_while_it_runs() -> None:
    """What the sweeper is told (above): the job's id from the moment its handler starts until it ends, raised or not."""
    from types import SimpleNamespace

    import procrastinate
    from procrastinate.testing import InMemoryConnector

    from tutor.store import queue

    app = procrastinate.App(connector=InMemoryConnector())
    running: set[int] = set()
    seen: list[set[int]] = []

    def handle(learner: int, game: str, data: dict[str, Any]) -> None:
        seen.append(set(running))
        if data.get("fail"):
            raise ValueError("a job that raises")

    task = queue._register(app, handle, running)
    task(SimpleNamespace(job=SimpleNamespace(id=7)), learner=1, game="g", data={})
    with pytest.raises(ValueError):
        task(SimpleNamespace(job=SimpleNamespace(id=8)), learner=1, game="g", data={"fail": True})
    assert seen == [{7}, {8}] and running == set()
