"""The coach's jobs (tutor/sessions/coachjobs.py): the same words judged apart from the play as inline (issue 35)."""

from __future__ import annotations

from typing import Any

import pytest

from tutor.sessions import events as ev
from tutor.sessions.coachjobs import payload, run
from tutor.sessions.game import GameSession, Waiting

DEAL = 7


@pytest.fixture(autouse=True)
def _small_coach(monkeypatch: pytest.MonkeyPatch) -> None:
    """The session's coach and the jobs' coach on the same small budget (the same logic both ways, cheaper)."""
    from functools import partial

    import tutor.sessions.coachjobs as jobs_module
    import tutor.sessions.game as game_module
    from tutor.coach import Coach
    from tutor.coach.bidding import BidBudget
    from tutor.coach.evaluation import Budget

    small = partial(Coach, budget=Budget(samples=4, width=2, policy="medium"),
                    bid_budget=BidBudget(samples=4, tries=8, policy="medium"))  # tests/conftest.py's small_coach
    monkeypatch.setattr(game_module, "Coach", small)
    monkeypatch.setattr(jobs_module, "Coach", small)


def _policy(session: GameSession) -> list[Any]:
    """A fixed learner: bids the lowest legal bid, leads its last legal move, follows with the first."""
    if session.waiting_for is Waiting.BID:
        return session.bid(session.legal_bids[-1] if len(session.legal_bids) > 1 else session.legal_bids[0])
    moves = session.legal_moves()
    return session.play(moves[-1] if session.view().table is None else moves[0])


def _said(items: list[Any]) -> list[str]:
    """The coach's remarks and the review's lines, rendered."""
    lines = []
    for item in items:
        if isinstance(item, ev.Remark):
            lines.append(item.phrase.render())
        elif isinstance(item, ev.Review):
            lines += [f"review: {line.render()}" for line in item.lines]
    return lines


def _inline() -> tuple[list[str], list[Any]]:
    session = GameSession.new(DEAL, "easy")
    said = _said(session.start())
    while not session.is_over:
        said += _said(_policy(session))
    return said, session.coach.verdicts


def _deferred() -> tuple[list[str], list[Any], list[str]]:
    """The same game with the coach's work sent out as jobs and their answers taken back after each action."""
    session = GameSession.new(DEAL, "easy")
    session.defer = True
    answers: list[dict[str, Any]] = []
    lines: list[str] = []

    def work(items: list[Any]) -> list[str]:
        got = []
        for job in session.send():
            data = payload(job, session.game_record(), session.level, hints=session.hints, undos=session.undos)
            answer = run(data, earlier=answers)
            answers.append(answer)
            got.append(answer)
        taken = session.take(got)
        for item in items + taken:
            if isinstance(item, ev.Say) and item.tone is ev.Tone.STRONG and session.waiting_for is Waiting.BID:
                lines.append(item.phrase.render())
        return _said(items + taken) + _said(session.take(got))  # nothing twice

    said = work(session.start())
    while not session.is_over:
        items = _policy(session)
        said += work(items)
        said += _said(session.take([]))
    return said, session.coach.verdicts, lines


def test_a_game_judged_by_jobs_says_what_the_inline_coach_says() -> None:
    inline, verdicts = _inline()
    deferred, deferred_verdicts, status = _deferred()
    assert inline == deferred
    assert any(line.startswith("review: ") for line in deferred) and not deferred[0].startswith("review: ")
    # the auction's line: the hand's facts at once, the expected score when its job answered
    assert "expected score" not in status[0] and "expected score" in status[1]
    assert [(i, n, v.to_data()) for i, n, v in verdicts] == [(i, n, v.to_data()) for i, n, v in deferred_verdicts]


def test_a_hint_worded_by_a_job_is_the_inline_hint() -> None:
    """Club mode: the hint request answers at once ("the coach is weighing"), the hints' job brings the same hints."""
    inline = GameSession.new(DEAL, "easy")
    deferred = GameSession.new(DEAL, "easy")
    deferred.defer = True
    for session in (inline, deferred):
        session.start()
        while session.waiting_for is Waiting.BID:
            session.bid(session.legal_bids[-1])
    deferred.send()
    deferred.pending.clear()  # the auction's jobs: not this test's
    shown = [item for item in inline.hint() + inline.hint() if isinstance(item, ev.HintShown)]
    waiting = deferred.hint()
    assert [type(item) for item in waiting] == [ev.Say] and deferred.hints == 0 and deferred.waiting_for_coach == 1
    assert deferred.hint() == waiting and len(deferred.send()) == 1  # asked twice: one job
    job = next(iter(deferred.pending.values()))
    answer = run(payload(job, deferred.game_record(), deferred.level))
    first = deferred.take([answer])
    again = deferred.hint()
    got = [item for item in first + again if isinstance(item, ev.HintShown)]
    assert [(h.n, h.move, h.phrase.render()) for h in got] == [(h.n, h.move, h.phrase.render()) for h in shown]
    assert deferred.hints == 2 and deferred.waiting_for_coach == 0
    before = len(deferred.coach.verdicts)
    deferred.confirm()  # the hint played: the coach stays quiet about its own move (no verdict job)
    assert not [j for j in deferred.send() if j.kind == "move"] and len(deferred.coach.verdicts) == before
