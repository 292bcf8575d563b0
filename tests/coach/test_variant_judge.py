"""The open hand (RULES §12.2) judged and hinted by expected score from the landlord's view (issue 24)."""

from __future__ import annotations

import pytest

from tutor.coach import Coach
from tutor.coach.bidding import BidBudget
from tutor.coach.evaluation import Budget
from tutor.coach.variant_judge import CLOSED, SHOW, evaluate_open, judge_open, open_verdict_phrase
from tutor.engine.game import Game
from tutor.engine.rules import OPEN
from tutor.i18n import speaking
from tutor.sessions.events import Remark, Say
from tutor.sessions.game import GameSession

#: The landlord (seat 0, to lead) holds the rocket and four bombs: it wins however the farmers play,
#: so showing the hand doubles a sure win.
STRONG = ["XD2222AAAAKKKK345679", "33344455566677788", "88999TTTTJJJJQQQQ"]
#: The landlord holds nothing above a king, a ragged hand: it loses, and showing doubles the loss.
WEAK = ["333455666778899TJJQK", "JQQQKKKAAAA2222XD", "3444556778899TTTJ"]
SMALL = BidBudget(samples=6, tries=1)


def _view(hands: list[str], kitty: str) -> object:
    return Game.from_hands(hands, 0, 1, kitty, rules=OPEN).view(0)


def test_rule_12_2_showing_a_sure_win_is_best_and_keeping_it_closed_is_flagged() -> None:
    view = _view(STRONG, "679")
    ev = evaluate_open(view, SMALL)  # type: ignore[arg-type]
    assert ev.best.bid == SHOW and ev.best.landlord_wins > 0.8
    verdict, _ = judge_open(view, False, SMALL, ev)  # type: ignore[arg-type]
    assert verdict.bid == CLOSED and verdict.flagged and verdict.level == "blunder"
    assert judge_open(view, True, SMALL, ev)[0].level == "best"  # type: ignore[arg-type]
    with speaking("en"):
        text = open_verdict_phrase(verdict, ev).render()
    assert text.startswith("Blunder with the open hand: “keep the hand closed” expects a score of +")
    with speaking("ru"):
        assert "«открыть руку»" in open_verdict_phrase(verdict, ev).render()


def test_rule_12_2_showing_a_weak_hand_doubles_the_loss() -> None:
    view = _view(WEAK, "JQK")
    ev = evaluate_open(view, SMALL)  # type: ignore[arg-type]
    assert ev.best.bid == CLOSED and ev.best.expected < 0
    assert judge_open(view, True, SMALL, ev)[0].loss > 0  # type: ignore[arg-type]


def test_rule_12_2_the_session_hints_the_open_hand_and_judges_playing_without_showing() -> None:
    game = Game.from_hands(STRONG, 0, 1, "679", rules=OPEN)
    coach = Coach(True, endgame=False, budget=Budget(samples=2, width=1), bid_budget=SMALL, rules=game.rules)
    session = GameSession(game, "medium", coach)
    session.start()
    assert session.can_show_hand
    hint = session.hint()
    with speaking("en"):
        line = [e.phrase.render() for e in hint if isinstance(e, Say)][0]
    assert line.startswith("Hint 1: show the hand — expected score +") and "you win" in line
    events = session.play(session.legal_moves()[0])  # plays without showing: against the hint
    remarks = [e for e in events if isinstance(e, Remark)]
    with speaking("en"):
        assert any("with the open hand" in r.phrase.render() for r in remarks)
    assert [v.bid for _, v in coach.open_verdicts] == [CLOSED]
    assert "open_verdicts" in coach.to_data()


def test_rule_12_1_at_a_hard_table_the_samples_model_hard_by_medium(monkeypatch: pytest.MonkeyPatch) -> None:
    # Hard's own auction samples deals itself (~0.1 s a decision): the coach's rejection sampling asks the
    # model thousands of times, so medium's thresholds stand for it (as they do in hard's own evaluation).
    from tutor.bots.hard import HardBot
    from tutor.coach.bidding import evaluate_bid
    from tutor.engine.cards import Cards
    from tutor.engine.rules import ROB
    from tutor.engine.view import PlayerView

    def refuse(*_: object) -> int:
        raise AssertionError("the coach's samples asked hard's expensive auction")

    monkeypatch.setattr(HardBot, "bid", refuse)
    view = PlayerView(0, Cards.parse("3345567899TJQKA44"), ((2, 1),), None, None, (), (17, 17, 17), 0, None, None,
                      None, ROB)  # fmt: skip
    ev = evaluate_bid(view, BidBudget(samples=2, tries=2, bidder="hard", policy="medium"))
    assert {c.bid for c in ev.candidates} == {0, 2}
