"""What a ``ddz worker`` does with a coach job of the club's queue (tutor/store/queue.py; issue 35).

A club server's coached play makes only the move and the bots' replies; the coach's thinking (verdicts, the
auction's expected-score line, the review: :mod:`tutor.sessions.coachjobs`) goes to the queue, and
``ddz worker --db URL`` processes — on this machine or any machine with the database's address, as
lichess's fishnet clients take analysis — run each job and put its answer in the learner's store
(:class:`tutor.store.coach_answers.CoachAnswers`), where the learner's next request (or the page's poll)
finds it.
"""

from __future__ import annotations

import logging
import os
from typing import Any

from tutor.store.queue import CoachQueue

__all__ = ["CoachQueue", "do_job", "failed", "run"]

log = logging.getLogger("tutor.worker")

#: A benchmark's hook (benchmarks/club_load.py): a file where each job appends its kind, CPU and queue wait.
STATS_ENV = "DDZ_WORKER_STATS"
#: A test's hook (tests/web/test_coachqueue.py): a worker given this file name says it took a job by
#: creating ``NAME.taken`` and then waits before doing it, so the test can kill it in the middle of a job.
HOLD_ENV = "DDZ_WORKER_HOLD"


def _hold(name: str) -> None:
    import time
    from pathlib import Path

    Path(name + ".taken").touch()
    while not Path(name).exists():  # the test kills us here
        time.sleep(0.05)


def do_job(club: Any, learner: int, game: str, data: dict[str, Any]) -> dict[str, Any]:
    """Run one job (:func:`tutor.sessions.coachjobs.run`) and put its answer in the learner's store.

    A payload that describes no game (a damaged row) gets a ``failed`` answer at once: retrying cannot help.
    """
    from tutor.sessions.coachjobs import run as run_job
    from tutor.store.coach_answers import CoachAnswers

    import time

    hold = os.environ.get(HOLD_ENV)
    if hold:
        _hold(hold)
    started, cpu = time.time(), time.thread_time()
    job = data.get("job") if isinstance(data, dict) else None
    ident = str(job.get("id")) if isinstance(job, dict) else "?"
    with club.store_for(int(learner)) as store:
        answers = CoachAnswers(store)
        earlier = answers.of_game(game) if isinstance(job, dict) and job.get("kind") == "review" else []
        try:
            answer = run_job(data, earlier, store)
        except (KeyError, TypeError, ValueError, AssertionError) as error:
            log.warning("coach job %s of learner %s cannot be run: %s", ident, learner, str(error)[:80])
            answer = failed(data)
        answers.put(game, ident, answer)
    stats = os.environ.get(STATS_ENV)
    if stats:
        import json

        sent = data.get("sent_at") if isinstance(data, dict) else None
        line = {"kind": answer.get("kind"), "sent": sent, "cpu_ms": round((time.thread_time() - cpu) * 1000, 1),
                "run_ms": round((time.time() - started) * 1000, 1),
                "wait_ms": round((started - float(sent)) * 1000, 1) if isinstance(sent, (int, float)) else None}
        with open(stats, "a", encoding="utf-8") as out:
            out.write(json.dumps(line) + "\n")
    return answer


def failed(data: Any) -> dict[str, Any]:
    """The answer of a job that could not be done: the table stops waiting for it and says nothing."""
    job = data.get("job") if isinstance(data, dict) else None
    job = job if isinstance(job, dict) else {}
    return {"id": str(job.get("id", "?")), "kind": str(job.get("kind", "?")), "index": int(job.get("index", 0) or 0),
            "failed": True}


def run(url: str, *, stalled_after: float = 30.0) -> None:
    """``ddz worker``: take the club's coach jobs until interrupted (StoreError: the database is away)."""
    from tutor.store.club import Club
    from tutor.store.coach_answers import CoachAnswers
    from tutor.store.queue import run_worker

    club = Club.open(url, pool_size=2)

    def gave_up(learner: int, game: str, data: dict[str, Any]) -> None:
        answer = failed(data)
        with club.store_for(learner) as store:
            CoachAnswers(store).put(game, answer["id"], answer)

    def handle(learner: int, game: str, data: dict[str, Any]) -> None:
        do_job(club, learner, game, data)

    try:
        run_worker(url, handle, gave_up, stalled_after=stalled_after)
    finally:
        club.close()
