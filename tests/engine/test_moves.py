"""RULES §6 legal moves for tutor/engine/moves.py, checked against the brute-force constructor."""

from __future__ import annotations

from collections import Counter

from tests.engine.ddz_reference import constructions, reference_follow_moves, reference_lead_moves
from hypothesis import given, settings
from hypothesis import strategies as st

from tutor.engine.cards import DECK_COUNTS, Cards, pack, unpack
from tutor.engine.combos import Combo, Kind, readings
from tutor.engine.moves import follow_moves_packed, lead_moves_packed, legal_moves

DECK = [rank for rank, n in enumerate(DECK_COUNTS) for _ in range(n)]


def counts_from_cards(indexes: list[int]) -> tuple[int, ...]:
    counts = [0] * 15
    for i in indexes:
        counts[DECK[i]] += 1
    return tuple(counts)


#: Hands as sets of deck positions (shrinks well), up to 20 cards.
hands = st.lists(st.integers(0, 53), unique=True, min_size=1, max_size=20).map(counts_from_cards)


@st.composite
def rich_hands(draw: st.DrawFn) -> tuple[int, ...]:
    """Hands with many trios and fours, where airplanes and four + 2 live.

    The size is drawn once and every step adds cards of a rank not yet full, so a hand takes at most 20 steps.
    (It used to draw the size again at each step and any rank, full ones included: its smallest input never ended,
    and Hypothesis spent ~7 s CPU of this file's 8 on draws it threw away as too large; docs/testing.md, round 14.)
    """
    counts = [0] * 15
    size = 0
    target = draw(st.integers(6, 20))
    while size < target:
        rank = draw(st.sampled_from([r for r in range(15) if counts[r] < DECK_COUNTS[r]]))
        add = min(DECK_COUNTS[rank] - counts[rank], draw(st.sampled_from([1, 3, 3, 4])), target - size)
        counts[rank] += add
        size += add
    return tuple(counts)


def as_tuples(moves: list[Combo]) -> list[tuple[tuple[int, ...], str, int, int]]:
    return [(unpack(m.cards), Kind(m.kind).label, m.length, m.main) for m in moves]


@settings(max_examples=300, deadline=None)
@given(st.one_of(hands, rich_hands()))
def test_rule_6_lead_moves_are_exactly_the_subsets_that_classify(hand: tuple[int, ...]) -> None:
    engine = as_tuples(lead_moves_packed(pack(hand)))
    assert len(engine) == len(set(engine)), "duplicate lead moves"
    assert set(engine) == reference_lead_moves(hand)


@settings(max_examples=300, deadline=None)
@given(st.one_of(hands, rich_hands()), st.one_of(hands, rich_hands()), st.randoms(use_true_random=False))
def test_rule_6_follow_moves_are_exactly_the_subsets_that_beat(
    hand: tuple[int, ...], other: tuple[int, ...], rng: object
) -> None:
    plays = sorted(constructions(other).items())
    cards, table_readings = rng.choice(plays)  # type: ignore[attr-defined]
    kind, length, main = rng.choice(sorted(table_readings))  # type: ignore[attr-defined]
    table = Combo(pack(cards), Kind.from_label(kind), length, main)
    engine = as_tuples(follow_moves_packed(pack(hand), table))
    assert len(engine) == len(set(engine)), "duplicate follow moves"
    assert set(engine) == reference_follow_moves(hand, (kind, length, main))


def test_rule_6_lead_moves_of_333444555666_carry_every_reading_kind() -> None:
    hand = Cards.parse("333444555666")
    whole = [m for m in legal_moves(hand) if m.cards == hand.packed]
    assert [(Kind(m.kind).label, m.length, m.main) for m in whole] == [
        ("airplane", 4, 3),
        ("airplane_singles", 3, 3),  # one move per (cards, kind, length): the highest main, 6
    ]


def test_rule_6_follow_takes_highest_beating_reading_in_moves() -> None:
    hand = Cards.parse("333444555666")
    table = Combo(Cards.parse("333444555789").packed, Kind.AIRPLANE_SINGLES, 3, 2)
    moves = [m for m in legal_moves(hand, table) if m.cards == hand.packed]
    assert moves == [Combo(hand.packed, Kind.AIRPLANE_SINGLES, 3, 3)]


def test_rule_6_follow_a_bomb_only_higher_bomb_or_rocket() -> None:
    hand = Cards.parse("33334444KKKKXD")
    table = readings(Cards.parse("5555"))[0]
    moves = legal_moves(hand, table)
    assert [m.text for m in moves] == ["KKKK", "XD"]


def test_rule_6_nothing_follows_the_rocket() -> None:
    assert legal_moves(Cards.parse("2222AAAAKKKK"), readings(Cards.parse("XD"))[0]) == []


def test_rule_6_bombs_and_rocket_follow_any_other_kind() -> None:
    table = readings(Cards.parse("3456789TJQKA"))[0]
    moves = legal_moves(Cards.parse("3333XD"), table)
    assert [(Kind(m.kind).label, m.text) for m in moves] == [("bomb", "3333"), ("rocket", "XD")]


def test_pass_is_never_a_move_and_empty_hand_has_none() -> None:
    assert lead_moves_packed(0) == []
    assert all(m.cards for m in lead_moves_packed(Cards.parse("3345XD").packed))


def test_legal_moves_are_sorted_and_stable() -> None:
    moves = legal_moves(Cards.parse("33344455XD"))
    keys = [(m.kind, m.length, m.main) for m in moves]
    assert keys == sorted(keys)
    assert Counter(Kind(m.kind).label for m in moves)["rocket"] == 1
