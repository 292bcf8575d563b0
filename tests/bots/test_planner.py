"""The hand planner (tutor/bots/planner.py): fewest plays, control kept, every card used."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from tutor.bots.planner import moves_to_finish, plan
from tutor.engine.cards import FULL_DECK, Cards
from tutor.engine.combos import Kind, readings
from tutor.engine.deal import deal


def kinds(text: str) -> list[str]:
    return sorted(Kind(g.kind).label for g in plan(Cards.parse(text)).groups)


def texts(text: str) -> list[str]:
    return sorted(g.text for g in plan(Cards.parse(text)).groups)


@st.composite
def hands(draw: st.DrawFn) -> Cards:
    deck = FULL_DECK.ranks()
    picked = draw(st.lists(st.sampled_from(range(len(deck))), min_size=1, max_size=20, unique=True))
    return Cards.from_ranks(deck[i] for i in picked)


@settings(max_examples=150, deadline=None)
@given(hands())
def test_plan_uses_every_card_once_in_legal_plays(hand: Cards) -> None:
    result = plan(hand)
    assert sum(g.cards for g in result.groups) == hand.packed
    for group in result.groups:
        assert group in readings(group.cards), f"{group} is not a reading of its cards"
    assert result.plays == moves_to_finish(hand) == len(result.groups)


def test_plan_keeps_bombs_and_the_rocket_whole() -> None:
    # Beginner mistake no. 1 (RULES §11): never break a bomb for a straight.
    assert "8888" in texts("345678888XD")
    assert "XD" in texts("345678888XD")


def test_plan_plays_a_straight_as_one_play() -> None:
    assert texts("34567") == ["34567"]
    assert moves_to_finish(Cards.parse("34567")) == 1


def test_plan_takes_low_wings_and_keeps_twos_for_control() -> None:
    assert texts("33342") == ["2", "3334"]


def test_plan_finds_airplane_with_wings() -> None:
    assert texts("33344459") == ["33344459"]
    assert kinds("33344459") == ["airplane_singles"]


def test_plan_prefers_pairs_chain_to_loose_pairs() -> None:
    assert texts("334455") == ["334455"]


def test_moves_to_finish_of_a_ragged_hand_is_large() -> None:
    assert moves_to_finish(Cards.parse("3579JKA2")) == 8


def test_moves_to_finish_of_real_deals_is_plausible() -> None:
    # The status-line estimate for 17-card hands is typically 5-10 moves.
    estimates = [moves_to_finish(h) for n in range(30) for h in deal(n).hands]
    assert 5 <= sum(estimates) / len(estimates) <= 10
    assert all(2 <= e <= 13 for e in estimates)
