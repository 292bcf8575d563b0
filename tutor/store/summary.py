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
    #: The most frequent kinds of their saved mistakes, with counts, most frequent first: the explanation's code,
    #: else "bid" (a flagged auction choice) or "play" (a play measured worse with no named pattern).
    top_mistakes: list[tuple[str, int]] = field(default_factory=list)
    #: Every saved mistake, and how many of them were practised right since ("learn from your mistakes").
    mistakes: int = 0
    mistakes_solved: int = 0
    #: The lessons done (ids), and each puzzle theme's last solved attempt (UTC stamp): what assignments ask.
    lessons: frozenset[str] = frozenset()
    themes_solved: dict[str, str] = field(default_factory=dict)

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
    practised: Counter[int] = Counter()
    # every mistake counts (the class page once showed "—" for a learner with 5 saved mistakes: only those
    # with a named pattern were read, and bids and most plays have none)
    for learner, number, text, solved in db.execute("SELECT learner, number, explanation, solved FROM mistakes"):
        code = _code(text) or ("bid" if int(number) <= 0 else "play")
        codes.setdefault(int(learner), Counter())[code] += 1
        practised[int(learner)] += int(bool(solved))
    finished: dict[int, set[str]] = {}
    for learner, lesson in db.execute("SELECT learner, lesson FROM lesson_progress"):
        finished.setdefault(int(learner), set()).add(str(lesson))
    solved_themes: dict[int, dict[str, str]] = {}
    for learner, at, text in db.execute("SELECT learner, at, themes FROM puzzle_attempts WHERE outcome = 'solved'"):
        latest = solved_themes.setdefault(int(learner), {})
        for theme in _themes(text):
            latest[theme] = max(latest.get(theme, ""), str(at))
    out = []
    for learner, name in learners:
        done, stars = lessons.get(learner, (0, 0))
        current, best = streak(days.get(learner, []), day)
        out.append(LearnerSummary(
            id=learner, name=name, lessons_done=done, lesson_stars=stars, puzzle_rating=ratings.get(learner),
            puzzle_attempts=attempts.get(learner, 0), puzzle_streak=current, puzzle_best_streak=best,
            games_by_level=levels.get(learner, {}),
            top_mistakes=sorted(codes.get(learner, Counter()).items(), key=lambda kv: (-kv[1], kv[0]))[:TOP_MISTAKES],
            mistakes=sum(codes.get(learner, Counter()).values()), mistakes_solved=practised[learner],
            lessons=frozenset(finished.get(learner, set())), themes_solved=solved_themes.get(learner, {}),
        ))
    return out


def _themes(text: object) -> list[str]:
    try:
        data = json.loads(str(text))
    except (ValueError, RecursionError):
        return []
    return [theme for theme in data if isinstance(theme, str)] if isinstance(data, list) else []


def _code(text: object) -> str:
    try:
        data = json.loads(str(text))
    except (ValueError, RecursionError):
        return ""
    code = data.get("code") if isinstance(data, dict) else None
    return code if isinstance(code, str) else ""
