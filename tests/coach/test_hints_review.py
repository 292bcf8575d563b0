"""Hints (ranked, pass when the partner holds the trick) and the post-game review."""

from __future__ import annotations

import pytest

from tutor.coach import Coach
from tutor.coach.hints import ranked_options
from tutor.coach.review import deciding_moment, trick_winners
from tutor.coach.status import lead_options
from tutor.engine.cards import Cards
from tutor.engine.combos import Combo
from tutor.engine.rules import STANDARD
from tutor.engine.view import Turn, view_from_public
from tutor.i18n import set_language


@pytest.fixture(autouse=True)
def english() -> None:
    set_language("en")


def combo(text: str) -> Combo:
    return lead_options(Cards.parse(text))[0]


def test_hints_list_every_legal_option_once_going_out_first() -> None:
    v = view_from_public(0, "34567", 0, [], (5, 17, 17), bid=1)
    options = ranked_options(v)
    assert options[0] == combo("34567")
    assert len(options) == len(set(options)) == 6  # 5 singles and the straight
    assert None not in options  # the leader cannot pass


def test_rule_11_hint_passes_first_when_the_partner_holds_the_trick() -> None:
    v = view_from_public(0, "3456KA2", 1, [Turn(2, combo("9")), Turn(1, None)], (7, 20, 16), bid=1)
    assert ranked_options(v)[0] is None


def test_a_given_first_move_leads_the_list() -> None:
    v = view_from_public(0, "3456KA2", 0, [], (7, 17, 17), bid=1)
    options = ranked_options(v, combo("K"))
    assert options[0] == combo("K") and options.count(combo("K")) == 1


def test_hints_keep_high_cards_for_later() -> None:
    v = view_from_public(0, "3456899KA2", 1, [Turn(1, combo("7")), Turn(2, None)], (10, 19, 17), bid=1)
    options = [o for o in ranked_options(v) if o is not None]
    assert options.index(combo("8")) < options.index(combo("2"))


def test_review_finds_the_deciding_trick_and_counts_help() -> None:
    history = [
        Turn(0, combo("3")), Turn(1, combo("K")), Turn(2, None), Turn(0, None),   # Right wins a trick
        Turn(1, combo("44")), Turn(2, None), Turn(0, combo("AA")), Turn(1, None), Turn(2, None),
        Turn(0, combo("5")),                                                      # we go out
    ]
    assert [i for i, _ in trick_winners(history)] == [1, 6, 9]
    decisive = deciding_moment(history, landlord=0, winner=0, players=3)
    assert decisive is not None and decisive.play == combo("AA")
    coach = Coach(rules=STANDARD)
    lines = coach.review(history, 0, 0, hints=2, undos=1)
    assert "The deciding moment: You played AA and nobody could answer." in lines
    assert lines[-1].startswith("You used 2 hints and 1 undo ")


def test_undo_takes_back_the_coach_remarks_too() -> None:
    from tutor.coach.describe import describe, to_view

    coach = Coach(rules=STANDARD)
    v = to_view(describe("233", "right", "right=1,left=1", "left:5"))
    assert coach.after_move(v, None, None, action_index=5, move_number=1) is not None  # a blunder
    coach.forget_from(5)
    assert coach.moments == [] and coach.verdicts == []
    assert Coach(enabled=False, rules=STANDARD).after_move(v, None, None, 5, 1) is None


def test_the_review_lists_the_largest_losses_with_the_better_move() -> None:
    from tutor.coach.describe import describe, to_view

    coach = Coach(rules=STANDARD)
    v = to_view(describe("233", "right", "right=1,left=1", "left:5"))
    coach.after_move(v, None, None, action_index=5, move_number=4)
    lines = coach.review([Turn(2, combo("5")), Turn(0, None), Turn(1, combo("9"))], 1, 1, hints=0, undos=0)
    assert lines[0].startswith("Move 4 (blunder, −") and "you played pass (wins " in lines[0] and "2 wins" in lines[0]


def test_a_bid_remark_is_reviewed_as_the_bidding() -> None:
    from tutor.coach.status import BidStatus

    coach = Coach(rules=STANDARD)
    assert coach.after_bid(BidStatus(0, 0, 9, 0), 3, action_index=0, move=0) is not None
    history = [Turn(0, combo("3"))]
    assert coach.review(history, 0, 0, 0, 0)[0].startswith("Bidding: That bid is bold for this hand")


def test_a_clearly_worse_candidate_is_never_praised_its_reason_says_what_it_loses() -> None:
    """Issue 20: "sheds 5 while low cards are still cheap to lose" was said of a move that wins 0%."""
    from tutor.coach.advice import hints
    from tutor.coach.describe import describe, to_view

    view = to_view(describe("233", "right", "right=1,left=1", "left:5"))  # 2 stops the one-card landlord
    found = {("pass" if h.move is None else h.move.text): h for h in hints(view)}
    assert found["2"].reason.code == "reason_stops"
    worse = found["pass"].reason
    assert worse.code in ("reason_worse", "reason_worse_because")
    assert "loses −" in worse.text and "2" in worse.text


def test_keeps_your_bomb_is_said_only_when_another_candidate_spends_it() -> None:
    from tutor.coach.advice import reason
    from tutor.coach.describe import describe, to_view
    from tutor.coach.evaluation import Budget, evaluate
    from tutor.engine.combos import Combo

    view = to_view(describe("34567777", "right", "right=10,left=10", "left:3"))
    ev = evaluate(view, (Combo.parse("4"), Combo.parse("7")), Budget(samples=8))
    codes = {("pass" if c.move is None else c.move.text): reason(view, c.move, ev).code for c in ev.candidates}
    assert codes["7"] == "reason_breaks_bomb"  # a single 7 breaks 7777
    assert codes["4"] in ("reason_keeps_bomb", "reason_worse", "reason_worse_because", "reason_boss")
    alone = to_view(describe("345689J", "right", "right=10,left=10", "left:3"))  # no bomb in the hand
    ev2 = evaluate(alone, (), Budget(samples=8))
    assert all(reason(alone, c.move, ev2).code != "reason_keeps_bomb" for c in ev2.candidates)
