"""Waiting for the coach's answers (tutor/store/notices.py, tutor/store/coach_answers.py; issue 35): a worker's
answer wakes the waits of its game through PostgreSQL's NOTIFY, and a process holds a bounded number of waits.

Real PostgreSQL (the session's cluster); waiting is bounded by a generous cap, never a timed assertion.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest


def test_an_answer_put_wakes_the_wait_of_its_game_and_waits_are_bounded(pg_cluster: Any,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    import weakref

    from tutor.store import notices as module
    from tutor.store.club import Club
    from tutor.store.coach_answers import CoachAnswers
    from tutor.store.notices import AnswerNotices, stop_all, wait_for

    url = pg_cluster.url()
    club = Club.open(url, pool_size=2)
    notices = AnswerNotices(url, most=1)
    monkeypatch.setattr(module, "_LIVE", weakref.WeakSet([notices]))  # stop_all: this test's listener only

    def put(game: str, job: str) -> None:
        with club.store_for(7) as store:
            CoachAnswers(store).put(game, job, {"id": job})

    def answered(game: str, jobs: list[str]) -> bool:
        with club.store_for(7) as store:
            return CoachAnswers(store).answered(game, jobs)

    async def main() -> None:
        async with notices.subscribed(7, "abc") as event, notices.subscribed(7, "abc") as second:
            assert event is not None and second is None and notices.held == 1  # one wait at most here
            assert not event.is_set()
            await asyncio.to_thread(put, "abc", "j1")  # a worker's answer, from another connection
            assert await wait_for(event, 120)
        assert notices.held == 0
        async with notices.subscribed(8, "abc") as other, notices.subscribed(7, "abc") as mine:
            assert other is not None and mine is None  # the bound counts every game's waits
            stop_all()  # the server ends (tutor/web/guard.py): held waits answer now, none is held any more
            assert other.is_set()
        async with notices.subscribed(8, "abc") as after:
            assert after is None

    from concurrent.futures import ThreadPoolExecutor

    try:
        with ThreadPoolExecutor(1) as thread:  # a loop of its own (a browser test may leave one running here)
            thread.submit(asyncio.run, main()).result()
    finally:
        notices.close()
    assert answered("abc", ["zz", "j1"]) and not answered("abc", ["zz"]) and not answered("abc", [])
    assert not answered("other", ["j1"])
    club.close()
