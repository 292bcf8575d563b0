"""Waiting for the coach's answers without asking every second: PostgreSQL's LISTEN/NOTIFY (issue 35).

A ``ddz worker`` that puts a job's answer (:meth:`tutor.store.coach_answers.CoachAnswers.put`) announces it on
:data:`~tutor.store.coach_answers.CHANNEL` as ``learner:game``.  Each web process keeps **one** listening
connection (not one per waiting page) and wakes the pages' waits of that learner's game; a wait is bounded
in time (the caller's) and in number (:attr:`AnswerNotices.most` per process, a quarter of the server's
concurrency limit by default), so held requests never crowd out the others: beyond the bound, or while the
listening connection is down, a wait answers at once and the page asks again a second later, as before.

This is the store's side (only the store talks to a database); the route is ``/api/game/coach``
(:mod:`tutor.web.club`).
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from tutor.store.coach_answers import CHANNEL

log = logging.getLogger("tutor.web")

#: How long a wait may take for the listening connection to be up (the first wait of a process starts it).
UP_WITHIN = 2.0
#: The listening connection's reconnection delays (seconds, doubling): a PostgreSQL restart is survived.
BACKOFF = (1.0, 30.0)
#: This process's listeners (a server has one; tests make several).
_LIVE: weakref.WeakSet[AnswerNotices] = weakref.WeakSet()


def stop_all() -> None:
    """The server is ending (uvicorn's graceful shutdown waits for every request): every held wait answers now,
    and no new one is held.  Called on the event loop (tutor/web/guard.py)."""
    for notices in list(_LIVE):
        notices.stop()


class AnswerNotices:
    """One web process's listener, and the waits it may wake (all on the process's event loop)."""

    def __init__(self, url: str, most: int) -> None:
        self.url = url
        #: Waits held at once, at most (the rest answer at once).
        self.most = max(0, most)
        self._loop: asyncio.AbstractEventLoop | None = None
        self._task: asyncio.Task[None] | None = None
        self._up: asyncio.Event | None = None
        self._waiting: dict[str, set[asyncio.Event]] = {}
        self.held = 0
        self.closing = False
        _LIVE.add(self)

    def stop(self) -> None:
        """Wake every wait and hold no more (the server is ending)."""
        self.closing = True
        self._wake(None)

    def _start(self) -> asyncio.Event:
        """The listener of the running loop (a test client may run each request on a loop of its own)."""
        loop = asyncio.get_running_loop()
        if self._loop is not loop or self._task is None or self._task.done() or self._up is None:
            self._loop, self._waiting, self.held = loop, {}, 0
            self._up = asyncio.Event()
            self._task = loop.create_task(self._listen(self._up))
        return self._up

    @asynccontextmanager
    async def subscribed(self, learner: int, game: str) -> AsyncIterator[asyncio.Event | None]:
        """An event set when an answer of ``learner``'s ``game`` is announced (or the listener fails: look
        again); None when this process holds :attr:`most` waits already or cannot listen just now."""
        if self.held >= self.most or self.closing:
            yield None
            return
        up = self._start()
        if not up.is_set():
            try:
                await asyncio.wait_for(up.wait(), UP_WITHIN)
            except TimeoutError:
                yield None
                return
        key, event = f"{learner}:{game}", asyncio.Event()
        self._waiting.setdefault(key, set()).add(event)
        self.held += 1
        try:
            yield event
        finally:
            self.held -= 1
            events = self._waiting.get(key)
            if events is not None:
                events.discard(event)
                if not events:
                    del self._waiting[key]

    def _wake(self, key: str | None) -> None:
        for name, events in list(self._waiting.items()):
            if key is None or name == key:
                for event in events:
                    event.set()

    async def _listen(self, up: asyncio.Event) -> None:
        import psycopg

        delay = BACKOFF[0]
        while True:
            try:
                connection = await psycopg.AsyncConnection.connect(self.url, autocommit=True, connect_timeout=3)
                async with connection:
                    await connection.execute(f"LISTEN {CHANNEL}")
                    up.set()
                    delay = BACKOFF[0]
                    async for note in connection.notifies():
                        self._wake(note.payload)
            except (psycopg.Error, OSError) as error:
                log.warning("the coach's answers cannot be listened for just now: %s", str(error).strip()[:80])
            up.clear()
            self._wake(None)  # every wait looks again for itself (and answers; its page asks again)
            await asyncio.sleep(delay)
            delay = min(BACKOFF[1], delay * 2)

    def close(self) -> None:
        if self._task is not None and not self._task.done() and self._loop is not None and not self._loop.is_closed():
            self._loop.call_soon_threadsafe(self._task.cancel)


async def wait_for(event: asyncio.Event, seconds: float) -> bool:
    """Wait up to ``seconds`` for ``event``; whether it came."""
    try:
        await asyncio.wait_for(event.wait(), seconds)
    except TimeoutError:
        return False
    return True


