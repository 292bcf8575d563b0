"""Rob the landlord (RULES §12.1): one test per rule sentence, through Game and engine/auction.py."""

from __future__ import annotations

import pytest

from tutor.engine.actions import Call, Pass, Play, Rob
from tutor.engine.auction import CALL, PASS, ROB, Auction, IllegalBidError
from tutor.engine.deal import deal
from tutor.engine.game import Game, Phase, replay
from tutor.engine.record import GameRecord
from tutor.engine.rules import ROB as ROB_RULES
from tutor.engine.rules import Rules, STANDARD

NO_ROB_BACK = Rules(name="rob-no-back", auction="rob", rob_back=False)
DEAL = 42  # first bidder: seat deal(42).first_bidder


def rob_game(*codes: int, rules: Rules = ROB_RULES, number: int = DEAL) -> Game:
    game = Game(number, rules)
    for code in codes:
        game.make_bid(code)
    return game


def seat(k: int, number: int = DEAL) -> int:
    """The k-th seat to speak in the deal (0 = the first bidder)."""
    return (deal(number).first_bidder + k) % 3


def test_rule_12_1_each_player_in_turn_calls_or_passes_until_someone_calls() -> None:
    game = rob_game()
    assert game.to_move == seat(0)
    assert game.legal_actions() == [Pass(), Call()]
    game.apply(Pass())
    assert game.to_move == seat(1) and game.legal_actions() == [Pass(), Call()]
    game.apply(Call())
    assert game.phase is Phase.BIDDING
    assert game.legal_actions() == [Pass(), Rob()]  # from now on: rob or pass


def test_rule_12_1_all_three_pass_redeal_with_the_next_deal_number() -> None:
    game = rob_game(PASS, PASS, PASS)
    assert game.phase is Phase.BIDDING
    assert game.deal_number == DEAL + 1 and game.bids == ()
    assert game.to_move == deal(DEAL + 1).first_bidder
    game.undo()  # the redeal undoes like any action
    assert game.deal_number == DEAL and len(game.bids) == 2


def test_rule_12_1_after_a_call_each_other_player_who_has_not_passed_robs_once() -> None:
    # The first bidder calls: both others get one chance each, in turn order.
    game = rob_game(CALL)
    assert game.to_move == seat(1)
    game.make_bid(PASS)
    assert game.to_move == seat(2)
    game.make_bid(PASS)
    assert game.phase is Phase.PLAYING and game.landlord == seat(0)
    assert game.robs == 0


def test_rule_12_1_a_player_who_passed_instead_of_calling_may_not_rob() -> None:
    # Seat 0 passes, seat 1 calls: only seat 2 may rob; seat 0 never speaks again.
    game = rob_game(PASS, CALL)
    assert game.to_move == seat(2)
    game.make_bid(PASS)
    assert game.phase is Phase.PLAYING and game.landlord == seat(1)
    # Two passes, the last seat calls: nobody may rob.
    game = rob_game(PASS, PASS, CALL)
    assert game.phase is Phase.PLAYING and game.landlord == seat(2)


def test_rule_12_1_a_rob_before_any_call_and_a_second_call_are_refused() -> None:
    game = rob_game()
    with pytest.raises(IllegalBidError, match="nobody has called"):
        game.make_bid(ROB)
    game.make_bid(CALL)
    with pytest.raises(IllegalBidError, match="already called"):
        game.make_bid(CALL)
    with pytest.raises(IllegalBidError, match="call is not an action of the 'bid' auction"):
        Game(DEAL).apply(Call())  # the classic auction has no call


def test_rule_12_1_each_rob_doubles_the_game() -> None:
    game = rob_game(CALL, ROB)
    assert game.robs == 1 and game.cost_so_far() == 20
    game.make_bid(ROB)
    assert game.robs == 2 and game.cost_so_far() == 40


def test_rule_12_1_the_robbed_caller_may_rob_back_once() -> None:
    game = rob_game(CALL, ROB, PASS)
    assert game.to_move == seat(0)  # the caller's one chance
    assert game.legal_actions() == [Pass(), Rob()]
    game.make_bid(ROB)
    assert game.phase is Phase.PLAYING and game.landlord == seat(0)
    assert game.robs == 2  # the rob back is ×2 as well
    # Declining the rob back leaves the robber the landlord.
    game = rob_game(CALL, PASS, ROB, PASS)
    assert game.landlord == seat(2) and game.robs == 1


def test_rule_12_1_rob_back_is_a_rule_flag() -> None:
    assert ROB_RULES.rob_back  # on by default
    game = rob_game(CALL, ROB, PASS, rules=NO_ROB_BACK)
    assert game.phase is Phase.PLAYING and game.landlord == seat(1)


def test_rule_12_1_the_last_to_call_or_rob_is_the_landlord() -> None:
    game = rob_game(CALL, ROB, ROB, PASS)  # both rob, the caller declines to rob back
    assert game.landlord == seat(2) and game.robs == 2
    assert game.to_move == seat(2) and len(game.hand(seat(2))) == 20
    assert game.kitty == deal(DEAL).kitty


def test_rule_12_1_no_one_robs_the_caller_is_the_landlord() -> None:
    game = rob_game(PASS, CALL, PASS)
    assert game.landlord == seat(1) and game.robs == 0 and game.bid == 1


def test_rule_12_1_cost_is_10_times_2_to_the_robs_times_2_to_the_k_with_no_bid() -> None:
    game = rob_game(CALL, ROB, ROB, ROB)  # three robs (two and the rob back)
    assert game.robs == 3
    landlord = game.landlord
    assert landlord is not None
    while not game.is_over:
        game.apply(game.legal_actions()[0])
    score = game.score()
    k = score.bombs + (1 if score.spring or score.anti_spring else 0)
    assert score.cost == 10 * 2**3 * 2**k
    assert score.bid == 1 and "bid 1" not in score.multipliers
    assert list(score.factors[:3]) == ["rob", "rob", "rob"]
    assert sum(score.deltas) == 0
    assert game.returns() == score.deltas


def test_rule_12_the_classic_auction_is_unchanged_by_the_variants() -> None:
    assert STANDARD.auction == "bid" and not STANDARD.robs and not STANDARD.can_open
    game = Game(DEAL)
    assert game.legal_bids() == [0, 1, 2, 3]
    game.make_bid(2)
    assert Auction(seat(0), game.bids).legal(STANDARD) == [0, 3]
    # A classic record's JSON has no variant field at all.
    rules_json = game.record().to_dict()["rules"]
    assert "auction" not in rules_json and "open_hand" not in rules_json and "rob_back" not in rules_json


def test_rule_12_a_rob_game_records_its_rules_and_replays_exactly() -> None:
    game = rob_game(CALL, ROB, ROB)
    for _ in range(6):
        game.apply(game.legal_actions()[-1])
    text = game.record().to_json()
    assert '"auction": "rob"' in text
    again = replay(GameRecord.from_json(text))
    assert again.rules == ROB_RULES and again.state_key() == game.state_key()


def test_determinism_same_deal_rules_and_actions_give_the_same_game() -> None:
    def run() -> tuple[object, ...]:
        game = rob_game(PASS, CALL, ROB, PASS)
        while not game.is_over:
            actions = game.legal_actions()
            game.apply(actions[len(game.history) % len(actions)])
        return game.state_key()

    assert run() == run()
    assert isinstance(Play(None), Play)
