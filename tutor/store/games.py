"""Played games in the store: the running score, the game in progress, finished games.

The running score is never kept as a separate number that could drift: it is
the sum of the learner's score changes over finished games, and a game is
inserted and the game in progress cleared in the *same* transaction, so a crash
can never count a game twice or lose one that was shown as finished.

The game in progress is saved after every decision of the learner (a small JSON
document: the deal, the level and the actions so far), so killing the program
loses at most the move being typed.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any

from tutor.store import Store

AREA = "games"

MIGRATIONS: list[list[str]] = [
    [
        """CREATE TABLE games (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            finished_at TEXT NOT NULL,
            deal INTEGER NOT NULL,
            level TEXT NOT NULL,
            role TEXT NOT NULL CHECK (role IN ('landlord', 'farmer')),
            won INTEGER NOT NULL CHECK (won IN (0, 1)),
            bid INTEGER NOT NULL,
            multiplier INTEGER NOT NULL,
            cost INTEGER NOT NULL,
            delta INTEGER NOT NULL,
            scored INTEGER NOT NULL CHECK (scored IN (0, 1)),
            hints INTEGER NOT NULL DEFAULT 0,
            undos INTEGER NOT NULL DEFAULT 0,
            record TEXT NOT NULL
        )""",
        "CREATE TABLE current_game (slot INTEGER PRIMARY KEY CHECK (slot = 1), state TEXT NOT NULL)",
    ],
]


@dataclass(frozen=True, slots=True)
class FinishedGame:
    """One finished game, as the history and ``ddz replay`` show it."""

    deal: int
    level: str
    role: str
    won: bool
    bid: int
    multiplier: int
    cost: int
    #: The learner's score change (0 for a replayed deal: RULES §7).
    delta: int
    scored: bool
    hints: int
    undos: int
    #: The engine's game record as a JSON-ready dict.
    record: dict[str, Any]
    id: int | None = None
    finished_at: str = field(default="")


class GameStore:
    """The games area of a :class:`~tutor.store.Store`."""

    def __init__(self, store: Store) -> None:
        self.store = store
        store.register_schema(AREA, MIGRATIONS)

    # --------------------------------------------------------- game in progress
    def save_current(self, state: dict[str, Any]) -> None:
        """Replace the saved game in progress (one small write per decision)."""
        with self.store.transaction() as db:
            db.execute("INSERT OR REPLACE INTO current_game VALUES (1, ?)", (json.dumps(state),))

    def load_current(self) -> dict[str, Any] | None:
        row = self.store.db.execute("SELECT state FROM current_game WHERE slot = 1").fetchone()
        if row is None:
            return None
        try:
            state = json.loads(row[0])
        except ValueError:
            return None
        return state if isinstance(state, dict) else None

    def clear_current(self) -> None:
        with self.store.transaction() as db:
            db.execute("DELETE FROM current_game")

    # ------------------------------------------------------------ finished games
    def finish(self, game: FinishedGame) -> int:
        """Record a finished game and drop the game in progress, atomically; returns its id."""
        stamp = game.finished_at or datetime.now(timezone.utc).isoformat(timespec="seconds")
        with self.store.transaction() as db:
            cursor = db.execute(
                "INSERT INTO games (finished_at, deal, level, role, won, bid, multiplier, cost, delta,"
                " scored, hints, undos, record) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    stamp,
                    game.deal,
                    game.level,
                    game.role,
                    int(game.won),
                    game.bid,
                    game.multiplier,
                    game.cost,
                    game.delta if game.scored else 0,
                    int(game.scored),
                    game.hints,
                    game.undos,
                    json.dumps(game.record),
                ),
            )
            db.execute("DELETE FROM current_game")
            game_id = cursor.lastrowid
        assert game_id is not None
        return int(game_id)

    def running_score(self) -> int:
        row = self.store.db.execute("SELECT COALESCE(SUM(delta), 0) FROM games").fetchone()
        return int(row[0])

    def _from_row(self, row: tuple[Any, ...]) -> FinishedGame:
        (gid, stamp, deal, level, role, won, bid, mult, cost, delta, scored, hints, undos, record) = row
        try:
            data = json.loads(record)
        except ValueError:
            data = {}
        return FinishedGame(
            deal=deal,
            level=level,
            role=role,
            won=bool(won),
            bid=bid,
            multiplier=mult,
            cost=cost,
            delta=delta,
            scored=bool(scored),
            hints=hints,
            undos=undos,
            record=data,
            id=gid,
            finished_at=stamp,
        )

    _COLUMNS = (
        "id, finished_at, deal, level, role, won, bid, multiplier, cost, delta, scored, hints, undos, record"
    )

    def history(self, limit: int = 20) -> list[FinishedGame]:
        """The most recent finished games, newest first."""
        rows = self.store.db.execute(
            f"SELECT {self._COLUMNS} FROM games ORDER BY id DESC LIMIT ?", (limit,)
        ).fetchall()
        return [self._from_row(r) for r in rows]

    def get(self, game_id: int) -> FinishedGame | None:
        row = self.store.db.execute(f"SELECT {self._COLUMNS} FROM games WHERE id = ?", (game_id,)).fetchone()
        return self._from_row(row) if row else None

    def stats(self) -> dict[str, Any]:
        """Running score, and games and wins by role and by level (scored and replays alike)."""
        db = self.store.db
        total, wins = db.execute("SELECT COUNT(*), COALESCE(SUM(won), 0) FROM games").fetchone()
        by_role = {
            role: {"games": n, "wins": w}
            for role, n, w in db.execute("SELECT role, COUNT(*), SUM(won) FROM games GROUP BY role")
        }
        by_level = {
            level: {"games": n, "wins": w}
            for level, n, w in db.execute("SELECT level, COUNT(*), SUM(won) FROM games GROUP BY level")
        }
        best = db.execute("SELECT COALESCE(MAX(delta), 0), COALESCE(MIN(delta), 0) FROM games").fetchone()
        return {
            "score": self.running_score(),
            "games": int(total),
            "wins": int(wins),
            "by_role": by_role,
            "by_level": by_level,
            "best": int(best[0]),
            "worst": int(best[1]),
        }
