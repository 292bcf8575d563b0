"""The coach's thinking off the play path, in CPU time (issue 35): what a coached play costs in the request
when the coach's work is sent to ``ddz worker``s, what each job costs on a worker, and the same game with the
coach inline (the single learner's table) for comparison.

CPU time of this thread (``time.thread_time``): unlike wall time it hardly depends on the machine's other
work, so the figures carry over to a quiet machine of the same speed.  No HTTP, no database: the session
API alone (the web adds ~5–15 ms of CPU per request: loading and saving the session, the store, JSON)::

    python benchmarks/coach_jobs.py [--deals 6] [--level easy] [--hints]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def policy(session: Any) -> list[Any]:
    """A fixed learner: the highest legal bid, the last legal lead, the first legal follow."""
    from tutor.sessions.game import Waiting

    if session.waiting_for is Waiting.BID:
        return list(session.bid(session.legal_bids[-1]))
    moves = session.legal_moves()
    return list(session.play(moves[-1] if session.view().table is None else moves[0]))


def play(deal: int, level: str, defer: bool, actions: list[float], jobs: dict[str, list[float]],
         hints: list[float] | None = None) -> None:
    """One game; with ``hints`` the learner asks for a hint before every decision (bids included), timed apart."""
    from tutor.engine.rules import STANDARD
    from tutor.sessions.coachjobs import payload, run
    from tutor.sessions.game import GameSession

    session = GameSession.new(deal, level, rules=STANDARD)
    session.defer = defer
    answers: list[dict[str, Any]] = []

    def work() -> None:
        for job in session.send():
            data = payload(job, session.game_record(), session.level, hints=session.hints, undos=session.undos)
            started = time.thread_time()
            answers.append(run(data, answers))
            jobs.setdefault(job.kind, []).append(time.thread_time() - started)
        session.take(answers[-len(answers):])

    started = time.thread_time()
    session.start()
    actions.append(time.thread_time() - started)
    while not session.is_over:
        if hints is not None:
            started = time.thread_time()
            session.hint()
            hints.append(time.thread_time() - started)
        work()
        started = time.thread_time()
        policy(session)
        actions.append(time.thread_time() - started)
        work()


def summary(values: list[float]) -> dict[str, float]:
    ordered = sorted(values)
    return {"n": len(ordered), "p50_ms": round(statistics.median(ordered) * 1000, 1),
            "p95_ms": round(ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))] * 1000, 1),
            "mean_ms": round(statistics.fmean(ordered) * 1000, 1)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=6)
    parser.add_argument("--level", default="easy")
    parser.add_argument("--hints", action="store_true", help="a hint before every decision (bids included)")
    args = parser.parse_args()
    load = os.getloadavg()
    deferred: list[float] = []
    inline: list[float] = []
    hints_deferred: list[float] = []
    hints_inline: list[float] = []
    jobs: dict[str, list[float]] = {}
    for deal in range(1, args.deals + 1):
        play(deal, args.level, True, deferred, jobs, hints_deferred if args.hints else None)
        play(deal, args.level, False, inline, {}, hints_inline if args.hints else None)
    report = {
        "deals": args.deals, "level": args.level,
        "request_path_cpu_deferred": summary(deferred),
        "request_path_cpu_inline": summary(inline),
        **({"hint_request_cpu_deferred": summary(hints_deferred), "hint_request_cpu_inline": summary(hints_inline)}
           if args.hints else {}),
        "jobs_cpu": {kind: summary(values) for kind, values in sorted(jobs.items())},
        "job_cpu_per_action": round(sum(sum(v) for v in jobs.values()) / max(1, len(deferred)) * 1000, 1),
        "loadavg": [round(x, 1) for x in load], "loadavg_after": [round(x, 1) for x in os.getloadavg()],
    }
    print(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
