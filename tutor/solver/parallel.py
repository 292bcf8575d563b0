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

Issue 33 (``ddz solve``'s wall time on middle positions): the workers are plain
``os.fork`` children reporting one line a verdict through a pipe, the stretches
of the list live in an anonymous shared mapping and the lock is a token in a
pipe — :mod:`multiprocessing` cost about 57 M instructions of imports and
set-up before the first fork.  And unless a progress display is wanted, the
solving process takes a stretch itself (``parent_works``): one fork fewer, and
that share starts at once on the table as it is, without a worker's start and
its 64 MB copy of the table.

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
    _settle_worker_signals(None)


def _settle_worker_signals(parent: int | None) -> None:
    """:func:`ignore_interrupts` with the parent's pid when it is known (see :func:`die_with_parent`)."""
    die_with_parent(parent)
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


class _Cursors:
    """The workers' stretches of the list of moves, in memory shared by the forked processes.

    ``next[r]``, ``end[r]``: the next and the end of worker ``r``'s stretch, two ints a worker in an
    anonymous shared mapping; the lock is a one-byte token in a pipe (whoever has read it holds the
    lock).  Plain ``os``/``mmap`` where :mod:`multiprocessing`'s Array and Lock cost ``ddz solve``
    about 57 M instructions of imports and set-up (issue 33).
    """

    def __init__(self, bounds: list[int]) -> None:
        import mmap

        workers = len(bounds) - 1
        self.memory = mmap.mmap(-1, 8 * workers)  # MAP_SHARED | MAP_ANONYMOUS: shared across fork
        self.ints = memoryview(self.memory).cast("i")
        for r in range(workers):
            self.ints[2 * r], self.ints[2 * r + 1] = bounds[r], bounds[r + 1]
        self.workers = workers
        self.lock_read, self.lock_write = os.pipe()
        os.write(self.lock_write, b"x")

    def take(self, rank: int) -> int:
        """The next move of ``rank``'s stretch, else of the next worker's with one left; -1 when none."""
        os.read(self.lock_read, 1)
        try:
            for step in range(self.workers):
                r = (rank + step) % self.workers
                if self.ints[2 * r] < self.ints[2 * r + 1]:
                    self.ints[2 * r] += 1
                    return self.ints[2 * r] - 1
            return -1
        finally:
            os.write(self.lock_write, b"x")

    def close(self) -> None:
        self.ints.release()
        self.memory.close()
        os.close(self.lock_read)
        os.close(self.lock_write)


def _worker(rank: int, cursors: _Cursors, indices: list[int], out: int) -> None:
    """A worker process: takes the next undecided move from its own stretch
    of the list and reports ``index verdict nodes`` lines on ``out`` until none is left.

    Worker ``rank`` starts at ``rank / workers`` of the list and walks
    forwards; when its stretch is done it helps with the others'.  Neighbours
    in the list are alike (the root moves come grouped by kind), so a worker
    keeps meeting positions its own table already knows.
    """
    while True:
        taken = cursors.take(rank)
        if taken < 0:
            break
        index, verdict, nodes = _solve_one(indices[taken])
        os.write(out, f"{index} {'-' if verdict is None else int(verdict)} {nodes}\n".encode())


def _fork_worker(rank: int, parent: int, cursors: _Cursors, indices: list[int]) -> tuple[int, int]:
    """Fork worker ``rank``: (its pid, the reading end of its pipe).

    The child never returns: it does its share and leaves with ``os._exit`` (no cleanup of the
    parent's: its buffered output, its atexit handlers are the parent's to run), 0 when done, 1
    after printing what went wrong.  It first takes its own copy of the table (the job's after-fork
    hook; Ctrl-C and SIGTERM are still held back, :func:`interrupts_held`) and says so with a "+"
    line, then sets its signals (:func:`ignore_interrupts`, with the parent's pid known: no need to
    ask :mod:`multiprocessing`).
    """
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - runs in the child (coverage does not follow os._exit)
        code = 1
        try:
            os.close(read_end)
            # First the table's own copy (the job's after-fork hook), then "+": till then the parent,
            # if it takes a share, must not write into the memory they share (see solve_moves_in_parallel).
            assert _JOB is not None
            after_fork = _JOB[1]
            if after_fork is not None:
                after_fork()
            os.write(write_end, b"+\n")
            _settle_worker_signals(parent)
            _worker(rank, cursors, indices, write_end)
            code = 0
        except BrokenPipeError:
            # Nobody reads the pipe any more: the parent is gone (killed between the fork and the death
            # signal's setting, or while this worker reported).  Its answers have no reader: leave silently.
            pass
        except BaseException:
            import traceback

            traceback.print_exc()
        finally:
            try:
                sys.stderr.flush()
            finally:
                os._exit(code)
    os.close(write_end)  # the parent keeps only the reading end (a later child must not inherit it)
    return pid, read_end


def solve_moves_in_parallel(
    verdict: Verdict,
    after_fork: Callable[[], None] | None,
    workers: int,
    indices: list[int],
    deadline: float | None,
    on_progress: Callable[[int, int], None] | None = None,
    parent_works: bool = False,
) -> tuple[dict[int, bool | None], int]:
    """Verdicts on the root moves numbered ``indices`` and the nodes the forked workers spent,
    from ``workers`` processes.

    The caller's ``verdict`` judges one move (in the worker, on the worker's
    copy of the caller's tables); ``after_fork`` runs first in each worker;
    ``on_progress(moves decided, nodes)`` is called in the parent as answers come.
    A move whose worker died without an answer stays undecided (None), as one out of time.

    ``parent_works``: the calling process is one of the ``workers`` (rank 0, the first stretch)
    and forks one fewer.  It judges with its own table as it is, so it pays no fork, no start and
    no copy of the table (:meth:`~tutor.solver.native.NativeTwoPlayerSearch.rehome`, 64 MB), and
    its verdicts run on the table that already holds the search so far; the nodes it spends are
    its own (not in the count returned).  Answers come in between its own moves, so it is meant
    for a caller that shows no progress.  It starts once every worker has its own copy of the
    table ("+" on the pipe): writing into the pages they still share split the parent's huge
    pages into 4 kB copies (26,000 page faults instead of 12,000 on two-09).
    """
    import select  # here, not at the top: a solve that never forks need not load it

    global _JOB
    workers = max(1, min(workers, len(indices)))
    _JOB = (verdict, after_fork, deadline)
    found: dict[int, bool | None] = {}
    nodes = 0
    bounds = [len(indices) * r // workers for r in range(workers + 1)]
    cursors = _Cursors(bounds)
    pids: list[int] = []
    open_ends: dict[int, bytes] = {}  # reading end -> the bytes of a line not yet whole
    parent = os.getpid()
    finished = False
    ready_workers: set[int] = set()  # the pipes of the workers that have their own table

    def read_answers(ready: list[int]) -> int:
        """Take in the lines of the workers' pipes in ``ready``; the nodes they reported."""
        spent_here = 0
        for end in ready:
            data = os.read(end, 65536)
            if not data:  # the worker is done (or gone): its pipe is closed
                del open_ends[end]
                os.close(end)
                continue
            lines = (open_ends[end] + data).split(b"\n")
            open_ends[end] = lines.pop()
            for line in lines:
                if line == b"+":  # the worker has its own table
                    ready_workers.add(end)
                    continue
                index, got, spent = line.split()
                found[int(index)] = None if got == b"-" else got == b"1"
                spent_here += int(spent)
        return spent_here

    try:
        with interrupts_held():
            for r in range(1 if parent_works else 0, workers):
                pid, read_end = _fork_worker(r, parent, cursors, indices)
                pids.append(pid)
                open_ends[read_end] = b""
        if parent_works:
            while any(end not in ready_workers for end in open_ends):
                nodes += read_answers(select.select([e for e in open_ends if e not in ready_workers], [], [])[0])
            while (taken := cursors.take(0)) >= 0:
                index = indices[taken]
                remaining = None if deadline is None else max(0.0, deadline - time.perf_counter())
                found[index] = verdict(index, remaining)[0]
                if open_ends:  # the answers so far, without waiting
                    nodes += read_answers(select.select(list(open_ends), [], [], 0)[0])
        while open_ends:
            # A timeout, so that a progress display keeps moving while the workers think.
            nodes += read_answers(select.select(list(open_ends), [], [], 0.5)[0])
            if on_progress is not None:
                on_progress(len(found), nodes)
        finished = True
    finally:
        _JOB = None
        for end in open_ends:
            os.close(end)
        # Interrupted (Ctrl-C, an error): stop the workers now, not when their move is done.
        for pid in pids:
            if not finished:
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:  # pragma: no cover - already gone
                    pass
            os.waitpid(pid, 0)
        cursors.close()
    return found, nodes
