"""The coach's job queue in the club's PostgreSQL database: procrastinate, behind the store (issue 35).

`procrastinate <https://procrastinate.readthedocs.io>`_ is a kept task queue on psycopg 3 (worker processes,
retries, locks, ``SELECT … FOR UPDATE SKIP LOCKED`` underneath): we write no queue of our own.  This module
is the only one that talks to it (only the store talks to a database, tests/test_architecture.py); what a
job *does* is given by the caller (:mod:`tutor.web.coachqueue`: the coach's thinking for a learner's game).

* One lock per game: a game's jobs run one at a time, in the order sent (the review after the verdicts
  it sums up); different learners' jobs run in parallel on as many workers as there are.
* A job that raises is retried once (``retry=1``).  A worker that dies in the middle of a job (killed,
  its machine gone) stops sending its heartbeat; any live worker then finds the job stalled and sends it
  back to the queue once (:func:`recover_stalled`); a job stalled twice is failed and ``on_failed`` is told.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Collection
from typing import Any

from tutor.store import StoreError

log = logging.getLogger("tutor.worker")

TASK = "ddz.coach"
#: The advisory lock taken while the queue's tables are created (several processes may start at once).
SCHEMA_LOCK = 0x64647A71  # "ddzq"
#: Tries for that lock, 0.2 s apart (a minute): making the tables takes a second or two.
LOCK_TRIES = 300

#: What runs a job: (learner, game key, payload).
Handler = Callable[[int, str, dict[str, Any]], None]


def ensure_schema(url: str) -> None:
    """Create the queue's tables in the club's database once (procrastinate's own schema), if missing.

    The tables are looked for first, with no lock (the usual case: a server or another worker made them);
    only their creation takes the advisory lock, asked for without blocking (``pg_try_advisory_lock``, a
    short sleep between tries) so that Ctrl-C stops a process that waits for it, and a lock held too long
    is one line, not a hang.
    """
    import time

    import psycopg
    from procrastinate.schema import SchemaManager

    def made(connection: Any) -> bool:
        found = connection.execute("SELECT to_regclass('procrastinate_jobs')").fetchone()
        return found is not None and found[0] is not None

    try:
        with psycopg.connect(url, autocommit=True, connect_timeout=5) as connection:
            if made(connection):
                return
            for _ in range(LOCK_TRIES):
                taken = connection.execute("SELECT pg_try_advisory_lock(%s)", (SCHEMA_LOCK,)).fetchone()
                if taken is not None and taken[0]:
                    break
                time.sleep(0.2)
            else:
                from tutor.store import StoreError
                from tutor.store.postgres import redacted

                raise StoreError(f"the task queue's tables in {redacted(url)} are being made by another process "
                                 "for over a minute: is one stuck?")
            try:
                if not made(connection):
                    connection.execute(SchemaManager.get_schema().encode())
            finally:
                connection.execute("SELECT pg_advisory_unlock(%s)", (SCHEMA_LOCK,))
    except psycopg.Error as error:
        from tutor.store.postgres import explain_pg, redacted

        raise explain_pg(error, redacted(url)) from None


def _register(app: Any, handle: Handler | None, running: set[int] | None = None) -> Any:
    """The one task (its name is what the queue stores): ``handle`` runs it (None: this process only sends).

    ``running`` (a worker's): the ids of the jobs this process is running right now, for
    :func:`recover_stalled`, which must never take a job from the process that is doing it.
    """

    @app.task(name=TASK, retry=1, pass_context=True)  # type: ignore[untyped-decorator]  # procrastinate: App is Any
    def coach(context: Any, learner: int, game: str, data: dict[str, Any]) -> None:
        assert handle is not None, "a sending process runs no job"
        job_id = int(context.job.id)
        if running is not None:
            running.add(job_id)
        try:
            handle(int(learner), str(game), data)
        finally:
            if running is not None:
                running.discard(job_id)

    return coach


class CoachQueue:
    """The web side: sends a game's jobs (one small connection pool per web worker, opened on first use)."""

    def __init__(self, url: str) -> None:
        import threading

        self.url = url
        self._app: Any = None
        self._task: Any = None
        self._opening = threading.Lock()  # the think pool's threads may send their first jobs at once

    def _open(self) -> Any:
        with self._opening:
            return self._opened()

    def _opened(self) -> Any:
        if self._app is None:
            import procrastinate

            ensure_schema(self.url)
            app = procrastinate.App(connector=procrastinate.SyncPsycopgConnector(
                conninfo=self.url, min_size=1, max_size=2, kwargs={"connect_timeout": 3}))
            app.open()
            self._task = _register(app, None)
            self._app = app
        return self._task

    def send(self, learner: int, game: str, data: dict[str, Any]) -> None:
        """Queue one job; a game's jobs share a lock, so they run one at a time in the order sent.

        Raises:
            StoreError: the database cannot take it (the request answers 503, as for any database fault).
        """
        try:
            task = self._open()
            task.configure(lock=f"coach:{learner}:{game}").defer(learner=learner, game=game, data=data)
        except StoreError:
            raise
        except Exception as error:  # noqa: BLE001 - procrastinate wraps psycopg's errors in its own
            raise StoreError(f"the coach's queue cannot be reached: {str(error)[:80]}") from None

    def close(self) -> None:
        if self._app is not None:
            self._app.close()


async def recover_stalled(app: Any, stalled_after: float, on_failed: Handler,
                          running: Collection[int] = frozenset()) -> int:
    """Send back to the queue, once, the jobs of workers that stopped beating; fail the ones seen twice.

    ``running``: the jobs this very process is doing, never stalled whatever its heartbeat says.  On a loaded
    machine a worker's heartbeat can be late by more than ``stalled_after`` while its job runs (its event loop
    waits for the CPU, or for a database as busy); its own sweeper then found its own job "stalled" and retried
    it under itself, or — a job already retried once, after a worker was killed — failed it with no answer
    (tests/web/test_coachqueue.py's killed-worker test at load 17: the table said nothing after the retry).
    """
    from procrastinate.jobs import Status

    found = 0
    for job in await app.job_manager.get_stalled_jobs(task_name=TASK, seconds_since_heartbeat=stalled_after):
        if job.id in running:
            log.debug("coach job %s: this worker's heartbeat is late, the job is running here; kept", job.id)
            continue
        found += 1
        if job.attempts < 1:
            log.warning("coach job %s: its worker stopped; retried", job.id)
            await app.job_manager.retry_job(job)
            continue
        log.warning("coach job %s: its worker stopped again; failed", job.id)
        await app.job_manager.finish_job(job, Status.FAILED, delete_job=False)
        kwargs = job.task_kwargs
        await asyncio.to_thread(on_failed, int(kwargs["learner"]), str(kwargs["game"]), kwargs.get("data") or {})
    return found


def run_worker(url: str, handle: Handler, on_failed: Handler, *, concurrency: int = 1,
               stalled_after: float = 30.0) -> None:
    """Take the queue's jobs and ``handle`` them until interrupted (``ddz worker``).

    ``concurrency``: jobs at once in this process (CPU-bound Python: one, and one process per core).
    ``stalled_after``: seconds without a worker's heartbeat before its job is given to another worker.

    Raises:
        StoreError: the database cannot be reached.
        KeyboardInterrupt: Ctrl-C (the command line says one line and exits 130).
    """
    import procrastinate

    ensure_schema(url)
    app = procrastinate.App(connector=procrastinate.PsycopgConnector(conninfo=url, min_size=1,
                                                                        max_size=max(2, concurrency + 2)))
    running: set[int] = set()  # the job ids this process is doing (added and removed in the job's thread)
    _register(app, handle, running)
    beat = max(0.5, stalled_after / 4)

    async def recovering() -> None:
        while True:
            try:
                await recover_stalled(app, stalled_after, on_failed, running)
            except Exception as error:  # noqa: BLE001 - the database away for a moment: try again later
                log.warning("looking for stalled coach jobs failed: %s", str(error)[:80])
            await asyncio.sleep(beat)

    async def main() -> None:
        async with app.open_async():
            sweeper = asyncio.create_task(recovering())
            try:
                await app.run_worker_async(concurrency=concurrency, install_signal_handlers=False,
                                           update_heartbeat_interval=beat, stalled_worker_timeout=stalled_after,
                                           delete_jobs="successful", name="ddz-worker")
            finally:
                sweeper.cancel()

    asyncio.run(main())
