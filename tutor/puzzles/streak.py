"""Puzzle streak (as lichess's Streak): puzzles of rising rating until the first wrong move.

A run starts with an easy puzzle and each next one is rated a little higher
(:func:`ladder`: the puzzle closest to the next step of the ladder, never a
puzzle of the run again and never one rated below the previous).  The run
ends at the first wrong move, or when the learner asks for the solution or
stops; its length is the number of puzzles solved.  The best streak is kept per
learner (:class:`tutor.store.streak.StreakRows`, one row per learner).

A streak is not rated: its puzzles do not move the learner's Glicko-2 rating
(a run is a sprint, not a measured attempt), and no hint is given.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import TYPE_CHECKING

from tutor.puzzles.model import Puzzle

if TYPE_CHECKING:
    from tutor.store import Store

#: The rating of the first step of the ladder.
START = 700
#: How much each step of the ladder rises.
STEP = 60
#: The next puzzle is drawn at random among this many closest to the step (not the same run twice).
CHOICES = 4


def ladder(puzzles: Sequence[Puzzle], rng: random.Random, length: int | None = None) -> list[Puzzle]:
    """The run's puzzles in order: ratings rising step by step, each drawn near its step.

    At most ``length`` puzzles (default: until the library has no higher one).
    """
    left = sorted(puzzles, key=lambda p: (p.rating, p.id))
    run: list[Puzzle] = []
    floor = float("-inf")
    step = 0
    while left and (length is None or len(run) < length):
        target = START + STEP * step
        higher = [p for p in left if p.rating >= floor]
        if not higher:
            break
        higher.sort(key=lambda p: (abs(p.rating - target), p.id))
        pick = rng.choice(higher[:CHOICES])
        run.append(pick)
        left.remove(pick)
        floor = pick.rating
        step += 1
    return run


@dataclass(frozen=True, slots=True)
class StreakRecord:
    """A learner's streak figures: the best run, the number of runs, the last run."""

    best: int = 0
    runs: int = 0
    last: int = 0


class StreakProgress:
    """One learner's best streak in the store."""

    def __init__(self, store: Store) -> None:
        from tutor.store.streak import StreakRows

        self.rows = StreakRows(store)

    def record(self) -> StreakRecord:
        row = self.rows.read()
        return StreakRecord() if row is None else StreakRecord(*row)

    def finish(self, length: int, when: datetime | None = None) -> StreakRecord:
        """Keep a finished run; the figures after it."""
        stamp = (when or datetime.now(timezone.utc)).isoformat(timespec="seconds")
        self.rows.finish_run(length, stamp)
        return self.record()
