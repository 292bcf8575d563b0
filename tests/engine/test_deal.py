"""The deal (RULES §2): golden deals, the PRNG, and the deal as a permutation."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tutor.engine.cards import FULL_DECK, Cards
from tutor.engine.deal import Deal, SplitMix64, deal, initial_order
from tutor.engine.rules import STANDARD, Rules

# Computed once by this implementation and checked in: if any of these change,
# every saved deal number in the world now means a different deal.
GOLDEN = {
    0: ("333456778TTJJQQKK", "34555689TTQKA222X", "466778899JQKAAA2D", "49J", 0),
    1: ("335779TTJJJQKKAAX", "3446688999TJQQQ2D", "345556788TKKAA222", "467", 0),
    42: ("344466788JQKKKKA2", "334788999TTTJA22D", "3555679TJJQQQAA2X", "567", 1),
    2147483648: ("33344566678TJJQA2", "345557799QQQKK22X", "67888TTTJJKKAAA2D", "499", 2),
}


@pytest.mark.parametrize("number", sorted(GOLDEN))
def test_rule_2_golden_deals_are_pinned(number: int) -> None:
    h0, h1, h2, kitty, first = GOLDEN[number]
    d = deal(number)
    assert d.number == number
    assert [str(h) for h in d.hands] == [h0, h1, h2]
    assert str(d.kitty) == kitty
    assert d.first_bidder == first


def test_rule_2_splitmix64_reference_outputs() -> None:
    # The published SplitMix64 outputs for seed 0 (also the worked example in docs/rules.md).
    rng = SplitMix64(0)
    assert [rng.next() for _ in range(3)] == [
        0xE220A8397B1DCDAF,
        0x6E789E6AA1B965F4,
        0x06C45D188009454F,
    ]


def test_rule_2_splitmix64_seed_is_taken_mod_2_64() -> None:
    a, b = SplitMix64(5), SplitMix64(5 + (1 << 64))
    assert [a.next() for _ in range(4)] == [b.next() for _ in range(4)]
    assert deal(5).hands == deal(5 + (1 << 64)).hands


def test_rule_2_bounded_draw_rejects_the_biased_zone() -> None:
    class Fixed(SplitMix64):
        def __init__(self, outputs: list[int]) -> None:
            super().__init__(0)
            self.outputs = outputs

        def next(self) -> int:
            return self.outputs.pop(0)

    # For bound 3 the limit is 2**64 - (2**64 % 3) = 2**64 - 1: the top value is rejected.
    rng = Fixed([(1 << 64) - 1, 7])
    assert rng.below(3) == 7 % 3
    assert rng.outputs == []
    with pytest.raises(ValueError, match="bound"):
        SplitMix64(0).below(0)


def test_rule_2_bounded_draw_stays_in_range() -> None:
    rng = SplitMix64(123)
    for bound in (1, 2, 3, 17, 54):
        assert all(0 <= rng.below(bound) < bound for _ in range(200))


def test_rule_2_each_player_gets_17_and_the_kitty_3() -> None:
    d = deal(7)
    assert [len(h) for h in d.hands] == [17, 17, 17]
    assert len(d.kitty) == 3


def test_rule_2_initial_order_is_ranks_low_to_high() -> None:
    order = initial_order()
    assert len(order) == 54
    assert order == sorted(order)
    assert Cards.from_ranks(order) == FULL_DECK


@settings(max_examples=150, deadline=None)
@given(st.integers(min_value=0, max_value=(1 << 70)))
def test_rule_2_a_deal_is_a_permutation_of_the_54_cards(number: int) -> None:
    d = deal(number)
    total = d.hands[0] + d.hands[1] + d.hands[2] + d.kitty
    assert total == FULL_DECK
    assert d.first_bidder in (0, 1, 2)


@settings(max_examples=50, deadline=None)
@given(st.integers(min_value=0, max_value=(1 << 40)))
def test_rule_2_same_number_same_deal(number: int) -> None:
    assert deal(number) == deal(number)


def test_rule_2_deal_number_fixes_the_first_bidder_and_all_seats_occur() -> None:
    firsts = {deal(n).first_bidder for n in range(60)}
    assert firsts == {0, 1, 2}
    hands = {deal(n).hands for n in range(60)}
    assert len(hands) == 60


@pytest.mark.parametrize("bad", [-1, -2147483648])
def test_rule_2_negative_deal_number_is_an_error(bad: int) -> None:
    with pytest.raises(ValueError, match=rf"non-negative.*{bad}"):
        deal(bad)


@pytest.mark.parametrize("bad", [1.5, "3", True])
def test_rule_2_non_integer_deal_number_is_an_error(bad: object) -> None:
    with pytest.raises(ValueError, match="non-negative integer"):
        deal(bad)  # type: ignore[arg-type]


def test_rule_2_deal_is_frozen() -> None:
    d = deal(3)
    assert isinstance(d, Deal)
    with pytest.raises(dataclasses.FrozenInstanceError):
        d.number = 4  # type: ignore[misc]


def test_rule_2_rules_that_do_not_cut_the_deck_are_rejected() -> None:
    with pytest.raises(ValueError, match="54-card deck"):
        deal(1, Rules(name="odd", hand_size=16))
    assert deal(1, STANDARD) == deal(1)
