"""RULES §12.4 legal moves with two decks (tutor/engine/multideck.py), checked against the definition.

Every sub-multiset of a hand is classified by :func:`readings` under the four-player rules; the
generator must give exactly one move per card set and reading kind/length (leading) and one per card
set that beats the table under its highest beating reading (following).
"""

from __future__ import annotations

import random
from itertools import product

import pytest

from tutor.engine.cards import BIG_JOKER, NUM_RANKS, SMALL_JOKER, pack, unpack
from tutor.engine.combos import Combo, Kind, beats, readings
from tutor.engine.moves import legal_moves
from tutor.engine.rules import FOUR

Move = tuple[tuple[int, ...], int, int, int]


def _hand(rng: random.Random, size: int) -> tuple[int, ...]:
    """A two-deck hand crowded into few ranks (where long bombs, airplanes and joker pairs live)."""
    counts = [0] * NUM_RANKS
    ranks = rng.sample(range(NUM_RANKS), 6)
    while sum(counts) < size:
        r = rng.choice(ranks)
        if counts[r] < FOUR.deck[r]:
            counts[r] += 1
    return tuple(counts)


def _subsets(counts: tuple[int, ...]) -> list[tuple[int, ...]]:
    return [c for c in product(*(range(n + 1) for n in counts)) if any(c)]


def _as_tuples(moves: list[Combo]) -> set[Move]:
    return {(unpack(m.cards), int(m.kind), m.length, m.main) for m in moves}


def _reference_lead(counts: tuple[int, ...]) -> set[Move]:
    found: dict[tuple[tuple[int, ...], int, int], int] = {}
    for sub in _subsets(counts):
        for r in readings(pack(sub), FOUR):
            key = (sub, int(r.kind), r.length)
            found[key] = max(found.get(key, -1), r.main)
    return {(c, k, n, main) for (c, k, n), main in found.items()}


def _reference_follow(counts: tuple[int, ...], table: Combo) -> set[Move]:
    out = set()
    for sub in _subsets(counts):
        beating = [r for r in readings(pack(sub), FOUR) if beats(r, table, FOUR)]
        if beating:
            best = max(beating, key=lambda r: r.strength)
            out.add((sub, int(best.kind), best.length, best.main))
    return out


@pytest.mark.parametrize("seed", range(6))
def test_rules_12_4_lead_moves_are_exactly_the_card_sets_that_read(seed: int) -> None:
    counts = _hand(random.Random(seed), 13)
    moves = legal_moves(pack(counts), None, FOUR)
    assert len(moves) == len(_as_tuples(moves)), "duplicate lead moves"
    assert _as_tuples(moves) == _reference_lead(counts)


@pytest.mark.parametrize("seed", range(6))
def test_rules_12_4_follow_moves_are_exactly_the_card_sets_that_beat(seed: int) -> None:
    rng = random.Random(100 + seed)
    counts, other = _hand(rng, 13), _hand(rng, 12)
    table = rng.choice(legal_moves(pack(other), None, FOUR))
    moves = legal_moves(pack(counts), table, FOUR)
    assert len(moves) == len(_as_tuples(moves)), "duplicate follow moves"
    assert _as_tuples(moves) == _reference_follow(counts, table)


def _one(cards: str, kind: Kind) -> Combo:
    from tutor.engine.cards import Cards

    (found,) = [r for r in readings(Cards.parse(cards, FOUR.deck), FOUR) if r.kind == kind]
    return found


def test_rules_12_4_bombs_of_four_to_eight_and_the_longer_one_follows() -> None:
    hand = pack([8] + [0] * 14)  # eight threes
    bombs = [m for m in legal_moves(hand, None, FOUR) if m.kind == Kind.BOMB]
    assert sorted(len(unpack(m.cards)) and sum(unpack(m.cards)) for m in bombs) == [4, 5, 6, 7, 8]
    seven_twos = _one("2222222", Kind.BOMB)
    follow = legal_moves(hand, seven_twos, FOUR)
    assert [sum(unpack(m.cards)) for m in follow] == [8]  # only the eight threes beat seven twos


def test_rules_12_4_the_four_jokers_are_the_only_rocket_and_follow_an_eight_card_bomb() -> None:
    jokers = pack([0] * SMALL_JOKER + [2, 2])
    assert [m.kind for m in legal_moves(jokers, _one("22222222", Kind.BOMB), FOUR)] == [Kind.ROCKET]
    lead = legal_moves(jokers, None, FOUR)
    # XX and DD are pairs (two jokers of one colour); X + D is no rocket and no pair
    assert {(m.kind, sum(unpack(m.cards))) for m in lead} == {
        (Kind.SINGLE, 1), (Kind.PAIR, 2), (Kind.ROCKET, 4)
    }
    assert len([m for m in lead if m.kind == Kind.PAIR]) == 2
    assert BIG_JOKER == SMALL_JOKER + 1


@pytest.mark.parametrize("seed", range(8))
def test_may_beat_never_says_no_when_a_small_enough_answer_exists(seed: int) -> None:
    from tutor.engine.multideck import may_beat

    rng = random.Random(200 + seed)
    counts, other = _hand(rng, 13), _hand(rng, 12)
    for table in rng.sample(legal_moves(pack(other), None, FOUR), 12):
        for max_size in (2, 5, 13):
            for bombs in (True, False):
                answers = [
                    m for m in legal_moves(pack(counts), table, FOUR)
                    if sum(unpack(m.cards)) <= max_size and (bombs or not m.is_bomb)
                ]
                if answers:
                    assert may_beat(pack(counts), table, max_size, bombs, FOUR), (table, max_size, bombs)


def test_may_beat_counts_the_wing_cards_exactly() -> None:
    from tutor.engine.cards import Cards
    from tutor.engine.multideck import may_beat

    table = _one("3336", Kind.TRIO_SINGLE)
    assert may_beat(Cards.parse("4445", FOUR.deck).packed, table, 4, False, FOUR)  # 444 + 5: just enough
    assert not may_beat(Cards.parse("444", FOUR.deck).packed, table, 4, False, FOUR)  # no wing left
    assert not may_beat(Cards.parse("4445", FOUR.deck).packed, table, 3, False, FOUR)  # too few cards held
