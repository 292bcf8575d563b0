"""Rank compression: one canonical form for isomorphic two-player positions.

In an open-hand endgame only the *relative* order of the ranks still held
matters, plus which held ranks are chain neighbours.  A rank nobody holds is
only a chain break; two positions that differ by how far apart the held ranks
lie (or by where the whole set of ranks sits) are the same game.  This module
maps a pair of hands onto the lowest ranks that keep the game identical, so
the transposition table of the two-player search keeps one entry for all of
them (the search itself still runs on the real hands, whose per-hand tables
are shared by many more positions than the compressed hands would be).

The map (chain ranks ``3 … A`` only; ``2`` and the jokers keep their ranks,
so 2s and jokers never chain and the jokers stay jokers):

* held chain ranks keep their order;
* two held ranks that are real neighbours (``r`` and ``r + 1``) stay
  neighbours, so every chain survives;
* two held ranks with a gap between them get a one-rank gap when one player
  holds both (a chain of that player must not grow across it), and become
  neighbours otherwise: a chain is a run of ranks *one* player holds, so no
  chain of anybody can cross a boundary whose two ranks belong to different
  players, now or later (hands only shrink);
* the lowest held chain rank becomes ``3``.

The map is strictly increasing on the held ranks and never moves a rank up,
so every combination of either hand maps to a combination of the same kind,
length and chain shape, and ``beats`` is preserved: the compressed position
is the same game, move for move.  A table's main rank need not be held by
anyone; it is lowered first to the highest held rank at or below it, which
leaves exactly the same answers (a main above the table's is a held rank).

Everything is exact: the compressed hands are the full key of the position.
"""

from __future__ import annotations

#: One bit per chain-rank field (ranks 0..11: 3 … A) of a packed hand.
LOW_BITS = sum(1 << (4 * r) for r in range(12))
#: The fields of the 2 and the jokers, which are never moved.
_HIGH_FIELDS = sum(0xF << (4 * r) for r in range(12, 15))


#: 7 in every chain-rank field: a count (up to 8, two decks) plus 7 reaches bit 3 exactly when it is not 0.
SEVENS = 7 * LOW_BITS


def presence(hand: int) -> int:
    """Bit ``4r`` set when the hand holds rank ``r`` (chain ranks only; any count up to 8)."""
    return ((hand + SEVENS) >> 3) & LOW_BITS


def build_plan(mine: int, theirs: int) -> tuple[tuple[tuple[int, int], ...], tuple[int, ...]] | None:
    """The compression for hands whose chain-rank presence bits are ``mine``
    and ``theirs`` (see :func:`presence`).

    Returns None when the hands are already canonical, else ``(segments,
    rank_map)``: ``segments`` are ``(field mask, right shift)`` pairs whose
    shifted parts sum to the compressed hand, and ``rank_map[r + 1]`` is the
    compressed rank that a table main ``r`` (``-1`` … ``14``) becomes.
    """
    new_rank = list(range(15))
    prev = -1
    prev_new = -1
    for r in range(12):
        bit = 1 << (4 * r)
        if not (mine | theirs) & bit:
            continue
        if prev < 0:
            new = 0
        elif r == prev + 1:
            new = prev_new + 1
        else:
            pbit = 1 << (4 * prev)
            same_owner = (mine & bit and mine & pbit) or (theirs & bit and theirs & pbit)
            new = prev_new + (2 if same_owner else 1)
        new_rank[r] = new
        prev, prev_new = r, new
    held = [r for r in range(12) if (mine | theirs) & 1 << (4 * r)]
    if all(new_rank[r] == r for r in held):
        return None
    # Table mains: lowered to the highest held rank at or below them.
    rank_map = [-1] * 16
    last = -1
    for r in range(15):
        if r >= 12:
            last = r
        elif r in held:
            last = new_rank[r]
        rank_map[r + 1] = last
    segments: list[tuple[int, int]] = []
    masks: dict[int, int] = {}
    for r in held:
        shift = 4 * (r - new_rank[r])
        masks[shift] = masks.get(shift, 0) | 0xF << (4 * r)
    masks[0] = masks.get(0, 0) | _HIGH_FIELDS
    for shift, mask in sorted(masks.items()):
        segments.append((mask, shift))
    return tuple(segments), tuple(rank_map)


class Canon:
    """Memoised :func:`build_plan` and its application to positions."""

    def __init__(self, limit: int = 200_000) -> None:
        self.limit = limit
        self.plans: dict[int, tuple[tuple[tuple[int, int], ...], tuple[int, ...]] | None] = {}

    def plan(self, a: int, b: int) -> tuple[tuple[tuple[int, int], ...], tuple[int, ...]] | None:
        """The plan for hands ``a`` and ``b`` (None: already canonical)."""
        pa = presence(a)
        pb = presence(b)
        key = pa | pb << 48
        plans = self.plans
        if key in plans:
            return plans[key]
        if len(plans) > self.limit:
            plans.clear()
        got = build_plan(pa, pb)
        plans[key] = got
        return got


def apply(segments: tuple[tuple[int, int], ...], hand: int) -> int:
    """The compressed ``hand`` under ``segments`` (see :func:`build_plan`)."""
    out = 0
    for mask, shift in segments:
        out |= (hand & mask) >> shift
    return out


def canonical(a: int, b: int, main: int | None = None) -> tuple[int, int, int | None]:
    """Compress two hands (and a table main rank) without memoisation (tests, tools)."""
    got = build_plan(presence(a), presence(b))
    if got is None:
        if main is None:
            return a, b, None
        return a, b, main
    segments, rank_map = got
    return apply(segments, a), apply(segments, b), (None if main is None else rank_map[main + 1])
