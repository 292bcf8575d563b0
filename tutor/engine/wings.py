"""Single wings (RULES §5), shared by the move generator and the wild plays (RULES §12.3)."""

from __future__ import annotations

from tutor.engine.cards import BIG_JOKER, NUM_RANKS, ONE, SMALL_JOKER

_BOTH_JOKERS = ONE[SMALL_JOKER] + ONE[BIG_JOKER]


def wing_singles(counts: list[int], excluded_bits: int, how_many: int) -> list[int]:
    """Every multiset of ``how_many`` single wings (packed) from ``counts``,
    skipping the ranks in ``excluded_bits`` and never both jokers together.

    Built rank by rank (take 0, 1, … of each), so each multiset appears once and
    no de-duplication is needed.
    """
    done: list[int] = []
    partial = [(0, how_many)]
    for r in range(NUM_RANKS):
        n = counts[r]
        if not n or (excluded_bits >> r) & 1:
            continue
        one = ONE[r]
        grown = []
        for value, left in partial:
            grown.append((value, left))
            for take in range(1, min(n, left) + 1):
                if take == left:
                    done.append(value + take * one)
                else:
                    grown.append((value + take * one, left - take))
        partial = grown
    if counts[SMALL_JOKER] and counts[BIG_JOKER] and not (excluded_bits >> SMALL_JOKER) & 1:
        return [w for w in done if w & _BOTH_JOKERS != _BOTH_JOKERS]
    return done
