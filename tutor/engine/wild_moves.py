"""The plays that use wild cards (RULES §12.3), for the move generator.

:mod:`tutor.engine.moves` lists every play of a hand with each card as its own
rank (a wild card played as itself is an ordinary card); this module adds the
plays in which at least one wild card *stands in* for another rank.  It builds
them kind by kind from the natural cards and the pool of wild cards — at most
four — never by trying every rank for every wild card: a unit of ``m`` cards
of one rank takes ``n`` natural cards and ``m - n`` wild ones (every split, so
keeping a natural card and spending a wild one is a play of its own), chains
take a unit at each rank, and wings are drawn from what is left.

Where a wild card is a wing it stays its own rank (a wing's rank never
matters), unless its rank is in the body; then it stands for the lowest rank
the wing may have.  :func:`tutor.engine.combos.wild_readings` is the
definition; the tests check this generator against it card set by card set.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations

from tutor.engine.cards import NUM_RANKS, ONE, SMALL_JOKER
from tutor.engine.combos import Combo, Kind, WildCombo
from tutor.engine.rules import Rules
from tutor.engine.wings import wing_singles

#: A part of a play: (the cards taken from the hand, what the wild cards among them stand for, wild cards used).
_Part = tuple[int, int, int]


def _units(counts: list[int], rank: int, size: int, pool: int, wild: int) -> list[_Part]:
    """Every way to make ``size`` cards of ``rank`` from the natural cards and ``pool`` wild cards."""
    if rank == wild:
        return [(size * ONE[wild], 0, size)] if size <= pool else []
    return [
        ((size - t) * ONE[rank] + t * ONE[wild], t * ONE[rank], t)
        for t in range(max(0, size - counts[rank]), min(size, pool) + 1)
    ]


def _chains(counts: list[int], size: int, low: int, high: int, pool: int, wild: int) -> Iterator[_Part]:
    """Every way to make ``size`` cards of each rank ``low..high`` (a chain body) with at most ``pool`` wild cards."""
    parts: list[_Part] = [(0, 0, 0)]
    for rank in range(low, high + 1):
        units = _units(counts, rank, size, pool, wild)
        parts = [(c + uc, s + us, n + un) for c, s, n in parts for uc, us, un in units if n + un <= pool]
        if not parts:
            return
    yield from parts


def _single_wings(rest: list[int], pool: int, excluded: int, how_many: int, wild: int) -> list[_Part]:
    """Every set of ``how_many`` single wings (RULES §5) from the natural cards left and ``pool`` wild cards.

    A wild wing is its own rank; when that rank is excluded (it is in the body)
    it stands for the lowest rank a wing may have.
    """
    natural = list(rest)
    wild_free = not (excluded >> wild) & 1
    if wild_free:
        natural[wild] = pool
        return [(w, 0, (w >> (4 * wild)) & 0xF) for w in wing_singles(natural, excluded, how_many)]
    stand_rank = next((r for r in range(SMALL_JOKER) if not (excluded >> r) & 1), -1)
    out: list[_Part] = []
    for j in range(min(pool, how_many) + 1):
        if j and stand_rank < 0:
            break
        wings = wing_singles(natural, excluded, how_many - j) if how_many - j else [0]
        out += [(w + j * ONE[wild], j * ONE[stand_rank] if j else 0, j) for w in wings]
    return out


def _pair_wings(rest: list[int], pool: int, excluded: int, how_many: int, wild: int) -> list[_Part]:
    """Every set of ``how_many`` pair wings of different ranks (RULES §5), wild cards completing pairs."""
    options: list[list[_Part]] = []
    stand_done = False
    for rank in range(SMALL_JOKER):
        if (excluded >> rank) & 1:
            continue
        if rank == wild:
            units = [(2 * ONE[wild], 0, 2)] if pool >= 2 else []
        else:
            units = [u for u in _units(rest, rank, 2, pool, wild) if u[2] < 2]
            if not rest[rank] and not stand_done and (excluded >> wild) & 1 and pool >= 2:
                units.append((2 * ONE[wild], 2 * ONE[rank], 2))  # two wild cards as the lowest free pair
                stand_done = True
        if units:
            options.append(units)
    out: list[_Part] = []
    for picked in combinations(options, how_many):
        parts: list[_Part] = [(0, 0, 0)]
        for units in picked:
            parts = [(c + uc, s + us, n + un) for c, s, n in parts for uc, us, un in units if n + un <= pool]
        out += parts
    return out


def _rest(counts: list[int], cards: int, wild: int) -> list[int]:
    rest = [counts[r] - ((cards >> (4 * r)) & 0xF) for r in range(NUM_RANKS)]
    rest[wild] = 0
    return rest


def wild_plays(hand: int, rules: Rules, kinds: frozenset[int] | None = None) -> list[Combo]:
    """Every play of ``hand`` with at least one wild card standing in (RULES §12.3).

    Each comes as a :class:`~tutor.engine.combos.WildCombo`; a card set may come
    several times (different stand-ins or mains): the caller keeps the reading
    it needs.  ``kinds`` limits the kinds made (a follower needs only the
    table's kind and the bombs).
    """
    wild = rules.wild_rank
    pool = (hand >> (4 * wild)) & 0xF
    if wild < 0 or not pool:
        return []
    counts = [(hand >> (4 * r)) & 0xF for r in range(NUM_RANKS)]
    counts[wild] = 0
    out: list[Combo] = []

    def want(kind: Kind) -> bool:
        return kinds is None or kind in kinds

    only_wild = 0xF << (4 * wild)

    def emit(cards: int, stand: int, kind: Kind, length: int, main: int) -> None:
        if stand and cards & ~only_wild:  # wild cards alone are ordinary cards
            out.append(WildCombo(cards, kind, length, main, stand, wild))

    suited = range(SMALL_JOKER)
    # A pair, a trio, a soft bomb: natural cards of the rank and at least one wild card.
    for kind, size in ((Kind.PAIR, 2), (Kind.TRIO, 3), (Kind.BOMB, 4)):
        if want(kind):
            for rank in suited:
                if rank != wild and counts[rank]:
                    for cards, stand, used in _units(counts, rank, size, pool, wild):
                        if used < size:
                            emit(cards, stand, kind, 1, rank)
    top = rules.chain_top
    for kind, size, minimum in (
        (Kind.STRAIGHT, 1, rules.min_straight),
        (Kind.PAIR_CHAIN, 2, rules.min_pair_chain),
        (Kind.AIRPLANE, 3, rules.min_airplane),
    ):
        if want(kind):
            for low in range(top + 1):
                for high in range(low + minimum - 1, top + 1):
                    for cards, stand, _ in _chains(counts, size, low, high, pool, wild):
                        emit(cards, stand, kind, high - low + 1, high)
    # Bodies with wings: a trio, a four, a chain of trios; the wings from what is left.
    for kind, wing_kind, size, how_many in (
        (Kind.TRIO_SINGLE, 1, 3, 1),
        (Kind.TRIO_PAIR, 2, 3, 1),
        (Kind.FOUR_TWO_SINGLES, 1, 4, 2),
        (Kind.FOUR_TWO_PAIRS, 2, 4, 2),
    ):
        if not want(kind):
            continue
        for rank in suited:
            for cards, stand, used in _units(counts, rank, size, pool, wild):
                _with_wings(counts, pool, wild, cards, stand, used, 1 << rank, wing_kind, how_many, kind, 1, rank, emit)
    for kind, wing_kind in ((Kind.AIRPLANE_SINGLES, 1), (Kind.AIRPLANE_PAIRS, 2)):
        if not want(kind):
            continue
        for low in range(top + 1):
            for high in range(low + rules.min_airplane - 1, top + 1):
                excluded = ((1 << (high + 1)) - 1) ^ ((1 << low) - 1)
                n = high - low + 1
                for cards, stand, used in _chains(counts, 3, low, high, pool, wild):
                    _with_wings(counts, pool, wild, cards, stand, used, excluded, wing_kind, n, kind, n, high, emit)
    return out


def _with_wings(
    counts: list[int],
    pool: int,
    wild: int,
    cards: int,
    stand: int,
    used: int,
    excluded: int,
    wing_kind: int,
    how_many: int,
    kind: Kind,
    length: int,
    main: int,
    emit: object,
) -> None:
    """Attach every legal set of wings to one body and emit the plays with a stand-in."""
    rest = _rest(counts, cards, wild)
    left = pool - used
    maker = _single_wings if wing_kind == 1 else _pair_wings
    for wcards, wstand, _ in maker(rest, left, excluded, how_many, wild):
        if stand or wstand:
            emit(cards + wcards, stand + wstand, kind, length, main)  # type: ignore[operator]

