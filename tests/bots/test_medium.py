"""The medium level (RULES §10, §11): sensible splits, team play, pairs against a one-card landlord."""

from __future__ import annotations

from tests.bots.bot_views import combo, turns, view
from tutor.bots import MediumBot, make_bot
from tutor.engine.combos import Kind

LANDLORD = 0


def test_medium_does_not_beat_partner_winning_play() -> None:
    # Seat 1 (partner) topped the landlord's 5 with a K; seat 2 holds an A and a 2 but lets it stand.
    history = turns((0, "5"), (1, "K"))
    partner_play = view(2, "4799QQA2", LANDLORD, (15, 10, 8), history)
    assert MediumBot(1).play(partner_play) is None


def test_medium_beats_the_landlord_when_its_partner_passed() -> None:
    # Same cards, but the K is the landlord's and the partner passed: the last chance to stop it.
    history = turns((0, "K"), (1, None))
    landlord_play = view(2, "4799QQA2", LANDLORD, (15, 10, 8), history)
    move = MediumBot(1).play(landlord_play)
    assert move is not None and move.text in ("A", "2")


def test_medium_beats_partner_only_to_go_out() -> None:
    # Beating the partner's 9 with the J leaves one play (the pair): that is a reason.
    history = turns((0, "5"), (1, "9"))
    assert MediumBot(1).play(view(2, "JQQ", LANDLORD, (15, 10, 3), history)) == combo("J")


def test_medium_leads_pairs_when_landlord_has_one_card() -> None:
    # Seat 1 leads; the landlord has one card left: no single while a pair exists (RULES §11).
    history = turns((0, "8"), (1, "T"), (2, None), (0, None))
    move = MediumBot(1).play(view(1, "35779J", LANDLORD, (1, 6, 9), history))
    assert move == combo("77")


def test_medium_leads_highest_single_when_only_singles_are_left_against_one_card() -> None:
    history = turns((0, "8"), (1, "T"), (2, None), (0, None))
    move = MediumBot(1).play(view(1, "39K", LANDLORD, (1, 3, 9), history))
    assert move == combo("K")


def test_medium_leads_its_lowest_group_when_nobody_is_close() -> None:
    # Without danger the same hand sheds its lowest single first.
    history = turns((0, "8"), (1, "T"), (2, None), (0, None))
    assert MediumBot(1).play(view(1, "35779J", LANDLORD, (9, 6, 9), history)) == combo("3")


def test_medium_leads_whole_straight_instead_of_breaking_it() -> None:
    # A sensible split: 34567 leaves as one play, not as five singles.
    move = MediumBot(1).play(view(0, "3456799K", LANDLORD, (8, 17, 17)))
    assert move is not None and move.kind == Kind.STRAIGHT and move.text == "34567"


def test_medium_leaves_feeding_the_partner_to_the_hard_level() -> None:
    # Medium leads by its plan (the pair 99 is its weakest group here); feeding is hard's finesse.
    history = turns((0, "8"), (1, "T"), (2, None), (0, None))
    assert MediumBot(1).play(view(1, "99JQKA2", LANDLORD, (12, 7, 1), history)) == combo("99")


def test_medium_bombs_only_when_the_opponent_is_about_to_go_out() -> None:
    far = view(1, "55559J", LANDLORD, (10, 6, 9), turns((0, "2")))
    near = view(1, "55559J", LANDLORD, (2, 6, 9), turns((0, "2")))
    assert MediumBot(1).play(far) is None
    assert MediumBot(1).play(near) == combo("5555")


def test_medium_goes_out_when_the_whole_hand_is_one_play() -> None:
    assert MediumBot(1).play(view(0, "QQQ99", LANDLORD, (5, 9, 9))) == combo("QQQ99")


def test_medium_bids_by_hand_evaluation() -> None:
    strong = view(0, "33456789TJQKA22XD", None, (17, 17, 17))
    weak = view(0, "334568899TJJQQKKA", None, (17, 17, 17))
    bot = make_bot("medium", 3)
    assert bot.bid(strong) == 3
    assert bot.bid(weak) == 0
