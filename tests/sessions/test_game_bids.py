"""The auction in a coached game: status line, bid hints, the verdict on a bid and the review (issue 13)."""

from __future__ import annotations

from tutor.coach import Coach
from tutor.coach.evaluation import Budget
from tutor.engine.rules import STANDARD
from tutor.i18n import speaking
from tutor.sessions.events import Remark, Review, Say
from tutor.sessions.game import GameSession, Waiting

#: Deal 22: seat 0 bids first with 344568889JQQKA222; bidding 3 loses clearly by expected score.
DEAL = 22
#: Cheap play verdicts (the test is about the bid), the default bid budget (what the learner gets).
CHEAP_PLAYS = Budget(samples=2, width=1)


def _session(coach: bool = True) -> GameSession:
    from tutor.engine.game import Game

    return GameSession(Game(DEAL), "medium", Coach(coach, budget=CHEAP_PLAYS, rules=STANDARD))


def test_the_bidding_status_line_suggests_the_best_bid_with_its_expected_score() -> None:
    session = _session()
    events = session.start()
    assert session.waiting_for is Waiting.BID
    with speaking("en"):
        line = [e.phrase.render() for e in events if isinstance(e, Say)][0]
    assert line.startswith("High cards: ") and "bombs: " in line and "moves to finish: ~" in line
    best = session.coach.bid_evaluation(session.view()).best
    assert ("→ pass:" if best.bid == 0 else f"→ bid {best.bid}:") in line and "expected score " in line
    assert session.suggested_bid == best.bid
    with speaking("ru"):
        assert "ожидаемый счёт" in [e.phrase.render() for e in events if isinstance(e, Say)][0]


def test_bid_hints_go_best_first_and_enter_bids_the_hinted_one() -> None:
    session = _session()
    session.start()
    ev = session.coach.bid_evaluation(session.view())
    first, second = session.hint(), session.hint()
    with speaking("en"):
        assert first[0].phrase.render().startswith("Hint 1: ")  # type: ignore[attr-defined]
        assert second[0].phrase.render().startswith("Hint 2: ")  # type: ignore[attr-defined]
    assert session.suggested_bid == ev.candidates[1].bid
    events = session.confirm()
    assert not [e for e in events if isinstance(e, Remark)]  # quiet about its own hint


def test_a_bad_bid_gets_a_verdict_and_the_review_names_it() -> None:
    session = _session()
    session.start()
    events = session.bid(3)
    remarks = [e for e in events if isinstance(e, Remark)]
    assert remarks, "bidding 3 on this hand loses clearly: the coach says so"
    with speaking("en"):
        assert "in the auction: bid 3 expects a score of −" in remarks[0].phrase.render()
    with speaking("ru"):
        assert "в торге: ставка 3 — ожидаемый счёт −" in remarks[0].phrase.render()
    while session.waiting_for is Waiting.PLAY:
        events = session.play(session.legal_moves()[0])
    review = [e for e in events if isinstance(e, Review)]
    assert review
    with speaking("en"):
        lines = [p.render() for p in review[0].lines]
    assert any(line.startswith("Bidding: ") and "in the auction" in line for line in lines)
    assert session.coach.bid_verdicts and session.coach.bid_verdicts[0][1].flagged


def test_with_the_coach_off_the_auction_costs_no_sampling() -> None:
    session = _session(coach=False)
    events = session.start()
    with speaking("en"):
        line = [e.phrase.render() for e in events if isinstance(e, Say)][0]
    assert "expected score" not in line and session.coach._bid_evaluation is None
    assert session.coach.bid_verdict(session.view(), 3, 0) is None
