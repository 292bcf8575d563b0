"""A puzzle streak, headless: puzzles of rising rating one after another until the first wrong move.

Each puzzle is an ordinary :class:`tutor.sessions.puzzle.PuzzleSession`
(unrated: a streak is a sprint, it does not move the Glicko-2 ratings); this
session chains them (:func:`tutor.puzzles.streak.ladder`), ends the run at the
first wrong move (its refutation shown), on "solution" or when the learner
stops, and keeps the best streak in the store.  Hints end nothing but are not
given: a streak is solved unaided.

Example::

    run = StreakSession(library, solver, progress)
    events = run.start()
    while not run.finished:
        events = run.play(run.attempt.expected_move())
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from tutor.engine.combos import Combo
from tutor.puzzles.model import Puzzle
from tutor.puzzles.streak import StreakProgress, StreakRecord, ladder
from tutor.sessions.puzzle import PuzzleEvent, PuzzleOver, PuzzleSession, Wrong

if TYPE_CHECKING:
    from tutor.puzzles.generate import SolverLike
    from tutor.puzzles.progress import PuzzleProgress
    from tutor.puzzles.solving import Attempt


@dataclass(frozen=True, slots=True)
class StreakStep:
    """The next puzzle of the run: its number (1-based), its rating, and the puzzles solved so far."""

    number: int
    rating: float
    solved: int


@dataclass(frozen=True, slots=True)
class StreakOver:
    """The run is over: how many puzzles were solved, the best streak, and whether this run set it."""

    solved: int
    #: None when there is no store to keep it in.
    best: int | None
    new_best: bool
    #: True when the ladder ran out (every puzzle solved), not a wrong move.
    completed: bool = False


StreakEvent = PuzzleEvent | StreakStep | StreakOver


class StreakSession:
    """One streak run over ``puzzles``.

    Args:
        puzzles: the library to climb.
        solver: injected (tests pass a cached one).
        progress: the learner's puzzle progress (its store keeps the best streak); None: nothing kept.
        seed: which puzzles near each step are drawn (a new run, a new seed).
    """

    def __init__(self, puzzles: Sequence[Puzzle], solver: SolverLike | None = None,
                 progress: PuzzleProgress | None = None, seed: int | None = None) -> None:
        self.run = ladder(puzzles, random.Random(seed))
        if not self.run:
            raise ValueError("no puzzles to climb")
        self.solver = solver
        #: Set by the front end for the request that may end the run (the web sets it per request).
        self.progress = progress
        self.index = 0
        self.solved = 0
        self.over: StreakOver | None = None
        self.current = self._session(0)

    def _session(self, index: int) -> PuzzleSession:
        from tutor.sessions.puzzle import default_solver

        if self.solver is None:
            self.solver = default_solver()
        return PuzzleSession(self.run[index], self.solver)

    # ----------------------------------------------------------- the puzzle now
    @property
    def puzzle(self) -> Puzzle:
        return self.current.puzzle

    @property
    def attempt(self) -> Attempt:
        return self.current.attempt

    @property
    def finished(self) -> bool:
        return self.over is not None

    @property
    def daily(self) -> bool:
        return False

    @property
    def learners_own_seat(self) -> bool:
        return self.current.learners_own_seat

    @property
    def choosing(self) -> int:
        return self.current.choosing

    def record(self) -> StreakRecord | None:
        """The learner's streak figures (None without a store)."""
        return None if self.progress is None else StreakProgress(self.progress.store).record()

    # ------------------------------------------------------------------ actions
    def start(self) -> list[StreakEvent]:
        return [self._step(), *self.current.start()]

    def _step(self) -> StreakStep:
        return StreakStep(self.index + 1, self.run[self.index].rating, self.solved)

    def look(self, text: str) -> list[StreakEvent]:
        return list(self.current.look(text))

    def select(self, text: str) -> list[StreakEvent]:
        return self._follow(self.current.select(text))

    def choose(self, number: int) -> list[StreakEvent]:
        return self._follow(self.current.choose(number))

    def pass_(self) -> list[StreakEvent]:
        return self._follow(self.current.pass_())

    def play(self, move: Combo | None) -> list[StreakEvent]:
        return self._follow(self.current.play(move))

    def hint(self) -> list[StreakEvent]:
        """No hints in a streak (nothing happens)."""
        return []

    def solution(self) -> list[StreakEvent]:
        """The solution ends the run (the puzzle is not solved)."""
        if self.finished:
            return []
        return [*self.current.solution(), self._end()]

    def stop(self) -> list[StreakEvent]:
        if self.finished:
            return []
        return [*self.current.stop(), self._end()]

    def _follow(self, events: list[PuzzleEvent]) -> list[StreakEvent]:
        """The puzzle's events, then what they mean for the run: over at a wrong move, on when solved."""
        if self.finished:
            return []
        out: list[StreakEvent] = list(events)
        if any(isinstance(e, Wrong) for e in events):
            return [*out, self._end()]
        over = next((e for e in events if isinstance(e, PuzzleOver)), None)
        if over is None:
            return out
        if not over.solved:  # pragma: no cover - a puzzle ends unsolved only by the solution or a stop
            return [*out, self._end()]
        self.solved += 1
        if self.index + 1 >= len(self.run):
            return [*out, self._end(completed=True)]
        self.index += 1
        self.current = self._session(self.index)
        return [*out, self._step(), *self.current.start()]

    def _end(self, completed: bool = False) -> StreakOver:
        best: int | None = None
        new_best = False
        if self.progress is not None:
            keeper = StreakProgress(self.progress.store)
            before = keeper.record().best
            best = keeper.finish(self.solved).best
            new_best = self.solved > before
        self.over = StreakOver(self.solved, best, new_best, completed)
        return self.over
