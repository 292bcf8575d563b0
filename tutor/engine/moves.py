"""Legal moves (RULES §6): every play a hand can make, leading or following.

Speed matters here: the solver and the bots call this millions of times.  The
generator therefore works kind by kind on the packed hand (see
:mod:`tutor.engine.cards`) instead of trying every subset, looks chains up in
tables built per rule set, entry by entry on first use (indexed by the bit mask of ranks held ≥1, ≥2 or
≥3 times), and produces :class:`~tutor.engine.combos.Combo` tuples directly.

The contract (checked against :func:`tutor.engine.combos.readings` by property
tests):

* leading: one move per card set and reading kind/length, under the highest main;
* following: one move per card set that beats the table, under its highest
  beating reading (under a wild rank, RULES §12.3: one per card set and
  kind/length that beats — a set may beat as a trio + 1 and as a soft bomb,
  and the player chooses);
* pass is not a move here (the game offers it separately); no duplicates.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from itertools import combinations
from typing import TypeVar

from tutor.engine import multideck
from tutor.engine.cards import BIG_JOKER, BITS, NUM_RANKS, ONE, SMALL_JOKER, Cards
from tutor.engine.combos import Combo, Kind, beats
from tutor.engine.rules import STANDARD, Rules, UnsupportedRulesError
from tutor.engine.wild_moves import add_wild_plays, move_key
from tutor.engine.wings import wing_singles as _wing_singles

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
_BOTH_JOKERS = ONE[SMALL_JOKER] + ONE[BIG_JOKER]
#: Bit 0 of every rank field: ``(hand >> k) & _LOW_BITS`` picks one bit of each count.
_LOW_BITS = sum(ONE)


_V = TypeVar("_V")


class _Lazy(dict[int, _V]):
    """A table filled key by key on first use: ``table[key]`` builds a missing entry once, then keeps it.

    A lookup that hits is a plain dict lookup (``__missing__`` runs only on a miss), so the
    generator's hot path costs what it did with eagerly built tables; a process that asks for
    a few hands (``ddz solve``, one hint) builds a few entries instead of all 32,768 masks
    (about 0.7 s of CPU at start-up, issue 33).
    """

    __slots__ = ("_build",)

    def __init__(self, build: Callable[[int], _V]) -> None:
        super().__init__()
        self._build = build

    def __missing__(self, key: int) -> _V:
        value = self[key] = self._build(key)
        return value


class _Tables:
    """Chain and lead tables for one rule set, each entry built on first use (:class:`_Lazy`).

    Everything here depends only on the rules, never on a hand.  Chain tables are keyed by
    the bit mask of chain ranks held ≥1, ≥2 or ≥3 times; the tables of
    :func:`lead_moves_packed` by *nibble masks*: bit ``4r`` set for each rank ``r`` held at
    least once (or twice, three times, four times), computed from the packed hand in a few
    integer operations, so no rank counts need to be unpacked in Python.
    ``tests/engine/test_move_tables.py`` checks every entry against an eager build.
    """

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.chain_ranks = rules.chain_top + 1
        self._chain_bits = (1 << self.chain_ranks) - 1
        #: the runs of chain ranks from each rank, short to long:
        #: (length, high, bit mask of its ranks, one card of each of its ranks packed)
        self._runs_from: list[list[tuple[int, int, int, int]]] = [
            [(high - low + 1, high, ((1 << (high + 1)) - 1) ^ ((1 << low) - 1), sum(ONE[low : high + 1]))
             for high in range(low, self.chain_ranks)]
            for low in range(self.chain_ranks)
        ]
        #: mask of chain ranks held (≥1, ≥2, ≥3) → the chains it holds
        self.straights: _Lazy[list[Combo]] = _Lazy(self._straights)
        self.pair_chains: _Lazy[list[Combo]] = _Lazy(self._pair_chains)
        self.airplanes: _Lazy[list[Combo]] = _Lazy(self._airplanes)
        #: mask of ranks with ≥3 → list of (packed trios, length, high, chain bit mask)
        self.plane_bodies: _Lazy[list[tuple[int, int, int, int]]] = _Lazy(self._plane_bodies)
        #: nibble mask → the ranks it marks, low to high
        self.ranks: _Lazy[tuple[int, ...]] = _Lazy(self._ranks)
        #: nibble mask of ranks held ≥1 → singles + straights (+ the rocket)
        self.lead1: _Lazy[list[Combo]] = _Lazy(self._lead1)
        #: nibble masks over the 13 ranks that can be held twice or more → pairs + pair chains;
        #: trios + airplanes; the airplanes' bodies (packed trios, length, high, nibble mask of the chain)
        self.lead2: _Lazy[list[Combo]] = _Lazy(self._lead2)
        self.lead3: _Lazy[list[Combo]] = _Lazy(self._lead3)
        self.bodies: _Lazy[list[tuple[int, int, int, int]]] = _Lazy(self._bodies)
        #: [t][w] → trio t + single w;  [t][w] → trio t + pair w
        self.trio_single: _Lazy[list[Combo]] = _Lazy(
            lambda t: [_combo(3 * ONE[t] + ONE[w], TRIO_SINGLE, 1, t) for w in _RANK_RANGE])
        self.trio_pair: _Lazy[list[Combo]] = _Lazy(
            lambda t: [_combo(3 * ONE[t] + 2 * ONE[w], TRIO_PAIR, 1, t) for w in _RANK_RANGE])
        #: [f][a][b] → four f + singles a, b (a ≤ b);  four f + pairs a, b (a < b)
        self.four_singles: _Lazy[list[list[Combo]]] = _Lazy(
            lambda f: [[_combo(4 * ONE[f] + ONE[a] + ONE[b], FOUR_TWO_SINGLES, 1, f) for b in _RANK_RANGE]
                       for a in _RANK_RANGE])
        self.four_pairs: _Lazy[list[list[Combo]]] = _Lazy(
            lambda f: [[_combo(4 * ONE[f] + 2 * (ONE[a] + ONE[b]), FOUR_TWO_PAIRS, 1, f) for b in _RANK_RANGE]
                       for a in _RANK_RANGE])

    def _runs(self, mask: int, least: int) -> list[tuple[int, int, int, int]]:
        """The runs of at least ``least`` ranks that a mask of chain ranks holds, by lowest rank
        then length (the order of the lists: moves are listed low to high)."""
        runs = []
        for low in range(self.chain_ranks):
            if (mask >> low) & 1:
                for run in self._runs_from[low]:
                    if mask & run[2] != run[2]:
                        break  # the longer runs from this rank hold this one's ranks too
                    if run[0] >= least:
                        runs.append(run)
        return runs

    def _straights(self, mask: int) -> list[Combo]:
        return [_combo(one, STRAIGHT, n, high) for n, high, _, one in self._runs(mask, self.rules.min_straight)]

    def _pair_chains(self, mask: int) -> list[Combo]:
        return [_combo(2 * one, PAIR_CHAIN, n, high)
                for n, high, _, one in self._runs(mask, self.rules.min_pair_chain)]

    def _airplanes(self, mask: int) -> list[Combo]:
        return [_combo(3 * one, AIRPLANE, n, high) for n, high, _, one in self._runs(mask, self.rules.min_airplane)]

    def _plane_bodies(self, mask: int) -> list[tuple[int, int, int, int]]:
        return [(3 * one, n, high, bits) for n, high, bits, one in self._runs(mask, self.rules.min_airplane)]

    def _ranks(self, nibbles: int) -> tuple[int, ...]:
        """The ranks a nibble mask marks, low to high: the lowest, then those of the smaller mask."""
        if not nibbles:
            return ()
        lowest = nibbles & -nibbles
        return ((lowest.bit_length() - 1) // BITS, *self.ranks[nibbles ^ lowest])

    def _lead1(self, nibbles: int) -> list[Combo]:
        mask = _squeeze(nibbles)
        moves = [_SINGLES[r] for r in self.ranks[nibbles]] + self.straights[mask & self._chain_bits]
        if mask & _JOKER_BITS == _JOKER_BITS:
            moves.append(ROCKET_MOVE)
        return moves

    def _lead2(self, nibbles: int) -> list[Combo]:
        _no_jokers(nibbles)
        return [_PAIRS[r] for r in self.ranks[nibbles]] + self.pair_chains[_squeeze(nibbles) & self._chain_bits]

    def _lead3(self, nibbles: int) -> list[Combo]:
        _no_jokers(nibbles)
        return [_TRIOS[r] for r in self.ranks[nibbles]] + self.airplanes[_squeeze(nibbles) & self._chain_bits]

    def _bodies(self, nibbles: int) -> list[tuple[int, int, int, int]]:
        _no_jokers(nibbles)
        # the trios' nibble mask is a third of the trios packed
        return [(body, n, high, body // 3) for body, n, high, _ in self.plane_bodies[_squeeze(nibbles) & self._chain_bits]]


_RANK_RANGE = range(NUM_RANKS)
_JOKER_BITS = (1 << SMALL_JOKER) | (1 << BIG_JOKER)


def _no_jokers(nibbles: int) -> None:
    """Ranks held twice or more never include a joker (one deck): no entry for such a mask."""
    if nibbles >> (BITS * SMALL_JOKER):
        raise KeyError(nibbles)


def _squeeze(nibbles: int) -> int:
    """The bit mask of the ranks a nibble mask marks (bit ``r`` for bit ``4r``), in four steps."""
    x = (nibbles | nibbles >> 3) & 0x0303030303030303
    x = (x | x >> 6) & 0x000F000F000F000F
    x = (x | x >> 12) & 0x000000FF000000FF
    return (x | x >> 24) & 0xFFFF


@lru_cache(maxsize=8)
def _tables(rules: Rules) -> _Tables:
    if rules.wild_rank >= 0:  # the natural cards of the wildcard game read as in the standard game
        return _tables(_natural(rules))
    # The auction variants play the standard combinations: one set of tables serves them all.
    if rules is not STANDARD and rules.plays_like(STANDARD):
        return _STANDARD_TABLES or _standard_tables()
    if rules.decks != 1:  # the callers send many-deck rules to tutor.engine.multideck
        raise UnsupportedRulesError(f"the move tables serve one deck, not the {rules.decks} of {rules.name!r}")
    return _Tables(rules)


def _wing_pairs(pair_ranks: list[int], excluded_bits: int, how_many: int) -> list[int]:
    """Every set of ``how_many`` pair wings of different ranks (packed)."""
    pool = [r for r in pair_ranks if not (excluded_bits >> r) & 1]
    return [sum(2 * ONE[r] for r in pick) for pick in combinations(pool, how_many)]


def _analyse(hand: int, chain_top: int) -> tuple[list[int], list[int], list[int], list[int], list[int], int, int, int]:
    """Rank counts, the ranks held ≥1..4 times, and bit masks of the chain ranks (up to ``chain_top``) held ≥1..3."""
    counts = [(hand >> s) & 0xF for s in _SHIFTS]
    ranks1 = [r for r in range(NUM_RANKS) if counts[r]]
    ranks2 = [r for r in ranks1 if counts[r] >= 2]
    ranks3 = [r for r in ranks2 if counts[r] >= 3]
    ranks4 = [r for r in ranks3 if counts[r] == 4]
    mask1 = mask2 = mask3 = 0
    for r in ranks1:
        if r <= chain_top:
            mask1 |= 1 << r
    for r in ranks2:
        if r <= chain_top:
            mask2 |= 1 << r
    for r in ranks3:
        if r <= chain_top:
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

    Hot path of the solver, the bots and ``ddz bench movegen``.  Counts are
    never unpacked: because a count is at most 4 (binary ``100``), the ranks held
    at least 1, 2, 3 or 4 times are bit tricks on the packed integer
    (``≥2`` ⇔ bit 1 or bit 2; ``≥3`` ⇔ bit 2, or bits 0 and 1), and those
    *nibble masks* index tables of ready-made moves.  Only the moves with wings
    are assembled per hand, from precomputed :class:`Combo` objects where the
    wings are one or two cards.
    """
    if rules is STANDARD:
        tables = _STANDARD_TABLES or _standard_tables()
    elif rules.decks != 1:
        return multideck.lead_moves(hand, rules)
    else:
        if rules.wild_rank >= 0 and (hand >> (BITS * rules.wild_rank)) & 0xF:
            return _wild_lead(hand, rules)
        tables = _tables(rules)
    held1 = (hand | (hand >> 1) | (hand >> 2)) & _LOW_BITS
    moves = tables.lead1[held1][:]
    held2 = ((hand >> 1) | (hand >> 2)) & _LOW_BITS
    if not held2:
        return moves
    moves += tables.lead2[held2]
    held3 = ((hand >> 2) | (hand & (hand >> 1))) & _LOW_BITS
    if not held3:
        return moves
    moves += tables.lead3[held3]
    ranks = tables.ranks
    trio_single = tables.trio_single
    trio_pair = tables.trio_pair
    for t in ranks[held3]:
        moves += map(trio_single[t].__getitem__, ranks[held1 & ~ONE[t]])
        moves += map(trio_pair[t].__getitem__, ranks[held2 & ~ONE[t]])
    bodies = tables.bodies[held3]
    if bodies:
        moves += _airplanes_with_wings(hand, bodies, held1, held2, ranks)
    held4 = (hand >> 2) & _LOW_BITS
    if held4:
        jokers = held1 & _BOTH_JOKERS == _BOTH_JOKERS
        for f in ranks[held4]:
            moves.append(_BOMBS[f])
            row = tables.four_singles[f]
            # two different singles: (a, b) with a < b, never X with D
            others = ranks[held1 & ~ONE[f]]
            last = len(others) - 1 - jokers
            for i in range(last):
                moves += map(row[others[i]].__getitem__, others[i + 1 :])
            # two singles of one rank
            moves += [row[a][a] for a in ranks[held2 & ~ONE[f]]]
            row = tables.four_pairs[f]
            pairs = ranks[held2 & ~ONE[f]]
            for i in range(len(pairs) - 1):
                moves += map(row[pairs[i]].__getitem__, pairs[i + 1 :])
    return moves


def _airplanes_with_wings(
    hand: int,
    bodies: list[tuple[int, int, int, int]],
    held1: int,
    held2: int,
    ranks: dict[int, tuple[int, ...]],
) -> list[Combo]:
    """Airplane + singles and airplane + pairs for every chain of trios in the hand."""
    moves: list[Combo] = []
    longer: dict[int, Combo] = {}
    for body, n, high, chain in bodies:
        pair_pool = ranks[held2 & ~chain]
        if len(pair_pool) >= n:
            moves += [
                _NEW(Combo, (body + 2 * sum(ONE[r] for r in pick), AIRPLANE_PAIRS, n, high))
                for pick in combinations(pair_pool, n)
            ]
        if n == 2:
            # Two single wings: no other chain of two trios can give the same cards.
            others = ranks[held1 & ~chain]
            for i, a in enumerate(others):
                one_a = body + ONE[a]
                moves += [
                    _NEW(Combo, (one_a + ONE[b], AIRPLANE_SINGLES, 2, high))
                    for b in others[i + 1 :]
                    if not (a == SMALL_JOKER and b == BIG_JOKER)
                ]
            moves += [_NEW(Combo, (body + 2 * ONE[a], AIRPLANE_SINGLES, 2, high)) for a in ranks[held2 & ~chain]]
        else:
            # Three or more wings can form another trio of an equally long chain
            # (333444555 + 666 = 444555666 + 333): keep the highest main per card set.
            counts = [(hand >> s) & 0xF for s in _SHIFTS]
            excluded = 0
            for r in ranks[chain]:
                excluded |= 1 << r
            for wings in _wing_singles(counts, excluded, n):
                longer[body + wings] = _NEW(Combo, (body + wings, AIRPLANE_SINGLES, n, high))
    if longer:
        moves += longer.values()
    return moves


#: The standard rules' tables, made on first use (their entries on theirs): importing the
#: engine stays cheap for the commands that never generate a move.
_STANDARD_TABLES: _Tables | None = None


def _standard_tables() -> _Tables:
    global _STANDARD_TABLES
    _STANDARD_TABLES = _tables(STANDARD)
    return _STANDARD_TABLES


def follow_moves_packed(hand: int, table: Combo, rules: Rules = STANDARD) -> list[Combo]:
    """Every move that beats ``table`` (pass not included), for a packed hand."""
    kind = table[1]
    if kind == ROCKET:
        return []
    if rules.decks != 1:
        return multideck.follow_moves(hand, table, rules)
    if rules.wild_rank >= 0 and ((hand >> (BITS * rules.wild_rank)) & 0xF or table.soft):
        return _wild_follow(hand, table, rules)
    tables = _tables(rules)
    analysed = _analyse(hand, rules.chain_top)
    counts = analysed[0]
    rocket = [ROCKET_MOVE] if counts[SMALL_JOKER] and counts[BIG_JOKER] else []
    if kind == BOMB:
        return [_BOMBS[r] for r in analysed[4] if r > table[3]] + rocket
    moves = _kind_moves(kind, table[2] if Kind(kind).is_chain else 0, table[3], analysed, tables)
    return moves + [_BOMBS[r] for r in analysed[4]] + rocket


@lru_cache(maxsize=32)
def _natural(rules: Rules) -> Rules:
    return rules.natural()


def _wild_lead(hand: int, rules: Rules) -> list[Combo]:
    """Leading under a wild rank (RULES §12.3): the natural moves and the plays with stand-ins,
    one per card set and kind/length under the highest main (the natural reading on a tie)."""
    best = {(m[0] << 8) | (m[1] << 4) | m[2]: m for m in lead_moves_packed(hand, _natural(rules))}
    add_wild_plays(best, hand, rules)
    return list(best.values())


def _wild_follow(hand: int, table: Combo, rules: Rules) -> list[Combo]:
    """Following under a wild rank (RULES §12.3): one move per card set and kind/length that beats,
    under its highest main — the player chooses between the readings (``7779`` on a trio + 1 is a
    trio + 1 or a soft bomb); a hard bomb beats a soft one of its rank."""
    natural = _natural(rules)
    best: dict[int, Combo] = {
        move_key(m): m for m in follow_moves_packed(hand, table, natural) if beats(m, table, rules)
    }
    if table.soft and (hand >> (BITS * table[3])) & 0xF == 4:
        bomb = _BOMBS[table[3]]
        best.setdefault(move_key(bomb), bomb)
    kind = table[1]
    length = table[2] if Kind(kind).is_chain else 0
    add_wild_plays(best, hand, rules, frozenset({kind, BOMB}), length, table[3] if kind != BOMB else -1)
    return [m for m in best.values() if beats(m, table, rules)]


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
