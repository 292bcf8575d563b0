"""Each level in character in the rob auction and with the open hand (RULES §12.1, §12.2; issue 24)."""

from __future__ import annotations

from tutor.bots.auction_sense import SenseBudget, auction_scores, best_code, clearly_better, open_scores
from tutor.bots.base import auction_choice
from tutor.bots.easy import EASY_THRESHOLDS
from tutor.bots.hard import HardBot
from tutor.bots.medium import MediumBot
from tutor.engine.auction import CALL, PASS, ROB
from tutor.engine.cards import Cards
from tutor.engine.game import Game
from tutor.engine.rules import OPEN, ROB as ROB_RULES
from tutor.engine.view import PlayerView

SMALL = SenseBudget(samples=8, tries=2, show_samples=3)


def _rob_view(hand: str) -> PlayerView:
    """Seat 1's turn after seat 0 called the landlord."""
    return PlayerView(1, Cards.parse(hand), ((0, CALL),), None, None, (), (17, 17, 17), 1, None, None, None, ROB_RULES)


def test_rule_12_1_hard_robs_a_crushing_hand_and_passes_a_hopeless_one_by_expected_score() -> None:
    strong = _rob_view("XD2222AAAKKQQJJ33")
    scores = auction_scores(strong, 7, MediumBot(7).bid, SMALL)
    assert set(scores) == {PASS, ROB} and best_code(scores) == ROB and scores[ROB] > scores[PASS]
    weak = _rob_view("3345567899TJQQKA4")
    scores = auction_scores(weak, 7, MediumBot(7).bid, SMALL)
    assert best_code(scores) == PASS and scores[ROB] < scores[PASS]
    assert auction_scores(weak, 7, MediumBot(7).bid, SMALL) == scores  # counted budget, seeded: the same answer
    assert HardBot(7).bid(strong) == ROB


def test_rule_12_1_easy_robs_on_what_medium_only_calls_with() -> None:
    view = _rob_view("3345567899TJQQ222")  # three twos: worth a bid of 1
    assert auction_choice(view, 1) == PASS  # medium: a rob doubles, it wants a bid of 2's worth
    assert auction_choice(view, 1, EASY_THRESHOLDS) == ROB


def test_rule_12_2_hard_shows_only_a_clear_gain() -> None:
    strong = Game.from_hands(["XD2222AAAAKKKK345679", "33344455566677788", "88999TTTTJJJJQQQQ"], 0, 1, "679",
                             rules=OPEN).view(0)  # fmt: skip
    policy = HardBot(3, search=False, rollouts=False).play
    scores = open_scores(strong, 3, MediumBot(3).bid, policy, SMALL)
    assert clearly_better([a - b for a, b in zip(scores[True], scores[False])])
    assert not clearly_better([1.0, -1.0, 1.0, -1.0]) and not clearly_better([-2.0, -2.0])
