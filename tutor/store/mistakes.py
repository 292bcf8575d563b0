"""The learner's mistakes per finished game: the moments of "learn from your mistakes".

One row per flagged decision of a stored game (the move, the better move, both
win chances, the verdict and its explanation as data), and whether the learner
has since found a good move there.  A game whose decisions were all analysed
is marked, so ``ddz mistakes`` does not analyse it again.  Additive: a new area
with its own tables (issue 13).  Every row carries the learner's id (issue 25).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from tutor.store import Baseline, Store
from tutor.store.schema import rebuild_with_learner

AREA = "mistakes"

#: The small costs of a finished game (issue 29): the moves under the inaccuracy line (or too close to it to
#: flag) whose loss the samples still tell from luck, each with its reason code — what ``ddz insights`` counts as
#: habits across games ("a 2 led early five times at 4–10 points each").  Portable SQL (migration 4 too).
COSTS_SCHEMA = (
    """CREATE TABLE mistakes_costs (
        learner INTEGER NOT NULL,
        game_id INTEGER NOT NULL,
        number INTEGER NOT NULL,
        move TEXT NOT NULL,
        loss REAL NOT NULL,
        noise REAL NOT NULL,
        code TEXT NOT NULL,
        PRIMARY KEY (game_id, number)
    )""",
    "CREATE INDEX mistakes_costs_learner ON mistakes_costs (learner)",
)

#: The mistakes area's schema at version 4 (issue 29), for both engines; the migrations below are its history.
SCHEMA = Baseline(4, (
    """CREATE TABLE mistakes (
        learner INTEGER NOT NULL,
        game_id INTEGER NOT NULL,
        number INTEGER NOT NULL,
        move TEXT NOT NULL,
        best TEXT NOT NULL,
        win_chance REAL NOT NULL,
        best_chance REAL NOT NULL,
        loss REAL NOT NULL,
        level TEXT NOT NULL,
        explanation TEXT NOT NULL DEFAULT '',
        solved INTEGER NOT NULL DEFAULT 0 CHECK (solved IN (0, 1)),
        tries INTEGER NOT NULL DEFAULT 0,
        noise REAL,
        chance_err REAL,
        best_err REAL,
        PRIMARY KEY (game_id, number)
    )""",
    "CREATE TABLE mistakes_analysed (game_id INTEGER PRIMARY KEY, learner INTEGER NOT NULL)",
    "CREATE INDEX mistakes_learner ON mistakes (learner)",
    *COSTS_SCHEMA,
))

MIGRATIONS: list[Any] = [
    [
        """CREATE TABLE mistakes (
            game_id INTEGER NOT NULL,
            number INTEGER NOT NULL,
            move TEXT NOT NULL,
            best TEXT NOT NULL,
            win_chance REAL NOT NULL,
            best_chance REAL NOT NULL,
            loss REAL NOT NULL,
            level TEXT NOT NULL,
            explanation TEXT NOT NULL DEFAULT '',
            solved INTEGER NOT NULL DEFAULT 0 CHECK (solved IN (0, 1)),
            tries INTEGER NOT NULL DEFAULT 0,
            PRIMARY KEY (game_id, number)
        )""",
        "CREATE TABLE mistakes_analysed (game_id INTEGER PRIMARY KEY)",
    ],
    # Issue 20: a mistake keeps the precision it was measured with — the standard error of the
    # loss (paired) and of the two win chances (expected scores for the bid).  NULL: stored before.
    [
        "ALTER TABLE mistakes ADD COLUMN noise REAL",
        "ALTER TABLE mistakes ADD COLUMN chance_err REAL",
        "ALTER TABLE mistakes ADD COLUMN best_err REAL",
    ],
    # Issue 25: a learner id on every row (tutor/store/schema.py).
    rebuild_with_learner(SCHEMA.statements[:3]),
    # Issue 29: the small costs of each finished game (habits across games count them too).
    list(COSTS_SCHEMA),
]


#: The columns in the order :class:`StoredMistake` lists them (the store reads and writes them by name).
_COLUMNS = ("game_id", "number", "move", "best", "win_chance", "best_chance", "loss", "level", "explanation",
            "solved", "tries", "noise", "chance_err", "best_err")  # fmt: skip


def _figure(value: Any) -> float | None:
    return None if value is None else float(value)


@dataclass(frozen=True, slots=True)
class StoredMistake:
    """One flagged decision: decision ``number`` of game ``game_id`` (the learner's N-th turn)."""

    game_id: int
    number: int
    move: str
    best: str
    win_chance: float
    best_chance: float
    loss: float
    level: str
    #: The explanation as data: {"code": …, "values": {…}} or empty.
    explanation: dict[str, Any] = field(default_factory=dict)
    solved: bool = False
    tries: int = 0
    #: Standard error of ``loss`` (paired over the same samples); None when stored before issue 20.
    noise: float | None = None
    #: Standard errors of ``win_chance`` and ``best_chance`` (None when not known).
    chance_err: float | None = None
    best_err: float | None = None


@dataclass(frozen=True, slots=True)
class SmallCost:
    """A move of game ``game_id`` (the learner's ``number``-th) that cost a little: a loss told from luck, not flagged."""

    game_id: int
    number: int
    move: str
    loss: float
    noise: float
    #: The reason's stable code (:mod:`tutor.coach.reasons`).
    code: str


class MistakeStore:
    """The mistakes area of a :class:`~tutor.store.Store`."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.learner = store.learner
        store.register_schema(AREA, MIGRATIONS, SCHEMA)

    def analysed(self, game_id: int) -> bool:
        row = self.store.db.execute(
            "SELECT 1 FROM mistakes_analysed WHERE game_id = ? AND learner = ?", (game_id, self.learner)
        ).fetchone()
        return row is not None

    def save_analysis(self, game_id: int, found: list[StoredMistake], costs: Sequence[SmallCost] = ()) -> None:
        """Replace the game's mistakes with ``found`` (and its small costs with ``costs``) and mark it analysed,
        in one transaction."""
        with self.store.transaction() as db:
            db.execute("DELETE FROM mistakes WHERE game_id = ? AND learner = ?", (game_id, self.learner))
            db.execute("DELETE FROM mistakes_costs WHERE game_id = ? AND learner = ?", (game_id, self.learner))
            for c in costs:
                db.execute(
                    "INSERT INTO mistakes_costs (learner, game_id, number, move, loss, noise, code)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (self.learner, game_id, c.number, c.move, c.loss, c.noise, c.code),
                )
            for m in found:
                db.execute(
                    f"INSERT INTO mistakes (learner, {', '.join(_COLUMNS)}) VALUES (?, {', '.join('?' * len(_COLUMNS))})",
                    (self.learner, game_id, m.number, m.move, m.best, m.win_chance, m.best_chance, m.loss, m.level,
                     json.dumps(m.explanation) if m.explanation else "", int(m.solved), m.tries,
                     m.noise, m.chance_err, m.best_err),
                )  # fmt: skip
            db.execute("INSERT INTO mistakes_analysed (game_id, learner) VALUES (?, ?) ON CONFLICT (game_id) DO NOTHING",
                       (game_id, self.learner))

    def for_game(self, game_id: int) -> list[StoredMistake]:
        """The game's mistakes, largest loss first."""
        rows = self.store.db.execute(
            f"SELECT {', '.join(_COLUMNS)} FROM mistakes WHERE game_id = ? AND learner = ? ORDER BY loss DESC, number",
            (game_id, self.learner),
        ).fetchall()
        out = []
        for row in rows:
            try:
                explanation = json.loads(row[8]) if row[8] else {}
            except ValueError:
                explanation = {}
            out.append(StoredMistake(
                game_id=int(row[0]), number=int(row[1]), move=str(row[2]), best=str(row[3]),
                win_chance=float(row[4]), best_chance=float(row[5]), loss=float(row[6]), level=str(row[7]),
                explanation=explanation if isinstance(explanation, dict) else {},
                solved=bool(row[9]), tries=int(row[10]),
                noise=_figure(row[11]), chance_err=_figure(row[12]), best_err=_figure(row[13]),
            ))  # fmt: skip
        return out

    def costs_for_game(self, game_id: int) -> list[SmallCost]:
        """The game's small costs, in the order they were played."""
        rows = self.store.db.execute(
            "SELECT game_id, number, move, loss, noise, code FROM mistakes_costs WHERE game_id = ? AND learner = ?"
            " ORDER BY number",
            (game_id, self.learner),
        ).fetchall()
        return [SmallCost(int(r[0]), int(r[1]), str(r[2]), float(r[3]), float(r[4]), str(r[5])) for r in rows]

    def record_try(self, game_id: int, number: int, solved: bool) -> None:
        """One attempt at a moment; once solved it stays solved."""
        with self.store.transaction() as db:
            db.execute(
                "UPDATE mistakes SET tries = tries + 1, solved = CASE WHEN ? = 1 THEN 1 ELSE solved END"
                " WHERE game_id = ? AND number = ? AND learner = ?",
                (int(solved), game_id, number, self.learner),
            )
