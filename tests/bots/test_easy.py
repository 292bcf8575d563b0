"""The easy level (RULES §10): a beginner who makes mistakes — but never absurd ones."""

from __future__ import annotations

from tests.bots.bot_views import combo, turns, view
from tutor.bots import EasyBot, MediumBot
from tutor.engine.combos import Kind

LANDLORD = 0
SEEDS = range(40)


def test_easy_never_bombs_first_trick_for_nothing() -> None:
    # The landlord opens with a 2; only the bomb answers it.  Whatever the seed, no bomb.
    first_trick = view(1, "77773589", LANDLORD, (19, 8, 17), turns((0, "2")))
    assert all(EasyBot(seed).play(first_trick) is None for seed in SEEDS)


def test_easy_never_leads_a_bomb_while_it_has_other_cards() -> None:
    leading = view(0, "77773589", LANDLORD, (8, 17, 17))
    for seed in SEEDS:
        move = EasyBot(seed).play(leading)
        assert move is not None and move.kind not in (Kind.BOMB, Kind.ROCKET)


def test_easy_bombs_an_opponent_about_to_go_out_later_in_the_game() -> None:
    # Not the first trick any more, and the landlord is down to two cards: now the bomb is right.
    history = turns((0, "3"), (1, "9"), (2, None), (0, None), (1, "4"), (2, None), (0, "2"))
    late = view(1, "7777589", LANDLORD, (2, 7, 16), history)
    assert all(EasyBot(seed).play(late) == combo("7777") for seed in SEEDS)


def test_easy_often_breaks_good_combinations() -> None:
    # Medium leads the straight whole; the beginner often leads its lowest card alone.
    hand = view(0, "3456799K", LANDLORD, (8, 17, 17))
    assert MediumBot(0).play(hand) == combo("34567")
    leads = [EasyBot(seed).play(hand) for seed in SEEDS]
    assert combo("3") in leads
    assert any(move != combo("3") for move in leads)


def test_easy_sometimes_beats_its_partner() -> None:
    partner_play = view(2, "4799QQA2", LANDLORD, (15, 10, 8), turns((0, "5"), (1, "8")))
    moves = [EasyBot(seed).play(partner_play) for seed in SEEDS]
    assert None in moves, "it does not always beat its partner"
    assert combo("9") in moves, "but sometimes it does, with its cheapest card"


def test_easy_answers_with_its_cheapest_card_even_if_it_breaks_a_pair() -> None:
    landlord_play = view(1, "99QQA", LANDLORD, (15, 5, 8), turns((0, "8")))
    moves = {EasyBot(seed).play(landlord_play) for seed in SEEDS}
    assert combo("9") in moves


def test_easy_goes_out_when_it_can() -> None:
    assert all(EasyBot(seed).play(view(1, "QQ", LANDLORD, (9, 2, 8), turns((0, "99")))) == combo("QQ") for seed in SEEDS)


def test_easy_bids_on_raw_high_cards() -> None:
    # Four high cards in a ragged hand: the beginner bids (usually); medium, who counts moves, may not.
    ragged = view(0, "3457899TJQQKA22XD", None, (17, 17, 17))
    bids = [EasyBot(seed).bid(ragged) for seed in SEEDS]
    assert sum(1 for b in bids if b > 0) > len(bids) // 2
    no_high = view(0, "33445566778899TTJ", None, (17, 17, 17))
    assert all(EasyBot(seed).bid(no_high) == 0 for seed in SEEDS)
