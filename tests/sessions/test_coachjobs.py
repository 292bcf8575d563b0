"""The coach's jobs (tutor/sessions/coachjobs.py): the same words judged apart from the play as inline (issue 35)."""

from __future__ import annotations

from typing import Any

import pytest

from tutor.engine.rules import STANDARD
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
    session = GameSession.new(DEAL, "easy", rules=STANDARD)
    said = _said(session.start())
    while not session.is_over:
        said += _said(_policy(session))
    return said, session.coach.verdicts


def _deferred() -> tuple[list[str], list[Any], list[str]]:
    """The same game with the coach's work sent out as jobs and their answers taken back after each action."""
    session = GameSession.new(DEAL, "easy", rules=STANDARD)
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
    inline = GameSession.new(DEAL, "easy", rules=STANDARD)
    deferred = GameSession.new(DEAL, "easy", rules=STANDARD)
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


def _bidding(defer: bool) -> GameSession:
    session = GameSession.new(DEAL, "easy", rules=STANDARD)
    session.defer = defer
    session.start()
    assert session.waiting_for is Waiting.BID
    return session


def _lines(items: list[Any]) -> list[str]:
    return [item.phrase.render() for item in items if isinstance(item, ev.Say)]


def _never(*_: Any) -> Any:
    raise AssertionError("the coach evaluated in the request")


def test_the_auction_s_hints_come_with_the_status_job_in_the_inline_words() -> None:
    """Club mode: "hint" during the auction never thinks in the request; the status job brings the bids' hints."""
    inline = _bidding(False)
    said = [_lines(inline.hint()) for _ in range(3)]
    suggested = inline.suggested_bid
    deferred = _bidding(True)
    deferred.coach.bid_evaluation = _never  # type: ignore[method-assign, assignment]
    (job,) = deferred.send()
    assert job.kind == "bid_status"
    waiting = deferred.hint()  # before the status job answered: the coach is weighing, nothing counted
    assert _lines(waiting) == ["The coach is weighing the bids: the hint follows in a moment."]
    assert deferred.hints == 0 and deferred.hint() == waiting and deferred.send() == []  # no job of its own
    taken = deferred.take([run(payload(job, deferred.game_record(), deferred.level))])
    assert _lines(taken)[1:] == said[0] and deferred.hints == 1  # the status line, then the first hint
    assert [_lines(deferred.hint()) for _ in range(2)] == said[1:] and deferred.send() == []
    assert deferred.suggested_bid == suggested and deferred.hints == 3
    # asked for after the status job answered: at once, with no job
    later = _bidding(True)
    later.coach.bid_evaluation = _never  # type: ignore[method-assign, assignment]
    (job,) = later.send()
    later.take([run(payload(job, later.game_record(), later.level))])
    assert _lines(later.hint()) == said[0] and later.send() == []


def test_the_auction_s_hint_after_a_failed_status_job_is_worked_out_in_the_request() -> None:
    from tutor.web.coachqueue import failed

    inline = _bidding(False)
    deferred = _bidding(True)
    (job,) = deferred.send()
    deferred.hint()
    taken = deferred.take([failed({"job": job.to_data()})])
    assert _lines(taken) == _lines(inline.hint())


def test_rule_12_2_the_open_hand_s_hints_are_a_job_with_the_inline_words() -> None:
    import tutor.sessions.game as game_module
    from tests.coach.test_variant_judge import STRONG
    from tutor.engine.game import Game
    from tutor.engine.rules import OPEN

    def landlord(defer: bool) -> GameSession:
        game = Game.from_hands(STRONG, 0, 1, "679", rules=OPEN)
        coach = game_module.Coach(True, rules=OPEN)  # the fixture's small coach: the jobs' coach too
        session = GameSession(game, "easy", coach)
        session.defer = defer
        session.start()
        session.send()
        assert session.can_show_hand
        return session

    inline = landlord(False)
    said = [_lines(inline.hint()) for _ in range(2)]
    assert said[0][0].startswith("Hint 1: show the hand")
    deferred = landlord(True)
    deferred.coach.open_evaluation = _never  # type: ignore[method-assign, assignment]
    waiting = deferred.hint()
    assert _lines(waiting) == ["The coach is weighing whether to show the hand: the hint follows in a moment."]
    assert deferred.hint() == waiting and deferred.hints == 0
    (job,) = deferred.send()  # asked twice: one job
    assert job.kind == "open_hints"
    taken = deferred.take([run(payload(job, deferred.game_record(), deferred.level))])
    assert [_lines(taken), _lines(deferred.hint())] == said and deferred.hints == 2
    deferred.show_hand()  # against the last hint ("keep it closed"): judged, by a job as ever
    assert [j.kind for j in deferred.send()] == ["open"]


def test_a_worker_keeps_the_turn_s_evaluation_for_the_next_job_with_the_same_words(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The auction's line and the verdict on the bid are one evaluation of the bids on a worker, as at the table
    (the coach keeps it for the turn): the second job makes none, and says what it says with a fresh worker."""
    import tutor.coach as coach_module
    from tutor.sessions import coachjobs

    made: list[int] = []
    evaluate_bid = coach_module.evaluate_bid

    def counted(*args: Any, **kwargs: Any) -> Any:
        made.append(1)
        return evaluate_bid(*args, **kwargs)

    monkeypatch.setattr(coach_module, "evaluate_bid", counted)
    coachjobs.forget()
    session = _bidding(True)
    (status,) = session.send()
    session.take([run(payload(status, session.game_record(), session.level))])
    session.bid(session.legal_bids[-1])
    verdicts = [job for job in session.send() if job.kind == "bid"]
    assert verdicts and len(made) == 1
    data = payload(verdicts[0], session.game_record(), session.level)
    kept = run(data)
    assert len(made) == 1, "the verdict on the bid evaluated the bids again"
    coachjobs.forget()  # a fresh worker: the bids evaluated again, the same answer
    assert run(data) == kept and len(made) == 2
