"""The plays that use wild cards (RULES §12.3), for the move generator.

:mod:`tutor.engine.moves` lists every play of a hand with each card as its own
rank (a wild card played as itself is an ordinary card); this module adds the
plays in which at least one wild card *stands in* for another rank.  It builds
them kind by kind from the rank counts and the pool of wild cards — at most
four — never by trying card subsets or every rank for every wild card: a unit
of ``m`` cards of one rank takes ``n`` natural cards and ``m - n`` wild ones
(every split, so keeping a natural card and spending a wild one is a play of
its own), chains grow a unit at a time from their lowest rank, and wings are
drawn from what is left.  The units depend only on (wild rank, pool, size,
rank, count), so they come from a table built once per wild rank and pool.

Where a wild card is a wing it stays its own rank (a wing's rank never
matters), unless its rank is in the body; then it stands for the lowest rank
the wing may have.  :func:`tutor.engine.combos.wild_readings` is the
definition; the tests check this generator against it card set by card set.

The plays go straight into the caller's table of moves, keyed by
:func:`move_key` (the card set, kind and length): a card set that is a
play of two kinds stays two moves, and of the readings of one card set as one
kind and length the highest main is kept (RULES §6: the player means the
reading that beats the most).
"""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations

from tutor.engine.cards import BIG_JOKER, BITS, NUM_RANKS, ONE, SMALL_JOKER
from tutor.engine.combos import Combo, Kind, WildCombo
from tutor.engine.rules import Rules
from tutor.engine.wings import wing_singles

#: A part of a play: (the cards taken from the hand, what the wild cards among them stand for, wild cards used).
_Part = tuple[int, int, int]
#: [size][rank][count] → every part of ``size`` cards of ``rank`` (see :func:`_unit_table`).
_UnitTable = tuple[tuple[tuple[tuple[_Part, ...], ...], ...], ...]

_NEW = tuple.__new__
_COUNTS = 5  # the wildcard game is played with one deck (RULES §12.3): at most four of a rank
_SUITED = range(SMALL_JOKER)


def move_key(move: Combo) -> int:
    """The key the move tables dedupe on: card set, kind and length in one int."""
    return (move[0] << 8) | (move[1] << 4) | move[2]


@lru_cache(maxsize=64)
def _unit_table(wild: int, pool: int) -> _UnitTable:
    """Every way to make ``size`` cards of ``rank`` from ``count`` natural cards and ``pool`` wild cards.

    The wild rank itself is made only of wild cards played as themselves (no
    stand-in); any other rank takes ``size - t`` natural cards and ``t`` wild
    cards standing in, for every ``t`` the counts allow.  Index ``[size][rank][count]``;
    size 0 holds the pairs that take at most one wild card (pair wings).
    """

    def parts(size: int, rank: int, count: int) -> tuple[_Part, ...]:
        if rank == wild:
            return ((size * ONE[wild], 0, size),) if size <= pool else ()
        return tuple(
            ((size - t) * ONE[rank] + t * ONE[wild], t * ONE[rank], t)
            for t in range(max(0, size - count), min(size, pool) + 1)
        )

    table = [
        tuple(tuple(parts(size, rank, count) for count in range(_COUNTS)) for rank in range(NUM_RANKS))
        for size in range(1, 5)
    ]
    pair_wings = tuple(tuple(tuple(u for u in by_count if u[2] < 2) for by_count in by_rank) for by_rank in table[1])
    return (pair_wings, *table)


def _single_wings(rest: list[int], pool: int, excluded: int, how_many: int, wild: int) -> list[tuple[int, int]]:
    """Every set of ``how_many`` single wings (RULES §5) from the natural cards left and ``pool`` wild cards:
    (cards, what the wild cards among them stand for).

    A wild wing is its own rank; when that rank is excluded (it is in the body)
    it stands for the lowest rank a wing may have.
    """
    if not (excluded >> wild) & 1:
        rest[wild] = pool
        if how_many <= 2:
            return [(w, 0) for w in _few_singles(rest, excluded, how_many)]
        return [(w, 0) for w in wing_singles(rest, excluded, how_many)]
    stand_rank = next((r for r in _SUITED if not (excluded >> r) & 1), -1)
    out: list[tuple[int, int]] = []
    for j in range(min(pool, how_many) + 1):
        if j and stand_rank < 0:
            break
        wings = wing_singles(rest, excluded, how_many - j) if how_many - j else [0]
        out += [(w + j * ONE[wild], j * ONE[stand_rank] if j else 0) for w in wings]
    return out


def _few_singles(counts: list[int], excluded: int, how_many: int) -> list[int]:
    """One or two single wings (the trio + 1, the four + 2, the airplane of two): :func:`wing_singles`
    for the common sizes, without its partial sets — the same multisets."""
    avail = [r for r in range(NUM_RANKS) if counts[r] and not (excluded >> r) & 1]
    if how_many == 1:
        return [ONE[r] for r in avail]
    out = [2 * ONE[r] for r in avail if counts[r] >= 2]
    for i, a in enumerate(avail):
        one = ONE[a]
        out += [one + ONE[b] for b in avail[i + 1 :] if b != BIG_JOKER or a != SMALL_JOKER]
    return out


def _pair_wings(rest: list[int], pool: int, excluded: int, how_many: int, wild: int) -> list[tuple[int, int]]:
    """Every set of ``how_many`` pair wings of different ranks (RULES §5), wild cards completing pairs."""
    pairs = _unit_table(wild, pool)[0]
    options: list[tuple[_Part, ...]] = []
    stand_done = False
    for rank in _SUITED:
        if (excluded >> rank) & 1:
            continue
        if rank == wild:
            unit: tuple[_Part, ...] = ((2 * ONE[wild], 0, 2),) if pool >= 2 else ()
        else:
            unit = pairs[rank][rest[rank]]
            if not rest[rank] and not stand_done and (excluded >> wild) & 1 and pool >= 2:
                unit += ((2 * ONE[wild], 2 * ONE[rank], 2),)  # two wild cards as the lowest free pair
                stand_done = True
        if unit:
            options.append(unit)
    out: list[tuple[int, int]] = []
    for picked in combinations(options, how_many):
        parts: list[_Part] = [(0, 0, 0)]
        for unit in picked:
            parts = [(c + uc, s + us, n + un) for c, s, n in parts for uc, us, un in unit if n + un <= pool]
        out += [(c, s) for c, s, _ in parts]
    return out


_BODIES = (
    (Kind.TRIO_SINGLE, 1, 3, 1),
    (Kind.TRIO_PAIR, 2, 3, 1),
    (Kind.FOUR_TWO_SINGLES, 1, 4, 2),
    (Kind.FOUR_TWO_PAIRS, 2, 4, 2),
)
_CHAINS = ((Kind.STRAIGHT, 1), (Kind.PAIR_CHAIN, 2), (Kind.AIRPLANE, 3))


def add_wild_plays(
    best: dict[int, Combo],
    hand: int,
    rules: Rules,
    kinds: frozenset[int] | None = None,
    length: int = 0,
    above: int = -1,
) -> None:
    """Add to ``best`` every play of ``hand`` with at least one wild card standing in (RULES §12.3).

    Each comes as a :class:`~tutor.engine.combos.WildCombo` under :func:`move_key`;
    a play replaces the move already there only with a higher main (so the
    natural reading wins a tie).  ``kinds`` limits the kinds made, ``length``
    the chains' length and ``above`` the mains of the kinds other than the bomb
    (a follower needs only the table's kind at its length above its main, and
    the bombs; the caller still checks what beats).
    """
    wild = rules.wild_rank
    pool = (hand >> (BITS * wild)) & 0xF if wild >= 0 else 0
    if not pool:
        return
    counts = [(hand >> (BITS * r)) & 0xF for r in range(NUM_RANKS)]
    counts[wild] = 0
    units = _unit_table(wild, pool)
    natural_mask = ~(0xF << (BITS * wild))
    get = best.get

    def want(kind: Kind) -> bool:
        return kinds is None or kind in kinds

    # A pair, a trio, a soft bomb: natural cards of the rank and at least one wild card.
    for kind, size in ((Kind.PAIR, 2), (Kind.TRIO, 3), (Kind.BOMB, 4)):
        if not want(kind):
            continue
        low = 0 if kind == Kind.BOMB else above + 1
        tag = (kind << 4) | 1
        for rank in range(max(low, 0), SMALL_JOKER):
            if rank == wild or not counts[rank]:
                continue
            for cards, stand, used in units[size][rank][counts[rank]]:
                if used and used < size:
                    key = (cards << 8) | tag
                    old = get(key)
                    if old is None or rank > old[3]:
                        best[key] = _NEW(WildCombo, (cards, kind, 1, rank, stand, wild))
    top = rules.chain_top
    for kind, size in _CHAINS:
        if not want(kind):
            continue
        minimum = (rules.min_straight, rules.min_pair_chain, rules.min_airplane)[size - 1]
        by_rank = [units[size][r][counts[r]] for r in range(top + 1)]
        for low in range(top + 2 - minimum):
            parts: list[_Part] = [(0, 0, 0)]
            for high in range(low, top + 1):
                unit = by_rank[high]
                parts = [(c + uc, s + us, n + un) for c, s, n in parts for uc, us, un in unit if n + un <= pool]
                if not parts:
                    break
                n_ranks = high - low + 1
                if n_ranks < minimum or (length and n_ranks != length) or high <= above:
                    continue
                tag = (kind << 4) | n_ranks
                for cards, stand, _ in parts:
                    if stand:
                        key = (cards << 8) | tag
                        old = get(key)
                        if old is None or high > old[3]:
                            best[key] = _NEW(WildCombo, (cards, kind, n_ranks, high, stand, wild))
    # Bodies with wings: a trio, a four, a chain of trios; the wings from what is left.
    for kind, wing_kind, size, how_many in _BODIES:
        if not want(kind):
            continue
        tag = (kind << 4) | 1
        for rank in range(above + 1, SMALL_JOKER):
            for bcards, bstand, used in units[size][rank][counts[rank]]:
                if not bstand and rank != wild and wing_kind == 1:
                    continue  # no stand-in in the body and none can come from single wings
                rest = counts[:]
                if rank != wild:
                    rest[rank] -= size - used
                if wing_kind == 1:
                    wings = _single_wings(rest, pool - used, 1 << rank, how_many, wild)
                else:
                    wings = _pair_wings(rest, pool - used, 1 << rank, how_many, wild)
                for wcards, wstand in wings:
                    cards = bcards + wcards
                    if (bstand or wstand) and cards & natural_mask:
                        key = (cards << 8) | tag
                        old = get(key)
                        if old is None or rank > old[3]:
                            best[key] = _NEW(WildCombo, (cards, kind, 1, rank, bstand + wstand, wild))
    for kind, wing_kind in ((Kind.AIRPLANE_SINGLES, 1), (Kind.AIRPLANE_PAIRS, 2)):
        if not want(kind):
            continue
        by_rank = [units[3][r][counts[r]] for r in range(top + 1)]
        for low in range(top + 2 - rules.min_airplane):
            parts = [(0, 0, 0)]
            excluded = 0
            for high in range(low, top + 1):
                unit = by_rank[high]
                parts = [(c + uc, s + us, n + un) for c, s, n in parts for uc, us, un in unit if n + un <= pool]
                if not parts:
                    break
                excluded |= 1 << high
                n_ranks = high - low + 1
                if n_ranks < rules.min_airplane or (length and n_ranks != length) or high <= above:
                    continue
                tag = (kind << 4) | n_ranks
                for bcards, bstand, used in parts:
                    if not bstand and wing_kind == 1 and not (excluded >> wild) & 1:
                        continue  # no stand-in in the body and none can come from single wings
                    rest = [counts[r] - ((bcards >> (BITS * r)) & 0xF) for r in range(NUM_RANKS)]
                    rest[wild] = 0
                    if wing_kind == 1:
                        wings = _single_wings(rest, pool - used, excluded, n_ranks, wild)
                    else:
                        wings = _pair_wings(rest, pool - used, excluded, n_ranks, wild)
                    for wcards, wstand in wings:
                        if bstand or wstand:
                            cards = bcards + wcards
                            key = (cards << 8) | tag
                            old = get(key)
                            if old is None or high > old[3]:
                                best[key] = _NEW(WildCombo, (cards, kind, n_ranks, high, bstand + wstand, wild))


def wild_plays(hand: int, rules: Rules, kinds: frozenset[int] | None = None) -> list[Combo]:
    """Every play of ``hand`` with at least one wild card standing in (RULES §12.3), one per card set,
    kind and length under its highest main (a :class:`~tutor.engine.combos.WildCombo` each)."""
    best: dict[int, Combo] = {}
    add_wild_plays(best, hand, rules, kinds)
    return list(best.values())
