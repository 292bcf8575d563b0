"""The teacher's view of a class: one summary per learner, from a handful of grouped queries.

Each figure is one query over the whole class grouped by learner (never one
query per learner), so the teacher's page costs the same few round trips for
five learners or five hundred.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from datetime import date, datetime, timezone

from tutor.store import LOCAL_LEARNER, Store
from tutor.store.areas import register_all
from tutor.store.puzzles import streak

#: How many of a learner's most frequent mistake codes the summary keeps.
TOP_MISTAKES = 3


@dataclass(frozen=True, slots=True)
class LevelResults:
    games: int
    wins: int
    #: The running score earned at this level (replays count 0).
    score: int


@dataclass(frozen=True, slots=True)
class LearnerSummary:
    id: int
    name: str
    lessons_done: int
    #: Stars over every lesson done (best attempt of each).
    lesson_stars: int
    #: The learner's puzzle rating; None before their first rated puzzle.
    puzzle_rating: float | None
    puzzle_attempts: int
    puzzle_streak: int
    puzzle_best_streak: int
    #: Finished games by computer level ("easy", "medium", "hard").
    games_by_level: dict[str, LevelResults] = field(default_factory=dict)
    #: The most frequent explanation codes of their saved mistakes, with counts, most frequent first.
    top_mistakes: list[tuple[str, int]] = field(default_factory=list)

    @property
    def games(self) -> int:
        return sum(r.games for r in self.games_by_level.values())


def class_summary(store: Store, today: date | None = None) -> list[LearnerSummary]:
    """Every learner account (teachers and the local learner left out), by name."""
    register_all(store)
    day = today or datetime.now(timezone.utc).date()
    db = store.db
    learners = [(int(r[0]), str(r[1])) for r in db.execute(
        "SELECT id, name FROM users WHERE teacher = 0 AND id <> ? ORDER BY name_key", (LOCAL_LEARNER,))]
    lessons = {int(r[0]): (int(r[1]), int(r[2])) for r in db.execute(
        "SELECT learner, COUNT(*), COALESCE(SUM(stars), 0) FROM lesson_progress GROUP BY learner")}
    ratings = {int(r[0]): float(r[1]) for r in db.execute("SELECT learner, rating FROM puzzle_learner")}
    attempts = {int(r[0]): int(r[1]) for r in db.execute(
        "SELECT learner, COUNT(*) FROM puzzle_attempts GROUP BY learner")}
    days: dict[int, list[date]] = {}
    for learner, text in db.execute(
            "SELECT DISTINCT learner, day FROM puzzle_attempts WHERE daily = 1 AND completed = 1 ORDER BY learner, day"):
        days.setdefault(int(learner), []).append(date.fromisoformat(str(text)))
    levels: dict[int, dict[str, LevelResults]] = {}
    for learner, level, n, wins, score in db.execute(
            "SELECT learner, level, COUNT(*), COALESCE(SUM(won), 0), COALESCE(SUM(delta), 0) FROM games"
            " GROUP BY learner, level ORDER BY learner, level"):
        levels.setdefault(int(learner), {})[str(level)] = LevelResults(int(n), int(wins), int(score))
    codes: dict[int, Counter[str]] = {}
    for learner, text in db.execute("SELECT learner, explanation FROM mistakes WHERE explanation <> ''"):
        code = _code(text)
        if code:
            codes.setdefault(int(learner), Counter())[code] += 1
    out = []
    for learner, name in learners:
        done, stars = lessons.get(learner, (0, 0))
        current, best = streak(days.get(learner, []), day)
        out.append(LearnerSummary(
            id=learner, name=name, lessons_done=done, lesson_stars=stars, puzzle_rating=ratings.get(learner),
            puzzle_attempts=attempts.get(learner, 0), puzzle_streak=current, puzzle_best_streak=best,
            games_by_level=levels.get(learner, {}),
            top_mistakes=sorted(codes.get(learner, Counter()).items(), key=lambda kv: (-kv[1], kv[0]))[:TOP_MISTAKES],
        ))
    return out


def _code(text: object) -> str:
    try:
        data = json.loads(str(text))
    except (ValueError, RecursionError):
        return ""
    code = data.get("code") if isinstance(data, dict) else None
    return code if isinstance(code, str) else ""
