"""Scoring (RULES §7): cost = 10 × bid × 2^k, landlord's double share, zero sum."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tutor.engine.cards import FULL_DECK, Cards
from tutor.engine.combos import Combo, Kind, readings
from tutor.engine.game import Game
from tutor.engine.scoring import Score, score_game
from tutor.engine.view import Turn

BOMB_8 = next(r for r in readings(Cards.parse("8888")) if r.kind == Kind.BOMB)
ROCKET = readings(Cards.parse("XD"))[0]
SINGLE_3 = readings(Cards.parse("3"))[0]


def full_position(landlord_hand: str, farmer1: str | None = None) -> tuple[Cards, Cards, Cards]:
    """A fresh-deal-sized position: the landlord holds 20 cards, each farmer 17.

    The farmers get the rest of the deck (the first one ``farmer1`` if given).
    """
    landlord = Cards.parse(landlord_hand)
    assert len(landlord) == 20
    rest = FULL_DECK - landlord
    if farmer1 is None:
        ranks = rest.ranks()
        first = Cards.from_ranks(ranks[:17])
    else:
        first = Cards.parse(farmer1)
    rest = rest - first
    second = Cards.from_ranks(rest.ranks()[:17])
    assert len(first) == len(second) == 17
    return landlord, first, second


def test_rule_7_rules_example_bid_3_one_bomb_spring_is_120() -> None:
    hands = full_position("8888" + "3344556677" + "99TTJJ")
    game = Game.from_hands(hands, landlord=0, bid=3)
    for play in ("8888", "3344556677", "99TTJJ"):
        game.play_cards(play)
        if not game.is_over:
            game.play(None)
            game.play(None)
    score = game.score()
    assert score.bid == 3 and score.bombs == 1 and score.spring and not score.anti_spring
    assert score.multiplier == 4
    assert score.cost == 120
    assert score.deltas == (240, -120, -120)
    assert score.multipliers == ["bid 3", "bomb 8888", "spring"]
    assert score.formula == "10 × 3 × 4 = 120"


def test_rule_7_spring_needs_the_farmers_to_play_no_card() -> None:
    landlord, f1, f2 = full_position("8888" + "3344556677" + "99TTJJ")
    game = Game.from_hands((landlord, f1, f2), landlord=0, bid=1)
    game.play_cards("3344556677")
    game.play(None)
    game.play(None)
    game.play_cards("99TTJJ")
    assert not game.is_over
    game.play(None)
    game.play(None)
    game.play_cards("8888")
    score = game.score()
    assert score.spring and score.bombs == 1
    assert score.cost == 10 * 1 * 4 and score.deltas == (80, -40, -40)


def test_rule_7_no_spring_when_a_farmer_played() -> None:
    history = [Turn(0, SINGLE_3), Turn(1, readings(Cards.parse("4"))[0]), Turn(2, None), Turn(0, BOMB_8)]
    score = score_game(history, landlord=0, bid=1, winner=0)
    assert not score.spring
    assert score.multiplier == 2 and score.cost == 20 and score.deltas == (40, -20, -20)


def test_rule_7_anti_spring_doubles() -> None:
    farmer = "4" + "56789" + "TTJJQQ" + "KKKAA"
    hands = full_position("3" + "2222XD" + "3334445556" + "77K", farmer1=farmer)
    game = Game.from_hands(hands, landlord=0, bid=1)
    game.play_cards("3")
    for play in ("4", "56789", "TTJJQQ", "KKKAA"):
        game.play_cards(play)
        if not game.is_over:
            game.play(None)
            game.play(None)
    score = game.score()
    assert not score.landlord_won and score.anti_spring and not score.spring
    assert score.multiplier == 2 and score.cost == 20
    assert score.deltas == (-40, 20, 20)
    assert score.multipliers == ["bid 1", "anti-spring"]


def test_rule_7_anti_spring_needs_exactly_the_opening_play() -> None:
    four = readings(Cards.parse("4"))[0]
    five = readings(Cards.parse("5"))[0]
    history = [Turn(0, SINGLE_3), Turn(1, four), Turn(2, None), Turn(0, five), Turn(1, readings(Cards.parse("6"))[0])]
    score = score_game(history, landlord=0, bid=2, winner=1)
    assert not score.anti_spring and score.cost == 20


def test_rule_7_every_bomb_and_rocket_doubles_whoever_plays_it() -> None:
    history = [
        Turn(0, SINGLE_3),
        Turn(1, BOMB_8),
        Turn(2, None),
        Turn(0, ROCKET),
        Turn(1, None),
        Turn(2, None),
        Turn(0, SINGLE_3),
    ]
    score = score_game(history, landlord=0, bid=2, winner=0)
    assert not score.spring and not score.anti_spring
    assert score.bombs == 2 and score.multiplier == 4
    assert score.cost == 10 * 2 * 4
    assert score.multipliers == ["bid 2", "bomb 8888", "rocket"]
    assert score.deltas == (160, -80, -80)


def test_rule_7_landlord_wins_double_share_farmers_lose_one_each() -> None:
    score = score_game([Turn(2, SINGLE_3)], landlord=2, bid=2, winner=2)
    assert score.deltas == (-score.cost, -score.cost, 2 * score.cost)


def test_rule_7_no_cap_on_the_cost() -> None:
    history = [Turn(0, SINGLE_3)] + [Turn(1, BOMB_8)] * 10
    score = score_game(history, landlord=1, bid=3, winner=1)
    assert score.cost == 10 * 3 * 2**10
    assert score.deltas[1] == 2 * 30 * 1024


def test_rule_7_a_four_with_two_is_not_a_bomb_for_scoring() -> None:
    four_two = next(r for r in readings(Cards.parse("888834")) if r.kind == Kind.FOUR_TWO_SINGLES)
    score = score_game([Turn(1, SINGLE_3), Turn(2, None), Turn(0, four_two)], landlord=0, bid=1, winner=0)
    assert score.bombs == 0 and score.multiplier == 1


def test_rule_7_no_spring_for_a_position_set_up_part_way() -> None:
    # An endgame whose hands are not full: cards were played before, so no spring.
    game = Game.from_hands(["KK", "33", "44"], landlord=0)
    game.play_cards("KK")
    assert not game.score().spring and game.score().cost == 10


plays = st.sampled_from([BOMB_8, ROCKET, SINGLE_3, None])


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.tuples(st.integers(0, 2), plays), max_size=12),
    st.integers(0, 2),
    st.integers(0, 2),
    st.sampled_from([1, 2, 3]),
)
def test_rule_7_scores_sum_to_zero(
    turns: list[tuple[int, Combo | None]], landlord: int, winner: int, bid: int
) -> None:
    history = [Turn(seat, play) for seat, play in turns]
    score = score_game(history, landlord, bid, winner)
    assert isinstance(score, Score)
    assert sum(score.deltas) == 0
    assert score.cost == 10 * bid * score.multiplier
    assert score.multiplier == 2 ** (score.bombs + int(score.spring or score.anti_spring))
    assert not (score.spring and score.anti_spring)
    assert score.deltas[landlord] == (2 if winner == landlord else -2) * score.cost


def test_score_before_the_end_is_an_error() -> None:
    with pytest.raises(ValueError, match="not over"):
        Game(1).score()
