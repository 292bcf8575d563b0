"""One session per activity, shared by every tab, behind a lock and a revision number.

The page's tabs all talk to the same session (the learner's current game,
lesson or puzzle).  Every request that acts carries the revision the page last
saw; when another tab acted in between, the request is refused with 409 and
the page redraws from the new state — so two tabs never play on a stale table.
Session work runs in a worker thread (Starlette runs plain route functions in
its thread pool) under this lock, so a bot thinking on one game never holds up
the other routes.
"""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Generic, TypeVar

from tutor.web.errors import refuse

S = TypeVar("S")


@dataclass
class Slot(Generic[S]):
    """The session in a slot and its revision (bumped by every action)."""

    session: S | None = None
    rev: int = 0


class Holder(Generic[S]):
    """A slot plus the lock that serialises the work on it."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.slot: Slot[S] = Slot()
        self._lock = threading.Lock()
        #: One worker thread for work that keeps a store connection across requests (the game's claim).
        self.executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix=f"ddz-{name}")

    @contextmanager
    def held(self) -> Iterator[Slot[S]]:
        with self._lock:
            yield self.slot

    def current(self, slot: Slot[S]) -> S:
        """The session, or 404 when there is none."""
        if slot.session is None:
            raise refuse(404, f"err_none_{self.name}")
        return slot.session

    @staticmethod
    def check_rev(slot: Slot[S], rev: object) -> None:
        """409 when the page acted on an older state than the slot's (another tab moved on)."""
        if rev != slot.rev:
            raise refuse(409, "err_stale")

    @staticmethod
    def replace(slot: Slot[S], session: S | None) -> None:
        slot.session = session
        slot.rev += 1


Factory = Callable[[], S]
