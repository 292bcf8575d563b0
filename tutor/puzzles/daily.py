"""Today's puzzle: the same for everyone on a date, never repeated within a year.

The library's ids are sorted and shuffled once by a fixed permutation (the
project's own SplitMix64, seeded with a constant, so every install agrees).
Day ``d`` (the proleptic Gregorian ordinal of the date) gets entry
``d mod N`` of that permutation.  Two dates less than ``N`` days apart fall on
different entries, and a permutation has no repeated entries, so with ``N ≥ 366``
puzzles no puzzle comes back within a year — after ``N`` days the cycle starts
again.  Adding puzzles to the library changes ``N`` and so the schedule; the
library is meant to grow between releases, not during one.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import date

from tutor.engine.deal import SplitMix64
from tutor.puzzles.difficulty import is_interesting
from tutor.puzzles.model import Puzzle

#: Seed of the fixed permutation (any constant works; never change it within a release).
DAILY_SEED = 0xDD2_0_DA11

#: Fewest puzzles for which the no-repeat-within-a-year promise holds.
YEAR_DAYS = 366


def permutation(size: int, seed: int = DAILY_SEED) -> list[int]:
    """A fixed permutation of ``range(size)`` (Fisher–Yates with SplitMix64)."""
    rng = SplitMix64(seed)
    order = list(range(size))
    for i in range(size - 1, 0, -1):
        j = rng.below(i + 1)
        order[i], order[j] = order[j], order[i]
    return order


def daily_index(day: date, size: int) -> int:
    """The library index (of the sorted ids) of the puzzle of ``day``."""
    if size <= 0:
        raise ValueError("the puzzle library is empty")
    return permutation(size)[day.toordinal() % size]


def daily_id(ids: Sequence[str], day: date) -> str:
    """The id of the puzzle of ``day`` among ``ids`` (order does not matter)."""
    ordered = sorted(ids)
    return ordered[daily_index(day, len(ordered))]


def daily_pool(puzzles: Iterable[Puzzle]) -> list[str]:
    """The ids the daily puzzle is drawn from: no one-look puzzle (a puzzle rated by hand counts)."""
    return [p.id for p in puzzles if p.difficulty is None or is_interesting(p.difficulty)]


def daily_puzzle_id(puzzles: Iterable[Puzzle], day: date) -> str:
    """The id of the puzzle of ``day`` among the interesting ones of ``puzzles``."""
    return daily_id(daily_pool(puzzles), day)


def parse_date(text: str) -> date:
    """``YYYY-MM-DD`` → date, with the bad input in the error."""
    try:
        return date.fromisoformat(text.strip())
    except ValueError:
        raise ValueError(f"bad date {text!r} (expected YYYY-MM-DD)") from None
