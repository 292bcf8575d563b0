"""Hand evaluation for the bidding status line (RULES §9, §11)."""

from __future__ import annotations

from tutor.bots.evaluation import evaluate_hand
from tutor.engine.cards import Cards


def test_evaluation_counts_high_cards_bombs_and_moves() -> None:
    ev = evaluate_hand(Cards.parse("33334567899TJQ22X"))
    assert ev.high_cards == 3  # 2, 2, X
    assert ev.bombs == 1  # 3333
    assert ev.moves >= 4


def test_rocket_counts_as_a_bomb() -> None:
    assert evaluate_hand(Cards.parse("345678TTJJQQKKAXD")).bombs == 1


def test_strong_hand_suggests_three() -> None:
    assert evaluate_hand(Cards.parse("33456789TJQKA22XD")).suggested_bid == 3


def test_few_high_cards_and_many_moves_suggest_pass() -> None:
    # RULES §11: few high cards and many moves — do not bid for landlord.
    ev = evaluate_hand(Cards.parse("3359JJQKKA2X44679"))
    assert ev.high_cards == 2
    assert ev.moves >= 9
    assert ev.suggested_bid == 0


def test_fewer_moves_raise_the_bid() -> None:
    # Same high cards, but a hand that plays out in fewer moves is worth more.
    ragged = evaluate_hand(Cards.parse("3579JKA6T8Q4722XD"))
    smooth = evaluate_hand(Cards.parse("33344455566677722"))
    assert ragged.high_cards == 4 and smooth.high_cards == 2
    assert smooth.moves < ragged.moves
    assert evaluate_hand(Cards.parse("334455667788KK22X")).suggested_bid >= evaluate_hand(
        Cards.parse("3579JKA6T8Q4K922X")
    ).suggested_bid
