"""Bidding (RULES §3): the classic one-round auction, redeals and the kitty."""

from __future__ import annotations

import pytest

from tutor.engine.deal import deal
from tutor.engine.game import Game, IllegalBidError, Phase
from tutor.engine.combos import IllegalPlayError


def test_rule_3_game_starts_bidding_with_the_deals_first_bidder() -> None:
    for number in (0, 1, 42, 2147483648):
        game = Game(number)
        assert game.phase is Phase.BIDDING
        assert game.to_move == deal(number).first_bidder
        assert game.hands == deal(number).hands
        assert game.landlord is None and game.kitty is None and game.bids == ()
        assert game.bid is None


def test_rule_3_legal_bids_are_pass_and_each_higher_bid() -> None:
    game = Game(42)
    assert game.legal_bids() == [0, 1, 2, 3]
    game.make_bid(1)
    assert game.legal_bids() == [0, 2, 3]
    game.make_bid(2)
    assert game.legal_bids() == [0, 3]


def test_rule_3_a_bid_must_be_higher_than_every_earlier_bid() -> None:
    game = Game(42)
    game.make_bid(2)
    game.make_bid(0)
    with pytest.raises(IllegalBidError, match="bid 2 must be higher than the current bid 2"):
        game.make_bid(2)
    with pytest.raises(IllegalBidError, match="bid 1 must be higher"):
        game.make_bid(1)


@pytest.mark.parametrize("bad", [4, -1, True, "2"])
def test_rule_3_bids_are_pass_1_2_or_3(bad: object) -> None:
    with pytest.raises(IllegalBidError):
        Game(42).make_bid(bad)  # type: ignore[arg-type]


def test_rule_3_each_player_bids_once_going_round_from_the_first_bidder() -> None:
    game = Game(42)
    first = game.to_move
    game.make_bid(1)
    game.make_bid(0)
    game.make_bid(0)
    assert [seat for seat, _ in game.bids] == [first, (first + 1) % 3, (first + 2) % 3]
    assert game.phase is Phase.PLAYING
    assert game.legal_bids() == []


def test_rule_3_bid_of_three_ends_auction() -> None:
    game = Game(42)
    first = game.to_move
    game.make_bid(3)
    assert game.phase is Phase.PLAYING
    assert game.landlord == first
    assert game.bids == ((first, 3),)
    with pytest.raises(IllegalBidError, match="auction is over"):
        game.make_bid(0)


def test_rule_3_highest_bidder_is_landlord() -> None:
    game = Game(7)
    first = game.to_move
    game.make_bid(1)
    game.make_bid(2)
    game.make_bid(0)
    assert game.landlord == (first + 1) % 3
    assert game.bid == 2


def test_rule_3_highest_bidder_wins_even_when_the_others_pass_after() -> None:
    game = Game(7)
    first = game.to_move
    game.make_bid(0)
    game.make_bid(0)
    game.make_bid(1)
    assert game.landlord == (first + 2) % 3
    assert game.bid == 1


def test_rule_3_winning_bid_is_the_games_bid() -> None:
    game = Game(9)
    game.make_bid(0)
    game.make_bid(2)
    game.make_bid(0)
    assert game.bid == 2 and game.bid == 2
    assert game.view(0).bid == 2


def test_rule_3_all_pass_redeals_with_next_number() -> None:
    game = Game(41)
    for _ in range(3):
        game.make_bid(0)
    assert game.phase is Phase.BIDDING
    assert game.deal_number == 42
    assert game.original_deal_number == 41
    assert game.hands == deal(42).hands
    assert game.to_move == deal(42).first_bidder
    assert game.bids == ()
    assert game.legal_bids() == [0, 1, 2, 3]


def test_rule_3_redeals_continue_until_someone_bids() -> None:
    game = Game(100)
    for _ in range(6):
        game.make_bid(0)
    assert game.deal_number == 102
    game.make_bid(1)
    game.make_bid(0)
    game.make_bid(0)
    assert game.landlord == deal(102).first_bidder
    assert game.kitty == deal(102).kitty


def test_rule_3_landlord_takes_the_kitty_holds_20_and_leads() -> None:
    game = Game(42)
    dealt = deal(42)
    game.make_bid(3)
    landlord = game.landlord
    assert landlord == dealt.first_bidder
    assert game.kitty == dealt.kitty
    assert game.hand(landlord) == dealt.hands[landlord] + dealt.kitty
    assert len(game.hand(landlord)) == 20
    assert sorted(game.card_counts) == [17, 17, 20]
    assert game.to_move == landlord
    assert game.table is None and not game.can_pass()


def test_rule_3_kitty_is_shown_to_everyone_only_after_the_auction() -> None:
    game = Game(42)
    assert all(game.view(seat).kitty is None for seat in range(3))
    game.make_bid(3)
    assert all(game.view(seat).kitty == deal(42).kitty for seat in range(3))


def test_rule_3_no_play_during_the_auction() -> None:
    game = Game(42)
    assert game.legal_moves() == []
    with pytest.raises(IllegalPlayError, match="auction is not finished"):
        game.play(None)


def test_rule_3_with_landlord_skips_the_auction() -> None:
    game = Game.with_landlord(42, landlord=2, bid=2)
    assert game.phase is Phase.PLAYING
    assert game.landlord == 2 and game.bid == 2 and game.to_move == 2
    assert game.hand(2) == deal(42).hands[2] + deal(42).kitty
    assert game.kitty == deal(42).kitty
    with pytest.raises(ValueError, match="landlord must be a seat"):
        Game.with_landlord(42, landlord=3)
    with pytest.raises(ValueError, match="bid must be one of"):
        Game.with_landlord(42, landlord=0, bid=5)


def test_rule_3_undo_takes_back_bids_and_a_redeal() -> None:
    game = Game(41)
    start = game.state_key()
    game.make_bid(1)
    after_one = game.state_key()
    game.make_bid(0)
    game.undo()
    assert game.state_key() == after_one
    game.undo()
    assert game.state_key() == start
    for _ in range(3):
        game.make_bid(0)
    assert game.deal_number == 42
    game.undo()
    assert game.deal_number == 41
    assert game.hands == deal(41).hands
    assert len(game.bids) == 2
