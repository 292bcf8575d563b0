"""RULES §1 (cards and notation) for tutor/engine/cards.py."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tutor.engine.cards import (
    DECK_COUNTS,
    FULL_DECK,
    Cards,
    InvalidCardsError,
    format_packed,
    pack,
    packed_contains,
    packed_size,
    parse_counts,
    parse_rank,
    unpack,
)

counts_strategy = st.tuples(*(st.integers(0, n) for n in DECK_COUNTS))


def test_rule_1_deck_has_54_cards_of_15_ranks() -> None:
    assert len(FULL_DECK) == 54
    assert FULL_DECK.counts == (4,) * 13 + (1, 1)


def test_rule_1_order_low_to_high() -> None:
    assert str(Cards.parse("DX2AKQJT98765 43")) == "3456789TJQKA2XD"
    assert Cards.parse("3").ranks() < Cards.parse("D").ranks()
    assert [parse_rank(c) for c in "3456789TJQKA2XD"] == list(range(15))


def test_rule_1_output_is_canonical_low_to_high() -> None:
    assert str(Cards.parse("2XD333")) == "3332XD"


def test_rule_1_input_accepts_10_for_ten() -> None:
    assert Cards.parse("10 J Q K A") == Cards.parse("TJQKA")
    assert str(Cards.parse("9,10,10")) == "9TT"


def test_rule_1_input_accepts_lower_case() -> None:
    assert Cards.parse("tjqka2xd") == Cards.parse("TJQKA2XD")


def test_rule_1_input_accepts_spaces_and_commas() -> None:
    assert Cards.parse("3, 3 ,4\t5") == Cards.parse("3345")


def test_rule_1_input_accepts_b_and_r_for_jokers() -> None:
    assert Cards.parse("BR") == Cards.parse("XD")
    assert Cards.parse("b r") == Cards.parse("XD")


def test_rule_1_suits_never_matter_hand_is_multiset() -> None:
    assert Cards.parse("3434") == Cards.parse("3344")
    assert hash(Cards.parse("3434")) == hash(Cards.parse("4433"))


@pytest.mark.parametrize("text, bad", [("33Z", "'Z'"), ("1", "'1'"), ("3?4", "'?'"), ("QQ0", "'0'"), ("K♠", "'♠'")])
def test_rule_1_bad_character_is_named(text: str, bad: str) -> None:
    with pytest.raises(InvalidCardsError) as caught:
        Cards.parse(text)
    assert bad in str(caught.value)
    assert repr(text) in str(caught.value)


def test_rule_1_bad_character_is_a_value_error() -> None:
    with pytest.raises(ValueError):
        Cards.parse("3Y")


def test_rule_1_non_ascii_letter_with_multi_character_upper_case_is_named() -> None:
    # "ǰ".upper() is "J" + a combining caron: still one clear error, never an IndexError.
    with pytest.raises(InvalidCardsError, match="ǰ"):
        Cards.parse("ǰ")


@pytest.mark.parametrize("text", ["33333", "XX", "DD", "22222"])
def test_rule_1_more_cards_of_a_rank_than_the_deck_holds_is_an_error(text: str) -> None:
    with pytest.raises(InvalidCardsError, match="too many"):
        Cards.parse(text)


def test_rule_1_counts_beyond_the_deck_are_refused_by_from_counts() -> None:
    with pytest.raises(InvalidCardsError):
        Cards.from_counts((0,) * 13 + (2, 0))


def test_packed_contains_detects_a_shortfall_in_any_rank() -> None:
    hand = Cards.parse("33345XD").packed
    assert packed_contains(hand, Cards.parse("335D").packed)
    assert not packed_contains(hand, Cards.parse("3333").packed)
    assert not packed_contains(hand, Cards.parse("46").packed)


#: Two decks (RULES §12.4): up to 8 of a rank and 2 of each joker, 4 jokers in all.
TWO_DECKS = (8,) * 13 + (2, 2)


def test_packed_contains_two_deck_counts_field_by_field() -> None:
    """Counts up to 8 in every field (issue 31: 8 in 8 was False while bit 3 was the guard), with
    neighbours at 0, 8 and the other counts so that a borrow into or out of a field would show."""
    for rank in (0, 6, 12, 13, 14):
        for neighbours in (0, 1, 8):
            for have in range(9):
                for want in range(9):
                    hand = [neighbours] * 15
                    hand[rank] = have
                    part = [0] * 15
                    part[rank] = want
                    assert packed_contains(pack(hand), pack(part)) == (want <= have), (rank, neighbours, have, want)
                    part = [min(neighbours, 8 - want)] * 15  # take from the neighbours as well
                    part[rank] = want
                    assert packed_contains(pack(hand), pack(part)) == (want <= have), (rank, neighbours, have, want)


@settings(max_examples=300)
@given(st.lists(st.integers(0, 8), min_size=15, max_size=15), st.lists(st.integers(0, 8), min_size=15, max_size=15))
def test_packed_contains_agrees_with_counting_on_two_deck_hands(hand: list[int], part: list[int]) -> None:
    hand = [min(n, most) for n, most in zip(hand, TWO_DECKS)]
    part = [min(n, most) for n, most in zip(part, TWO_DECKS)]
    want = all(p <= h for h, p in zip(hand, part))
    assert packed_contains(pack(hand), pack(part)) == want
    assert unpack(pack(hand)) == tuple(hand) and packed_size(pack(hand)) == sum(hand)


def test_subtraction_outside_the_hand_is_an_error() -> None:
    with pytest.raises(InvalidCardsError):
        Cards.parse("33") - Cards.parse("4")


@settings(max_examples=200, deadline=None)
@given(counts_strategy)
def test_rule_1_parse_format_round_trip(counts: tuple[int, ...]) -> None:
    cards = Cards.from_counts(counts)
    text = str(cards)
    assert Cards.parse(text) == cards
    assert parse_counts(text) == counts
    assert format_packed(pack(counts)) == text
    assert unpack(cards.packed) == counts
    assert packed_size(cards.packed) == len(cards) == len(text) == sum(counts)
    assert eval(repr(cards)) == cards  # noqa: S307 - repr shows how to rebuild it


@settings(max_examples=200, deadline=None)
@given(counts_strategy, st.randoms(use_true_random=False))
def test_rule_1_any_accepted_spelling_reads_the_same(counts: tuple[int, ...], rng: object) -> None:
    cards = Cards.from_counts(counts)
    spelled = []
    for ch in str(cards):
        choice = rng.choice(["plain", "lower", "alias"])  # type: ignore[attr-defined]
        if choice == "lower":
            ch = ch.lower()
        elif choice == "alias":
            ch = {"T": "10", "X": "B", "D": "R"}.get(ch, ch)
        spelled.append(ch)
    shuffled = list(spelled)
    rng.shuffle(shuffled)  # type: ignore[attr-defined]
    text = rng.choice([" ", ",", ", ", ""]).join(shuffled)  # type: ignore[attr-defined]
    assert Cards.parse(text) == cards
