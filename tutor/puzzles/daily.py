"""Today's puzzle: the same for everyone on a date; the week rises from Monday to Sunday.

The daily pool is the library's puzzles made from real games' positions
(:mod:`tutor.puzzles.daily_pool`; a library without any falls back to its
interesting puzzles).  Sorted by rating, the pool is cut into seven bands of
equal size: Monday draws from the easiest band, Sunday from the hardest
(:func:`weekly_puzzle_id`).  Inside a band the ids are shuffled once by a fixed
permutation (the project's own SplitMix64 with a constant seed, so every install
agrees), and week ``k`` takes entry ``k mod B`` of it: the same weekday of two
weeks less than ``B`` weeks apart gets different puzzles, so with bands of
at least 53 (a pool of 371) no daily puzzle repeats within a year.

:func:`daily_index` is the older plain schedule (day ``d`` gets entry ``d mod N``
of one permutation): it still picks from any list of ids.  Adding puzzles
changes the schedule; the library grows between releases, not during one.
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
    """The ids the daily puzzle is drawn from: the real games' positions
    (:func:`tutor.puzzles.daily_pool.in_pool`) — or, in a library without any, its
    interesting puzzles (no one-look puzzle; a puzzle rated by hand counts)."""
    return [p.id for p in _pool(list(puzzles))]


def _pool(puzzles: list[Puzzle]) -> list[Puzzle]:
    from tutor.puzzles.daily_pool import in_pool

    real = [p for p in puzzles if in_pool(p)]
    if len(real) >= WEEK:
        return real
    return [p for p in puzzles if p.difficulty is None or is_interesting(p.difficulty)]


#: Days of a week: the bands of the weekly schedule.
WEEK = 7
#: Fewest puzzles per band for which the no-repeat-within-a-year promise holds (53 weeks).
YEAR_WEEKS = 53


def weekday_bands(puzzles: Iterable[Puzzle]) -> list[list[str]]:
    """The pool in seven bands of rising rating (Monday's first), each sorted by id.

    Ties in rating are broken by id, so the bands are the same on every install.
    """
    ranked = sorted(_pool(list(puzzles)), key=lambda p: (p.rating, p.id))
    n = len(ranked)
    if n < WEEK:
        raise ValueError(f"the daily pool has {n} puzzles: a week needs {WEEK}")
    return [sorted(p.id for p in ranked[w * n // WEEK:(w + 1) * n // WEEK]) for w in range(WEEK)]


def weekly_pick(bands: Sequence[Sequence[str]], day: date) -> str:
    """The id of ``day``'s puzzle: its weekday's band, entry ``week mod B`` of the band's permutation."""
    band = bands[day.weekday()]
    week = (day.toordinal() - 1) // WEEK  # ordinal 1 (0001-01-01) is a Monday
    return band[permutation(len(band), DAILY_SEED + day.weekday())[week % len(band)]]


def daily_puzzle_id(puzzles: Iterable[Puzzle], day: date) -> str:
    """The id of the puzzle of ``day``: the weekly schedule over the daily pool of ``puzzles``."""
    return weekly_pick(weekday_bands(puzzles), day)


def parse_date(text: str) -> date:
    """``YYYY-MM-DD`` → date, with the bad input in the error."""
    try:
        return date.fromisoformat(text.strip())
    except ValueError:
        raise ValueError(f"bad date {text!r} (expected YYYY-MM-DD)") from None
