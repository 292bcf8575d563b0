"""Root moves of a big position shared out among processes.

Listing *every* winning first move means proving each losing one loses, and
those proofs are independent of one another: on a machine with several cores
they can run side by side.  Worker processes are forked from the solving
process, so each starts with a copy of its transposition table and per-hand
tables (nothing is sent across but a move's number and its verdict).  Each
worker walks its own stretch of the list of moves, then helps with the
others': neighbours in the list are alike (the moves come grouped by kind),
so a worker keeps meeting positions its own table already knows.

Only where ``fork`` exists (Linux, macOS); elsewhere the solver stays
sequential.  The answers do not depend on the number of workers or on timing
(each verdict is exact); only the node count does.

Ctrl-C: workers ignore SIGINT (:func:`ignore_interrupts`; it is held back
while they start, :func:`interrupts_held`, so none can slip in before), and
the parent, the only one to get ``KeyboardInterrupt``, terminates them at
once.  So one line is printed, not a traceback per worker, and no process is
left behind.  Other pools (the arena, the puzzle generator) use the same two.
"""

from __future__ import annotations

import os
import signal
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

#: A position whose first moves have not all been decided after this many
#: nodes (a fortieth of a second compiled) is worth the processes.
#: Before the workers start, every move left gets PROBE_NODES positions on the
#: shared table (cheap moves are settled there), up to PROBE_TOTAL in all.
#: Measured again in issue 33's fourth round, now that the search needs ten
#: times fewer positions (two-09 316k, two-10 827k): what decides the wall
#: time on two cores is the positions searched before the fork plus half of
#: the workers' (the two share the moves left).  100k / 30k / 1M (the old
#: values, tuned on 10M-position searches): two-09 216k + 100k/2 (only two
#: moves left, so one worker did most), two-10 454k + 380k/2; 25k / 30k / 30k:
#: two-09 58k + 288k/2, two-10 56k + 827k/2 — about a quarter less on both,
#: for 6-10 % more positions in all (each worker's table starts smaller).
#: Forking earlier still (10k, no look) gained nothing more.
PARALLEL_AFTER_NODES = 25_000
PROBE_NODES = 30_000
PROBE_TOTAL = 30_000
#: Never more workers than this, however many cores.
MAX_WORKERS = 4

#: Judges one root move in a worker: (its index, seconds left or None) →
#: (the verdict, None when out of time; the nodes it took).
Verdict = Callable[[int, "float | None"], "tuple[bool | None, int]"]

#: (verdict, after-fork hook, deadline) of the current job: set in the parent
#: just before forking, read by the forked workers.
_JOB: tuple[Verdict, Callable[[], None] | None, float | None] | None = None


def parallel_available() -> bool:
    """Can this platform fork worker processes?"""
    # What multiprocessing.get_all_start_methods() says about "fork", without importing it (a solve
    # that never forks need not pay for multiprocessing): every POSIX platform, never Windows.
    return hasattr(os, "fork") and sys.platform != "win32"


def default_workers() -> int:
    """The machine's cores, at most :data:`MAX_WORKERS`."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - platforms without affinity
        cores = os.cpu_count() or 1
    return max(1, min(MAX_WORKERS, cores))


_HELD = {signal.SIGINT, signal.SIGTERM}


@contextmanager
def interrupts_held() -> Iterator[None]:
    """Hold SIGINT and SIGTERM back in this thread while worker processes start.

    A forked (or spawned) child inherits the blocked signals and sets its own
    handling (:func:`ignore_interrupts`) before unblocking them, so a Ctrl-C or
    a ``kill`` during the start reaches only the parent, when the block ends —
    never half-way through starting a worker it would then not know about.
    """
    block = getattr(signal, "pthread_sigmask", None)
    if block is None:  # pragma: no cover - not POSIX
        yield
        return
    old = block(signal.SIG_BLOCK, _HELD)
    try:
        yield
    finally:
        block(signal.SIG_SETMASK, old)


#: prctl(2) option: the signal this process gets when its parent dies (Linux).
PR_SET_PDEATHSIG = 1


def die_with_parent(parent: int | None = None) -> None:
    """In a worker process: be killed (SIGKILL: silently, no traceback) the moment the parent dies.

    ``kill -9`` of ``ddz solve`` used to leave its workers running to their own
    limit under PID 1, and pool workers of ``arena`` and ``puzzles generate``
    printed BrokenPipe tracebacks when they found the parent gone.  Linux's
    ``PR_SET_PDEATHSIG`` ends them with their parent; a parent that died before
    the call is caught by comparing ``getppid`` with the pid it should be.
    ``parent`` defaults to the multiprocessing parent (fork and spawn alike),
    else the current parent.  Elsewhere this does nothing.
    """
    if not sys.platform.startswith("linux"):  # pragma: no cover - Linux only
        return
    if parent is None:
        import multiprocessing

        known = multiprocessing.parent_process()
        parent = known.pid if known is not None and known.pid is not None else os.getppid()
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):  # pragma: no cover - no prctl: live on as before
        return
    if os.getppid() != parent:
        os._exit(0)  # the parent is already gone: nobody wants this work


def ignore_interrupts(*_: object) -> None:
    """In a worker process, first thing: die with the parent, Ctrl-C is the parent's business,
    SIGTERM ends it at once.

    Usable as a pool's ``initializer`` (its arguments are ignored).
    """
    die_with_parent()
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # the parent's terminate() must simply end it
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, _HELD)


def _solve_one(index: int) -> tuple[int, bool | None, int]:
    """In a worker: the verdict on move ``index`` and the nodes it took."""
    assert _JOB is not None
    judge, _, deadline = _JOB
    remaining = None if deadline is None else max(0.0, deadline - time.perf_counter())
    verdict, nodes = judge(index, remaining)
    return index, verdict, nodes


def _worker(rank: int, workers: int, cursor: Any, lock: Any, indices: list[int], out: Any) -> None:
    """A worker process: takes the next undecided move from its own stretch
    of the list and reports (index, verdict, nodes) until none is left.

    Worker ``rank`` starts at ``rank / workers`` of the list and walks
    forwards; when its stretch is done it helps with the others'.  Neighbours
    in the list are alike (the root moves come grouped by kind), so a worker
    keeps meeting positions its own table already knows.
    """
    ignore_interrupts()
    assert _JOB is not None
    after_fork = _JOB[1]
    if after_fork is not None:
        after_fork()
    try:
        while True:
            with lock:
                taken = -1
                for step in range(workers):
                    r = (rank + step) % workers
                    if cursor[2 * r] < cursor[2 * r + 1]:
                        taken = cursor[2 * r]
                        cursor[2 * r] += 1
                        break
            if taken < 0:
                break
            out.send(_solve_one(indices[taken]))
    finally:
        out.send(None)
        out.close()


def solve_moves_in_parallel(
    verdict: Verdict,
    after_fork: Callable[[], None] | None,
    workers: int,
    indices: list[int],
    deadline: float | None,
    on_progress: Callable[[int, int], None] | None = None,
) -> tuple[dict[int, bool | None], int]:
    """Verdicts on the root moves numbered ``indices`` and the nodes spent, from
    up to ``workers`` forked processes.

    The caller's ``verdict`` judges one move (in the worker, on the worker's
    copy of the caller's tables); ``after_fork`` runs first in each worker;
    ``on_progress(moves decided, nodes)`` is called in the parent as answers come.
    """
    import multiprocessing  # here, not at the top: see parallel_available
    import multiprocessing.connection

    global _JOB
    workers = max(1, min(workers, len(indices)))
    _JOB = (verdict, after_fork, deadline)
    found: dict[int, bool | None] = {}
    nodes = 0
    context = multiprocessing.get_context("fork")
    # cursor[2r], cursor[2r + 1]: the next and the end of worker r's stretch.
    bounds = [len(indices) * r // workers for r in range(workers + 1)]
    cursor = context.Array("i", [x for r in range(workers) for x in (bounds[r], bounds[r + 1])], lock=False)
    lock = context.Lock()
    pipes = [context.Pipe(duplex=False) for _ in range(workers)]
    procs = [
        context.Process(target=_worker, args=(r, workers, cursor, lock, indices, pipes[r][1]), daemon=True)
        for r in range(workers)
    ]
    finished = False
    try:
        with interrupts_held():
            for proc in procs:
                proc.start()
        for _, sender in pipes:
            sender.close()  # the parent keeps only the receiving ends
        open_ends: dict[Any, Any] = {receiver: receiver for receiver, _ in pipes}
        while open_ends:
            # A timeout, so that a progress display keeps moving while the workers think.
            for ready in multiprocessing.connection.wait(list(open_ends), timeout=0.5):
                receiver = open_ends[ready]
                try:
                    got: tuple[int, bool | None, int] | None = receiver.recv()
                except EOFError:
                    got = None
                if got is None:
                    del open_ends[ready]
                    continue
                found[got[0]] = got[1]
                nodes += got[2]
            if on_progress is not None:
                on_progress(len(found), nodes)
        finished = True
    finally:
        _JOB = None
        # Interrupted (Ctrl-C, an error): stop the workers now, not when their move is done.
        for proc in procs:
            if finished:
                proc.join(timeout=5)
            if proc.is_alive():
                proc.terminate()
                proc.join(timeout=5)
            if proc.is_alive():  # pragma: no cover - a worker that ignores SIGTERM
                proc.kill()
                proc.join()
    return found, nodes
