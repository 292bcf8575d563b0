"""Rows in every area of the store for one learner (the club and the export tests fill stores alike)."""

from __future__ import annotations

from datetime import date

from tutor.lessons.progress import ProgressBook
from tutor.lessons.review import ReviewBook
from tutor.store import Store
from tutor.store.games import FinishedGame, GameStore
from tutor.store.mistakes import MistakeStore, StoredMistake
from tutor.store.puzzles import PuzzleRows


def finished(deal: int, level: str = "easy", won: bool = True, delta: int = 10) -> FinishedGame:
    return FinishedGame(deal=deal, level=level, role="farmer", won=won, bid=1, multiplier=1, cost=10, delta=delta,
                        scored=True, hints=0, undos=0, record={"deal_number": deal})


def fill(store: Store, tag: str) -> None:
    """One row in every area for the store's learner."""
    games = GameStore(store)
    games.save_current({"tag": tag})
    game_id = games.finish(finished(1))
    games.save_current({"tag": tag, "open": True})
    games.release()
    MistakeStore(store).save_analysis(game_id, [StoredMistake(game_id, 2, "5", "6", 0.4, 0.7, 0.3, "easy",
                                                              {"code": f"code_{tag}"})])
    ProgressBook(store).record(f"lesson-{tag}", 2, 1, 0)
    ReviewBook(store).missed(f"lesson-{tag}", 1)
    rows = PuzzleRows(store)
    rows.save_ratings((1600.0 + len(tag) + 0.123456789, 90.5, 0.06), f"p-{tag}", (1450.25, 120.0, 0.06))
    rows.add_attempt(f"p-{tag}", "x", date.today().isoformat(), True, "solved", True, 0, 0, '["pair"]', 1500, 1601)
    store.set_setting("lang", tag)
