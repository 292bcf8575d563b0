"""The scan of a finished game for personal puzzles, in the background of the session (issue 30).

A finished game is proven turn by turn (:func:`tutor.puzzles.personal.scan_game`):
several seconds of solver work.  The learner should not wait for it before the
next deal, so in single-learner mode the session hands the game to one
background thread of this process (:func:`start`), which opens its own store
(a SQLite connection belongs to one thread), scans the game and saves its
puzzles.  The work is bounded by the scan's node budgets
(:data:`~tutor.puzzles.personal.SCAN_NODES`, :data:`~tutor.puzzles.personal.MAX_NODES`),
never by a clock, so the same game gives the same puzzles on any machine.

One thread per process does the scans one after another (a second CPU-bound
scan at the same time would only slow both).  Nothing is lost if the process
ends first: the game stays unscanned in the store and the next
``ddz puzzle mine`` (or the web library) scans it.  In club mode the scan is
a job of the club's task queue, which calls the same plain function
:func:`tutor.puzzles.personal.scan_game`.
"""

from __future__ import annotations

import queue
import threading
from dataclasses import dataclass, field

#: The store path and game id of a scan.
Key = tuple[str, int]


@dataclass
class _Scanner:
    """The background thread, its queue, and what it found (per store path and game id)."""

    jobs: queue.Queue[Key] = field(default_factory=queue.Queue)
    #: Games queued or being scanned now.
    pending: set[Key] = field(default_factory=set)
    #: New puzzles per scanned game (-1: the scan failed; the game is scanned again later).
    found: dict[Key, int] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)
    idle: threading.Condition = field(init=False)
    thread: threading.Thread | None = None

    def __post_init__(self) -> None:
        self.idle = threading.Condition(self.lock)


_scanner = _Scanner()


def start(path: str, game_id: int) -> None:
    """Scan the finished game ``game_id`` of the store at ``path`` in the background; returns at once.

    A store in memory has no second connection: its games wait for the next ``personal.scan`` on it.
    """
    if path == ":memory:":
        return
    key = (path, game_id)
    with _scanner.lock:
        if key in _scanner.pending or key in _scanner.found:
            return
        _scanner.pending.add(key)
        _scanner.jobs.put(key)
        if _scanner.thread is None or not _scanner.thread.is_alive():
            _scanner.thread = threading.Thread(target=_work, name="ddz-puzzle-scan", daemon=True)
            _scanner.thread.start()


def _work() -> None:
    from tutor.puzzles import personal
    from tutor.store import Store

    while True:
        try:
            key = _scanner.jobs.get(timeout=5.0)
        except queue.Empty:
            with _scanner.lock:
                if _scanner.jobs.empty():
                    _scanner.thread = None
                    return
            continue
        path, game_id = key
        try:
            with Store.open(path) as store:
                new = personal.scan(store, game_id)
        except Exception:  # noqa: BLE001 - a store gone or locked: the game stays unscanned, scanned later
            new = -1
        with _scanner.lock:
            _scanner.pending.discard(key)
            _scanner.found[key] = new
            _scanner.idle.notify_all()


def pending(path: str) -> set[int]:
    """The games of the store at ``path`` queued or being scanned now (the library skips them)."""
    with _scanner.lock:
        return {game for where, game in _scanner.pending if where == path}


def result(path: str, game_id: int) -> int | None:
    """New puzzles the background scan of ``game_id`` found (None: not scanned here, or not yet)."""
    with _scanner.lock:
        found = _scanner.found.get((path, game_id))
    return None if found is None or found < 0 else found


def wait(path: str, game_id: int | None = None, timeout: float | None = None) -> bool:
    """Wait until the background scans of the store at ``path`` (or just ``game_id``) are done.

    For a command that wants their puzzles now (``ddz puzzle mine``, the end of ``ddz play``) and for
    tests; the scan itself is bounded by node budgets, the timeout only bounds the waiting.  Returns
    whether they are done.
    """

    def busy() -> bool:
        return any(where == path and (game_id is None or game == game_id) for where, game in _scanner.pending)

    with _scanner.lock:
        return _scanner.idle.wait_for(lambda: not busy(), timeout)
