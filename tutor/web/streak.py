"""The puzzle streak in the browser: the puzzle routes with a :class:`tutor.sessions.streak.StreakSession`.

A run lives in the learner's puzzle slot like any puzzle (``{"kind": "streak"}``
starts one); the puzzle routes act on it through the same actions, and this
module adds what is the run's own: its events (the next puzzle, the end) and
its line in the page's state (puzzle number, solved so far, the best streak).
"""

from __future__ import annotations

import random
from typing import Any

from tutor.i18n import t
from tutor.puzzles.progress import PuzzleProgress
from tutor.puzzles.streak import StreakProgress
from tutor.sessions.streak import StreakOver, StreakSession, StreakStep


def start(puzzles: list[Any], solver: Any, progress: PuzzleProgress) -> StreakSession:
    """A new run over ``puzzles`` (a fresh draw near each step)."""
    return StreakSession(puzzles, solver, None, seed=random.SystemRandom().randrange(2**32))


def event(item: object) -> dict[str, Any] | None:
    """A run's own event for the page (None: not one)."""
    if isinstance(item, StreakStep):
        return {"type": "streak_step", "text": t("streak.step", number=item.number, rating=round(item.rating),
                                                 solved=item.solved)}
    if isinstance(item, StreakOver):
        text = t("streak.completed" if item.completed else "streak.over", solved=item.solved)
        best = None if item.best is None else t("streak.new_best" if item.new_best else "streak.best", best=item.best)
        return {"type": "streak_over", "solved": item.solved, "new_best": item.new_best,
                "text": text if best is None else f"{text} {best}"}
    return None


def state(session: object, progress: PuzzleProgress) -> dict[str, Any]:
    """The streak line of the page: the best streak always, the run's figures while one is open."""
    best = StreakProgress(progress.store).record().best
    out: dict[str, Any] = {"best": t("streak.web_best", best=best), "run": None}
    if isinstance(session, StreakSession):
        out["run"] = {"text": t("streak.web_run", number=session.index + 1, solved=session.solved),
                      "solved": session.solved, "over": session.finished}
    return out
