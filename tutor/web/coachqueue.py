"""The coach's jobs on a PostgreSQL task queue, and the ``ddz worker`` that takes them (club mode, issue 35).

A club server's coached play makes only the move and the bots' replies; the coach's thinking (verdicts, the
auction's expected-score line, the review: :mod:`tutor.sessions.coachjobs`) goes to the club's database as
jobs of `procrastinate <https://procrastinate.readthedocs.io>`_, a kept task queue on psycopg 3 (worker
processes, retries, locks, ``SELECT … FOR UPDATE SKIP LOCKED`` underneath; we write no queue of our own).
``ddz worker --db URL`` processes take them — on this machine or any machine with the database's address,
as lichess's fishnet clients take analysis — and put each answer in the learner's store
(:class:`tutor.store.coach_answers.CoachAnswers`), where the learner's next request (or the page's poll)
finds it.

* One lock per game: a game's jobs run one at a time, in the order sent, so the review comes after the
  verdicts it sums up; different learners' jobs run in parallel on as many workers as there are.
* A job that raises is retried once (``retry=1``).  A worker that dies in the middle of a job (killed,
  its machine gone) stops sending its heartbeat; any live worker then finds the job stalled and sends it
  back to the queue once (:func:`recover_stalled`); a job stalled twice is failed, and the table is told
  so (an answer marked ``failed``: the page stops waiting for it).
"""

from __future__ import annotations

import asyncio
import logging
import os
from typing import Any

from tutor.store import StoreError

log = logging.getLogger("tutor.worker")

TASK = "ddz.coach"
#: The advisory lock taken while the queue's tables are created (several processes may start at once).
SCHEMA_LOCK = 0x64647A71  # "ddzq"
#: A test's hook (tests/web/test_coach_worker.py): a worker given this file name says it took a job by
#: creating ``NAME.taken`` and then waits before doing it, so the test can kill it in the middle of a job.
HOLD_ENV = "DDZ_WORKER_HOLD"


def ensure_schema(url: str) -> None:
    """Create the queue's tables in the club's database once (procrastinate's own schema), if missing."""
    import psycopg
    from procrastinate.schema import SchemaManager

    try:
        with psycopg.connect(url, autocommit=True, connect_timeout=5) as connection:
            connection.execute("SELECT pg_advisory_lock(%s)", (SCHEMA_LOCK,))
            try:
                found = connection.execute("SELECT to_regclass('procrastinate_jobs')").fetchone()
                if found is None or found[0] is None:
                    connection.execute(SchemaManager.get_schema().encode())
            finally:
                connection.execute("SELECT pg_advisory_unlock(%s)", (SCHEMA_LOCK,))
    except psycopg.Error as error:
        from tutor.store.postgres import explain_pg, redacted

        raise explain_pg(error, redacted(url)) from None


def _register(app: Any, club: Any) -> Any:
    """The one task: run a coach job for a learner's game and keep its answer."""

    @app.task(name=TASK, retry=1, pass_context=True)
    def coach(context: Any, learner: int, game: str, data: dict[str, Any]) -> None:
        hold = os.environ.get(HOLD_ENV)
        if hold:
            _hold(hold)
        do_job(club, learner, game, data)

    return coach


def _hold(name: str) -> None:
    import time
    from pathlib import Path

    Path(name + ".taken").touch()
    while not Path(name).exists():  # the test kills us here (or lets us go on by creating the file)
        time.sleep(0.05)


def do_job(club: Any, learner: int, game: str, data: dict[str, Any]) -> dict[str, Any]:
    """Run one job (:func:`tutor.sessions.coachjobs.run`) and put its answer in the learner's store.

    A payload that describes no game (a damaged row) gets a ``failed`` answer at once: retrying cannot help.
    """
    from tutor.sessions.coachjobs import run
    from tutor.store.coach_answers import CoachAnswers

    job = data.get("job") if isinstance(data, dict) else None
    ident = str(job.get("id")) if isinstance(job, dict) else "?"
    with club.store_for(int(learner)) as store:
        answers = CoachAnswers(store)
        earlier = answers.of_game(game) if isinstance(job, dict) and job.get("kind") == "review" else []
        try:
            answer = run(data, earlier, store)
        except (KeyError, TypeError, ValueError, AssertionError) as error:
            log.warning("coach job %s of learner %s cannot be run: %s", ident, learner, str(error)[:80])
            answer = failed(data)
        answers.put(game, ident, answer)
    return answer


def failed(data: Any) -> dict[str, Any]:
    """The answer of a job that could not be done: the table stops waiting for it and says nothing."""
    job = data.get("job") if isinstance(data, dict) else None
    job = job if isinstance(job, dict) else {}
    return {"id": str(job.get("id", "?")), "kind": str(job.get("kind", "?")), "index": int(job.get("index", 0) or 0),
            "failed": True}


class CoachQueue:
    """The web side: sends a game's jobs (one connection pool per web worker, opened on first use)."""

    def __init__(self, url: str) -> None:
        self.url = url
        self._app: Any = None
        self._task: Any = None

    def _open(self) -> Any:
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


# ------------------------------------------------------------------ the worker
async def recover_stalled(app: Any, club: Any, stalled_after: float) -> int:
    """Send back to the queue, once, the jobs of workers that stopped beating; fail the ones seen twice."""
    from procrastinate.jobs import Status

    found = 0
    for job in await app.job_manager.get_stalled_jobs(task_name=TASK, seconds_since_heartbeat=stalled_after):
        found += 1
        if job.attempts < 1:
            log.warning("coach job %s: its worker stopped; retried", job.id)
            await app.job_manager.retry_job(job)
            continue
        log.warning("coach job %s: its worker stopped again; failed", job.id)
        await app.job_manager.finish_job(job, Status.FAILED, delete_job=False)
        kwargs = job.task_kwargs
        await asyncio.to_thread(_put_failed, club, kwargs)
    return found


def _put_failed(club: Any, kwargs: dict[str, Any]) -> None:
    from tutor.store.coach_answers import CoachAnswers

    data = kwargs.get("data") or {}
    answer = failed(data)
    with club.store_for(int(kwargs["learner"])) as store:
        CoachAnswers(store).put(str(kwargs["game"]), answer["id"], answer)


def run_worker(url: str, *, concurrency: int = 1, stalled_after: float = 30.0) -> None:
    """Take the club's coach jobs until interrupted (``ddz worker``).

    ``concurrency``: jobs at once in this process (the coach is CPU-bound Python: one per core, in processes).
    ``stalled_after``: seconds without a worker's heartbeat before its job is given to another worker.

    Raises:
        StoreError: the database cannot be reached.
        KeyboardInterrupt: Ctrl-C (the command line says one line and exits 130).
    """
    import procrastinate

    from tutor.store.club import Club

    ensure_schema(url)
    club = Club.open(url, pool_size=max(2, concurrency + 1))
    app = procrastinate.App(connector=procrastinate.PsycopgConnector(conninfo=url, min_size=1,
                                                                        max_size=max(2, concurrency + 2)))
    _register(app, club)
    beat = max(0.5, stalled_after / 4)

    async def recovering() -> None:
        while True:
            try:
                await recover_stalled(app, club, stalled_after)
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

    try:
        asyncio.run(main())
    finally:
        club.close()
