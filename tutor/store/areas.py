"""Every area of the store in one list: what a club brings up to date, a removal deletes, an export carries.

The learner-owned tables, each with the column that names the learner, in an
order where a table comes after the ones its rows refer to (games before the
mistakes and puzzles made from them).
"""

from __future__ import annotations

from tutor.store import Store

#: (area, table) of every learner-owned row, parents first.  ``settings`` belongs to the bookkeeping.
LEARNER_TABLES: tuple[tuple[str, str], ...] = (
    ("store", "settings"),
    ("games", "games"),
    ("games", "open_games"),
    ("mistakes", "mistakes"),
    ("mistakes", "mistakes_analysed"),
    ("mistakes", "mistakes_costs"),
    ("lessons", "lesson_progress"),
    ("lessons", "lesson_review"),
    ("puzzles", "puzzle_learner"),
    ("puzzles", "puzzle_ratings"),
    ("puzzles", "puzzle_attempts"),
    ("puzzles", "puzzle_personal"),
    ("puzzles", "puzzle_games_scanned"),
    ("puzzle_streak", "puzzle_streak"),
)


#: Learner-owned rows of areas that only some programs use (registered on their first use): deleted with the
#: learner when the area exists, never exported (the web's open activities are not the learner's record).
TRANSIENT_TABLES: tuple[tuple[str, str], ...] = (("web_slots", "web_slots"), ("coach_answers", "coach_answers"))


def register_all(store: Store) -> None:
    """Bring every area's tables up to date (each area's own class does it on first use, too)."""
    from tutor.store.games import GameStore
    from tutor.store.lessons import LessonRows
    from tutor.store.mistakes import MistakeStore
    from tutor.store.puzzles import PuzzleRows
    from tutor.store.streak import StreakRows
    from tutor.store.clubschema import register as register_users

    GameStore(store)
    MistakeStore(store)
    LessonRows(store)
    PuzzleRows(store)
    StreakRows(store)
    register_users(store)


def delete_learner_rows(store: Store, learner: int) -> int:
    """Inside a transaction: delete every row of ``learner`` in every area; how many went."""
    register_all(store)
    gone = 0
    for area, table in TRANSIENT_TABLES:
        if store.schema_version(area) > 0:
            gone += max(0, int(store.db.execute(f"DELETE FROM {table} WHERE learner = ?", (learner,)).rowcount))
    for _, table in reversed(LEARNER_TABLES):
        gone += max(0, int(store.db.execute(f"DELETE FROM {table} WHERE learner = ?", (learner,)).rowcount))
    return gone


def has_rows(store: Store, learner: int) -> bool:
    """Whether ``learner`` has any row in any area (an import refuses to mix two histories)."""
    register_all(store)
    for _, table in LEARNER_TABLES:
        if store.db.execute(f"SELECT 1 FROM {table} WHERE learner = ? LIMIT 1", (learner,)).fetchone():
            return True
    return False
