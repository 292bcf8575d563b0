"""Legal moves (RULES §6): every play a hand can make, leading or following.

Speed matters here: the solver and the bots call this millions of times.  The
generator therefore works kind by kind on the packed hand (see
:mod:`tutor.engine.cards`) instead of trying every subset, looks chains up in
tables built once per rule set (indexed by the bit mask of ranks held ≥1, ≥2 or
≥3 times), and produces :class:`~tutor.engine.combos.Combo` tuples directly.

The contract (checked against :func:`tutor.engine.combos.readings` by property
tests):

* leading: one move per card set and reading kind/length, under the highest main;
* following: one move per card set that beats the table, under its highest
  beating reading;
* pass is not a move here (the game offers it separately); no duplicates.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations, combinations_with_replacement

from tutor.engine.cards import BIG_JOKER, BITS, NUM_RANKS, ONE, SMALL_JOKER, Cards
from tutor.engine.combos import Combo, Kind
from tutor.engine.rules import STANDARD, Rules

_SHIFTS = tuple(BITS * r for r in range(NUM_RANKS))
_NEW = tuple.__new__

SINGLE, PAIR, TRIO = Kind.SINGLE, Kind.PAIR, Kind.TRIO
TRIO_SINGLE, TRIO_PAIR = Kind.TRIO_SINGLE, Kind.TRIO_PAIR
STRAIGHT, PAIR_CHAIN, AIRPLANE = Kind.STRAIGHT, Kind.PAIR_CHAIN, Kind.AIRPLANE
AIRPLANE_SINGLES, AIRPLANE_PAIRS = Kind.AIRPLANE_SINGLES, Kind.AIRPLANE_PAIRS
FOUR_TWO_SINGLES, FOUR_TWO_PAIRS = Kind.FOUR_TWO_SINGLES, Kind.FOUR_TWO_PAIRS
BOMB, ROCKET = Kind.BOMB, Kind.ROCKET


def _combo(cards: int, kind: Kind, length: int, main: int) -> Combo:
    return _NEW(Combo, (cards, kind, length, main))


_SINGLES = tuple(_combo(ONE[r], SINGLE, 1, r) for r in range(NUM_RANKS))
_PAIRS = tuple(_combo(2 * ONE[r], PAIR, 1, r) for r in range(NUM_RANKS))
_TRIOS = tuple(_combo(3 * ONE[r], TRIO, 1, r) for r in range(NUM_RANKS))
_BOMBS = tuple(_combo(4 * ONE[r], BOMB, 1, r) for r in range(NUM_RANKS))
ROCKET_MOVE = _combo(ONE[SMALL_JOKER] + ONE[BIG_JOKER], ROCKET, 1, BIG_JOKER)


class _Tables:
    """Chain tables for one rule set: mask of chain ranks → list of chains."""

    def __init__(self, rules: Rules) -> None:
        top = rules.chain_top
        self.chain_ranks = top + 1
        size = 1 << self.chain_ranks
        self.straights: list[list[Combo]] = [[] for _ in range(size)]
        self.pair_chains: list[list[Combo]] = [[] for _ in range(size)]
        self.airplanes: list[list[Combo]] = [[] for _ in range(size)]
        #: mask of ranks with ≥3 → list of (packed trios, length, high, chain bit mask)
        self.plane_bodies: list[list[tuple[int, int, int, int]]] = [[] for _ in range(size)]
        runs = []
        for low in range(self.chain_ranks):
            for high in range(low, self.chain_ranks):
                bits = ((1 << (high + 1)) - 1) ^ ((1 << low) - 1)
                one = sum(ONE[r] for r in range(low, high + 1))
                runs.append((low, high, high - low + 1, bits, one))
        for mask in range(size):
            for low, high, length, bits, one in runs:
                if mask & bits != bits:
                    continue
                if length >= rules.min_straight:
                    self.straights[mask].append(_combo(one, STRAIGHT, length, high))
                if length >= rules.min_pair_chain:
                    self.pair_chains[mask].append(_combo(2 * one, PAIR_CHAIN, length, high))
                if length >= rules.min_airplane:
                    self.airplanes[mask].append(_combo(3 * one, AIRPLANE, length, high))
                    self.plane_bodies[mask].append((3 * one, length, high, bits))


@lru_cache(maxsize=8)
def _tables(rules: Rules) -> _Tables:
    return _Tables(rules)


def _wing_singles(counts: list[int], excluded_bits: int, how_many: int) -> list[int]:
    """Every multiset of ``how_many`` single wings (packed) from ``counts``,
    skipping the ranks in ``excluded_bits`` and never both jokers together."""
    pool = []
    for r in range(NUM_RANKS):
        n = counts[r]
        if n and not (excluded_bits >> r) & 1:
            pool.extend([r] * min(n, how_many))
    result = set()
    for pick in combinations(pool, how_many):
        if SMALL_JOKER in pick and BIG_JOKER in pick:
            continue
        result.add(sum(ONE[r] for r in pick))
    return sorted(result)


def _wing_pairs(pair_ranks: list[int], excluded_bits: int, how_many: int) -> list[int]:
    """Every set of ``how_many`` pair wings of different ranks (packed)."""
    pool = [r for r in pair_ranks if not (excluded_bits >> r) & 1]
    return [sum(2 * ONE[r] for r in pick) for pick in combinations(pool, how_many)]


def _analyse(hand: int) -> tuple[list[int], list[int], list[int], list[int], list[int], int, int, int]:
    counts = [(hand >> s) & 0xF for s in _SHIFTS]
    ranks1 = [r for r in range(NUM_RANKS) if counts[r]]
    ranks2 = [r for r in ranks1 if counts[r] >= 2]
    ranks3 = [r for r in ranks2 if counts[r] >= 3]
    ranks4 = [r for r in ranks3 if counts[r] == 4]
    mask1 = mask2 = mask3 = 0
    for r in ranks1:
        if r < 12:
            mask1 |= 1 << r
    for r in ranks2:
        if r < 12:
            mask2 |= 1 << r
    for r in ranks3:
        if r < 12:
            mask3 |= 1 << r
    return counts, ranks1, ranks2, ranks3, ranks4, mask1, mask2, mask3


def _kind_moves(
    kind: Kind,
    length: int,
    above: int,
    analysed: tuple[list[int], list[int], list[int], list[int], list[int], int, int, int],
    tables: _Tables,
) -> list[Combo]:
    """Moves of one kind (and chain length, for chains; 0 = any) with main > above."""
    counts, ranks1, ranks2, ranks3, ranks4, mask1, mask2, mask3 = analysed
    top = tables.chain_ranks - 1
    if kind == SINGLE:
        return [_SINGLES[r] for r in ranks1 if r > above]
    if kind == PAIR:
        return [_PAIRS[r] for r in ranks2 if r > above]
    if kind == TRIO:
        return [_TRIOS[r] for r in ranks3 if r > above]
    if kind == TRIO_SINGLE:
        return [
            _NEW(Combo, (3 * ONE[t] + ONE[w], TRIO_SINGLE, 1, t))
            for t in ranks3
            if t > above
            for w in ranks1
            if w != t
        ]
    if kind == TRIO_PAIR:
        return [
            _NEW(Combo, (3 * ONE[t] + 2 * ONE[w], TRIO_PAIR, 1, t))
            for t in ranks3
            if t > above
            for w in ranks2
            if w != t
        ]
    if kind == BOMB:
        return [_BOMBS[r] for r in ranks4 if r > above]
    if kind == ROCKET:
        return [ROCKET_MOVE] if counts[SMALL_JOKER] and counts[BIG_JOKER] else []
    if kind in (STRAIGHT, PAIR_CHAIN, AIRPLANE):
        table = (
            tables.straights[mask1 & ((1 << (top + 1)) - 1)]
            if kind == STRAIGHT
            else tables.pair_chains[mask2 & ((1 << (top + 1)) - 1)]
            if kind == PAIR_CHAIN
            else tables.airplanes[mask3 & ((1 << (top + 1)) - 1)]
        )
        if not length and above < 0:
            return list(table)
        return [m for m in table if (not length or m[2] == length) and m[3] > above]
    if kind == AIRPLANE_SINGLES:
        best: dict[int, Combo] = {}
        for body, n, high, bits in tables.plane_bodies[mask3 & ((1 << (top + 1)) - 1)]:
            if length and n != length:
                continue
            for wings in _wing_singles(counts, bits, n):
                # Later chains have higher tops: overwriting keeps the highest main.
                best[body + wings] = _NEW(Combo, (body + wings, AIRPLANE_SINGLES, n, high))
        return [m for m in best.values() if m[3] > above]
    if kind == AIRPLANE_PAIRS:
        pair_ranks = [r for r in ranks2 if r < SMALL_JOKER]
        return [
            _NEW(Combo, (body + wings, AIRPLANE_PAIRS, n, high))
            for body, n, high, bits in tables.plane_bodies[mask3 & ((1 << (top + 1)) - 1)]
            if (not length or n == length) and high > above
            for wings in _wing_pairs(pair_ranks, bits, n)
        ]
    if kind == FOUR_TWO_SINGLES:
        return [
            _NEW(Combo, (4 * ONE[f] + wings, FOUR_TWO_SINGLES, 1, f))
            for f in ranks4
            if f > above
            for wings in _wing_singles(counts, 1 << f, 2)
        ]
    if kind == FOUR_TWO_PAIRS:
        pair_ranks = [r for r in ranks2 if r < SMALL_JOKER]
        return [
            _NEW(Combo, (4 * ONE[f] + wings, FOUR_TWO_PAIRS, 1, f))
            for f in ranks4
            if f > above
            for wings in _wing_pairs(pair_ranks, 1 << f, 2)
        ]
    raise ValueError(f"unknown kind {kind!r}")


_LEAD_ORDER = tuple(Kind)


def lead_moves_packed(hand: int, rules: Rules = STANDARD) -> list[Combo]:
    """Every move that can open a trick, for a packed hand.

    Hot path of the solver, the bots and ``ddz bench movegen``; the lists are
    unrolled by hand because Python function calls are what costs here.
    """
    tables = _tables(rules)
    counts = [(hand >> s) & 0xF for s in _SHIFTS]
    ranks1 = [r for r in range(NUM_RANKS) if counts[r]]
    moves = [_SINGLES[r] for r in ranks1]
    ranks2 = [r for r in ranks1 if counts[r] >= 2]
    if ranks2:
        moves += [_PAIRS[r] for r in ranks2]
        ranks3 = [r for r in ranks2 if counts[r] >= 3]
        mask2 = 0
        for r in ranks2:
            if r < tables.chain_ranks:
                mask2 |= 1 << r
        moves += tables.pair_chains[mask2]
        if ranks3:
            moves += [_TRIOS[r] for r in ranks3]
            moves += [
                _NEW(Combo, (3 * ONE[t] + ONE[w], TRIO_SINGLE, 1, t)) for t in ranks3 for w in ranks1 if w != t
            ]
            moves += [
                _NEW(Combo, (3 * ONE[t] + 2 * ONE[w], TRIO_PAIR, 1, t)) for t in ranks3 for w in ranks2 if w != t
            ]
            mask3 = 0
            for r in ranks3:
                if r < tables.chain_ranks:
                    mask3 |= 1 << r
            if tables.plane_bodies[mask3]:
                analysed = (counts, ranks1, ranks2, ranks3, [], 0, mask2, mask3)
                moves += tables.airplanes[mask3]
                moves += _kind_moves(AIRPLANE_SINGLES, 0, -1, analysed, tables)
                moves += _kind_moves(AIRPLANE_PAIRS, 0, -1, analysed, tables)
            ranks4 = [r for r in ranks3 if counts[r] == 4]
            if ranks4:
                analysed = (counts, ranks1, ranks2, ranks3, ranks4, 0, mask2, mask3)
                moves += [_BOMBS[r] for r in ranks4]
                moves += _kind_moves(FOUR_TWO_SINGLES, 0, -1, analysed, tables)
                moves += _kind_moves(FOUR_TWO_PAIRS, 0, -1, analysed, tables)
    mask1 = 0
    for r in ranks1:
        if r < tables.chain_ranks:
            mask1 |= 1 << r
    moves += tables.straights[mask1]
    if counts[SMALL_JOKER] and counts[BIG_JOKER]:
        moves.append(ROCKET_MOVE)
    return moves


def follow_moves_packed(hand: int, table: Combo, rules: Rules = STANDARD) -> list[Combo]:
    """Every move that beats ``table`` (pass not included), for a packed hand."""
    kind = table[1]
    if kind == ROCKET:
        return []
    tables = _tables(rules)
    analysed = _analyse(hand)
    counts = analysed[0]
    rocket = [ROCKET_MOVE] if counts[SMALL_JOKER] and counts[BIG_JOKER] else []
    if kind == BOMB:
        return [_BOMBS[r] for r in analysed[4] if r > table[3]] + rocket
    moves = _kind_moves(kind, table[2] if Kind(kind).is_chain else 0, table[3], analysed, tables)
    return moves + [_BOMBS[r] for r in analysed[4]] + rocket


def legal_moves(hand: Cards | int, table: Combo | None = None, rules: Rules = STANDARD) -> list[Combo]:
    """Every legal move for ``hand``: leading when ``table`` is None, else following.

    Sorted by kind, length, main and cards so that listings are stable.
    """
    packed = hand.packed if isinstance(hand, Cards) else hand
    moves = lead_moves_packed(packed, rules) if table is None else follow_moves_packed(packed, table, rules)
    return sorted(moves, key=_sort_key)


def _sort_key(move: Combo) -> tuple[int, int, int, tuple[int, ...]]:
    cards = move[0]
    return (move[1], move[2], move[3], tuple((cards >> s) & 0xF for s in reversed(_SHIFTS)))
